//! `halfcheck suggest FILE... [--lane NAME | --emu-profile P] [--write]`: searches the values of
//! a test's uniforms, and the pixels its probes read, for those that put the profile's
//! binary16 prediction farthest outside `H` (the highp acceptance interval), as floats and in
//! piglit's 8-bit view ([`super::margin`]).
//!
//! The search is coordinate ascent over a fixed list of values that make binary16 rounding
//! show (`1000.3` rounds to `1000.5`, `1/3` to `0.33325`, `0.3001 * 1000` to `300.0`): each
//! uniform in turn takes each value (a vector all its components at once, then each
//! component), and a value is kept when it makes more probes discriminate, or the worst
//! probe's margin wider. A test with no probe is searched over its whole window, and the
//! pixel that discriminates most is suggested as a `probe rgba X Y` line. When no value
//! discriminates, it says why: the probed values never reach a binary16 operation (constants,
//! or an expression that folds), the profile keeps the operation at binary32 (a lone
//! operation on 32-bit sources, or a driver that lowers nothing), or the difference stays
//! inside `H` or under the probe's tolerance.

use super::edit::{current, editable, uniform_line, with_values, Editable};
use super::margin::{tolerance_of, Margin};
use super::numbers::format_value;
use super::uniforms::{declared, Kind, Uniform};
use super::{fail, in_parallel, read_test};
use crate::discover::find_tests;
use halfcheck_emu::{predict_with, Choices, Mode};
use halfcheck_piglit::shader_test::{parse_str, ShaderTest};
use halfcheck_verdict::{predict, ChannelPrediction};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Values a float component tries: each rounds visibly in binary16 somewhere it is used.
const FLOATS: [f32; 16] = [
    1.0, 3.0, 0.3001, 1000.3, 7.0, 0.1, 2.6, 1000.0, 0.7, 11.0, 300.0, 2.0, 0.45, 100.1, 2e-8, 0.0,
];
/// Values every float uniform takes at once before the search goes one uniform at a time.
const STARTS: [f32; 4] = [0.3001, 1000.3, 0.7, 2.6];
/// Values an integer component tries (300 * 300 overflows 16 bits).
const INTS: [f32; 9] = [1.0, 3.0, 300.0, 7.0, 1000.0, 2.0, 255.0, 0.0, 12345.0];
/// How many value assignments the search evaluates per file before it keeps the best found so
/// far (a count, not a time, so that the answer does not depend on the machine's load).
const EVALUATIONS: usize = 200;
/// Pixels sampled per side of a probe's region when its prediction varies over it.
const SAMPLES: u32 = 12;

/// `halfcheck suggest`'s arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct SuggestArgs {
    /// `.shader_test` files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    profile: super::ProfileArgs,
    /// Write the values found into the file (and a probe, for a test with none).
    #[arg(long)]
    write: bool,
}

/// One probe's best pixel and margins there.
#[derive(Debug, Clone)]
struct ProbeScore {
    /// The probe's line in the file (0 for the window probe a test without probes gets).
    line: usize,
    /// The pixel where it discriminates most.
    pixel: [u32; 2],
    /// Whether its prediction differs from pixel to pixel.
    varies: bool,
    /// Its best channel's margin there.
    margin: Margin,
    /// That channel.
    channel: usize,
    /// The binary16 prediction (the profile's, or the rules') per channel at `pixel`.
    values: Vec<f32>,
    /// binary32 at the best channel.
    highp: f32,
    /// `H` at the best channel.
    bounds: (f64, f64),
}

/// What one assignment of values gives.
#[derive(Debug, Clone)]
struct Evaluation {
    /// Each probe at its best pixel, by the profile's prediction.
    probes: Vec<ProbeScore>,
    /// Each probe at its best pixel, by the rules' binary16 (`m'`: everything the precision
    /// rules allow lowered).
    spec: Vec<ProbeScore>,
}

impl Evaluation {
    /// How many probes discriminate as floats, how many in piglit's 8-bit view too, and the
    /// worst probe's score: larger is better, in that order.
    fn rank(&self) -> (usize, usize, f64) {
        rank(&self.probes)
    }

