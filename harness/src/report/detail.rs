//! What a report shows of a test apart from its runs: the `.shader_test` file found again
//! from the run's command line, its shader sections annotated by the compiler (resolved
//! precision and lowering of each operation), the operations it computes at reduced
//! precision, and the emulator's highp and mediump images of the whole framebuffer.

use crate::time_limit;
use halfcheck_emu::{render, Mode};
use halfcheck_piglit::program::{glsl_es_version, source};
use halfcheck_piglit::shader_test::{parse_file, ShaderTest, SourceKind, Stage};
use halfcheck_piglit::WindowImage;
use halfcheck_reports::annotate::annotate;
use halfcheck_reports::model::{EmulatorImages, FloatImage, TestDetail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a run's tests may be found: the existing paths of its command line (test names are
/// relative to them) and any given with `--tests`.
pub(super) fn roots(command_line: &[String], extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = extra.to_vec();
    for arg in command_line.iter().skip(1) {
        let path = Path::new(arg);
        let is_test = path.extension().is_some_and(|e| e == "shader_test") && path.is_file();
        if !arg.starts_with('-') && (path.is_dir() || is_test) && !roots.iter().any(|r| r == path) {
            roots.push(path.to_path_buf());
        }
    }
    roots
}

/// The file of test `name` under one of `roots`: a directory's `root/name` (or
/// `parent/name`, for names that start with the root's own name), or a file given as is.
pub(super) fn find(name: &str, roots: &[PathBuf]) -> Option<PathBuf> {
    roots.iter().find_map(|root| {
        if root.is_file() {
            return root
                .file_name()
                .is_some_and(|f| {
                    name == f.to_string_lossy()
                        || name.ends_with(&format!("/{}", f.to_string_lossy()))
                })
                .then(|| root.clone());
        }
        [Some(root.as_path()), root.parent()]
            .into_iter()
            .flatten()
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// The detail of one test found at `file` (or the note that it was not found), without the
/// emulator's images ([`add_images`]).
pub(super) fn detail(file: Option<PathBuf>) -> TestDetail {
    let Some(file) = file else {
        return TestDetail {
            notes: vec!["The .shader_test file was not found (give its directory with --tests): no source, operations or emulator images.".into()],
            ..TestDetail::default()
        };
    };
    let mut detail = TestDetail {
        file: Some(file.clone()),
        ..TestDetail::default()
    };
    let test = match parse_file(&file) {
        Ok(test) => test,
        Err(e) => {
            detail.notes.push(format!("cannot read the test: {e}"));
            return detail;
        }
    };
    let mut operations = BTreeSet::new();
    let version = glsl_es_version(&test);
    for section in &test.shaders {
        let stage = match (section.stage, &section.kind) {
            (_, SourceKind::Spirv | SourceKind::Specializations | SourceKind::ArbProgram) => {
                continue
            }
            (Stage::Vertex, _) => halfcheck_compiler::Stage::Vertex,
            (Stage::Fragment, _) => halfcheck_compiler::Stage::Fragment,
            (Stage::Compute, _) => halfcheck_compiler::Stage::Compute,
            _ => continue,
        };
        let text = match source(section, version) {
            Ok(text) => text,
            Err(e) => {
                detail
                    .notes
                    .push(format!("{} shader: {e}", section.stage.section_name()));
                continue;
            }
        };
        let added_lines = if section.kind == SourceKind::Passthrough {
            text.lines().count()
        } else {
            text.lines()
                .count()
                .saturating_sub(section.text.lines().count())
        };
        let name = section.stage.section_name();
        match annotate(name, stage, &text, (added_lines, section.first_line)) {
            Ok(annotation) => {
                operations.extend(annotation.operations);
                detail.sources.push(annotation.source);
            }
            Err(e) => detail.notes.push(format!(
                "halfcheck's compiler rejects the {name} shader: {e}"
            )),
        }
    }
    detail.operations = operations.into_iter().collect();
    detail
}

/// Adds the emulator's images to the detail of a test that was found and read. Called from
/// outside rayon's pool: the emulator shades on that pool, which a waiting worker would block.
pub(super) fn add_images(detail: &mut TestDetail) {
    let Some(test) = detail.file.as_deref().and_then(|f| parse_file(f).ok()) else {
        return;
    };
    if test.shaders.is_empty() {
        return;
    }
    match emulator_images(test) {
        Ok(images) => detail.emulator = Some(images),
        Err(e) => detail.notes.push(format!("No emulator images: {e}")),
    }
}

/// A window framebuffer as the renderer's image.
pub(super) fn float_image(window: &WindowImage) -> FloatImage {
    FloatImage {
        width: window.width,
        height: window.height,
        pixels: window
            .rgba
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect(),
    }
}

/// How long the emulator may take to draw one test's two images; a report leaves out the
/// images of a test that takes longer, so no input can hold it up.
pub(super) const IMAGE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The emulator's highp and mediump images of the whole framebuffer, or why there are none.
fn emulator_images(test: ShaderTest) -> Result<EmulatorImages, String> {
    time_limit::within(IMAGE_TIME_LIMIT, move || {
        let image = |mode: Mode| {
            render(&test, mode)
                .map(|window| float_image(&window))
                .map_err(|e| e.to_string())
        };
        Ok(EmulatorImages {
            highp: image(Mode::Highp)?,
            mediump: image(Mode::Mediump)?,
        })
    })
    .unwrap_or_else(|| {
        Err(format!(
            "the emulator took longer than {} s to draw them",
            IMAGE_TIME_LIMIT.as_secs()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
    }

    #[test]
    fn tests_are_found_under_the_roots_of_the_command_line_by_name() {
        let root = cases().display().to_string();
        let roots = roots(
            &[
                "halfcheck".into(),
                "run".into(),
                "-j".into(),
                "2".into(),
                root,
            ],
            &[],
        );
        assert_eq!(roots.len(), 1, "{roots:?}");
        let name = "arithmetic/add_scalar.shader_test";
        assert_eq!(find(name, &roots), Some(cases().join(name)));
        // Names that start with the root's own name (`cases/...`) are found too.
        assert_eq!(
            find(&format!("cases/{name}"), &roots),
            Some(cases().join(name))
        );
        assert_eq!(find("no/such.shader_test", &roots), None);
    }

    #[test]
    fn a_case_is_annotated_with_its_mediump_operations_and_both_emulator_images() {
        let mut detail = detail(Some(cases().join("arithmetic/add_scalar.shader_test")));
        add_images(&mut detail);
        assert!(detail.notes.is_empty(), "{:?}", detail.notes);
        assert!(
            detail.operations.contains(&"+".to_string()),
            "{:?}",
            detail.operations
        );
        let fragment = detail
            .sources
            .iter()
            .find(|s| s.stage == "fragment")
            .expect("fragment shader");
        assert!(fragment
            .marks
            .iter()
            .any(|m| m.operation == "+" && m.lowered));
        let images = detail.emulator.expect("images");
        assert_eq!((images.highp.width, images.highp.height), (250, 250));
        assert_ne!(images.highp.pixels, images.mediump.pixels);
    }
}
