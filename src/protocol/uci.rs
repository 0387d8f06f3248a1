//! `herald uci`: the Universal Chess Interface (docs/engine.md), with Fairy-Stockfish's
//! `UCI_Variant` for every shipped preset and `PresetPath` for a preset file.

use super::moves;
use super::session::{Go, Out, Session, say};
use super::timeman::Clock;
use crate::engine::{Position, Side};
use crate::game::Game;
use crate::search::{Iteration, MATE, MATE_BOUND, SearchError, SearchResult, eval};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// The variant a session starts with, as Fairy-Stockfish's default.
pub const DEFAULT_VARIANT: &str = "chess";

/// Run the protocol on `input` until `quit` or its end.
pub fn run(input: impl BufRead, out: Out) -> Result<(), String> {
    let mut uci = Uci::new(out)?;
    for line in input.lines() {
        let line = line.map_err(|e| format!("cannot read the input: {e}"))?;
        if !crate::budget::fresh(|| uci.handle(&line)) {
            break;
        }
    }
    // At the end of the input a search still running may finish (`echo "go depth 5" | herald uci`).
    uci.session.finish();
    Ok(())
}

/// A session under UCI.
pub struct Uci {
    session: Session,
}

/// A game of a preset from its setup (a drawn setup from the default seed).
pub(super) fn load_game(spec: &str) -> Result<Game, String> {
    let preset = crate::repl::load(spec).map_err(|e| crate::repl::load_error_line(&e))?;
    Game::new(preset, None, None).map_err(|e| e.to_string())
}

/// `name X value Y` of `setoption` (names may hold spaces; the value is the rest of the line).
fn option_words(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim().strip_prefix("name")?.trim_start();
    let (name, value) = match rest.find(" value") {
        Some(i) => (&rest[..i], rest[i + " value".len()..].trim()),
        None => (rest, ""),
    };
    Some((name.trim().to_string(), value.to_string()))
}

/// The score as UCI writes it: `cp N` (a piece of value 1 is 100) or `mate N` in moves.
pub fn score_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("mate -{}", (MATE + score + 1) / 2)
    } else {
        format!("cp {}", score as i64 * 100 / eval::UNIT as i64)
    }
}

fn info_line(preset: &crate::preset::Preset, root: &Position, it: &Iteration<'_>) -> String {
    let nps = it.nodes * 1000 / it.time_ms.max(1);
    format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv {}",
        it.depth,
        score_text(it.score),
        it.nodes,
        it.time_ms,
        moves::line_text(preset, root, it.pv)
    )
}

impl Uci {
    pub fn new(out: Out) -> Result<Uci, String> {
        Ok(Uci { session: Session::new(load_game(DEFAULT_VARIANT)?, out) })
    }

