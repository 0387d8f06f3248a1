//! A game in progress: a preset, its position, and the turns played, with clear errors that change nothing.

use crate::engine::board::{Sq, cell};
use crate::engine::notation::{self, NotationError, Part, Typed};
use crate::engine::position::{Move, mflag};
use crate::engine::turn::{self, Turn, TurnPart};
use crate::engine::typed::TypedTurn;
use crate::engine::{GameOver, Position, Side};
use crate::play::fen;
use crate::play::turngen::{self, PlayError};
use crate::preset::Preset;
use crate::script::ScriptError;
use crate::setup::{self, SetupError};
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
    /// Legal as the beginning of a turn that goes on with more parts.
    #[error("`{text}` needs another part here: the turn goes on as {options}")]
    Incomplete { text: String, options: String },
    #[error("`{0}` is not a legal turn here")]
    Illegal(String),
    #[error("no {side} {label} can move to {to}")]
    NoShortMove { text: String, side: Side, label: String, to: String },
    #[error("the claim `{claim}` does not hold: {actual}")]
    Claim { claim: String, actual: String },
    /// A rule script refused the turn, with the reason it gave.
    #[error("{turn} is not allowed: {reason}")]
    Refused { turn: String, reason: String },
    /// A rule script failed; the message quotes the preset's line.
    #[error("{0}")]
    Script(String),
}

#[derive(Clone, Debug)]
pub struct Played {
    pub turn: Turn,
    pub text: String,
    /// What the preset's scripts said during the turn.
    pub said: Vec<String>,
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
    /// The current position's legal turns and result, computed once: a command that needs them
    /// again (the result after a turn, then resolving the next one) reuses them.
    known: Option<Known>,
}

/// What is known of one position, keyed by its hash and ply (`pos` is public and may be changed
/// behind the game's back; a turn played or taken back through the game forgets it at once).
#[derive(Clone, Debug)]
struct Known {
    key: (u64, usize),
    /// Each `None` until asked for.
    turns: Option<Arc<[Turn]>>,
    result: Option<Option<GameOver>>,
}

impl Game {
    /// A game from a FEN, or from the preset's setup (drawn from `seed` when the preset draws one).
    pub fn new(preset: Arc<Preset>, fen: Option<&str>, seed: Option<u64>) -> Result<Game, SetupError> {
        let start = match fen {
            Some(f) => f.to_string(),
            None => setup::draw(&preset, seed)?,
        };
        // Record the seed a drawn setup came from, so that a saved game names it; a game whose setup
        // is not drawn keeps no seed, so none leaks into a saved game or the next preset loaded.
        let seed = if fen.is_none() && preset.script.hooks.setup.is_some() {
            Some(seed.unwrap_or(setup::DEFAULT_SEED))
        } else {
            None
        };
        let pos = fen::parse(&preset, &start)?;
        Ok(Game { preset, pos, start_fen: start, seed, played: Vec::new(), declared: None, known: None })
    }

    /// The seed this game's setup was drawn from, when the preset draws its setups.
    pub fn drawn_from(&self) -> Option<u64> {
        self.seed.filter(|_| self.preset.script.hooks.setup.is_some())
    }

    fn script_error(&self, e: ScriptError) -> MoveError {
        MoveError::Script(e.render(&self.preset))
    }

    /// Every legal turn (none once the game is over).
    pub fn legal(&mut self) -> Result<Vec<Turn>, MoveError> {
        if self.result()?.is_some() {
            return Ok(Vec::new());
        }
        Ok(self.turns()?.to_vec())
    }

    /// The legal turns of the position (even when a rule has ended the game), generated once.
    fn turns(&mut self) -> Result<Arc<[Turn]>, MoveError> {
        if let Some(t) = &self.known().turns {
            return Ok(t.clone());
        }
        let turns: Arc<[Turn]> =
            turngen::legal_turns(&mut self.pos, &self.preset).map_err(|e| self.script_error(e))?.into();
        self.known().turns = Some(turns.clone());
        Ok(turns)
    }

