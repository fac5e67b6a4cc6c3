//! Mesa's own test cases for its `lower_precision` pass, run through `compile` and the
//! s-expression dump: every regex of `lower_precision_test.py` must match (Python
//! `re.search` semantics), and the checks of `test_gl_lower_mediump.cpp` must hold.
//! Without the anchors beside the repository these skip with a printed reason, unless
//! `HALFCHECK_REQUIRE_ANCHORS=1`.

use halfcheck_compiler::{compile, ir, CompileOptions, Model, Stage, Switches};
use halfcheck_test_support::anchors;
use regex::Regex;

const LOWER_PRECISION_CASES: &str = "mesa-lower-precision/lower_precision_cases.json";

/// Cases left out, each with the reason.
const EXCLUDED: &[(&str, &str)] = &[
    // The regex pins the IR of Mesa's bit-twiddling expansion of frexp
    // (`lower_instructions`: bitcast_f2u, masks, a `compiler_temp@2`); halfcheck keeps
    // frexp as the frexp_sig/frexp_exp operations, which it lowers the same way (highp).
    ("frexp", "pins Mesa's frexp expansion, not its precision"),
    // The regex needs Mesa's copy propagation (do_common_optimization) to replace the highp
    // local `x` by the f162f of `a`; halfcheck's dump shows the pass result without it
    // (`x = f162f(a); ... x * f162f(b)`), with the same precision decisions.
    (
        "respect copies",
        "needs Mesa's copy propagation, not a precision rule",
    ),
];

/// `glsl_compiler --version 300 --lower-precision`: every switch on, Mesa's model.
fn mesa_options() -> CompileOptions {
    CompileOptions {
        model: Model::Mesa,
        lower: true,
        final_pipeline: false,
        switches: Switches::all(),
    }
}

/// The cases of one anchor file, or `None` when the anchors are absent (the test skips).
fn cases(relative: &str) -> Option<Vec<serde_json::Value>> {
    let path = anchors(relative)?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    Some(value.as_array().expect("an array of cases").clone())
}

#[test]
fn mesa_lower_precision_regexes_match_the_dump() {
    let Some(cases) = cases(LOWER_PRECISION_CASES) else {
        return;
    };
    assert_eq!(cases.len(), 130);
    let mut matched = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().expect("name");
        if EXCLUDED.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let source = case["source"].as_str().expect("source");
        let pattern = case["match_re"].as_str().expect("match_re");
        let re = Regex::new(pattern).unwrap_or_else(|e| panic!("{name}: {e}"));
        match compile(source, Stage::Fragment, name, &mesa_options()) {
            Ok(module) => {
                let dump = ir::dump::to_sexpr(&module);
                if re.is_match(&dump) {
                    matched += 1;
                } else {
                    failures.push(format!("FAIL {name}\n  re: {pattern}\n{dump}"));
                }
            }
            Err(e) => failures.push(format!("ERROR {name}: {e}")),
        }
    }
    eprintln!(
        "{matched}/{} matched ({} excluded)",
        cases.len(),
        EXCLUDED.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const GL_LOWER_MEDIUMP_CASES: &str = "mesa-lower-precision/gl_lower_mediump_cases.json";

/// Whether `op` on an expression of this type is the NIR ALU opcode `nir_op`.
fn is_nir_op(nir_op: &str, e: &ir::Expr) -> bool {
    let float = e.ty.base().is_some_and(ir::BaseType::is_float);
    let ir::ExprKind::Op(op, operands) = &e.kind else {
        return false;
    };
    let operand_float = operands
        .first()
        .and_then(|o| o.ty.base())
        .is_some_and(ir::BaseType::is_float);
    match nir_op {
        "fmul" => *op == ir::Op::Mul && float,
        "imul" => *op == ir::Op::Mul && e.ty.base().is_some_and(ir::BaseType::is_integer),
        "fadd" => *op == ir::Op::Add && float,
        "fdot4" => *op == ir::Op::Dot,
        "flt" => *op == ir::Op::Less && operand_float,
        "unpack_unorm_4x8" => *op == ir::Op::UnpackUnorm4x8,
        "pack_unorm_4x8" => *op == ir::Op::PackUnorm4x8,
        other => panic!("no mapping for NIR op {other}"),
    }
}

/// The first expression matching `pred`, in `e` (operands before the node, as NIR emits).
fn find_in_expr<'e>(e: &'e ir::Expr, pred: &dyn Fn(&ir::Expr) -> bool) -> Option<&'e ir::Expr> {
    let children: Vec<&ir::Expr> = match &e.kind {
        ir::ExprKind::Op(_, ops) | ir::ExprKind::Intrinsic(_, ops) => ops.iter().collect(),
        ir::ExprKind::Swizzle(b, _) | ir::ExprKind::Field(b, _) => vec![b],
        ir::ExprKind::Index(b, i) => vec![b, i],
        _ => Vec::new(),
    };
    children
        .into_iter()
        .find_map(|c| find_in_expr(c, pred))
        .or_else(|| pred(e).then_some(e))
}

