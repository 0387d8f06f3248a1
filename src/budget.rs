//! One command's budget: the partial turns it tries and the hook steps it runs, over everything it
//! does (every listing of a perft, a search or a sample game), shared by every thread it runs on.
//!
//! Each hook call has its own step budget and each listing of a position's turns its own budget of
//! partial turns, but a command lists turns again and again: without a total, a hostile preset that
//! makes every listing nearly as costly as it may (a million partial turns, each running a hook of
//! two million steps) turns a `perft 2` or a search of 20,000 nodes into days. The total here ends
//! such a command with a clear error within minutes, far above what any shipped preset's tests or
//! benchmarks spend.
//!
//! A command installs a budget on its thread ([`command`], [`fresh`]); a worker thread of the same
//! command runs [`under`] the command's. Code running with no budget installed (a library caller)
//! is bounded by the per-call and per-listing limits only.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Partial turns (parts applied with their hooks) one command may try in all its listings.
pub const MAX_PARTIAL_TURNS: u64 = 200_000_000;

/// Hook steps one command may run in all (a hook call alone may run 2,000,000).
pub const MAX_STEPS: u64 = 4_000_000_000;

/// What a thread counts before adding to the shared total: a hook call or partial turn costs a
/// thread-local addition, not an atomic one on a line every thread of a perft writes.
const BATCH: u64 = 1 << 16;

/// The totals of one command, and its limits.
#[derive(Debug)]
pub struct Budget {
    partial_turns: AtomicU64,
    steps: AtomicU64,
    max_partial_turns: u64,
    max_steps: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::limited(MAX_PARTIAL_TURNS, MAX_STEPS)
    }
}

impl Budget {
    /// A budget with other limits than a command's (for tests of what spends it).
    pub fn limited(max_partial_turns: u64, max_steps: u64) -> Budget {
        Budget { partial_turns: AtomicU64::new(0), steps: AtomicU64::new(0), max_partial_turns, max_steps }
    }

    /// A command's budget raised to `max_partial_turns` (`herald perft --max-turns N`: a user who asks
    /// for a deep count asked for that work), with hook steps raised in the same proportion. Never
    /// below the default: the option only raises.
    pub fn raised(max_partial_turns: u64) -> Budget {
        let turns = max_partial_turns.max(MAX_PARTIAL_TURNS);
        let steps = u128::from(MAX_STEPS) * u128::from(turns) / u128::from(MAX_PARTIAL_TURNS);
        Budget::limited(turns, u64::try_from(steps).unwrap_or(u64::MAX))
    }
}

/// What this thread spends, and the command it spends it for.
#[derive(Default)]
struct Local {
    budget: Option<Arc<Budget>>,
    partial_turns: u64,
    steps: u64,
}

thread_local! {
    // Made at compile time, so that an access (one per hook run and candidate tried) does not
    // first check whether it was made.
    static LOCAL: RefCell<Local> = const { RefCell::new(Local { budget: None, partial_turns: 0, steps: 0 }) };
}

/// Which total a command went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Spent {
    #[error(
        "this command tried more than {0} partial turns in all its listings of turns (turns of \
         several parts multiply; limit the candidates with `from`; `herald perft --max-turns N` \
         raises the limit for one count)"
    )]
    PartialTurns(u64),
    #[error(
        "this command's hooks ran for more than {0} steps in all (`herald perft --max-turns N` raises \
         the limit for one count)"
    )]
    Steps(u64),
}

/// Run `f` as one command: under the budget this thread already has (a command calling another's
/// code: `perft --divide`, a search inside a REPL line), or else a fresh one.
pub fn command<T>(f: impl FnOnce() -> T) -> T {
    match current() {
        Some(_) => f(),
        None => fresh(f),
    }
}

/// Run `f` as a new command with a fresh budget, whatever this thread had (a REPL line, one
/// sample game of `herald test`, one search); the budget before is restored after.
pub fn fresh<T>(f: impl FnOnce() -> T) -> T {
    under(Some(Arc::default()), f)
}

/// The budget this thread spends, to hand to the worker threads of the same command.
pub fn current() -> Option<Arc<Budget>> {
    LOCAL.with(|l| l.borrow().budget.clone())
}

