//! A compact S-expression printer for the AST, for tests and debugging.
//!
//! Operators come first: `a + b * c` prints as `(+ a (* b c))`, `-x` as `(neg x)`, `a[i]` as
//! `([] a i)`, `v.xy` as `(. v xy)`, calls as `(call f a b)` and constructors as `(vec4 a b)`.
//! Float literals print their source text. Statements print as `(if c then else)`,
//! `(for init cond step body)`, `{s1 s2}`, and so on; declarations as
//! `(var <qualifiers> <type> name (name init))`, `(precision mediump float)`, `(fn ...)`.

use std::fmt::Write;

use super::{
    ArrayDeclarator, ArrayDim, Block, Callee, Condition, Declaration, DeclarationKind, Expr,
    ExprKind, ExternalDeclaration, FullType, FunctionPrototype, MemberDeclaration, Precision,
    QualifierKind, Statement, StatementKind, TypeName, TypeQualifiers, TypeSpecifier, UnaryOp,
};

/// Prints a list of top-level items, one per line.
pub fn items_to_string(items: &[ExternalDeclaration]) -> String {
    let mut out = String::new();
    for item in items {
        match item {
            ExternalDeclaration::Declaration(d) => declaration(&mut out, d),
            ExternalDeclaration::Function(f) => {
                out.push_str("(fn ");
                prototype_body(&mut out, &f.prototype);
                out.push(' ');
                block(&mut out, &f.body);
                out.push(')');
            }
        }
        out.push('\n');
    }
    out
}

/// Prints one statement.
pub fn statement_to_string(s: &Statement) -> String {
    let mut out = String::new();
    statement(&mut out, s);
    out
}

/// Prints one expression.
pub fn expr_to_string(e: &Expr) -> String {
    let mut out = String::new();
    expr(&mut out, e);
    out
}

fn precision_name(p: Precision) -> &'static str {
    match p {
        Precision::Low => "lowp",
        Precision::Medium => "mediump",
        Precision::High => "highp",
    }
}

fn unary_name(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Plus => "+",
        UnaryOp::Negate => "neg",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreIncrement => "pre++",
        UnaryOp::PreDecrement => "pre--",
        UnaryOp::PostIncrement => "post++",
        UnaryOp::PostDecrement => "post--",
    }
}

fn list(out: &mut String, head: &str, items: &[Expr]) {
    out.push('(');
    out.push_str(head);
    for item in items {
        out.push(' ');
        expr(out, item);
    }
    out.push(')');
}

fn expr(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Ident(i) => out.push_str(&i.name),
        ExprKind::Int(i) => {
            let _ = write!(out, "{}{}", i.bits, if i.unsigned { "u" } else { "" });
        }
        ExprKind::Float(f) => out.push_str(&f.text),
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Unary(op, a) => list(out, unary_name(*op), std::slice::from_ref(a)),
        ExprKind::Binary(op, operands) => {
            let [a, b] = &**operands;
            let _ = write!(out, "({} ", op.symbol());
            expr(out, a);
            out.push(' ');
            expr(out, b);
            out.push(')');
        }
        ExprKind::Assign(op, operands) => {
            let [a, b] = &**operands;
            let name = op.map_or("=".to_owned(), |op| format!("{}=", op.symbol()));
            let _ = write!(out, "({name} ");
            expr(out, a);
            out.push(' ');
            expr(out, b);
            out.push(')');
        }
        ExprKind::Ternary(operands) => {
            let [c, a, b] = &**operands;
            out.push_str("(? ");
            expr(out, c);
            out.push(' ');
            expr(out, a);
            out.push(' ');
            expr(out, b);
            out.push(')');
        }
        ExprKind::Sequence(items) => list(out, ",", items),
        ExprKind::Call(Callee::Named(name), args) => {
            list(out, &format!("call {}", name.name), args)
        }
        ExprKind::Call(Callee::Type(ty), args) => {
            let mut head = String::new();
            type_specifier(&mut head, ty);
            list(out, &head, args);
        }
        ExprKind::Index(operands) => {
            let [a, i] = &**operands;
            out.push_str("([] ");
            expr(out, a);
            out.push(' ');
            expr(out, i);
            out.push(')');
        }
        ExprKind::Field(a, f) => {
            out.push_str("(. ");
            expr(out, a);
            let _ = write!(out, " {})", f.name);
        }
        ExprKind::Length(a) => list(out, "length", std::slice::from_ref(a)),
    }
}

fn dims(out: &mut String, dims: &[ArrayDim]) {
    for dim in dims {
        out.push('[');
        if let Some(size) = &dim.size {
            expr(out, size);
        }
        out.push(']');
    }
}

fn type_specifier(out: &mut String, ty: &TypeSpecifier) {
    match &ty.name {
        TypeName::Builtin(b) => {
            let _ = write!(out, "{b}");
        }
        TypeName::Named(n) => out.push_str(&n.name),
        TypeName::Struct(s) => {
            out.push_str("(struct");
            if let Some(name) = &s.name {
                let _ = write!(out, " {}", name.name);
            }
            members(out, &s.members);
            out.push(')');
        }
    }
    dims(out, &ty.array);
}

fn members(out: &mut String, members: &[MemberDeclaration]) {
    for member in members {
        out.push_str(" (");
        qualifiers(out, &member.qualifiers);
        type_specifier(out, &member.ty);
        for d in &member.declarators {
            out.push(' ');
            array_declarator(out, d);
        }
        out.push(')');
    }
}

