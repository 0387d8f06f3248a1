//! The computer player: it finds mates and material, plays by every preset's rules, and self-play
//! of every shipped preset only ever plays legal turns.

use herald::game::Game;
use herald::play::turngen::legal_turns;
use herald::search::selfplay::{self, Options, Summary};
use herald::search::{Limits, MATE_BOUND, Searcher, best_turn, eval, repl_cmds};
use std::sync::Arc;

fn shipped(name: &str, fen: Option<&str>) -> Game {
    let p = herald::check::load(name).unwrap_or_else(|e| panic!("{}", e.render()));
    Game::new(Arc::new(p), fen, None).expect("fen parses")
}

fn inline(preset: &str, fen: &str) -> Game {
    let p = herald::check::load_text("inline.preset", preset).unwrap_or_else(|e| panic!("{}", e.render()));
    Game::new(Arc::new(p), Some(fen), None).expect("fen parses")
}

/// The turn the computer plays in a position of a shipped preset, and its score.
fn computer_plays(preset: &str, fen: &str, limits: Limits) -> (String, i32) {
    let mut g = shipped(preset, Some(fen));
    let before = g.fen();
    let r = best_turn(&g.preset.clone(), &mut g.pos, &limits).expect("a turn is found");
    assert_eq!(g.fen(), before, "the search leaves the position as it was");
    (r.text, r.score)
}

