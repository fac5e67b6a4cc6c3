//! Statements over a batch: the active-lane mask through `if`, loops, `break`, `continue`,
//! `return`, `discard` and calls, and masked assignment.
//!
//! A lane leaves the active mask when it breaks, continues, returns or is discarded, and
//! comes back where that statement says: after the loop, at the next iteration, after the
//! call. An assignment writes only active lanes; a value that is uniform stays stored once
//! while every lane is active.
//!
//! In a domain that tracks ranges, a decision the ranges leave open (a comparison, a float
//! made an integer) marks its lane *uncertain*. An `if` whose condition left lanes open runs
//! both ways for them and keeps either outcome ([`Domain::either`]); when the two ways end
//! with different control or integer state, the lane stays uncertain, and its outputs can no
//! longer be bounded (the host widens them to everything).

use super::eval::Offset;
use super::layout;
use super::value::{Lanes, Value};
use super::{error, Domain, ExecResult, Invocation};
use halfcheck_compiler::ir::{Block, Expr, FuncId, Stmt, Type, VarId, VarMode};

/// The deepest call chain allowed (GLSL forbids recursion; this only guards).
const MAX_DEPTH: u32 = 64;

/// Per-lane control state.
#[derive(Clone)]
pub(super) struct State {
    /// Lanes executing now.
    pub mask: Vec<bool>,
    /// Lanes that left the innermost loop with `break`.
    brk: Vec<bool>,
    /// Lanes waiting for the next iteration of the innermost loop.
    cont: Vec<bool>,
    /// Lanes that returned from the current function.
    ret: Vec<bool>,
    /// Lanes that executed `discard`.
    pub killed: Vec<bool>,
    /// Lanes whose path the ranges left open (see the module's doc).
    pub uncertain: Vec<bool>,
}

impl State {
    /// Every lane active.
    pub(super) fn new(lanes: usize) -> State {
        State {
            mask: vec![true; lanes],
            brk: vec![false; lanes],
            cont: vec![false; lanes],
            ret: vec![false; lanes],
            killed: vec![false; lanes],
            uncertain: vec![false; lanes],
        }
    }
}

fn any(mask: &[bool]) -> bool {
    mask.iter().any(|&b| b)
}

