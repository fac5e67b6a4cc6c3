//! The software f16 emulator: executes the compiler's IR over a batch of invocations.
//!
//! An [`Invocation`] runs one [`Module`]'s `main` for many lanes at once (the vertices of a
//! draw, or the fragments of some 2x2 quads), SIMT-style: control flow keeps a mask of the
//! active lanes, and values that are the same in every lane are stored once ([`value`]).
//! Float arithmetic goes through a [`Domain`], chosen per run: [`Rounding`] in one of the
//! three [`Mode`]s (`highp`, `mediump`, `exact`) with a driver profile's choices
//! ([`crate::Choices`]), or [`Bounds`], the
//! acceptance intervals of a conforming highp or mediump evaluation. An
//! operation computes at the width of its IR result type: `float16_t` operations round to
//! binary16 after every operation, as the lowering pass decided.
//!
//! ```
//! use halfcheck_emu::exec::{Domain, Mode, Rounding, Width};
//! let d = Rounding::new(Mode::Mediump);
//! let third = d.binary(halfcheck_emu::exec::Binary::Div, 1.0, 3.0, Width::Half);
//! assert_eq!(third, 0.333251953125);
//! ```
//!
//! The host (the emulator backend, `device.rs`) sets uniforms, inputs and system values with
//! [`Invocation::set`], provides textures through [`Textures`], calls [`Invocation::run`] and
//! reads the outputs back with [`Invocation::get`] and [`Invocation::killed`].

mod binary16;
pub mod bounds;
mod cofactors;
mod convert;
mod divergence;
pub mod domain;
mod eval;
mod forward;
mod gallivm;
pub mod guided;
mod intrinsic;
pub mod layout;
mod library;
mod loops;
mod ops;
pub mod own_error;
mod packing;
mod ranges;
mod reuse;
mod run;
mod texture;
mod undefined;
mod uses;
pub mod value;

#[cfg(test)]
mod test_support;

pub use bounds::{Bounds, Interval};
pub use domain::{Binary, Compare, Domain, Mode, Rounding, Unary, Width};
pub use guided::Guided;
pub use own_error::{Attributed, Operation, OwnErrors};
pub use texture::{NoTextures, Textures};
pub use uses::used_variables;
pub use value::{Lanes, Value};

use halfcheck_compiler::ir::{Module, VarId, VarMode};
use halfcheck_compiler::span::Span;
use std::collections::HashMap;

/// Why a shader could not be run: what, and where in its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// What the emulator cannot do or what went wrong.
    pub message: String,
    /// Where in the shader.
    pub span: Span,
}

impl std::fmt::Display for ExecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExecError {}

/// Result of one evaluation step.
pub type ExecResult<T> = Result<T, ExecError>;

fn error<T>(span: Span, message: impl Into<String>) -> ExecResult<T> {
    Err(ExecError {
        message: message.into(),
        span,
    })
}

/// How lanes are arranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrangement {
    /// Independent lanes (vertices): derivatives are zero.
    Independent,
    /// Lanes `4k..4k+4` are a 2x2 quad: (x, y), (x+1, y), (x, y+1), (x+1, y+1).
    Quads,
}

/// One run of a module's `main` over a batch of lanes.
pub struct Invocation<'a, D: Domain> {
    module: &'a Module,
    domain: &'a D,
    textures: &'a dyn Textures,
    lanes: usize,
    arrangement: Arrangement,
    vars: Vec<Option<Value<D::F>>>,
    state: run::State,
    return_value: Option<Value<D::F>>,
    depth: u32,
    budget: u64,
    /// Per loop whose variables live in memory, the variables it carries (empty unless the
    /// driver keeps them there).
    kept_loops: HashMap<Span, Vec<VarId>>,
    /// Per `if` on a varying condition, the variables it assigns (empty unless the driver
    /// keeps them in memory).
    varying_ifs: HashMap<Span, Vec<VarId>>,
    /// Integer and bool components not written yet, in domains that track ranges.
    unwritten: undefined::Unwritten,
    /// Lanes whose path or integers rest on something never written (an uninitialised
    /// variable), in domains that track ranges: two runs may take them differently.
    indeterminate: Vec<bool>,
    /// The variables a driver sees through in a sum, with what they hold, in domains that
    /// track ranges (`forward`).
    forwarded: HashMap<VarId, halfcheck_compiler::ir::Expr>,
    /// The last result of each costly operation, to reuse on the same operand (`reuse`).
    recent: reuse::Recent<D::F>,
}

