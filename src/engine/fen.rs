//! The extended FEN of docs/formats.md: holes, long labels, hands, optional trailing fields.

use super::board::{Sq, cell};
use super::position::{EpState, Move, Position, mflag};
use super::side::{BySide, Side};
use crate::preset::Preset;

/// The longest FEN accepted; anything longer is not a position a person typed.
pub const MAX_FEN_BYTES: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FenError {
    #[error("the FEN is empty")]
    Empty,
    #[error("the FEN is {0} bytes long; the limit is {MAX_FEN_BYTES}")]
    TooLong(usize),
    #[error("the board has {found} ranks, this preset's board has {expected}")]
    RankCount { found: usize, expected: usize },
    #[error("rank {rank} describes {found} squares, this preset's board has {expected} files")]
    RankWidth { rank: usize, found: usize, expected: usize },
    #[error("rank {rank}: no piece has the label `{label}`")]
    UnknownLabel { rank: usize, label: String },
    #[error("rank {rank}: unexpected `{ch}`")]
    BadChar { rank: usize, ch: char },
    #[error("rank {rank}: `(` without a closing `)`")]
    Unclosed { rank: usize },
    #[error("the hand `[{0}]` is not closed with `]`")]
    UnclosedHand(String),
    #[error("hand: no piece has the label `{0}`")]
    HandLabel(String),
    #[error("the side to move must be `w` or `b`, not `{0}`")]
    Side(String),
    #[error("castling `{0}`: {1}")]
    Castling(String, String),
    #[error("en passant `{0}`: {1}")]
    EnPassant(String, String),
    #[error("the {field} must be a whole number, not `{text}`")]
    Number { field: &'static str, text: String },
    #[error("this preset has no state, but the FEN gives `{{{0}}}`")]
    State(String),
    #[error("unexpected `{0}` after the move number")]
    Trailing(String),
    #[error("state field: {0}")]
    BadState(String),
    #[error("checks `{0}`: {1}")]
    Checks(String, String),
}

/// The board part of a FEN (holes, pieces), as mailbox cells without virgin flags.
pub fn parse_board_only(preset: &Preset, fen: &str) -> Result<Vec<u8>, FenError> {
    let field = fen.split_whitespace().next().ok_or(FenError::Empty)?;
    let (board, _) = split_hand(field)?;
    let pos = parse_board(preset, board)?;
    Ok(pos.cells)
}

fn split_hand(field: &str) -> Result<(&str, Option<&str>), FenError> {
    match field.find('[') {
        None => Ok((field, None)),
        Some(i) => {
            let rest = &field[i + 1..];
            let hand = rest.strip_suffix(']').ok_or_else(|| FenError::UnclosedHand(rest.to_string()))?;
            Ok((&field[..i], Some(hand)))
        }
    }
}

fn parse_board(preset: &Preset, board: &str) -> Result<Position, FenError> {
    let geo = &preset.geo;
    let z = &preset.zobrist;
    let mut pos = Position::empty(preset);
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != geo.ranks {
        return Err(FenError::RankCount { found: ranks.len(), expected: geo.ranks });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = geo.ranks - 1 - i;
        let shown = rank + 1;
        let mut file = 0usize;
        let mut chars = text.char_indices().peekable();
        let put = |file: &mut usize, value: Option<u8>, pos: &mut Position| {
            if let (true, Some(v)) = (*file < geo.files, value) {
                pos.place(z, geo.square(*file, rank), v);
            }
            *file += 1;
        };
        while let Some((at, ch)) = chars.next() {
            match ch {
                '0'..='9' => {
                    let mut end = at + 1;
                    while let Some(&(j, d)) = chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        end = j + 1;
                        chars.next();
                    }
                    let n: usize = text[at..end].parse().map_err(|_| FenError::BadChar { rank: shown, ch })?;
                    // Saturating: a count of twenty digits must not wrap round to a small width.
                    if n == 0 || file.saturating_add(n) > geo.files {
                        return Err(FenError::RankWidth {
                            rank: shown,
                            found: file.saturating_add(n),
                            expected: geo.files,
                        });
                    }
                    file += n;
                }
                '*' => put(&mut file, Some(cell::HOLE), &mut pos),
                '(' => {
                    let close = text[at..].find(')').ok_or(FenError::Unclosed { rank: shown })?;
                    let label = &text[at + 1..at + close];
                    let code = piece_code(preset, label)
                        .ok_or_else(|| FenError::UnknownLabel { rank: shown, label: label.into() })?;
                    put(&mut file, Some(code), &mut pos);
                    while chars.peek().is_some_and(|&(j, _)| j <= at + close) {
                        chars.next();
                    }
                }
                // A promoted piece as Fairy-Stockfish writes it: `+P` (shogi) or `Q~` (crazyhouse).
                c if c.is_ascii_alphabetic() || c == '+' => {
                    let mut label = c.to_string();
                    if c == '+'
                        && let Some(&(_, l)) = chars.peek()
                        && l.is_ascii_alphabetic()
                    {
                        label.push(l);
                        chars.next();
                    }
                    if chars.peek().is_some_and(|&(_, t)| t == '~') {
                        label.push('~');
                        chars.next();
                    }
                    let code = piece_code(preset, &label).ok_or(FenError::UnknownLabel { rank: shown, label })?;
                    put(&mut file, Some(code), &mut pos);
                }
                _ => return Err(FenError::BadChar { rank: shown, ch }),
            }
        }
        if file != geo.files {
            return Err(FenError::RankWidth { rank: shown, found: file, expected: geo.files });
        }
    }
    Ok(pos)
}

