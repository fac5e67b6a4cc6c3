//! The zink and virgl lanes end to end: `halfcheck devices` opens both, `cases/` meets each
//! lane's own expectations (`cases/expectations/zink.yaml`, `virgl.yaml`), virgl (which
//! lowers nothing) claims no `lowered`, `partial` or `out-of-bounds`, and zink (which lowers)
//! no `out-of-bounds`.
//!
//! zink runs on lavapipe (`mesa-vulkan-drivers`): `LIBGL_ALWAYS_SOFTWARE=1
//! GALLIUM_DRIVER=zink VK_ICD_FILENAMES=<lavapipe's ICD>`. virgl runs over vtest
//! (`virgl-server`): `GALLIUM_DRIVER=virpipe` against `virgl_test_server`, which these tests
//! start unless one already listens, and stop. Mesa 22.3's virgl reads no socket path but
//! `/tmp/.virgl_test`, so the server cannot be private; it takes many clients, so tests that
//! run at once share it. Without lavapipe or `virgl_test_server` the tests skip with a printed
//! reason, unless `HALFCHECK_REQUIRE_GL=1`.

mod common;

use common::*;
use halfcheck::expectations::Expectations;
use halfcheck::results::{read_results, ResultsFile, Verdict};
use halfcheck_emu::Profile;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// lavapipe's Vulkan ICD, as Debian's `mesa-vulkan-drivers` installs it.
const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Where Mesa 22.3's virgl looks for the vtest server.
const VTEST_SOCKET: &str = "/tmp/.virgl_test";

/// The environment that makes Mesa's GL zink on lavapipe.
fn zink_env() -> [(&'static str, &'static str); 3] {
    [
        ("LIBGL_ALWAYS_SOFTWARE", "1"),
        ("GALLIUM_DRIVER", "zink"),
        ("VK_ICD_FILENAMES", LAVAPIPE_ICD),
    ]
}

/// Whether a lane can run here: `Ok`, or why not (skipped, or a failure when
/// `HALFCHECK_REQUIRE_GL=1`).
fn available(lane: &str, missing: Option<String>) -> bool {
    let Some(why) = missing else {
        return true;
    };
    assert!(
        std::env::var("HALFCHECK_REQUIRE_GL").as_deref() != Ok("1"),
        "HALFCHECK_REQUIRE_GL=1 but the {lane} lane cannot run: {why}"
    );
    skip(&format!("the {lane} lane: {why}"));
    false
}

fn zink_available() -> bool {
    let missing = (!Path::new(LAVAPIPE_ICD).exists())
        .then(|| format!("no lavapipe ({LAVAPIPE_ICD}; Debian package mesa-vulkan-drivers)"));
    available("zink", missing)
}

/// Whether a vtest server accepts connections.
fn vtest_listening() -> bool {
    UnixStream::connect(VTEST_SOCKET).is_ok()
}

/// A `virgl_test_server` these tests started (killed when dropped), or `None` where one
/// already listened.
struct VtestServer(Option<Child>);

impl Drop for VtestServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            child.kill().ok();
            child.wait().ok();
        }
    }
}

/// Serialises the tests of this binary that use the vtest server, so that one stops it only
/// when no other uses it.
static VTEST: Mutex<()> = Mutex::new(());

/// Starts `virgl_test_server` unless one listens; `Err` says why there is none.
fn vtest_server() -> Result<VtestServer, String> {
    if vtest_listening() {
        return Ok(VtestServer(None));
    }
    let child = Command::new("virgl_test_server")
        .args(["--use-egl-surfaceless", "--use-gles", "--multi-clients"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("no virgl_test_server (Debian package virgl-server): {e}"))?;
    let server = VtestServer(Some(child));
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if vtest_listening() {
            return Ok(server);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!(
        "virgl_test_server did not listen on {VTEST_SOCKET} within 10 s"
    ))
}

/// `halfcheck` with its driver environment cleared.
fn halfcheck_on(env: &[(&str, &str)]) -> Command {
    let mut command = halfcheck();
    for key in [
        "GALLIUM_DRIVER",
        "GALLIUM_NOSSE",
        "LIBGL_ALWAYS_SOFTWARE",
        "VK_ICD_FILENAMES",
    ] {
        command.env_remove(key);
    }
    command.envs(env.iter().copied());
    command
}

/// `halfcheck devices` on a lane.
fn devices(env: &[(&str, &str)]) -> String {
    text(&halfcheck_on(env).arg("devices").output().expect("runs"))
}

/// One lane's run of `cases/` with its expectations.
struct Lane {
    code: Option<i32>,
    text: String,
    results: ResultsFile,
}

fn run_cases(name: &str, env: &[(&str, &str)]) -> Lane {
    let dir = temp_dir(&format!("lane-{name}"));
    let expected = cases().join("expectations").join(format!("{name}.yaml"));
    let output = halfcheck_on(env)
        .args([
            "run",
            "--backend",
            "gl",
            "-j",
            "2",
            "--no-report",
            "--results",
        ])
        .arg(&dir)
        .arg("--expectations")
        .arg(&expected)
        .arg(cases())
        .output()
        .expect("runs");
    let results = read_results(&dir.join("results.json"))
        .unwrap_or_else(|e| panic!("{name}: {e}\n{}", text(&output)));
    Lane {
        code: output.status.code(),
        text: text(&output),
        results,
    }
}

fn zink() -> Option<&'static Lane> {
    static LANE: OnceLock<Lane> = OnceLock::new();
    zink_available().then(|| LANE.get_or_init(|| run_cases("zink", &zink_env())))
}

