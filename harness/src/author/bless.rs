//! `halfcheck bless FILE [--lane NAME | --emu-profile P]`: fills every probe's expected values
//! with the emulator's prediction for a driver profile (on a lowering profile, the lowered
//! value) and writes the test's `# Expect` header lines: `# Expect: V` for llvmpipe (the
//! corpus's line) and `# Expect LANE: V` for each other Mesa lane CI judges, each the verdict
//! the emulator gives as that lane's driver. Nothing else in the file changes: each probe keeps its spelling, spacing
//! and comments, and a number already equal to its new value stays as written, so a second
//! bless leaves the file byte for byte as the first.

use super::header::{expect_line, header_lines, PLAIN_LANE};
use super::numbers::replace_trailing;
use super::{fail, read_test};
use halfcheck_emu::{load_profile, predict_with, Choices, Mode};
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_results::{Status, TestResult};
use halfcheck_verdict::{attach, declares_reduced_precision, Judging, ReferenceMode};
use std::path::PathBuf;
use std::process::ExitCode;

/// The lanes whose `# Expect` lines bless writes: those `cases/expectations/` judges on Mesa,
/// each predicted by its built-in profile (llvmpipe's is the plain `# Expect:` line).
pub(crate) const EXPECT_LANES: [&str; 5] =
    ["llvmpipe", "llvmpipe-nosse", "softpipe", "zink", "virgl"];

/// `halfcheck bless`'s arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct BlessArgs {
    /// The `.shader_test` file to bless (rewritten in place).
    file: PathBuf,
    #[command(flatten)]
    profile: super::ProfileArgs,
}

/// What blessing changed.
#[derive(Debug, Default)]
pub(crate) struct Blessed {
    /// The file's new text.
    pub text: String,
    /// Probe values rewritten.
    pub values_changed: usize,
    /// The verdict per `# Expect` line written (`None`: the plain line).
    pub expects: Vec<(Option<String>, String)>,
    /// Probes that still fail on the profile after blessing: a probe whose region the
    /// prediction does not hold one value over, with the line.
    pub still_failing: Vec<usize>,
}