fn piece_code(preset: &Preset, label: &str) -> Option<u8> {
    preset.kind_by_label(label).map(|(k, s)| cell::piece(k, s))
}

/// Reads the state field (`{name=value,...}`, braces included) into the position's state
/// variables. Its values are script literals, so the reader comes from the play layer
/// (`play::fen::parse`); this layer only splits the field off.
pub type StateReader<'a> = &'a dyn Fn(&Preset, &str, &mut Position) -> Result<(), FenError>;

/// Parse a whole extended FEN into a position of this preset, the state field with `read_state`.
pub fn parse_with(preset: &Preset, fen: &str, read_state: StateReader) -> Result<Position, FenError> {
    if fen.len() > MAX_FEN_BYTES {
        return Err(FenError::TooLong(fen.len()));
    }
    let (fen, state) = match fen.find('{') {
        Some(i) => (&fen[..i], Some(fen[i..].trim())),
        None => (fen, None),
    };
    if let Some(st) = state {
        let inner = st.trim_start_matches('{').trim_end_matches('}').trim();
        if !inner.is_empty() && !preset.script.has_state() {
            return Err(FenError::State(inner.to_string()));
        }
    }
    let mut fields = fen.split_whitespace();
    let (board, hand) = split_hand(fields.next().ok_or(FenError::Empty)?)?;
    let mut pos = parse_board(preset, board)?;
    if let Some(hand) = hand {
        parse_hand(preset, hand, &mut pos)?;
    }
    pos.side = match fields.next() {
        None | Some("w") => Side::White,
        Some("b") => Side::Black,
        Some(other) => return Err(FenError::Side(other.to_string())),
    };
    mark_virgins(preset, &mut pos);
    castling(preset, fields.next().unwrap_or("-"), &mut pos)?;
    en_passant(preset, fields.next().unwrap_or("-"), &mut pos)?;
    let mut clock = fields.next();
    if preset.check_limit != 0
        && let Some(f) = clock.filter(|f| f.contains('+'))
    {
        pos.checks = checks(preset, f)?;
        clock = fields.next();
    }
    pos.halfmove = number(clock, "half-move clock", 0)?;
    pos.fullmove = number(fields.next(), "move number", 1)?.max(1);
    if let Some(extra) = fields.next() {
        return Err(FenError::Trailing(extra.to_string()));
    }
    if let Some(st) = state {
        read_state(preset, st, &mut pos)?;
    }
    pos.rehash(preset);
    Ok(pos)
}

