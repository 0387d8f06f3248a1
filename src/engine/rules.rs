//! Game results: checkmate, stalemate, repetition, move limits and insufficient material, as the preset maps them.

use super::board::cell;
use super::position::Position;
use super::side::Side;
use crate::preset::{EndRule, MaterialPattern, Preset};
use crate::syntax::ast::Outcome;
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: String,
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(s) => write!(f, "{s} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

fn outcome(o: Outcome, mover: Side, reason: &str) -> GameOver {
    let winner = match o {
        Outcome::Wins => Some(mover),
        Outcome::Loses => Some(mover.other()),
        Outcome::Draws => None,
    };
    GameOver { winner, reason: reason.to_string() }
}

impl Position {
    /// The result when the side to move has no legal turn.
    pub fn no_moves_result(&self, preset: &Preset) -> GameOver {
        let checked = self.in_check(preset, self.side);
        // `drop KIND no_mate`: a mate given by such a drop was an illegal move, and loses.
        if checked && self.last_drop != 0 && (preset.drop_no_mate >> cell::kind(self.last_drop)) & 1 != 0 {
            let reason = format!("checkmate by dropping a {}", preset.kinds[cell::kind(self.last_drop)].name);
            return GameOver { winner: Some(self.side), reason };
        }
        for r in &preset.ends {
            match r {
                EndRule::Checkmate(o) if checked => return outcome(*o, self.side, "checkmate"),
                EndRule::Stalemate(o) if !checked => return outcome(*o, self.side, "stalemate"),
                _ => {}
            }
        }
        // A side that cannot move and has no rule for it loses, so that a game always ends.
        let reason = if checked { "checkmate" } else { "no legal move" };
        GameOver { winner: Some(self.side.other()), reason: reason.into() }
    }

    /// A result that needs no move generation: declared by a script, `on game_end`, or a static rule.
    pub fn terminal(&mut self, preset: &Preset) -> Result<Option<GameOver>, crate::script::ScriptError> {
        if let Some(o) = &self.over {
            return Ok(Some((**o).clone()));
        }
        if let Some(r) = crate::script::hooks::game_end(preset, self)? {
            return Ok(Some(r));
        }
        Ok(self.static_result(preset))
    }

    /// Results that do not depend on the legal moves: repetition, move limit, insufficient material.
    pub fn static_result(&self, preset: &Preset) -> Option<GameOver> {
        for r in &preset.ends {
            match r {
                EndRule::MoveLimit(n, o) if self.halfmove >= n.saturating_mul(2) => {
                    return Some(outcome(*o, self.side, &format!("{n}-move rule")));
                }
                EndRule::Repetition(n, o) if self.repetitions() >= *n => {
                    return Some(outcome(*o, self.side, &format!("{} repetition", times(*n))));
                }
                EndRule::Insufficient(pats, o) if self.insufficient(preset, pats) => {
                    return Some(outcome(*o, self.side, "insufficient material"));
                }
                EndRule::Passes(o) if self.last_turns_passed(2) => {
                    return Some(outcome(*o, self.side, "both sides passed"));
                }
                EndRule::Facing(o) if self.last_turns_passed(1) && self.royals_facing(preset) => {
                    return Some(outcome(*o, self.side, "the royal pieces face each other after a pass"));
                }
                EndRule::Reach(zone, kinds, o) => {
                    // The side that just moved first: its royal piece arrived.
                    for side in [self.side.other(), self.side] {
                        if self.piece_in(side, kinds, &zone[side]) {
                            return Some(outcome(*o, side, "reached the goal"));
                        }
                    }
                }
                EndRule::Extinction(kinds, o) => {
                    for side in [self.side.other(), self.side] {
                        if self.extinct(preset, side, kinds.as_deref()) {
                            return Some(outcome(*o, side, "extinction"));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether a piece of `side` of one of `kinds` stands on a square of `zone`.
    fn piece_in(&self, side: Side, kinds: &[usize], zone: &[bool]) -> bool {
        kinds.iter().any(|&k| {
            self.counts[cell::piece(k, side) as usize] > 0
                && zone.iter().enumerate().any(|(sq, &z)| z && self.cells[sq] & !cell::VIRGIN == cell::piece(k, side))
        })
    }

    /// Whether `side` has no piece left (`kinds` None) or none of one of `kinds`.
    fn extinct(&self, preset: &Preset, side: Side, kinds: Option<&[usize]>) -> bool {
        let n = |k: usize| self.counts[cell::piece(k, side) as usize];
        match kinds {
            None => (0..preset.kinds.len()).all(|k| n(k) == 0),
            Some(ks) => ks.iter().any(|&k| n(k) == 0),
        }
    }

    /// How many times the current position has occurred (this one included).
    pub fn repetitions(&self) -> u32 {
        let back = (self.halfmove as usize).min(self.history.len());
        let n = self.history.len();
        1 + (2..=back).step_by(2).filter(|&k| self.history[n - k] == self.hash).count() as u32
    }

    fn insufficient(&self, preset: &Preset, pats: &[MaterialPattern]) -> bool {
        let mut per_kind = [0u16; cell::MAX_KINDS];
        let mut total = 0u32;
        for (k, kind) in preset.kinds.iter().enumerate() {
            if kind.royal {
                continue;
            }
            let n =
                self.counts[cell::piece(k, Side::White) as usize] + self.counts[cell::piece(k, Side::Black) as usize];
            per_kind[k] = n;
            total += n as u32;
        }
        if total > 8 || !self.hands[Side::White].is_empty() || !self.hands[Side::Black].is_empty() {
            return false;
        }
        pats.iter().any(|p| self.material_fits(preset, p, &per_kind))
    }

    fn material_fits(&self, preset: &Preset, p: &MaterialPattern, per_kind: &[u16]) -> bool {
        let counts_ok = preset.kinds.iter().enumerate().filter(|(_, k)| !k.royal).all(|(k, _)| {
            match p.items.iter().find(|i| i.0 == k) {
                Some(&(_, many)) => {
                    if many {
                        per_kind[k] >= 1
                    } else {
                        per_kind[k] == 1
                    }
                }
                None => per_kind[k] == 0,
            }
        });
        if !counts_ok || !p.same_colour {
            return counts_ok;
        }
        let mut shades = preset
            .geo
            .squares
            .iter()
            .filter(|&&s| {
                let c = self.cells[s as usize];
                cell::is_piece(c) && p.items.iter().any(|i| i.0 == cell::kind(c))
            })
            .map(|&s| preset.geo.is_light(s));
        let first = shades.next();
        shades.all(|s| Some(s) == first)
    }

    /// The result of the game in this position, given whether the side to move has a legal turn.
    pub fn result(&self, preset: &Preset, has_moves: bool) -> Option<GameOver> {
        if !has_moves {
            return Some(self.no_moves_result(preset));
        }
        self.static_result(preset)
    }
}

fn times(n: u32) -> String {
    match n {
        2 => "twofold".into(),
        3 => "threefold".into(),
        4 => "fourfold".into(),
        5 => "fivefold".into(),
        n => format!("{n}-fold"),
    }
}