impl<D: Domain> Invocation<'_, D> {
    /// Runs `block` for the active lanes.
    pub(super) fn block(&mut self, block: &Block) -> ExecResult<()> {
        for stmt in block {
            if !any(&self.state.mask) {
                return Ok(());
            }
            self.stmt(stmt)?;
        }
        Ok(())
    }

    fn stmt(&mut self, stmt: &Stmt) -> ExecResult<()> {
        if self.budget == 0 {
            let span = match stmt {
                Stmt::Assign { span, .. } | Stmt::If { span, .. } | Stmt::Loop { span, .. } => {
                    *span
                }
                _ => Default::default(),
            };
            return error(span, "the shader ran too long (an endless loop?)");
        }
        self.budget -= 1;
        match stmt {
            Stmt::Declare(id) => {
                let module = self.module;
                let Some(var) = module.variables.get(id.0 as usize) else {
                    return Ok(());
                };
                let keeps_value = matches!(
                    var.mode,
                    VarMode::Uniform
                        | VarMode::ShaderIn
                        | VarMode::SystemValue
                        | VarMode::ShaderStorage
                );
                if !(keeps_value && self.vars[id.0 as usize].is_some()) {
                    let value = match var.constant_value.as_ref() {
                        Some(c) => self.constant(c),
                        // A uniform the test never sets holds zero: linking a program sets
                        // every uniform to zero (OpenGL ES 2.0 and 3.0).
                        None if var.mode == VarMode::Uniform => {
                            layout::zero(module, &var.ty, self.domain.constant(0.0))
                        }
                        None => self.unwritten_value(*id, &var.ty),
                    };
                    self.vars[id.0 as usize] = Some(value);
                }
            }
            Stmt::Assign {
                lhs,
                write_mask,
                rhs,
                ..
            } => {
                let value = self.eval(rhs)?;
                self.assign(lhs, *write_mask, value)?;
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } => {
                let before = self
                    .domain
                    .tracks_ranges()
                    .then(|| self.state.uncertain.clone());
                let c = self.eval(condition)?;
                let Some(Lanes::Bool(c)) = c.first() else {
                    return error(condition.span, "an if condition that is not a bool");
                };
                let c = c.clone();
                let open: Vec<bool> = match before {
                    Some(before) if before != self.state.uncertain => (0..self.lanes)
                        .map(|i| self.state.uncertain[i] && !before[i] && self.state.mask[i])
                        .collect(),
                    _ => Vec::new(),
                };
                if any(&open) {
                    self.both_ways(&c, &open, then, otherwise)?;
                } else {
                    self.branch(&c, then, otherwise)?;
                }
                if let Some(assigned) = self.varying_ifs.get(span).cloned() {
                    self.store_in_memory(&assigned);
                }
            }
            Stmt::Loop { body, span } => self.looped(body, *span)?,
            Stmt::Break => leave(&mut self.state.mask, &mut self.state.brk),
            Stmt::Continue => leave(&mut self.state.mask, &mut self.state.cont),
            Stmt::Return { value, .. } => {
                if let Some(value) = value {
                    let v = self.eval(value)?;
                    self.store_return(&value.ty, v);
                }
                leave(&mut self.state.mask, &mut self.state.ret);
            }
            Stmt::Discard { .. } => leave(&mut self.state.mask, &mut self.state.killed),
            Stmt::Call {
                callee,
                args,
                result,
                span,
            } => self.call(*callee, args, result.as_ref(), *span)?,
            Stmt::Intrinsic { name, span, .. } => {
                if !(name == "barrier" || name.contains("emoryBarrier")) {
                    return error(*span, format!("the emulator does not run {name}()"));
                }
            }
        }
        Ok(())
    }

    /// Runs `then` for the active lanes where `c` holds, `otherwise` for the others.
    fn branch(&mut self, c: &[bool], then: &Block, otherwise: &Block) -> ExecResult<()> {
        let entry = self.state.mask.clone();
        self.state.mask = mask_and(&entry, c, true);
        self.block(then)?;
        let after_then = std::mem::replace(&mut self.state.mask, mask_and(&entry, c, false));
        self.block(otherwise)?;
        for (m, t) in self.state.mask.iter_mut().zip(after_then) {
            *m |= t;
        }
        Ok(())
    }

    /// An `if` whose condition the ranges left open in the `open` lanes: runs it as decided,
    /// then again with those lanes going the other way, and keeps either outcome there. A lane
    /// whose two ways end in different control state or integers stays uncertain; the others
    /// are certain again.
    fn both_ways(
        &mut self,
        c: &[bool],
        open: &[bool],
        then: &Block,
        otherwise: &Block,
    ) -> ExecResult<()> {
        let n = self.lanes;
        // Both ways are followed: the condition no longer leaves these lanes open.
        for i in (0..n).filter(|&i| open[i]) {
            self.state.uncertain[i] = false;
        }
        let (vars, state, ret) = (
            self.vars.clone(),
            self.state.clone(),
            self.return_value.clone(),
        );
        self.branch(c, then, otherwise)?;
        let decided = (
            std::mem::replace(&mut self.vars, vars),
            std::mem::replace(&mut self.state, state),
            std::mem::replace(&mut self.return_value, ret),
        );
        let flipped: Vec<bool> = (0..n).map(|i| super::value::at(c, i) != open[i]).collect();
        self.branch(&flipped, then, otherwise)?;
        let (vars, state, ret) = decided;
        let mut diverged = vec![false; n];
        for (i, d) in diverged.iter_mut().enumerate() {
            let s = &self.state;
            *d = open[i]
                && (state.mask[i] != s.mask[i]
                    || state.brk[i] != s.brk[i]
                    || state.cont[i] != s.cont[i]
                    || state.ret[i] != s.ret[i]
                    || state.killed[i] != s.killed[i]);
        }
        let other = std::mem::replace(&mut self.vars, vars);
        for (slot, alternative) in self.vars.iter_mut().zip(other) {
            if let (Some(value), Some(alternative)) = (slot.as_mut(), alternative) {
                merge(self.domain, value, &alternative, open, &mut diverged, n);
            }
        }
        let other_ret = std::mem::replace(&mut self.return_value, ret);
        if let (Some(value), Some(alternative)) = (self.return_value.as_mut(), other_ret) {
            merge(self.domain, value, &alternative, open, &mut diverged, n);
        }
        let flipped_uncertain = std::mem::replace(&mut self.state, state).uncertain;
        for i in (0..n).filter(|&i| open[i]) {
            self.state.uncertain[i] |= diverged[i] || flipped_uncertain[i];
        }
        Ok(())
    }

    fn looped(&mut self, body: &Block, span: halfcheck_compiler::span::Span) -> ExecResult<()> {
        let carried = self.kept_loops.get(&span).cloned().unwrap_or_default();
        // The value entering the loop is stored too.
        self.store_in_memory(&carried);
        let entry = self.state.mask.clone();
        let n = self.lanes;
        let outer_brk = std::mem::replace(&mut self.state.brk, vec![false; n]);
        while any(&self.state.mask) {
            let outer_cont = std::mem::replace(&mut self.state.cont, vec![false; n]);
            self.block(body)?;
            self.store_in_memory(&carried);
            let cont = std::mem::replace(&mut self.state.cont, outer_cont);
            for (m, c) in self.state.mask.iter_mut().zip(cont) {
                *m |= c;
            }
            if self.budget == 0 {
                return error(span, "the shader ran too long (an endless loop?)");
            }
        }
        let brk = std::mem::replace(&mut self.state.brk, outer_brk);
        for (i, m) in self.state.mask.iter_mut().enumerate() {
            *m = entry[i] && brk[i];
        }
        Ok(())
    }

    /// Variables that pass through memory (what a kept loop carries into it, from one
    /// iteration to the next and out of it; what an `if` on a varying condition assigns), as
    /// memory holds them.
    fn store_in_memory(&mut self, carried: &[VarId]) {
        let domain = self.domain;
        for var in carried {
            if let Some(Some(value)) = self.vars.get_mut(var.0 as usize) {
                for lanes in value.iter_mut() {
                    if let Lanes::Float(xs) = lanes {
                        xs.iter_mut().for_each(|x| *x = domain.stored(*x));
                    }
                }
            }
        }
    }

    fn call(
        &mut self,
        callee: FuncId,
        args: &[Expr],
        result: Option<&Expr>,
        span: halfcheck_compiler::span::Span,
    ) -> ExecResult<()> {
        let module = self.module;
        let Some(function) = module.functions.get(callee.0 as usize) else {
            return error(span, "a call of an unknown function");
        };
        let Some(body) = function.body.as_ref() else {
            return error(
                span,
                format!("{}() is declared but never defined", function.name),
            );
        };
        if self.depth >= MAX_DEPTH {
            return error(span, "calls nest too deep (recursion?)");
        }
        for (&param, arg) in function.params.iter().zip(args) {
            let var = module.var(param);
            let value = match var.mode {
                VarMode::FunctionOut => layout::zero(module, &var.ty, self.domain.constant(0.0)),
                _ => self.eval(arg)?,
            };
            self.vars[param.0 as usize] = Some(value);
        }
        let entry = self.state.mask.clone();
        let outer_ret = std::mem::replace(&mut self.state.ret, vec![false; self.lanes]);
        let outer_value = self.return_value.take();
        self.depth += 1;
        let ran = self.block(body);
        self.depth -= 1;
        let returned = self.return_value.take();
        self.return_value = outer_value;
        self.state.ret = outer_ret;
        ran?;
        for (i, m) in self.state.mask.iter_mut().enumerate() {
            *m = entry[i] && !self.state.killed[i];
        }
        for (&param, arg) in function.params.iter().zip(args) {
            if matches!(
                module.var(param).mode,
                VarMode::FunctionOut | VarMode::FunctionInOut
            ) {
                let value = self.vars[param.0 as usize].clone().unwrap_or_default();
                self.assign(arg, 0, value)?;
            }
        }
        if let (Some(result), Some(value)) = (result, returned) {
            self.assign(result, 0, value)?;
        }
        Ok(())
    }

    fn store_return(&mut self, ty: &Type, value: Value<D::F>) {
        let mut slot = self
            .return_value
            .take()
            .unwrap_or_else(|| layout::zero(self.module, ty, self.domain.constant(0.0)));
        let offsets: Vec<Offset> = (0..slot.len()).map(Offset::Fixed).collect();
        write_masked(&mut slot, &offsets, value, &self.state.mask, self.lanes);
        self.return_value = Some(slot);
    }

    /// `lhs.mask = value` for the active lanes.
    pub(super) fn assign(
        &mut self,
        lhs: &Expr,
        write_mask: u8,
        value: Value<D::F>,
    ) -> ExecResult<()> {
        let (var, offsets) = self.place(lhs)?;
        let written: Vec<Offset> = if write_mask != 0 && lhs.ty.is_vector() {
            offsets
                .into_iter()
                .enumerate()
                .filter(|(i, _)| write_mask & (1 << i) != 0)
                .map(|(_, o)| o)
                .collect()
        } else {
            offsets
        };
        if written.len() != value.len() {
            return error(
                lhs.span,
                format!(
                    "an assignment of {} components to {}",
                    value.len(),
                    written.len()
                ),
            );
        }
        let module = self.module;
        let slot = match &mut self.vars[var.0 as usize] {
            Some(slot) => slot,
            empty => {
                let ty = &module.var(var).ty;
                empty.insert(layout::zero(module, ty, self.domain.constant(0.0)))
            }
        };
        write_masked(slot, &written, value, &self.state.mask, self.lanes);
        self.mark_written(var, &written);
        Ok(())
    }
}

