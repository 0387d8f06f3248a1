//! Move notation (docs/formats.md): canonical output, Game Courier's full notation and short algebraic input.

use super::board::{Sq, cell};
use super::position::{Move, Position, mflag};
use crate::preset::Preset;

/// One part of a turn as typed, before it is matched against the legal turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// `P e2-e4` or `e2-e4`.
    Move { label: Option<String>, from: String, to: String },
    /// `Q-e8`: put a piece on a square (promotion).
    Put { label: String, to: String },
    /// `Q*e4`.
    Drop { label: String, to: String },
    /// `@-e4` or `e4-`.
    Empty { sq: String },
    /// `@*Q`.
    HandRemove { label: String },
    /// `-e4`.
    RemoveSquare { sq: String },
    /// `won`, `lost`, `drawn`, `resign`.
    Claim(String),
}

/// What a typed turn is: full notation parts, or short algebraic to be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Full(Vec<Part>),
    Short(String),
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error(
        "cannot read `{0}` as a move part (expected e.g. `P e2-e4`, `Q-e8`, `Q*e4`, `@-e4`, `@*Q`, `-e4`, or short notation like `Nf3`)"
    )]
    Unreadable(String),
}

fn is_square(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit) && b[1] != b'0'
}

/// Letters, maybe marked as a promoted kind: `+P`, `Q~`.
fn is_label(s: &str) -> bool {
    let core = s.strip_prefix('+').unwrap_or(s);
    let core = core.strip_suffix('~').unwrap_or(core);
    !core.is_empty() && core.chars().all(|c| c.is_ascii_alphabetic())
}

/// Read what was typed: full notation when any part has `-`, `*` or `@` between squares and labels.
pub fn read(text: &str) -> Result<Typed, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let parts: Vec<&str> = text.split(';').map(str::trim).collect();
    if parts.len() == 1 {
        let t = parts[0];
        if matches!(t, "won" | "lost" | "drawn" | "resign") {
            return Ok(Typed::Full(vec![Part::Claim(t.to_string())]));
        }
        if read_part(t).is_none() || is_castle_text(t) {
            return Ok(Typed::Short(t.to_string()));
        }
    }
    let parts = parts
        .into_iter()
        .map(|p| read_part(p).ok_or_else(|| NotationError::Unreadable(p.to_string())))
        .collect::<Result<_, _>>()?;
    Ok(Typed::Full(parts))
}

fn is_castle_text(t: &str) -> bool {
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0")
}

fn read_part(p: &str) -> Option<Part> {
    let (label, rest) = match p.split_once(' ') {
        Some((l, r)) => (Some(l.trim()), r.trim()),
        None => (None, p),
    };
    if let Some(label) = label {
        // `P e2-e4`
        let (from, to) = rest.split_once('-')?;
        let ok = (is_label(label) || label == "@") && is_square(from) && is_square(to);
        return ok.then(|| Part::Move {
            label: Some(label.to_string()).filter(|l| l != "@"),
            from: from.into(),
            to: to.into(),
        });
    }
    if let Some(sq) = rest.strip_prefix("@-") {
        return is_square(sq).then(|| Part::Empty { sq: sq.into() });
    }
    if let Some(label) = rest.strip_prefix("@*") {
        return is_label(label).then(|| Part::HandRemove { label: label.into() });
    }
    if let Some(sq) = rest.strip_prefix('-') {
        return is_square(sq).then(|| Part::RemoveSquare { sq: sq.into() });
    }
    if let Some(sq) = rest.strip_suffix('-') {
        return is_square(sq).then(|| Part::Empty { sq: sq.into() });
    }
    if let Some((l, sq)) = rest.split_once('*') {
        return (is_label(l) && is_square(sq)).then(|| Part::Drop { label: l.into(), to: sq.into() });
    }
    let (a, b) = rest.split_once('-')?;
    if is_square(a) && is_square(b) {
        return Some(Part::Move { label: None, from: a.into(), to: b.into() });
    }
    let label = a.trim_start_matches('(').trim_end_matches(')');
    (is_label(label) && is_square(b)).then(|| Part::Put { label: label.into(), to: b.into() })
}

