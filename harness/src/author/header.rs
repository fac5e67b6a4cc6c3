//! A test's header: the comment lines before its first section, where the corpus says what a
//! test expects (`# Expect: VERDICT`, `# Expect LANE: VERDICT`) and whether it is a control
//! (`# Control: ...`).

/// The lane a plain `# Expect:` line speaks for: the corpus is written for llvmpipe.
pub(crate) const PLAIN_LANE: &str = "llvmpipe";

/// The verdicts a header may expect that claim lowering.
const LOWERING: [&str; 2] = ["lowered", "partial"];

/// What a test's header says about it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Header {
    /// A `# Control:` line: the test is a control, its probes need not discriminate.
    pub control: bool,
    /// Each `# Expect` line: the lane it names (`None` for `# Expect:`) and the verdict.
    pub expects: Vec<(Option<String>, String)>,
}

impl Header {
    /// Reads the comment lines before the first `[section]` of `text`.
    pub(crate) fn read(text: &str) -> Header {
        let mut header = Header::default();
        for line in header_lines(text) {
            let Some(comment) = line.trim().strip_prefix('#') else {
                continue;
            };
            let comment = comment.trim();
            if comment.starts_with("Control:") {
                header.control = true;
            } else if let Some((lane, verdict)) = expect_line(comment) {
                header.expects.push((lane, verdict));
            }
        }
        header
    }

    /// The verdict the header expects on `lane`: its `# Expect LANE:` line; for llvmpipe, the
    /// plain `# Expect:` line (the corpus's: its expectations are llvmpipe's) too.
    pub(crate) fn expected(&self, lane: &str) -> Option<&str> {
        self.expects
            .iter()
            .find(|(l, _)| match l {
                Some(l) => l == lane,
                None => lane == PLAIN_LANE,
            })
            .map(|(_, v)| v.as_str())
    }

    /// Whether the file says its probes need not discriminate on `lane`: a `# Control:` line,
    /// or an expected verdict there that claims no lowering (`not-lowered`, `undetermined`,
    /// ...).
    pub(crate) fn says_control(&self, lane: &str) -> bool {
        self.control || self.expected(lane).is_some_and(|v| !LOWERING.contains(&v))
    }
}

/// The lines before the first section header (`[require]`, ...).
pub(crate) fn header_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with('['))
}

/// `Expect: V` or `Expect LANE: V` (the `#` already taken off): the lane and the verdict.
pub(crate) fn expect_line(comment: &str) -> Option<(Option<String>, String)> {
    let rest = comment.strip_prefix("Expect")?;
    let (lane, verdict) = rest.split_once(':')?;
    let lane = lane.trim();
    let verdict = verdict.split_whitespace().next()?.to_string();
    if lane.contains(char::is_whitespace) {
        return None;
    }
    Some(((!lane.is_empty()).then(|| lane.to_string()), verdict))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_per_lane_expect_lines_and_the_control_marker_are_read() {
        let header = Header::read(
            "# Rule: x\n# Expect: lowered\n# Expect softpipe: not-lowered\n[require]\n# Expect: partial\n",
        );
        assert_eq!(header.expected("llvmpipe"), Some("lowered"));
        assert_eq!(header.expected("zink"), None);
        assert_eq!(header.expected("softpipe"), Some("not-lowered"));
        assert!(!header.says_control("llvmpipe"));
        assert!(header.says_control("softpipe"));
        assert!(Header::read("# Control: must stay highp\n[require]\n").says_control("llvmpipe"));
        assert!(!Header::read("[require]\n").says_control("llvmpipe"));
    }
}
