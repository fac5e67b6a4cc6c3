//! Declarations: default precision statements, variables (global and local, with their
//! storage, precision and initializer), struct types, interface blocks, and functions
//! (prototypes, definitions, parameters and return precision).

use super::scope::precision_key;
use super::{error, Analyzer, Result, Signature};
use crate::ast::{
    self, DeclarationKind, ExternalDeclaration, Interpolation, QualifierKind, Storage,
};
use crate::ir::full_mask;
use crate::ir::{Expr, FuncId, Function, Precision, Stmt, Type, VarMode, Variable};
use crate::span::Span;
use crate::Stage;

/// `layout(location = N)` in a qualifier list.
fn location(q: &ast::TypeQualifiers) -> Option<i32> {
    q.list.iter().find_map(|q| match &q.kind {
        QualifierKind::Layout(ids) => {
            ids.iter()
                .find(|i| i.name.name == "location")
                .and_then(|i| match i.value.as_ref().map(|v| &v.kind) {
                    Some(ast::ExprKind::Int(lit)) => Some(lit.bits as i32),
                    _ => None,
                })
        }
        _ => None,
    })
}

/// Whether an array dimension of `ty` (outermost to innermost) has no size.
fn has_unsized_dim(ty: &Type) -> bool {
    match ty {
        Type::Array { size: 0, .. } => true,
        Type::Array { element, .. } => has_unsized_dim(element),
        _ => false,
    }
}

