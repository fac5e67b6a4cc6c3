//! What the GLSL ES spec leaves undefined, in a domain that tracks ranges: the value a
//! conforming driver gives there may be anything, so the acceptance intervals must not rest on
//! the value the modelled driver happens to give.
//!
//! - A float read before anything was written (an uninitialised local, global or output) is
//!   [`Domain::indeterminate`] ([`Invocation::unwritten_value`]): unbounded, and it may
//!   differ from one run of a driver to the next. Everything computed from it is
//!   indeterminate too, and no other channel is touched; a lane that compares it, converts it
//!   to an integer or samples a texture with it is marked [`Invocation::indeterminate`]
//!   ([`Invocation::note_indeterminate`]), and so is a lane that reads an integer or bool
//!   never written. A verdict takes no evidence from a driver's own second run there.
//! - An integer or bool read before it was written, an integer `/` or `%` by zero, `%` with a
//!   negative operand, an index outside its array, vector or matrix, and a derivative taken
//!   where not every lane of the quad is active (non-uniform control flow, or after
//!   `discard`) leave the lane open ([`Invocation::leave_open`]): every output of that lane is
//!   unbounded. Integers hold no intervals, so the lane is the finest unit there is.
//!
//! Point domains skip all of it: their value is the modelled driver's (zero for what was never
//! written, the clamped index, the quad's other row).

use super::eval::Offset;
use super::layout;
use super::value::{at, Lanes, Value};
use super::{Domain, Invocation};
use halfcheck_compiler::ir::{BaseType, Type, VarId};

/// Per variable holding integer or bool components never written: per component, the lanes
/// not written yet.
pub(super) type Unwritten = std::collections::HashMap<VarId, Vec<Vec<bool>>>;

