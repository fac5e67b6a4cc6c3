//! Preprocessing tokens: raw tokens plus what macro expansion needs (origin, hide set).

use std::rc::Rc;

use crate::front::lexer::{Punct, RawKind, RawToken};

/// The spelling of a preprocessing token.
#[derive(Clone, Debug)]
pub(super) enum TokText {
    /// A byte range of the cleaned source.
    Src(u32, u32),
    /// Text made by the preprocessor (`__LINE__`, `defined` results).
    Owned(Rc<str>),
}

/// A preprocessing token.
#[derive(Clone, Debug)]
pub(super) struct PpTok {
    /// What it is.
    pub kind: RawKind,
    /// Its spelling.
    pub text: TokText,
    /// Offset in the cleaned source that positions it (the invocation for expanded tokens).
    pub origin: u32,
    /// Whether whitespace preceded it.
    pub space_before: bool,
    /// Whether it came out of a macro expansion.
    pub from_macro: bool,
    /// Ids of the macros that must not expand this token again (the "hide set").
    pub hide: Vec<u32>,
}

impl PpTok {
    /// A token read from the cleaned source.
    pub fn from_raw(raw: &RawToken) -> Self {
        PpTok {
            kind: raw.kind,
            text: TokText::Src(raw.start, raw.end),
            origin: raw.start,
            space_before: raw.space_before,
            from_macro: false,
            hide: Vec::new(),
        }
    }

    /// A token made by the preprocessor, positioned at `origin`.
    pub fn synthetic(kind: RawKind, text: &str, origin: u32) -> Self {
        PpTok {
            kind,
            text: TokText::Owned(Rc::from(text)),
            origin,
            space_before: true,
            from_macro: true,
            hide: Vec::new(),
        }
    }

    /// Its spelling, given the cleaned source.
    pub fn text<'a>(&'a self, clean: &'a str) -> &'a str {
        match &self.text {
            TokText::Src(start, end) => clean.get(*start as usize..*end as usize).unwrap_or(""),
            TokText::Owned(text) => text,
        }
    }

    /// Whether it is the punctuator `p`.
    pub fn is(&self, p: Punct) -> bool {
        self.kind == RawKind::Punct(p)
    }
}
