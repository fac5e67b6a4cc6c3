//! Compiles (parse, semantic analysis, lowering) or only parses every `.vert`, `.frag`,
//! `.comp`, `.geom`, `.tesc` and `.tese` file under a directory; reports how many were
//! accepted, each failure with its error, and the throughput.
//!
//! `cargo run --release -p halfcheck-compiler --example glsl_dir -- DIR [--parse-only]
//! [--quiet] [--repeat N] [--expect-fail]` (`--expect-fail` lists the files accepted instead;
//! `--repeat` runs the corpus N times for a steadier throughput figure).

use std::path::{Path, PathBuf};
use std::time::Instant;

use halfcheck_compiler::{compile, parse_shader, CompileOptions, Stage};

fn stage_of(path: &Path) -> Option<Stage> {
    match path.extension()?.to_str()? {
        "vert" => Some(Stage::Vertex),
        "frag" => Some(Stage::Fragment),
        "comp" => Some(Stage::Compute),
        "geom" => Some(Stage::Geometry),
        "tesc" => Some(Stage::TessControl),
        "tese" => Some(Stage::TessEvaluation),
        _ => None,
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if stage_of(&path).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .ok_or("usage: glsl_dir DIR [--parse-only] [--quiet] [--repeat N] [--expect-fail]")?;
    let parse_only = args.iter().any(|a| a == "--parse-only");
    let quiet = args.iter().any(|a| a == "--quiet");
    let expect_fail = args.iter().any(|a| a == "--expect-fail");
    let repeat: usize = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut files = Vec::new();
    collect(Path::new(dir), &mut files)?;
    files.sort();
    let sources: Vec<(PathBuf, String, Stage)> = files
        .into_iter()
        .filter_map(|p| {
            let stage = stage_of(&p)?;
            let text = std::fs::read_to_string(&p).ok()?;
            Some((p, text, stage))
        })
        .collect();
    let bytes: usize = sources.iter().map(|(_, t, _)| t.len()).sum();
    let options = CompileOptions::default();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut accepted = Vec::new();
    for round in 0..repeat {
        for (path, text, stage) in &sources {
            let name = path.display().to_string();
            let outcome = if parse_only {
                parse_shader(text, *stage, &name).map(|_| ())
            } else {
                compile(text, *stage, &name, &options).map(|_| ())
            };
            match outcome {
                Err(e) if round == 0 => failures.push(e.to_string()),
                Ok(_) if round == 0 => accepted.push(name),
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