    /// The profile's rank first, then the rules'.
    fn better_than(&self, other: &Evaluation) -> bool {
        let (a, b) = (self.rank(), other.rank());
        let (sa, sb) = (rank(&self.spec), rank(&other.spec));
        let key = |r: (usize, usize, f64), s: (usize, usize, f64)| (r.0, r.1, s.0, s.1);
        match key(a, sa).cmp(&key(b, sb)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal if a.2 > b.2 + 1e-9 => true,
            std::cmp::Ordering::Equal => (a.2 - b.2).abs() <= 1e-9 && sa.2 > sb.2 + 1e-9,
        }
    }

    /// Every probe discriminates as floats by the rules' binary16.
    fn discriminates_by_the_rules(&self) -> bool {
        !self.spec.is_empty() && rank(&self.spec).0 == self.spec.len()
    }

    /// Every probe discriminates as floats.
    fn discriminates(&self) -> bool {
        !self.probes.is_empty() && self.rank().0 == self.probes.len()
    }

    /// Every probe discriminates in piglit's 8-bit view too.
    fn discriminates_in_8_bits(&self) -> bool {
        !self.probes.is_empty() && self.rank().1 == self.probes.len()
    }

    /// Values the test computes at its probes (and twice them): what a uniform that a shader
    /// compares its result with may take.
    fn computed(&self) -> Vec<f32> {
        let mut values: Vec<f32> = self
            .probes
            .iter()
            .flat_map(|p| p.values.iter().flat_map(|v| [*v, 2.0 * v]))
            .filter(|v| v.is_finite())
            .collect();
        values.sort_by(f32::total_cmp);
        values.dedup();
        values
    }
}

/// How many probes discriminate as floats, how many in piglit's 8-bit view too, and the
/// worst probe's score: larger is better, in that order.
fn rank(probes: &[ProbeScore]) -> (usize, usize, f64) {
    let count = |f: fn(&Margin) -> bool| probes.iter().filter(|p| f(&p.margin)).count();
    let worst = probes
        .iter()
        .map(|p| p.margin.score())
        .fold(f64::INFINITY, f64::min);
    (
        count(Margin::exact_view),
        count(Margin::discriminates),
        if worst.is_finite() { worst } else { -3.0 },
    )
}

/// The search's state: the best values so far and what every evaluation showed.
struct Search<'a> {
    best: Evaluation,
    values: Vec<Vec<f32>>,
    tried: usize,
    /// How many evaluations were better than the best before them.
    tried_better: usize,
    /// Some evaluation's rules' binary16 differed from binary32 on a probed channel.
    spec_differs: bool,
    /// Some evaluation's profile prediction differed from binary32 on a probed channel.
    profile_differs: bool,
    editable: &'a Editable,
    uniforms: &'a [Uniform],
    choices: &'a Choices,
}

impl<'a> Search<'a> {
    fn new(
        first: Evaluation,
        values: Vec<Vec<f32>>,
        editable: &'a Editable,
        uniforms: &'a [Uniform],
        choices: &'a Choices,
    ) -> Search<'a> {
        Search {
            spec_differs: first.spec.iter().any(|p| p.margin.differs),
            profile_differs: first.probes.iter().any(|p| p.margin.differs),
            best: first,
            values,
            tried: 1,
            tried_better: 0,
            editable,
            uniforms,
            choices,
        }
    }

    fn exhausted(&self) -> bool {
        self.tried >= EVALUATIONS
    }

    /// Evaluates `trial` (unless tried already or out of time) and keeps it when better.
    fn try_values(&mut self, trial: Vec<Vec<f32>>) {
        if trial == self.values || self.exhausted() {
            return;
        }
        self.tried += 1;
        let Ok(e) = evaluate(self.editable, self.uniforms, &trial, self.choices) else {
            return;
        };
        self.spec_differs |= e.spec.iter().any(|p| p.margin.differs);
        self.profile_differs |= e.probes.iter().any(|p| p.margin.differs);
        if e.better_than(&self.best) {
            self.best = e;
            self.values = trial;
            self.tried_better += 1;
        }
    }
}

