//! Buffers the front end reuses from one shader to the next on the same thread: the raw
//! tokens, lines and line index of the preprocessor's input, the parser's tokens and the
//! parser's stacks.
//!
//! Besides the tree it returns, these are the front end's largest allocations (12 to 16
//! bytes a token). Allocated anew for each shader, they cost a page fault every 4 KiB
//! whenever the allocator has given the memory back to the system in between, which glibc
//! does after each large shader: on piglit's GL ES shaders that was about a quarter of the
//! front end's time. Kept, they cost their largest size once per thread.

use std::cell::Cell;
use std::mem::size_of;

use super::ast::{Expr, Statement};
use super::lexer::RawToken;
use super::token::Token;

/// A buffer that grew past this many bytes is freed rather than kept (a huge shader should
/// not keep its memory for the rest of the thread's life).
const KEEP_AT_MOST: usize = 32 << 20;

/// The buffers; each is empty between shaders.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The preprocessor's input tokens.
    pub raw_tokens: Vec<RawToken>,
    /// The token ranges of the preprocessor's input lines.
    pub lines: Vec<(usize, usize)>,
    /// The anchors of the cleaned text's line index.
    pub line_anchors: Vec<(u32, u32, u32)>,
    /// The parser's tokens.
    pub tokens: Vec<Token>,
    /// The parser's stack of statements of the blocks being parsed.
    pub statements: Vec<Statement>,
    /// The parser's stack of arguments of the calls being parsed.
    pub arguments: Vec<Expr>,
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

impl Scratch {
    /// Runs `f` with this thread's buffers, then keeps them for the next shader. A nested
    /// call (none is made today) would find empty buffers, not share them.
    pub fn with<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
        let mut scratch = SCRATCH.take();
        let result = f(&mut scratch);
        scratch.empty();
        SCRATCH.set(scratch);
        result
    }

    /// Empties every buffer, freeing those that grew too large.
    fn empty(&mut self) {
        keep(&mut self.raw_tokens);
        keep(&mut self.lines);
        keep(&mut self.line_anchors);
        keep(&mut self.tokens);
        keep(&mut self.statements);
        keep(&mut self.arguments);
    }
}

/// Empties `buffer`, keeping its allocation unless it exceeds [`KEEP_AT_MOST`].
fn keep<T>(buffer: &mut Vec<T>) {
    if buffer.capacity().saturating_mul(size_of::<T>()) > KEEP_AT_MOST {
        *buffer = Vec::new();
    } else {
        buffer.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_keep_their_allocation_for_the_next_shader_but_not_their_contents() {
        Scratch::with(|s| s.lines.extend([(0, 1), (1, 2)]));
        Scratch::with(|s| {
            assert!(s.lines.is_empty());
            assert!(s.lines.capacity() >= 2);
        });
    }

    #[test]
    fn an_oversized_buffer_is_freed() {
        let mut huge: Vec<u64> = Vec::with_capacity(KEEP_AT_MOST / 8 + 1);
        huge.push(1);
        keep(&mut huge);
        assert_eq!(huge.capacity(), 0);
    }
}
