//! `herald xboard`: XBoard/CECP version 2 (docs/engine.md). Every shipped preset is a variant;
//! `variant NAME` answers `setup` and `piece` (as Fairy-Stockfish sends them), which teach XBoard
//! the board, the pieces and their moves in Betza notation when it does not know them.

use super::moves;
use super::session::{Go, Out, Session, say};
use super::timeman::Clock;
use super::uci::{DEFAULT_VARIANT, load_game};
use crate::engine::{Position, Side};
use crate::game::Game;
use crate::preset::Preset;
use crate::search::{Iteration, MATE, MATE_BOUND, SearchError, SearchResult};
use std::io::{BufRead, Write};

/// XBoard's piece types in the order of its `setup` table (the 22 every version knows).
const SLOTS: &str = "PNBRQFEACWMOHIJGDVLSUK";

/// Run the protocol on `input` until `quit` or its end.
pub fn run(input: impl BufRead, out: Out) -> Result<(), String> {
    let mut xb = XBoard::new(out)?;
    for line in input.lines() {
        let line = line.map_err(|e| format!("cannot read the input: {e}"))?;
        if !crate::budget::fresh(|| xb.handle(&line)) {
            break;
        }
    }
    let f = xb.session.finish();
    xb.apply(f);
    Ok(())
}

/// A session under XBoard.
pub struct XBoard {
    session: Session,
    /// The side the engine plays (none in force mode).
    engine: Option<Side>,
    /// `level MPS BASE INC`: moves per session (0: all), increment in ms.
    mps: u32,
    inc_ms: u64,
    /// `st`: seconds per move, in ms; `sd`: a depth.
    per_move_ms: Option<u64>,
    depth: Option<u32>,
    /// `time` and `otim`, in ms.
    my_ms: Option<u64>,
    post: bool,
}

impl XBoard {
    pub fn new(out: Out) -> Result<XBoard, String> {
        Ok(XBoard {
            session: Session::new(load_game(DEFAULT_VARIANT)?, out),
            engine: Some(Side::Black),
            mps: 0,
            inc_ms: 0,
            per_move_ms: None,
            depth: None,
            my_ms: None,
            post: false,
        })
    }

    fn say(&self, text: &str) {
        self.session.say(text);
    }

    /// Take back a search that has answered, and play its turn on the game.
    fn reap(&mut self) {
        if self.session.answered() {
            let f = self.session.wait(false);
            self.apply(f);
        }
    }

    /// Stop thinking, without answering unless the answer was already given.
    fn abandon(&mut self) {
        let f = self.session.abandon();
        self.apply(f);
    }

    /// Play the turn a search answered with on the game (the GUI has it already).
    fn apply(&mut self, f: Option<super::session::Finished>) {
        if let Some(f) = f
            && f.delivered
            && let Ok(r) = &f.result
            && let Err(e) = self.session.game.play(&r.text)
        {
            self.say(&format!("Error (the engine's own turn {} was refused: {e})", r.text));
        }
    }