fn qualifiers(out: &mut String, q: &TypeQualifiers) {
    for qualifier in &q.list {
        let word = match &qualifier.kind {
            QualifierKind::Storage(s) => format!("{s:?}").to_lowercase(),
            QualifierKind::Auxiliary(a) => format!("{a:?}").to_lowercase(),
            QualifierKind::Interpolation(i) => format!("{i:?}").to_lowercase(),
            QualifierKind::Memory(m) => format!("{m:?}").to_lowercase(),
            QualifierKind::Precision(p) => precision_name(*p).to_owned(),
            QualifierKind::Invariant => "invariant".to_owned(),
            QualifierKind::Precise => "precise".to_owned(),
            QualifierKind::Layout(ids) => {
                let mut s = "layout(".to_owned();
                for (i, id) in ids.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push_str(&id.name.name);
                    if let Some(v) = &id.value {
                        s.push('=');
                        expr(&mut s, v);
                    }
                }
                s.push(')');
                s
            }
        };
        out.push_str(&word);
        out.push(' ');
    }
}

fn full_type(out: &mut String, ty: &FullType) {
    qualifiers(out, &ty.qualifiers);
    type_specifier(out, &ty.ty);
}

fn array_declarator(out: &mut String, d: &ArrayDeclarator) {
    out.push_str(&d.name.name);
    dims(out, &d.array);
}

fn prototype_body(out: &mut String, p: &FunctionPrototype) {
    full_type(out, &p.return_type);
    let _ = write!(out, " {} (", p.name.name);
    for (i, param) in p.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        qualifiers(out, &param.qualifiers);
        type_specifier(out, &param.ty);
        if let Some(d) = &param.declarator {
            out.push(' ');
            array_declarator(out, d);
        }
    }
    out.push(')');
}

fn declaration(out: &mut String, d: &Declaration) {
    match &d.kind {
        DeclarationKind::Precision { precision, ty } => {
            let _ = write!(out, "(precision {} ", precision_name(*precision));
            type_specifier(out, ty);
            out.push(')');
        }
        DeclarationKind::Variables { ty, declarators } => {
            out.push_str("(var ");
            full_type(out, ty);
            for d in declarators {
                out.push(' ');
                match &d.initializer {
                    None => array_declarator(out, &d.declarator),
                    Some(init) => {
                        out.push('(');
                        array_declarator(out, &d.declarator);
                        out.push(' ');
                        expr(out, init);
                        out.push(')');
                    }
                }
            }
            out.push(')');
        }
        DeclarationKind::Prototype(p) => {
            out.push_str("(proto ");
            prototype_body(out, p);
            out.push(')');
        }
        DeclarationKind::Block(b) => {
            out.push_str("(interface ");
            qualifiers(out, &b.qualifiers);
            out.push_str(&b.name.name);
            members(out, &b.members);
            if let Some(instance) = &b.instance {
                out.push_str(" as ");
                array_declarator(out, instance);
            }
            out.push(')');
        }
        DeclarationKind::Qualifiers {
            qualifiers: q,
            names,
        } => {
            out.push_str("(qualify ");
            qualifiers(out, q);
            for n in names {
                out.push_str(&n.name);
                out.push(' ');
            }
            out.truncate(out.trim_end().len());
            out.push(')');
        }
    }
}

fn block(out: &mut String, b: &Block) {
    out.push('{');
    for (i, s) in b.statements.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        statement(out, s);
    }
    out.push('}');
}

fn condition(out: &mut String, c: &Condition) {
    match c {
        Condition::Expr(e) => expr(out, e),
        Condition::Declaration {
            ty,
            name,
            initializer,
        } => {
            out.push_str("(var ");
            full_type(out, ty);
            let _ = write!(out, " ({} ", name.name);
            expr(out, initializer);
            out.push_str("))");
        }
    }
}

fn statement(out: &mut String, s: &Statement) {
    match &s.kind {
        StatementKind::Compound(b) => block(out, b),
        StatementKind::Declaration(d) => declaration(out, d),
        StatementKind::Expression(None) => out.push(';'),
        StatementKind::Expression(Some(e)) => expr(out, e),
        StatementKind::If {
            condition: c,
            then,
            otherwise,
        } => {
            out.push_str("(if ");
            expr(out, c);
            out.push(' ');
            statement(out, then);
            if let Some(o) = otherwise {
                out.push(' ');
                statement(out, o);
            }
            out.push(')');
        }
        StatementKind::Switch { selector, body } => {
            out.push_str("(switch ");
            expr(out, selector);
            out.push(' ');
            block(out, body);
            out.push(')');
        }
        StatementKind::Case(e) => list(out, "case", std::slice::from_ref(e)),
        StatementKind::Default => out.push_str("(default)"),
        StatementKind::While { condition: c, body } => {
            out.push_str("(while ");
            condition(out, c);
            out.push(' ');
            statement(out, body);
            out.push(')');
        }
        StatementKind::DoWhile { body, condition: c } => {
            out.push_str("(do ");
            statement(out, body);
            out.push(' ');
            expr(out, c);
            out.push(')');
        }
        StatementKind::For {
            init,
            condition: c,
            step,
            body,
        } => {
            out.push_str("(for ");
            statement(out, init);
            out.push(' ');
            match c {
                Some(c) => condition(out, c),
                None => out.push('_'),
            }
            out.push(' ');
            match step {
                Some(e) => expr(out, e),
                None => out.push('_'),
            }
            out.push(' ');
            statement(out, body);
            out.push(')');
        }
        StatementKind::Break => out.push_str("(break)"),
        StatementKind::Continue => out.push_str("(continue)"),
        StatementKind::Discard => out.push_str("(discard)"),
        StatementKind::Return(None) => out.push_str("(return)"),
        StatementKind::Return(Some(e)) => list(out, "return", std::slice::from_ref(e)),
    }
}