/// Keeps either of `value` and `alternative` in the `open` lanes: floats through
/// [`Domain::either`]; integers and bools that differ mark the lane `diverged`.
fn merge<D: Domain>(
    d: &D,
    value: &mut super::value::Value<D::F>,
    alternative: &super::value::Value<D::F>,
    open: &[bool],
    diverged: &mut [bool],
    n: usize,
) {
    use super::value::at;
    for (lanes, other) in value.iter_mut().zip(alternative) {
        if lanes == other {
            continue;
        }
        let mut merged = lanes.expanded(n);
        for i in (0..n).filter(|&i| open[i]) {
            match (&mut merged, other) {
                (Lanes::Float(a), Lanes::Float(b)) => {
                    if let Some(slot) = a.get_mut(i) {
                        *slot = d.either(*slot, at(b, i));
                    }
                }
                (Lanes::Int(a), Lanes::Int(b)) => {
                    diverged[i] |= a.get(i).is_some_and(|&x| x != at(b, i));
                }
                (Lanes::Bool(a), Lanes::Bool(b)) => {
                    diverged[i] |= a.get(i).is_some_and(|&x| x != at(b, i));
                }
                _ => diverged[i] = true,
            }
        }
        *lanes = merged;
    }
}

/// Lanes in `mask` move to `into` and stop executing.
fn leave(mask: &mut [bool], into: &mut [bool]) {
    for (m, i) in mask.iter_mut().zip(into.iter_mut()) {
        if *m {
            *i = true;
            *m = false;
        }
    }
}