/// `end checks N`: the checks each side has left to give, `W+B` (`3+3` at the start of 3check).
fn checks(preset: &Preset, field: &str) -> Result<BySide<u8>, FenError> {
    let limit = preset.check_limit;
    let bad = |why: String| FenError::Checks(field.to_string(), why);
    let (w, b) = field.split_once('+').ok_or_else(|| bad("expected `W+B`".into()))?;
    let read = |t: &str| -> Result<u8, FenError> {
        match t.parse::<u8>() {
            Ok(n) if n <= limit => Ok(n),
            _ => Err(bad(format!("`{t}` is not a count of checks from 0 to {limit}"))),
        }
    };
    Ok(BySide::new(read(w)?, read(b)?))
}

/// The `{name=value,...}` field: the state variables that differ from their initial values.
fn write_state(preset: &Preset, pos: &Position) -> String {
    let items: Vec<String> = preset
        .script
        .globals
        .iter()
        .enumerate()
        .filter(|(i, g)| g.state && pos.state[*i] != g.init)
        .map(|(i, g)| format!("{}={}", g.name, pos.state[i].show(preset)))
        .collect();
    if items.is_empty() { String::new() } else { format!(" {{{}}}", items.join(",")) }
}

fn parse_hand(preset: &Preset, hand: &str, pos: &mut Position) -> Result<(), FenError> {
    let mut chars = hand.char_indices();
    while let Some((at, ch)) = chars.next() {
        let label = if ch == '(' {
            let close = hand[at..].find(')').ok_or_else(|| FenError::UnclosedHand(hand.to_string()))?;
            for _ in 0..close {
                chars.next();
            }
            hand[at + 1..at + close].to_string()
        } else if ch == '-' && hand.len() == 1 {
            // `[-]`: Fairy-Stockfish's shogi setups write empty hands so.
            continue;
        } else {
            ch.to_string()
        };
        let (kind, side) = preset.kind_by_label(&label).ok_or(FenError::HandLabel(label))?;
        pos.hands[side].push(kind as u8);
    }
    if preset.hand_pool {
        // A pool is kept in kind order, as it is written.
        for side in Side::BOTH {
            pos.hands[side].sort_unstable();
        }
    }
    Ok(())
}

fn number(field: Option<&str>, name: &'static str, default: u32) -> Result<u32, FenError> {
    match field {
        None | Some("-") => Ok(default),
        Some(t) => t.parse().map_err(|_| FenError::Number { field: name, text: t.to_string() }),
    }
}

/// Pieces standing where the setup puts the same piece have not moved; castling pieces are decided by the flags.
fn mark_virgins(preset: &Preset, pos: &mut Position) {
    for &sq in &preset.geo.squares {
        let c = pos.cells[sq.idx()];
        let castles = preset.castles.iter().any(|k| k.king == c || k.rook == c);
        // On a gating square, only the castling field's gate letters say a piece has not moved.
        let gate = preset.unmoved_letters().is_some_and(|g| cell::is_piece(c) && g[cell::side(c)][sq.idx()]);
        if cell::is_piece(c) && !castles && !gate && preset.setup_cells.get(sq.idx()) == Some(&c) {
            pos.cells[sq.idx()] = cell::with_unmoved(c);
        }
    }
}

