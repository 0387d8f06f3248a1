//! Scores and limits every part of the search shares: the mate scale, the deepest ply, and when to
//! stop.

/// A won game, `MATE - plies` from the winner's view.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 1000;
pub(super) const INFINITY: i32 = MATE + 1;
/// The deepest the search goes, quiescence included.
pub const MAX_PLY: usize = 96;

/// When to stop: any limit reached ends the search. With none, depth 4.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }
    pub fn time_ms(t: u64) -> Limits {
        Limits { time_ms: Some(t), ..Limits::default() }
    }

    pub(super) fn max_depth(&self) -> i32 {
        let open = self.nodes.is_some() || self.time_ms.is_some();
        let d = self.depth.unwrap_or(if open { (MAX_PLY / 2) as u32 } else { 4 });
        d.clamp(1, (MAX_PLY / 2) as u32) as i32
    }
}
