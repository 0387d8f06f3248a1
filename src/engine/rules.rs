//! Game results: checkmate, stalemate, repetition, move limits and insufficient material, as the preset maps them.

use super::board::cell;
use super::position::Position;
use super::side::Side;
use crate::preset::{EndRule, MaterialPattern, Preset};
use crate::syntax::ast::Outcome;

pub use super::gameover::GameOver;

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
                EndRule::Stalemate(o, false) if !checked => return outcome(*o, self.side, "stalemate"),
                EndRule::Stalemate(o, true) if !checked => {
                    // `fewer_pieces`: the side with fewer pieces on the board has the outcome.
                    let (mine, theirs) =
                        (self.piece_count(preset, self.side), self.piece_count(preset, self.side.other()));
                    let noun = if mine == 1 { "piece" } else { "pieces" };
                    let reason = format!("stalemate, {mine} {noun} against {theirs}");
                    return match mine.cmp(&theirs) {
                        std::cmp::Ordering::Less => outcome(*o, self.side, &reason),
                        std::cmp::Ordering::Greater => outcome(*o, self.side.other(), &reason),
                        std::cmp::Ordering::Equal => GameOver { winner: None, reason },
                    };
                }
                _ => {}
            }
        }
        // A side that cannot move and has no rule for it loses, so that a game always ends.
        let reason = if checked { "checkmate" } else { "no legal move" };
        GameOver { winner: Some(self.side.other()), reason: reason.into() }
    }

    /// Results that do not depend on the legal moves: repetition, move limit, insufficient material.
    pub fn static_result(&self, preset: &Preset) -> Option<GameOver> {
        // Most positions end by none of the rules (this is asked at every node of a perft or a
        // search): each rule is first asked cheaply, the whole test kept out of line.
        preset.ends.iter().find_map(|r| if self.may_end(preset, r) { self.static_rule(preset, r) } else { None })
    }

    /// False when the rule `r` surely does not end the game here (cheap); true when it may.
    #[inline(always)]
    fn may_end(&self, preset: &Preset, r: &EndRule) -> bool {
        match r {
            EndRule::Checkmate(_) | EndRule::Stalemate(..) => false,
            EndRule::MoveLimit(n, _) => self.halfmove >= n.saturating_mul(2),
            // `n` occurrences need `n - 1` earlier ones since the last irreversible move, two plies apart.
            EndRule::Repetition(n, _) => self.halfmove >= n.saturating_sub(1).saturating_mul(2),
            EndRule::Insufficient(..) => self.non_royal_on_board(preset) <= 8,
            _ => true,
        }
    }

    /// The pieces on the board but the royal ones, from the counts of empty squares and holes.
    #[inline(always)]
    fn non_royal_on_board(&self, preset: &Preset) -> u32 {
        (preset.geo.squares.len() as u32)
            .saturating_sub(self.counts[cell::EMPTY as usize] as u32 + self.counts[cell::HOLE as usize] as u32)
            .saturating_sub(self.royal_count(Side::White) + self.royal_count(Side::Black))
    }

    /// Whether the rule `r` (not one judged by the legal moves) ends the game here, and how.
    #[inline(never)]
    fn static_rule(&self, preset: &Preset, r: &EndRule) -> Option<GameOver> {
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
            EndRule::Reach(zone, kinds, true, o) => {
                // `answered`: the side to move arrived a turn ago, and the other side has
                // answered; Black's arrival in answer to White's draws.
                let us = self.side;
                if self.piece_in(us, kinds, &zone[us]) {
                    if us == Side::White && self.piece_in(Side::Black, kinds, &zone[Side::Black]) {
                        return Some(GameOver { winner: None, reason: "both reached the goal".into() });
                    }
                    return Some(outcome(*o, us, "reached the goal"));
                }
            }
            EndRule::Reach(zone, kinds, false, o) => {
                // The side that just moved first: its royal piece arrived.
                for side in [self.side.other(), self.side] {
                    if self.piece_in(side, kinds, &zone[side]) {
                        return Some(outcome(*o, side, "reached the goal"));
                    }
                }
            }
            EndRule::Checks(n, o) => {
                for side in [self.side.other(), self.side] {
                    if self.checks[side] == 0 {
                        return Some(outcome(*o, side, &format!("gave {n} check{}", if *n == 1 { "" } else { "s" })));
                    }
                }
            }
            EndRule::Bare(false, o) => {
                for side in [self.side.other(), self.side] {
                    if self.bare(preset, side) {
                        return Some(outcome(*o, side, "bare royal piece"));
                    }
                }
            }
            EndRule::Bare(true, o) => {
                // `answered`: the other side must keep a piece besides its royal ones; a bared
                // side to move may still capture it, so then the other side needs two.
                for side in [self.side.other(), self.side] {
                    let need = if side == self.side { 2 } else { 1 };
                    if self.bare(preset, side) && self.non_royal_count(preset, side.other()) >= need {
                        return Some(outcome(*o, side, "bare royal piece"));
                    }
                }
            }
            EndRule::Extinction(kinds, at_most, o) => {
                for side in [self.side.other(), self.side] {
                    if self.extinct(preset, side, kinds.as_deref(), *at_most) {
                        return Some(outcome(*o, side, "extinction"));
                    }
                }
            }
            _ => {}
        }
        None
    }

    /// Whether a piece of `side` of one of `kinds` stands on one of the cells of `zone`.
    fn piece_in(&self, side: Side, kinds: &[usize], zone: &[u16]) -> bool {
        kinds.iter().any(|&k| {
            let piece = cell::piece(k, side);
            self.counts[piece as usize] > 0 && zone.iter().any(|&c| cell::code(self.cells[c as usize]) == piece)
        })
    }

    /// Whether `side` has no piece but royal ones, on the board or in hand.
    fn bare(&self, preset: &Preset, side: Side) -> bool {
        self.hands[side].iter().all(|&k| preset.kinds[k as usize].royal)
            && preset
                .kinds
                .iter()
                .enumerate()
                .all(|(k, kind)| kind.royal || self.counts[cell::piece(k, side) as usize] == 0)
    }

    /// How many pieces `side` has besides its royal ones, on the board and in hand.
    fn non_royal_count(&self, preset: &Preset, side: Side) -> u32 {
        let in_hand = self.hands[side].iter().filter(|&&k| !preset.kinds[k as usize].royal).count() as u32;
        (self.piece_count(preset, side) + in_hand).saturating_sub(self.royal_count(side))
    }

    /// Whether `side` has at most `at_most` pieces left (`kinds` None) or of one of `kinds`.
    fn extinct(&self, preset: &Preset, side: Side, kinds: Option<&[usize]>, at_most: u32) -> bool {
        let n = |k: usize| u32::from(self.counts[cell::piece(k, side) as usize]);
        match kinds {
            None => self.piece_count(preset, side) <= at_most,
            Some(ks) => ks.iter().any(|&k| n(k) <= at_most),
        }
    }

    /// How many pieces `side` has on the board.
    fn piece_count(&self, preset: &Preset, side: Side) -> u32 {
        (0..preset.kinds.len()).map(|k| u32::from(self.counts[cell::piece(k, side) as usize])).sum()
    }

    /// How many times the current position has occurred (this one included).
    pub fn repetitions(&self) -> u32 {
        let back = (self.halfmove as usize).min(self.history.len());
        let n = self.history.len();
        1 + (2..=back).step_by(2).filter(|&k| self.history[n - k] == self.hash).count() as u32
    }

    fn insufficient(&self, preset: &Preset, pats: &[MaterialPattern]) -> bool {
        // Most positions have too many pieces to look at the kinds.
        if self.non_royal_on_board(preset) > 8 {
            return false;
        }
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
                let c = self.cells[s.idx()];
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