impl<'a, D: Domain> Invocation<'a, D> {
    /// An invocation of `module` over `lanes` lanes (a multiple of 4 for quads).
    pub fn new(
        module: &'a Module,
        domain: &'a D,
        textures: &'a dyn Textures,
        lanes: usize,
        arrangement: Arrangement,
    ) -> Self {
        let lanes = lanes.max(1);
        let in_memory = domain.keeps_control_flow_variables_in_memory();
        let mut invocation = Invocation {
            module,
            domain,
            textures,
            lanes,
            arrangement,
            vars: vec![None; module.variables.len()],
            state: run::State::new(lanes),
            return_value: None,
            depth: 0,
            budget: 0,
            kept_loops: HashMap::new(),
            varying_ifs: HashMap::new(),
            unwritten: HashMap::new(),
            indeterminate: vec![false; lanes],
            forwarded: HashMap::new(),
            recent: reuse::Recent::new(),
        };
        if domain.tracks_ranges() {
            invocation.forwarded = forward::single_assignments(module);
        }
        if in_memory {
            invocation.kept_loops = loops::kept_loops(module);
            invocation.varying_ifs = divergence::varying_ifs(module);
        }
        invocation
    }

    /// Gives variable `id` a value before the run (uniforms, inputs, system values). Each
    /// component has one lane (uniform) or one per lane.
    /// Lanes of any other count are cut or padded to the batch (an empty component reads
    /// as zero).
    pub fn set(&mut self, id: VarId, value: Value<D::F>) {
        let n = self.lanes;
        let zero = self.domain.constant(0.0);
        let value = value
            .into_iter()
            .map(|lanes| value::fit(lanes, n, zero))
            .collect();
        if let Some(slot) = self.vars.get_mut(id.0 as usize) {
            *slot = Some(value);
        }
    }

    /// The value of variable `id` after the run (outputs), if it was ever given one.
    pub fn get(&self, id: VarId) -> Option<&Value<D::F>> {
        self.vars.get(id.0 as usize).and_then(Option::as_ref)
    }

    /// Which lanes executed `discard`.
    pub fn killed(&self) -> &[bool] {
        &self.state.killed
    }

    /// Which lanes took a path the ranges left open without the evaluator following every
    /// way (only in domains that track ranges): their outputs cannot be bounded.
    pub fn uncertain(&self) -> &[bool] {
        &self.state.uncertain
    }

    /// Which lanes took a path, or hold integers, that rest on something never written (only
    /// in domains that track ranges): two runs of one driver may give their outputs
    /// differently, so give them [`Domain::indeterminate`]. Floats computed from such a value
    /// carry the mark themselves.
    pub fn indeterminate(&self) -> &[bool] {
        &self.indeterminate
    }

    /// Marks the active lanes where `open` holds as uncertain: a decision there is one the
    /// ranges leave open.
    pub(crate) fn leave_open(&mut self, open: impl Fn(usize) -> bool) {
        for i in 0..self.lanes {
            if self.state.mask[i] && open(i) {
                self.state.uncertain[i] = true;
            }
        }
    }

    /// Runs the global initialisers, then `main`. `max_steps` bounds the statements executed
    /// (a shader that loops forever gives an error instead of hanging).
    pub fn run(&mut self, max_steps: u64) -> ExecResult<()> {
        self.budget = max_steps;
        let module = self.module;
        self.block(&module.globals)?;
        let Some(main) = module.main() else {
            return error(Span::default(), "the shader has no main()");
        };
        let Some(body) = module.function(main).body.as_ref() else {
            return error(Span::default(), "main() has no body");
        };
        self.block(body)
    }
}

/// The last-declared variable of `mode` named `name` in `module`.
pub fn find_var(module: &Module, name: &str, mode: VarMode) -> Option<VarId> {
    module
        .variables
        .iter()
        .rposition(|v| v.name == name && v.mode == mode)
        .and_then(|i| u32::try_from(i).ok())
        .map(VarId)
}
