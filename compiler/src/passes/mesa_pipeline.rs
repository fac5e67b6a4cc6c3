//! What Mesa's pipeline does after `lower_precision`, as measured on llvmpipe (Mesa 22.3).
//!
//! The rules, each measured with exact float readback on llvmpipe:
//!
//! 1. The lone-operation rule: a 16-bit tree that holds a single operation, all of whose
//!    sources are 32-bit values converted down (uniforms, varyings, highp results: not
//!    literals, texels or 16-bit variables), runs in binary32 where its result is converted
//!    back up. `fract(a)`, `a > c` and `sin(x) * k` with highp `k` stay 32-bit; `a - b` does
//!    not, because Mesa splits it into an add and a negate, two operations; nor do `mod`
//!    (`x - y * floor(x / y)`), a `dot` of vectors or a matrix product, which Mesa expands
//!    into several operations per channel. A lone operation stored into a 16-bit variable
//!    counts as converted back up only when the variable is read somewhere at 32 bits
//!    (`float r = a / b; gl_FragColor.r = r;`); one read only by 16-bit operations stays
//!    16-bit (`vec4 p = a * b; fract(p.x)`, `modf`'s `trunc`).
//! 2. Conversions through variables: once Mesa's variables are SSA values, NIR folds
//!    `f2f32(f2fmp(x))` to `x` even when a variable, temporary or swizzle sits between the
//!    two. A 16-bit local or temporary whose every assignment is a 32-bit value converted
//!    down, a constant, or a copy of another such variable therefore holds the 32-bit value:
//!    it is widened, its 32-bit reads lose their `f162f`, its 16-bit reads get the `f2fmp`
//!    (the same value the store gave them). Measured: a highp result stored in a mediump
//!    local, a call result copied into a vector constructor, keep their binary32 values.
//! 3. A conversion up of a swizzle of a conversion down (`f162f(swiz(f2fmp(u)))`) is
//!    `swiz(u)`: a mediump uniform read by a highp operation is not rounded.
//!
//! NIR folds these pairs around such an operation away, leaving a 32-bit operation.
//!
//! 4. zink keeps binary16 what a mediump vector or matrix constructor places when the
//!    constructed value goes whole into a shader output (rules 1 and 2 stop at its
//!    temporary): `color = vec4(fract(u), ...)`, `vec4(u, ...)` and `vec4(m, ...)` of a
//!    mediump local holding a highp value are rounded, where `fract(u) * k`, `u + k`,
//!    `m * k` with highp `k`, a constructor with a highp argument, or one copied into a
//!    local and read by an operation are not (measured, `fold_constructors`).
//!
//! zink's derivatives of lone operations (`lone_op_derivative`) run first
//! ([`super::lone_derivative`]).
//!
//! Each rule is a profile choice ([`Switches`]): rule 1 per kind of source (uniforms,
//! shader inputs, values the shader computed: `lone_op_*`), rules 2 and 3 together
//! (`fold_conversions`); for integer trees `int_lone_op` and `int_fold_conversions` (on
//! llvmpipe neither: `i2i32(i2imp(x))` wraps, so NIR keeps it).

use super::fold_conversions::{children, stmt_exprs};
use super::region::{is_16, is_down, operation_weight, widen};
use super::walk;
use super::Switches;
use std::collections::{HashMap, HashSet};

use crate::ir::build::{convert, placeholder};
use crate::ir::{BaseType, Expr, ExprKind, Module, Op, Stmt, Type, VarId, VarMode};

/// What rule 1 needs to know of a region's sources: which switches are on, and each
/// variable's mode.
struct Sources {
    switches: Switches,
    modes: Vec<VarMode>,
}

impl Sources {
    /// Whether a 32-bit value `x` converted down may be a source of a lone operation that
    /// stays 32-bit: by the kind of variable it reads, or a value the shader computed.
    fn lone_source(&self, x: &Expr) -> bool {
        if x.ty.base().is_some_and(|b| !b.is_float()) {
            return self.switches.int_lone_op;
        }
        let mode = root_var(x).and_then(|v| self.modes.get(v.0 as usize));
        match mode {
            Some(VarMode::Uniform) => self.switches.lone_op_uniform,
            Some(VarMode::ShaderIn) => self.switches.lone_op_varying,
            _ => self.switches.lone_op_temporary,
        }
    }
}

/// The variable a chain of swizzles, fields and indexing reads, if `e` is one.
fn root_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Swizzle(base, _) | ExprKind::Field(base, _) | ExprKind::Index(base, _) => {
            root_var(base)
        }
        _ => None,
    }
}