    fn say(&self, text: &str) {
        self.session.say(text);
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    /// One line of input; false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word {
            "" => {}
            "uci" => self.hello(),
            "isready" => self.say("readyok"),
            "debug" | "register" | "ponderhit" => {}
            "setoption" => self.set_option(rest),
            "ucinewgame" => {
                self.session.clear();
                let preset = self.session.preset();
                match Game::new(preset, None, None) {
                    Ok(g) => self.session.game = g,
                    Err(e) => self.error(&e.to_string()),
                }
            }
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.session.stop(),
            "d" => self.show(),
            "quit" => {
                self.session.wait(true);
                return false;
            }
            other => self.error(&format!(
                "unknown command `{other}` (uci, isready, setoption, ucinewgame, position, go, stop, d, quit)"
            )),
        }
        true
    }

    fn hello(&self) {
        let mut text = format!("id name Herald {}\nid author the Herald authors\n", env!("CARGO_PKG_VERSION"));
        let vars: String = crate::presets::NAMES.iter().map(|n| format!(" var {n}")).collect();
        text += &format!("option name UCI_Variant type combo default {DEFAULT_VARIANT}{vars}\n");
        text += "option name PresetPath type string default <empty>\n";
        text += "uciok";
        self.say(&text);
    }

    fn set_option(&mut self, rest: &str) {
        let Some((name, value)) = option_words(rest) else {
            return self.error("setoption takes `name NAME [value VALUE]`");
        };
        let spec = match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if !crate::presets::NAMES.contains(&value.as_str()) {
                    return self.error(&format!(
                        "UCI_Variant `{value}` is not a shipped preset (load a file with PresetPath)"
                    ));
                }
                value.clone()
            }
            "presetpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                value.clone()
            }
            _ => return self.error(&format!("unknown option `{name}` (UCI_Variant, PresetPath)")),
        };
        match load_game(&spec) {
            Ok(g) => {
                self.session.clear();
                let name = g.preset.name.clone();
                self.session.game = g;
                if !crate::presets::NAMES.contains(&spec.as_str()) {
                    self.say(&format!("info string preset {name} loaded from {spec}"));
                }
            }
            Err(e) => self.error(&format!("{name}: {e}")),
        }
    }

    /// `position startpos|fen FEN [moves M...]`: the game is replaced only when all of it reads.
    fn position(&mut self, rest: &str) {
        match self.reach(rest) {
            Ok(g) => self.session.game = g,
            Err(e) => self.error(&format!("{e}; the position is unchanged")),
        }
    }

    fn reach(&self, rest: &str) -> Result<Game, String> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let cut = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let (spec, moves) = (&words[..cut], words.get(cut + 1..).unwrap_or(&[]));
        let preset = self.session.preset();
        let mut game = match spec {
            ["startpos"] => Game::new(preset, None, None),
            ["fen", fen @ ..] if !fen.is_empty() => Game::new(preset, Some(&fen.join(" ")), None),
            _ => return Err("position takes `startpos` or `fen FEN`, then maybe `moves ...`".into()),
        }
        .map_err(|e| e.to_string())?;
        for (i, m) in moves.iter().enumerate() {
            Session::play(&mut game, m).map_err(|e| format!("move {} {e}", i + 1))?;
        }
        Ok(game)
    }

    fn show(&mut self) {
        let p = self.session.preset();
        let g = &mut self.session.game;
        let result = g.result_text().unwrap_or_else(|e| e.to_string());
        let text = format!(
            "{}hands: {}\nside: {}\nFen: {}\nResult: {result}",
            crate::display::diagram(&p, &g.pos),
            crate::display::hands(&p, &g.pos),
            g.pos.side,
            g.fen()
        );
        self.say(&text);
    }

    fn go(&mut self, rest: &str) {
        let go = match parse_go(rest, self.session.game.pos.side) {
            Ok(Parsed::Search(go)) => go,
            Ok(Parsed::Perft(depth)) => return self.perft(depth),
            // A GUI waits for `bestmove` after every `go`.
            Err(e) if !rest.contains("perft") => return self.say(&format!("info string error: {e}\nbestmove (none)")),
            Err(e) => return self.error(&e),
        };
        // A `go` while another search runs waits for it (an endless one is stopped first).
        let show = Box::new(|out: &Out, p: &crate::preset::Preset, root: &Position, it: &Iteration<'_>| {
            // No line at all: the game is over, as the answer says.
            if !it.pv.is_empty() {
                say(out, &info_line(p, root, it))
            }
        });
        let (preset, root) = (self.session.preset(), self.session.game.pos.clone());
        let answer = Box::new(move |w: &mut dyn Write, r: &Result<SearchResult, SearchError>| {
            let _ = match r {
                Ok(r) => writeln!(w, "bestmove {}", moves::text(&preset, &root, &r.turn)),
                Err(e) => writeln!(w, "info string {e}\nbestmove (none)"),
            };
        });
        self.session.start(&go, show, answer);
    }

    /// `go perft N`: each legal turn's count, then the total, as Fairy-Stockfish prints them (it
    /// counts through draws by repetition and move limits, and so does this).
    fn perft(&mut self, depth: usize) {
        let mut game = self.session.game.clone();
        game.preset = Arc::new(game.preset.without_static_ends());
        let p = Arc::clone(&game.preset);
        let texts = match game.legal() {
            Ok(turns) => turns.iter().map(|t| (game.text(t), moves::text(&p, &game.pos, t))).collect::<Vec<_>>(),
            Err(e) => return self.error(&e.to_string()),
        };
        let rows = match crate::play::perft::divide(&mut game.pos, &p, depth) {
            Ok(rows) => rows,
            Err(e) => return self.error(&e.render(&p)),
        };
        let mut lines: Vec<(String, u64)> = rows
            .into_iter()
            .map(|(canon, n)| {
                let t = texts.iter().find(|(c, _)| *c == canon).map_or(canon, |(_, u)| u.clone());
                (t, n)
            })
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|l| l.1).sum();
        let mut out: String = lines.iter().map(|(t, n)| format!("{t}: {n}\n")).collect();
        out += &format!("\nNodes searched: {total}");
        self.say(&out);
    }
}

