//! The fingerprint, run on the emulator, reads back the profile the emulator ran: every value
//! of every choice, and random profiles. Emulator only, in process (no worker processes):
//! the probes' readings come from the same prediction the inference uses.

use halfcheck::fingerprint::battery::battery;
use halfcheck::fingerprint::infer::{Inference, Inferrer, Reading};
use halfcheck_emu::profile::CHOICES;
use halfcheck_emu::Choices;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One inferrer for every test of this file: its predictions are shared.
fn inferrer() -> &'static Inferrer {
    static INFERRER: OnceLock<Inferrer> = OnceLock::new();
    INFERRER.get_or_init(|| Inferrer::new(battery()))
}

/// What the emulator with `choices` reads back on the battery.
fn readings(choices: &Choices) -> BTreeMap<String, Reading> {
    let inferrer = inferrer();
    inferrer
        .probes()
        .enumerate()
        .map(|(i, p)| (p.choice.to_owned(), inferrer.predict(i, choices)))
        .collect()
}

/// Why `inferred` is not a faithful fingerprint of `truth`, if it is not: a decided choice
/// that differs, an undetermined one whose probe could tell, or a battery the inferred
/// profile predicts otherwise.
fn unfaithful(truth: &Choices, inferred: &Inference) -> Option<String> {
    for choice in CHOICES {
        let (want, got) = (truth.get(choice.key), inferred.choices.get(choice.key));
        if let Some(why) = inferred.undetermined.get(choice.key) {
            if !why.starts_with("every value predicts the same") {
                return Some(format!("{} undetermined: {why}", choice.key));
            }
        } else if want != got {
            return Some(format!(
                "{}: {want:?} read back as {got:?} ({})",
                choice.key,
                inferred
                    .evidence
                    .get(choice.key)
                    .cloned()
                    .unwrap_or_default()
            ));
        }
    }
    (readings(&inferred.choices) != readings(truth))
        .then(|| "the inferred profile predicts the battery otherwise".to_owned())
}

/// Choices the default profile hides, with the choice and value that shows them: `log2`'s
/// two forms are forms of the correctly rounded functions, which llvmpipe's gallivm
/// polynomials replace; where loop variables live shows only at extended precision.
const SHOWN_BY: &[(&str, &str, &str)] = &[
    (
        "arithmetic.log2",
        "arithmetic.transcendentals",
        "correctly_rounded",
    ),
    (
        "arithmetic.control_flow_variables",
        "arithmetic.binary32",
        "extended",
    ),
];

/// The profile every value of `key` is read back from: the default, or what shows `key`.
fn base_for(key: &str) -> Choices {
    SHOWN_BY
        .iter()
        .filter(|(hidden, _, _)| *hidden == key)
        .fold(Choices::default(), |base, (_, other, value)| {
            base.with(other, value).expect("a valid value")
        })
}

#[test]
fn every_value_of_every_choice_is_read_back_from_the_emulator() {
    let mut failures = Vec::new();
    for choice in CHOICES {
        for value in choice.values {
            let truth = base_for(choice.key)
                .with(choice.key, value)
                .expect("a valid value");
            let inferred = inferrer().infer(&readings(&truth));
            if inferred.choices.get(choice.key).as_deref() != Some(*value) {
                failures.push(format!(
                    "{} = {value}: read back as {:?}: {}",
                    choice.key,
                    inferred.choices.get(choice.key),
                    inferred
                        .undetermined
                        .get(choice.key)
                        .or(inferred.evidence.get(choice.key))
                        .cloned()
                        .unwrap_or_default()
                ));
            } else if let Some(why) = unfaithful(&truth, &inferred) {
                failures.push(format!("{} = {value}: {why}", choice.key));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A random profile: each choice one of its values.
fn random_choices() -> impl Strategy<Value = Choices> {
    let picks: Vec<_> = CHOICES.iter().map(|c| 0..c.values.len()).collect();
    picks.prop_map(|indices| {
        CHOICES
            .iter()
            .zip(indices)
            .fold(Choices::default(), |choices, (c, i)| {
                choices.with(c.key, c.values[i]).unwrap_or(choices)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_profiles_are_read_back_from_the_emulator(truth in random_choices()) {
        let inferred = inferrer().infer(&readings(&truth));
        let why = unfaithful(&truth, &inferred);
        prop_assert!(why.is_none(), "{}", why.unwrap_or_default());
    }
}