    /// One line of input; false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap();
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer" | "name" | "rating"
            | "ics" | "draw" | "otim" | "cores" | "memory" | "bk" => {}
            "protover" => self.features(),
            "new" => {
                self.abandon();
                self.session.clear();
                match load_game(DEFAULT_VARIANT) {
                    Ok(g) => self.session.game = g,
                    Err(e) => self.say(&format!("Error ({e}): new")),
                }
                self.engine = Some(Side::Black);
                self.depth = None;
                self.my_ms = None;
            }
            "variant" => self.variant(rest),
            "force" | "result" => {
                self.abandon();
                self.engine = None;
            }
            "go" => {
                self.abandon();
                self.engine = Some(self.session.game.pos.side);
                self.think();
            }
            "playother" => {
                self.abandon();
                self.engine = Some(self.session.game.pos.side.other());
            }
            "?" => self.session.stop(),
            "setboard" => self.setboard(rest),
            "usermove" => self.user_move(rest),
            "undo" => self.undo(1),
            "remove" => self.undo(2),
            "level" => self.level(rest),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.per_move_ms = Some((s * 1000.0) as u64),
                _ => self.say(&format!("Error (st takes seconds): st {rest}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.depth = Some(d),
                _ => self.say(&format!("Error (sd takes a depth): sd {rest}")),
            },
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.my_ms = Some(cs * 10),
                _ => self.say(&format!("Error (time takes centiseconds): time {rest}")),
            },
            "ping" => {
                // After every command before it, a move being thought included.
                let f = self.session.finish();
                self.apply(f);
                self.say(&format!("pong {rest}"));
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "d" => self.show(),
            "quit" => {
                self.abandon();
                return false;
            }
            _ if looks_like_move(word) && rest.is_empty() => self.user_move(word),
            other => self.say(&format!("Error (unknown command): {other}")),
        }
        true
    }

    fn features(&self) {
        let names: Vec<&str> = crate::presets::NAMES.to_vec();
        self.say(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 name=0 \
             nps=0 debug=1 myname=\"Herald {}\" variants=\"{}\"\nfeature done=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
    }

    fn variant(&mut self, name: &str) {
        self.abandon();
        let name = if name == "normal" && !crate::presets::NAMES.contains(&"normal") { "chess" } else { name };
        if !crate::presets::NAMES.contains(&name) {
            return self.say(&format!("Error (not a shipped preset): variant {name}"));
        }
        match load_game(name) {
            Ok(g) => {
                self.session.clear();
                self.session.game = g;
                // Every preset is described: XBoard ignores a `setup` (and `piece`) for a variant
                // it plays by its own rules on the board it expects, and takes it otherwise.
                self.say(&setup_text(&self.session.game));
            }
            Err(e) => self.say(&format!("Error ({e}): variant {name}")),
        }
    }

    fn setboard(&mut self, fen: &str) {
        self.abandon();
        match Game::new(self.session.preset(), Some(fen), None) {
            Ok(g) => self.session.game = g,
            Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn user_move(&mut self, text: &str) {
        self.abandon();
        let ours = shift_ranks(&without_deferral(text), self.session.game.preset.geo.ranks, 1);
        match Session::play(&mut self.session.game, &ours) {
            Ok(()) => {
                if self.engine == Some(self.session.game.pos.side) {
                    self.think();
                }
            }
            Err(e) => self.say(&format!("Illegal move ({e}): {text}")),
        }
    }

    fn undo(&mut self, n: usize) {
        self.abandon();
        if self.session.game.played.len() < n {
            let word = if n == 1 { "undo" } else { "remove" };
            return self.say(&format!("Error (fewer than {n} turns to take back): {word}"));
        }
        for _ in 0..n {
            self.session.game.undo();
        }
    }

    /// `level MPS BASE INC`: BASE in minutes (`5`) or minutes and seconds (`0:30`), INC in seconds.
    fn level(&mut self, rest: &str) {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let parsed = match w.as_slice() {
            [mps, _base, inc] => mps.parse::<u32>().ok().zip(inc.parse::<f64>().ok().filter(|i| *i >= 0.0)),
            _ => None,
        };
        match parsed {
            Some((mps, inc)) => {
                self.mps = mps;
                self.inc_ms = (inc * 1000.0) as u64;
                self.per_move_ms = None;
            }
            None => self.say(&format!("Error (level takes MPS BASE INC): level {rest}")),
        }
    }

    fn show(&mut self) {
        let p = self.session.preset();
        let g = &self.session.game;
        self.say(&format!("{}Fen: {}", crate::display::diagram(&p, &g.pos), g.fen()));
    }

    /// The engine's turn: think, then answer `move X` (and the result when the turn ends the game).
    fn think(&mut self) {
        let moves_played = self.session.game.played.len() as u32 / 2;
        let go = Go {
            depth: self.depth,
            movetime_ms: self.per_move_ms,
            clock: self.my_ms.filter(|_| self.per_move_ms.is_none()).map(|left| Clock {
                left_ms: left,
                inc_ms: self.inc_ms,
                moves_to_go: (self.mps > 0).then(|| self.mps - moves_played % self.mps),
            }),
            ..Go::default()
        };
        // No limit at all: a second a move.
        let go = if go == Go::default() { Go { movetime_ms: Some(1000), ..go } } else { go };
        let post = self.post;
        let show = Box::new(move |out: &Out, p: &Preset, root: &Position, it: &Iteration<'_>| {
            if post {
                say(
                    out,
                    &format!(
                        "{} {} {} {} {}",
                        it.depth,
                        cp(it.score),
                        it.time_ms / 10,
                        it.nodes,
                        moves::line_text(p, root, it.pv)
                    ),
                );
            }
        });
        let game = self.session.game.clone();
        let answer = Box::new(move |w: &mut dyn Write, r: &Result<SearchResult, SearchError>| {
            let _ = match r {
                Ok(r) => {
                    let mut after = game.clone();
                    let text = moves::text(&after.preset, &after.pos, &r.turn);
                    let text = shift_ranks(&text, after.preset.geo.ranks, -1);
                    let _ = writeln!(w, "move {text}");
                    match after.play(&r.text).ok().and_then(|_| after.result().ok().flatten()) {
                        Some(over) => writeln!(w, "{}", result_text(&over)),
                        None => Ok(()),
                    }
                }
                Err(SearchError::GameOver(_)) => match game.clone().result() {
                    Ok(Some(over)) => writeln!(w, "{}", result_text(&over)),
                    _ => Ok(()),
                },
                Err(e) => writeln!(w, "Error ({e}): go"),
            };
        });
        self.session.start(&go, show, answer);
    }
}

/// XBoard's score: centipawns, or 100000 + moves for a mate.
fn cp(score: i32) -> i64 {
    if score > MATE_BOUND {
        100_000 + ((MATE - score + 1) / 2) as i64
    } else if score < -MATE_BOUND {
        -100_000 - ((MATE + score + 1) / 2) as i64
    } else {
        score as i64 * 100 / crate::search::eval::UNIT as i64
    }
}

fn result_text(over: &crate::engine::GameOver) -> String {
    let score = match over.winner {
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    };
    format!("{score} {{{}}}", over.reason)
}

/// XBoard numbers the ranks of a board of ten or more from 0 (`a0`), as Fairy-Stockfish writes
/// them to it: every square of a move is shifted by `delta` ranks (-1 out, +1 in) on such a board.
fn shift_ranks(text: &str, ranks: usize, delta: i64) -> String {
    if ranks < 10 {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() && cs.get(i).is_some_and(char::is_ascii_digit) {
            let start = i;
            while cs.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
            let n: String = cs[start..i].iter().collect();
            match n.parse::<i64>() {
                Ok(r) => out += &(r + delta).to_string(),
                Err(_) => out += &n,
            }
        }
    }
    out
}

/// XBoard marks a promotion declined with `=` (shogi's `c1d1=`); Herald, like Fairy-Stockfish,
/// writes such a move bare, and reads it so.
fn without_deferral(text: &str) -> String {
    text.split(',').map(|p| p.strip_suffix('=').unwrap_or(p)).collect::<Vec<_>>().join(",")
}

/// A word that may be a move when `usermove` is not used (`e2e4`, `P@e4`, `e7e8q`, `c1d1=`).
fn looks_like_move(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit()) && w.chars().all(|c| c.is_ascii_alphanumeric() || "@+-,*=".contains(c))
}

