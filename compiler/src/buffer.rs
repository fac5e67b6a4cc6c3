//! Taking a kept buffer for reuse (see `front::scratch`), in a module of its own so that
//! the smallest modules (spans, tokens) can reuse buffers without depending on what
//! `scratch` keeps.

/// `buffer`, taken out of its place and emptied, with room for `additional` elements.
pub(crate) fn reuse<T>(buffer: &mut Vec<T>, additional: usize) -> Vec<T> {
    let mut buffer = std::mem::take(buffer);
    buffer.clear();
    buffer.reserve(additional);
    buffer
}