    /// What is known of the current position (nothing, if it changed since).
    fn known(&mut self) -> &mut Known {
        let key = (self.pos.hash, self.pos.history.len());
        if self.known.as_ref().is_none_or(|k| k.key != key) {
            self.known = None;
        }
        self.known.get_or_insert(Known { key, turns: None, result: None })
    }

    pub fn text(&self, t: &Turn) -> String {
        turn::format_turn(&self.preset, &self.pos, t)
    }

    /// Every legal turn in canonical notation, sorted.
    pub fn legal_texts(&mut self) -> Result<Vec<String>, MoveError> {
        let turns = self.legal()?;
        let mut v: Vec<String> = turns.iter().map(|t| self.text(t)).collect();
        v.sort();
        Ok(v)
    }

    /// The result, if the game is over: declared, by a script, by a static rule, or for want of a move.
    pub fn result(&mut self) -> Result<Option<GameOver>, MoveError> {
        if let Some(d) = &self.declared {
            return Ok(Some(d.clone()));
        }
        if let Some(r) = &self.known().result {
            return Ok(r.clone());
        }
        let preset = Arc::clone(&self.preset);
        let result = match crate::play::end::terminal(&mut self.pos, &preset) {
            Ok(Some(r)) => Some(r),
            Ok(None) => {
                let has = !self.turns()?.is_empty();
                self.pos.result(&self.preset, has)
            }
            Err(e) => return Err(self.script_error(e)),
        };
        self.known().result = Some(result.clone());
        Ok(result)
    }

    pub fn result_text(&mut self) -> Result<String, MoveError> {
        Ok(self.result()?.map_or("ongoing".to_string(), |r| r.to_string()))
    }

    pub fn fen(&self) -> String {
        fen::write(&self.preset, &self.pos)
    }

    /// What the scripts said during the last turn.
    pub fn said(&self) -> &[String] {
        self.played.last().map_or(&[], |p| p.said.as_slice())
    }