/// `mask & (c == want)` per lane (`c` may be uniform).
fn mask_and(mask: &[bool], c: &[bool], want: bool) -> Vec<bool> {
    mask.iter()
        .enumerate()
        .map(|(i, &m)| m && super::value::at(c, i) == want)
        .collect()
}

/// Writes `value`'s components at `offsets` of `slot`, in the active lanes only.
fn write_masked<F: Copy>(
    slot: &mut Value<F>,
    offsets: &[Offset],
    value: Value<F>,
    mask: &[bool],
    n: usize,
) {
    let all = mask.iter().all(|&m| m);
    for (offset, lanes) in offsets.iter().zip(value) {
        match offset {
            Offset::Fixed(o) => {
                let Some(target) = slot.get_mut(*o) else {
                    continue;
                };
                if all {
                    *target = lanes;
                } else {
                    for (i, _) in mask.iter().enumerate().filter(|(_, &m)| m) {
                        target.set_lane(i, &lanes, n);
                    }
                }
            }
            Offset::PerLane(per_lane) => {
                for (i, _) in mask.iter().enumerate().filter(|(_, &m)| m) {
                    let o = super::value::at(per_lane, i);
                    if let Some(target) = slot.get_mut(o) {
                        target.set_lane(i, &lanes, n);
                    }
                }
            }
        }
    }
}
