//! Input quoted in a message, cut short: a 100 KB test name or a 10 MB regex must not become a
//! 10 MB error line.

/// The most characters of input a message quotes.
pub const QUOTE_CHARS: usize = 100;

/// `text` whole when it is at most [`QUOTE_CHARS`] characters; else its first ones, then
/// `...` and how long it was.
pub fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.into(),
        Some((end, _)) => format!(
            "{}... ({} characters in all)",
            &text[..end],
            text.chars().count()
        )
        .into(),
    }
}

/// The most characters of a parser's message shown (it may quote the input it met).
pub const MESSAGE_CHARS: usize = 300;

/// A parser's message (`serde_json`'s may quote a whole string of the input) cut to about
/// [`MESSAGE_CHARS`]: its start and its end, which says where (`at line 3 column 9`).
pub fn cut_message(message: &str) -> std::borrow::Cow<'_, str> {
    let count = message.chars().count();
    if count <= MESSAGE_CHARS {
        return message.into();
    }
    let head: String = message.chars().take(MESSAGE_CHARS - 80).collect();
    let tail: String = message.chars().skip(count - 60).collect();
    format!("{head} ... {tail}").into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_at_a_character_boundary_and_says_how_long_it_was() {
        assert_eq!(cut("mediump"), "mediump");
        let long = "é".repeat(100_000);
        let quoted = cut(&long);
        assert_eq!(quoted.chars().filter(|&c| c == 'é').count(), QUOTE_CHARS);
        assert!(
            quoted.ends_with("... (100000 characters in all)"),
            "{quoted}"
        );
    }

    #[test]
    fn a_long_message_keeps_its_start_and_where_it_points() {
        let message = format!(
            "invalid type: string \"{}\" at line 3 column 9",
            "x".repeat(100_000)
        );
        let cut = cut_message(&message);
        assert!(cut.chars().count() < MESSAGE_CHARS + 10, "{cut}");
        assert!(cut.starts_with("invalid type: string \"xxx"), "{cut}");
        assert!(cut.ends_with("at line 3 column 9"), "{cut}");
    }
}
