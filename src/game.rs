//! A game in progress: a preset, its position, and the turns played, with clear errors that change nothing.

use crate::engine::board::cell;
use crate::engine::fen::{self, FenError};
use crate::engine::notation::{self, NotationError, Typed};
use crate::engine::position::{Move, mflag};
use crate::engine::{GameOver, Position, Side};
use crate::preset::Preset;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("the game is over: {0}")]
    GameOver(String),
    #[error("{0} is not a square of this board")]
    NoSquare(String),
    #[error("no piece on {0}")]
    NoPiece(String),
    #[error("the piece on {sq} is {owner}'s, and it is {mover} to move")]
    NotYours { sq: String, owner: Side, mover: Side },
    #[error("the piece on {sq} is {actual}, not {typed}")]
    WrongLabel { sq: String, actual: String, typed: String },
    #[error("{label} on {from} cannot move to {to}")]
    CannotMove { label: String, from: String, to: String },
    #[error("{turn} would leave the {royal} in check")]
    IntoCheck { turn: String, royal: String },
    #[error("cannot castle {turn}: {why}")]
    Castle { turn: String, why: String },
    #[error("`{text}` is ambiguous here: it could be {options}")]
    Ambiguous { text: String, options: String },
    #[error("`{0}` is not a legal turn here")]
    Illegal(String),
    #[error("no {side} {label} can move to {to}")]
    NoShortMove { text: String, side: Side, label: String, to: String },
    #[error("the claim `{claim}` does not hold: {actual}")]
    Claim { claim: String, actual: String },
}

#[derive(Clone, Debug)]
pub struct Played {
    pub mv: Move,
    pub text: String,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub preset: Arc<Preset>,
    pub pos: Position,
    pub start_fen: String,
    pub seed: Option<u64>,
    pub played: Vec<Played>,
    /// A result declared by a turn (resignation), beside those the rules find.
    pub declared: Option<GameOver>,
}

impl Game {
    pub fn new(preset: Arc<Preset>, fen: Option<&str>, seed: Option<u64>) -> Result<Game, FenError> {
        let start = fen.unwrap_or(&preset.setup).to_string();
        let pos = fen::parse(&preset, &start)?;
        Ok(Game { preset, pos, start_fen: start, seed, played: Vec::new(), declared: None })
    }

    pub fn legal(&mut self) -> Vec<Move> {
        let mut v = Vec::new();
        if self.declared.is_none() && self.pos.static_result(&self.preset).is_none() {
            self.pos.legal_moves(&self.preset, &mut v);
        }
        v
    }

    pub fn text(&self, m: Move) -> String {
        notation::format_move(&self.preset, &self.pos, m)
    }

    /// Every legal turn in canonical notation, sorted.
    pub fn legal_texts(&mut self) -> Vec<String> {
        let moves = self.legal();
        let mut v: Vec<String> = moves.into_iter().map(|m| self.text(m)).collect();
        v.sort();
        v
    }

    pub fn result(&mut self) -> Option<GameOver> {
        if let Some(d) = &self.declared {
            return Some(d.clone());
        }
        if let Some(r) = self.pos.static_result(&self.preset) {
            return Some(r);
        }
        let has = !self.legal().is_empty();
        self.pos.result(&self.preset, has)
    }

    pub fn result_text(&mut self) -> String {
        self.result().map_or("ongoing".to_string(), |r| r.to_string())
    }

    pub fn fen(&self) -> String {
        fen::write(&self.preset, &self.pos)
    }

