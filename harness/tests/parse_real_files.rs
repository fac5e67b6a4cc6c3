//! The reader on real files: the Igalia mediump anchors, piglit's corpus, and every command form.
//! The tests on the anchors beside the repository and on Debian's piglit skip with a printed
//! reason when those are absent, unless `HALFCHECK_REQUIRE_ANCHORS=1` /
//! `HALFCHECK_REQUIRE_PIGLIT=1`.

use halfcheck::validate::validate;
use halfcheck_piglit::shader_test::*;
use halfcheck_test_support::{igalia_mediump, piglit};
use std::path::Path;

fn parse(text: &str) -> ShaderTest {
    parse_str(Path::new("t.shader_test"), text).unwrap_or_else(|e| panic!("{e}"))
}

fn command(line: &str) -> Command {
    let test = parse(&format!("[require]\nGL ES >= 2.0\n[test]\n{line}\n"));
    test.commands[0].value.clone()
}

#[test]
fn igalia_mediump_files_parse_with_no_unsupported_command() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    let report = validate(&[anchors]);
    assert!(report.is_clean(), "{:?}", report.errors);
    assert_eq!(report.parsed, 28);
    assert!(report.unsupported.is_empty(), "{:?}", report.unsupported);
}

#[test]
fn mediump_div_lowered_reads_as_written() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    let path = anchors.join("glsl-es-1.00/execution/mediump_div_lowered.shader_test");
    let test = parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(test.require.is_es());
    assert_eq!(test.require.window_size(), (250, 250));
    assert_eq!(test.shaders.len(), 2);
    assert_eq!(test.shaders[0].kind, SourceKind::Passthrough);
    assert_eq!(test.shaders[1].stage, Stage::Fragment);
    assert!(test.shaders[1]
        .text
        .starts_with("#version 100\nprecision mediump float;"));
    assert_eq!(test.shaders[1].first_line, 13);
    let values: Vec<_> = test
        .commands
        .iter()
        .map(|c| (c.line, c.value.clone()))
        .collect();
    assert_eq!(
        values,
        vec![
            (
                28,
                Command::Uniform(UniformSet {
                    ty: UniformType::Float(1),
                    name: "a".into(),
                    values: vec![Scalar::Float(1.0)]
                })
            ),
            (
                29,
                Command::Uniform(UniformSet {
                    ty: UniformType::Float(1),
                    name: "b".into(),
                    values: vec![Scalar::Float(3.0)]
                })
            ),
            (
                31,
                Command::DrawRect {
                    mode: RectMode::Plain,
                    patch: false,
                    rect: [-1.0, -1.0, 2.0, 2.0]
                }
            ),
            (
                32,
                Command::Probe(Probe {
                    region: ProbeRegion::All,
                    relative: false,
                    channels: 4,
                    integer: false,
                    warn_only: false,
                    expected: vec![0.333, 0.25, 0.0, 1.0]
                })
            ),
        ]
    );
}

#[test]
fn probe_forms_with_and_without_parentheses_read_the_same() {
    let a = command("probe rgba 3 4 0.5 0.25 0.0 1.0");
    let b = command("probe rgba (3, 4) (0.5, 0.25, 0.0, 1.0)");
    assert_eq!(a, b);
    assert_eq!(
        command("relative probe rect rgb (0.25, 0.5, 0.5, 0.25) (1, 0, 0)"),
        Command::Probe(Probe {
            region: ProbeRegion::Rect([0.25, 0.5, 0.5, 0.25]),
            relative: true,
            channels: 3,
            integer: false,
            warn_only: false,
            expected: vec![1.0, 0.0, 0.0]
        })
    );
    assert!(matches!(
        command("probe warn all rgba 0 1 0 1"),
        Command::Probe(Probe {
            warn_only: true,
            region: ProbeRegion::All,
            ..
        })
    ));
    assert!(matches!(
        command("relative probe rect rgba int (0, 0, 1, 1) (1, 2, 3, 4)"),
        Command::Probe(Probe {
            integer: true,
            channels: 4,
            ..
        })
    ));
}

