//! The GL backend's command semantics on Mesa: compile failures, unsupported commands,
//! uniform array elements and struct members, and piglit's rgbw texture layout.
//! Without EGL these skip (they print why) unless `HALFCHECK_REQUIRE_GL=1`.

mod common;

use common::gl_backend;
use halfcheck::backend::gl::GlBackend;
use halfcheck::results::{Status, TestResult};
use halfcheck_piglit::shader_test::{parse_str, Command, Located};
use halfcheck_piglit::Backend;
use std::path::Path;

fn run(backend: &mut GlBackend, text: &str) -> TestResult {
    let test = parse_str(Path::new("inline.shader_test"), text).unwrap_or_else(|e| panic!("{e}"));
    backend.run_test(&test)
}

#[test]
fn a_shader_that_does_not_compile_fails_with_its_log() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
         [fragment shader]\nvoid main() { gl_FragColor = undeclared; }\n\
         [test]\ndraw rect -1 -1 2 2\nprobe all rgba 0 0 0 0\n",
    );
    assert_eq!(result.status, Status::Fail);
    let reason = result.reason.unwrap_or_default();
    assert!(
        reason.starts_with("fragment shader failed to compile: "),
        "{reason}"
    );
    assert!(
        result.logs["fragment"].contains("undeclared"),
        "{:?}",
        result.logs
    );
    assert!(result.probes.is_empty());
}

#[test]
fn an_unsupported_command_skips_before_anything_runs() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let text = "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
                [fragment shader]\nvoid main() { gl_FragColor = vec4(1.0); }\n\
                [test]\ndraw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n";
    let mut test =
        parse_str(Path::new("inline.shader_test"), text).unwrap_or_else(|e| panic!("{e}"));
    test.commands.push(Located {
        line: 99,
        value: Command::Unsupported {
            name: "compute".into(),
        },
    });
    let result = backend.run_test(&test);
    assert_eq!(result.status, Status::Skip);
    assert_eq!(
        result.reason.as_deref(),
        Some("unsupported command: compute")
    );
    assert!(result.probes.is_empty());
}

#[test]
fn desktop_gl_tests_skip() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(&mut backend, "[require]\nGLSL >= 1.30\n[test]\n");
    assert_eq!(result.status, Status::Skip);
    assert_eq!(result.reason.as_deref(), Some("needs desktop GL"));
}

#[test]
fn uniform_array_elements_and_struct_members_are_set_by_full_name() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
         [fragment shader]\nprecision highp float;\n\
         struct S { float m; vec2 v; };\nuniform float a[3];\nuniform S s;\n\
         void main() { gl_FragColor = vec4(a[2], s.m, s.v.y, a[0]); }\n\
         [test]\nuniform float a[2] 0.5\nuniform float a[0] 1.0\nuniform float s.m 0.25\n\
         uniform vec2 s.v 0.0 0.75\ndraw rect -1 -1 2 2\nprobe all rgba 0.5 0.25 0.75 1.0\n",
    );
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![0.5, 0.25, 0.75, 1.0]);
}

#[test]
fn texture_rgbw_has_piglits_quadrants() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\
         [vertex shader]\nin vec4 piglit_vertex;\nin vec2 piglit_texcoord;\nout vec2 tc;\n\
         void main() { gl_Position = piglit_vertex; tc = piglit_texcoord; }\n\
         [fragment shader]\nprecision highp float;\nuniform sampler2D tex;\nin vec2 tc;\n\
         out vec4 color;\nvoid main() { color = texture(tex, tc); }\n\
         [test]\nuniform int tex 3\ntexture rgbw 3 (8, 8)\ndraw rect tex -1 -1 2 2 0 0 1 1\n\
         relative probe rgba (0.25, 0.25) (1.0, 0.0, 0.0, 1.0)\n\
         relative probe rgba (0.75, 0.25) (0.0, 1.0, 0.0, 1.0)\n\
         relative probe rgba (0.25, 0.75) (0.0, 0.0, 1.0, 1.0)\n\
         relative probe rgba (0.75, 0.75) (1.0, 1.0, 1.0, 1.0)\n",
    );
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes.len(), 4);
    assert_eq!(result.probes[1].pixel, [187, 62]);
}