/// The first expression matching `pred` in `block`, with calls inlined (as NIR sees the
/// linked program).
fn find_in_block<'m>(
    m: &'m ir::Module,
    block: &'m [ir::Stmt],
    pred: &dyn Fn(&ir::Expr) -> bool,
) -> Option<&'m ir::Expr> {
    block.iter().find_map(|s| match s {
        ir::Stmt::Assign { lhs, rhs, .. } => {
            find_in_expr(rhs, pred).or_else(|| find_in_expr(lhs, pred))
        }
        ir::Stmt::If {
            condition,
            then,
            otherwise,
            ..
        } => find_in_expr(condition, pred)
            .or_else(|| find_in_block(m, then, pred))
            .or_else(|| find_in_block(m, otherwise, pred)),
        ir::Stmt::Loop { body, .. } => find_in_block(m, body, pred),
        ir::Stmt::Return { value: Some(v), .. } => find_in_expr(v, pred),
        ir::Stmt::Call { callee, args, .. } => args
            .iter()
            .find_map(|a| find_in_expr(a, pred))
            .or_else(|| find_in_block(m, m.function(*callee).body.as_deref()?, pred)),
        _ => None,
    })
}

fn bits(ty: &ir::Type) -> u32 {
    ty.base().map_or(0, ir::BaseType::bit_size)
}

/// Float shader inputs by precision, struct inputs counted member by member (the linker
/// splits them).
fn count_float_inputs(m: &ir::Module, precision: ir::Precision) -> usize {
    fn count(m: &ir::Module, ty: &ir::Type, p: ir::Precision, want: ir::Precision) -> usize {
        match ty.without_array() {
            ir::Type::Struct(id) => m
                .struct_type(*id)
                .members
                .iter()
                .map(|mem| count(m, &mem.ty, mem.precision, want))
                .sum(),
            t if t.base().is_some_and(ir::BaseType::is_float) && p == want => 1,
            _ => 0,
        }
    }
    m.variables
        .iter()
        .filter(|v| v.mode == ir::VarMode::ShaderIn && !v.builtin)
        .map(|v| count(m, &v.ty, v.precision, precision))
        .sum()
}

/// The gtest's context: fp16 and int16 capabilities, no 16-bit constant buffers (so
/// uniforms stay 32-bit variables).
fn gtest_options() -> CompileOptions {
    CompileOptions {
        switches: Switches {
            float16_uniforms: false,
            ..Switches::all()
        },
        ..mesa_options()
    }
}

#[test]
fn mesa_gl_lower_mediump_checks_hold() {
    let Some(cases) = cases(GL_LOWER_MEDIUMP_CASES) else {
        return;
    };
    assert_eq!(cases.len(), 26);
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().expect("name");
        let source = case["source"].as_str().expect("source");
        if let Some(vs) = case["vs_source"].as_str() {
            if let Err(e) = compile(vs, Stage::Vertex, name, &gtest_options()) {
                failures.push(format!("{name}: vertex shader: {e}"));
            }
        }
        let module = match compile(source, Stage::Fragment, name, &gtest_options()) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let dump = ir::dump::to_sexpr(&module);
        let Some(main) = module.main() else {
            failures.push(format!("{name}: no main"));
            continue;
        };
        let body = module.function(main).body.as_deref().unwrap_or_default();
        for check in case["checks_structured"].as_array().expect("checks") {
            if check["disabled"].as_bool() == Some(true) {
                continue;
            }
            let expect = check["expect"].as_str().unwrap_or("equal");
            let ok = match check["kind"].as_str().expect("kind") {
                "glsl_ir_contains" => {
                    let needle = check["needle"].as_str().expect("needle");
                    dump.contains(needle) == (expect == "present")
                }
                kind @ ("nir_op_dest_bits" | "nir_op_src_bits") => {
                    let op = check["op"].as_str().expect("op");
                    let want = check["bits"].as_u64().expect("bits") as u32;
                    let found = find_in_block(&module, body, &|e| is_nir_op(op, e));
                    let got = found.map(|e| match (&e.kind, kind) {
                        (ir::ExprKind::Op(_, ops), "nir_op_src_bits") => {
                            ops.first().map_or(0, |o| bits(&o.ty))
                        }
                        _ => bits(&e.ty),
                    });
                    match got {
                        Some(got) => (got == want) == (expect == "equal"),
                        None => false,
                    }
                }
                "count_float_input_precision" => {
                    let p = match check["precision"].as_str().expect("precision") {
                        "HIGH" => ir::Precision::High,
                        "MEDIUM" => ir::Precision::Medium,
                        _ => ir::Precision::Low,
                    };
                    let n = count_float_inputs(&module, p) as u64;
                    let value = check["value"].as_u64().expect("value");
                    match check["relation"].as_str().expect("relation") {
                        "==" => n == value,
                        ">=" => n >= value,
                        other => panic!("relation {other}"),
                    }
                }
                other => panic!("unknown check kind {other}"),
            };
            checked += 1;
            if !ok {
                failures.push(format!("{name}: {check}\n{dump}"));
            }
        }
    }
    eprintln!("{checked} checks held of {} cases", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
