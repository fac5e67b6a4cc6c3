//! Compiles (parse, semantic analysis, lowering) or only parses every `.vert`, `.frag`,
//! `.comp`, `.geom`, `.tesc` and `.tese` file under a directory, or with `--gles-sections`
//! the GLSL ES shader sections of every GL ES `.shader_test` under it (the rule of
//! `halfcheck_test_support::gles_shader_sections`); reports how many were accepted, each
//! failure with its error, and the throughput.
//!
//! `cargo run --release -p halfcheck-compiler --example glsl_dir -- DIR [--parse-only]
//! [--gles-sections] [--quiet] [--repeat N] [--expect-fail]` (`--expect-fail` lists the files
//! accepted instead; `--repeat` runs the corpus N times for a steadier throughput figure).
//! Directories are followed through symbolic links.

use std::path::{Path, PathBuf};
use std::time::Instant;

use halfcheck_compiler::{compile, parse_shader, CompileOptions, Stage};
use halfcheck_test_support::gles_shader_sections;

/// The stage of a file extension or of a `.shader_test` section name.
fn stage_of(name: &str) -> Option<Stage> {
    match name {
        "vert" | "vertex shader" => Some(Stage::Vertex),
        "frag" | "fragment shader" => Some(Stage::Fragment),
        "comp" | "compute shader" => Some(Stage::Compute),
        "geom" | "geometry shader" => Some(Stage::Geometry),
        "tesc" | "tessellation control shader" => Some(Stage::TessControl),
        "tese" | "tessellation evaluation shader" => Some(Stage::TessEvaluation),
        _ => None,
    }
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn collect(
    dir: &Path,
    wanted: &dyn Fn(&Path) -> bool,
    out: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, wanted, out)?;
        } else if wanted(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The shaders to compile: (name, text, stage).
fn shaders(dir: &Path, gles_sections: bool) -> std::io::Result<Vec<(String, String, Stage)>> {
    let mut files = Vec::new();
    if gles_sections {
        collect(dir, &|p| extension(p) == "shader_test", &mut files)?;
    } else {
        collect(dir, &|p| stage_of(extension(p)).is_some(), &mut files)?;
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.display().to_string();
        if gles_sections {
            for (section, body) in gles_shader_sections(&text) {
                if let Some(stage) = stage_of(&section) {
                    out.push((format!("{name} [{section}]"), body, stage));
                }
            }
        } else if let Some(stage) = stage_of(extension(&path)) {
            out.push((name, text, stage));
        }
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().ok_or(
        "usage: glsl_dir DIR [--parse-only] [--gles-sections] [--quiet] [--repeat N] [--expect-fail]",
    )?;
    let parse_only = args.iter().any(|a| a == "--parse-only");
    let gles_sections = args.iter().any(|a| a == "--gles-sections");
    let quiet = args.iter().any(|a| a == "--quiet");
    let expect_fail = args.iter().any(|a| a == "--expect-fail");
    let repeat: usize = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let sources = shaders(Path::new(dir), gles_sections)?;
    let bytes: usize = sources.iter().map(|(_, t, _)| t.len()).sum();
    let options = CompileOptions::default();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut accepted = Vec::new();
    for round in 0..repeat {
        for (name, text, stage) in &sources {
            let outcome = if parse_only {
                parse_shader(text, *stage, name).map(|_| ())
            } else {
                compile(text, *stage, name, &options).map(|_| ())
            };
            match outcome {
                Err(e) if round == 0 => failures.push(e.to_string()),
                Ok(_) if round == 0 => accepted.push(name.clone()),
                _ => {}
            }
        }
    }
    if expect_fail {
        for name in &accepted {
            println!("accepted: {name}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if !quiet && !expect_fail {
        for f in &failures {
            println!("{f}\n");
        }
    }
    let mb = (bytes * repeat) as f64 / 1e6;
    println!(
        "{} files, {} accepted, {} failed; {:.2} MB in {:.3} s = {:.1} MB/s",
        sources.len(),
        sources.len() - failures.len(),
        failures.len(),
        mb,
        secs,
        mb / secs
    );
    Ok(())
}
