//! Values over a batch of invocations: one lane per invocation, components flattened.
//!
//! A value of any type is a list of components (vectors in order, matrices column-major,
//! arrays and structs element by element, see [`super::layout`]); each component holds its
//! lanes. A component whose lanes all hold the same value is stored once ("uniform"): constants
//! and uniforms stay that way through every operation, so a shader that only reads uniforms
//! costs one evaluation per batch, however many fragments it covers.

/// The lanes of one component.
#[derive(Clone, Debug, PartialEq)]
pub enum Lanes<F> {
    /// Floats (any width: the domain holds the value).
    Float(Vec<F>),
    /// Integers of any width and signedness, kept wrapped to their type's range.
    Int(Vec<i64>),
    /// Bools.
    Bool(Vec<bool>),
}

impl<F: Copy> Lanes<F> {
    /// Number of stored lanes: 1 when uniform.
    pub fn len(&self) -> usize {
        match self {
            Lanes::Float(v) => v.len(),
            Lanes::Int(v) => v.len(),
            Lanes::Bool(v) => v.len(),
        }
    }

    /// Whether no lane is stored (never true for a well-formed value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every lane holds the same value (stored once).
    pub fn is_uniform(&self) -> bool {
        self.len() == 1
    }

    /// The same lanes stored `n` times over when uniform.
    pub fn expanded(&self, n: usize) -> Lanes<F> {
        if !self.is_uniform() || n == 1 {
            return self.clone();
        }
        match self {
            Lanes::Float(v) => Lanes::Float(vec![v[0]; n]),
            Lanes::Int(v) => Lanes::Int(vec![v[0]; n]),
            Lanes::Bool(v) => Lanes::Bool(vec![v[0]; n]),
        }
    }

    /// Float lanes, if these are floats.
    pub fn floats(&self) -> Option<&[F]> {
        match self {
            Lanes::Float(v) => Some(v),
            _ => None,
        }
    }

    /// Integer lanes, if these are integers.
    pub fn ints(&self) -> Option<&[i64]> {
        match self {
            Lanes::Int(v) => Some(v),
            _ => None,
        }
    }

    /// Bool lanes, if these are bools.
    pub fn bools(&self) -> Option<&[bool]> {
        match self {
            Lanes::Bool(v) => Some(v),
            _ => None,
        }
    }

    /// Lane `i` copied from `other` into these lanes (both expanded to `n` first if needed).
    pub fn set_lane(&mut self, i: usize, other: &Lanes<F>, n: usize) {
        if self.is_uniform() && n > 1 {
            *self = self.expanded(n);
        }
        let j = if other.is_uniform() { 0 } else { i };
        fn copy<T: Copy>(a: &mut [T], i: usize, b: &[T], j: usize) {
            if let (Some(slot), Some(&v)) = (a.get_mut(i), b.get(j)) {
                *slot = v;
            }
        }
        match (self, other) {
            (Lanes::Float(a), Lanes::Float(b)) => copy(a, i, b, j),
            (Lanes::Int(a), Lanes::Int(b)) => copy(a, i, b, j),
            (Lanes::Bool(a), Lanes::Bool(b)) => copy(a, i, b, j),
            (slot, value) => *slot = value.expanded(n),
        }
    }

    /// Lane `i` (lane 0 when uniform), as a [`Lanes`] of one.
    pub fn lane(&self, i: usize) -> Lanes<F> {
        let i = if self.is_uniform() { 0 } else { i };
        match self {
            Lanes::Float(v) => Lanes::Float(v.get(i).copied().into_iter().collect()),
            Lanes::Int(v) => Lanes::Int(v.get(i).copied().into_iter().collect()),
            Lanes::Bool(v) => Lanes::Bool(v.get(i).copied().into_iter().collect()),
        }
    }
}

/// `lanes` with one lane or exactly `n`: longer ones are cut, shorter ones padded with their
/// last value (or `zero`).
pub fn fit<F: Copy>(lanes: Lanes<F>, n: usize, zero: F) -> Lanes<F> {
    fn fit_vec<T: Copy>(mut v: Vec<T>, n: usize, fill: T) -> Vec<T> {
        if v.len() != 1 && v.len() != n {
            let last = v.last().copied().unwrap_or(fill);
            v.resize(n, last);
        }
        v
    }
    match lanes {
        Lanes::Float(v) => Lanes::Float(fit_vec(v, n, zero)),
        Lanes::Int(v) => Lanes::Int(fit_vec(v, n, 0)),
        Lanes::Bool(v) => Lanes::Bool(fit_vec(v, n, false)),
    }
}

/// Picks lane `i` of a slice that is uniform (one lane) or full.
pub fn at<T: Copy>(v: &[T], i: usize) -> T {
    if v.len() == 1 {
        v[0]
    } else {
        v[i]
    }
}

/// Maps one operand's lanes; the result is uniform when the operand is.
pub fn map1<A: Copy, R>(a: &[A], f: impl Fn(A) -> R) -> Vec<R> {
    a.iter().map(|&x| f(x)).collect()
}

/// Maps two operands' lanes; uniform only when both are.
pub fn map2<A: Copy, B: Copy, R>(a: &[A], b: &[B], f: impl Fn(A, B) -> R) -> Vec<R> {
    let n = a.len().max(b.len());
    (0..n).map(|i| f(at(a, i), at(b, i))).collect()
}

/// Maps three operands' lanes; uniform only when all are.
pub fn map3<A: Copy, B: Copy, C: Copy, R>(
    a: &[A],
    b: &[B],
    c: &[C],
    f: impl Fn(A, B, C) -> R,
) -> Vec<R> {
    let n = a.len().max(b.len()).max(c.len());
    (0..n).map(|i| f(at(a, i), at(b, i), at(c, i))).collect()
}

/// A value of any type: its components in flattened order.
pub type Value<F> = Vec<Lanes<F>>;
