//! Built-ins that semantic analysis keeps as intrinsics (no IR operation of their own),
//! computed as Mesa's built-in library writes them, each operation at the result's width:
//! the trigonometric and hyperbolic functions, `isinf`/`isnan`, `refract`, `transpose`,
//! `matrixCompMult`, `outerProduct`, `determinant` and `inverse` (2x2 and 3x3; every form a
//! driver may compute where ranges are tracked, `cofactors.rs`).

use super::domain::{Binary, Compare, Unary, Width};
use super::ops::width_for;
use super::value::{map1, map2, Lanes, Value};
use super::{error, Domain, ExecResult, Invocation};
use halfcheck_compiler::ir::{BaseType, Expr, Type};

/// Float lanes of one component.
type Component<F> = Vec<F>;

impl<D: Domain> Invocation<'_, D> {
    /// Evaluates the intrinsic `name` on `args`.
    pub(super) fn intrinsic(
        &mut self,
        e: &Expr,
        name: &str,
        args: &[Expr],
    ) -> ExecResult<Value<D::F>> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a)?);
        }
        let operand_base = args.first().and_then(|a| a.ty.base());
        let base = match e.ty.base() {
            Some(b) if b.is_float() => b,
            _ => operand_base.unwrap_or(BaseType::Float),
        };
        let width = width_for(base, e.precision);
        let floats = |v: &Value<D::F>| -> Option<Vec<Component<D::F>>> {
            v.iter().map(|l| l.floats().map(<[D::F]>::to_vec)).collect()
        };
        let bad = || {
            error(
                e.span,
                format!("{name}() on operands the emulator cannot take"),
            )
        };
        let Some(first) = values.first().and_then(floats) else {
            return bad();
        };
        let d = self.domain;
        let unary = |op| -> Value<D::F> {
            first
                .iter()
                .map(|c| Lanes::Float(map1(c, |x| d.unary(op, x, width))))
                .collect()
        };
        let trig = match name {
            "tan" => Some(Unary::Tan),
            "asin" => Some(Unary::Asin),
            "acos" => Some(Unary::Acos),
            "sinh" => Some(Unary::Sinh),
            "cosh" => Some(Unary::Cosh),
            "tanh" => Some(Unary::Tanh),
            "asinh" => Some(Unary::Asinh),
            "acosh" => Some(Unary::Acosh),
            "atanh" => Some(Unary::Atanh),
            _ => None,
        };
        if let Some(op) = trig {
            return Ok(unary(op));
        }
        if name == "normalize" {
            return Ok(self.scalar_normalize(&first, width));
        }
        let columns = |ty: &Type| match ty {
            Type::Numeric { rows, columns, .. } => (usize::from(*columns), usize::from(*rows)),
            _ => (1, 1),
        };
        let arith = |op: Binary, a: &Component<D::F>, b: &Component<D::F>| {
            map2(a, b, |x, y| d.binary(op, x, y, width))
        };
        if d.tracks_ranges() && matches!(name, "isinf" | "isnan") {
            self.open_finiteness(&values[0]);
        }
        match name {
            "isinf" | "isnan" => Ok(first
                .iter()
                .map(|c| {
                    Lanes::Bool(map1(c, |x| {
                        let v = d.representative(x);
                        if name == "isinf" {
                            v.is_infinite()
                        } else {
                            v.is_nan()
                        }
                    }))
                })
                .collect()),
            "matrixCompMult" => {
                let Some(second) = values.get(1).and_then(floats) else {
                    return bad();
                };
                Ok(first
                    .iter()
                    .zip(&second)
                    .map(|(a, b)| Lanes::Float(arith(Binary::Mul, a, b)))
                    .collect())
            }
            "transpose" => {
                let (cols, rows) = columns(&args[0].ty);
                Ok((0..rows)
                    .flat_map(|r| (0..cols).map(move |c| c * rows + r))
                    .filter_map(|i| first.get(i).cloned().map(Lanes::Float))
                    .collect())
            }
            "outerProduct" => {
                let Some(second) = values.get(1).and_then(floats) else {
                    return bad();
                };
                Ok(second
                    .iter()
                    .flat_map(|r| first.iter().map(move |c| (c, r)))
                    .map(|(c, r)| Lanes::Float(arith(Binary::Mul, c, r)))
                    .collect())
            }
            "determinant" => match self.determinant(&first, columns(&args[0].ty).0, width) {
                Some(det) => Ok(vec![Lanes::Float(det)]),
                None => error(e.span, "the emulator computes determinants up to 3x3"),
            },
            "inverse" => match self.inverse(&first, columns(&args[0].ty).0, width) {
                Some(m) => Ok(m.into_iter().map(Lanes::Float).collect()),
                None => error(e.span, "the emulator inverts matrices up to 3x3"),
            },
            "refract" => {
                let (Some(n), Some(eta)) = (
                    values.get(1).and_then(floats),
                    values.get(2).and_then(floats),
                ) else {
                    return bad();
                };
                let (Some(eta), Some(n0)) = (eta.first(), n.first()) else {
                    return bad();
                };
                let mut ndoti = arith(Binary::Mul, n0, &first[0]);
                for (a, b) in n.iter().zip(&first).skip(1) {
                    ndoti = arith(Binary::Add, &ndoti, &arith(Binary::Mul, a, b));
                }
                let one = vec![d.constant(1.0)];
                let zero = d.constant(0.0);
                // k = 1 - eta * (eta * (1 - ndoti * ndoti))
                let inner = arith(Binary::Sub, &one, &arith(Binary::Mul, &ndoti, &ndoti));
                let k = arith(
                    Binary::Sub,
                    &one,
                    &arith(Binary::Mul, eta, &arith(Binary::Mul, eta, &inner)),
                );
                let root = map1(&k, |x| d.unary(Unary::Sqrt, x, width));
                let scale = arith(Binary::Add, &arith(Binary::Mul, eta, &ndoti), &root);
                Ok(first
                    .iter()
                    .zip(&n)
                    .map(|(i, n)| {
                        let r = arith(
                            Binary::Sub,
                            &arith(Binary::Mul, eta, i),
                            &arith(Binary::Mul, &scale, n),
                        );
                        Lanes::Float(map2(&r, &k, |x, k| {
                            if d.compare(Compare::Less, k, zero) {
                                zero
                            } else {
                                x
                            }
                        }))
                    })
                    .collect())
            }
            _ => error(e.span, format!("the emulator does not run {name}()")),
        }
    }

    /// `normalize` of a scalar: `sign(x)`, as Mesa builds it; in a domain that tracks ranges,
    /// also the spec's formula `x * inversesqrt(x * x)` and dEQP's `x / sqrt(x * x)`.
    fn scalar_normalize(&self, x: &[Component<D::F>], width: Width) -> Value<D::F> {
        let d = self.domain;
        x.iter()
            .map(|c| {
                Lanes::Float(map1(c, |v| {
                    let sign = d.unary(Unary::Sign, v, width);
                    if !d.tracks_ranges() {
                        return sign;
                    }
                    let square = d.binary(Binary::Mul, v, v, width);
                    let inverse = d.unary(Unary::Rsq, square, width);
                    let product = d.binary(Binary::Mul, v, inverse, width);
                    let root = d.unary(Unary::Sqrt, square, width);
                    let quotient = d.binary(Binary::Div, v, root, width);
                    d.either(d.either(sign, product), quotient)
                }))
            })
            .collect()
    }

    /// `determinant` of a column-major `n` x `n` matrix (n <= 3), by cofactors of column 0.
    fn determinant(
        &self,
        m: &[Component<D::F>],
        n: usize,
        width: Width,
    ) -> Option<Component<D::F>> {
        let d = self.domain;
        let op = |o, a: &Component<D::F>, b: &Component<D::F>| {
            map2(a, b, |x, y| d.binary(o, x, y, width))
        };
        let at = |c: usize, r: usize| m.get(c * n + r);
        match n {
            2 => {
                let (a, b, c, e) = (at(0, 0)?, at(0, 1)?, at(1, 0)?, at(1, 1)?);
                Some(op(
                    Binary::Sub,
                    &op(Binary::Mul, a, e),
                    &op(Binary::Mul, c, b),
                ))
            }
            3 => {
                let minor = |r0: usize, r1: usize| -> Option<Component<D::F>> {
                    Some(op(
                        Binary::Sub,
                        &op(Binary::Mul, at(1, r0)?, at(2, r1)?),
                        &op(Binary::Mul, at(2, r0)?, at(1, r1)?),
                    ))
                };
                let t0 = op(Binary::Mul, at(0, 0)?, &minor(1, 2)?);
                let t1 = op(Binary::Mul, at(0, 1)?, &minor(0, 2)?);
                let t2 = op(Binary::Mul, at(0, 2)?, &minor(0, 1)?);
                let modelled = op(Binary::Add, &op(Binary::Sub, &t0, &t1), &t2);
                if d.tracks_ranges() {
                    return self.determinant_any_form(m, width, modelled);
                }
                Some(modelled)
            }
            _ => None,
        }
    }

    /// `inverse` of a column-major `n` x `n` matrix (n <= 3): the adjugate over the
    /// determinant.
    fn inverse(
        &self,
        m: &[Component<D::F>],
        n: usize,
        width: Width,
    ) -> Option<Vec<Component<D::F>>> {
        let d = self.domain;
        let op = |o, a: &Component<D::F>, b: &Component<D::F>| {
            map2(a, b, |x, y| d.binary(o, x, y, width))
        };
        let det = self.determinant(m, n, width)?;
        let at = |c: usize, r: usize| m.get(c * n + r);
        let adjugate: Vec<Component<D::F>> = match n {
            2 => vec![
                at(1, 1)?.clone(),
                map1(at(0, 1)?, |x| d.unary(Unary::Neg, x, width)),
                map1(at(1, 0)?, |x| d.unary(Unary::Neg, x, width)),
                at(0, 0)?.clone(),
            ],
            3 => {
                let mut out = Vec::with_capacity(9);
                for c in 0..3 {
                    for r in 0..3 {
                        // Cofactor of element (row c, column r) of the original.
                        let (r0, r1) = ((c + 1) % 3, (c + 2) % 3);
                        let (c0, c1) = ((r + 1) % 3, (r + 2) % 3);
                        out.push(op(
                            Binary::Sub,
                            &op(Binary::Mul, at(c0, r0)?, at(c1, r1)?),
                            &op(Binary::Mul, at(c1, r0)?, at(c0, r1)?),
                        ));
                    }
                }
                out
            }
            _ => return None,
        };
        if d.tracks_ranges() {
            return Some(self.inverse_any_form(&adjugate, &det, width));
        }
        Some(adjugate.iter().map(|a| op(Binary::Div, a, &det)).collect())
    }
}
