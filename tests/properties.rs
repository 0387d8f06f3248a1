//! Properties over seeded random games of every shipped preset, and a bounded seeded fuzz of the parsers.
//!
//! Make/unmake and undo are exact, hashes are incremental, FEN and notation round-trip, random games
//! end consistently, `herald moves` lists the legal turns; mutated presets, FENs and move texts never
//! panic and, when refused, change nothing.

use herald::engine::notation;
use herald::engine::{Position, Side};
use herald::game::Game;
use herald::play::fen;
use herald::play::turngen;
use herald::preset::Preset;
use std::sync::Arc;

/// A small seeded generator, so that failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if n == 0 { 0 } else { ((self.0 >> 33) as usize) % n }
    }
}

/// Everything that makes a position what it is, compared bit for bit.
#[derive(Debug, PartialEq)]
struct Snapshot {
    fen: String,
    cells: Vec<u8>,
    side: Side,
    hash: u64,
    halfmove: u32,
    fullmove: u32,
    counts: Vec<u16>,
    hands: Vec<Vec<u8>>,
    state: Vec<herald::script::Value>,
    history: Vec<u64>,
}

fn snapshot(preset: &Preset, p: &Position) -> Snapshot {
    Snapshot {
        fen: fen::write(preset, p),
        cells: p.cells.clone(),
        side: p.side,
        hash: p.hash,
        halfmove: p.halfmove,
        fullmove: p.fullmove,
        counts: p.counts.to_vec(),
        hands: vec![p.hands[Side::White].clone(), p.hands[Side::Black].clone()],
        state: p.state.clone(),
        history: p.history.clone(),
    }
}

fn shipped() -> Vec<(&'static str, Arc<Preset>)> {
    herald::presets::NAMES
        .iter()
        .map(|n| (*n, Arc::new(herald::check::load(n).unwrap_or_else(|e| panic!("{}", e.render())))))
        .collect()
}

/// Each listed turn: its text names it, it plays, the hash stays incremental, and unmake restores all.
fn check_every_turn(game: &mut Game, legal: &[herald::engine::turn::Turn], at: &str) {
    let preset = game.preset.clone();
    let before = snapshot(&preset, &game.pos);
    for t in legal {
        let text = game.text(t);
        let typed = notation::read(&text).unwrap_or_else(|e| panic!("{at}: `{text}` does not read: {e}"));
        assert_eq!(game.resolve(&text, &typed), Ok(*t), "{at}: `{text}` does not name its own turn");
        turngen::play(&mut game.pos, &preset, t, &mut Vec::new()).expect("a listed turn plays");
        let mut fresh = game.pos.clone();
        fresh.rehash(&preset);
        assert_eq!(fresh.hash, game.pos.hash, "{at}: incremental hash differs after {text}");
        check_fen_round_trip(&preset, &game.pos, &format!("{at}, after {text}"));
        game.pos.unmake();
        assert_eq!(snapshot(&preset, &game.pos), before, "{at}: unmake after {text} is not exact");
    }
}

/// FEN out then in gives the same position: pieces, side, clocks, hands, state and hash. (Not its
/// history, which a FEN does not hold, nor the cells' castling marks on rooks whose king has moved:
/// the FEN keeps only the rights, which is what the hash holds too.)
fn check_fen_round_trip(preset: &Preset, pos: &Position, at: &str) {
    let out = fen::write(preset, pos);
    let back = fen::parse(preset, &out).unwrap_or_else(|e| panic!("{at}: own FEN `{out}` does not parse: {e}"));
    assert_eq!(fen::write(preset, &back), out, "{at}: FEN does not round-trip");
    let comparable = |p: &Position| {
        let mut s = snapshot(preset, p);
        s.cells.iter_mut().for_each(|c| *c &= !herald::engine::board::cell::VIRGIN);
        (s.history, s.hash) = (Vec::new(), 0);
        s
    };
    assert_eq!(comparable(pos), comparable(&back), "{at}: the position read back from `{out}` differs");
    assert_eq!(pos.hash, back.hash, "{at}: the position read back from `{out}` hashes differently");
    let again = fen::parse(preset, &out).expect("parses twice");
    assert_eq!(snapshot(preset, &again), snapshot(preset, &back), "{at}: reading `{out}` is not deterministic");
}

/// The result agrees with the legal turns, and says who won in the contract's words.
fn check_result(game: &mut Game, at: &str) {
    let result = game.result().expect("scripts run");
    let legal = game.legal().expect("scripts run");
    assert_eq!(result.is_some(), legal.is_empty(), "{at}: result {result:?} with {} legal turns", legal.len());
    let text = game.result_text().expect("scripts run");
    assert!(
        text == "ongoing" || ["white wins (", "black wins (", "draw ("].iter().any(|p| text.starts_with(p)),
        "{at}: result text `{text}`"
    );
    assert_eq!(game.result().expect("scripts run"), result, "{at}: the result changed when asked again");
}