/// Applies the rules `switches` enables to `module` in place.
pub fn run(module: &mut Module, switches: &Switches) {
    let sources = Sources {
        switches: *switches,
        modes: module.variables.iter().map(|v| v.mode).collect(),
    };
    if switches.lone_op_derivative {
        super::lone_derivative::run(module);
    }
    let kept = if switches.fold_constructors {
        HashSet::new()
    } else {
        constructors(module)
    };
    lone_stores(module, &sources, &kept);
    widen_variables(module, switches, &kept);
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            stmt_exprs(stmt, &mut |e| fold_swizzled(e, switches));
            stmt_exprs(stmt, &mut |e| rewrite(e, &sources));
        }
    });
}

/// The vector and matrix constructor temporaries (`vec_ctor`, `mat_ctor`) whose one read
/// converts them up whole into a shader output: what such a constructor places stays
/// binary16 when `fold_constructors` is off (zink).
fn constructors(module: &mut Module) -> HashSet<VarId> {
    let temporaries: HashSet<VarId> = module
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.mode == VarMode::Temporary && matches!(v.name.as_str(), "vec_ctor" | "mat_ctor")
        })
        .map(|(i, _)| VarId(i as u32))
        .collect();
    let modes: Vec<VarMode> = module.variables.iter().map(|v| v.mode).collect();
    let mut output_reads: HashMap<VarId, u32> = HashMap::new();
    let mut reads: HashMap<VarId, u32> = HashMap::new();
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            if let Stmt::Assign { lhs, rhs, .. } = stmt {
                let to_output = lhs
                    .variable()
                    .and_then(|v| modes.get(v.0 as usize))
                    .is_some_and(|m| *m == VarMode::ShaderOut);
                if let Some(v) = up_of_var(rhs).filter(|_| to_output) {
                    *output_reads.entry(v).or_default() += 1;
                }
                count_reads(rhs, &mut reads);
                if !matches!(lhs.kind, ExprKind::Var(_)) {
                    children(lhs, &mut |c| count_reads(c, &mut reads));
                }
            } else {
                stmt_exprs(stmt, &mut |e| count_reads(e, &mut reads));
            }
        }
    });
    temporaries
        .into_iter()
        .filter(|v| output_reads.get(v).is_some_and(|n| reads.get(v) == Some(n)))
        .collect()
}

/// Counts the variable reads in `e`.
fn count_reads(e: &mut Expr, reads: &mut HashMap<VarId, u32>) {
    if let ExprKind::Var(v) = e.kind {
        *reads.entry(v).or_default() += 1;
    }
    children(e, &mut |c| count_reads(c, reads));
}

/// Rule 1 for stores: a lone operation stored straight into a 16-bit variable read at 32
/// bits is computed at 32 bits, rounded once by the store (rule 2 may then remove that).
/// Not into the variables of `kept`.
fn lone_stores(module: &mut Module, sources: &Sources, kept: &HashSet<VarId>) {
    let mut read_wide = HashSet::new();
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            stmt_exprs(stmt, &mut |e| collect_wide_reads(e, &mut read_wide));
        }
    });
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            if let Stmt::Assign { lhs, rhs, .. } = stmt {
                let wide = lhs
                    .variable()
                    .is_some_and(|v| read_wide.contains(&v) && !kept.contains(&v));
                if wide && is_16(rhs) && region(rhs, sources) == Some(1) {
                    let taken = std::mem::replace(rhs, placeholder());
                    *rhs = convert(widen(taken, false), false);
                }
            }
        }
    });
}

/// Rule 3: `f162f(swiz(f2fmp(u)))` is `swiz(u)`.
fn fold_swizzled(e: &mut Expr, switches: &Switches) {
    children(e, &mut |c| fold_swizzled(c, switches));
    let ExprKind::Op(op, operands) = &mut e.kind else {
        return;
    };
    let enabled = if *op == Op::F162f {
        switches.fold_conversions
    } else {
        switches.int_fold_conversions
    };
    if !is_up(*op) || operands.len() != 1 || !enabled {
        return;
    }
    let Some(ExprKind::Swizzle(base, _)) = operands.first().map(|o| &o.kind) else {
        return;
    };
    let ExprKind::Op(inner, inner_operands) = &base.kind else {
        return;
    };
    if !is_down(*inner) || inner_operands.first().is_none_or(is_16) {
        return;
    }
    let Some(mut swizzle) = operands.pop() else {
        return;
    };
    if let ExprKind::Swizzle(base, _) = &mut swizzle.kind {
        if let ExprKind::Op(_, inner_operands) = &mut base.kind {
            if let Some(u) = inner_operands.pop() {
                **base = u;
            }
        }
    }
    swizzle.ty = e.ty.clone();
    *e = swizzle;
}

