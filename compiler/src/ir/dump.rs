//! Printing a module: Mesa's s-expression style (`glsl_compiler --dump-lir`), and JSON.
//!
//! The s-expression printer follows Mesa's `ir_print_visitor` space for space, so Mesa's own
//! test regexes run against it: `(expression float16_t / (var_ref a) (var_ref b) ) `,
//! `(assign  (x) (var_ref x)  (constant float (1.000000)) ) `, `(swiz xxxx (var_ref a) )`.

use std::collections::HashMap;
use std::fmt::Write;

use super::{
    ConstValue, Expr, ExprKind, Function, Module, Precision, Scalar, Stmt, Texture, Type, VarId,
};

/// The module as JSON (the serde form of the IR).
pub fn to_json(module: &Module) -> String {
    serde_json::to_string_pretty(module).unwrap_or_default()
}

/// The module in Mesa's s-expression style.
pub fn to_sexpr(module: &Module) -> String {
    let mut p = Printer {
        module,
        out: String::new(),
        indent: 0,
        names: HashMap::new(),
        used: HashMap::new(),
        counter: 1,
    };
    for stmt in &module.globals {
        p.stmt(stmt);
        p.out.push('\n');
    }
    for function in &module.functions {
        p.function(function);
    }
    p.out
}

struct Printer<'m> {
    module: &'m Module,
    out: String,
    indent: usize,
    names: HashMap<VarId, String>,
    used: HashMap<String, VarId>,
    counter: u32,
}