impl<D: Domain> Invocation<'_, D> {
    /// The value of a variable of `ty` declared without a value: zero in point domains; in a
    /// domain that tracks ranges, unbounded floats, and integer and bool components
    /// remembered as unwritten until an assignment reaches them.
    pub(super) fn unwritten_value(&mut self, id: VarId, ty: &Type) -> Value<D::F> {
        let d = self.domain;
        let zero = layout::zero(self.module, ty, d.constant(0.0));
        if !d.tracks_ranges() {
            return zero;
        }
        let mut bases = Vec::new();
        layout::bases(self.module, ty, &mut bases);
        let flags: Vec<Vec<bool>> = bases
            .iter()
            .map(|b| vec![!b.is_float(); self.lanes])
            .collect();
        if flags.iter().any(|lanes| lanes.contains(&true)) {
            self.unwritten.insert(id, flags);
        } else {
            self.unwritten.remove(&id);
        }
        zero.into_iter()
            .map(|lanes| match lanes {
                Lanes::Float(v) => Lanes::Float(v.iter().map(|&x| d.indeterminate(x)).collect()),
                other => other,
            })
            .collect()
    }

    /// Marks [`Invocation::indeterminate`] the active lanes where a float component of one
    /// of `values` is [`Domain::indeterminate`]: what they decide (a branch, an integer, a
    /// texel) may differ from run to run.
    pub(super) fn note_indeterminate(&mut self, values: &[&Value<D::F>]) {
        let d = self.domain;
        if !d.tracks_ranges() {
            return;
        }
        for value in values {
            for lanes in value.iter() {
                let Lanes::Float(x) = lanes else {
                    continue;
                };
                for i in 0..self.lanes {
                    if self.state.mask[i] && !x.is_empty() && d.is_indeterminate(at(x, i)) {
                        self.indeterminate[i] = true;
                    }
                }
            }
        }
    }

    /// Leaves open the active lanes that read an integer or bool component of `id` before it
    /// was written.
    pub(super) fn open_unwritten_read(&mut self, id: VarId) {
        let Some(flags) = self.unwritten.get(&id) else {
            return;
        };
        let open: Vec<bool> = (0..self.lanes)
            .map(|i| {
                flags
                    .iter()
                    .any(|lanes| lanes.get(i).copied().unwrap_or(false))
            })
            .collect();
        for (i, &open) in open.iter().enumerate() {
            self.indeterminate[i] |= open && self.state.mask[i];
        }
        self.leave_open(|i| open[i]);
    }

    /// Leaves open, where the domain lowers integers, the lanes where a lowp or mediump
    /// integer variable holds a value outside 16 bits: its precision promises no more, so a
    /// driver that keeps it in 16 bits may read anything (llvmpipe narrowed a mediump `int`
    /// uniform set to 40000 where a highp copy of it was read: seed 2611, test 9064).
    pub(super) fn open_narrow_int_read(&mut self, id: VarId, value: &Value<D::F>) {
        if !(self.domain.tracks_ranges() && self.domain.lowers_ints()) {
            return;
        }
        let Some(var) = self.module.variables.get(id.0 as usize) else {
            return;
        };
        let (min, max) = match var.ty.base() {
            _ if !var.precision.is_lowerable() => return,
            Some(BaseType::Int) => (i64::from(i16::MIN), i64::from(i16::MAX)),
            Some(BaseType::Uint) => (0, i64::from(u16::MAX)),
            _ => return,
        };
        let mut open = vec![false; self.lanes];
        for lanes in value {
            if let Lanes::Int(v) = lanes {
                for (i, slot) in open.iter_mut().enumerate() {
                    *slot |= !(min..=max).contains(&at(v, i));
                }
            }
        }
        if open.contains(&true) {
            self.leave_open(|i| open[i]);
        }
    }

    /// Records that the active lanes wrote components `written` of `id`.
    pub(super) fn mark_written(&mut self, id: VarId, written: &[Offset]) {
        let Some(flags) = self.unwritten.get_mut(&id) else {
            return;
        };
        let mask = &self.state.mask;
        for offset in written {
            for (lane, &active) in mask.iter().enumerate() {
                let component = match offset {
                    Offset::Fixed(c) => *c,
                    Offset::PerLane(v) => at(v, lane),
                };
                if let Some(slot) = flags.get_mut(component).and_then(|l| l.get_mut(lane)) {
                    *slot &= !active;
                }
            }
        }
        if flags.iter().all(|lanes| !lanes.contains(&true)) {
            self.unwritten.remove(&id);
        }
    }

    /// Leaves open the lanes where the integer operation `op` of `a` and `b` is undefined:
    /// division or remainder by zero, a remainder with a negative operand.
    pub(super) fn open_integer_division(
        &mut self,
        remainder: bool,
        a: &Value<D::F>,
        b: &Value<D::F>,
    ) {
        if !self.domain.tracks_ranges() {
            return;
        }
        let undefined = |x: i64, y: i64| y == 0 || (remainder && (x < 0 || y < 0));
        let mut open = vec![false; self.lanes];
        for c in 0..a.len().max(b.len()) {
            let (Some(Lanes::Int(x)), Some(Lanes::Int(y))) =
                (super::ops::comp(a, c), super::ops::comp(b, c))
            else {
                continue;
            };
            for (i, slot) in open.iter_mut().enumerate() {
                *slot |= undefined(at(x, i), at(y, i));
            }
        }
        self.leave_open(|i| open[i]);
    }

    /// Leaves open the lanes where `exact`, an integer result before it is wrapped to `base`,
    /// lies outside a 16-bit `base` (a lowered lowp or mediump integer): only highp integer
    /// overflow wraps by the spec; a driver may keep 32 bits or anything there.
    pub(super) fn open_integer_overflow(&mut self, base: BaseType, exact: &Value<D::F>) {
        let (min, max) = match base {
            BaseType::Int16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
            BaseType::Uint16 => (0, i64::from(u16::MAX)),
            _ => return,
        };
        if !self.domain.tracks_ranges() {
            return;
        }
        let mut open = vec![false; self.lanes];
        for lanes in exact {
            if let Lanes::Int(v) = lanes {
                for (i, slot) in open.iter_mut().enumerate() {
                    *slot |= !(min..=max).contains(&at(v, i));
                }
            }
        }
        self.leave_open(|i| open[i]);
    }

    /// Leaves open the lanes whose `index` lies outside `0..count`.
    pub(super) fn open_out_of_range(&mut self, index: &[i64], count: usize) {
        if !self.domain.tracks_ranges() {
            return;
        }
        let outside = |x: i64| x < 0 || x >= count as i64;
        if index.len() == 1 {
            if outside(index[0]) {
                self.leave_open(|_| true);
            }
            return;
        }
        self.leave_open(|i| index.get(i).is_some_and(|&x| outside(x)));
    }

    /// Leaves open every active lane of a quad some of whose lanes are inactive: a derivative
    /// there is undefined.
    pub(super) fn open_partial_quads(&mut self) {
        if !self.domain.tracks_ranges() {
            return;
        }
        let mask = self.state.mask.clone();
        let partial = |i: usize| {
            let q = i - i % 4;
            let active = mask.iter().skip(q).take(4).filter(|&&m| m).count();
            active > 0 && active < 4
        };
        self.leave_open(partial);
    }
}

/// Whether a conversion of a float in `[lo, hi]` to an integer of `base` is undefined
/// somewhere in the range: outside the type's range (a mediump or lowp integer's 16 bits
/// included), and any negative value to an unsigned type.
pub(super) fn conversion_out_of_range(base: BaseType, lo: f64, hi: f64) -> bool {
    let (min, max) = match base {
        BaseType::Int => (f64::from(i32::MIN), f64::from(i32::MAX)),
        BaseType::Uint => (0.0, f64::from(u32::MAX)),
        BaseType::Int16 => (f64::from(i16::MIN), f64::from(i16::MAX)),
        BaseType::Uint16 => (0.0, f64::from(u16::MAX)),
        _ => return false,
    };
    let unsigned = min == 0.0;
    (unsigned && lo < 0.0) || lo.trunc() < min || hi.trunc() > max
}
