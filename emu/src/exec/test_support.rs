//! What the unit tests of the memory rules (`loops`, `divergence`) share.

use halfcheck_compiler::ir::{Module, VarId};
use halfcheck_compiler::span::Span;
use halfcheck_compiler::{compile, CompileOptions, Stage};
use std::collections::HashMap;

/// For a fragment shader of `declarations` and a `main` of `body`, what `find` reports per
/// construct in source order: the names of the variables it lists, sorted.
pub(super) fn names_per_construct(
    declarations: &str,
    body: &str,
    find: impl Fn(&Module) -> HashMap<Span, Vec<VarId>>,
) -> Vec<Vec<String>> {
    let src = format!(
        "#version 300 es\nprecision highp float;\n{declarations}\nout vec4 c;\nvoid main() {{ {body} }}"
    );
    let module =
        compile(&src, Stage::Fragment, "t.frag", &CompileOptions::default()).expect("compiles");
    let mut found: Vec<_> = find(&module).into_iter().collect();
    found.sort_by_key(|(span, _)| span.start);
    found
        .into_iter()
        .map(|(_, vars)| {
            let mut names: Vec<String> = vars.iter().map(|v| module.var(*v).name.clone()).collect();
            names.sort();
            names
        })
        .collect()
}