impl Printer<'_> {
    fn name(&mut self, id: VarId) -> String {
        if let Some(name) = self.names.get(&id) {
            return name.clone();
        }
        let base = self
            .module
            .variables
            .get(id.0 as usize)
            .map_or("?", |v| v.name.as_str());
        let name = if self.used.contains_key(base) {
            self.counter += 1;
            format!("{base}@{}", self.counter)
        } else {
            base.to_owned()
        };
        self.used.insert(name.clone(), id);
        self.names.insert(id, name.clone());
        name
    }

    fn pad(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn ty(&mut self, ty: &Type) {
        let name = self.module.type_name(ty);
        self.out.push_str(&name);
    }

    fn declare(&mut self, id: VarId) {
        let Some(var) = self.module.variables.get(id.0 as usize) else {
            return;
        };
        let location = var
            .location
            .map(|l| format!("location={l} "))
            .unwrap_or_default();
        let precision = match var.precision {
            Precision::None => "",
            Precision::High => "highp ",
            Precision::Medium => "mediump ",
            Precision::Low => "lowp ",
        };
        let _ = write!(
            self.out,
            "(declare ({location}{}{precision}) ",
            var.mode.mesa_name()
        );
        let ty = var.ty.clone();
        self.ty(&ty);
        let name = self.name(id);
        let _ = write!(self.out, " {name})");
    }

    fn function(&mut self, f: &Function) {
        let _ = writeln!(self.out, "( function {}", f.name);
        self.indent += 1;
        self.pad();
        self.out.push_str("(signature ");
        self.indent += 1;
        self.ty(&f.return_type);
        self.out.push('\n');
        self.pad();
        self.out.push_str("(parameters\n");
        self.indent += 1;
        for &param in &f.params {
            self.pad();
            self.declare(param);
            self.out.push('\n');
        }
        self.indent -= 1;
        self.pad();
        self.out.push_str(")\n");
        self.pad();
        self.out.push_str("(\n");
        self.block_lines(f.body.as_deref().unwrap_or_default());
        self.pad();
        self.out.push_str("))\n");
        self.indent -= 2;
        self.out.push('\n');
        self.pad();
        self.out.push_str(")\n\n");
    }

    fn block_lines(&mut self, block: &[Stmt]) {
        self.indent += 1;
        for stmt in block {
            self.pad();
            self.stmt(stmt);
            self.out.push('\n');
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Declare(id) => self.declare(*id),
            Stmt::Assign {
                lhs,
                write_mask,
                rhs,
                ..
            } => {
                let mask: String = (0..4)
                    .filter(|i| write_mask & (1 << i) != 0)
                    .map(|i| ['x', 'y', 'z', 'w'][i])
                    .collect();
                let _ = write!(self.out, "(assign  ({mask}) ");
                self.expr(lhs);
                self.out.push(' ');
                self.expr(rhs);
                self.out.push_str(") ");
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                self.out.push_str("(if ");
                self.expr(condition);
                self.out.push_str("(\n");
                self.block_lines(then);
                self.pad();
                self.out.push_str(")\n");
                self.pad();
                if otherwise.is_empty() {
                    self.out.push_str("())\n");
                } else {
                    self.out.push_str("(\n");
                    self.block_lines(otherwise);
                    self.pad();
                    self.out.push_str("))\n");
                }
            }
            Stmt::Loop { body, .. } => {
                self.out.push_str("(loop (\n");
                self.block_lines(body);
                self.pad();
                self.out.push_str("))\n");
            }
            Stmt::Break => self.out.push_str("break"),
            Stmt::Continue => self.out.push_str("continue"),
            Stmt::Return { value, .. } => {
                self.out.push_str("(return");
                if let Some(v) = value {
                    self.out.push(' ');
                    self.expr(v);
                }
                self.out.push(')');
            }
            Stmt::Discard { .. } => self.out.push_str("(discard )"),
            Stmt::Call {
                callee,
                args,
                result,
                ..
            } => {
                let name = self
                    .module
                    .functions
                    .get(callee.0 as usize)
                    .map_or("?", |f| f.name.as_str());
                let _ = write!(self.out, "(call {name} ");
                if let Some(r) = result {
                    self.expr(r);
                }
                self.out.push_str(" (");
                for a in args {
                    self.expr(a);
                }
                self.out.push_str("))\n");
            }
            Stmt::Intrinsic { name, args, .. } => {
                let _ = write!(self.out, "(call __intrinsic_{name}  (");
                for a in args {
                    self.expr(a);
                }
                self.out.push_str("))\n");
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Constant { value, .. } => self.constant(&e.ty, value),
            ExprKind::Var(id) => {
                let name = self.name(*id);
                let _ = write!(self.out, "(var_ref {name}) ");
            }
            ExprKind::Index(base, index) => {
                self.out.push_str("(array_ref ");
                self.expr(base);
                self.expr(index);
                self.out.push_str(") ");
            }
            ExprKind::Field(base, index) => {
                self.out.push_str("(record_ref ");
                self.expr(base);
                let field = match &base.ty {
                    Type::Struct(id) => self
                        .module
                        .structs
                        .get(id.0 as usize)
                        .and_then(|s| s.members.get(*index as usize))
                        .map_or_else(|| index.to_string(), |m| m.name.clone()),
                    _ => index.to_string(),
                };
                let _ = write!(self.out, " {field}) ");
            }
            ExprKind::Swizzle(base, comps) => {
                self.out.push_str("(swiz ");
                for &c in comps {
                    self.out.push(['x', 'y', 'z', 'w'][usize::from(c & 3)]);
                }
                self.out.push(' ');
                self.expr(base);
                self.out.push(')');
            }
            ExprKind::Op(op, operands) => {
                self.out.push_str("(expression ");
                self.ty(&e.ty);
                let _ = write!(self.out, " {} ", op.name());
                for o in operands {
                    self.expr(o);
                }
                self.out.push_str(") ");
            }
            ExprKind::Texture(t) => self.texture(&e.ty, t),
            ExprKind::Intrinsic(name, args) => {
                self.out.push_str("(expression ");
                self.ty(&e.ty);
                let _ = write!(self.out, " {name} ");
                for a in args {
                    self.expr(a);
                }
                self.out.push_str(") ");
            }
        }
    }

    fn texture(&mut self, ty: &Type, t: &Texture) {
        use super::TexOp;
        let _ = write!(self.out, "({} ", t.op.name());
        self.ty(ty);
        self.out.push(' ');
        self.expr(&t.sampler);
        self.out.push(' ');
        let no_coord = matches!(
            t.op,
            TexOp::Txs | TexOp::QueryLevels | TexOp::TextureSamples
        );
        if !no_coord {
            if let Some(c) = &t.coordinate {
                self.expr(c);
            }
            self.out.push(' ');
            match &t.offset {
                Some(o) => self.expr(o),
                None => self.out.push('0'),
            }
            self.out.push(' ');
        }
        let no_proj = matches!(
            t.op,
            TexOp::Txf | TexOp::TxfMs | TexOp::Txs | TexOp::Tg4 | TexOp::QueryLevels
        ) || t.op == TexOp::TextureSamples;
        if !no_proj {
            match &t.projector {
                Some(p) => self.expr(p),
                None => self.out.push('1'),
            }
            match &t.shadow_comparator {
                Some(s) => {
                    self.out.push(' ');
                    self.expr(s);
                }
                None => self.out.push_str(" ()"),
            }
        }
        self.out.push(' ');
        if let Some((dx, dy)) = &t.gradient {
            self.out.push('(');
            self.expr(dx);
            self.out.push(' ');
            self.expr(dy);
            self.out.push(')');
        } else if let Some(lod) = &t.lod {
            self.expr(lod);
        }
        self.out.push(')');
    }

    fn constant(&mut self, ty: &Type, value: &ConstValue) {
        self.out.push_str("(constant ");
        self.ty(ty);
        self.out.push_str(" (");
        match value {
            ConstValue::Components(components) => {
                for (i, c) in components.iter().enumerate() {
                    if i != 0 {
                        self.out.push(' ');
                    }
                    self.out.push_str(&scalar_text(*c));
                }
            }
            ConstValue::Composite(items) => {
                let element = ty.element();
                for (i, item) in items.iter().enumerate() {
                    match (ty, &element) {
                        (Type::Struct(id), _) => {
                            let member = self
                                .module
                                .structs
                                .get(id.0 as usize)
                                .and_then(|s| s.members.get(i))
                                .map(|m| (m.name.clone(), m.ty.clone()));
                            if let Some((name, mty)) = member {
                                let _ = write!(self.out, "({name} ");
                                self.constant(&mty, item);
                                self.out.push(')');
                            }
                        }
                        (_, Some(ety)) => self.constant(ety, item),
                        _ => {}
                    }
                }
            }
        }
        self.out.push_str(")) ");
    }
}

/// One component as Mesa prints it (`%f`, `%e` above 10^6, `%a` below 10^-6).
fn scalar_text(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => u8::from(b).to_string(),
        Scalar::Int(v) => v.to_string(),
        Scalar::Uint(v) => v.to_string(),
        Scalar::Int16(v) => v.to_string(),
        Scalar::Uint16(v) => v.to_string(),
        Scalar::Int64(v) => v.to_string(),
        Scalar::Uint64(v) => v.to_string(),
        Scalar::Float(v) => float_text(v),
        Scalar::Float16(bits) => float_text(half::f16::from_bits(bits).to_f32()),
    }
}

fn float_text(v: f32) -> String {
    let a = v.abs();
    if v == 0.0 || (1e-6..=1e6).contains(&a) || !v.is_finite() {
        format!("{v:.6}")
    } else {
        // C's %e: mantissa with 6 decimals, exponent with a sign and at least two digits.
        let text = format!("{v:.6e}");
        match text.split_once('e') {
            Some((mantissa, exp)) => {
                let (sign, digits) = match exp.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', exp),
                };
                format!("{mantissa}e{sign}{digits:0>2}")
            }
            None => text,
        }
    }
}
