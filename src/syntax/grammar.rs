//! The pest parser generated from `grammar/preset.pest`, and the lowering context both halves of the
//! parser share (declarations in `parse.rs`, scripts in `parse_script.rs`).

use super::ast::Name;
use super::keywords::Keywords;
use super::span::{SourceId, Span, Spanned};
use crate::diag::Diagnostic;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/preset.pest"]
pub(super) struct PresetParser;

pub(super) type P<'a> = Pair<'a, Rule>;

pub(super) struct Lower {
    pub(super) src: SourceId,
}

impl Lower {
    pub(super) fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.src, s.start(), s.end())
    }

    pub(super) fn name(&self, p: P) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    /// A string literal: the unescaped text, spanned by the text inside the quotes.
    pub(super) fn string(&self, p: P) -> Name {
        let body = p.into_inner().next();
        match body {
            Some(b) => Spanned::new(unescape(b.as_str()), self.span(&b)),
            None => Spanned::new(String::new(), Span::default()),
        }
    }

    pub(super) fn int(&self, p: P) -> Result<Spanned<u32>, Diagnostic> {
        let span = self.span(&p);
        p.as_str()
            .parse()
            .map(|n| Spanned::new(n, span))
            .map_err(|_| Diagnostic::new(span, format!("number `{}` is too large", p.as_str())))
    }

    /// A word of one of the grammar's closed sets, looked up in its table.
    pub(super) fn keyword<T: Copy>(&self, k: &Keywords<T>, p: P) -> Result<T, Diagnostic> {
        k.get(p.as_str(), self.span(&p))
    }
}

/// A grammar rule where the lowering does not expect it: a rule added to the grammar and not yet
/// handled. An error at the text, never a guessed meaning.
pub(super) fn unexpected(rule: Rule, span: Span) -> Diagnostic {
    Diagnostic::new(span, format!("internal error: the grammar's {rule:?} is not handled here"))
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}
