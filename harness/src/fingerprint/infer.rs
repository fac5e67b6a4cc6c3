//! Inferring a profile from what a device gave on the battery.
//!
//! For each choice, the emulator predicts the choice's probe once per value, the rest of the
//! profile being the current estimate; the value whose prediction equals what the device
//! read back, bit for bit, is the device's. Channel by channel: on each channel where the
//! values' predictions differ, the device's bits match some values' predictions; the value
//! every such channel allows is the device's. A channel no value predicts (a driver whose
//! transcendentals approximate differently) decides nothing, and the evidence says so.
//! Otherwise the choice is `undetermined`, and why is recorded: the probe did not run, every
//! value predicts the same (the choice is invisible under the rest of the profile, e.g. the
//! lone-operation rule of a driver that lowers nothing), no channel matches any value, or the
//! channels disagree.
//! Choices are decided in [`CHOICES`] order, and the whole pass repeats until nothing changes,
//! so a probe sees the rest of the profile as the device has it.

use super::battery::Probe;
use crate::results::TestResult;
use halfcheck_emu::profile::CHOICES;
use halfcheck_emu::Choices;
use halfcheck_emu::{predict_with, Mode};
use halfcheck_piglit::shader_test::{parse_str, ShaderTest};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;

/// Passes over the choices before giving up on a fixed point.
const MAX_ROUNDS: usize = 4;

/// What a probe read back: each probed channel's binary32 bits, or why there is nothing.
pub type Reading = Result<Vec<u32>, NoReading>;

/// Why a probe read nothing back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoReading {
    /// Its test ran no probe.
    #[error("{status}: {why}")]
    NoProbe {
        /// The test's status.
        status: &'static str,
        /// Why no probe ran.
        why: String,
    },
    /// Its test does not parse (the battery's own fault).
    #[error("{0}")]
    Unparsed(String),
    /// The battery has no probe of that index.
    #[error("no such probe")]
    NoSuchProbe,
}

/// The inferred choices, with the evidence per decided choice and the reason per undecided
/// one (which keeps the default value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inference {
    /// The choices.
    pub choices: Choices,
    /// Per choice key, the probe and numbers that decided it.
    pub evidence: BTreeMap<String, String>,
    /// Per choice key, why it was not decided.
    pub undetermined: BTreeMap<String, String>,
}

/// The battery, parsed, with the emulator's predictions remembered across inferences.
pub struct Inferrer {
    probes: Vec<(Probe, Result<ShaderTest, String>)>,
    predictions: Mutex<HashMap<(usize, Choices), Reading>>,
}

/// What a test result read back.
pub fn reading(result: &TestResult) -> Reading {
    if result.probes.is_empty() {
        let why = result.reason.as_deref().unwrap_or("no probe ran");
        return Err(NoReading::NoProbe {
            status: result.status.as_str(),
            why: why.to_owned(),
        });
    }
    Ok(result
        .probes
        .iter()
        .flat_map(|p| p.observed.iter().map(|v| v.to_bits()))
        .collect())
}

impl Inferrer {
    /// An inferrer over `probes`.
    pub fn new(probes: Vec<Probe>) -> Inferrer {
        let probes = probes
            .into_iter()
            .map(|p| {
                let name = format!("{}.shader_test", p.choice);
                let test = parse_str(Path::new(&name), &p.text).map_err(|e| e.to_string());
                (p, test)
            })
            .collect();
        Inferrer {
            probes,
            predictions: Mutex::new(HashMap::new()),
        }
    }

    /// The probes.
    pub fn probes(&self) -> impl Iterator<Item = &Probe> {
        self.probes.iter().map(|(p, _)| p)
    }