fn castling(preset: &Preset, field: &str, pos: &mut Position) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    // A preset without castling has nothing to grant: a chess FEN's `KQkq` means nothing here, and
    // refusing it would only get in the way of positions carried over from other tools.
    if preset.castles.is_empty() && preset.unmoved_letters().is_none() && field.chars().all(|c| c.is_ascii_alphabetic())
    {
        return Ok(());
    }
    for flag in field.chars() {
        if let Some(g) = preset.unmoved_letters()
            && !preset.castles.iter().any(|c| c.flag == flag)
        {
            gate_letter(preset, g, field, flag, pos)?;
            continue;
        }
        let rule =
            preset.castles.iter().find(|c| c.flag == flag).ok_or_else(|| {
                FenError::Castling(field.into(), format!("this preset has no castling flag `{flag}`"))
            })?;
        for (sq, code) in [(rule.king_from, rule.king), (rule.rook_from, rule.rook)] {
            let c = cell::code(pos.cells[sq.idx()]);
            if c != code {
                let why = format!("`{flag}` needs {} on {}", preset.label_of(code), preset.geo.name(sq));
                return Err(FenError::Castling(field.into(), why));
            }
            pos.cells[sq.idx()] = cell::with_unmoved(code);
        }
    }
    Ok(())
}

/// A gate letter of Seirawan's castling field, as Fairy-Stockfish writes it: the file (upper case
/// for White) whose piece on the side's gating squares has not moved.
fn gate_letter(
    preset: &Preset,
    g: &crate::engine::side::BySide<Vec<bool>>,
    field: &str,
    flag: char,
    pos: &mut Position,
) -> Result<(), FenError> {
    let side = if flag.is_ascii_uppercase() { Side::White } else { Side::Black };
    let file = (flag.to_ascii_lowercase() as u8).wrapping_sub(b'a') as usize;
    if !flag.is_ascii_alphabetic() || file >= preset.geo.files {
        let why = format!("`{flag}` is neither a castling flag nor a file of this board");
        return Err(FenError::Castling(field.into(), why));
    }
    // With nothing to gate and no captures to refill the hand, gates are closed.
    if preset.gating.is_some() && pos.hands[side].is_empty() && !preset.captures_to_hand {
        return Ok(());
    }
    let mut found = false;
    for &sq in &preset.geo.squares {
        let c = pos.cells[sq.idx()];
        if preset.geo.file(sq) == file && g[side][sq.idx()] && cell::is_side(c, side) {
            pos.cells[sq.idx()] = cell::with_unmoved(c);
            found = true;
        }
    }
    if !found {
        return Err(FenError::Castling(field.into(), format!("`{flag}` names a gate with no {side} piece on it")));
    }
    Ok(())
}

fn en_passant(preset: &Preset, field: &str, pos: &mut Position) -> Result<(), FenError> {
    // Fairy-Stockfish writes its endgame counting limit here (makruk, ASEAN chess: `... b - 128 8 2`,
    // the halfmove field then holding the count). Counting is not modelled: the number is read and
    // ignored, so that such FENs carry over.
    if field == "-" || field.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    let geo = &preset.geo;
    let sq = geo
        .parse_square(field)
        .ok_or_else(|| FenError::EnPassant(field.into(), "not a square of this board".into()))?;
    let mover = pos.side.other();
    let fwd = super::movement::orient((0, 1), preset.forward[mover]);
    let step = geo.delta(fwd.0, fwd.1);
    let victim = [1, 2].iter().map(|&k| sq.offset(k * step)).find(|&v| cell::is_side(pos.cells[v.idx()], mover));
    let victim =
        victim.ok_or_else(|| FenError::EnPassant(field.into(), format!("no {} piece has just passed it", mover)))?;
    let mut ep = EpState { squares: [sq, Sq::NONE], victim, hashed: false };
    if pos.cells[sq.idx()] != cell::EMPTY {
        return Err(FenError::EnPassant(field.into(), "the square is not empty".into()));
    }
    let between = sq.offset(step);
    if between != victim && pos.cells[between.idx()] == cell::EMPTY {
        ep.squares[1] = between;
    }
    pos.ep = ep;
    let mut tmp = pos.clone();
    tmp.ep.hashed = true;
    pos.ep.hashed = has_ep_capture(preset, &mut tmp);
    Ok(())
}