#[test]
fn uniform_types_names_and_hex_bits() {
    assert_eq!(
        command("uniform vec4 s.member[2] 0x3f800000 2 3 4"),
        Command::Uniform(UniformSet {
            ty: UniformType::Float(4),
            name: "s.member[2]".into(),
            values: [1.0, 2.0, 3.0, 4.0].map(Scalar::Float).to_vec()
        })
    );
    assert_eq!(
        command("uniform mat2x3 m 1 2 3 4 5 6"),
        Command::Uniform(UniformSet {
            ty: UniformType::Mat(2, 3),
            name: "m".into(),
            values: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0].map(Scalar::Float).to_vec()
        })
    );
    let cases = [
        (
            "uniform ivec2 aoa[1][0] -3 0x10",
            UniformType::Int(2),
            vec![Scalar::Int(-3), Scalar::Int(16)],
        ),
        (
            "uniform uint u 4294967295",
            UniformType::Uint(1),
            vec![Scalar::Uint(4294967295)],
        ),
        (
            "uniform bvec2 b true 0",
            UniformType::Bool(2),
            vec![Scalar::Int(1), Scalar::Int(0)],
        ),
        (
            "uniform dvec2 d 0.5 -2",
            UniformType::Double(2),
            vec![Scalar::Float(0.5), Scalar::Float(-2.0)],
        ),
        (
            "uniform int64_t i -5",
            UniformType::Int64(1),
            vec![Scalar::Int(-5)],
        ),
        (
            "uniform u64vec2 u 1 2",
            UniformType::Uint64(2),
            vec![Scalar::Uint(1), Scalar::Uint(2)],
        ),
        (
            "uniform dmat2 m 1 0 0 1",
            UniformType::DMat(2, 2),
            [1.0, 0.0, 0.0, 1.0].map(Scalar::Float).to_vec(),
        ),
    ];
    for (line, ty, values) in cases {
        match command(line) {
            Command::Uniform(u) => assert_eq!((u.ty, u.values), (ty, values), "{line}"),
            other => panic!("{line}: {other:?}"),
        }
    }
}

#[test]
fn draw_texture_and_state_commands_are_typed() {
    assert_eq!(
        command("draw rect ortho patch 0 0 10 20"),
        Command::DrawRect {
            mode: RectMode::Ortho,
            patch: true,
            rect: [0.0, 0.0, 10.0, 20.0]
        }
    );
    assert_eq!(
        command("draw rect tex -1 -1 2 2 0 0 1 1"),
        Command::DrawRect {
            mode: RectMode::Tex([0.0, 0.0, 1.0, 1.0]),
            patch: false,
            rect: [-1.0, -1.0, 2.0, 2.0]
        }
    );
    assert_eq!(
        command("draw instanced rect ortho 4 0 0 10 10"),
        Command::DrawInstancedRect {
            ortho: true,
            patch: false,
            instances: 4,
            rect: [0.0, 0.0, 10.0, 10.0]
        }
    );
    assert_eq!(
        command("draw arrays instanced GL_TRIANGLE_FAN 0 4 3"),
        Command::DrawArrays {
            mode: "GL_TRIANGLE_FAN".into(),
            first: 0,
            count: 4,
            instances: Some(3)
        }
    );
    assert_eq!(
        command("texture rgbw 1 (8, 8) GL_RGBA8"),
        Command::TextureRgbw(TextureRgbw {
            unit: 1,
            width: 8,
            height: 8,
            format: Some("GL_RGBA8".into())
        })
    );
    assert_eq!(
        command("texture checkerboard 0 0 (32, 32) (0.5, 0.0, 0.0, 0.0) (1.0, 1.0, 1.0, 1.0)"),
        Command::TextureCheckerboard(TextureCheckerboard {
            unit: 0,
            level: 0,
            width: 32,
            height: 32,
            color1: [0.5, 0.0, 0.0, 0.0],
            color2: [1.0; 4]
        })
    );
    assert_eq!(
        command("texparameter 2D border_color 0.0 0.0 0.0 1.0"),
        Command::TexParameter {
            target: "2D".into(),
            parameter: "border_color".into(),
            value: "0.0 0.0 0.0 1.0".into()
        }
    );
    assert_eq!(
        command("fb tex 2d 0 1"),
        Command::Fb {
            target: FbTarget::Both,
            binding: FbBinding::Tex2d(vec![0, 1])
        }
    );
    assert_eq!(
        command("fb read tex slice 2DArray 0 1 3"),
        Command::Fb {
            target: FbTarget::Read,
            binding: FbBinding::TexSlice {
                target: TextureTarget::D2Array,
                unit: 0,
                level: 1,
                layer: 3
            }
        }
    );
    assert_eq!(
        command("fb draw ms GL_RGBA8I 250 250 2"),
        Command::Fb {
            target: FbTarget::Draw,
            binding: FbBinding::Multisample {
                format: "GL_RGBA8I".into(),
                width: 250,
                height: 250,
                samples: 2
            }
        }
    );
    assert_eq!(
        command("texture storage 0 2DArray GL_RGBA8 (1 250 250 4)"),
        Command::TextureStorage(TextureStorage {
            unit: 0,
            target: TextureTarget::D2Array,
            format: "GL_RGBA8".into(),
            levels: 1,
            size: vec![250, 250, 4]
        })
    );
    assert_eq!(
        command("texture integer 1 (2,2) (2,10) GL_R32I"),
        Command::TextureInteger(TextureInteger {
            unit: 1,
            width: 2,
            height: 2,
            b: 2,
            a: 10,
            format: "GL_R32I".into()
        })
    );
    assert_eq!(command("compute 2 2 1"), Command::Compute([2, 2, 1]));
    assert_eq!(
        command("probe ssbo int 0 12 == 13"),
        Command::BufferProbe(BufferProbe {
            buffer: ProbedBuffer::Ssbo {
                binding: 0,
                offset: 12,
                ty: BufferValue::Int
            },
            op: Comparison::Equal,
            expected: Scalar::Int(13)
        })
    );
    assert_eq!(
        command("probe atomic counter 1 != 0"),
        Command::BufferProbe(BufferProbe {
            buffer: ProbedBuffer::AtomicCounter {
                binding: 0,
                offset: 4
            },
            op: Comparison::NotEqual,
            expected: Scalar::Uint(0)
        })
    );
    assert_eq!(
        command("clear color 0.2 0.2 0.2 0.2"),
        Command::ClearColor([0.2; 4])
    );
    assert_eq!(command("clear depth 0.5"), Command::ClearDepth(0.5));
    assert_eq!(command("clear"), Command::Clear);
    assert_eq!(command("tolerance 0.02"), Command::Tolerance(vec![0.02]));
    assert_eq!(
        command("enable GL_BLEND"),
        Command::Enable("GL_BLEND".into())
    );
    assert_eq!(
        command("disable GL_DEPTH_TEST"),
        Command::Disable("GL_DEPTH_TEST".into())
    );
    assert_eq!(
        command("blend func GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA"),
        Command::BlendFunc {
            src: "GL_SRC_ALPHA".into(),
            dst: "GL_ONE_MINUS_SRC_ALPHA".into()
        }
    );
    assert_eq!(command("link error"), Command::LinkError);
    assert_eq!(command("link success"), Command::LinkSuccess);
}

