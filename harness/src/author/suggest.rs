//! `halfcheck suggest FILE... [--lane NAME | --emu-profile P] [--write]`: searches the values of
//! a test's uniforms, and the pixels its probes read, for those that put the profile's
//! binary16 prediction farthest outside `H` (the highp acceptance interval), as floats and in
//! piglit's 8-bit view ([`super::margin`]).
//!
//! The search is coordinate ascent over a fixed list of values that make binary16 rounding
//! show (`1000.3` rounds to `1000.5`, `1/3` to `0.33325`, `0.3001 * 1000` to `300.0`), and
//! over the other uniforms' values moved by a fraction of a binary16 ulp
//! ([`super::candidates`]): each uniform in turn takes each value (a vector all its
//! components at once, then each component), and a value is kept when it makes more probes
//! discriminate, or the worst probe's margin wider. Where single moves find nothing, pairs of
//! uniforms move together (two bounds a shader compares a third uniform with). A test with no
//! probe is searched over its whole window, and the pixel that discriminates most is
//! suggested as a `probe rgba X Y` line.
//!
//! A test discriminates in one of three ways, each counted apart: on the profile (its
//! binary16 prediction outside `H`); only under the rules' binary16 (`m'`: a driver that
//! lowers everything the precision rules allow, where the profile keeps a lone operation at
//! binary32); or, where the rules keep every probe highp, as a control (`m!`: a driver that
//! lowers what the rules keep highp lands outside `H`). When no value discriminates, it says
//! why: the probed values never reach a binary16 operation (constants, or an expression that
//! folds), there is nothing to search (no uniform: the geometry and textures fix the inputs),
//! the profile keeps the operation at binary32, or the difference stays inside `H` or under
//! the probe's tolerance.

use super::candidates::{nudges, pair_moves, scalar_float, FLOATS, INTS, STARTS};
use super::edit::{current, editable, uniform_line, with_values, Editable};
use super::margin::{tolerance_of, Margin};
use super::numbers::format_value;
use super::uniforms::{declared, Kind, Uniform};
use super::{fail, in_parallel, read_test};
use crate::discover::find_tests;
use halfcheck_emu::{predict_with, Choices, Mode};
use halfcheck_piglit::shader_test::{parse_str, ShaderTest};
use halfcheck_verdict::{add_forced, predict, ChannelPrediction};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How many value assignments a search evaluates per file before it keeps the best found so
/// far (a count, not a time, so that the answer does not depend on the machine's load); the
/// search for control values, made only where the rules keep every probe highp, has as many.
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

/// What a search ranks its evaluations by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Lowering shows: the profile's binary16 prediction outside `H`, then the rules'.
    Lowering,
    /// A control catches over-lowering: on the channels the rules keep highp, `m!` (every
    /// shader demoted to mediump, in binary16) outside `H`.
    Control,
}

/// What one assignment of values gives.
#[derive(Debug, Clone)]
struct Evaluation {
    /// Each probe at its best pixel, by the profile's prediction.
    probes: Vec<ProbeScore>,
    /// Each probe at its best pixel, by the rules' binary16 (`m'`: everything the precision
    /// rules allow lowered).
    spec: Vec<ProbeScore>,
    /// Each probe at its best pixel, by `m!` on the channels the rules keep highp (the
    /// binary32 value elsewhere): filled for [`Goal::Control`] only.
    control: Vec<ProbeScore>,
}

impl Evaluation {
    /// How many probes discriminate as floats, how many in piglit's 8-bit view too, and the
    /// worst probe's score: larger is better, in that order.
    fn rank(&self) -> (usize, usize, f64) {
        rank(&self.probes)
    }

    /// Better than `other` for `goal`: for lowering, the profile's rank first, then the
    /// rules'; for a control, `m!`'s rank.
    fn better_than(&self, other: &Evaluation, goal: Goal) -> bool {
        let (a, b, sa, sb) = match goal {
            Goal::Lowering => (
                self.rank(),
                other.rank(),
                rank(&self.spec),
                rank(&other.spec),
            ),
            Goal::Control => {
                let (a, b) = (rank(&self.control), rank(&other.control));
                (a, b, a, b)
            }
        };
        let key = |r: (usize, usize, f64), s: (usize, usize, f64)| (r.0, r.1, s.0, s.1);
        match key(a, sa).cmp(&key(b, sb)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal if a.2 > b.2 + 1e-9 => true,
            std::cmp::Ordering::Equal => (a.2 - b.2).abs() <= 1e-9 && sa.2 > sb.2 + 1e-9,
        }
    }

    /// The scores `goal` ranks by.
    fn scores(&self, goal: Goal) -> &[ProbeScore] {
        match goal {
            Goal::Lowering => &self.probes,
            Goal::Control => &self.control,
        }
    }

