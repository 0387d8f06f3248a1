//! Perft: count the leaves of the legal-turn tree, with bulk counting at the last ply.

use super::memo::Memos;
use super::turngen::{count_turns_in, for_each_turn, for_each_turn_in, legal_turns};
use crate::engine::position::{Move, Position};
use crate::engine::turn::format_turn;
use crate::preset::Preset;
use crate::script::ScriptError;

/// Deepest perft accepted: far beyond what finishes, and it bounds the recursion (a game need not end).
pub const MAX_DEPTH: usize = 32;

/// Why a perft gave no count.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    #[error("perft depth {0} is too deep; the limit is {MAX_DEPTH}")]
    TooDeep(usize),
    #[error("cannot start a perft thread: {0}")]
    NoThread(String),
    #[error("a perft thread failed")]
    ThreadFailed,
    #[error(transparent)]
    Script(#[from] ScriptError),
}

impl PerftError {
    /// The error as the CLI and REPL print it: a script error quotes its line.
    pub fn render(&self, preset: &Preset) -> String {
        match self {
            PerftError::Script(e) => e.render(preset),
            other => other.to_string(),
        }
    }
}

/// An absurd depth is refused before anything is allocated or searched.
fn check_depth(depth: usize) -> Result<(), PerftError> {
    if depth <= MAX_DEPTH { Ok(()) } else { Err(PerftError::TooDeep(depth)) }
}

/// Move buffers, one per ply, allocated once for a whole perft run.
pub struct Buffers(Vec<Vec<Move>>);

impl Buffers {
    pub fn new(depth: usize) -> Buffers {
        Buffers((0..=depth).map(|_| Vec::with_capacity(256)).collect())
    }
}

/// Leaf count at `depth`. A finished game has no legal turns, so it counts as no leaves.
pub fn perft(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers) -> u64 {
    count(pos, preset, depth, bufs, true)
}

/// Like [`perft`], but plays every leaf move too (no bulk counting): for honest speed figures.
pub fn perft_no_bulk(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers) -> u64 {
    count(pos, preset, depth, bufs, false)
}

fn count(pos: &mut Position, preset: &Preset, depth: usize, bufs: &mut Buffers, bulk: bool) -> u64 {
    if preset.script.active {
        // Perft is run only through `try_perft` for scripted presets; errors surface there.
        return scripted(pos, preset, depth, bulk).unwrap_or(0);
    }
    if depth == 0 {
        return 1;
    }
    if pos.static_result(preset).is_some() {
        return 0;
    }
    if depth == 1
        && bulk
        && let Some(n) = pos.count_legal(preset)
    {
        return n;
    }
    let mut moves = std::mem::take(&mut bufs.0[depth]);
    pos.legal_moves(preset, &mut moves);
    let n = if depth == 1 && bulk {
        moves.len() as u64
    } else {
        let mut sum = 0;
        for &m in &moves {
            pos.make(preset, m);
            sum += count(pos, preset, depth - 1, bufs, bulk);
            pos.unmake();
        }
        sum
    };
    bufs.0[depth] = moves;
    n
}

/// Perft through the turn generator, running every hook: for presets with rule scripts.
pub fn scripted(pos: &mut Position, preset: &Preset, depth: usize, bulk: bool) -> Result<u64, ScriptError> {
    scripted_in(pos, preset, depth, bulk, &mut Memos::default(), &mut Memos::default())
}

/// [`scripted`], the last ply's listings sharing `memos` (see [`Memos`]) and the inner nodes'
/// sharing `inner`: kept apart, the inner listings' runs (Universal's after each capture) do not
/// push out of the few kept runs those that let the last ply count quiet moves without playing
/// them (sharing one set cost Universal's perft 3 a seventh more instructions).
fn scripted_in<'a>(
    pos: &mut Position,
    preset: &'a Preset,
    depth: usize,
    bulk: bool,
    memos: &mut Memos<'a>,
    inner: &mut Memos<'a>,
) -> Result<u64, ScriptError> {
    if depth == 0 {
        return Ok(1);
    }
    if super::end::terminal_in(pos, preset, memos)?.is_some() {
        return Ok(0);
    }
    if depth == 1 && bulk {
        return count_turns_in(pos, preset, memos);
    }
    let mut n = 0;
    for_each_turn_in(pos, preset, inner, &mut |p, _, inner| {
        n += scripted_in(p, preset, depth - 1, bulk, memos, inner)?;
        Ok(())
    })?;
    Ok(n)
}