#[test]
fn a_failing_probe_reports_the_first_bad_pixel_and_the_next_test_starts_clean() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
         [fragment shader]\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n\
         [test]\nclear color 1 0 0 1\nclear\nenable GL_BLEND\nblend func GL_ONE GL_ONE\n\
         draw rect ortho 0 0 125 250\nprobe all rgba 1 1 0 1\n",
    );
    assert_eq!(result.status, Status::Fail);
    assert_eq!(result.probes[0].pixel, [125, 0]);
    assert_eq!(result.probes[0].observed, vec![1.0, 0.0, 0.0, 1.0]);
    // Blending and the clear colour must not leak into the next test.
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
         [fragment shader]\nvoid main() { gl_FragColor = vec4(0.0, 0.5, 0.0, 1.0); }\n\
         [test]\nclear\ndraw rect -1 -1 2 2\nprobe all rgba 0 0.5 0 1\n",
    );
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![0.0, 0.5, 0.0, 1.0]);
}

#[test]
fn atomic_counter_buffers_start_at_zero_and_take_the_values_set() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    // `atomic counters 1` is binding 0; counter 1 of binding 1 is set to 9 (offset 4).
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.1\nGLSL ES >= 3.10\n[vertex shader passthrough]\n\
         [fragment shader]\n#version 310 es\nprecision highp float;\n\
         layout(binding = 0) uniform atomic_uint a;\n\
         layout(binding = 1, offset = 4) uniform atomic_uint b;\nout vec4 color;\n\
         void main() { color = vec4(float(atomicCounter(a)), float(atomicCounter(b)) / 16.0, 0.0, 1.0); }\n\
         [test]\natomic counters 1\natomic counter buffer 1 2\natomic counter 1 1 9\n\
         draw rect -1 -1 2 2\nprobe all rgba 0.0 0.5625 0.0 1.0\n",
    );
    if !backend.context_info().es_at_least(3, 1) {
        assert_eq!(result.status, Status::Skip, "{:?}", result.reason);
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![0.0, 0.5625, 0.0, 1.0]);
    // A counter of a buffer that was never made fails, naming the binding.
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.1\nGLSL ES >= 1.00\n[vertex shader passthrough]\n\
         [fragment shader]\n\
         void main() { gl_FragColor = vec4(1.0); }\n[test]\natomic counter 2 0 1\n",
    );
    assert_eq!(result.status, Status::Fail);
    assert!(
        result.reason.as_deref().unwrap_or("").contains("binding 2"),
        "{:?}",
        result.reason
    );
}

#[test]
fn fb_draw_and_read_winsys_split_the_bindings_and_blit_copies_read_to_draw() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader passthrough]\n\
         [fragment shader]\n#version 300 es\nprecision highp float;\nout vec4 color;\n\
         void main() { color = vec4(0.25, 0.5, 0.75, 1.0); }\n\
         [test]\ntexture rgbw 0 (16, 16) GL_RGBA8\nfb tex 2d 0\ndraw rect -1 -1 2 2\n\
         fb read winsys\nprobe all rgba 0 0 0 0\n\
         fb tex 2d 0\nfb draw winsys\nprobe all rgba 0.25 0.5 0.75 1\n\
         blit color nearest\nfb read winsys\nprobe all rgba 0.25 0.5 0.75 1\n\
         fb winsys\nprobe rgba 249 249 0.25 0.5 0.75 1\n",
    );
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    // After `fb read winsys` the probe reads the 250x250 window, not the 16x16 texture.
    assert_eq!(result.probes[0].pixel, [0, 0]);
    assert_eq!(result.probes[0].observed, vec![0.0, 0.0, 0.0, 0.0]);
    // The window got the RGBA8 texels, stretched from 16x16 over 250x250.
    let unorm = |v: u8| f32::from(v) / 255.0;
    assert_eq!(
        result.probes[2].observed,
        vec![unorm(64), unorm(128), unorm(191), 1.0]
    );
    assert_eq!(result.probes[3].pixel, [249, 249]);
}

#[test]
fn blit_needs_a_buffer_and_a_filter() {
    let text = "[require]\nGL ES >= 3.0\n[test]\nblit color sideways\n";
    let error = parse_str(Path::new("inline.shader_test"), text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.contains("'linear' or 'nearest'"), "{error}");
}

#[test]
fn fbfetch_barrier_orders_noncoherent_framebuffer_fetch() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nGL_EXT_shader_framebuffer_fetch_non_coherent\n\
         [vertex shader passthrough]\n\
         [fragment shader]\n#version 300 es\n\
         #extension GL_EXT_shader_framebuffer_fetch_non_coherent : require\n\
         precision highp float;\nlayout(noncoherent) inout vec4 color;\n\
         void main() { color += vec4(0.25); }\n\
         [test]\nclear color 0 0 0 0\nclear\ndraw rect -1 -1 2 2\nfbfetch barrier\n\
         draw rect -1 -1 2 2\nprobe all rgba 0.5 0.5 0.5 0.5\n",
    );
    if !backend
        .context_info()
        .has("GL_EXT_shader_framebuffer_fetch_non_coherent")
    {
        assert_eq!(result.status, Status::Skip, "{:?}", result.reason);
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![0.5; 4]);
}

