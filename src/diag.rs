//! Diagnostics: errors that point into a source file, rendered as `path:line:col: error: message`.

use crate::syntax::span::{SourceId, Span};
use std::fmt::Write as _;

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
}

/// Every file that went into a preset (the preset and the presets it extends).
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
    /// The words of text skipped after syntax errors: later errors about them are not reported.
    pub skipped_words: Vec<String>,
    /// How many of the gathering's diagnostics are syntax errors (the checker runs after those, not after others).
    pub syntax_errors: usize,
}

impl Sources {
    pub fn add(&mut self, path: impl Into<String>, text: impl Into<String>) -> SourceId {
        self.files.push(SourceFile { path: path.into(), text: text.into() });
        SourceId((self.files.len() - 1) as u16)
    }

    /// Keep the text of a file added empty once it is known to be fit to quote.
    pub fn set_text(&mut self, id: SourceId, text: &str) {
        self.files[id.0 as usize].text = text.to_string();
    }

    pub fn get(&self, id: SourceId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn text(&self, id: SourceId) -> &str {
        &self.get(id).text
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: SourceId, offset: u32) -> (usize, usize) {
        let text = self.text(id);
        let offset = (offset as usize).min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// Where a diagnostic points: `path:line:col`, or the bare path when nothing was read (e.g. the
    /// file does not exist) and there is no line to point at.
    pub fn location(&self, d: &Diagnostic) -> String {
        let file = self.get(d.span.src);
        if file.text.is_empty() {
            return file.path.clone();
        }
        let (line, col) = self.line_col(d.span.src, d.span.start);
        format!("{}:{line}:{col}", file.path)
    }

    /// `path:line:col: error: message`, then the source line and a caret under the span.
    pub fn render(&self, d: &Diagnostic) -> String {
        let file = self.get(d.span.src);
        let mut out = format!("{}: error: {}\n", self.location(d), d.message);
        if file.text.is_empty() {
            return out;
        }
        let (line, col) = self.line_col(d.span.src, d.span.start);
        let src_line = file.text.lines().nth(line - 1).unwrap_or("");
        let width = d.span.end.saturating_sub(d.span.start).max(1) as usize;
        let width = width.min(src_line.chars().count().saturating_sub(col - 1).max(1));
        let gutter = line.to_string();
        let _ = writeln!(out, "{gutter} | {src_line}");
        let _ = writeln!(out, "{} | {}{}", " ".repeat(gutter.len()), " ".repeat(col - 1), "^".repeat(width));
        out
    }

    pub fn render_all(&self, diags: &[Diagnostic]) -> String {
        diags.iter().map(|d| self.render(d)).collect()
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// An error located in a preset's source.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { span, message: message.into() }
    }
}

/// ", did you mean `X`?" for the closest known name, if it is close.
pub fn suggest(name: &str, known: Vec<&String>) -> String {
    let best =
        known.into_iter().map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), k)).min_by_key(|x| x.0);
    match best {
        Some((d, k)) if d <= 2.max(name.len() / 3) && d > 0 => format!("; did you mean `{k}`?"),
        _ => String::new(),
    }
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
