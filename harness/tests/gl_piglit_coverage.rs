//! Debian piglit's GL ES files that need halfcheck's framebuffer, texture, compute, buffer
//! and separate-shader-object commands run on the GL backend with the status piglit's own
//! `shader_runner` gives them (measured with `scripts/piglit-compat.sh`): on llvmpipe all
//! pass; on softpipe, which lacks framebuffer fetch and multisampling, piglit skips the
//! framebuffer-fetch ones and passes the rest.
//!
//! One Gallium driver per process: the softpipe run re-executes this test binary with
//! `GALLIUM_DRIVER=softpipe`. Skips (printing why) without EGL or piglit, unless
//! `HALFCHECK_REQUIRE_GL=1` / `HALFCHECK_REQUIRE_PIGLIT=1`.

mod common;

use common::{gl_backend, rerun_on_softpipe};
use halfcheck::results::Status;
use halfcheck_piglit::shader_test::parse_file;
use halfcheck_piglit::Backend;
use halfcheck_test_support::piglit;

/// The framebuffer-fetch files under `generated_tests/spec/EXT_shader_framebuffer_fetch*/
/// execution/gles3/`: `fb ms`, `fb draw/read tex 2d`, `texture storage`, `fb tex slice`,
/// integer framebuffers and probes.
const FRAMEBUFFER_FETCH: &[&str] = &[
    "integer-ms2",
    "integer-ss",
    "nonuniform-ms2",
    "simple-ms2",
    "single-slice-2darray-mipmap",
    "single-slice-2darray",
    "single-slice-3d",
    "single-slice-cubemap",
];

/// Files under `tests/spec/` any ES 3.1 driver runs: compute shaders with `texture integer`,
/// `image texture`, `ssbo` and `probe ssbo`; `SSO ENABLED`; `texture junk`, `fb tex layered`
/// and `probe atomic counter`.
const ES31: &[&str] = &[
    "glsl-es-3.10/execution/cs-image-atomic-if-else-2",
    "glsl-es-3.10/execution/cs-image-atomic-if-else",
    "glsl-es-3.10/execution/cs-image-load-if-else",
    "oes_geometry_shader/sso_validation/user-defined-gs-input-in-block",
    "oes_geometry_shader/sso_validation/user-defined-gs-input-not-in-block",
    "oes_viewport_array/viewport-gs-writes-in-range",
    "oes_viewport_array/viewport-gs-writes-out-of-range",
];

#[test]
fn piglit_files_needing_the_newer_commands_get_shader_runners_status() {
    let Some(root) = piglit("") else {
        return;
    };
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let renderer = backend.run_info().renderer;
    println!("renderer: {renderer}");
    let fetch_status = if renderer.starts_with("llvmpipe") {
        Status::Pass
    } else if renderer.starts_with("softpipe") {
        Status::Skip
    } else {
        common::skip(&format!("no piglit statuses for renderer {renderer}"));
        return;
    };
    let mut files = Vec::new();
    for extension in ["", "_non_coherent"] {
        for name in FRAMEBUFFER_FETCH {
            let path = format!(
                "generated_tests/spec/EXT_shader_framebuffer_fetch{extension}/execution/gles3/\
                 {name}.shader_test"
            );
            files.push((path, fetch_status));
        }
    }
    for name in ES31 {
        files.push((format!("tests/spec/{name}.shader_test"), Status::Pass));
    }
    for (path, expected) in files {
        let test = parse_file(&root.join(&path)).unwrap_or_else(|e| panic!("{e}"));
        let result = backend.run_test(&test);
        assert_eq!(result.status, expected, "{path}: {:?}", result.reason);
    }
}

/// The test above again on softpipe, in a child process.
#[test]
fn softpipe_runs_in_a_child_process() {
    if piglit("").is_none() {
        return;
    }
    if std::env::var_os("GALLIUM_DRIVER").is_some() || gl_backend().is_none() {
        return;
    }
    rerun_on_softpipe("piglit_files_needing_the_newer_commands_get_shader_runners_status");
}