#[test]
fn the_framebuffer_fetch_discards_samples_limit_can_be_required() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 1.00\nGL_EXT_shader_framebuffer_fetch\n\
         INT GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT >= 0\n[vertex shader passthrough]\n\
         [fragment shader]\nvoid main() { gl_FragColor = vec4(1.0); }\n\
         [test]\ndraw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n",
    );
    let expected = if backend
        .context_info()
        .has("GL_EXT_shader_framebuffer_fetch")
    {
        Status::Pass
    } else {
        Status::Skip
    };
    assert_eq!(result.status, expected, "{:?}", result.reason);
}

/// Whether the context is at least ES `major.minor`; when not, the test's `[require]` must
/// have made the backend skip it.
fn es_at_least(backend: &GlBackend, major: u32, minor: u32, result: &TestResult) -> bool {
    if backend.context_info().es_at_least(major, minor) {
        return true;
    }
    assert_eq!(result.status, Status::Skip, "{:?}", result.reason);
    false
}

#[test]
fn fb_tex_slice_renders_into_one_layer_or_level_and_probes_read_its_size() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader passthrough]\n\
         [fragment shader]\n#version 300 es\nprecision highp float;\nuniform vec4 c;\n\
         out vec4 color;\nvoid main() { color = c; }\n\
         [test]\ntexture storage 0 2DArray GL_RGBA8 (2 8 8 2)\n\
         fb tex slice 2DArray 0 0 1\nuniform vec4 c 0.0 1.0 0.0 1.0\ndraw rect -1 -1 2 2\n\
         fb tex slice 2DArray 0 1 0\nuniform vec4 c 1.0 0.0 0.0 1.0\ndraw rect -1 -1 2 2\n\
         fb tex slice 2DArray 0 0 1\nprobe all rgba 0 1 0 1\n\
         fb tex slice 2DArray 0 1 0\nrelative probe rgba (0.99, 0.99) (1 0 0 1)\n\
         fb tex slice 2DArray 0 0 0\nprobe all rgba 1 0 0 1\n",
    );
    assert_eq!(result.status, Status::Fail, "{:?}", result.reason);
    assert!(result.probes[0].pass && result.probes[1].pass);
    // Level 1 of an 8x8 texture is 4x4: the relative probe reads its last pixel.
    assert_eq!(result.probes[1].pixel, [3, 3]);
    // Layer 0 of level 0 was never drawn: storage starts as zeros on Mesa.
    assert!(!result.probes[2].pass);
}

#[test]
fn integer_framebuffers_are_probed_exactly() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let text = |expected: &str| {
        format!(
            "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader passthrough]\n\
             [fragment shader]\n#version 300 es\nprecision highp int;\nout ivec4 color;\n\
             void main() {{ color = ivec4(3, -2, 70000, 100); }}\n\
             [test]\ntexture storage 0 2D GL_RGBA32I (1 16 16)\nfb tex 2d 0\n\
             draw rect -1 -1 2 2\nrelative probe rect rgba int (0.5, 0.5, 0.5, 0.5) ({expected})\n"
        )
    };
    let result = run(&mut backend, &text("3, -2, 70000, 100"));
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![3.0, -2.0, 70000.0, 100.0]);
    assert_eq!(result.probes[0].observed_bits[1], "0xfffffffe");
    let result = run(&mut backend, &text("3, -2, 70001, 100"));
    assert_eq!(result.status, Status::Fail);
    assert_eq!(result.probes[0].pixel, [8, 8]);
}

#[test]
fn fb_ms_resolves_into_a_texture_through_a_blit() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let result = run(
        &mut backend,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nINT GL_MAX_SAMPLES >= 2\nSIZE 32 32\n\
         [vertex shader passthrough]\n\
         [fragment shader]\n#version 300 es\nprecision highp float;\nout vec4 color;\n\
         void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }\n\
         [test]\nfb ms GL_RGBA8 32 32 2\nclear color 0 0 1 1\nclear\n\
         draw rect -1 -1 1 2\ntexture rgbw 0 (32, 32) GL_RGBA8\nfb draw tex 2d 0\n\
         blit color nearest\nfb read tex 2d 0\n\
         probe rect rgba (0, 0, 8, 32) (0, 1, 0, 1)\nprobe rect rgba (16, 0, 16, 32) (0, 0, 1, 1)\n",
    );
    if result.status == Status::Skip {
        // softpipe has no multisampling (GL_MAX_SAMPLES is 1).
        let reason = result.reason.unwrap_or_default();
        assert!(reason.contains("GL_MAX_SAMPLES"), "{reason}");
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes.len(), 2);
}

