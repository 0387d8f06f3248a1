//! Byte spans into loaded source files; line and column are computed only when shown.

/// Index of a file in a [`crate::diag::Sources`] map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SourceId(pub u16);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub src: SourceId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(src: SourceId, start: usize, end: usize) -> Span {
        Span { src, start: start as u32, end: end as u32 }
    }

    /// A sub-range, `offset..offset+len` bytes after this span's start (e.g. one letter of a string).
    pub fn sub(self, offset: usize, len: usize) -> Span {
        let start = self.start + offset as u32;
        Span { src: self.src, start, end: (start + len.max(1) as u32).min(self.end.max(start + 1)) }
    }
}

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}