    /// Play a typed turn; on any error the position is unchanged.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let (typed, expanded) = self.read(text)?;
        self.play_typed(expanded.as_deref().unwrap_or(text), typed)
    }

    /// Play a turn already read (`text` is what error messages quote); the text is not read again.
    pub fn play_typed(&mut self, text: &str, typed: Typed) -> Result<String, MoveError> {
        if let Typed::Full(parts) = &typed
            && let [notation::Part::Claim(c)] = parts.as_slice()
        {
            return self.claim(c);
        }
        if let Some(r) = self.result()? {
            return Err(MoveError::GameOver(r.to_string()));
        }
        let t = self.resolve(text, &typed)?;
        let shown = self.text(&t);
        let mut said = Vec::new();
        let mover = self.pos.side;
        match turngen::play(&mut self.pos, &self.preset, &t, &mut said) {
            Ok(()) => {}
            Err(PlayError::Rejected(reason)) => return Err(MoveError::Refused { turn: shown, reason }),
            Err(PlayError::Script(e)) => return Err(self.script_error(e)),
        }
        if let Err(e) = crate::script::hooks::announce(&self.preset, &mut self.pos, mover, &mut said) {
            self.pos.unmake();
            return Err(self.script_error(e));
        }
        self.played.push(Played { turn: t, text: shown.clone(), said });
        Ok(shown)
    }

    /// Read a typed turn, each part once. A turn of several parts may write its move in short
    /// notation (`Axd5; q*a8`): such a part becomes the canonical parts of the one move of the legal
    /// turns it names; the text with it written out is given too, for error messages.
    fn read(&mut self, text: &str) -> Result<(Typed, Option<String>), MoveError> {
        if !text.contains(';') {
            return Ok((notation::read(text)?, None));
        }
        let mut parts = Vec::new();
        let mut written = Vec::new();
        // A part that is neither is reported after the short parts are resolved, as when the
        // written-out text was read as a whole.
        let mut unreadable = None;
        let mut moves: Option<Vec<crate::engine::Move>> = None;
        for seg in text.split(';').map(str::trim) {
            let s = match notation::read(seg) {
                Ok(Typed::Short(s)) => s,
                Ok(Typed::Full(p)) if !matches!(p.as_slice(), [notation::Part::Claim(_)]) => {
                    parts.extend(p);
                    written.push(seg.to_string());
                    continue;
                }
                _ => {
                    unreadable.get_or_insert_with(|| seg.to_string());
                    written.push(seg.to_string());
                    continue;
                }
            };
            if moves.is_none() {
                let mut all: Vec<_> = self.turns()?.iter().flat_map(|t| t.moves().collect::<Vec<_>>()).collect();
                all.sort_unstable_by_key(|m| (m.from, m.to, m.promo, m.flags));
                all.dedup();
                moves = Some(all);
            }
            let found = notation::match_short(&self.preset, &self.pos, &s, moves.as_deref().unwrap_or_default());
            match found.as_slice() {
                [m] => {
                    let canon = notation::canonical_parts(&self.preset, &self.pos, *m);
                    written.push(canon.iter().map(notation::part_text).collect::<Vec<_>>().join("; "));
                    parts.extend(canon);
                }
                [] => return Err(self.explain_short(&s).unwrap_or_else(|| MoveError::Illegal(s.clone()))),
                several => {
                    let mut options: Vec<String> =
                        several.iter().map(|m| format!("`{}`", self.text(&Turn::single(*m)))).collect();
                    options.sort();
                    return Err(MoveError::Ambiguous { text: s, options: options.join(" or ") });
                }
            }
        }
        if let Some(seg) = unreadable {
            return Err(NotationError::Unreadable(seg).into());
        }
        // The text as typed when no short part was written out.
        let expanded = written.iter().ne(text.split(';').map(str::trim)).then(|| written.join("; "));
        Ok((Typed::Full(parts), expanded))
    }

    /// Find the one legal turn a typed turn names, or explain why there is none.
    pub fn resolve(&mut self, text: &str, typed: &Typed) -> Result<Turn, MoveError> {
        let legal = self.turns()?;
        let found = match typed {
            Typed::Full(parts) => self.match_full(parts, &legal),
            Typed::Short(s) => self.match_short(s, &legal),
        };
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(self.explain(text, typed)),
            _ => {
                let mut options: Vec<String> = found.iter().map(|t| format!("`{}`", self.text(t))).collect();
                options.sort();
                let typed_len = match typed {
                    Typed::Full(parts) => parts.len(),
                    Typed::Short(_) => 1,
                };
                let text = text.trim().to_string();
                let options = options.join(" or ");
                if found.iter().all(|t| t.parts().len() > typed_len) {
                    return Err(MoveError::Incomplete { text, options });
                }
                Err(MoveError::Ambiguous { text, options })
            }
        }
    }

    /// Legal turns that a short move names: the one-move turns it names, else every turn whose first
    /// part is a move it names (the parts after it left out, as in full notation).
    fn match_short(&self, s: &str, legal: &[Turn]) -> Vec<Turn> {
        let singles: Vec<_> = legal.iter().filter_map(|t| t.only_move()).collect();
        let exact = notation::match_short(&self.preset, &self.pos, s, &singles);
        if !exact.is_empty() {
            return exact.into_iter().map(Turn::single).collect();
        }
        let mut firsts: Vec<_> = legal
            .iter()
            .filter_map(|t| match t.parts().first() {
                Some(TurnPart::Move(m)) => Some(*m),
                _ => None,
            })
            .collect();
        firsts.sort_unstable_by_key(|m| (m.from, m.to, m.promo, m.flags));
        firsts.dedup();
        let named = notation::match_short(&self.preset, &self.pos, s, &firsts);
        legal
            .iter()
            .filter(|t| matches!(t.parts().first(), Some(TurnPart::Move(m)) if named.contains(m)))
            .copied()
            .collect()
    }

    /// Legal turns that typed parts name: exact matches, else those they begin (forced parts left
    /// out). Matched structurally: no legal turn is written out.
    fn match_full(&self, typed: &[Part], legal: &[Turn]) -> Vec<Turn> {
        let Some(typed) = TypedTurn::resolve(&self.preset, typed) else { return Vec::new() };
        let mut exact = Vec::new();
        let mut prefix = Vec::new();
        for t in legal {
            match typed.matches(&self.preset, &self.pos, t) {
                Some(true) => exact.push(*t),
                Some(false) => prefix.push(*t),
                None => {}
            }
        }
        if exact.is_empty() { prefix } else { exact }
    }

    /// The parts typed, as the engine's parts, when each names something that could happen here.
    fn typed_turn(&mut self, parts: &[Part]) -> Option<Turn> {
        let g = &self.preset.geo;
        let mut t = Turn::default();
        let mut pseudo = Vec::new();
        self.pos.pseudo_moves(&self.preset, &mut pseudo);
        let mut parts = parts.iter().peekable();
        while let Some(p) = parts.next() {
            let part = match p {
                Part::Move { from, to, .. } => {
                    let (f, to_sq) = (g.parse_square(from)?, g.parse_square(to)?);
                    let promo = match parts.peek() {
                        Some(Part::Put { label, to: pt }) if pt == to => {
                            parts.next();
                            Some(label.clone())
                        }
                        _ => None,
                    };
                    let m = pseudo.iter().copied().find(|m| {
                        m.from == f
                            && m.to == to_sq
                            && match &promo {
                                Some(l) => m.promo != 0 && self.preset.label_of(m.promo).eq_ignore_ascii_case(l),
                                None => m.promo == 0,
                            }
                    })?;
                    TurnPart::Move(m)
                }
                Part::Empty { sq } => {
                    let s = g.parse_square(sq)?;
                    // After the parts before it: a square a move has just filled holds a piece.
                    if cell::is_piece(self.pos.cells[s.idx()])
                        && !t.parts().iter().any(|p| matches!(p, TurnPart::Move(m) if m.from == s))
                    {
                        TurnPart::Remove(s)
                    } else {
                        TurnPart::Construct(s)
                    }
                }
                Part::RemoveSquare { sq } => TurnPart::Destroy(g.parse_square(sq)?),
                Part::Drop { label, to } => {
                    let (k, side) = self.preset.kind_by_label(label)?;
                    TurnPart::Drop(cell::piece(k, side), g.parse_square(to)?)
                }
                Part::HandRemove { label } => {
                    let (k, _) = self.preset.kind_by_label(label)?;
                    TurnPart::Discard(cell::piece(k, self.pos.side))
                }
                _ => return None,
            };
            t.push(part);
        }
        Some(t)
    }

    fn explain(&mut self, text: &str, typed: &Typed) -> MoveError {
        let illegal = MoveError::Illegal(text.trim().to_string());
        let parts = match typed {
            Typed::Full(parts) => parts,
            Typed::Short(s) => return self.explain_short(s).unwrap_or(illegal),
        };
        // A rule script may have refused it: replay it to hear the reason.
        if self.preset.script.active
            && let Some(t) = self.typed_turn(parts)
        {
            match turngen::trial(&mut self.pos, &self.preset, &t) {
                Ok(Some(reason)) if reason != turngen::ROYAL_UNSAFE && reason != turngen::NOT_LISTED => {
                    return MoveError::Refused { turn: text.trim().to_string(), reason };
                }
                // A part after the move (a square built, a piece removed) exposed the royal piece.
                Ok(Some(reason)) if reason == turngen::ROYAL_UNSAFE && t.parts().len() > 1 => {
                    let royal = self.preset.kinds.iter().find(|k| k.royal).map_or("royal piece", |k| k.name.as_str());
                    let reason = format!("the whole turn would leave the {royal} in check");
                    return MoveError::Refused { turn: text.trim().to_string(), reason };
                }
                Err(e) => return self.script_error(e),
                Ok(_) => {}
            }
        }
        let g = &self.preset.geo;
        let Some(notation::Part::Move { label, from, to }) = parts.first() else { return illegal };
        let (Some(f), Some(t)) = (g.parse_square(from), g.parse_square(to)) else {
            let bad = if g.parse_square(from).is_none() { from } else { to };
            return MoveError::NoSquare(bad.clone());
        };
        let c = self.pos.cells[f.idx()];
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
        if let Some(&m) = pseudo.iter().find(|m| m.from == f && m.to == t) {
            let turn = format!("{actual} {from}-{to}");
            if let Some(reason) = self.rule_reason(m) {
                return MoveError::Refused { turn, reason: reason.into() };
            }
            let royal = self.preset.kinds.iter().find(|k| k.royal).map_or("royal piece".into(), |k| k.name.clone());
            return MoveError::IntoCheck { turn, royal };
        }
        MoveError::CannotMove { label: actual, from: from.clone(), to: to.clone() }
    }

    /// Why a pseudo-legal move that leaves the mover's royal piece safe is still not legal:
    /// `checks illegal`, `captures compulsory`, `drops compulsory`. `None` when it is unsafe.
    fn rule_reason(&mut self, m: Move) -> Option<&'static str> {
        let (preset, us) = (self.preset.clone(), self.pos.side);
        self.pos.make(&preset, m);
        let unsafe_ = preset.royal_safety && self.pos.in_check(&preset, us);
        let checks = self.pos.in_check(&preset, us.other());
        self.pos.unmake();
        if unsafe_ {
            return None;
        }
        if preset.no_checks && checks {
            return Some(turngen::GIVES_CHECK);
        }
        if preset.must_capture && m.flags & (mflag::CAPTURE | mflag::EP) == 0 {
            return Some("a capture is compulsory, and one is possible");
        }
        if preset.must_drop && m.flags & mflag::DROP == 0 {
            return Some("a drop is compulsory, and one is possible");
        }
        None
    }

    fn explain_short(&self, text: &str) -> Option<MoveError> {
        let (label, to) = notation::short_target(text)?;
        if self.preset.geo.parse_square(&to).is_none() {
            return Some(MoveError::NoSquare(to));
        }
        Some(MoveError::NoShortMove { text: text.to_string(), side: self.pos.side, label, to })
    }

    /// Why a king move that matches a castling rule is not allowed now.
    fn castle_reason(&self, from: Sq, to: Sq) -> Option<String> {
        let p = &self.preset;
        let c = p.castles.iter().find(|c| c.side == self.pos.side && c.king_from == from && c.king_to == to)?;
        let cells = &self.pos.cells;
        if cells[from.idx()] != cell::with_unmoved(c.king) || cells[c.rook_from.idx()] != cell::with_unmoved(c.rook) {
            return Some("the right to castle this way is lost".into());
        }
        if let Some(&s) = c.empty.iter().find(|&&s| cells[s.idx()] != cell::EMPTY) {
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
            if let Some(r) = self.result()? {
                return Err(MoveError::GameOver(r.to_string()));
            }
            self.declared = Some(GameOver { winner: Some(mover.other()), reason: format!("{mover} resigns") });
            return Ok("resign".into());
        }
        let actual = self.result()?;
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
    /// The squares the last turn touched (a move's two, the square of a drop, a removal or a
    /// square built or destroyed), for the boards to highlight.
    pub fn last_squares(&self) -> Vec<crate::engine::board::Sq> {
        let Some(t) = self.played.last() else { return Vec::new() };
        t.turn
            .parts()
            .iter()
            .flat_map(|p| match *p {
                TurnPart::Move(m) => vec![m.from, m.to],
                TurnPart::Remove(s) | TurnPart::Drop(_, s) | TurnPart::Construct(s) | TurnPart::Destroy(s) => vec![s],
                TurnPart::Discard(_) => vec![],
            })
            .collect()
    }

    pub fn undo(&mut self) -> Option<String> {
        if self.declared.take().is_some() {
            return Some("resign".into());
        }
        let p = self.played.pop()?;
        self.pos.unmake();
        Some(p.text)
    }

    pub fn last_was_castle(&self) -> bool {
        self.played.last().is_some_and(|p| p.turn.moves().any(|m| m.flags & mflag::CASTLE != 0))
    }
}