/// Perft that reports a failing rule script instead of counting around it; one command's budget
/// ([`crate::budget`]) bounds all its listings.
pub fn try_perft(pos: &mut Position, preset: &Preset, depth: usize, bulk: bool) -> Result<u64, PerftError> {
    check_depth(depth)?;
    Ok(counted(pos, preset, depth, bulk)?)
}

/// [`try_perft`] once the depth is known to be sane: only a script can fail.
fn counted(pos: &mut Position, preset: &Preset, depth: usize, bulk: bool) -> Result<u64, ScriptError> {
    if preset.script.active {
        return crate::budget::command(|| scripted(pos, preset, depth, bulk));
    }
    let mut bufs = Buffers::new(depth);
    Ok(count(pos, preset, depth, &mut bufs, bulk))
}

/// Perft split at the root over `threads` threads: each takes its share of the positions after the
/// first turn, on its own copy of the position. The same count as [`try_perft`].
pub fn parallel(
    pos: &mut Position,
    preset: &Preset,
    depth: usize,
    bulk: bool,
    threads: usize,
) -> Result<u64, PerftError> {
    crate::budget::command(|| split(pos, preset, depth, bulk, threads))
}

fn split(pos: &mut Position, preset: &Preset, depth: usize, bulk: bool, threads: usize) -> Result<u64, PerftError> {
    if threads <= 1 || depth < 2 || super::end::terminal(pos, preset)?.is_some() {
        return try_perft(pos, preset, depth, bulk);
    }
    let budget = crate::budget::current();
    let mut children: Vec<Position> = Vec::new();
    for_each_turn(pos, preset, &mut |p, _| {
        children.push(p.clone());
        Ok(())
    })?;
    let per = children.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = children
            .chunks_mut(per)
            .map(|share| {
                let budget = budget.clone();
                // As large a stack as the main command's: a hook nests as deep here as there; and
                // the command's budget, shared.
                crate::stack::builder().spawn_scoped(scope, move || {
                    crate::budget::under(budget, || {
                        share.iter_mut().try_fold(0u64, |n, child| {
                            Ok::<u64, PerftError>(n + try_perft(child, preset, depth - 1, bulk)?)
                        })
                    })
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PerftError::NoThread(e.to_string()))?;
        workers.into_iter().try_fold(0u64, |n, w| match w.join() {
            Ok(r) => Ok(n + r?),
            Err(_) => Err(PerftError::ThreadFailed),
        })
    })
}

/// Per root turn counts, for `--divide`: each turn's canonical text and its count.
pub fn divide(pos: &mut Position, preset: &Preset, depth: usize) -> Result<Vec<(String, u64)>, PerftError> {
    check_depth(depth)?;
    crate::budget::command(|| divide_within(pos, preset, depth))
}

fn divide_within(pos: &mut Position, preset: &Preset, depth: usize) -> Result<Vec<(String, u64)>, PerftError> {
    if depth == 0 || super::end::terminal(pos, preset)?.is_some() {
        return Ok(Vec::new());
    }
    let turns = legal_turns(pos, preset)?;
    let mut out = Vec::new();
    for t in turns {
        let text = format_turn(preset, pos, &t);
        let mut n = 0;
        // Replaying through the generator runs the turn's hooks exactly as generation did.
        for_each_turn(pos, preset, &mut |p, u| {
            if *u == t {
                n = counted(p, preset, depth - 1, true)?;
            }
            Ok(())
        })?;
        out.push((text, n));
    }
    Ok(out)
}