#[test]
fn compute_shaders_write_ssbos_and_buffer_probes_compare_like_piglit() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let text = |probes: &str| {
        format!(
            "[require]\nGL ES >= 3.1\nGLSL ES >= 3.10\n[compute shader]\n#version 310 es\n\
             layout(local_size_x = 1) in;\n\
             layout(r32i, binding = 1) readonly uniform highp iimage2D img;\n\
             layout(binding = 0, std430) buffer B {{ highp int data[]; }} b;\n\
             void main() {{\n  int i = int(gl_GlobalInvocationID.x);\n\
               b.data[i] = imageLoad(img, ivec2(i % 2, i / 2)).x + b.data[i];\n}}\n\
             [test]\ntexture integer 1 (2, 2) (2, 10) GL_R32I\nimage texture 1 GL_R32I\n\
             ssbo 0 16\nssbo 0 subdata int 12 100\ncompute 4 1 1\n{probes}"
        )
    };
    // Texel (x, y) of `texture integer` with one channel is x + y * b + a.
    let result = run(
        &mut backend,
        &text("probe ssbo int 0 0 == 10\nprobe ssbo int 0 4 == 11\nprobe ssbo int 0 12 == 113\n"),
    );
    if !es_at_least(&backend, 3, 1, &result) {
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    // Piglit reads `!=` as `>`: 11 != 12 holds in C, but not in piglit.
    let result = run(&mut backend, &text("probe ssbo int 0 4 != 10\n"));
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    let result = run(&mut backend, &text("probe ssbo int 0 4 != 12\n"));
    assert_eq!(result.status, Status::Fail);
    let reason = result.reason.unwrap_or_default();
    assert!(reason.contains("ssbo 0 at byte 4 is 11"), "{reason}");
}

#[test]
fn probe_atomic_counter_reads_what_the_fragment_shader_counted() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let text = |probe: &str| {
        format!(
            "[require]\nGL ES >= 3.1\nGLSL ES >= 3.10\n[vertex shader passthrough]\n\
             [fragment shader]\n#version 310 es\nprecision highp float;\n\
             layout(binding = 0) uniform atomic_uint hits;\nout vec4 color;\n\
             void main() {{ atomicCounterIncrement(hits); color = vec4(1.0); }}\n\
             [test]\natomic counters 1\ndraw rect ortho 0 0 3 2\n{probe}\n"
        )
    };
    let result = run(&mut backend, &text("probe atomic counter 0 == 6"));
    if !es_at_least(&backend, 3, 1, &result) {
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    let result = run(&mut backend, &text("probe atomic counter buffer 0 0 == 5"));
    assert_eq!(result.status, Status::Fail);
}

#[test]
fn separate_shader_objects_link_each_stage_alone_and_leave_no_program_current() {
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let text = |extra: &str| {
        format!(
            "[require]\nGL ES >= 3.1\nGLSL ES >= 3.10\nSSO ENABLED\n\
             [vertex shader]\n#version 310 es\nin vec4 piglit_vertex;\n\
             layout(location = 0) out vec4 v;\n\
             void main() {{ gl_Position = piglit_vertex; v = vec4(0.25, 0.5, 0.75, 1.0); }}\n\
             [fragment shader]\n#version 310 es\nprecision highp float;\n\
             layout(location = 0) in vec4 v;\nout vec4 color;\nuniform float u;\n\
             void main() {{ color = v; }}\n\
             [test]\n{extra}draw rect -1 -1 2 2\nprobe all rgba 0.25 0.5 0.75 1.0\n"
        )
    };
    let result = run(&mut backend, &text(""));
    if !es_at_least(&backend, 3, 1, &result) {
        return;
    }
    assert_eq!(result.status, Status::Pass, "{:?}", result.reason);
    assert_eq!(result.probes[0].observed, vec![0.25, 0.5, 0.75, 1.0]);
    // No program is current with a pipeline bound: piglit finds no uniform location.
    let result = run(&mut backend, &text("uniform float u 1.0\n"));
    assert_eq!(result.status, Status::Fail);
}
