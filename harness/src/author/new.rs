//! `halfcheck new NAME [--stage frag|vert] [--version 100|300|310|320]`: writes the skeleton
//! of a mediump case with the corpus's header, the amplifier idiom (`fract(a / b * 1024.0)`:
//! 0.25 lowered, 0.3333 at binary32) and a comment on what each line is for. `suggest` and
//! `bless` then finish it.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// The stage the operation under test runs in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The fragment shader.
    Frag,
    /// The vertex shader (the result reaches the fragment shader in a highp varying).
    Vert,
}

/// `halfcheck new`'s arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct NewArgs {
    /// The file to write (`.shader_test` is added when missing); an existing file is kept.
    name: PathBuf,
    /// The stage whose mediump arithmetic the case probes.
    #[arg(long, value_enum, default_value = "frag")]
    stage: Stage,
    /// The GLSL ES version.
    #[arg(long, default_value = "100", value_parser = ["100", "300", "310", "320"])]
    version: String,
}

/// Runs `halfcheck new`: exit 0 when the skeleton was written, 2 when it was not.
pub(crate) fn run(args: &NewArgs) -> ExitCode {
    let mut path = args.name.clone();
    if path.extension().is_none_or(|e| e != "shader_test") {
        let mut name = path.into_os_string();
        name.push(".shader_test");
        path = PathBuf::from(name);
    }
    let version: u32 = match args.version.parse() {
        Ok(v) => v,
        Err(_) => return super::fail("--version: expected 100, 300, 310 or 320"),
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path);
    let written = file.and_then(|mut f| {
        std::io::Write::write_all(&mut f, skeleton(args.stage, version).as_bytes())
    });
    match written {
        Ok(()) => {
            crate::console::print(&format!(
                "wrote {}: edit the rule and the shader, then `halfcheck suggest {0} --write` \
                 and `halfcheck bless {0}`\n",
                path.display()
            ));
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(&format!("cannot write {}: {e}", path.display())),
    }
}

/// The skeleton for `stage` at GLSL ES `version` (100, 300, 310, 320).
pub(crate) fn skeleton(stage: Stage, version: u32) -> String {
    let es3 = version >= 300;
    let (gl, glsl) = match version {
        100 => ("2.0", "1.00"),
        300 => ("3.0", "3.00"),
        310 => ("3.1", "3.10"),
        _ => ("3.2", "3.20"),
    };
    let directive = if es3 {
        format!("#version {version} es")
    } else {
        "#version 100".to_string()
    };
    let mut s = String::new();
    s.push_str(
        "# Rule: TODO the precision rule this case probes, in one sentence.\n\
         # Why it discriminates: 1/3 in binary16 is 0.333251953125; times 1024 that is exactly\n\
         # 341.25, so fract() gives 0.25 when lowered and 0.3333 at binary32 (341.3333...).\n\
         #   all pixels: binary16 gives (0.25, 0.0, 0.0, 1.0), binary32 gives (0.333344, 0.0, 0.0, 1.0)\n\
         # Expect: lowered\n\n",
    );
    let _ = write!(
        s,
        "[require]\n# The GL ES and GLSL ES versions the shaders need.\nGL ES >= {gl}\nGLSL ES >= {glsl}\n\n"
    );
    let operation = "\t// The operation under test: a binary16 division where the driver lowers.\n\
                     \tfloat q = a / b;\n\
                     \t// The amplifier: x1024 moves binary16's rounding of q (2^-11 relative) into\n\
                     \t// the fraction, and fract() keeps only the fraction, where 8 bits still see it.\n";
    let uniforms =
        "// Uniforms, so that nothing can be folded at compile time.\nuniform float a, b;\n";
    let (attribute, varying_out, varying_in, frag_out) = if es3 {
        (
            "in vec4 piglit_vertex;",
            "out highp float v;",
            "in highp float v;",
            "// The colour the probes read.\nout vec4 color;\n",
        )
    } else {
        (
            "attribute vec4 piglit_vertex;",
            "varying highp float v;",
            "varying highp float v;",
            "",
        )
    };
    let target = if es3 { "color" } else { "gl_FragColor" };
    match stage {
        Stage::Frag => {
            s.push_str(
                "# piglit's pass-through vertex shader: `draw rect`'s corners become gl_Position.\n\
                 [vertex shader passthrough]\n\n",
            );
            let _ = write!(
                s,
                "[fragment shader]\n{directive}\n\
                 // Every float without a qualifier of its own is mediump: what the driver may lower.\n\
                 precision mediump float;\n\n{uniforms}{frag_out}\nvoid main()\n{{\n{operation}\
                 \t{target} = vec4(fract(q * 1024.0), 0.0, 0.0, 1.0);\n}}\n\n"
            );
        }
        Stage::Vert => {
            let _ = write!(
                s,
                "[vertex shader]\n{directive}\n\
                 // The vertex shader's default is highp: ask for mediump.\n\
                 precision mediump float;\n\
                 // piglit's `draw rect` feeds its corners here.\n{attribute}\n{uniforms}\
                 // highp, so that the varying carries the vertex shader's result unrounded.\n\
                 {varying_out}\n\nvoid main()\n{{\n\tgl_Position = piglit_vertex;\n{operation}\
                 \tv = fract(q * 1024.0);\n}}\n\n"
            );
            let _ = write!(
                s,
                "[fragment shader]\n{directive}\n\
                 // The fragment shader only passes the vertex shader's result on.\n\
                 precision highp float;\n\n{varying_in}\n{frag_out}\nvoid main()\n{{\n\
                 \t{target} = vec4(v, 0.0, 0.0, 1.0);\n}}\n\n"
            );
        }
    }
    s.push_str(
        "[test]\n\
         # Values that put the binary16 result far outside highp's interval (`halfcheck suggest`).\n\
         uniform float a 1.0\nuniform float b 3.0\n\
         # Cover the whole window.\ndraw rect -1 -1 2 2\n\
         # The expected colour: the lowered value on llvmpipe (`halfcheck bless` writes it).\n\
         probe all rgba 0.25 0.0 0.0 1.0\n",
    );
    s
}