/// Runs `halfcheck bless`: exit 0 when the file was blessed, 1 when a blessed probe still
/// fails on the profile, 2 when it could not be.
pub(crate) fn run(args: &BlessArgs) -> ExitCode {
    let profile = match args.profile.load() {
        Ok(profile) => profile,
        Err(e) => return fail(&e),
    };
    let (text, test) = match read_test(&args.file) {
        Ok(read) => read,
        Err(e) => return fail(&e.to_string()),
    };
    let blessed = match bless(&text, &test, &profile.choices) {
        Ok(blessed) => blessed,
        Err(e) => return fail(&format!("{}: {e}", args.file.display())),
    };
    if blessed.text != text {
        if let Err(e) = std::fs::write(&args.file, &blessed.text) {
            return fail(&format!("cannot write {}: {e}", args.file.display()));
        }
    }
    let expects: Vec<String> = blessed
        .expects
        .iter()
        .map(|(lane, v)| format!("{}: {v}", lane.as_deref().unwrap_or(PLAIN_LANE)))
        .collect();
    crate::console::print(&format!(
        "{}: blessed for {}: {} probe values changed; expect {}\n",
        args.file.display(),
        profile.name,
        blessed.values_changed,
        expects.join(", ")
    ));
    for line in &blessed.still_failing {
        crate::console::print(&format!(
            "{}:{line}: still fails on {} after blessing: the prediction is not one value over \
             the probe's region; probe one pixel (`probe rgba X Y ...`)\n",
            args.file.display(),
            profile.name
        ));
    }
    if blessed.still_failing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Blesses `text` (parsed as `test`) for the driver of `choices`.
pub(crate) fn bless(text: &str, test: &ShaderTest, choices: &Choices) -> Result<Blessed, String> {
    let predicted = emulate(test, choices)?;
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let mut blessed = Blessed::default();
    for probe in &predicted.probes {
        let Some(line) = probe.line.checked_sub(1).and_then(|i| lines.get_mut(i)) else {
            continue;
        };
        let new = replace_trailing(line, &probe.observed).ok_or_else(|| {
            format!(
                "line {}: expected {} numbers at the end of the probe",
                probe.line,
                probe.observed.len()
            )
        })?;
        if new != *line {
            blessed.values_changed += 1;
            *line = new;
        }
    }
    let body = lines.concat();
    let reblessed = halfcheck_piglit::shader_test::parse_str(std::path::Path::new(""), &body)
        .map_err(|e| e.to_string())?;
    blessed.still_failing = emulate(&reblessed, choices)?
        .probes
        .iter()
        .filter(|p| !p.pass)
        .map(|p| p.line)
        .collect();
    for lane in EXPECT_LANES {
        let lane_choices = load_profile(lane).map_err(|e| e.to_string())?.choices;
        let named = (lane != PLAIN_LANE).then(|| lane.to_string());
        blessed
            .expects
            .push((named, verdict(&reblessed, &lane_choices)?));
    }
    blessed.text = with_expect_lines(&body, &blessed.expects);
    Ok(blessed)
}

/// The test run on the emulator as the driver of `choices`, or why it could not run.
fn emulate(test: &ShaderTest, choices: &Choices) -> Result<TestResult, String> {
    let result = predict_with(test, Mode::Mediump, choices);
    if result.probes.is_empty() || matches!(result.status, Status::Skip | Status::Error) {
        return Err(format!(
            "the emulator ran no probe: {}",
            result.reason.as_deref().unwrap_or("the test has none")
        ));
    }
    Ok(result)
}

/// The verdict the emulator gives `test` as the driver of `choices`, judged as `run` judges a
/// GL run on that driver (its highp reference: the emulator's, as that driver).
pub(crate) fn verdict(test: &ShaderTest, choices: &Choices) -> Result<String, String> {
    let mut result = emulate(test, choices)?;
    let judging = Judging {
        reference: ReferenceMode::Driver,
        driver: choices,
    };
    let mut reference = |t: &ShaderTest| predict_with(t, Mode::Mediump, choices);
    attach(
        test,
        declares_reduced_precision(test),
        &mut result,
        judging,
        &mut reference,
    );
    Ok(result
        .verdict
        .map_or("unjudged", |v| v.as_str())
        .to_string())
}

/// `text` with its `# Expect` lines set to `expects`: a line already there for a lane is
/// rewritten in place, the others follow the last `# Expect` line of the header (else its
/// last comment line; else they open the file).
fn with_expect_lines(text: &str, expects: &[(Option<String>, String)]) -> String {
    let header_len = header_lines(text).count();
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let header = &lines[..header_len.min(lines.len())];
    let is_expect = |l: &str| {
        l.trim()
            .strip_prefix('#')
            .and_then(|c| expect_line(c.trim()))
    };
    let last_comment = header
        .iter()
        .rposition(|l| l.trim_start().starts_with('#'))
        .map_or(0, |i| i + 1);
    let insert_at = header
        .iter()
        .rposition(|l| is_expect(l).is_some())
        .map_or(last_comment, |i| i + 1);
    let mut missing = Vec::new();
    for (lane, verdict) in expects {
        let written = format!(
            "# Expect{}: {verdict}\n",
            lane.as_ref().map_or(String::new(), |l| format!(" {l}"))
        );
        let at = lines[..header_len.min(lines.len())]
            .iter()
            .position(|l| is_expect(l).is_some_and(|(l, _)| l == *lane));
        match at {
            Some(i) => lines[i] = written,
            None => missing.push(written),
        }
    }
    let tail = lines.split_off(insert_at.min(lines.len()));
    lines.extend(missing);
    lines.extend(tail);
    lines.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expect_lines_are_rewritten_in_place_and_new_ones_follow_them() {
        let text = "# Rule: r\n# Expect: not-lowered\n# note\n\n[require]\n# Expect: x\n";
        let expects = [
            (None, "lowered".to_string()),
            (Some("softpipe".to_string()), "not-lowered".to_string()),
        ];
        let once = with_expect_lines(text, &expects);
        assert_eq!(
            once,
            "# Rule: r\n# Expect: lowered\n# Expect softpipe: not-lowered\n# note\n\n[require]\n# Expect: x\n"
        );
        assert_eq!(with_expect_lines(&once, &expects), once);
    }
}