/// Random games of `plies` plies; every `every`-th ply checks each legal turn in full.
fn random_games(name: &str, preset: &Arc<Preset>, games: u64, plies: usize, every: usize) {
    for seed in 0..games {
        let mut rng = Lcg(seed + 1);
        let mut game = Game::new(preset.clone(), None, Some(seed)).expect("setup parses");
        for ply in 0..plies {
            let at = format!("{name} seed {seed} ply {ply}");
            check_result(&mut game, &at);
            let legal = game.legal().expect("scripts run");
            if legal.is_empty() {
                break;
            }
            if ply % every == 0 {
                check_every_turn(&mut game, &legal, &at);
            }
            let before = snapshot(preset, &game.pos);
            let text = game.text(&legal[rng.below(legal.len())]);
            game.play(&text).unwrap_or_else(|e| panic!("{at}: `{text}` is listed but does not play: {e}"));
            if rng.below(8) == 0 {
                game.undo().expect("a turn to undo");
                assert_eq!(snapshot(preset, &game.pos), before, "{at}: undo of {text} is not exact");
                game.play(&text).expect("plays again");
            }
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn random_games_of_every_shipped_preset_are_consistent() {
    for (name, preset) in shipped() {
        // Scripted presets are slower; each still gets a 200-ply game checked in full every few plies.
        let (games, every) = if preset.script.active { (1, 10) } else { (4, 1) };
        random_games(name, &preset, games, 200, every);
    }
}

#[test]
fn short_random_games_of_every_shipped_preset_are_consistent() {
    for (name, preset) in shipped() {
        random_games(name, &preset, 1, 12, 4);
    }
}

/// Turns separated by `|`, as `--play` takes them.
fn run_moves(name: &str, seed: u64, played: &[String]) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["moves", name, "--seed", &seed.to_string(), "--play", &played.join(" | ")])
        .output()
        .expect("herald runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn moves_prints_exactly_the_legal_turns() {
    for (name, preset) in shipped() {
        let mut rng = Lcg(7);
        let mut game = Game::new(preset.clone(), None, Some(3)).expect("setup parses");
        let mut played = Vec::new();
        for ply in 0..30 {
            let legal = game.legal_texts().expect("scripts run");
            if ply % 10 == 0 || legal.is_empty() {
                let mut printed = run_moves(name, 3, &played);
                let last = printed.pop();
                assert_eq!(last, Some(format!("{} legal", legal.len())), "{name} after {played:?}");
                assert_eq!(printed, legal, "{name} after {played:?}");
            }
            if legal.is_empty() {
                break;
            }
            let text = legal[rng.below(legal.len())].clone();
            game.play(&text).expect("a legal turn plays");
            played.push(text);
        }
    }
}

/// One to three edits chosen by the generator (`herald::fuzzing::edit`, as the fuzz targets make).
fn mutate(text: &str, rng: &mut Lcg) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        herald::fuzzing::edit(&mut b, &mut |n| rng.below(n));
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Iterations of the bounded fuzz run: a few thousand in release, fewer in debug builds.
fn iterations(release: usize) -> usize {
    if cfg!(debug_assertions) { release / 20 } else { release }
}

#[test]
fn mutated_presets_load_or_fail_cleanly_and_play() {
    let mut rng = Lcg(2026);
    let (mut loaded, n) = (0, iterations(1500));
    for i in 0..n {
        let name = herald::presets::NAMES[i % herald::presets::NAMES.len()];
        let text = mutate(herald::presets::shipped(name).expect("shipped"), &mut rng);
        let preset = match herald::check::load_text("mutated.preset", &text) {
            Ok(p) => Arc::new(p),
            Err(e) => {
                assert!(e.render().contains(": error: "), "a diagnostic for mutation {i}");
                continue;
            }
        };
        loaded += 1;
        let Ok(mut game) = Game::new(preset, None, Some(i as u64)) else { continue };
        for _ in 0..4 {
            let Ok(legal) = game.legal_texts() else { break };
            if legal.is_empty() {
                break;
            }
            let text = &legal[rng.below(legal.len())];
            if game.play(text).is_err() {
                break;
            }
        }
    }
    assert!(loaded > n / 20, "only {loaded} of {n} mutations loaded: the mutator is too harsh to test play");
}

#[test]
fn mutated_fens_parse_to_a_fixed_point_or_fail() {
    let mut rng = Lcg(11);
    let all = shipped();
    let (mut parsed, n) = (0, iterations(4000));
    for i in 0..n {
        let (_, preset) = &all[i % all.len()];
        let text = mutate(&preset.setup, &mut rng);
        let Ok(pos) = fen::parse(preset, &text) else { continue };
        parsed += 1;
        check_fen_round_trip(preset, &pos, &format!("mutated FEN `{text}`"));
    }
    assert!(parsed * 40 > n, "only {parsed} of {n} mutated FENs parsed");
}

#[test]
fn mutated_move_texts_play_or_change_nothing() {
    let mut rng = Lcg(5);
    let all = shipped();
    let n = iterations(3000);
    let mut games: Vec<Game> =
        all.iter().map(|(_, p)| Game::new(p.clone(), None, Some(1)).expect("setup parses")).collect();
    for i in 0..n {
        let game = &mut games[i % all.len()];
        let legal = game.legal_texts().expect("scripts run");
        if legal.is_empty() {
            *game = Game::new(game.preset.clone(), None, Some(1)).expect("setup parses");
            continue;
        }
        let text = mutate(&legal[rng.below(legal.len())], &mut rng);
        let before = (snapshot(&game.preset, &game.pos), game.played.len());
        if game.play(&text).is_err() {
            assert_eq!((snapshot(&game.preset, &game.pos), game.played.len()), before, "`{text}` changed the game");
        }
    }
}
