//! Nested scopes: variables, struct names and default precisions per scope.

use std::collections::HashMap;

use crate::ir::{Precision, StructId, Type, VarId};
use crate::Stage;

/// What a default `precision` statement applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PrecisionKey {
    /// `float` (and float vectors and matrices).
    Float,
    /// `int` and `uint` and their vectors.
    Int,
    /// One sampler or image type, by its spelling.
    Opaque(&'static str),
    /// Another opaque type spelled differently.
    OpaqueNamed(u64),
}

#[derive(Default)]
struct Scope {
    vars: HashMap<String, VarId>,
    structs: HashMap<String, StructId>,
    defaults: HashMap<PrecisionKey, Precision>,
}

/// The stack of scopes; the first is the global one.
pub(crate) struct Scopes {
    stack: Vec<Scope>,
}

impl Scopes {
    /// The global scope with the stage's default precisions (GLSL ES 3.00 section 4.5.4).
    pub fn new(stage: Stage) -> Self {
        let mut global = Scope::default();
        let (float, int) = match stage {
            Stage::Fragment => (None, Precision::Medium),
            _ => (Some(Precision::High), Precision::High),
        };
        if let Some(p) = float {
            global.defaults.insert(PrecisionKey::Float, p);
        }
        global.defaults.insert(PrecisionKey::Int, int);
        for name in ["sampler2D", "samplerCube", "samplerExternalOES"] {
            global
                .defaults
                .insert(PrecisionKey::Opaque(name), Precision::Low);
        }
        Scopes {
            stack: vec![global],
        }
    }

    /// Enters a scope.
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    /// Leaves a scope.
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Whether the innermost scope is the global one.
    pub fn is_global(&self) -> bool {
        self.stack.len() == 1
    }

    /// Looks a variable up, innermost first.
    pub fn var(&self, name: &str) -> Option<VarId> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.vars.get(name).copied())
    }

    /// Whether `name` is declared in the innermost scope.
    pub fn declared_here(&self, name: &str) -> bool {
        self.stack
            .last()
            .is_some_and(|s| s.vars.contains_key(name) || s.structs.contains_key(name))
    }

    /// Declares a variable in the innermost scope.
    pub fn add_var(&mut self, name: &str, id: VarId) {
        if let Some(s) = self.stack.last_mut() {
            s.vars.insert(name.to_owned(), id);
        }
    }

    /// Looks a struct type up, innermost first.
    pub fn struct_type(&self, name: &str) -> Option<StructId> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.structs.get(name).copied())
    }

    /// Declares a struct type in the innermost scope.
    pub fn add_struct(&mut self, name: &str, id: StructId) {
        if let Some(s) = self.stack.last_mut() {
            s.structs.insert(name.to_owned(), id);
        }
    }

    /// Sets a default precision in the innermost scope.
    pub fn set_default(&mut self, key: PrecisionKey, precision: Precision) {
        if let Some(s) = self.stack.last_mut() {
            s.defaults.insert(key, precision);
        }
    }

    /// The default precision for `key` in effect, innermost first.
    pub fn default(&self, key: PrecisionKey) -> Option<Precision> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.defaults.get(&key).copied())
    }
}

/// The default-precision key of a type, if it takes a precision.
pub(crate) fn precision_key(ty: &Type) -> Option<PrecisionKey> {
    use crate::ir::BaseType;
    match ty.without_array() {
        Type::Numeric { base, .. } => match base {
            BaseType::Float | BaseType::Float16 => Some(PrecisionKey::Float),
            BaseType::Bool => None,
            _ => Some(PrecisionKey::Int),
        },
        Type::Sampler { .. } | Type::Image { .. } | Type::AtomicUint => {
            let name = ty.without_array().name();
            Some(match STATIC_NAMES.iter().find(|n| **n == name) {
                Some(n) => PrecisionKey::Opaque(n),
                None => PrecisionKey::OpaqueNamed(hash(&name)),
            })
        }
        _ => None,
    }
}

const STATIC_NAMES: &[&str] = &["sampler2D", "samplerCube", "samplerExternalOES"];

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