/// The canonical parts of a legal move, e.g. `["P e7-e8", "Q-e8"]`.
pub fn canonical_parts(preset: &Preset, pos: &Position, m: Move) -> Vec<Part> {
    let g = &preset.geo;
    let c = pos.cells[m.from.idx()];
    let mut parts =
        vec![Part::Move { label: Some(preset.label_of(c).to_string()), from: g.name(m.from), to: g.name(m.to) }];
    if m.promo != 0 {
        parts.push(Part::Put { label: preset.label_of(m.promo).to_string(), to: g.name(m.to) });
    }
    if m.gate != 0 {
        // Gating: the piece from hand enters where a piece left, `N g1-f3; H*g1`.
        let sq = match (m.flags & mflag::CASTLE != 0, m.flags & mflag::GATE_ROOK != 0) {
            (true, true) => preset.castles[m.extra as usize].rook_from,
            (true, false) => preset.castles[m.extra as usize].king_from,
            _ => m.from,
        };
        parts.push(Part::Drop { label: preset.label_of(m.gate).to_string(), to: g.name(sq) });
    }
    parts
}

pub fn part_text(p: &Part) -> String {
    match p {
        Part::Move { label: Some(l), from, to } => format!("{l} {from}-{to}"),
        Part::Move { label: None, from, to } => format!("{from}-{to}"),
        Part::Put { label, to } => format!("{label}-{to}"),
        Part::Drop { label, to } => format!("{label}*{to}"),
        Part::Empty { sq } => format!("@-{sq}"),
        Part::HandRemove { label } => format!("@*{label}"),
        Part::RemoveSquare { sq } => format!("-{sq}"),
        Part::Claim(c) => c.clone(),
    }
}

/// Canonical text of a legal move in the position before it.
pub fn format_move(preset: &Preset, pos: &Position, m: Move) -> String {
    canonical_parts(preset, pos, m).iter().map(part_text).collect::<Vec<_>>().join("; ")
}

/// Whether a typed part names this canonical part (labels may be given in either case).
fn part_matches(typed: &Part, canon: &Part) -> bool {
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    match (typed, canon) {
        (Part::Move { label: tl, from: tf, to: tt }, Part::Move { label: Some(cl), from: cf, to: ct }) => {
            tf == cf && tt == ct && tl.as_ref().is_none_or(|l| same(l, cl))
        }
        (Part::Put { label: tl, to: tt }, Part::Put { label: cl, to: ct }) => tt == ct && same(tl, cl),
        // Drops and discards come from the mover's own hand: the label's case adds nothing.
        (Part::Drop { label: tl, to: tt }, Part::Drop { label: cl, to: ct }) => tt == ct && same(tl, cl),
        (Part::HandRemove { label: tl }, Part::HandRemove { label: cl }) => same(tl, cl),
        _ => typed == canon,
    }
}

/// Whether typed parts name these canonical parts: `Some(true)` exactly, `Some(false)` as a
/// beginning (the forced parts left out), `None` not at all.
pub fn parts_match(typed: &[Part], canon: &[Part]) -> Option<bool> {
    (typed.len() <= canon.len() && typed.iter().zip(canon).all(|(t, c)| part_matches(t, c)))
        .then_some(typed.len() == canon.len())
}

/// The legal moves that full-notation parts name: exact matches, else those the parts begin (forced parts left out).
pub fn match_full(preset: &Preset, pos: &Position, typed: &[Part], legal: &[Move]) -> Vec<Move> {
    let mut exact = Vec::new();
    let mut prefix = Vec::new();
    for &m in legal {
        let canon = canonical_parts(preset, pos, m);
        if typed.len() <= canon.len() && typed.iter().zip(&canon).all(|(t, c)| part_matches(t, c)) {
            if typed.len() == canon.len() { exact.push(m) } else { prefix.push(m) }
        }
    }
    if exact.is_empty() { prefix } else { exact }
}

