//! The emulator's inventory (`halfcheck_emu::inventory`) is whole: every built-in function
//! and variable the compiler knows, every extension it accepts and every command piglit's
//! parser knows has exactly one status, no line names something the tables lack, every
//! `modelled` line names cases that pin it on three lanes, and `halfcheck features` prints it.

mod common;

use common::{anchors, case_file, cases, halfcheck, text};
use halfcheck::expectations::Expectations;
use halfcheck::results::Verdict;
use halfcheck_compiler::front::preprocessor::extension_names;
use halfcheck_compiler::sema::{BUILTIN_FUNCTIONS, BUILTIN_VARIABLES};
use halfcheck_emu::inventory::{features, Kind, Status, UNMODELLED_QUALIFIERS};
use halfcheck_piglit::shader_test::{COMMANDS, UNSUPPORTED};

/// Every name of `table` is on exactly one line of `kind`, and every line of `kind` names
/// only what `table` holds.
fn classifies_exactly(kind: Kind, table: &[&str]) {
    for name in table {
        let lines = features()
            .iter()
            .filter(|f| f.kind == kind && f.names.contains(name))
            .count();
        assert_eq!(
            lines,
            1,
            "{} {name} is on {lines} inventory lines",
            kind.name()
        );
    }
    for feature in features().iter().filter(|f| f.kind == kind) {
        for name in feature.names {
            assert!(
                table.contains(name),
                "the inventory names {} {name}, which the table lacks",
                kind.name()
            );
        }
    }
}

#[test]
fn every_builtin_function_of_the_compiler_has_one_status() {
    classifies_exactly(Kind::Function, BUILTIN_FUNCTIONS);
}

#[test]
fn every_builtin_variable_of_the_compiler_has_one_status() {
    classifies_exactly(Kind::Variable, BUILTIN_VARIABLES);
}

#[test]
fn every_extension_the_compiler_accepts_has_one_status() {
    let names: Vec<&str> = extension_names().collect();
    classifies_exactly(Kind::Extension, &names);
}

#[test]
fn every_command_of_the_parser_has_one_status() {
    let mut names: Vec<&str> = COMMANDS.iter().chain(UNSUPPORTED).copied().collect();
    names.sort_unstable();
    names.dedup();
    classifies_exactly(Kind::Command, &names);
}

/// Piglit's own list of `[test]` commands: each begins with a command the parser's tables
/// hold, so none reaches the inventory unclassified.
#[test]
fn every_piglit_command_is_in_the_parsers_tables() {
    let Some(path) = anchors("piglit-test-commands.txt") else {
        return;
    };
    let list = std::fs::read_to_string(&path).expect("the anchor reads");
    for line in list.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let known = COMMANDS.iter().chain(UNSUPPORTED).any(|command| {
            let parts: Vec<&str> = command.split(' ').collect();
            words.len() >= parts.len() && words[..parts.len()] == parts[..]
        });
        assert!(known, "{line}");
    }
}

/// A `modelled` line names cases that pin it: each exists, uses the feature (for built-ins)
/// and is expected `lowered` on llvmpipe and `not-lowered` on softpipe and llvmpipe-nosse.
#[test]
fn every_modelled_feature_is_pinned_on_a_lane_that_lowers_and_two_that_do_not() {
    let lanes = ["llvmpipe", "softpipe", "llvmpipe-nosse"].map(|lane| {
        let path = cases().join(format!("expectations/{lane}.yaml"));
        (
            lane,
            Expectations::load(&path).expect("the expectations load"),
        )
    });
    let mut modelled = 0;
    for feature in features() {
        let Status::Modelled(pins) = feature.status else {
            continue;
        };
        modelled += 1;
        assert!(!pins.is_empty(), "{:?} names no case", feature.names);
        for case in pins {
            let source = std::fs::read_to_string(case_file(case))
                .unwrap_or_else(|e| panic!("{case}, pinning {:?}: {e}", feature.names));
            if matches!(feature.kind, Kind::Function | Kind::Variable) {
                assert!(
                    feature.names.iter().any(|n| source.contains(n)),
                    "{case} does not use {:?}",
                    feature.names
                );
            }
            for (lane, expectations) in &lanes {
                let want = if *lane == "llvmpipe" {
                    Verdict::Lowered
                } else {
                    Verdict::NotLowered
                };
                let (expected, _) = expectations.expected(case);
                assert_eq!(
                    expected.verdict,
                    Some(want),
                    "{case} pins {:?} but is not expected {want:?} on {lane}",
                    feature.names
                );
            }
        }
    }
    assert!(modelled > 0);
}

/// A `bounded` line cites the text that allows it; a `not modelled` one says what is missing.
#[test]
fn every_bounded_feature_cites_its_spec_and_every_unmodelled_one_says_why() {
    for feature in features() {
        match feature.status {
            Status::Bounded(spec) => assert!(
                spec.contains("section") || spec.contains("shader_runner") || spec.contains("EXT_"),
                "{:?} cites no spec: {spec}",
                feature.names
            ),
            Status::NotModelled(why) => assert!(!why.is_empty(), "{:?}", feature.names),
            Status::Modelled(_) => {}
        }
    }
    for (word, line) in UNMODELLED_QUALIFIERS {
        let named = features().iter().any(|f| {
            f.kind == Kind::Qualifier
                && f.names.contains(line)
                && matches!(f.status, Status::NotModelled(_))
        });
        assert!(
            named,
            "{word} falls under {line}, no not-modelled qualifier line"
        );
    }
}

#[test]
fn features_prints_every_line_and_the_counts() {
    let output = halfcheck()
        .arg("features")
        .output()
        .expect("halfcheck runs");
    assert!(output.status.success());
    let out = text(&output);
    let count = |status: &str| {
        features()
            .iter()
            .filter(|f| f.status.name() == status)
            .count()
    };
    let summary = format!(
        "{} features: {} modelled, {} bounded, {} not modelled",
        features().len(),
        count("modelled"),
        count("bounded"),
        count("not modelled")
    );
    assert!(out.contains(&summary), "{out}");
    assert!(
        out.contains("not modelled function  interpolateAtCentroid, interpolateAtSample, interpolateAtOffset:"),
        "{out}"
    );
    assert_eq!(out.lines().count(), features().len() + 1, "{out}");
}