/// What the search found for one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// No values discriminate.
    None,
    /// Values that discriminate as floats only.
    Floats,
    /// Values that discriminate as floats and in piglit's 8-bit view.
    Both,
    /// Values that discriminate under the rules' binary16, where the profile keeps the
    /// operations at binary32.
    RulesOnly,
}

/// Runs `halfcheck suggest`: exit 0 when every file got values that discriminate (as floats at
/// least), 1 when some did not, 2 when a file or the profile could not be read.
pub(crate) fn run(args: &SuggestArgs) -> ExitCode {
    let profile = match args.profile.load() {
        Ok(profile) => profile,
        Err(e) => return fail(&e),
    };
    let (files, errors) = find_tests(&args.paths);
    let mut worst = ExitCode::SUCCESS;
    for e in errors {
        eprintln!("halfcheck: {e}");
        worst = ExitCode::from(2);
    }
    let (mut found, mut both, mut rules_only, mut total) = (0, 0, 0, 0);
    // Files are searched side by side, one per CPU, and reported in their order.
    let outcomes = in_parallel(&files, |file| {
        suggest_file(&file.path, &profile.name, &profile.choices, args.write)
    });
    for (file, outcome) in files.iter().zip(outcomes) {
        total += 1;
        let outcome =
            outcome.unwrap_or_else(|| Err("the search stopped on an internal error".to_string()));
        match outcome {
            Ok((outcome, text)) => {
                crate::console::print(&text);
                match outcome {
                    Outcome::Both => both += 1,
                    Outcome::Floats => {}
                    Outcome::RulesOnly => rules_only += 1,
                    Outcome::None => {}
                }
                if matches!(outcome, Outcome::Both | Outcome::Floats) {
                    found += 1;
                } else if worst == ExitCode::SUCCESS {
                    worst = ExitCode::FAILURE;
                }
            }
            Err(e) => {
                eprintln!("halfcheck: {}: {e}", file.path.display());
                worst = ExitCode::from(2);
            }
        }
    }
    crate::console::print(&format!(
        "{found} of {total} tests got values that discriminate on {} ({both} in piglit's 8-bit \
         view too); {rules_only} more only under the rules' binary16, where {0} keeps their \
         operations at binary32\n",
        profile.name
    ));
    worst
}

