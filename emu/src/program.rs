//! Compiles a test's vertex and fragment shaders to the IR the emulator runs.
//!
//! How (lowered or not, by which rules) is the caller's `CompileOptions`, from the run's
//! profile and mode (`halfcheck_emu::Choices::compile_options`). A shader the compiler
//! rejects fails the test, as a driver's compile error does in piglit; stages that do not
//! link (`link`) give a program that `link error` expects. A shader whose variables need more
//! storage than the emulator's budget is skipped before it runs.

use super::link;
use crate::exec::used_variables;
use halfcheck_compiler::ir::{Module, Type, VarMode};
use halfcheck_compiler::{compile, CompileOptions};
use halfcheck_piglit::program as piglit;
use halfcheck_piglit::shader_test::{ShaderTest, Stage};
use halfcheck_piglit::Stop;
use std::collections::BTreeMap;

/// What building a test's program gave.
#[derive(PartialEq)]
pub enum Built {
    /// The test has no shaders.
    Nothing,
    /// Both stages compiled and linked.
    Linked(Box<Program>),
    /// Both stages compiled but do not link: why.
    LinkFailed(String),
}

/// The compiled stages of one test.
#[derive(PartialEq)]
pub struct Program {
    /// The vertex shader.
    pub vertex: Module,
    /// The fragment shader.
    pub fragment: Module,
    /// Which of the fragment shader's variables its code mentions.
    pub fragment_uses: Vec<bool>,
}

/// A test's shaders built once with one set of compile options, for every run that shares
/// them: the verdicts' predictions run the same IR in several domains.
#[derive(PartialEq)]
pub struct Compiled {
    built: Result<Built, Stop>,
    logs: BTreeMap<String, String>,
}

impl Compiled {
    /// Builds `test`'s program with `options`, as `build` does.
    pub fn new(test: &ShaderTest, options: &CompileOptions) -> Compiled {
        let mut logs = BTreeMap::new();
        let built = build(test, options, &mut logs);
        Compiled { built, logs }
    }