    /// Every probe discriminates as floats by the rules' binary16.
    fn discriminates_by_the_rules(&self) -> bool {
        all_discriminate(&self.spec)
    }

    /// Every probe discriminates as floats.
    fn discriminates(&self) -> bool {
        all_discriminate(&self.probes)
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

/// Every probe of `scores` (one at least) discriminates as floats.
fn all_discriminate(scores: &[ProbeScore]) -> bool {
    !scores.is_empty() && rank(scores).0 == scores.len()
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
    goal: Goal,
    best: Evaluation,
    values: Vec<Vec<f32>>,
    tried: usize,
    /// How many evaluations were better than the best before them.
    tried_better: usize,
    /// Some evaluation's rules' binary16 differed from binary32 on a probed channel.
    spec_differs: bool,
    /// Some evaluation's profile prediction differed from binary32 on a probed channel.
    profile_differs: bool,
    /// Some evaluation's `m!` differed from binary32 on a channel the rules keep highp.
    control_differs: bool,
    editable: &'a Editable,
    uniforms: &'a [Uniform],
    choices: &'a Choices,
}

impl<'a> Search<'a> {
    /// A search for `goal` from `values`, evaluated once.
    fn new(
        goal: Goal,
        values: Vec<Vec<f32>>,
        editable: &'a Editable,
        uniforms: &'a [Uniform],
        choices: &'a Choices,
    ) -> Result<Search<'a>, String> {
        let first = evaluate(editable, uniforms, &values, choices, goal)?;
        let mut search = Search {
            goal,
            spec_differs: false,
            profile_differs: false,
            control_differs: false,
            best: first.clone(),
            values,
            tried: 1,
            tried_better: 0,
            editable,
            uniforms,
            choices,
        };
        search.note(&first);
        Ok(search)
    }

    /// Remembers what `e` showed differ from binary32.
    fn note(&mut self, e: &Evaluation) {
        let differs = |s: &[ProbeScore]| s.iter().any(|p| p.margin.differs);
        self.spec_differs |= differs(&e.spec);
        self.profile_differs |= differs(&e.probes);
        self.control_differs |= differs(&e.control);
    }

    fn exhausted(&self) -> bool {
        self.tried >= EVALUATIONS
    }

    /// Nothing tried so far reached a binary16 operation the goal's prediction computes: more
    /// of the same values will not either.
    fn hopeless(&self) -> bool {
        match self.goal {
            Goal::Lowering => !self.spec_differs || !self.profile_differs,
            Goal::Control => !self.control_differs,
        }
    }

    /// Found what the goal asks, with room: every probe discriminates in the 8-bit view too.
    fn done(&self) -> bool {
        let scores = self.best.scores(self.goal);
        !scores.is_empty() && rank(scores).1 == scores.len() && rank(scores).2 > 0.05
    }

    /// Evaluates `trial` (unless tried already or out of time) and keeps it when better.
    fn try_values(&mut self, trial: Vec<Vec<f32>>) {
        if trial == self.values || self.exhausted() {
            return;
        }
        self.tried += 1;
        let Ok(e) = evaluate(
            self.editable,
            self.uniforms,
            &trial,
            self.choices,
            self.goal,
        ) else {
            return;
        };
        self.note(&e);
        if e.better_than(&self.best, self.goal) {
            self.best = e;
            self.values = trial;
            self.tried_better += 1;
        }
    }

    /// Every float uniform at one value at once (integers, often indices, keep theirs): where
    /// a single uniform's change shows nothing (a shader comparing its result with another
    /// uniform).
    fn starts(&mut self) {
        for start in STARTS {
            let trial = self
                .uniforms
                .iter()
                .zip(&self.values)
                .map(|(u, v)| match u.kind {
                    Kind::Float => vec![start; u.components],
                    Kind::Int | Kind::Uint => v.clone(),
                })
                .collect();
            self.try_values(trial);
        }
    }

    /// Coordinate ascent: each uniform whole, while that helps; then each component.
    fn ascend(&mut self) {
        let uniforms = self.uniforms;
        for round in 0..4 {
            let whole = round < 3;
            let before = self.tried_better;
            for (i, uniform) in uniforms.iter().enumerate() {
                if self.editable.setters[i].is_none() && self.editable.first_draw == 0 {
                    continue;
                }
                let candidates: Vec<f32> = match uniform.kind {
                    Kind::Float if whole && uniform.components == 1 => FLOATS
                        .iter()
                        .copied()
                        .chain(self.best.computed())
                        .chain(nudges(uniforms, &self.values, i))
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
                        let mut trial = self.values.clone();
                        for &c in &part {
                            trial[i][c] = candidate;
                        }
                        self.try_values(trial);
                    }
                }
            }
            // Nothing moved, or nothing reached a binary16 operation the goal's prediction
            // computes: more rounds of the same values will not help.
            let stuck = whole && self.tried_better == before && round > 0;
            if self.done() || stuck || self.hopeless() || self.exhausted() {
                break;
            }
        }
    }

