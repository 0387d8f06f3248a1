//! The time manager: from a clock (time left, increment, moves to the next time control) to how
//! long one search may take. It spends a share of what is left, keeps a reserve, and never plans
//! past the clock, so an engine that keeps to it does not lose on time.

/// A clock as a protocol gives it, for the side to move, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub left_ms: u64,
    pub inc_ms: u64,
    /// Moves until the next time control (none: sudden death).
    pub moves_to_go: Option<u32>,
}

/// How long a search may take: `target` is what it aims at (no new iteration starts after half
/// of it), `hard` the moment it stops whatever it is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    pub target_ms: u64,
    pub hard_ms: u64,
}

/// Moves a sudden-death clock is shared over: the game is assumed to last this many more.
const HORIZON: u64 = 30;
/// Kept back from every clock for the time between the engine's answer and the clock stopping.
const MIN_RESERVE_MS: u64 = 30;

/// The time to spend on this move.
pub fn allot(c: Clock) -> Allotment {
    // A reserve of a twentieth of the clock (at least 30 ms, never more than half of it).
    let reserve = (c.left_ms / 20).max(MIN_RESERVE_MS).min(c.left_ms / 2);
    let usable = c.left_ms.saturating_sub(reserve);
    let share = match c.moves_to_go {
        Some(n) => (n as u64).clamp(1, HORIZON),
        None => HORIZON,
    };
    // Most of the increment: it comes back after the move.
    let target = (usable / share + c.inc_ms * 3 / 4).min(usable).max(1);
    // A search may overrun its target up to three times when an iteration is nearly done, but a
    // sudden-death clock is never spent more than a fifth at once.
    let cap = if share == 1 { usable } else { (usable / 5 + c.inc_ms * 3 / 4).min(usable) };
    let hard = (target * 3).min(cap).max(target.min(usable)).max(1);
    Allotment { target_ms: target, hard_ms: hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_spends_a_thirtieth_and_keeps_a_reserve() {
        let a = allot(Clock { left_ms: 60_000, inc_ms: 0, moves_to_go: None });
        assert_eq!(a.target_ms, 57_000 / 30);
        assert_eq!(a.hard_ms, 57_000 / 30 * 3);
    }

    #[test]
    fn the_last_move_before_the_control_may_use_all_but_the_reserve() {
        let a = allot(Clock { left_ms: 1_000, inc_ms: 0, moves_to_go: Some(1) });
        assert_eq!((a.target_ms, a.hard_ms), (950, 950));
    }

    #[test]
    fn an_increment_is_mostly_spent_but_never_past_the_clock() {
        let a = allot(Clock { left_ms: 100, inc_ms: 1_000, moves_to_go: None });
        assert!(a.hard_ms <= 70, "{a:?}");
        let b = allot(Clock { left_ms: 10_000, inc_ms: 1_000, moves_to_go: None });
        assert_eq!(b.target_ms, 9_500 / 30 + 750);
        assert!(b.hard_ms <= 9_500 / 5 + 750);
    }

    #[test]
    fn an_empty_clock_still_gives_a_millisecond() {
        let a = allot(Clock::default());
        assert_eq!((a.target_ms, a.hard_ms), (1, 1));
    }
}