/// Searches one file: what it found, and the text that says so.
fn suggest_file(
    path: &Path,
    profile: &str,
    choices: &Choices,
    write: bool,
) -> Result<(Outcome, String), String> {
    let mut out = String::new();
    let (text, test) = read_test(path).map_err(|e| e.to_string())?;
    let uniforms = declared(&test);
    let editable = editable(&text, &test, &uniforms);
    let values: Vec<Vec<f32>> = uniforms
        .iter()
        .zip(&editable.setters)
        .map(|(u, setter)| current(&editable.lines, *setter, u))
        .collect();
    let first = evaluate(&editable, &uniforms, &values, choices)?;
    let mut search = Search::new(first, values, &editable, &uniforms, choices);
    // Starting points: every float uniform at one value at once (integers, often indices,
    // keep theirs), where a single uniform's change shows nothing (a shader comparing its
    // result with another uniform).
    for start in STARTS {
        let trial = uniforms
            .iter()
            .zip(&search.values)
            .map(|(u, v)| match u.kind {
                Kind::Float => vec![start; u.components],
                Kind::Int | Kind::Uint => v.clone(),
            })
            .collect();
        search.try_values(trial);
    }
    // Coordinate ascent: each uniform whole, while that helps; then each component.
    for round in 0..4 {
        let whole = round < 3;
        let before = search.tried_better;
        for (i, uniform) in uniforms.iter().enumerate() {
            if editable.setters[i].is_none() && editable.first_draw == 0 {
                continue;
            }
            let candidates: Vec<f32> = match uniform.kind {
                Kind::Float if whole && uniform.components == 1 => FLOATS
                    .iter()
                    .copied()
                    .chain(search.best.computed())
                    .collect(),
                Kind::Float => FLOATS.to_vec(),
                Kind::Int | Kind::Uint => INTS.to_vec(),
            };
            let parts: Vec<Vec<usize>> = if whole {
                vec![(0..uniform.components).collect()]
            } else if uniform.components > 1 {
                (0..uniform.components).map(|c| vec![c]).collect()
            } else {
                continue;
            };
            for part in parts {
                for &candidate in &candidates {
                    let mut trial = search.values.clone();
                    for &c in &part {
                        trial[i][c] = candidate;
                    }
                    search.try_values(trial);
                }
            }
        }
        let done = search.best.discriminates_in_8_bits() && search.best.rank().2 > 0.05;
        // Nothing moved, or no value so far reached a binary16 operation that the profile
        // computes: more rounds of the same values will not either.
        let stuck = whole && search.tried_better == before && round > 0;
        let hopeless = !search.spec_differs || !search.profile_differs;
        if done || stuck || hopeless || search.exhausted() {
            break;
        }
    }
    let Search {
        best,
        values,
        tried,
        spec_differs,
        profile_differs,
        ..
    } = search;
    let name = path.display();
    let found = best.discriminates();
    if found {
        let view = if best.discriminates_in_8_bits() {
            "as floats and in piglit's 8-bit view too"
        } else {
            "as floats only (halfcheck's exact readback; piglit's 8-bit view cannot see it)"
        };
        out.push_str(&format!(
            "{name}: on {profile}, these values discriminate every probe {view} ({tried} tried):\n"
        ));
    } else {
        out.push_str(&format!(
            "{name}: on {profile}, no value tried discriminates ({tried} tried): {}\n",
            why_not(&best, &test, profile, spec_differs, profile_differs)
        ));
    }
    for (u, v) in uniforms.iter().zip(&values) {
        out.push_str(&format!("  {}\n", uniform_line(u, v)));
    }
    for p in &best.probes {
        let at = if p.line == 0 {
            "the window".to_string()
        } else {
            format!("line {}", p.line)
        };
        let pixel = if p.varies || p.line == 0 {
            format!(
                " at its best pixel ({}, {}): `probe rgba {} {} {}`",
                p.pixel[0],
                p.pixel[1],
                p.pixel[0],
                p.pixel[1],
                p.values
                    .iter()
                    .map(|v| format_value(*v))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  {at}: channel {} binary16 {} against H [{}, {}] (binary32 {}): margin {:.3e} as \
             floats, {:.4} in the 8-bit view beyond the tolerance{pixel}\n",
            p.channel,
            p.values.get(p.channel).copied().unwrap_or(f32::NAN),
            p.bounds.0,
            p.bounds.1,
            p.highp,
            p.margin.float,
            p.margin.byte,
        ));
    }
    if write && found {
        // A test with no probe gets one at the pixel of its window that discriminates most.
        let probe = best
            .probes
            .first()
            .filter(|_| !editable.has_probes)
            .map(|window| {
                let values: Vec<String> = window.values.iter().map(|v| format_value(*v)).collect();
                format!(
                    "probe rgba {} {} {}",
                    window.pixel[0],
                    window.pixel[1],
                    values.join(" ")
                )
            });
        let written = with_values(&editable, &uniforms, &values, probe.as_deref());
        if written != text {
            std::fs::write(path, written).map_err(|e| format!("cannot write it: {e}"))?;
            out.push_str(&format!(
                "  written; `halfcheck bless {name}` sets the probes' expected values\n"
            ));
        }
    }
    let outcome = if !found && best.discriminates_by_the_rules() {
        Outcome::RulesOnly
    } else if !found {
        Outcome::None
    } else if best.discriminates_in_8_bits() {
        Outcome::Both
    } else {
        Outcome::Floats
    };
    Ok((outcome, out))
}

