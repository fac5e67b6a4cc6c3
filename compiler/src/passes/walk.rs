//! Mutable traversal of every statement list of a module (globals and function bodies).

use crate::ir::{Block, Module, Stmt};

/// Calls `f` on every block of the module, innermost blocks first; `f` may rewrite the
/// block's statements (replace, insert before or after).
pub(crate) fn blocks(module: &mut Module, f: &mut dyn FnMut(&mut Block, &mut Module)) {
    let mut globals = std::mem::take(&mut module.globals);
    block(&mut globals, module, f);
    module.globals = globals;
    for i in 0..module.functions.len() {
        let body = module
            .functions
            .get_mut(i)
            .and_then(|func| func.body.take());
        if let Some(mut body) = body {
            block(&mut body, module, f);
            if let Some(func) = module.functions.get_mut(i) {
                func.body = Some(body);
            }
        }
    }
}

fn block(b: &mut Block, module: &mut Module, f: &mut dyn FnMut(&mut Block, &mut Module)) {
    for stmt in b.iter_mut() {
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => {
                block(then, module, f);
                block(otherwise, module, f);
            }
            Stmt::Loop { body, .. } => block(body, module, f),
            _ => {}
        }
    }
    f(b, module);
}