/// `setup (TABLE) WxH+POCKET_fairy FEN` and one `piece L& BETZA` per kind: the table puts each
/// kind in XBoard's slot of the same letter when it is free, else in the next free one (the king's
/// slot for a royal kind); kinds with labels of more than one letter XBoard cannot name.
pub fn setup_text(game: &Game) -> String {
    let p: &Preset = &game.preset;
    let slots: Vec<char> = SLOTS.chars().collect();
    let mut table = vec!['.'; slots.len()];
    let mut pieces = Vec::new();
    let letter_of = |label: &str, royal: bool, table: &mut Vec<char>| -> Option<char> {
        let mut cs = label.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else { return None };
        let c = c.to_ascii_uppercase();
        let king = slots.len() - 1;
        let at = if royal && table[king] == '.' {
            Some(king)
        } else {
            slots
                .iter()
                .position(|&s| s == c)
                .filter(|&i| table[i] == '.' && i != king)
                .or_else(|| (0..king).find(|&i| table[i] == '.'))
        }?;
        table[at] = c;
        Some(c)
    };
    for (i, k) in p.kinds.iter().enumerate() {
        let label = k.labels[Side::White].as_str();
        if let Some(c) = letter_of(label, k.royal, &mut table) {
            // XBoard castles only its king (the kind in the king's slot).
            let castling = if table[slots.len() - 1] == c { castling_betza(p, i) } else { None };
            pieces.push(format!("piece {c}& {}{}", plain_betza(&k.betza), castling.unwrap_or_default()));
        }
    }
    let white: String = table.iter().collect();
    let black = white.to_ascii_lowercase();
    // A pocket holds every kind that is not royal (those XBoard can name).
    let pocket = if p.drops || p.hand_pool || p.captures_to_hand { pieces.len().saturating_sub(1) } else { 0 };
    let mut out = format!("setup ({white}{black}) {}x{}+{pocket}_fairy {}", p.geo.files, p.geo.ranks, game.fen());
    for piece in pieces {
        out += "\n";
        out += &piece;
    }
    out
}