#[test]
fn known_piglit_commands_halfcheck_does_not_run_are_unsupported() {
    for (line, name) in [
        ("ortho", "ortho"),
        ("compute group size 1 1 1 1 1 1", "compute group size"),
        ("probe ssbo double 0 0 == 4.0", "probe ssbo"),
        ("ssbo 0 subdata double 0 1.0", "ssbo"),
        ("texture rgbw 2DArray 0 (8, 8, 2)", "texture rgbw 2DArray"),
        (
            "draw arrays instanced base GL_POINTS 0 1 1 0",
            "draw arrays instanced base",
        ),
    ] {
        assert_eq!(
            command(line),
            Command::Unsupported { name: name.into() },
            "{line}"
        );
    }
}

#[test]
fn require_section_is_typed() {
    let test = parse("[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nGL_OES_texture_3D\n!GL_EXT_foo\nSIZE 64 32\nfbo\n[test]\n");
    assert_eq!(test.require.window_size(), (64, 32));
    let items: Vec<_> = test.require.items.iter().map(|i| i.value.clone()).collect();
    assert_eq!(
        items[2],
        Requirement::Extension {
            name: "GL_OES_texture_3D".into(),
            negated: false
        }
    );
    assert_eq!(
        items[3],
        Requirement::Extension {
            name: "GL_EXT_foo".into(),
            negated: true
        }
    );
    assert_eq!(items[5], Requirement::Other("fbo".into()));
}

/// Piglit's own corpus, when Debian's `piglit` package is installed (CI installs it).
#[test]
fn debian_piglit_corpus_parses_without_errors() {
    let Some(root) = piglit("") else {
        return;
    };
    let report = validate(&[root.join("tests"), root.join("generated_tests")]);
    let shown: Vec<String> = report
        .errors
        .iter()
        .take(5)
        .map(|e| e.to_string())
        .collect();
    assert!(
        report.is_clean(),
        "{} errors, first: {shown:#?}",
        report.errors.len()
    );
    assert!(report.parsed > 30_000, "only {} files", report.parsed);
    assert!(report.unsupported.contains_key("ortho"));
}
