//! HTML accuracy reports for halfcheck results: what was lowered, how inaccurate, and what
//! changed since the last run.
//!
//! [`render`] writes a static site from a [`model::Site`]: no network, no CDN, every file
//! relative, so it opens from the file system and fits in a CI artifact. The site is
//! `index.html` (runs, counts, regressions first, error distributions), `matrix.html`
//! (operations by run, coloured by verdict), `tests.html` (every test, failing and regressed
//! first), one page per test under `tests/` (annotated source, probe table, value plots,
//! images, logs) and `history.html` for nightly runs. Tables sort and filter with a small
//! script (`report.js`) and read without it.
//!
//! The model is filled by the harness's `halfcheck report` from results files; this crate
//! knows nothing of GL. It does use the compiler: [`annotate`] places each operation's resolved
//! precision, and whether it was lowered, on the shader source.

pub mod annotate;
mod error;
mod front;
mod history;
mod html;
pub mod images;
mod listing;
mod matrix;
pub mod model;
pub mod plots;
mod test_page;

pub use error::ReportError;
use model::Site;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// What [`render`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    /// Files written.
    pub files: usize,
    /// Their total size in bytes.
    pub bytes: u64,
}

/// Writes the site for `site` into the directory `out` (created if needed; files already
/// there are overwritten, others left alone).
pub fn render(site: &Site, out: &Path) -> Result<Written, ReportError> {
    for dir in [out.to_path_buf(), out.join("tests"), out.join("img")] {
        std::fs::create_dir_all(&dir).map_err(|source| ReportError::CreateDir {
            path: dir.clone(),
            source,
        })?;
    }
    let links = Links::new(site);
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("style.css".into(), html::STYLE.as_bytes().to_vec()),
        ("report.js".into(), html::SCRIPT.as_bytes().to_vec()),
        ("index.html".into(), front::page(site, &links).into_bytes()),
        (
            "matrix.html".into(),
            matrix::page(site, &links).into_bytes(),
        ),
        (
            "tests.html".into(),
            listing::page(site, &links).into_bytes(),
        ),
    ];
    if let Some(history) = &site.history {
        files.push((
            "history.html".into(),
            history::page(site, history, &links).into_bytes(),
        ));
    }
    let mut written = write_all(out, &files)?;
    let pages: Vec<Result<Written, ReportError>> = links
        .stems
        .par_iter()
        .map(|(name, stem)| write_all(out, &test_page::files(site, name, stem)?))
        .collect();
    for page in pages {
        let page = page?;
        written.files += page.files;
        written.bytes += page.bytes;
    }
    Ok(written)
}

/// Writes each `(relative path, bytes)` under `out`.
fn write_all(out: &Path, files: &[(String, Vec<u8>)]) -> Result<Written, ReportError> {
    let mut written = Written::default();
    for (path, bytes) in files {
        let path = out.join(path);
        std::fs::write(&path, bytes).map_err(|source| ReportError::Write {
            path: path.clone(),
            source,
        })?;
        written.files += 1;
        written.bytes += bytes.len() as u64;
    }
    Ok(written)
}

/// Every test's page, by test name: unique file stems under `tests/`.
pub(crate) struct Links {
    stems: BTreeMap<String, String>,
}

impl Links {
    fn new(site: &Site) -> Links {
        let mut names: Vec<&String> = site.details.keys().collect();
        for run in &site.runs {
            names.extend(run.tests.keys());
        }
        names.sort();
        names.dedup();
        let mut taken = std::collections::BTreeSet::new();
        let mut stems = BTreeMap::new();
        for name in names {
            let base = html::test_file_stem(name);
            let mut stem = base.clone();
            let mut n = 2;
            while !taken.insert(stem.clone()) {
                stem = format!("{base}~{n}");
                n += 1;
            }
            stems.insert(name.clone(), stem);
        }
        Links { stems }
    }

    /// The link to a test's page from a page at the site's root (`root` = `""`) or in
    /// `tests/` (`root` = `"../"`).
    pub(crate) fn test(&self, name: &str, root: &str) -> String {
        match self.stems.get(name) {
            Some(stem) => format!("{root}tests/{stem}.html"),
            None => format!("{root}tests.html"),
        }
    }

    /// A link element to a test's page, the name as its text.
    pub(crate) fn test_anchor(&self, name: &str, root: &str) -> String {
        format!(
            "<a href=\"{}\">{}</a>",
            html::esc(&self.test(name, root)),
            html::esc(name)
        )
    }
}
