//! The grammar's closed word sets (`side white up`, `end stalemate draws`, `on after move`, `a + b`)
//! and what each word means, one table per set. The parser looks words up here instead of falling
//! through to a default, so a word added to the grammar but not here is an error, never a silent
//! meaning; a test compares every table with its rule in `grammar/preset.pest`.

use super::ast::{Direction, EndKind, Outcome, Shade};
use super::script::{BinOp, HookPoint, Phase};
use super::span::Span;
use crate::diag::Diagnostic;

/// One closed word set: the grammar rule it mirrors (for the test and the error) and its words.
pub(super) struct Keywords<T: 'static> {
    pub(super) rule: &'static str,
    pub(super) words: &'static [(&'static str, T)],
}

impl<T: Copy> Keywords<T> {
    /// The meaning of `word`. A miss means the grammar accepts a word this table lacks: a bug in
    /// Herald, reported at the word rather than given a guessed meaning.
    pub(super) fn get(&self, word: &str, span: Span) -> Result<T, Diagnostic> {
        // Operators such as `not   in` may span whitespace; the table spells them with one space.
        let norm = word.split_whitespace().collect::<Vec<_>>().join(" ");
        self.words.iter().find(|(w, _)| *w == norm).map(|(_, t)| *t).ok_or_else(|| {
            Diagnostic::new(span, format!("internal error: the grammar's {} `{word}` has no meaning here", self.rule))
        })
    }
}

pub(super) const SHADES: Keywords<Shade> =
    Keywords { rule: "shade", words: &[("light", Shade::Light), ("dark", Shade::Dark)] };

/// `true` for White.
pub(super) const SIDE_NAMES: Keywords<bool> =
    Keywords { rule: "side_name", words: &[("white", true), ("black", false)] };

pub(super) const DIRECTIONS: Keywords<Direction> = Keywords {
    rule: "direction",
    words: &[("up", Direction::Up), ("down", Direction::Down), ("left", Direction::Left), ("right", Direction::Right)],
};

pub(super) const ON_OFF: Keywords<bool> = Keywords { rule: "on_off", words: &[("on", true), ("off", false)] };

pub(super) const OUTCOMES: Keywords<Outcome> = Keywords {
    rule: "outcome",
    words: &[("wins", Outcome::Wins), ("loses", Outcome::Loses), ("draws", Outcome::Draws)],
};

/// `true` for the first piece in hand.
pub(super) const HAND_ENDS: Keywords<bool> = Keywords { rule: "hand_end", words: &[("first", true), ("last", false)] };

pub(super) const END_KINDS: Keywords<EndKind> = Keywords {
    rule: "end_kind",
    words: &[
        ("checks", EndKind::Checks),
        ("checkmate", EndKind::Checkmate),
        ("stalemate", EndKind::Stalemate),
        ("repetition", EndKind::Repetition),
        ("moves", EndKind::MoveLimit),
        ("insufficient", EndKind::Insufficient),
        ("passes", EndKind::Passes),
        ("facing", EndKind::Facing),
        ("reach", EndKind::Reach),
        ("extinction", EndKind::Extinction),
        ("bare", EndKind::Bare),
    ],
};

pub(super) const PHASES: Keywords<Phase> = Keywords {
    rule: "phase",
    words: &[("before", Phase::Before), ("validate", Phase::Validate), ("after", Phase::After)],
};

pub(super) const SIMPLE_POINTS: Keywords<HookPoint> = Keywords {
    rule: "simple_point",
    words: &[
        ("turn_start", HookPoint::TurnStart),
        ("turn_end", HookPoint::TurnEnd),
        ("capture", HookPoint::Capture),
        ("game_end", HookPoint::GameEnd),
        ("announce", HookPoint::Announce),
        ("setup", HookPoint::Setup),
    ],
};