/// The variable a chain of swizzles reads, if `e` is one.
fn chain_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Swizzle(base, _) => chain_var(base),
        _ => None,
    }
}

/// The variable, if `e` is a conversion up of a (swizzled) 16-bit variable read.
fn up_of_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Op(op, operands) if is_up(*op) => operands.first().and_then(chain_var),
        _ => None,
    }
}

fn collect_wide_reads(e: &mut Expr, set: &mut HashSet<VarId>) {
    if let Some(v) = up_of_var(e) {
        set.insert(v);
    }
    children(e, &mut |c| collect_wide_reads(c, set));
}

/// What an assignment to a candidate variable stores.
enum Stored {
    /// A 32-bit value converted down.
    Down,
    /// A constant.
    Constant,
    /// A copy of (a swizzle of) another variable.
    Copy(VarId),
    /// Anything else: a 16-bit result.
    Other,
}

fn stored(rhs: &Expr) -> Stored {
    match &rhs.kind {
        ExprKind::Op(op, operands)
            if is_down(*op)
                && operands.len() == 1
                && operands
                    .first()
                    .is_some_and(|x| !is_16(x) && !x.ty.is_array()) =>
        {
            Stored::Down
        }
        ExprKind::Constant { .. } => Stored::Constant,
        _ => match chain_var(rhs) {
            Some(v) => Stored::Copy(v),
            None => Stored::Other,
        },
    }
}

/// Variables that a use other than a read through swizzles or a whole-variable store
/// touches (indexing, calls), which are never widened.
fn pinned(e: &mut Expr, set: &mut HashSet<VarId>) {
    match &mut e.kind {
        ExprKind::Index(base, index) => {
            if let Some(v) = chain_var(base) {
                set.insert(v);
            }
            pinned(base, set);
            pinned(index, set);
        }
        ExprKind::Field(base, _) => {
            if let Some(v) = chain_var(base) {
                set.insert(v);
            }
            pinned(base, set);
        }
        _ => children(e, &mut |c| pinned(c, set)),
    }
}

/// Rule 2: widens the 16-bit variables that only ever hold 32-bit values converted down,
/// except those of `kept`.
fn widen_variables(module: &mut Module, switches: &Switches, kept: &HashSet<VarId>) {
    let mut set: HashSet<VarId> = module
        .variables
        .iter()
        .enumerate()
        .filter(|(i, _)| !kept.contains(&VarId(*i as u32)))
        .filter(|(_, v)| {
            matches!(v.mode, VarMode::Temporary | VarMode::Auto)
                && !v.ty.is_array()
                && matches!(v.ty, Type::Numeric { .. })
                && v.ty.base().is_some_and(|b| b.bit_size() == 16)
                && match v.ty.base() {
                    Some(BaseType::Float16) => switches.fold_conversions,
                    _ => switches.int_fold_conversions,
                }
        })
        .map(|(i, _)| VarId(i as u32))
        .collect();
    if set.is_empty() {
        return;
    }
    let mut stores: Vec<(VarId, Stored)> = Vec::new();
    let mut pins = HashSet::new();
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            match stmt {
                Stmt::Assign { lhs, rhs, .. } => {
                    match &lhs.kind {
                        ExprKind::Var(v) => stores.push((*v, stored(rhs))),
                        _ => {
                            if let Some(v) = lhs.variable() {
                                pins.insert(v);
                            }
                            pinned(lhs, &mut pins);
                        }
                    }
                    pinned(rhs, &mut pins);
                }
                Stmt::Call { args, result, .. } => {
                    for a in args.iter_mut().chain(result.iter_mut()) {
                        if let Some(v) = chain_var(a) {
                            pins.insert(v);
                        }
                        pinned(a, &mut pins);
                    }
                }
                other => stmt_exprs(other, &mut |e| pinned(e, &mut pins)),
            }
        }
    });
    set.retain(|v| !pins.contains(v));
    loop {
        let before = set.len();
        for (v, s) in &stores {
            let keep = match s {
                Stored::Down | Stored::Constant => true,
                Stored::Copy(u) => set.contains(u),
                Stored::Other => false,
            };
            if !keep {
                set.remove(v);
            }
        }
        if set.len() == before {
            break;
        }
    }
    if set.is_empty() {
        return;
    }
    for v in &set {
        let var = module.var_mut(*v);
        if let Some(b) = var.ty.base().and_then(BaseType::widened) {
            var.ty = var.ty.with_base(b);
            if let Some(c) = &var.constant_value {
                var.constant_value = Some(c.convert(b));
            }
        }
    }
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            if let Stmt::Assign { lhs, rhs, .. } = stmt {
                if chain_var(lhs).is_some_and(|v| set.contains(&v)) {
                    retype_chain(lhs);
                    match stored(rhs) {
                        Stored::Down => {
                            if let ExprKind::Op(_, operands) = &mut rhs.kind {
                                if let Some(mut x) = operands.pop() {
                                    fix_reads(&mut x, &set);
                                    *rhs = x;
                                }
                            }
                        }
                        Stored::Constant => {
                            if let (Some(b), ExprKind::Constant { value, .. }) =
                                (rhs.ty.base().and_then(BaseType::widened), &mut rhs.kind)
                            {
                                *value = value.convert(b);
                                rhs.ty = rhs.ty.with_base(b);
                            }
                        }
                        Stored::Copy(_) => retype_chain(rhs),
                        Stored::Other => fix_reads(rhs, &set),
                    }
                    continue;
                }
            }
            stmt_exprs(stmt, &mut |e| fix_reads(e, &set));
        }
    });
}

