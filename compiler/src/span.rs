//! Source positions: byte spans into preprocessed text, and the map from those bytes back to
//! lines and columns of the text the preprocessor was given (respecting `#line`).

/// A half-open byte range `[start, end)` into the preprocessed text of one shader.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// The span covering `start..end`, saturating offsets that do not fit in `u32`.
    pub fn new(start: usize, end: usize) -> Self {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range, for slicing the preprocessed text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Where a byte of preprocessed text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// GLSL source string number (0 unless a `#line L S` directive set it).
    pub source_string: u32,
    /// Line number as the shader sees it (1-based, after `#line`), as used in messages.
    pub line: u32,
    /// Column, 1-based, in bytes.
    pub column: u32,
    /// Line in the text given to the preprocessor (1-based), used to show the source line.
    pub physical_line: u32,
}

/// Where one token of output came from: its physical position and the `#line` state then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    /// Physical line, 1-based.
    pub physical_line: u32,
    /// Physical column, 0-based, in bytes.
    pub column: u32,
    /// Source string number from `#line`.
    pub source_string: u32,
    /// Reported line minus physical line, set by `#line`.
    pub line_delta: i64,
}

#[derive(Clone, Copy, Debug)]
struct Anchor {
    out: u32,
    origin: Origin,
}

/// Maps byte offsets of preprocessed text back to [`Location`]s in the original text.
///
/// It stores one anchor wherever the output stops following the input column by column (the
/// start of each line, after each macro expansion), so lookups are a binary search.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    anchors: Vec<Anchor>,
}

impl SourceMap {
    /// An empty map with room for `anchors` anchors (about one a line).
    pub(crate) fn with_capacity(anchors: usize) -> Self {
        SourceMap {
            anchors: Vec::with_capacity(anchors),
        }
    }

    /// Records that output byte `out` came from `origin`, unless the previous anchor predicts it.
    pub(crate) fn push(&mut self, out: usize, origin: Origin) {
        let out = u32::try_from(out).unwrap_or(u32::MAX);
        if let Some(last) = self.anchors.last() {
            let predicted = last.origin.physical_line == origin.physical_line
                && last.origin.source_string == origin.source_string
                && last.origin.line_delta == origin.line_delta
                && i64::from(origin.column) - i64::from(last.origin.column)
                    == i64::from(out) - i64::from(last.out);
            if predicted {
                return;
            }
            if last.out == out {
                self.anchors.pop();
            }
        }
        self.anchors.push(Anchor { out, origin });
    }

    /// The location of preprocessed byte `offset`.
    pub fn locate(&self, offset: u32) -> Location {
        let index = self.anchors.partition_point(|a| a.out <= offset);
        let Some(anchor) = index.checked_sub(1).and_then(|i| self.anchors.get(i)) else {
            return Location {
                source_string: 0,
                line: 1,
                column: 1,
                physical_line: 1,
            };
        };
        let origin = anchor.origin;
        let column = origin.column.saturating_add(offset - anchor.out);
        let line = i64::from(origin.physical_line) + origin.line_delta;
        Location {
            source_string: origin.source_string,
            line: u32::try_from(line.max(0)).unwrap_or(u32::MAX),
            column: column.saturating_add(1),
            physical_line: origin.physical_line,
        }
    }
}

/// Maps byte offsets of a rewritten text (comments and line continuations removed) back to
/// physical line and column of the text before the rewrite.
#[derive(Clone, Debug, Default)]
pub(crate) struct LineIndex {
    /// (offset in rewritten text, physical line 1-based, physical column 0-based)
    anchors: Vec<(u32, u32, u32)>,
}

impl LineIndex {
    /// An empty index in the (emptied) vector `anchors`, with room for `additional`
    /// anchors (one a line, and one after each comment or continuation).
    pub fn reusing(anchors: &mut Vec<(u32, u32, u32)>, additional: usize) -> Self {
        LineIndex {
            anchors: crate::buffer::reuse(anchors, additional),
        }
    }

    /// The vector of anchors, for [`Self::reusing`] it.
    pub fn into_anchors(self) -> Vec<(u32, u32, u32)> {
        self.anchors
    }

    /// Records that rewritten byte `offset` is at physical `line`/`column`.
    pub fn push(&mut self, offset: usize, line: u32, column: u32) {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        if let Some(last) = self.anchors.last_mut() {
            if last.0 == offset {
                *last = (offset, line, column);
                return;
            }
        }
        self.anchors.push((offset, line, column));
    }

    /// Physical (line, column) of rewritten byte `offset`.
    pub fn position(&self, offset: u32) -> (u32, u32) {
        let mut hint = 0;
        self.position_near(offset, &mut hint)
    }

    /// [`Self::position`] for offsets met in increasing order: `hint` remembers the anchor
    /// used last, so the next lookup usually costs a comparison or two instead of a search.
    pub fn position_near(&self, offset: u32, hint: &mut usize) -> (u32, u32) {
        let covers = |i: usize| {
            self.anchors.get(i).is_some_and(|a| a.0 <= offset)
                && self.anchors.get(i + 1).is_none_or(|a| a.0 > offset)
        };
        if !covers(*hint) {
            // The next few anchors (blank lines in between), else a binary search.
            *hint = match (*hint + 1..*hint + 5).find(|&i| covers(i)) {
                Some(i) => i,
                None => {
                    let index = self.anchors.partition_point(|a| a.0 <= offset);
                    match index.checked_sub(1) {
                        Some(i) => i,
                        None => return (1, 0),
                    }
                }
            };
        }
        match self.anchors.get(*hint) {
            Some(&(start, line, column)) => (line, column.saturating_add(offset - start)),
            None => (1, 0),
        }
    }

    /// Where the anchor `hint` (as left by [`Self::position_near`]) stops applying: the
    /// offset of the next anchor, or `u32::MAX`.
    pub fn anchor_end(&self, hint: usize) -> u32 {
        self.anchors.get(hint + 1).map_or(u32::MAX, |a| a.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(line: u32, column: u32) -> Origin {
        Origin {
            physical_line: line,
            column,
            source_string: 0,
            line_delta: 0,
        }
    }

    #[test]
    fn source_map_follows_columns_between_anchors() {
        let mut map = SourceMap::default();
        map.push(0, origin(1, 0));
        map.push(10, origin(2, 4));
        assert_eq!(map.locate(3).column, 4);
        assert_eq!(map.locate(12).line, 2);
        assert_eq!(map.locate(12).column, 7);
    }

    #[test]
    fn line_directive_delta_changes_reported_line_only() {
        let mut map = SourceMap::default();
        map.push(
            0,
            Origin {
                line_delta: 97,
                ..origin(3, 0)
            },
        );
        let loc = map.locate(0);
        assert_eq!((loc.line, loc.physical_line), (100, 3));
    }
}
