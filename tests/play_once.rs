//! One turn, once: a REPL turn generates its position's legal turns once, and a typed turn is
//! matched against the legal turns structurally with the same answer as comparing notation.

use herald::engine::notation::{self, Part};
use herald::engine::turn::{Turn, canonical_parts};
use herald::engine::typed::TypedTurn;
use herald::game::Game;
use herald::play::turngen;
use herald::repl::Repl;

fn game(preset: &str) -> Game {
    Game::new(herald::repl::load(preset).expect("preset loads"), None, None).expect("setup parses")
}

/// Legal-turn generations while `line` runs in the REPL, after a first turn (whose result left the
/// position's turns known).
fn generations_of_second_turn(preset: &str) -> u64 {
    let mut r = Repl::new(game(preset));
    let first = r.game.legal_texts().expect("turns")[0].clone();
    r.execute(&first).unwrap_or_else(|e| panic!("{preset}: `{first}`: {e}"));
    let second = r.game.legal_texts().expect("turns")[0].clone();
    let before = turngen::generations();
    r.execute(&second).unwrap_or_else(|e| panic!("{preset}: `{second}`: {e}"));
    turngen::generations() - before
}

#[test]
fn a_repl_turn_generates_its_positions_turns_once() {
    // Chess (moves only), Constructing (two-part turns, each part running a script), Ruddigore.
    for preset in ["chess", "constructing", "ruddigore"] {
        assert_eq!(generations_of_second_turn(preset), 1, "{preset}");
    }
}

#[test]
fn short_notation_and_a_result_reuse_the_known_turns() {
    let mut r = Repl::new(game("chess"));
    r.execute("e4").expect("plays");
    let before = turngen::generations();
    r.execute("Nf6").expect("plays");
    r.execute("show").expect("shows");
    r.game.result().expect("result");
    r.game.legal_texts().expect("turns");
    assert_eq!(turngen::generations() - before, 1);
}

/// Typed forms of a turn: its canonical parts, each prefix, and the same without move labels.
fn typed_forms(canon: &[Part]) -> Vec<Vec<Part>> {
    let mut out = Vec::new();
    for n in 1..=canon.len() {
        out.push(canon[..n].to_vec());
        let bare: Vec<Part> = canon[..n]
            .iter()
            .map(|p| match p {
                Part::Move { from, to, .. } => Part::Move { label: None, from: from.clone(), to: to.clone() },
                other => other.clone(),
            })
            .collect();
        out.push(bare);
    }
    out
}

#[test]
fn structural_matching_agrees_with_notation() {
    let mut checked = 0;
    for preset in herald::presets::NAMES {
        let mut g = game(preset);
        for _ in 0..3 {
            let legal: Vec<Turn> = g.legal().expect("turns");
            if legal.is_empty() {
                break;
            }
            let canons: Vec<Vec<Part>> = legal.iter().map(|t| canonical_parts(&g.preset, &g.pos, t)).collect();
            // Every turn's own forms, against every legal turn (a sample on the big lists).
            for (i, canon) in canons.iter().enumerate().step_by(legal.len().div_ceil(40)) {
                for typed in typed_forms(canon) {
                    let resolved = TypedTurn::resolve(&g.preset, &typed).expect("own squares resolve");
                    for (t, c) in legal.iter().zip(&canons) {
                        let by_text = notation::parts_match(&typed, c);
                        let by_structure = resolved.matches(&g.preset, &g.pos, t);
                        assert_eq!(by_structure, by_text, "{preset}: {typed:?} against {c:?} (turn {i})");
                        checked += 1;
                    }
                }
            }
            let next = g.text(&legal[legal.len() / 2]);
            g.play(&next).unwrap_or_else(|e| panic!("{preset}: `{next}`: {e}"));
        }
    }
    assert!(checked > 10_000, "only {checked} comparisons");
}
