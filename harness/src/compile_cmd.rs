//! `halfcheck compile`: runs `halfcheck-compiler` on one shader and prints its IR.
//!
//! The file is a `.frag`/`.vert` GLSL file (stage from the extension or `--stage`) or a
//! `.shader_test`, whose `--stage` section (fragment by default) is compiled. A GLSL ES
//! section without `#version` gets the one its `[require]` block names (`GLSL ES >= 3.00`
//! gives `#version 300 es`), as piglit does. The section is padded so that diagnostics
//! name lines of the `.shader_test` file itself.

use std::path::{Path, PathBuf};

use halfcheck_compiler::analysis::why::why;
use halfcheck_compiler::{compile, ir, CompileOptions, Model, Stage};

use halfcheck_piglit::program::glsl_es_version;
use halfcheck_piglit::shader_test::{self, SourceKind};

/// The stage to compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StageArg {
    /// Fragment shader.
    Frag,
    /// Vertex shader.
    Vert,
    /// Compute shader.
    Comp,
}

/// The precision model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ModelArg {
    /// Everything the GLSL ES precision rules allow is lowered.
    Spec,
    /// What Mesa does (the default).
    #[default]
    Mesa,
}

/// The dump format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DumpFormat {
    /// Mesa's s-expressions (`glsl_compiler --dump-lir`).
    #[default]
    Sexpr,
    /// The IR as JSON.
    Json,
}

/// Arguments of `halfcheck compile`.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct CompileArgs {
    /// A `.frag`, `.vert`, `.comp` or `.shader_test` file.
    pub file: PathBuf,
    /// Stage (default: from the extension; fragment for `.shader_test`).
    #[arg(long, value_enum)]
    pub stage: Option<StageArg>,
    /// Skip the lowering pass (show the IR after semantic analysis).
    #[arg(long)]
    pub no_lower: bool,
    /// Also apply Mesa's later pipeline effects (what the emulator runs).
    #[arg(long = "final")]
    pub final_pipeline: bool,
    /// Precision model.
    #[arg(long, value_enum, default_value = "mesa")]
    pub model: ModelArg,
    /// Print the IR.
    #[arg(long)]
    pub dump_ir: bool,
    /// Dump format.
    #[arg(long, value_enum, default_value = "sexpr")]
    pub format: DumpFormat,
    /// After the IR, name for each operation the driver's IR (Mesa's later pipeline
    /// included) keeps at 32 bits the rule of the spec or of Mesa's passes that decided it.
    #[arg(long, requires = "dump_ir")]
    pub why: bool,
}

fn to_stage(s: StageArg) -> Stage {
    match s {
        StageArg::Frag => Stage::Fragment,
        StageArg::Vert => Stage::Vertex,
        StageArg::Comp => Stage::Compute,
    }
}

fn to_section_stage(s: Stage) -> Option<shader_test::Stage> {
    match s {
        Stage::Fragment => Some(shader_test::Stage::Fragment),
        Stage::Vertex => Some(shader_test::Stage::Vertex),
        Stage::Compute => Some(shader_test::Stage::Compute),
        _ => None,
    }
}

/// Whether GLSL text has a `#version` directive.
fn has_version(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix('#')
            .is_some_and(|rest| rest.trim_start().starts_with("version"))
    })
}

/// The source and stage to compile from `path`.
fn load(path: &Path, stage: Option<StageArg>) -> Result<(String, Stage), String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext != "shader_test" {
        let stage = match (stage, ext) {
            (Some(s), _) => to_stage(s),
            (None, "frag") => Stage::Fragment,
            (None, "vert") => Stage::Vertex,
            (None, "comp") => Stage::Compute,
            _ => {
                return Err(format!(
                    "{}: cannot tell the stage; pass --stage",
                    path.display()
                ))
            }
        };
        let bytes = shader_test::limits::read_bounded(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| format!("{}: not UTF-8 text: {e}", path.display()))?;
        return Ok((text, stage));
    }
    let test = shader_test::parse_file(path).map_err(|e| e.to_string())?;
    if let Some(over) = shader_test::over_budget(&test) {
        log::warn!(
            "{}: {over}; `run` and `lint` skip this test",
            path.display()
        );
    }
    let stage = stage.map_or(Stage::Fragment, to_stage);
    let section = to_section_stage(stage)
        .and_then(|s| {
            test.shaders
                .iter()
                .find(|sh| sh.stage == s && sh.kind == SourceKind::Glsl)
        })
        .ok_or_else(|| format!("{}: no GLSL {stage:?} shader section", path.display()))?;
    let pad = section.first_line.saturating_sub(1);
    let mut text = String::new();
    if !has_version(&section.text) {
        match glsl_es_version(&test) {
            Some(100) => text.push_str("#version 100\n"),
            Some(number) => text.push_str(&format!("#version {number} es\n")),
            None => {}
        }
    }
    let lines = text.lines().count();
    text.push_str(&"\n".repeat(pad.saturating_sub(lines)));
    text.push_str(&section.text);
    Ok((text, stage))
}

/// Runs `halfcheck compile`; returns what to print, or the error.
pub(crate) fn run(args: &CompileArgs) -> Result<String, String> {
    let (source, stage) = load(&args.file, args.stage)?;
    let options = CompileOptions {
        model: match args.model {
            ModelArg::Spec => Model::Spec,
            ModelArg::Mesa => Model::Mesa,
        },
        lower: !args.no_lower,
        final_pipeline: args.final_pipeline,
        ..CompileOptions::default()
    };
    let name = args.file.display().to_string();
    let module = compile(&source, stage, &name, &options).map_err(|e| e.to_string())?;
    if !args.dump_ir {
        return Ok(String::new());
    }
    let mut out = match args.format {
        DumpFormat::Sexpr => ir::dump::to_sexpr(&module),
        DumpFormat::Json => ir::dump::to_json(&module) + "\n",
    };
    if args.why {
        if args.format == DumpFormat::Json {
            return Err("--why annotates the s-expression dump, not --format json".to_string());
        }
        let kept = why(&source, stage, &name, &options).map_err(|e| e.to_string())?;
        out.push_str(&format!("; kept at 32 bits: {}\n", kept.len()));
        for k in kept {
            out.push_str(&format!(
                "; {}:{}:{}: {}: {}\n",
                name, k.location.line, k.location.column, k.operation, k.rule
            ));
        }
    }
    Ok(out)
}
