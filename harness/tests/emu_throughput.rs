//! Emulator throughput, for BENCHMARKS.md (ignored by default: run with
//! `cargo test --release -p halfcheck --test emu_throughput -- --ignored --nocapture`).
//!
//! Measures fragments per second on a shader whose values differ per fragment (so nothing is
//! computed once for all lanes), on a 250x250 `probe all`, and the in-process time of the
//! whole corpus (cases/ and the Igalia anchors) in mediump mode.

use halfcheck::results::Status;
use halfcheck_emu::{predict, Mode};
use halfcheck_piglit::shader_test::{parse_file, parse_str};
use std::path::{Path, PathBuf};
use std::time::Instant;

const PER_FRAGMENT: &str = "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n\n\
[vertex shader passthrough]\n\n[fragment shader]\n#version 100\nprecision mediump float;\n\
uniform float k;\nvoid main() {\n  vec2 p = gl_FragCoord.xy * k;\n\
  float s = sin(p.x) * cos(p.y) + fract(p.x * p.y);\n\
  gl_FragColor = vec4(fract(s), sqrt(abs(s)), dot(p, p) * 0.0001, 1.0);\n}\n\n\
[test]\nuniform float k 0.01\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 0.0 0.0 1.0\n";

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "shader_test") {
            out.push(path);
        }
    }
}

#[test]
#[ignore = "a measurement, not a check"]
fn fragments_per_second() {
    let test = parse_str(Path::new("throughput.shader_test"), PER_FRAGMENT).expect("parses");
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        let result = predict(&test, Mode::Mediump);
        assert!(
            matches!(result.status, Status::Pass | Status::Fail),
            "{result:?}"
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    let fragments = f64::from(250 * 250 * rounds);
    println!(
        "per-fragment shader: {:.1} Mfragments/s ({:.2} ms per 250x250 draw)",
        fragments / seconds / 1e6,
        seconds * 1000.0 / f64::from(rounds)
    );

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("../cases"), &mut paths);
    if let Some(anchors) = halfcheck_test_support::igalia_mediump() {
        files(&anchors, &mut paths);
    }
    let tests: Vec<_> = paths.iter().filter_map(|p| parse_file(p).ok()).collect();
    let started = Instant::now();
    for test in &tests {
        predict(test, Mode::Mediump);
    }
    println!(
        "corpus: {} tests in {:.3} s in one process",
        tests.len(),
        started.elapsed().as_secs_f64()
    );
}