    /// What the emulator with `choices` reads back on probe `index`.
    pub fn predict(&self, index: usize, choices: &Choices) -> Reading {
        let key = (index, *choices);
        if let Some(r) = self
            .predictions
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned())
        {
            return r;
        }
        let r = match self.probes.get(index).map(|(_, t)| t) {
            Some(Ok(test)) => reading(&predict_with(test, Mode::Mediump, choices)),
            Some(Err(e)) => Err(NoReading::Unparsed(e.clone())),
            None => Err(NoReading::NoSuchProbe),
        };
        if let Ok(mut m) = self.predictions.lock() {
            m.insert(key, r.clone());
        }
        r
    }

    /// Infers the choices from `observed`, what the device read back per choice key.
    pub fn infer(&self, observed: &BTreeMap<String, Reading>) -> Inference {
        let mut inference = Inference {
            choices: Choices::default(),
            evidence: BTreeMap::new(),
            undetermined: BTreeMap::new(),
        };
        let mut told_by_battery = BTreeMap::new();
        for _ in 0..=CHOICES.len() {
            let indistinct = self.settle(&mut inference, &told_by_battery, observed);
            let Some((key, decision)) = self.repair(&inference, &indistinct, observed) else {
                break;
            };
            told_by_battery.insert(key, decision);
        }
        inference
    }

    /// Decides every choice by its own probe with the rest of the profile, round after round
    /// until nothing changes. A choice its own probe cannot tell keeps what another probe told
    /// ([`Inferrer::repair`], `told_by_battery`), else the default; such choices that no
    /// other probe told yet are returned.
    fn settle(
        &self,
        inference: &mut Inference,
        told_by_battery: &BTreeMap<&str, (String, String)>,
        observed: &BTreeMap<String, Reading>,
    ) -> Vec<&'static str> {
        let mut indistinct = Vec::new();
        for _ in 0..MAX_ROUNDS {
            let before = inference.choices;
            indistinct.clear();
            for choice in CHOICES {
                let current = &inference.choices;
                // The value decided (else the default), and the evidence or the reason.
                let (decided, why) = match self.decide(choice.key, choice.values, current, observed)
                {
                    Decision::Value { value, why } => (Some(value), why),
                    Decision::Undetermined(why) => (None, why),
                    Decision::Indistinct => match told_by_battery.get(choice.key) {
                        Some((value, why)) => (Some(value.clone()), why.clone()),
                        None => {
                            indistinct.push(choice.key);
                            let why = "every value predicts the same on its probe, with the rest \
                                       of this profile";
                            (None, why.to_owned())
                        }
                    },
                };
                let value = match decided {
                    Some(value) => {
                        inference.undetermined.remove(choice.key);
                        inference.evidence.insert(choice.key.to_owned(), why);
                        value
                    }
                    None => {
                        inference.evidence.remove(choice.key);
                        inference.undetermined.insert(choice.key.to_owned(), why);
                        Choices::default().get(choice.key).unwrap_or_default()
                    }
                };
                inference.choices = inference
                    .choices
                    .with(choice.key, &value)
                    .unwrap_or(inference.choices);
            }
            if inference.choices == before {
                break;
            }
        }
        indistinct
    }

    /// Where the inferred profile predicts some probe otherwise than the device read it, a
    /// choice that its own probe cannot tell with the rest of the profile (`indistinct`) may be
    /// told by another probe (`lowering.derivatives` shows on `lone_op_derivative`'s probe when
    /// that rule is off): the first such choice and value under which more probes read what
    /// the device did and none that did reads otherwise, with the evidence.
    fn repair(
        &self,
        inference: &Inference,
        indistinct: &[&'static str],
        observed: &BTreeMap<String, Reading>,
    ) -> Option<(&'static str, (String, String))> {
        let matches = |index: usize, choices: &Choices| match self
            .probes
            .get(index)
            .and_then(|(probe, _)| observed.get(probe.choice))
        {
            Some(Ok(bits)) => self.predict(index, choices).as_ref() == Ok(bits),
            _ => true,
        };
        let (matched, missed): (Vec<usize>, Vec<usize>) =
            (0..self.probes.len()).partition(|&index| matches(index, &inference.choices));
        if missed.is_empty() {
            return None;
        }
        CHOICES
            .iter()
            .filter(|c| indistinct.contains(&c.key))
            .flat_map(|c| c.values.iter().map(move |v| (c.key, *v)))
            .find_map(|(key, value)| {
                let candidate = inference.choices.with(key, value).ok()?;
                let told: Vec<&str> = missed
                    .iter()
                    .filter(|&&index| matches(index, &candidate))
                    .filter_map(|&index| self.probes.get(index).map(|(probe, _)| probe.choice))
                    .collect();
                if told.is_empty() || !matched.iter().all(|&index| matches(index, &candidate)) {
                    return None;
                }
                let why = format!(
                    "its own probe cannot tell with the rest of this profile; with {value}, \
                     battery probes {} read what the device did",
                    told.join(", ")
                );
                Some((key, (value.to_owned(), why)))
            })
    }

    /// Decides one choice with the rest of the profile as `current`.
    fn decide(
        &self,
        key: &str,
        values: &[&str],
        current: &Choices,
        observed: &BTreeMap<String, Reading>,
    ) -> Decision {
        let Some(index) = self.probes.iter().position(|(p, _)| p.choice == key) else {
            return Decision::Undetermined("the battery has no probe for it".into());
        };
        let device = match observed.get(key) {
            Some(Ok(bits)) => bits,
            Some(Err(why)) => {
                return Decision::Undetermined(format!(
                    "its probe did not run on the device ({why})"
                ))
            }
            None => return Decision::Undetermined("its probe was not run".into()),
        };
        let mut predictions = Vec::new();
        for value in values {
            let Ok(choices) = current.with(key, value) else {
                continue;
            };
            match self.predict(index, &choices) {
                Ok(bits) => predictions.push((*value, bits)),
                Err(why) => {
                    return Decision::Undetermined(format!(
                        "the emulator cannot run its probe ({why})"
                    ))
                }
            }
        }
        // The channels where the values' predictions differ.
        let channels: Vec<usize> = (0..device.len())
            .filter(|&c| {
                let first = predictions.first().and_then(|(_, b)| b.get(c));
                predictions.iter().any(|(_, b)| b.get(c) != first)
            })
            .collect();
        let show = |bits: &[u32]| -> String {
            channels
                .iter()
                .take(4)
                .map(|&c| {
                    let b = bits.get(c).copied().unwrap_or_default();
                    format!("{b:#010x} ({})", f32::from_bits(b))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let listing = || {
            predictions
                .iter()
                .map(|(v, bits)| format!("{v} predicts {}", show(bits)))
                .collect::<Vec<_>>()
                .join("; ")
        };
        if channels.is_empty() {
            return Decision::Indistinct;
        }
        // Per discriminating channel, the values whose prediction the device matched; a
        // channel no value explains (a transcendental the driver approximates otherwise)
        // decides nothing, the others must agree on one value.
        let mut candidates: Vec<&str> = predictions.iter().map(|(v, _)| *v).collect();
        let mut unexplained = Vec::new();
        for &c in &channels {
            let matching: Vec<&str> = predictions
                .iter()
                .filter(|(_, bits)| bits.get(c) == device.get(c))
                .map(|(v, _)| *v)
                .collect();
            if matching.is_empty() {
                unexplained.push(c);
            } else {
                candidates.retain(|v| matching.contains(v));
            }
        }
        // The battery's probes live in a scratch directory removed after the run: cite the
        // probe by its choice, which `battery::battery()` rebuilds, never by a file.
        let probe = format!("battery probe {key}, channels {channels:?}");
        let gave = format!("the device gave {}", show(device));
        if unexplained.len() == channels.len() {
            return Decision::Undetermined(format!(
                "{probe}: {gave}, which no value predicts: {}",
                listing()
            ));
        }
        let caveat = if unexplained.is_empty() {
            String::new()
        } else {
            format!(" (channels {unexplained:?} match no value)")
        };
        match candidates.as_slice() {
            [value] => Decision::Value {
                value: (*value).to_owned(),
                why: format!("{probe}: {gave}{caveat}; {}", listing()),
            },
            [] => Decision::Undetermined(format!(
                "{probe}: {gave}, whose channels different values predict: {}",
                listing()
            )),
            several => Decision::Undetermined(format!(
                "{probe}: {gave}, which {} all predict",
                several.join(" and ")
            )),
        }
    }
}

/// A choice's decision.
enum Decision {
    /// The value, with the evidence.
    Value { value: String, why: String },
    /// Why there is none.
    Undetermined(String),
    /// Every value predicts the same on the choice's probe, with the rest of the profile.
    Indistinct,
}