#[test]
fn mate_in_one() {
    let (turn, score) = computer_plays("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Limits::depth(3));
    assert_eq!(turn, "R a1-a8");
    assert!(score > MATE_BOUND, "scored as a win: {score}");
}

#[test]
fn mate_in_two() {
    // Morphy: 1. Ra6! bxa6 2. b7#; 1... Bc7 (or any bishop move) 2. Rxa7#. After the quiet
    // sacrifice Black is in zugzwang, and the threat term (its pawn attacks the rook) lifts
    // Black's static score above beta, so null-move pruning is tried there and the pass hides the
    // mate: no depth up to 24 found it. A null move's cut is now verified where the side to move
    // has one officer at most (a search without its passes, alphabeta.rs): found at depth 4.
    let (turn, score) = computer_plays("chess", "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", Limits::depth(5));
    assert_eq!(turn, "R a1-a6");
    assert_eq!(herald::search::score_text(score), "win in 2");
}

#[test]
fn takes_a_hanging_queen() {
    let (turn, score) = computer_plays("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", Limits::depth(2));
    assert_eq!(turn, "R d2-d5");
    assert!(score > 4 * eval::UNIT, "a rook up afterwards: {score}");
}

#[test]
fn avoids_losing_its_queen() {
    // The queen is attacked by a pawn: every sensible turn moves it (taking the undefended pawn
    // with check, Q d5-c6, is the best of them), and the queen is still there three plies on.
    let (turn, score) = computer_plays("chess", "4k3/8/2p5/3Q4/8/8/8/4K3 w - - 0 1", Limits::depth(3));
    assert!(turn.starts_with("Q d5-") && turn != "Q d5-b5", "{turn}");
    assert!(score > 8 * eval::UNIT, "the queen is kept: {turn} scores {score}");
}

#[test]
fn captures_the_king_in_modern_chaturanga() {
    let (turn, score) = computer_plays("modern-chaturanga", "4k3/pppp4/8/8/8/8/8/4R1K1 w - - 0 1", Limits::depth(2));
    assert_eq!(turn, "R e1-e8");
    assert!(score > MATE_BOUND);
}

#[test]
fn node_limits_are_deterministic() {
    let run = || {
        let mut g = shipped("chess", None);
        let p = g.preset.clone();
        let r = best_turn(&p, &mut g.pos, &Limits::nodes(3000)).unwrap();
        (r.text, r.score, r.depth, r.nodes)
    };
    assert_eq!(run(), run());
}

#[test]
fn a_limit_stops_the_first_iteration_once_a_root_turn_is_scored() {
    // Five nodes: the root and the first root turn's answer, then the limit. Before, the first
    // iteration could not be stopped (chess: 21 nodes; Ruddigore's first iteration at one second
    // was most of its time).
    for name in ["chess", "ruddigore"] {
        let mut g = shipped(name, None);
        let p = g.preset.clone();
        let r = best_turn(&p, &mut g.pos, &Limits { depth: Some(6), nodes: Some(5), time_ms: None }).unwrap();
        assert_eq!((r.depth, r.nodes), (0, 5), "{name}: stopped within the first iteration");
        let legal = legal_turns(&mut g.pos, &p).unwrap();
        assert!(legal.contains(&r.turn), "{name}: {} is legal", r.text);
        let full = best_turn(&p, &mut g.pos, &Limits::depth(1)).unwrap();
        assert!(full.nodes > 5, "{name}: the whole first iteration takes {} nodes", full.nodes);
    }
}

#[test]
fn a_finished_game_has_no_best_turn() {
    let mut g = shipped("chess", Some("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"));
    let p = g.preset.clone();
    let e = best_turn(&p, &mut g.pos, &Limits::depth(2)).unwrap_err();
    assert_eq!(e.to_string(), "the game is over: white wins (checkmate)");
}

const EVALUATED: &str = r#"
    board 5 x 5
    piece King K royal moves "K"
    piece Man M value 1 moves "W"
    setup "k4/5/5/5/M3K w"
    // White's Man is worth most on the middle file, whatever the built-in evaluation says.
    fn evaluate(base) {
        let v = -500
        if piece_at(b1) != none or piece_at(b2) != none or piece_at(b3) != none {
            v = 500
        }
        if mover == black {
            return -v
        }
        return v
    }
"#;

#[test]
fn a_preset_function_replaces_the_evaluation() {
    let mut g = inline(EVALUATED, "k4/5/5/5/M3K w");
    let p = g.preset.clone();
    let r = best_turn(&p, &mut g.pos, &Limits::depth(1)).unwrap();
    assert_eq!((r.text.as_str(), r.score), ("M a1-b1", 500));
}

#[test]
fn evaluate_must_return_an_int() {
    let text = EVALUATED.replace("return -v", "return v").replace("return v", "return \"much\"");
    let mut g = inline(&text, "k4/5/5/5/M3K w");
    let p = g.preset.clone();
    let e = best_turn(&p, &mut g.pos, &Limits::depth(1)).unwrap_err();
    assert!(e.to_string().contains("`evaluate` must return an int, not a string"), "{e}");
}

#[test]
fn go_and_hint_in_the_repl() {
    let mut g = shipped("chess", Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
    let hint = repl_cmds::hint(&mut g, "2").unwrap();
    assert!(hint.starts_with("hint: R a1-a8   (depth "), "{hint}");
    assert!(g.played.is_empty(), "a hint plays nothing");
    let out = repl_cmds::go(&mut g, "2").unwrap();
    assert!(out.starts_with("R a1-a8"), "{out}");
    assert!(out.ends_with("result: white wins (checkmate)"), "{out}");
    assert_eq!(repl_cmds::go(&mut g, "2").unwrap_err(), "the game is over: white wins (checkmate)");
    assert!(repl_cmds::go(&mut g, "fast").unwrap_err().contains("neither a depth"));
}

#[test]
fn auto_both_plays_to_the_end() {
    let mut g = shipped("chess", Some("7k/8/6K1/8/8/8/8/Q7 w - - 0 1"));
    let mut sides = repl_cmds::Auto::default();
    let out = repl_cmds::auto(&mut g, "both 3", &mut sides).unwrap();
    assert!(out.contains("result: white wins (checkmate)"), "{out}");
    assert!(repl_cmds::auto(&mut g, "sideways", &mut sides).is_err());
}

/// Play `games` short games of a shipped preset, checking every turn is among the legal turns.
fn selfplay_checked(name: &str, games: u32, limits: Limits, max_plies: usize) -> Summary {
    let mut summary = Summary::default();
    let mut rng = herald::rng::Rng::new(7);
    for _ in 0..games {
        let mut g = shipped(name, None);
        let mut s = Searcher::new();
        let mut plies = 0;
        while plies < max_plies && g.result().unwrap().is_none() {
            let p = g.preset.clone();
            let r = if plies < 2 {
                let legal = legal_turns(&mut g.pos, &p).unwrap();
                let t = legal[rng.below(legal.len())];
                g.text(&t)
            } else {
                let r = s.search(&p, &mut g.pos, &limits).unwrap_or_else(|e| panic!("{name}: {e}"));
                let legal = legal_turns(&mut g.pos, &p).unwrap();
                assert!(legal.contains(&r.turn), "{name}: {} is not legal in {}", r.text, g.fen());
                r.text
            };
            g.play(&r).unwrap_or_else(|e| panic!("{name}: {r} refused in {}: {e}", g.fen()));
            plies += 1;
        }
        let result = g.result().unwrap();
        summary.add(&selfplay::Record {
            start_fen: g.start_fen.clone(),
            seed: None,
            turns: vec![String::new(); plies],
            result,
            nodes: 0,
            ms: 0,
        });
    }
    summary
}

#[test]
fn a_short_game_of_every_shipped_preset_plays_only_legal_turns() {
    for name in herald::presets::NAMES {
        let plies = if *name == "constructing" { 3 } else { 8 };
        assert_eq!(selfplay_checked(name, 1, Limits::depth(1), plies).games(), 1, "{name}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn selfplay_of_every_shipped_preset_plays_only_legal_turns() {
    for name in herald::presets::NAMES {
        // Scripted presets with many turns per position (constructing) search one ply here.
        let (depth, plies) = if *name == "constructing" { (1, 4) } else { (2, 16) };
        let s = selfplay_checked(name, 2, Limits { depth: Some(depth), nodes: Some(1500), time_ms: None }, plies);
        assert_eq!(s.games(), 2, "{name}");
    }
}

#[test]
fn selfplay_saves_games_that_replay() {
    let dir = std::env::temp_dir().join(format!("herald-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let p = Arc::new(herald::check::load("modern-chaturanga").unwrap());
    let opts = Options { games: 2, seed: 3, limits: Limits::depth(1), max_plies: 40, random_plies: 4 };
    let mut out = Vec::new();
    let summary = selfplay::run(&p, "modern-chaturanga", &opts, Some(&dir), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.lines().last().unwrap().starts_with("2 games: "), "{text}");
    assert_eq!(summary.games(), 2);
    let files = herald::games::collect(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(files.len(), 2);
    let s = herald::games::Runner::default().run_all(&files);
    assert!(s.failures.is_empty(), "{:?}", s.failures.iter().map(|f| f.to_string()).collect::<Vec<_>>());
    assert_eq!(s.passed, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn satisfies_the_ruddigore_curse_by_capturing() {
    // Move 2: a quiet turn must give a piece to the curse; taking the free pawn on d5 needs none.
    let (turn, _) = computer_plays("ruddigore", "4x3/8/8/3p4/4P3/8/PPP5/4X3 w - - 0 2", Limits::depth(2));
    assert_eq!(turn, "P e4-d5");
}

#[test]
fn values_table_reads_back_as_a_values_file() {
    use herald::search::values::{ValuesOptions, estimate, parse_file, reference_kind, table};
    let p = Arc::new(herald::check::load("chess").unwrap_or_else(|e| panic!("{}", e.render())));
    assert_eq!(reference_kind(&p).map(|k| p.kinds[k].name.as_str()), Some("Pawn"));
    let opts = ValuesOptions { games: 2, nodes: 300, seed: 3, max_plies: 40, proxy_only: true };
    let rows = estimate(&p, &opts, &mut |_| {}).expect("self-play runs");
    let value = |name: &str| rows.iter().find(|r| r.name == name).and_then(|r| r.proxy).expect("sampled").0;
    assert_eq!(value("Pawn"), 1.0);
    // A queen moves more than a rook, and a rook more than a pawn, wherever they stand.
    assert!(value("Queen") > value("Rook") && value("Rook") > 1.0, "{rows:?}");
    let text = table(&p, &rows, &opts);
    let back = parse_file("t", &text).expect("the table is a values file");
    assert_eq!(
        back.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"]
    );
    assert!((back[1].1 - value("Queen")).abs() < 0.01);
    // The same seed gives the same table.
    assert_eq!(table(&p, &estimate(&p, &opts, &mut |_| {}).unwrap(), &opts), text);
}

#[test]
fn values_file_errors_name_the_line() {
    use herald::search::values::parse_file;
    assert_eq!(
        parse_file("v.txt", "# c\nKnight 3.2\n\nRook five\n").unwrap_err(),
        "v.txt:4: `five` is not a piece value (a number of pawns)"
    );
    assert_eq!(parse_file("v.txt", "Queen\n").unwrap_err(), "v.txt:1: expected `NAME VALUE`, found `Queen`");
    assert_eq!(parse_file("v.txt", "Knight 3.25 ± 0.1\n").unwrap(), vec![("Knight".to_string(), 3.25)]);
}

#[test]
fn chess_values_are_within_a_pawn_of_the_classical_ones() {
    use herald::search::values::{ValuesOptions, estimate};
    let p = Arc::new(herald::check::load("chess").unwrap_or_else(|e| panic!("{}", e.render())));
    let opts = ValuesOptions { games: 32, proxy_only: true, ..ValuesOptions::default() };
    let rows = estimate(&p, &opts, &mut |_| {}).expect("self-play runs");
    for (name, classical) in [("Knight", 3.0), ("Bishop", 3.0), ("Rook", 5.0), ("Queen", 9.0)] {
        let v = rows.iter().find(|r| r.name == name).and_then(|r| r.proxy).expect("sampled").0;
        assert!((v - classical).abs() < 1.0, "{name}: {v:.2} pawns, classical {classical}: {rows:?}");
    }
}

/// A principal variation is named turn by turn in the positions it passes through: a double step
/// in the line then an en-passant capture takes the pawn that double-stepped (the line was once
/// played without beginning and ending its turns: the capture took the root's en-passant victim,
/// and a later turn's piece was gone, a panic that left `go` unanswered in a match).
#[test]
fn a_line_with_en_passant_is_named_turn_by_turn() {
    // White has just played g2-g4: the root's en-passant victim is g4.
    let mut g = shipped("chess", Some("4k3/5p2/8/4P3/6Pp/8/8/4K3 b - g3 0 1"));
    let p = g.preset.clone();
    let mut line = Vec::new();
    let root = g.pos.clone();
    for uci in ["f7f5", "e5f6", "h4h3", "g4g5"] {
        let turns = legal_turns(&mut g.pos, &p).expect("turns");
        let t = *turns
            .iter()
            .find(|t| herald::protocol::moves::text(&p, &g.pos, t) == uci)
            .unwrap_or_else(|| panic!("{uci} is legal"));
        herald::play::turngen::play_listed(&mut g.pos, &p, &t, &mut Vec::new()).expect("plays");
        line.push(t);
    }
    assert_eq!(herald::protocol::moves::line_text(&p, &root, &line), "f7f5 e5f6 h4h3 g4g5");
}

/// Threats from the bitboard counts: a piece attacked by a less valuable one counts the
/// difference, an undefended attacked piece its whole value, a defended one attacked by a more
/// valuable piece nothing, and royal pieces never.
#[test]
fn threats_weigh_attacked_pieces() {
    use herald::search::attacks::AttackSets;
    // White's knight on d5 attacks the rook on c7 (undefended) and the bishop on e7 (defended by
    // the king); White's rook on a1 attacks the pawn on a7 (defended by the rook on c7). Black
    // attacks none of White's pieces.
    let g = shipped("chess", Some("4k3/p1r1b3/8/3N4/8/8/8/R3K3 w - - 0 1"));
    let mut sets = AttackSets::new(&g.preset).expect("chess has bitboards");
    let mut values = [0; 128];
    for (k, kind) in g.preset.kinds.iter().enumerate() {
        for side in herald::engine::Side::BOTH {
            values[herald::engine::board::cell::piece(k, side) as usize] = kind.value * 100;
        }
    }
    sets.set_values(&values);
    let mut pos = g.pos.clone();
    let c = sets.count(&g.preset, &mut pos, &mut Vec::new(), &[1; 128]).expect("counted by bitboards");
    // The rook: its whole value; the bishop: defended, and attacked by a piece of its value; the
    // pawn: defended, and attacked by a more valuable piece.
    assert_eq!(c.threats, [500, 0]);
    // With the king on b8 the rook is defended: it counts what the knight is worth less; the
    // bishop is defended by the rook.
    let g = shipped("chess", Some("1k6/p1r1b3/8/3N4/8/8/8/R3K3 w - - 0 1"));
    let mut pos = g.pos.clone();
    let c = sets.count(&g.preset, &mut pos, &mut Vec::new(), &[1; 128]).expect("counted by bitboards");
    assert_eq!(c.threats, [500 - 300, 0]);
}

/// Safe checks from the bitboard counts: the squares a side's non-royal pieces move to from which
/// they would check the enemy royal piece, where no enemy piece attacks.
#[test]
fn safe_checks_count_unattacked_checking_squares() {
    use herald::search::attacks::AttackSets;
    let count = |fen: &str| {
        let g = shipped("chess", Some(fen));
        let sets = AttackSets::new(&g.preset).expect("chess has bitboards");
        let mut pos = g.pos.clone();
        sets.count(&g.preset, &mut pos, &mut Vec::new(), &[1; 128]).expect("counted by bitboards").safe_checks
    };
    // The queen checks from e8 (the back rank); the knight from e7 and f6, but the g7 pawn
    // guards f6. Black's pawns cannot reach f2 or h2, where they would check.
    assert_eq!(count("6k1/5ppp/8/3N4/8/8/5PPP/4Q1K1 w - - 0 1"), [2, 0]);
    // A rook on a8 guards e8, whichever side is to move.
    assert_eq!(count("r5k1/5ppp/8/3N4/8/8/5PPP/4Q1K1 w - - 0 1"), [1, 0]);
    assert_eq!(count("r5k1/5ppp/8/3N4/8/8/5PPP/4Q1K1 b - - 0 1"), [1, 0]);
    // Black's rook checks from e1; a rook on a1 guards it (and its own check from a8 is blocked
    // by Black's rook on the back rank).
    assert_eq!(count("4r1k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"), [0, 1]);
    assert_eq!(count("4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), [0, 0]);
}

/// The evaluation's counts from bitboard target sets (mobility, moves near the enemy royal
/// piece, a capture for the mover) equal those of the move lists, in every position of random
/// games of every shipped preset where the bitboards apply; and they apply to the seed presets
/// on 8x8 boards (not to boards of more than 64 squares: capablanca, constructing).
#[test]
fn bitboard_counts_equal_the_move_lists() {
    use herald::engine::Move;
    use herald::engine::position::mflag;
    use herald::search::attacks::{AttackSets, Counts, listed};
    let mut rng = herald::rng::Rng::new(25);
    let mut buf = Vec::new();
    let mut compared = std::collections::BTreeMap::new();
    // A distinct weight per cell code, so that each move's mover is checked.
    let weights: [i32; 128] = std::array::from_fn(|i| 1 + i as i32 * 3);
    for name in herald::presets::NAMES {
        let g0 = shipped(name, None);
        let Some(sets) = AttackSets::new(&g0.preset) else { continue };
        let plies = if *name == "constructing" { 6 } else { 70 };
        for _ in 0..2 {
            let mut g = shipped(name, None);
            let mut searcher = Searcher::new();
            for _ in 0..plies {
                let p = g.preset.clone();
                for side in [g.pos.side, g.pos.side.other()] {
                    // Both sides to move, so that the en passant and capture terms of each show.
                    let mover = g.pos.side;
                    g.pos.side = side;
                    if let Some(fast) = sets.count(&p, &mut g.pos, &mut buf, &weights) {
                        let slow = listed(&p, &mut g.pos, &mut buf, &weights);
                        assert_eq!(
                            Counts { capturers: 0, safe_checks: [0; 2], ..fast },
                            slow,
                            "{name}: {} with {side:?} to move",
                            g.fen()
                        );
                        // The capturers' moves hold every capture, in the order of the full list.
                        let captures =
                            |moves: &mut Vec<Move>| moves.retain(|m| m.flags & (mflag::CAPTURE | mflag::EP) != 0);
                        let mut theirs = Vec::new();
                        sets.capturers_moves(&p, &g.pos, fast.capturers, &mut theirs);
                        captures(&mut theirs);
                        buf.clear();
                        g.pos.pseudo_moves(&p, &mut buf);
                        captures(&mut buf);
                        assert_eq!(theirs, buf, "{name}: {} with {side:?} to move", g.fen());
                        *compared.entry(*name).or_insert(0) += 1;
                    }
                    g.pos.side = mover;
                }
                if g.result().unwrap().is_some() {
                    break;
                }
                // Half the turns the computer's (one ply), so that the games open up.
                let t = if rng.below(2) == 0 {
                    searcher.search(&p, &mut g.pos, &Limits::depth(1)).unwrap().turn
                } else {
                    let legal = legal_turns(&mut g.pos, &p).unwrap();
                    legal[rng.below(legal.len())]
                };
                let text = g.text(&t);
                g.play(&text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
            }
        }
    }
    for name in ["chess", "maidens", "modern-chaturanga", "universal", "ruddigore", "shatranj", "makruk"] {
        assert!(compared.get(name).is_some_and(|&n| n > 50), "{name}: {compared:?}");
    }
}

/// The static exchange evaluation of `from`-`to` in a position of a shipped preset.
fn see(preset: &str, fen: &str, from: &str, to: &str) -> Option<i32> {
    let g = shipped(preset, Some(fen));
    let ev = eval::Evaluator::new(&g.preset);
    let sq = |s: &str| g.preset.geo.parse_square(s).expect("a square");
    ev.see(&g.preset, &g.pos, sq(from), sq(to))
}

#[test]
fn static_exchange_follows_every_attacker_and_x_ray() {
    let u = eval::UNIT;
    // An undefended pawn; then one a pawn defends (the rook is lost for it).
    assert_eq!(see("chess", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), Some(u));
    assert_eq!(see("chess", "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), Some(u - 5 * u));
    // The rook behind the first (an x-ray) answers the black rook: a pawn won.
    assert_eq!(see("chess", "4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2", "d5"), Some(u));
    // Defended by the queen alone, which would be lost to the second rook: Black does not retake.
    assert_eq!(see("chess", "3qk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2", "d5"), Some(u));
    // Without the second rook the queen retakes: the exchange loses the rook for a pawn.
    assert_eq!(see("chess", "3qk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2", "d5"), Some(u - 5 * u));
    // A quiet move onto a square a pawn attacks; the king only takes what is undefended.
    assert_eq!(see("chess", "4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1", "d5"), Some(-5 * u));
    assert_eq!(see("chess", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1", "d2"), Some(u));
    // Explosions change what a capture does: no exchange is counted.
    assert_eq!(see("atomic", "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), None);
}