/// Every binary operator, from the five operator rules.
pub(super) const BIN_OPS: Keywords<BinOp> = Keywords {
    rule: "operator",
    words: &[
        ("+", BinOp::Add),
        ("-", BinOp::Sub),
        ("*", BinOp::Mul),
        ("/", BinOp::Div),
        ("%", BinOp::Rem),
        ("==", BinOp::Eq),
        ("!=", BinOp::Ne),
        ("<", BinOp::Lt),
        ("<=", BinOp::Le),
        (">", BinOp::Gt),
        (">=", BinOp::Ge),
        ("in", BinOp::In),
        ("not in", BinOp::NotIn),
        ("and", BinOp::And),
        ("or", BinOp::Or),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const GRAMMAR: &str = include_str!("../../grammar/preset.pest");

    /// The body of `rule = { ... }` (or `@{`, `_{`), on one line as every word-set rule is written.
    fn body(rule: &str) -> &'static str {
        let line = GRAMMAR
            .lines()
            .find(|l| l.split_whitespace().next() == Some(rule) && l.contains('='))
            .unwrap_or_else(|| panic!("no rule `{rule}` in grammar/preset.pest"));
        let open = line.find('{').expect("rule body");
        let close = line.rfind('}').expect("rule body");
        &line[open + 1..close]
    }

    /// The words a rule accepts: each top-level alternative's literals joined by a space, rules it
    /// names followed; `!ident_char`, `WHITESPACE+` and grouping are not words.
    fn words(rule: &str) -> BTreeSet<String> {
        let text = body(rule).replace("!ident_char", "").replace("WHITESPACE+", "");
        let text = text.trim().trim_start_matches('(');
        let text = text.split(')').next().unwrap_or(text);
        let mut out = BTreeSet::new();
        for alt in text.split('|') {
            let mut lits = Vec::new();
            let mut refs = Vec::new();
            let mut rest = alt;
            while let Some(i) = rest.find(|c: char| c == '"' || c.is_ascii_alphabetic()) {
                rest = &rest[i..];
                if let Some(r) = rest.strip_prefix('"') {
                    let end = r.find('"').expect("closing quote");
                    lits.push(r[..end].to_string());
                    rest = &r[end + 1..];
                } else {
                    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                    refs.push(rest[..end].to_string());
                    rest = &rest[end..];
                }
            }
            if !lits.is_empty() {
                out.insert(lits.join(" "));
            }
            for r in refs {
                out.extend(words(&r));
            }
        }
        out
    }

    fn same<T: Copy>(k: &Keywords<T>, rules: &[&str]) {
        let grammar: BTreeSet<String> = rules.iter().flat_map(|r| words(r)).collect();
        let table: BTreeSet<String> = k.words.iter().map(|(w, _)| w.to_string()).collect();
        assert_eq!(grammar, table, "the `{}` table and the grammar disagree", k.rule);
        for (w, _) in k.words {
            assert!(k.get(w, Span::default()).is_ok());
        }
    }

    #[test]
    fn every_table_matches_its_grammar_rule() {
        same(&SHADES, &["shade"]);
        same(&SIDE_NAMES, &["side_name"]);
        same(&DIRECTIONS, &["direction"]);
        same(&ON_OFF, &["on_off"]);
        same(&OUTCOMES, &["outcome"]);
        same(&HAND_ENDS, &["hand_end"]);
        same(&END_KINDS, &["end_kind"]);
        same(&PHASES, &["phase"]);
        same(&SIMPLE_POINTS, &["simple_point"]);
        same(&BIN_OPS, &["add_op", "mul_op", "cmp_op", "and_op", "or_op"]);
        let kinds: BTreeSet<String> =
            crate::syntax::script::PartKind::ALL.iter().map(|k| k.word().to_string()).collect();
        assert_eq!(words("part_kind"), kinds, "PartKind's words and the grammar's part_kind disagree");
    }

    #[test]
    fn a_word_missing_from_a_table_is_an_error_at_the_word() {
        let span = Span::default();
        let e = DIRECTIONS.get("sideways", span).err().map(|d| d.message);
        assert_eq!(e.as_deref(), Some("internal error: the grammar's direction `sideways` has no meaning here"));
        assert_eq!(BIN_OPS.get("not \t in", span).ok(), Some(BinOp::NotIn));
    }
}