/// A kind's castling in XBetza, `O` and the king's distance (`O2` in chess), as Fairy-Stockfish
/// writes it: XBoard then lets the king move that many squares along its rank toward the piece in
/// the corner, which lands beside it on the square passed over. `None` when the kind does not castle
/// or a rule of it (either side's) has another shape or distance, which XBoard cannot be told
/// (Shako's rooks start off the corners, Janus's king castles 3 and 4 squares).
fn castling_betza(p: &Preset, kind: usize) -> Option<String> {
    let g = &p.geo;
    let mut distance = None;
    for c in p.castles.iter().filter(|c| crate::engine::board::cell::kind(c.king) == kind) {
        let rank = g.rank(c.king_from);
        if [c.king_to, c.rook_from, c.rook_to].iter().any(|&s| g.rank(s) != rank) {
            return None;
        }
        let file = |s| g.file(s) as i64;
        let dx = file(c.king_to) - file(c.king_from);
        let corner = if dx > 0 { g.files as i64 - 1 } else { 0 };
        if dx == 0 || file(c.rook_from) != corner || file(c.rook_to) != file(c.king_to) - dx.signum() {
            return None;
        }
        if *distance.get_or_insert(dx.abs()) != dx.abs() {
            return None;
        }
    }
    distance.map(|n| format!("O{n}"))
}

/// The Betza of a kind's moves as XBoard reads it: the kind's text (`B1" moves "B2 within R"
/// attacks "B3`, as the preset's `piece` line gives its groups) with its groups' Betza joined,
/// their regions and `unless_checked` dropped (XBoard has no regions: it then allows more than
/// the preset, never less) and `attacks` groups left out (moves the piece never makes).
fn plain_betza(text: &str) -> String {
    let mut out = String::new();
    let mut keep = true;
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            keep = part.trim() == "moves";
        } else if keep {
            out += part.split_whitespace().next().unwrap_or("");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{plain_betza, shift_ranks, without_deferral};

    #[test]
    fn a_declined_promotion_is_the_bare_move() {
        assert_eq!(without_deferral("c1d1="), "c1d1");
        assert_eq!(without_deferral("c1d1+"), "c1d1+");
        assert_eq!(without_deferral("e1d2=,@-h1"), "e1d2,@-h1");
    }

    #[test]
    fn betza_for_xboard_has_no_regions_and_no_attacks_only() {
        assert_eq!(plain_betza("fmWfceFifmnD"), "fmWfceFifmnD");
        assert_eq!(plain_betza("nA within own_side"), "nA");
        assert_eq!(plain_betza("W within palace\" attacks \"vR"), "W");
        assert_eq!(plain_betza("fW\" moves \"sW within far_side"), "fWsW");
        assert_eq!(plain_betza("W within palace\" moves \"F within lines unless_checked"), "WF");
    }

    #[test]
    fn boards_of_ten_ranks_count_them_from_zero() {
        assert_eq!(shift_ranks("h3h10", 10, -1), "h2h9");
        assert_eq!(shift_ranks("P@e1,@-b10", 10, -1), "P@e0,@-b9");
        assert_eq!(shift_ranks("a0a9+", 10, 1), "a1a10+");
        assert_eq!(shift_ranks("e2e4", 8, -1), "e2e4");
    }
}