fn virgl() -> Option<&'static Lane> {
    static LANE: OnceLock<Lane> = OnceLock::new();
    if let Some(lane) = LANE.get() {
        return Some(lane);
    }
    let _serial = VTEST.lock().unwrap_or_else(|e| e.into_inner());
    let server = match vtest_server() {
        Ok(server) => server,
        Err(why) => {
            available("virgl", Some(why));
            return None;
        }
    };
    let lane = LANE.get_or_init(|| run_cases("virgl", &[("GALLIUM_DRIVER", "virpipe")]));
    drop(server);
    Some(lane)
}

/// The tests whose verdict is one of `verdicts`, with it.
fn with_verdicts(lane: &Lane, verdicts: &[Verdict]) -> Vec<String> {
    lane.results
        .tests
        .iter()
        .filter(|(_, r)| r.verdict.is_some_and(|v| verdicts.contains(&v)))
        .map(|(name, r)| format!("{name}: {:?} ({:?})", r.verdict, r.verdict_reason))
        .collect()
}

/// The lane's run meets its expectations, file and command alike.
fn assert_meets_expectations(lane: &Lane, name: &str) {
    assert_eq!(lane.code, Some(0), "{}", lane.text);
    assert!(lane.text.contains("0 unexpected results"), "{}", lane.text);
    assert!(lane.text.contains(&format!("lane {name}")), "{}", lane.text);
    let path: PathBuf = cases().join("expectations").join(format!("{name}.yaml"));
    let own = Expectations::load(&path).expect("yaml");
    let unexpected = own.check(&lane.results);
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}

#[test]
fn devices_lists_zink_on_lavapipe_and_virgl_over_vtest() {
    if zink_available() {
        let listed = devices(&zink_env());
        assert!(listed.contains("0: zink ("), "{listed}");
        assert!(
            listed.contains("llvmpipe"),
            "zink runs on lavapipe: {listed}"
        );
    }
    let _serial = VTEST.lock().unwrap_or_else(|e| e.into_inner());
    match vtest_server() {
        Ok(_server) => {
            let listed = devices(&[("GALLIUM_DRIVER", "virpipe")]);
            assert!(listed.contains("0: virgl ("), "{listed}");
        }
        Err(why) => {
            available("virgl", Some(why));
        }
    }
}

#[test]
fn zink_meets_its_expectations_and_claims_nothing_out_of_bounds() {
    let Some(lane) = zink() else {
        return;
    };
    assert_meets_expectations(lane, "zink");
    let claims = with_verdicts(lane, &[Verdict::OutOfBounds, Verdict::Inconsistent]);
    assert!(claims.is_empty(), "{claims:#?}");
    // It lowers: most cases read binary16, the lone operations on uniforms included.
    let lowered = with_verdicts(lane, &[Verdict::Lowered]).len();
    assert!(lowered > 180, "{lowered}");
    let single = lane
        .results
        .tests
        .iter()
        .find(|(name, _)| name.ends_with("controls/single_op_add.shader_test"))
        .map(|(_, r)| r.verdict);
    assert_eq!(single, Some(Some(Verdict::Lowered)));
}

#[test]
fn virgl_meets_its_expectations_and_lowers_nothing() {
    let Some(lane) = virgl() else {
        return;
    };
    assert_meets_expectations(lane, "virgl");
    let claims = with_verdicts(
        lane,
        &[
            Verdict::Lowered,
            Verdict::Partial,
            Verdict::OutOfBounds,
            Verdict::Inconsistent,
        ],
    );
    assert!(claims.is_empty(), "{claims:#?}");
    let not_lowered = with_verdicts(lane, &[Verdict::NotLowered]).len();
    assert!(not_lowered > 200, "{not_lowered}");
}