/// Whether the side to move has an en passant capture, legal or not.
fn has_ep_capture(preset: &Preset, pos: &mut Position) -> bool {
    let mut moves = Vec::new();
    pos.pseudo_moves(preset, &mut moves);
    moves.iter().any(|m: &Move| m.flags & mflag::EP != 0)
}

/// The extended FEN of a position. The e.p. square is written when the side to move has an e.p.
/// capture, legal or not (a pinned pawn's counts): as Fairy-Stockfish writes it, and as the hash
/// holds it, so that a position read back from its FEN hashes as the one reached by play.
pub fn write(preset: &Preset, pos: &Position) -> String {
    let geo = &preset.geo;
    let mut out = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut run = 0;
        for file in 0..geo.files {
            let c = pos.cells[geo.square(file, rank).idx()];
            if c == cell::EMPTY {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            if c == cell::HOLE {
                out.push('*');
            } else {
                out.push_str(&preset.kinds[cell::kind(c)].fen_label(cell::side(c)));
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    if preset.hand_pool {
        // A pool, as Fairy-Stockfish writes it: always bracketed, in the order of the kinds.
        out.push('[');
        for side in Side::BOTH {
            for (k, kind) in preset.kinds.iter().enumerate() {
                for _ in pos.hands[side].iter().filter(|&&h| h as usize == k) {
                    out.push_str(&kind.fen_label(side));
                }
            }
        }
        out.push(']');
    } else if !pos.hands[Side::White].is_empty() || !pos.hands[Side::Black].is_empty() {
        out.push('[');
        for side in Side::BOTH {
            for &k in &pos.hands[side] {
                out.push_str(&preset.kinds[k as usize].fen_label(side));
            }
        }
        out.push(']');
    }
    let castle_flags = |side: Option<Side>| -> String {
        preset
            .castles
            .iter()
            .filter(|c| {
                side.is_none_or(|s| c.side == s)
                    && pos.cells[c.king_from.idx()] == cell::with_unmoved(c.king)
                    && pos.cells[c.rook_from.idx()] == cell::with_unmoved(c.rook)
            })
            .map(|c| c.flag)
            .collect()
    };
    let castling: String = match preset.unmoved_letters() {
        None => castle_flags(None),
        // Fairy-Stockfish's Seirawan field: each side's castling flags, then the files of its
        // open gates (while it has something to gate, or captures refill its hand).
        Some(g) => {
            let mut text = String::new();
            for side in Side::BOTH {
                text.push_str(&castle_flags(Some(side)));
                if preset.gating.is_some() && pos.hands[side].is_empty() && !preset.captures_to_hand {
                    continue;
                }
                for file in 0..geo.files {
                    // `fen_unmoved`: only pieces with initial moves, whose having moved matters.
                    let open = preset.geo.squares.iter().any(|&sq| {
                        let c = pos.cells[sq.idx()];
                        geo.file(sq) == file
                            && g[side][sq.idx()]
                            && cell::is_side(c, side)
                            && cell::unmoved(c)
                            && (preset.gating.is_some() || preset.kinds[cell::kind(c)].cares_virgin)
                    });
                    if open {
                        let letter = (b'a' + file as u8) as char;
                        text.push(if side == Side::White { letter.to_ascii_uppercase() } else { letter });
                    }
                }
            }
            text
        }
    };
    let mut tmp = pos.clone();
    let ep = if pos.ep.squares[0] != Sq::NONE && has_ep_capture(preset, &mut tmp) {
        geo.name(pos.ep.squares[0])
    } else {
        "-".into()
    };
    let checks = if preset.check_limit != 0 {
        format!(" {}+{}", pos.checks[Side::White], pos.checks[Side::Black])
    } else {
        String::new()
    };
    format!(
        "{out} {} {} {ep}{checks} {} {}{}",
        pos.side.fen_char(),
        if castling.is_empty() { "-".to_string() } else { castling },
        pos.halfmove,
        pos.fullmove,
        write_state(preset, pos)
    )
}
