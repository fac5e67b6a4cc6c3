//! Parses every `.vert`, `.frag`, `.comp`, `.geom`, `.tesc` and `.tese` file under a directory
//! and reports how many parsed, each failure with its error, and the throughput.
//!
//! `cargo run --release -p halfcheck-compiler --example parse_dir -- DIR [--quiet]`

use std::path::{Path, PathBuf};
use std::time::Instant;

use halfcheck_compiler::{parse_shader, Stage};

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
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: parse_dir DIR [--quiet]")?;
    let quiet = args.any(|a| a == "--quiet");
    let mut files = Vec::new();
    collect(Path::new(&dir), &mut files)?;
    files.sort();
    let mut sources = Vec::with_capacity(files.len());
    for path in &files {
        sources.push((path, std::fs::read_to_string(path)?));
    }
    let bytes: usize = sources.iter().map(|(_, s)| s.len()).sum();
    let start = Instant::now();
    let mut failures = Vec::new();
    for (path, source) in &sources {
        let stage = stage_of(path).unwrap_or(Stage::Fragment);
        if let Err(e) = parse_shader(source, stage, &path.display().to_string()) {
            failures.push(e);
        }
    }
    // Repeat the whole corpus until a second has passed, for a steadier throughput figure.
    let mut rounds = 1u32;
    while start.elapsed().as_secs_f64() < 1.0 {
        for (path, source) in &sources {
            let stage = stage_of(path).unwrap_or(Stage::Fragment);
            let _ = parse_shader(source, stage, "");
        }
        rounds += 1;
    }
    let seconds = start.elapsed().as_secs_f64() / f64::from(rounds);
    if !quiet {
        for failure in &failures {
            println!("{failure}\n");
        }
    }
    println!(
        "parsed {}/{} files, {} bytes in {:.4} s per pass: {:.1} MB/s",
        sources.len() - failures.len(),
        sources.len(),
        bytes,
        seconds,
        bytes as f64 / 1e6 / seconds.max(1e-9)
    );
    Ok(())
}