enum Parsed {
    Search(Go),
    Perft(usize),
}

fn number<T: std::str::FromStr>(word: &str, value: Option<&&str>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("`go {word}` needs a number"))?;
    v.parse().map_err(|_| format!("`go {word} {v}`: `{v}` is not a number"))
}

/// The words after `go`, for the side to move.
fn parse_go(rest: &str, side: Side) -> Result<Parsed, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut go = Go::default();
    let (mut times, mut incs, mut to_go) = ([None, None], [0, 0], None);
    let mut i = 0;
    while i < words.len() {
        let (w, v) = (words[i], words.get(i + 1));
        i += 2;
        match w {
            "perft" => {
                let d: usize = number(w, v)?;
                if !(1..=crate::play::perft::MAX_DEPTH).contains(&d) {
                    return Err(format!("perft depth {d}: say 1 to {}", crate::play::perft::MAX_DEPTH));
                }
                return Ok(Parsed::Perft(d));
            }
            "depth" => go.depth = Some(number::<u32>(w, v)?.max(1)),
            "nodes" => go.nodes = Some(number::<u64>(w, v)?.max(1)),
            "mate" => go.depth = Some(number::<u32>(w, v)?.clamp(1, 24) * 2),
            "movetime" => go.movetime_ms = Some(number::<u64>(w, v)?.max(1)),
            "wtime" => times[0] = Some(number::<i64>(w, v)?.max(0) as u64),
            "btime" => times[1] = Some(number::<i64>(w, v)?.max(0) as u64),
            "winc" => incs[0] = number::<i64>(w, v)?.max(0) as u64,
            "binc" => incs[1] = number::<i64>(w, v)?.max(0) as u64,
            "movestogo" => to_go = Some(number::<u32>(w, v)?),
            "infinite" | "ponder" => {
                go.infinite |= w == "infinite";
                i -= 1;
            }
            "searchmoves" => return Err("`go searchmoves` is not supported".into()),
            other => {
                return Err(format!(
                    "`go {other}`: unknown (depth, nodes, movetime, wtime, btime, winc, binc, movestogo, infinite, perft)"
                ));
            }
        }
    }
    let me = if side == Side::White { 0 } else { 1 };
    if let Some(left) = times[me] {
        go.clock = Some(Clock { left_ms: left, inc_ms: incs[me], moves_to_go: to_go.filter(|&n| n > 0) });
    }
    Ok(Parsed::Search(go))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_words_give_the_side_to_move_its_own_clock() {
        let Ok(Parsed::Search(go)) = parse_go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5", Side::Black) else {
            panic!("not a search");
        };
        assert_eq!(go.clock, Some(Clock { left_ms: 2000, inc_ms: 20, moves_to_go: Some(5) }));
    }

    #[test]
    fn bad_go_words_are_errors() {
        assert!(parse_go("depth x", Side::White).is_err());
        assert!(parse_go("nodes", Side::White).is_err());
        assert!(parse_go("perft 0", Side::White).is_err());
        assert!(parse_go("sideways 3", Side::White).is_err());
    }

    #[test]
    fn scores_in_centipawns_and_mates_in_moves() {
        assert_eq!(score_text(eval::UNIT), "cp 100");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-MATE + 2), "mate -1");
    }
}