impl Analyzer<'_> {
    /// Analyses one top-level item.
    pub(crate) fn external(&mut self, item: &ExternalDeclaration) -> Result<()> {
        match item {
            ExternalDeclaration::Declaration(d) => {
                let (_, emitted) = self.capture(|a| a.declaration(d))?;
                self.module.globals.extend(emitted);
                Ok(())
            }
            ExternalDeclaration::Function(f) => self.function_definition(f),
        }
    }

    /// Analyses a declaration in the current scope; statements go to `self.out`.
    pub(crate) fn declaration(&mut self, d: &ast::Declaration) -> Result<()> {
        match &d.kind {
            DeclarationKind::Precision { precision, ty } => {
                let t = self.resolve_type(ty)?;
                let Some(key) = precision_key(&t).filter(|_| t.is_scalar() || t.is_opaque()) else {
                    return error(ty.span, format!("expected float, int or an opaque type in a precision statement, found '{}'", t.name()));
                };
                self.scopes.set_default(key, (*precision).into());
                Ok(())
            }
            DeclarationKind::Variables { ty, declarators } => {
                let base = self.resolve_type(&ty.ty)?;
                if let Some(q) = ty
                    .qualifiers
                    .list
                    .iter()
                    .find(|q| matches!(q.kind, QualifierKind::Precision(_)))
                {
                    if declarators.is_empty() && matches!(ty.ty.name, ast::TypeName::Struct(_)) {
                        return error(
                            q.span,
                            "expected a float, int or opaque type after a precision qualifier, \
                             found a struct definition (precision qualifiers cannot apply to \
                             structs)",
                        );
                    }
                }
                for decl in declarators {
                    self.variable(&ty.qualifiers, &base, decl)?;
                }
                Ok(())
            }
            DeclarationKind::Prototype(p) => {
                self.prototype(p, false)?;
                Ok(())
            }
            DeclarationKind::Block(b) => self.interface_block(b),
            DeclarationKind::Qualifiers { names, .. } => {
                for n in names {
                    if self.scopes.var(&n.name).is_none() {
                        return error(n.span, format!("undeclared identifier '{}'", n.name));
                    }
                }
                Ok(())
            }
        }
    }

    fn storage_mode(&self, q: &ast::TypeQualifiers, span: Span) -> Result<(VarMode, bool)> {
        let mut mode = VarMode::Auto;
        let mut is_const = false;
        for s in q.storage() {
            mode = match s {
                Storage::Const => {
                    is_const = true;
                    mode
                }
                Storage::Uniform => VarMode::Uniform,
                Storage::Attribute | Storage::In => VarMode::ShaderIn,
                Storage::Varying if self.stage() == Stage::Vertex => VarMode::ShaderOut,
                Storage::Varying => VarMode::ShaderIn,
                Storage::Out => VarMode::ShaderOut,
                Storage::Buffer => VarMode::ShaderStorage,
                Storage::Shared => VarMode::Shared,
                // EXT_shader_framebuffer_fetch: a fragment output that reads the framebuffer.
                Storage::InOut if self.stage() == Stage::Fragment => VarMode::ShaderOut,
                Storage::InOut => {
                    return error(
                        span,
                        "expected a storage qualifier valid on a variable, found 'inout'",
                    )
                }
            };
        }
        if mode != VarMode::Auto && !self.scopes.is_global() {
            return error(
                span,
                "storage qualifiers other than 'const' are only allowed on global variables",
            );
        }
        Ok((mode, is_const))
    }

    fn variable(
        &mut self,
        q: &ast::TypeQualifiers,
        base: &Type,
        decl: &ast::InitDeclarator,
    ) -> Result<()> {
        let name = &decl.declarator.name;
        let span = decl.span;
        let (mode, is_const) = self.storage_mode(q, span)?;
        let init = match &decl.initializer {
            Some(e) => Some(self.expr(e)?),
            None => None,
        };
        let ty = self.apply_dims(
            base.clone(),
            &decl.declarator.array,
            init.as_ref().map(|i| &i.ty),
        )?;
        let ty = match (&ty, init.as_ref().map(|i| &i.ty)) {
            (Type::Array { element, size: 0 }, Some(Type::Array { size, .. })) => Type::Array {
                element: element.clone(),
                size: *size,
            },
            _ => ty,
        };
        if init.is_none()
            && has_unsized_dim(&ty)
            && matches!(mode, VarMode::Auto | VarMode::Uniform | VarMode::Shared)
        {
            return error(
                name.span,
                format!(
                    "expected an array size for '{}': an array declared without a size \
                     needs an initializer",
                    name.name
                ),
            );
        }
        let redeclares_builtin = self
            .scopes
            .var(&name.name)
            .is_some_and(|v| self.module.var(v).builtin);
        if self.scopes.declared_here(&name.name) && !redeclares_builtin {
            return error(
                name.span,
                format!("'{}' is already declared in this scope", name.name),
            );
        }
        if q.precision().is_some() && precision_key(&ty).is_none() {
            return error(
                name.span,
                format!(
                    "expected float, int, uint or an opaque type for a precision qualifier, \
                     found '{}'",
                    self.module.type_name(&ty)
                ),
            );
        }
        let required = !ty.is_opaque();
        let precision = self.precision_for(&ty, q, name.span, required)?;
        if let (Some(i), Some(e)) = (&init, &decl.initializer) {
            let global = self.scopes.is_global() && mode == VarMode::Auto;
            if (global || is_const) && i.constant().is_none() {
                return error(
                    e.span,
                    format!(
                        "expected a constant expression to initialize '{}'",
                        name.name
                    ),
                );
            }
            if (global || is_const)
                && self.version() >= crate::Version::Es300
                && super::contains_sequence(e)
            {
                return error(
                    e.span,
                    "the comma operator is not allowed in a constant expression",
                );
            }
        }
        if let Some(i) = &init {
            if i.ty != ty {
                return error(
                    span,
                    format!(
                        "expected an initializer of type '{}', found '{}'",
                        self.module.type_name(&ty),
                        self.module.type_name(&i.ty)
                    ),
                );
            }
            if matches!(
                mode,
                VarMode::Uniform | VarMode::ShaderIn | VarMode::ShaderOut
            ) && !(mode == VarMode::Uniform && i.constant().is_some())
            {
                return error(span, format!("'{}' cannot have an initializer", name.name));
            }
        }
        let constant_value = if is_const {
            match init.as_ref().and_then(|i| i.constant().cloned()) {
                Some(v) => Some(v),
                None => {
                    return error(
                        span,
                        format!("expected a constant initializer for const '{}'", name.name),
                    )
                }
            }
        } else {
            None
        };
        let id = self.module.add_var(Variable {
            name: name.name.to_string(),
            ty: ty.clone(),
            mode,
            declared_precision: q.precision().map(Into::into),
            precision,
            constant_value: constant_value.clone(),
            builtin: false,
            flat: q
                .list
                .iter()
                .any(|x| x.kind == QualifierKind::Interpolation(Interpolation::Flat)),
            location: location(q),
            span: name.span,
        });
        self.out.push(Stmt::Declare(id));
        if let (Some(mut value), None) = (init, constant_value) {
            self.lend_consumer(&mut value, precision);
            let lhs = self.var_ref(id, name.span);
            self.out.push(Stmt::Assign {
                lhs,
                write_mask: full_mask(&ty),
                rhs: value,
                span,
            });
        }
        self.scopes.add_var(&name.name, id);
        Ok(())
    }

    fn interface_block(&mut self, b: &ast::InterfaceBlock) -> Result<()> {
        let (mode, _) = self.storage_mode(&b.qualifiers, b.name.span)?;
        let mut members = Vec::new();
        let count: usize = b.members.iter().map(|m| m.declarators.len()).sum();
        for m in &b.members {
            let ty = self.resolve_type(&m.ty)?;
            let precision = self.precision_for(&ty, &m.qualifiers, m.span, false)?;
            for d in &m.declarators {
                let ty = self.apply_dims(ty.clone(), &d.array, None)?;
                if mode == VarMode::ShaderStorage
                    && members.len() + 1 < count
                    && has_unsized_dim(&ty)
                {
                    return error(
                        d.name.span,
                        format!(
                            "expected an array size for '{}': only the last member of a \
                             buffer block may be unsized",
                            d.name.name
                        ),
                    );
                }
                members.push(crate::ir::StructMember {
                    name: d.name.name.to_string(),
                    ty,
                    precision,
                });
            }
        }
        match &b.instance {
            Some(inst) => {
                let id = crate::ir::StructId(self.module.structs.len() as u32);
                self.module.structs.push(crate::ir::StructType {
                    name: b.name.name.to_string(),
                    members,
                });
                let ty = self.apply_dims(Type::Struct(id), &inst.array, None)?;
                if mode == VarMode::Uniform && has_unsized_dim(&ty) {
                    return error(
                        inst.name.span,
                        format!(
                            "expected an array size for uniform block array '{}'",
                            inst.name.name
                        ),
                    );
                }
                let is_array = matches!(ty, Type::Array { .. });
                let var = self.module.add_var(Variable {
                    name: inst.name.name.to_string(),
                    ty,
                    mode,
                    declared_precision: None,
                    precision: Precision::None,
                    constant_value: None,
                    builtin: false,
                    flat: false,
                    location: None,
                    span: inst.span,
                });
                if mode == VarMode::Uniform && is_array {
                    self.uniform_block_arrays.insert(var);
                }
                self.out.push(Stmt::Declare(var));
                self.scopes.add_var(&inst.name.name, var);
            }
            None => {
                for m in members {
                    let var = self.module.add_var(Variable {
                        name: m.name.clone(),
                        ty: m.ty,
                        mode,
                        declared_precision: None,
                        precision: m.precision,
                        constant_value: None,
                        builtin: false,
                        flat: false,
                        location: None,
                        span: b.name.span,
                    });
                    self.out.push(Stmt::Declare(var));
                    self.scopes.add_var(&m.name, var);
                }
            }
        }
        Ok(())
    }

    /// Declares a function signature (or finds the earlier prototype of the same one).
    fn prototype(
        &mut self,
        p: &ast::FunctionPrototype,
        defining: bool,
    ) -> Result<(FuncId, Vec<(String, crate::ir::VarId)>)> {
        if self.version() >= crate::Version::Es300
            && super::builtins::is_es300_function(&p.name.name, self.stage())
        {
            return error(
                p.name.span,
                format!(
                    "expected a name that is not a built-in function, found '{}' (a shader \
                     cannot redefine or overload built-in functions)",
                    p.name.name
                ),
            );
        }
        if self.scopes.is_global() && self.scopes.struct_type(&p.name.name).is_some() {
            return error(
                p.name.span,
                format!("'{}' is already declared as a struct", p.name.name),
            );
        }
        let return_type = self.resolve_type(&p.return_type.ty)?;
        let return_precision =
            self.precision_for(&return_type, &p.return_type.qualifiers, p.span, true)?;
        let mut params = Vec::new();
        let mut names = Vec::new();
        let mut sig = Vec::new();
        for param in &p.params {
            let mut ty = self.resolve_type(&param.ty)?;
            if let Some(d) = &param.declarator {
                ty = self.apply_dims(ty, &d.array, None)?;
            }
            let mut mode = VarMode::FunctionIn;
            for s in param.qualifiers.storage() {
                mode = match s {
                    Storage::Const => VarMode::ConstIn,
                    Storage::In => mode,
                    Storage::Out => VarMode::FunctionOut,
                    Storage::InOut => VarMode::FunctionInOut,
                    _ => {
                        return error(
                            param.span,
                            "expected 'in', 'out', 'inout' or 'const' on a parameter",
                        )
                    }
                };
            }
            let precision = self.precision_for(&ty, &param.qualifiers, param.span, false)?;
            let name = param
                .declarator
                .as_ref()
                .map_or_else(String::new, |d| d.name.name.to_string());
            let id = self.module.add_var(Variable {
                name: name.clone(),
                ty: ty.clone(),
                mode,
                declared_precision: param.qualifiers.precision().map(Into::into),
                precision,
                constant_value: None,
                builtin: false,
                flat: false,
                location: None,
                span: param.span,
            });
            if !name.is_empty() {
                names.push((name, id));
            }
            params.push(id);
            sig.push((ty, mode));
        }
        let existing = self.functions.get(p.name.name.as_str()).and_then(|list| {
            list.iter()
                .find(|s| {
                    s.params
                        .iter()
                        .map(|(t, _)| t)
                        .eq(sig.iter().map(|(t, _)| t))
                })
                .cloned()
        });
        if let Some(existing) = existing {
            if !existing.defined && !defining && self.version() == crate::Version::Es100 {
                return error(
                    p.name.span,
                    format!(
                        "expected at most one prototype of '{}' (GLSL ES 1.00 allows one \
                         prototype plus the definition)",
                        p.name.name
                    ),
                );
            }
            if existing.defined && defining {
                return error(
                    p.name.span,
                    format!("function '{}' is already defined", p.name.name),
                );
            }
            let earlier = self.module.function(existing.id);
            if earlier.return_precision != return_precision && earlier.return_type == return_type {
                return error(
                    p.span,
                    format!(
                        "expected the return precision of the earlier declaration of '{}'",
                        p.name.name
                    ),
                );
            }
            if self.module.function(existing.id).return_type != return_type {
                return error(
                    p.span,
                    format!(
                        "expected the return type of the earlier declaration of '{}'",
                        p.name.name
                    ),
                );
            }
            if defining {
                if let Some(f) = self.module.functions.get_mut(existing.id.0 as usize) {
                    f.params = params;
                    f.return_precision = return_precision;
                    f.span = p.span;
                }
                if let Some(list) = self.functions.get_mut(p.name.name.as_str()) {
                    for s in list.iter_mut().filter(|s| s.id == existing.id) {
                        s.defined = true;
                        s.params = sig.clone();
                    }
                }
            }
            return Ok((existing.id, names));
        }
        let id = FuncId(self.module.functions.len() as u32);
        self.module.functions.push(Function {
            name: p.name.name.to_string(),
            return_type,
            return_precision,
            params,
            body: None,
            span: p.span,
        });
        self.functions
            .entry(p.name.name.to_string())
            .or_default()
            .push(Signature {
                id,
                params: sig,
                defined: defining,
            });
        Ok((id, names))
    }

    fn function_definition(&mut self, f: &ast::FunctionDefinition) -> Result<()> {
        let (id, names) = self.prototype(&f.prototype, true)?;
        let function = self.module.function(id);
        self.current_return = Some((function.return_type.clone(), function.return_precision));
        self.scopes.push();
        for (name, var) in names {
            self.scopes.add_var(&name, var);
        }
        let body = self.capture(|a| {
            for s in &f.body.statements {
                a.statement(s)?;
            }
            Ok(())
        });
        self.scopes.pop();
        self.current_return = None;
        let ((), body) = body?;
        if let Some(func) = self.module.functions.get_mut(id.0 as usize) {
            func.body = Some(body);
        }
        Ok(())
    }

    /// A value for a `return` statement, checked against the function's return type.
    pub(crate) fn return_value(&mut self, e: &ast::Expr, span: Span) -> Result<Expr> {
        let Some((ty, precision)) = self.current_return.clone() else {
            return error(span, "'return' outside a function");
        };
        let mut value = self.expr(e)?;
        if value.ty != ty {
            return error(
                span,
                format!(
                    "expected a return value of type '{}', found '{}'",
                    self.module.type_name(&ty),
                    self.module.type_name(&value.ty)
                ),
            );
        }
        self.lend_consumer(&mut value, precision);
        Ok(value)
    }
}