    /// Play a typed turn; on any error the position is unchanged.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let typed = notation::read(text)?;
        if let Typed::Full(parts) = &typed
            && let [notation::Part::Claim(c)] = parts.as_slice()
        {
            return self.claim(c);
        }
        if let Some(r) = self.result() {
            return Err(MoveError::GameOver(r.to_string()));
        }
        let m = self.resolve(text, &typed)?;
        let t = self.text(m);
        self.pos.make(&self.preset, m);
        self.played.push(Played { mv: m, text: t.clone() });
        Ok(t)
    }

    /// Find the one legal move a typed turn names, or explain why there is none.
    pub fn resolve(&mut self, text: &str, typed: &Typed) -> Result<Move, MoveError> {
        let legal = self.legal();
        let found = match typed {
            Typed::Full(parts) => notation::match_full(&self.preset, &self.pos, parts, &legal),
            Typed::Short(s) => notation::match_short(&self.preset, &self.pos, s, &legal),
        };
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(self.explain(text, typed)),
            _ => {
                let mut options: Vec<String> = found.iter().map(|&m| format!("`{}`", self.text(m))).collect();
                options.sort();
                Err(MoveError::Ambiguous { text: text.trim().to_string(), options: options.join(" or ") })
            }
        }
    }

    fn explain(&mut self, text: &str, typed: &Typed) -> MoveError {
        let g = &self.preset.geo;
        let illegal = MoveError::Illegal(text.trim().to_string());
        let parts = match typed {
            Typed::Full(parts) => parts,
            Typed::Short(s) => return self.explain_short(s).unwrap_or(illegal),
        };
        let Some(notation::Part::Move { label, from, to }) = parts.first() else { return illegal };
        let (Some(f), Some(t)) = (g.parse_square(from), g.parse_square(to)) else {
            let bad = if g.parse_square(from).is_none() { from } else { to };
            return MoveError::NoSquare(bad.clone());
        };
        let c = self.pos.cells[f as usize];
        if !cell::is_piece(c) {
            return MoveError::NoPiece(from.clone());
        }
        let actual = self.preset.label_of(c).to_string();
        if cell::side(c) != self.pos.side {
            return MoveError::NotYours { sq: from.clone(), owner: cell::side(c), mover: self.pos.side };
        }
        if let Some(l) = label.as_ref().filter(|l| !l.eq_ignore_ascii_case(&actual)) {
            return MoveError::WrongLabel { sq: from.clone(), actual, typed: l.clone() };
        }
        if let Some(why) = self.castle_reason(f, t) {
            return MoveError::Castle { turn: format!("{actual} {from}-{to}"), why };
        }
        let mut pseudo = Vec::new();
        self.pos.pseudo_moves(&self.preset, &mut pseudo);
        if pseudo.iter().any(|m| m.from == f && m.to == t) {
            let royal = self.preset.kinds.iter().find(|k| k.royal).map_or("royal piece".into(), |k| k.name.clone());
            return MoveError::IntoCheck { turn: format!("{actual} {from}-{to}"), royal };
        }
        MoveError::CannotMove { label: actual, from: from.clone(), to: to.clone() }
    }

    fn explain_short(&self, text: &str) -> Option<MoveError> {
        let (label, to) = notation::short_target(text)?;
        if self.preset.geo.parse_square(&to).is_none() {
            return Some(MoveError::NoSquare(to));
        }
        Some(MoveError::NoShortMove { text: text.to_string(), side: self.pos.side, label, to })
    }

    /// Why a king move that matches a castling rule is not allowed now.
    fn castle_reason(&self, from: u16, to: u16) -> Option<String> {
        let p = &self.preset;
        let c = p.castles.iter().find(|c| c.side == self.pos.side && c.king_from == from && c.king_to == to)?;
        let cells = &self.pos.cells;
        if cells[from as usize] != c.king | cell::VIRGIN || cells[c.rook_from as usize] != c.rook | cell::VIRGIN {
            return Some("the right to castle this way is lost".into());
        }
        if let Some(&s) = c.empty.iter().find(|&&s| cells[s as usize] != cell::EMPTY) {
            return Some(format!("{} is not empty", p.geo.name(s)));
        }
        if self.pos.attacked(p, from, self.pos.side.other()) {
            return Some("the king is in check".into());
        }
        c.safe
            .iter()
            .find(|&&s| self.pos.attacked(p, s, self.pos.side.other()))
            .map(|&s| format!("{} is attacked", p.geo.name(s)))
    }

    fn claim(&mut self, claim: &str) -> Result<String, MoveError> {
        let mover = self.pos.side;
        if claim == "resign" {
            if let Some(r) = self.result() {
                return Err(MoveError::GameOver(r.to_string()));
            }
            self.declared = Some(GameOver { winner: Some(mover.other()), reason: format!("{mover} resigns") });
            return Ok("resign".into());
        }
        let actual = self.result();
        let holds = match (claim, &actual) {
            ("won", Some(r)) => r.winner == Some(mover),
            ("lost", Some(r)) => r.winner == Some(mover.other()),
            ("drawn", Some(r)) => r.winner.is_none(),
            _ => false,
        };
        if holds {
            Ok(claim.to_string())
        } else {
            Err(MoveError::Claim {
                claim: claim.into(),
                actual: actual.map_or("the game is still going on".into(), |r| r.to_string()),
            })
        }
    }

    /// Take back the last turn (a resignation counts as one); the text of what was taken back.
    pub fn undo(&mut self) -> Option<String> {
        if self.declared.take().is_some() {
            return Some("resign".into());
        }
        let p = self.played.pop()?;
        self.pos.unmake();
        Some(p.text)
    }

    pub fn last_was_castle(&self) -> bool {
        self.played.last().is_some_and(|p| p.mv.flags & mflag::CASTLE != 0)
    }
}