/// Gives a chain of swizzles over a widened variable its 32-bit types.
fn retype_chain(e: &mut Expr) {
    if let Some(b) = e.ty.base().filter(|b| b.bit_size() == 16) {
        if let Some(w) = b.widened() {
            e.ty = e.ty.with_base(w);
        }
    }
    if let ExprKind::Swizzle(base, _) = &mut e.kind {
        retype_chain(base);
    }
}

/// Reads of widened variables: at 32 bits they lose their conversion up, inside 16-bit
/// trees they get a conversion down.
fn fix_reads(e: &mut Expr, set: &HashSet<VarId>) {
    if up_of_var(e).is_some_and(|v| set.contains(&v)) {
        if let ExprKind::Op(_, operands) = &mut e.kind {
            if let Some(mut x) = operands.pop() {
                retype_chain(&mut x);
                *e = x;
            }
        }
        return;
    }
    if chain_var(e).is_some_and(|v| set.contains(&v)) && is_16(e) {
        let mut x = std::mem::replace(e, placeholder());
        retype_chain(&mut x);
        *e = convert(x, false);
        return;
    }
    children(e, &mut |c| fix_reads(c, set));
}

fn is_up(op: Op) -> bool {
    matches!(op, Op::F162f | Op::I2i | Op::U2u)
}

/// Counts the operations of a 16-bit region and whether every leaf is a converted 32-bit
/// value of a kind `sources` lets stay 32-bit; `None` when something else (a constant, a
/// texel, a 16-bit variable, another kind of source) is a leaf.
fn region(e: &Expr, sources: &Sources) -> Option<u32> {
    match &e.kind {
        ExprKind::Op(op, operands) if is_down(*op) => operands
            .first()
            .filter(|x| !is_16(x) && sources.lone_source(x))
            .map(|_| 0),
        ExprKind::Op(op, operands) => {
            let mut n = operation_weight(*op, operands);
            for o in operands {
                n += region(o, sources)?;
            }
            Some(n)
        }
        ExprKind::Swizzle(base, _) => region(base, sources),
        _ => None,
    }
}

fn rewrite(e: &mut Expr, sources: &Sources) {
    // The root of a region: a conversion up, or a comparison of 16-bit values.
    let lone = match &e.kind {
        ExprKind::Op(Op::F162f | Op::I2i | Op::U2u, operands) => {
            operands
                .first()
                .filter(|x| is_16(x))
                .and_then(|x| region(x, sources))
                == Some(1)
        }
        ExprKind::Op(_, operands)
            if e.ty.base() == Some(BaseType::Bool) && operands.iter().any(is_16) =>
        {
            region(e, sources) == Some(1)
        }
        _ => false,
    };
    if lone {
        let taken = std::mem::replace(e, placeholder());
        *e = match taken.kind {
            ExprKind::Op(Op::F162f | Op::I2i | Op::U2u, mut operands) => {
                widen(operands.pop().unwrap_or_else(placeholder), false)
            }
            kind => widen(Expr { kind, ..taken }, false),
        };
        return;
    }
    children(e, &mut |c| rewrite(c, sources));
}