/// Short algebraic: `e4`, `Nf3`, `exd5`, `e8=Q`, `O-O`, `(Ab)c3`.
pub fn match_short(preset: &Preset, pos: &Position, text: &str, legal: &[Move]) -> Vec<Move> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    if is_castle_text(t) {
        let long = t.len() > 3;
        return legal
            .iter()
            .copied()
            .filter(|m| m.flags & mflag::CASTLE != 0 && (preset.geo.file(m.to) < preset.geo.file(m.from)) == long)
            .collect();
    }
    let Some(s) = Short::read(t) else { return Vec::new() };
    let g = &preset.geo;
    legal
        .iter()
        .copied()
        .filter(|&m| {
            let c = pos.cells[m.from.idx()];
            let label = preset.kinds[cell::kind(c)].labels.0[0].as_str();
            g.name(m.to) == s.to
                && s.piece.as_deref().unwrap_or("P") == label
                && s.file.is_none_or(|f| g.file(m.from) == f)
                && s.rank.is_none_or(|r| g.rank(m.from) == r)
                && promo_matches(preset, m, s.promo.as_deref())
        })
        .collect()
}

/// The piece label (`P` when none is written) and target square of a short move, to explain a refusal.
pub fn short_target(text: &str) -> Option<(String, String)> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    Short::read(t).map(|s| (s.piece.unwrap_or_else(|| "P".into()), s.to))
}

fn promo_matches(preset: &Preset, m: Move, promo: Option<&str>) -> bool {
    match promo {
        None => true,
        Some(p) => m.promo != 0 && preset.kinds[cell::kind(m.promo)].labels.0[0] == p,
    }
}

/// The pieces of a short-notation move.
struct Short {
    piece: Option<String>,
    file: Option<usize>,
    rank: Option<usize>,
    to: String,
    promo: Option<String>,
}

impl Short {
    fn read(t: &str) -> Option<Short> {
        let (body, promo) = match t.split_once('=') {
            Some((b, p)) => (b, Some(unparen(p)?.to_string())),
            None => match t.char_indices().last() {
                Some((i, c)) if c.is_ascii_uppercase() && i > 0 => (&t[..i], Some(c.to_string())),
                _ => (t, None),
            },
        };
        let (piece, rest) = if let Some(r) = body.strip_prefix('(') {
            let close = r.find(')')?;
            (Some(r[..close].to_string()), &r[close + 1..])
        } else if body.starts_with(|c: char| c.is_ascii_uppercase()) {
            (Some(body[..1].to_string()), &body[1..])
        } else {
            (None, body)
        };
        let to_at = rest.char_indices().rev().find(|&(i, c)| c.is_ascii_lowercase() && is_square(&rest[i..]))?.0;
        let to = rest[to_at..].to_string();
        // `Nxf3`, and `Ng1-f3` / `Ng1f3` (the label glued to the squares) as `e2e4` is.
        let dis = rest[..to_at].trim_end_matches(['x', '-']);
        let mut file = None;
        let mut rank = None;
        let mut chars = dis.chars().peekable();
        if let Some(c) = chars.next_if(|c| c.is_ascii_lowercase()) {
            file = Some((c as u8 - b'a') as usize);
        }
        let digits: String = chars.collect();
        if !digits.is_empty() {
            rank = Some(digits.parse::<usize>().ok()?.checked_sub(1)?);
        }
        Some(Short { piece, file, rank, to, promo })
    }
}

fn unparen(p: &str) -> Option<&str> {
    let p = p.trim_start_matches('(').trim_end_matches(')');
    is_label(p).then_some(p)
}

/// Squares named in typed parts, for explaining why a turn is illegal.
pub fn first_move_squares(preset: &Preset, typed: &Typed) -> Option<(Sq, Sq)> {
    match typed {
        Typed::Full(parts) => parts.iter().find_map(|p| match p {
            Part::Move { from, to, .. } => Some((preset.geo.parse_square(from)?, preset.geo.parse_square(to)?)),
            _ => None,
        }),
        Typed::Short(_) => None,
    }
}