    /// Two scalar float uniforms at once, each to a nudge of the others' values: bounds a
    /// shader compares a third uniform with, that meet it in binary16 only.
    fn pairs(&mut self) {
        let settable =
            |i: usize| self.editable.setters[i].is_some() || self.editable.first_draw > 0;
        if self.uniforms.iter().filter(|u| scalar_float(u)).count() < 2 {
            return;
        }
        for [(i, a), (k, b)] in pair_moves(self.uniforms, &self.values) {
            if !(settable(i) && settable(k)) {
                continue;
            }
            let mut trial = self.values.clone();
            trial[i][0] = a;
            trial[k][0] = b;
            self.try_values(trial);
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
    /// The rules keep every probe highp; values that catch a driver lowering what they keep
    /// highp.
    Control,
}

/// Runs `halfcheck suggest`: exit 0 when every file got values that discriminate on the
/// profile (as floats at least), or as a control where the rules keep its probes highp; 1
/// when some did not; 2 when a file or the profile could not be read.
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
    let (mut found, mut both, mut rules_only, mut controls, mut total) = (0, 0, 0, 0, 0);
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
                    Outcome::Both => {
                        both += 1;
                        found += 1;
                    }
                    Outcome::Floats => found += 1,
                    Outcome::RulesOnly => rules_only += 1,
                    Outcome::Control => controls += 1,
                    Outcome::None => {}
                }
                let fine = matches!(outcome, Outcome::Both | Outcome::Floats | Outcome::Control);
                if !fine && worst == ExitCode::SUCCESS {
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
         operations at binary32; {controls} more as controls, where the rules keep every probe \
         highp and a driver lowering everything would show\n",
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
    let (text, test) = read_test(path).map_err(|e| e.to_string())?;
    let uniforms = declared(&test);
    let editable = editable(&text, &test, &uniforms);
    let values: Vec<Vec<f32>> = uniforms
        .iter()
        .zip(&editable.setters)
        .map(|(u, setter)| current(&editable.lines, *setter, u))
        .collect();
    let mut search = Search::new(Goal::Lowering, values, &editable, &uniforms, choices)?;
    search.starts();
    search.ascend();
    // Pairs, where single moves found nothing on the profile; not where the rules'
    // binary16 discriminates and the profile never differs (a lone operation it keeps).
    let kept_by_profile = search.best.discriminates_by_the_rules() && !search.profile_differs;
    if !search.best.discriminates() && !kept_by_profile {
        search.pairs();
    }
    // Where the rules keep every probe highp, the test can only be a control: search the
    // values that a driver lowering everything gets wrong.
    let control = if !search.best.discriminates() && !search.spec_differs {
        let mut control = Search::new(
            Goal::Control,
            search.values.clone(),
            &editable,
            &uniforms,
            choices,
        )?;
        control.starts();
        control.ascend();
        all_discriminate(&control.best.control).then_some(control)
    } else {
        None
    };
    let name = path.display();
    let mut out = String::new();
    let found = search.best.discriminates();
    let (outcome, scores, values) = if let Some(control) = &control {
        out.push_str(&format!(
            "{name}: the rules keep every probe highp, so it can only be a control: these \
             values catch a driver that lowers what the rules keep highp (everything in \
             binary16 lands outside H; a `# Control:` line says so to lint) ({} tried):\n",
            search.tried + control.tried
        ));
        (Outcome::Control, &control.best.control, &control.values)
    } else {
        if found {
            let view = if search.best.discriminates_in_8_bits() {
                "as floats and in piglit's 8-bit view too"
            } else {
                "as floats only (halfcheck's exact readback; piglit's 8-bit view cannot see it)"
            };
            out.push_str(&format!(
                "{name}: on {profile}, these values discriminate every probe {view} ({} tried):\n",
                search.tried
            ));
        } else {
            out.push_str(&format!(
                "{name}: on {profile}, no value tried discriminates ({} tried): {}\n",
                search.tried,
                why_not(&search, &test, profile)
            ));
        }
        let outcome = if !found && search.best.discriminates_by_the_rules() {
            Outcome::RulesOnly
        } else if !found {
            Outcome::None
        } else if search.best.discriminates_in_8_bits() {
            Outcome::Both
        } else {
            Outcome::Floats
        };
        // Under the rules' binary16 only: the margins printed are the rules'.
        let scores = if outcome == Outcome::RulesOnly {
            &search.best.spec
        } else {
            &search.best.probes
        };
        (outcome, scores, &search.values)
    };
    for (u, v) in uniforms.iter().zip(values) {
        out.push_str(&format!("  {}\n", uniform_line(u, v)));
    }
    for p in scores {
        out.push_str(&probe_line(p));
    }
    if write && matches!(outcome, Outcome::Both | Outcome::Floats | Outcome::Control) {
        // A test with no probe gets one at the pixel of its window that discriminates most.
        let probe = scores
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
        let written = with_values(&editable, &uniforms, values, probe.as_deref());
        if written != text {
            std::fs::write(path, written).map_err(|e| format!("cannot write it: {e}"))?;
            out.push_str(&format!(
                "  written; `halfcheck bless {name}` sets the probes' expected values\n"
            ));
        }
    }
    Ok((outcome, out))
}

/// One probe's line of the report: its best channel's values and margins, and its best
/// pixel where that moves.
fn probe_line(p: &ProbeScore) -> String {
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
    format!(
        "  {at}: channel {} binary16 {} against H [{}, {}] (binary32 {}): margin {:.3e} as \
         floats, {:.4} in the 8-bit view beyond the tolerance{pixel}\n",
        p.channel,
        p.values.get(p.channel).copied().unwrap_or(f32::NAN),
        p.bounds.0,
        p.bounds.1,
        p.highp,
        p.margin.float,
        p.margin.byte,
    )
}

/// Why the lowering search's best evaluation does not discriminate, in words.
fn why_not(search: &Search, test: &ShaderTest, profile: &str) -> String {
    let best = &search.best;
    if best.probes.is_empty() {
        return "it has no probe the emulator can read".to_string();
    }
    if !search.spec_differs {
        let folds = crate::lint::foldable(test);
        if let Some((_, message)) = folds.first() {
            return format!("the expression folds: {message}");
        }
        if search.uniforms.is_empty() {
            return "there is nothing to search: it sets no uniform (the geometry and the \
                    textures fix its inputs), and binary16 gives binary32's value at every \
                    pixel"
                .to_string();
        }
        return "no probed value reaches a binary16 operation: binary16 and binary32 give the \
                same at every value tried (constants, texels exact in binary16, or operations \
                that fold), and lowering everything shows nothing either"
            .to_string();
    }
    if !search.profile_differs || (best.discriminates_by_the_rules() && !best.discriminates()) {
        let rules = if best.discriminates_by_the_rules() {
            " (under the rules' binary16 these values discriminate: the margins below are the \
             rules')"
        } else {
            ""
        };
        return format!(
            "{profile} keeps the operation at binary32: the rules allow binary16, but a lone \
             operation on 32-bit sources, a mediump uniform a highp operation reads, or a \
             driver that lowers nothing stays binary32{rules}"
        );
    }
    "the tolerance hides it: binary16 and binary32 differ, but the binary16 value stays inside \
     the highp interval H (a mediump input or output a highp driver may hold in binary16 \
     rounds the same) or within the probe's tolerance of it in the 8-bit view"
        .to_string()
}

/// Predicts the test with `values` and scores every probe at its best pixel (and `m!`, for
/// [`Goal::Control`]).
fn evaluate(
    editable: &Editable,
    uniforms: &[Uniform],
    values: &[Vec<f32>],
    choices: &Choices,
    goal: Goal,
) -> Result<Evaluation, String> {
    let window_probe = (!editable.has_probes).then_some("probe all rgba 0.0 0.0 0.0 0.0");
    let text = with_values(editable, uniforms, values, window_probe);
    let test = parse_str(Path::new("suggest"), &text).map_err(|e| e.to_string())?;
    let emulated = predict_with(&test, Mode::Mediump, choices);
    let counts: Vec<usize> = emulated.probes.iter().map(|p| p.observed.len()).collect();
    let mut predictions = predict(&test, &counts, choices).map_err(|e| e.to_string())?;
    if goal == Goal::Control {
        add_forced(&test, &mut predictions, choices).map_err(|e| e.to_string())?;
    }
    let mut evaluation = Evaluation {
        probes: Vec::new(),
        spec: Vec::new(),
        control: Vec::new(),
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
        let mut best: [Option<ProbeScore>; 3] = [None, None, None];
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
            // `m!` counts only where the rules keep the channel highp (elsewhere a value
            // outside `H` would be lowering the rules allow, not a control's catch).
            let forced: Vec<f32> = channels
                .iter()
                .map(|p| match p.forced {
                    Some(f) if p.kept_highp() => f,
                    _ => p.highp,
                })
                .collect();
            let wanted = if goal == Goal::Control { 3 } else { 2 };
            for (slot, values) in best.iter_mut().zip([profile, rules, forced]).take(wanted) {
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
        let [profile, rules, forced] = best;
        evaluation.probes.extend(profile);
        evaluation.spec.extend(rules);
        evaluation.control.extend(forced);
    }
    Ok(evaluation)
}