/// Why the best evaluation does not discriminate, in words.
fn why_not(
    best: &Evaluation,
    test: &ShaderTest,
    profile: &str,
    spec_differs: bool,
    profile_differs: bool,
) -> String {
    if best.probes.is_empty() {
        return "it has no probe the emulator can read".to_string();
    }
    if !spec_differs {
        let folds = crate::lint::foldable(test);
        return match folds.first() {
            Some((_, message)) => format!("the expression folds: {message}"),
            None => "no probed value reaches a binary16 operation: binary16 and binary32 give \
                     the same at every value tried (constants, or operations that fold)"
                .to_string(),
        };
    }
    if !profile_differs || (best.discriminates_by_the_rules() && !best.discriminates()) {
        let rules = if best.discriminates_by_the_rules() {
            " (under the rules' binary16 these values would discriminate)"
        } else {
            ""
        };
        return format!(
            "{profile} keeps the operation at binary32: the rules allow binary16, but a lone \
             operation on 32-bit sources (or a driver that lowers nothing) stays binary32{rules}"
        );
    }
    "the tolerance hides it: binary16 and binary32 differ, but the binary16 value stays inside \
     the highp interval H or within the probe's tolerance of it in the 8-bit view"
        .to_string()
}

/// Predicts the test with `values` and scores every probe at its best pixel.
fn evaluate(
    editable: &Editable,
    uniforms: &[Uniform],
    values: &[Vec<f32>],
    choices: &Choices,
) -> Result<Evaluation, String> {
    let window_probe = (!editable.has_probes).then_some("probe all rgba 0.0 0.0 0.0 0.0");
    let text = with_values(editable, uniforms, values, window_probe);
    let test = parse_str(Path::new("suggest"), &text).map_err(|e| e.to_string())?;
    let emulated = predict_with(&test, Mode::Mediump, choices);
    let counts: Vec<usize> = emulated.probes.iter().map(|p| p.observed.len()).collect();
    let predictions = predict(&test, &counts, choices).map_err(|e| e.to_string())?;
    let mut evaluation = Evaluation {
        probes: Vec::new(),
        spec: Vec::new(),
    };
    for (probe, prediction) in emulated.probes.iter().zip(&predictions) {
        let [rx, ry, w, h] = prediction.region;
        let varies = !prediction.uniform();
        let mut pixels = vec![probe.pixel];
        if varies {
            for i in 0..SAMPLES.min(w) {
                for j in 0..SAMPLES.min(h) {
                    pixels.push([rx + i * w / SAMPLES.min(w), ry + j * h / SAMPLES.min(h)]);
                }
            }
        }
        let line = if editable.has_probes { probe.line } else { 0 };
        let mut best: [Option<ProbeScore>; 2] = [None, None];
        for [x, y] in pixels {
            let channels: Vec<ChannelPrediction> = (0..prediction.channels)
                .map_while(|c| prediction.at(x, y, c))
                .collect();
            // The profile's value: what its emulated run read there, where it kept the region.
            let observed = |c: usize| -> f32 {
                let index = ((y - ry) as usize * w as usize + (x - rx) as usize) * 4 + c;
                match probe.region_observed.get(index) {
                    Some(v) if probe.region_observed.len() == (w * h * 4) as usize => *v,
                    _ if [x, y] == probe.pixel => {
                        probe.observed.get(c).copied().unwrap_or(f32::NAN)
                    }
                    _ => channels[c].mediump,
                }
            };
            let profile: Vec<f32> = (0..channels.len()).map(observed).collect();
            let rules: Vec<f32> = channels.iter().map(|p| p.mediump_spec).collect();
            for (slot, values) in best.iter_mut().zip([profile, rules]) {
                for (c, p) in channels.iter().enumerate() {
                    let margin = Margin::of(p, values[c], tolerance_of(&probe.tolerance, c));
                    if slot
                        .as_ref()
                        .is_none_or(|b| margin.score() > b.margin.score())
                    {
                        *slot = Some(ProbeScore {
                            line,
                            pixel: [x, y],
                            varies,
                            margin,
                            channel: c,
                            values: values.clone(),
                            highp: p.highp,
                            bounds: (p.highp_bounds.lo, p.highp_bounds.hi),
                        });
                    }
                }
            }
        }
        let [profile, rules] = best;
        evaluation.probes.extend(profile);
        evaluation.spec.extend(rules);
    }
    Ok(evaluation)
}
