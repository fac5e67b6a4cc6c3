//! Type specifiers to IR types: built-in types, structs (defined in place or by name) and
//! array dimensions, whose sizes must be constant expressions.

use super::{error, Analyzer, Result};
use crate::ast::{ArrayDim, BuiltinType, TypeName, TypeQualifiers, TypeSpecifier};
use crate::ir::{
    BaseType, ConstValue, Precision, Scalar, StructId, StructMember, StructType, Type,
};
use crate::span::Span;

/// The IR base type of an AST scalar kind.
pub(crate) fn base_of(kind: crate::ast::ScalarKind) -> BaseType {
    match kind {
        crate::ast::ScalarKind::Bool => BaseType::Bool,
        crate::ast::ScalarKind::Int => BaseType::Int,
        crate::ast::ScalarKind::Uint => BaseType::Uint,
        crate::ast::ScalarKind::Float => BaseType::Float,
    }
}

/// The IR type of a built-in type.
pub(crate) fn builtin_type(ty: BuiltinType) -> Type {
    match ty {
        BuiltinType::Void => Type::Void,
        BuiltinType::Scalar(k) => Type::scalar(base_of(k)),
        BuiltinType::Vector(k, n) => Type::vector(base_of(k), n),
        BuiltinType::Matrix { columns, rows } => Type::matrix(BaseType::Float, columns, rows),
        BuiltinType::Sampler { kind, dim, shadow } => Type::Sampler { kind, dim, shadow },
        BuiltinType::Image { kind, dim } => Type::Image { kind, dim },
        BuiltinType::AtomicUint => Type::AtomicUint,
    }
}

impl Analyzer<'_> {
    /// The type a specifier names, with the dimensions written on it (not those on the
    /// declarator).
    pub(crate) fn resolve_type(&mut self, spec: &TypeSpecifier) -> Result<Type> {
        let base = match &spec.name {
            TypeName::Builtin(b) => builtin_type(*b),
            TypeName::Named(ident) => match self.scopes.struct_type(&ident.name) {
                Some(id) => Type::Struct(id),
                None => {
                    return error(
                        ident.span,
                        format!("expected a type name, found '{}'", ident.name),
                    )
                }
            },
            TypeName::Struct(s) => Type::Struct(self.define_struct(s)?),
        };
        self.apply_dims(base, &spec.array, None)
    }

    /// Wraps `ty` in the array dimensions `dims` (outermost first). An unsized dimension takes
    /// its size from `init_size` (the initializer's), else is an error.
    pub(crate) fn apply_dims(
        &mut self,
        ty: Type,
        dims: &[ArrayDim],
        init: Option<&Type>,
    ) -> Result<Type> {
        let mut sizes = Vec::with_capacity(dims.len());
        let mut init = init;
        for dim in dims {
            let size = match &dim.size {
                Some(e) => self.array_size(e)?,
                None => match init {
                    Some(Type::Array { size, .. }) => *size,
                    _ => 0,
                },
            };
            sizes.push(size);
            init = match init {
                Some(Type::Array { element, .. }) => Some(element),
                _ => None,
            };
        }
        Ok(sizes
            .into_iter()
            .rev()
            .fold(ty, |element, size| Type::Array {
                element: Box::new(element),
                size,
            }))
    }

    /// The value of a constant integer expression used as an array size.
    fn array_size(&mut self, e: &crate::ast::Expr) -> Result<u32> {
        if self.version() >= crate::Version::Es300 && super::contains_sequence(e) {
            return error(
                e.span,
                "the comma operator is not allowed in a constant expression",
            );
        }
        let value = self.constant_expr(e)?;
        let size = match value.components() {
            [Scalar::Int(v)] => i64::from(*v),
            [Scalar::Uint(v)] => i64::from(*v),
            _ => {
                return error(
                    e.span,
                    "expected a constant integer expression as array size",
                )
            }
        };
        if size <= 0 {
            return error(e.span, format!("array size must be positive, found {size}"));
        }
        u32::try_from(size).or_else(|_| error(e.span, "array size too large"))
    }

    /// Evaluates a constant expression (analysed, then folded).
    pub(crate) fn constant_expr(&mut self, e: &crate::ast::Expr) -> Result<ConstValue> {
        let (value, _) = self.capture(|a| a.expr(e))?;
        match value.kind {
            crate::ir::ExprKind::Constant { value, .. } => Ok(value),
            _ => error(e.span, "expected a constant expression"),
        }
    }

    /// Defines a struct type and declares its name.
    fn define_struct(&mut self, s: &crate::ast::StructSpecifier) -> Result<StructId> {
        let mut members = Vec::new();
        for m in &s.members {
            if let TypeName::Struct(inner) = &m.ty.name {
                return error(
                    inner.span,
                    "expected a type name for a struct member, found a struct definition \
                     (embedded structure definitions are not supported)",
                );
            }
            let ty = self.resolve_type(&m.ty)?;
            let precision = self.precision_for(&ty, &m.qualifiers, m.span, false)?;
            for d in &m.declarators {
                if members.iter().any(|x: &StructMember| x.name == d.name.name) {
                    return error(d.name.span, format!("duplicate member '{}'", d.name.name));
                }
                let ty = self.apply_dims(ty.clone(), &d.array, None)?;
                members.push(StructMember {
                    name: d.name.name.to_string(),
                    ty,
                    precision,
                });
            }
        }
        let name = match &s.name {
            Some(n) => n.name.to_string(),
            None => format!("#anon_struct@{}", self.module.structs.len()),
        };
        let id = StructId(u32::try_from(self.module.structs.len()).unwrap_or(u32::MAX));
        self.module.structs.push(StructType { name, members });
        if let Some(n) = &s.name {
            if self.scopes.is_global() && self.functions.contains_key(n.name.as_str()) {
                return error(
                    n.span,
                    format!("'{}' is already declared as a function", n.name),
                );
            }
            if self.scopes.declared_here(&n.name) {
                return error(n.span, format!("'{}' is already declared", n.name));
            }
            self.scopes.add_struct(&n.name, id);
        }
        Ok(id)
    }

    /// The precision of a declaration of `ty` with `qualifiers`: written, else the scope's
    /// default. A float without either is an error (`required`) in a fragment shader.
    pub(crate) fn precision_for(
        &self,
        ty: &Type,
        qualifiers: &TypeQualifiers,
        span: Span,
        required: bool,
    ) -> Result<Precision> {
        let Some(key) = super::scope::precision_key(ty) else {
            return Ok(Precision::None);
        };
        if let Some(p) = qualifiers.precision() {
            return Ok(p.into());
        }
        match self.scopes.default(key) {
            Some(p) => Ok(p),
            None if required && key == super::scope::PrecisionKey::Float => error(
                span,
                "expected a precision qualifier: no default precision for float is in scope \
                 (add 'precision mediump float;')",
            ),
            None => Ok(match key {
                super::scope::PrecisionKey::Float => Precision::None,
                _ => Precision::High,
            }),
        }
    }
}
