//! Properties over random games: make/unmake is exact, hashes are incremental, FEN and notation round-trip.

use herald::engine::fen;
use herald::engine::notation;
use herald::engine::turngen;
use herald::game::Game;
use std::sync::Arc;

/// A small seeded generator, so that failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn random_games(preset_name: &str, games: u64, plies: usize) {
    let preset = Arc::new(herald::check::load(preset_name).expect("preset loads"));
    for seed in 0..games {
        let mut rng = Lcg(seed + 1);
        let mut game = Game::new(preset.clone(), None, None).expect("setup parses");
        for ply in 0..plies {
            let legal = game.legal().expect("scripts run");
            if legal.is_empty() {
                assert!(
                    game.result().expect("scripts run").is_some(),
                    "no legal turn but no result, seed {seed} ply {ply}"
                );
                break;
            }
            let before_fen = game.fen();
            let before_hash = game.pos.hash;
            let before_cells = game.pos.cells.clone();
            let before_state = game.pos.state.clone();
            for t in &legal {
                let text = game.text(t);
                let typed = notation::read(&text).expect("canonical text reads");
                assert_eq!(game.resolve(&text, &typed), Ok(*t), "`{text}` does not name its own turn");
                turngen::play(&mut game.pos, &preset, t, &mut Vec::new()).expect("a listed turn plays");
                let mut fresh = game.pos.clone();
                fresh.rehash(&preset);
                assert_eq!(fresh.hash, game.pos.hash, "incremental hash differs after {text}, seed {seed}");
                let reparsed = fen::parse(&preset, &game.fen()).expect("FEN after a turn parses");
                assert_eq!(reparsed.state, game.pos.state, "state does not round-trip through FEN after {text}");
                game.pos.unmake();
                assert_eq!(game.pos.hash, before_hash);
                assert_eq!(game.pos.cells, before_cells);
                assert_eq!(game.pos.state, before_state);
                assert_eq!(game.fen(), before_fen);
            }
            let reparsed = fen::parse(&preset, &before_fen).expect("own FEN parses");
            assert_eq!(fen::write(&preset, &reparsed), before_fen, "FEN does not round-trip");
            let t = legal[rng.below(legal.len())];
            let text = game.text(&t);
            game.play(&text).expect("a legal turn plays");
            if game.result().expect("scripts run").is_some() {
                break;
            }
        }
    }
}

#[test]
fn chess_random_games_are_consistent() {
    random_games("chess", 6, 200);
}

#[test]
fn maidens_random_games_are_consistent() {
    random_games("maidens", 4, 160);
}

#[test]
fn modern_chaturanga_random_games_are_consistent() {
    random_games("modern-chaturanga", 4, 200);
}

#[test]
fn constructing_random_games_are_consistent() {
    random_games("constructing", 1, 24);
}