    /// What building gave, its logs added to `logs`, as `build` adds them.
    pub fn built(&self, logs: &mut BTreeMap<String, String>) -> Result<&Built, Stop> {
        logs.extend(self.logs.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.built.as_ref().map_err(Stop::clone)
    }
}

/// Compiles and links `test`'s shaders. Compile errors stop the test (their log goes into
/// `logs`); a link failure is reported so `link error` can expect it.
fn build(
    test: &ShaderTest,
    options: &CompileOptions,
    logs: &mut BTreeMap<String, String>,
) -> Result<Built, Stop> {
    if test.shaders.is_empty() {
        return Ok(Built::Nothing);
    }
    let version = piglit::glsl_es_version(test);
    let mut vertex = None;
    let mut fragment = None;
    for section in &test.shaders {
        let text = piglit::source(section, version).map_err(|e| Stop::fail(e.to_string()))?;
        let (stage, slot) = match section.stage {
            Stage::Vertex => (halfcheck_compiler::Stage::Vertex, &mut vertex),
            Stage::Fragment => (halfcheck_compiler::Stage::Fragment, &mut fragment),
            other => {
                return Err(Stop::skip(format!(
                    "the emulator runs no {} shaders",
                    other.section_name()
                )))
            }
        };
        let name = format!("{}:{}", test.path.display(), section.first_line);
        match compile(&text, stage, &name, options) {
            Ok(module) => {
                // A vertex batch's lanes are its draw's vertices, checked at the draw.
                let lanes = match section.stage {
                    Stage::Fragment => FRAGMENT_LANES,
                    _ => 1,
                };
                check_batch(&module, lanes, section.stage)?;
                *slot = Some(module)
            }
            Err(diagnostic) => {
                let log = diagnostic.to_string();
                let first = log.lines().next().unwrap_or_default().to_owned();
                logs.insert(section.stage.section_name().to_owned(), log);
                return Err(Stop::fail(format!(
                    "{} shader failed to compile: {first}",
                    section.stage.section_name()
                )));
            }
        }
    }
    let (Some(vertex), Some(fragment)) = (vertex, fragment) else {
        let why = "the program needs a vertex and a fragment shader".to_owned();
        logs.insert("link".into(), why.clone());
        return Ok(Built::LinkFailed(why));
    };
    if let Err(why) = link::check(&vertex, &fragment) {
        logs.insert("link".into(), why.clone());
        return Ok(Built::LinkFailed(why));
    }
    Ok(Built::Linked(Box::new(Program {
        fragment_uses: used_variables(&fragment),
        vertex,
        fragment,
    })))
}

/// The most values the emulator holds for one batch of invocations of a shader: its
/// uniforms once, its other variables once per lane. 2^24 values are 384 MiB as intervals.
pub(crate) const MAX_BATCH_VALUES: u64 = 1 << 24;

/// Quads per fragment batch (4 lanes each).
pub(crate) const QUADS_PER_BATCH: usize = 256;
/// Lanes of one fragment batch.
const FRAGMENT_LANES: usize = QUADS_PER_BATCH * 4;

/// Whether the emulator can hold `module`'s variables for a batch of `lanes` invocations
/// (`float big[2000000000]` would abort the process); the skip says what is too large.
pub(crate) fn check_batch(module: &Module, lanes: usize, stage: Stage) -> Result<(), Stop> {
    let is_uniform = |mode: VarMode| mode == VarMode::Uniform;
    let uniform = Storage::of(module, is_uniform);
    let per_lane = Storage::of(module, |mode| !is_uniform(mode));
    let lanes = lanes.max(1) as u64;
    let values = uniform
        .total
        .saturating_add(per_lane.total.saturating_mul(lanes));
    if values <= MAX_BATCH_VALUES {
        return Ok(());
    }
    let largest = [uniform.largest, per_lane.largest]
        .into_iter()
        .max_by_key(|&(_, size)| size)
        .unwrap_or(("", 0));
    Err(Stop::skip(format!(
        "the {} shader's variables hold {} components ('{}' {}), {values} values for a batch of \
         {lanes} invocations; the emulator holds at most {MAX_BATCH_VALUES}",
        stage.section_name(),
        uniform.total.saturating_add(per_lane.total),
        largest.0,
        largest.1,
    )))
}

/// The scalar components some of a module's variables hold, and the largest of them.
struct Storage<'a> {
    total: u64,
    largest: (&'a str, u64),
}

impl<'a> Storage<'a> {
    /// The storage of `module`'s variables whose mode `select` picks.
    fn of(module: &'a Module, select: impl Fn(VarMode) -> bool) -> Storage<'a> {
        let mut storage = Storage {
            total: 0,
            largest: ("", 0),
        };
        for variable in module.variables.iter().filter(|v| select(v.mode)) {
            let size = components(module, &variable.ty);
            storage.total = storage.total.saturating_add(size);
            if size > storage.largest.1 {
                storage.largest = (&variable.name, size);
            }
        }
        storage
    }
}

/// Scalar components of a value of type `ty`, saturating instead of overflowing (arrays of
/// arrays can name more than `u64` holds).
fn components(module: &Module, ty: &Type) -> u64 {
    match ty {
        Type::Numeric { .. } => u64::from(ty.components()),
        Type::Array { element, size } => {
            components(module, element).saturating_mul(u64::from(*size))
        }
        Type::Struct(id) => module.structs.get(id.0 as usize).map_or(0, |s| {
            s.members
                .iter()
                .fold(0u64, |sum, m| sum.saturating_add(components(module, &m.ty)))
        }),
        Type::Void => 0,
        Type::Sampler { .. } | Type::Image { .. } | Type::AtomicUint => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fragment(source: &str) -> Module {
        let options = crate::Choices::default().compile_options(false);
        compile(source, halfcheck_compiler::Stage::Fragment, "t", &options).expect("compiles")
    }

    fn skip_reason(module: &Module, lanes: usize) -> Option<String> {
        check_batch(module, lanes, Stage::Fragment)
            .err()
            .map(|stop| stop.reason)
    }

    #[test]
    fn a_local_array_too_large_for_the_emulator_is_refused_before_it_is_allocated() {
        let huge = fragment(
            "#version 300 es\nprecision mediump float;\nuniform float a;\nout vec4 c;\n\
             void main() { float big[2000000000]; big[0] = a; c = vec4(big[0]); }\n",
        );
        let why = skip_reason(&huge, 1).expect("over budget");
        assert!(why.contains("'big' 2000000000"), "{why}");
    }

    #[test]
    fn arrays_of_arrays_whose_size_overflows_are_refused_not_wrapped() {
        let nested = fragment(
            "#version 310 es\nprecision mediump float;\nout vec4 c;\n\
             uniform float u[65536][65536][65536][65536];\nvoid main() { c = vec4(u[0][0][0][0]); }\n",
        );
        let why = skip_reason(&nested, 1).expect("over budget");
        assert!(why.contains(&u64::MAX.to_string()), "{why}");
    }

    #[test]
    fn the_budget_counts_per_lane_variables_once_per_lane_and_uniforms_once() {
        let shader = fragment(
            "#version 300 es\nprecision mediump float;\nuniform vec4 u[4096];\nout vec4 c;\n\
             void main() { float a[4096]; a[0] = u[3].x; c = vec4(a[0]); }\n",
        );
        assert_eq!(skip_reason(&shader, FRAGMENT_LANES), None);
        let why = skip_reason(&shader, 1 << 14).expect("too many lanes");
        assert!(why.contains("batch of 16384 invocations"), "{why}");
    }
}