/// The exact floats the emulator gives for `test` with profile `profile`, probe by probe.
fn emulated_bits(test: &Path, profile: &str) -> Vec<Vec<String>> {
    let dir = temp_dir(&format!("emu-{profile}"));
    let output = halfcheck()
        .args([
            "run",
            "--backend",
            "emu",
            "--emu-profile",
            profile,
            "--no-report",
        ])
        .arg("--results")
        .arg(&dir)
        .arg(test)
        .output()
        .expect("runs");
    let results = read_results(&dir.join("results.json"))
        .unwrap_or_else(|e| panic!("{e}\n{}", text(&output)));
    results
        .tests
        .values()
        .flat_map(|r| r.probes.iter().map(|p| p.observed_bits.clone()))
        .collect()
}

/// zink's own choices reach the emulator's prediction: with the shipped zink profile the
/// emulator gives what zink gave (measured 2026-11-26), where llvmpipe's profile gives
/// llvmpipe's. `dFdx(c * a)` differentiates the binary32 product of binary16 operands
/// (`lowering.lone_op_derivative`); binary16 `mix` expands as `x (1 - t) + y t`
/// (`arithmetic.mix16`); a lone `a + b` that a mediump constructor writes to the output stays
/// binary16 (`lowering.fold_constructors`).
#[test]
fn the_zink_profile_predicts_zinks_derivative_mix_and_constructors() {
    let dfdx = cases().join("builtins/derivatives/es3_dFdx.shader_test");
    let zink = emulated_bits(&dfdx, "zink");
    let llvmpipe = emulated_bits(&dfdx, "llvmpipe");
    // fract(dFdx(p) * 32): 0.6015625 on zink (0.30004883 * 32 = 9.6015625), 0 on llvmpipe.
    assert_eq!(zink[0][0], "0x3f1a0000", "{zink:?}");
    assert_eq!(llvmpipe[0][0], "0x00000000", "{llvmpipe:?}");

    let dir = temp_dir("mix16");
    let mix = dir.join("mix16.shader_test");
    std::fs::write(&mix, MIX16).expect("written");
    let zink = emulated_bits(&mix, "zink");
    let llvmpipe = emulated_bits(&mix, "llvmpipe");
    // The binary32 channels expand as delta on both; the binary16 ones part.
    assert_eq!(
        zink[0],
        ["0x3eb65fd8", "0x3ee902de", "0x3f690000", "0x3f366000"]
    );
    assert_eq!(
        llvmpipe[0],
        ["0x3eb65fd8", "0x3ee902de", "0x3f694000", "0x3f368000"]
    );

    // 1000.3 + 0.2 - 1000: 0.5 at binary16 (zink), 0.29998779 at binary32 (llvmpipe).
    let add = cases().join("controls/single_op_add.shader_test");
    assert_eq!(emulated_bits(&add, "zink")[0][0], "0x3f000000");
    assert_eq!(emulated_bits(&add, "llvmpipe")[0][0], "0x3e999800");
}

/// `halfcheck fingerprint` on zink measures the profile halfcheck ships for it, choice for
/// choice, with the same choices left undetermined.
#[test]
fn fingerprint_of_zink_is_the_shipped_zink_profile() {
    if !zink_available() {
        return;
    }
    let dir = temp_dir("fingerprint-zink");
    let out = dir.join("zink.yaml");
    let output = halfcheck_on(&zink_env())
        .args(["fingerprint", "--backend", "gl", "--name", "zink", "-o"])
        .arg(&out)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let yaml = std::fs::read_to_string(&out).expect("profile written");
    let measured = Profile::from_yaml(&yaml, "zink.yaml").expect("parses");
    let shipped = Profile::builtin("zink").expect("shipped");
    assert_eq!(measured.choices, shipped.choices, "{yaml}");
    let undetermined = |p: &Profile| p.undetermined.keys().cloned().collect::<Vec<_>>();
    assert_eq!(undetermined(&measured), undetermined(&shipped), "{yaml}");
}

/// `mix` at binary32 (r, g) and binary16 (b, a), the fingerprint's probe.
const MIX16: &str = "[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader passthrough]

[fragment shader]
#version 300 es
precision highp float;
uniform vec2 x, y, t;
uniform mediump vec2 mx, my, mt;
out vec4 color;
void main() { color = vec4(mix(x, y, t), mix(mx, my, mt) * 2.0); }

[test]
uniform vec2 x 0.13 1.3
uniform vec2 y 0.91 0.11
uniform vec2 t 0.29 0.71
uniform vec2 mx 1.3 0.13
uniform vec2 my 0.11 0.91
uniform vec2 mt 0.71 0.29
draw rect -1 -1 2 2
tolerance 2.0 2.0 2.0 2.0
probe rgba 0 0 0.0 0.0 0.0 0.0
";