/// Run `f` spending `budget` (a worker thread of a command: [`current`] on the command's thread).
pub fn under<T>(budget: Option<Arc<Budget>>, f: impl FnOnce() -> T) -> T {
    /// Puts the thread's budget back, also when `f` panics.
    struct Restore(Option<Local>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(saved) = self.0.take() {
                LOCAL.with(|l| *l.borrow_mut() = saved);
            }
        }
    }
    let saved = LOCAL.with(|l| std::mem::replace(&mut *l.borrow_mut(), Local { budget, ..Local::default() }));
    let _restore = Restore(Some(saved));
    f()
}

/// Charge partial turns to the command.
#[inline]
pub fn partial_turns(n: u64) -> Result<(), Spent> {
    charge(|l| &mut l.partial_turns, |b| (&b.partial_turns, b.max_partial_turns), n, Spent::PartialTurns)
}

/// Charge the steps of a hook call to the command.
#[inline]
pub fn steps(n: u64) -> Result<(), Spent> {
    charge(|l| &mut l.steps, |b| (&b.steps, b.max_steps), n, Spent::Steps)
}

#[inline]
fn charge(
    local: impl Fn(&mut Local) -> &mut u64,
    shared: impl Fn(&Budget) -> (&AtomicU64, u64),
    n: u64,
    spent: fn(u64) -> Spent,
) -> Result<(), Spent> {
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        if l.budget.is_none() {
            return Ok(());
        }
        let pending = local(&mut l);
        *pending += n;
        if *pending < BATCH {
            return Ok(());
        }
        let add = std::mem::take(pending);
        // The shared budget is reached only when a batch is full: cloning its handle at every
        // charge cost two atomic operations each time.
        let Some(budget) = &l.budget else { return Ok(()) };
        let (total, max) = shared(budget);
        let total = total.fetch_add(add, Ordering::Relaxed).saturating_add(add);
        if total > max { Err(spent(max)) } else { Ok(()) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_shares_its_budget_with_its_workers_and_a_fresh_one_starts_again() {
        assert_eq!(steps(MAX_STEPS * 2), Ok(()), "no budget installed: no total");
        command(|| {
            assert_eq!(steps(MAX_STEPS / 2), Ok(()));
            let b = current();
            std::thread::scope(|s| {
                s.spawn(|| under(b, || assert_eq!(steps(MAX_STEPS / 2 + 1), Err(Spent::Steps(MAX_STEPS)))));
            });
            command(|| assert_eq!(steps(BATCH), Err(Spent::Steps(MAX_STEPS)), "the same command"));
            fresh(|| assert_eq!(steps(MAX_STEPS / 2), Ok(()), "a new command"));
            assert_eq!(steps(BATCH), Err(Spent::Steps(MAX_STEPS)), "restored");
        });
        assert!(current().is_none());
    }

    #[test]
    fn a_raised_budget_raises_both_limits_in_proportion_and_never_lowers_them() {
        let b = Budget::raised(MAX_PARTIAL_TURNS * 10);
        assert_eq!((b.max_partial_turns, b.max_steps), (MAX_PARTIAL_TURNS * 10, MAX_STEPS * 10));
        let b = Budget::raised(5);
        assert_eq!((b.max_partial_turns, b.max_steps), (MAX_PARTIAL_TURNS, MAX_STEPS));
        assert_eq!(Budget::raised(u64::MAX).max_steps, u64::MAX);
        under(Some(Arc::new(Budget::raised(MAX_PARTIAL_TURNS * 2))), || {
            assert_eq!(command(|| partial_turns(MAX_PARTIAL_TURNS + BATCH)), Ok(()), "a command runs under it");
            assert_eq!(partial_turns(MAX_PARTIAL_TURNS), Err(Spent::PartialTurns(MAX_PARTIAL_TURNS * 2)));
        });
    }

    #[test]
    fn partial_turns_are_counted_in_batches() {
        fresh(|| {
            assert_eq!(partial_turns(MAX_PARTIAL_TURNS - 1), Ok(()));
            assert_eq!((0..BATCH - 1).try_for_each(|_| partial_turns(1)), Ok(()), "pending");
            assert_eq!(partial_turns(1), Err(Spent::PartialTurns(MAX_PARTIAL_TURNS)));
        });
    }
}
