//! The command that reruns one test of a run: the run's own command line with its test
//! selection, results directory, checks and parallelism replaced, the backend it resolved
//! to, and the environment that picked its Mesa driver.

use crate::results::RunInfo;

/// Options of `run` that take a value and that a rerun of one test drops.
const DROPPED_WITH_VALUE: [&str; 10] = [
    "-t",
    "--include",
    "-x",
    "--exclude",
    "--results",
    "--expectations",
    "--baseline",
    "-j",
    "--jobs",
    "--backend",
];

/// Flags of `run` that a rerun of one test drops.
const DROPPED_FLAGS: [&str; 2] = ["--skip-renderer-check", "--no-report"];

/// A shell command that reruns test `name` as `info`'s run ran it, or `None` when the run's
/// command line is unknown or was not `halfcheck run`.
pub(super) fn command(info: &RunInfo, name: &str) -> Option<String> {
    let (program, args) = info.command_line.split_first()?;
    if args.first().map(String::as_str) != Some("run") {
        return None;
    }
    let mut kept = Vec::new();
    let mut skip_value = false;
    for arg in args.iter().skip(1) {
        if skip_value {
            skip_value = false;
            continue;
        }
        let option = arg.split('=').next().unwrap_or(arg);
        if DROPPED_WITH_VALUE.contains(&option) {
            skip_value = !arg.contains('=');
            continue;
        }
        if DROPPED_FLAGS.contains(&arg.as_str()) {
            continue;
        }
        kept.push(quote(arg));
    }
    let mut words = environment(&info.renderer);
    words.extend([
        quote(program),
        "run".into(),
        "--backend".into(),
        quote(&info.backend),
        "-t".into(),
        quote(&format!("^{}$", regex::escape(name))),
        "--results".into(),
        "rerun".into(),
        "--no-report".into(),
    ]);
    words.extend(kept);
    Some(words.join(" "))
}

/// The Mesa environment that selects the renderer the run had.
fn environment(renderer: &str) -> Vec<String> {
    if renderer.starts_with("softpipe") {
        vec!["GALLIUM_DRIVER=softpipe".into()]
    } else if renderer.starts_with("llvmpipe") && renderer.contains("128 bits") {
        // llvmpipe without SSE (and F16C): floats are not lowered.
        vec!["GALLIUM_NOSSE=1".into()]
    } else {
        Vec::new()
    }
}

/// `word` quoted for a POSIX shell when it needs it.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rerun_selects_the_one_test_on_the_same_driver_and_paths() {
        let info = RunInfo {
            backend: "gl".into(),
            renderer: "softpipe".into(),
            command_line: [
                "target/release/halfcheck",
                "run",
                "cases",
                "-j",
                "2",
                "--results=out",
                "--expectations",
                "cases/expectations/softpipe.yaml",
                "-t",
                "arith",
            ]
            .map(String::from)
            .to_vec(),
            ..RunInfo::default()
        };
        assert_eq!(
            command(&info, "arithmetic/add_scalar.shader_test").as_deref(),
            Some(
                "GALLIUM_DRIVER=softpipe target/release/halfcheck run --backend gl \
                 -t '^arithmetic/add_scalar\\.shader_test$' --results rerun --no-report cases"
            )
        );
    }

    #[test]
    fn no_rerun_without_a_run_command_line() {
        assert_eq!(command(&RunInfo::default(), "a"), None);
    }
}
