//! The evaluation's generic weights: the few numbers its terms are scaled by (the terms themselves
//! come from each preset's movement and values, see [`super::eval`] and [`super::structure`]).
//! They are the same for every preset; a weights file (`--eval-weights`, `NAME VALUE` lines) can
//! replace any of them, for instance with weights tuned by `bench/tune.py` on a preset's games.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The weights, by the names a weights file gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// The side to move's bonus: having the turn is worth something in most positions.
    pub tempo: i32,
    /// Score per pseudo-legal move more than the opponent has, in eighths, for royal and
    /// promotable pieces (and drops, castlings, passes).
    pub mobility: i32,
    /// An officer's score per pseudo-legal move, in eighths: `officer_mobility / sqrt(m)` for a
    /// kind with `m` moves on average on an empty board. A move matters more to a short-range
    /// piece: one square more for a knight is an eighth of its reach, for a queen a twenty-seventh
    /// (the shape of classical engines' mobility tables, from the movement alone).
    pub officer_mobility: i32,
    /// Score per move a piece has on an empty board from its square, above its average.
    pub square_mobility: i32,
    /// Score per own piece next to a royal piece, while the opponent keeps its officers.
    pub shield: i32,
    /// Royal safety: `attack * n^2` (at most `attack_max`) for `n` pseudo-legal moves of a side's
    /// non-royal pieces onto the enemy royal piece's square or its neighbours, in proportion to
    /// the attacker's officers left.
    pub attack: i32,
    pub attack_max: i32,
    /// Royal safety: each square from which a side could check the enemy royal piece next turn,
    /// that no enemy piece attacks (a safe check), counts as this many of those moves.
    pub safe_check: i32,
    /// A promotable piece's bonus next to its zone, in hundredths of what promoting gains (it
    /// grows with the square of the nearness to the zone).
    pub promotion: i32,
    /// The share of that bonus, in hundredths, a pawn-like piece earns whether passed or not: an
    /// enemy piece of its kind ahead will usually stop it.
    pub unpassed: i32,
    /// A passed piece's extra bonus: its promotion bonus times this share, in hundredths, with
    /// the opponent's officers all on the board (`passed_early`) and all gone (`passed_late`).
    pub passed_early: i32,
    pub passed_late: i32,
    /// Penalties per pawn-like piece, in hundredths of its value: each one more on a file
    /// (doubled), each one with no own piece of its kind on the files next to it (isolated).
    pub doubled: i32,
    pub isolated: i32,
    /// A file rider's bonus on a file with no own pawn-like piece (half) and no enemy one either
    /// (all), times the share of its empty-board moves that go along the file, doubled.
    pub open_file: i32,
    /// Threats (`attacks::Counts::threats`): the share, in 64ths, of what a side's attacks on
    /// enemy pieces could win (a victim's value over its least valuable attacker, or its whole
    /// value when undefended) that counts for it: more for the side to move, which takes first.
    pub threat_mover: i32,
    pub threat_waiter: i32,
    /// A side with pieces of one colour-bound kind (its moves never change the colour of its
    /// square, as a bishop's) on both colours: the pair's bonus, in hundredths of the kind's
    /// value (each alone reaches half the board; together, all of it).
    pub pair: i32,
}

/// The built-in weights, set by hand (weights tuned by `bench/tune.py` on chess did not play
/// better: README).
pub const DEFAULT: EvalWeights = EvalWeights {
    tempo: 10,
    mobility: 16,
    officer_mobility: 112,
    square_mobility: 3,
    shield: 6,
    attack: 3,
    attack_max: 500,
    safe_check: 3,
    promotion: 20,
    unpassed: 25,
    passed_early: 125,
    passed_late: 225,
    doubled: 12,
    isolated: 10,
    open_file: 30,
    threat_mover: 16,
    threat_waiter: 8,
    pair: 15,
};

/// A weight's bounds in a file: wide enough for any tuning, narrow enough that no term overflows.
const LIMIT: i32 = 1000;
/// `attack_max` caps a square, so it may go higher.
const ATTACK_MAX_LIMIT: i32 = 10_000;

/// Each weight's name in a weights file and its field, in the order files list them: the one
/// table that `entries`, the file reader and its error message share.
type Field = fn(&mut EvalWeights) -> &mut i32;
const FIELDS: [(&str, Field); 18] = [
    ("TEMPO", |w| &mut w.tempo),
    ("MOBILITY", |w| &mut w.mobility),
    ("OFFICER_MOBILITY", |w| &mut w.officer_mobility),
    ("SQUARE_MOBILITY", |w| &mut w.square_mobility),
    ("SHIELD", |w| &mut w.shield),
    ("ATTACK", |w| &mut w.attack),
    ("ATTACK_MAX", |w| &mut w.attack_max),
    ("SAFE_CHECK", |w| &mut w.safe_check),
    ("PROMOTION", |w| &mut w.promotion),
    ("UNPASSED", |w| &mut w.unpassed),
    ("PASSED_EARLY", |w| &mut w.passed_early),
    ("PASSED_LATE", |w| &mut w.passed_late),
    ("DOUBLED", |w| &mut w.doubled),
    ("ISOLATED", |w| &mut w.isolated),
    ("OPEN_FILE", |w| &mut w.open_file),
    ("THREAT_MOVER", |w| &mut w.threat_mover),
    ("THREAT_WAITER", |w| &mut w.threat_waiter),
    ("PAIR", |w| &mut w.pair),
];

impl EvalWeights {
    /// Each weight with its name in a weights file, in the order `FIELDS` lists them.
    pub fn entries(&self) -> Vec<(&'static str, i32)> {
        let mut w = *self;
        FIELDS.iter().map(|&(name, field)| (name, *field(&mut w))).collect()
    }

    fn slot(&mut self, name: &str) -> Option<&mut i32> {
        let &(_, field) = FIELDS.iter().find(|f| f.0 == name)?;
        Some(field(self))
    }

    /// The weights as a weights file (what `herald qscores --print-weights` writes).
    pub fn to_file(&self) -> String {
        let mut s = String::from("# Herald's evaluation weights (`herald --eval-weights FILE`)\n");
        for (name, v) in self.entries() {
            s.push_str(&format!("{name} {v}\n"));
        }
        s
    }
}

/// A weights file: `NAME VALUE` per line (integers), `#` to the end of a line a comment; the
/// weights it does not name keep their built-in values.
pub fn parse_file(path: &str, text: &str) -> Result<EvalWeights, String> {
    let mut w = DEFAULT;
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{path}:{}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, v] = words[..] else {
            return Err(format!("{at}: expected `NAME VALUE`, found `{line}`"));
        };
        let limit = if name == "ATTACK_MAX" { ATTACK_MAX_LIMIT } else { LIMIT };
        let Some(slot) = w.slot(name) else {
            let names: Vec<&str> = FIELDS.iter().map(|f| f.0).collect();
            return Err(format!("{at}: no weight is called `{name}` (the weights: {})", names.join(", ")));
        };
        *slot = v
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= limit)
            .ok_or_else(|| format!("{at}: `{v}` is not a weight (an integer from -{limit} to {limit})"))?;
    }
    Ok(w)
}

static WEIGHTS: Mutex<EvalWeights> = Mutex::new(DEFAULT);
/// Counts the changes of `WEIGHTS`: an evaluator built before one is stale.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Use these weights in every search from now on.
pub fn set(w: EvalWeights) {
    if let Ok(mut g) = WEIGHTS.lock() {
        *g = w;
        GENERATION.fetch_add(1, Ordering::SeqCst);
    }
}

/// The weights in force.
pub fn current() -> EvalWeights {
    WEIGHTS.lock().map(|g| *g).unwrap_or(DEFAULT)
}

/// How many times the weights have changed (see [`super::eval::generation`]).
pub fn generation() -> u64 {
    GENERATION.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_names_some_weights_and_the_rest_keep_their_defaults() {
        let w = parse_file("w", "# tuned\nTEMPO 12\n  SHIELD -3 # why\n\n").unwrap();
        assert_eq!((w.tempo, w.shield, w.attack), (12, -3, DEFAULT.attack));
        assert_eq!(parse_file("w", &DEFAULT.to_file()).unwrap(), DEFAULT);
    }

    #[test]
    fn every_field_has_one_name() {
        // A field missing from `FIELDS` would make the struct larger than the table says.
        assert_eq!(std::mem::size_of::<EvalWeights>(), FIELDS.len() * std::mem::size_of::<i32>());
        // Two names on one field: the later value would show under both.
        let file: String = FIELDS.iter().enumerate().map(|(i, f)| format!("{} {}\n", f.0, i + 1)).collect();
        let w = parse_file("w", &file).unwrap();
        let values: Vec<i32> = w.entries().iter().map(|e| e.1).collect();
        assert_eq!(values, (1..=FIELDS.len() as i32).collect::<Vec<_>>());
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = parse_file("w", "TEMPO 1\nTEMPOS 2\n").unwrap_err();
        assert!(e.starts_with("w:2: no weight is called `TEMPOS`"), "{e}");
        let e = parse_file("w", "TEMPO\n").unwrap_err();
        assert!(e.starts_with("w:1: expected `NAME VALUE`"), "{e}");
        let e = parse_file("w", "TEMPO 1.5\n").unwrap_err();
        assert!(e.starts_with("w:1: `1.5` is not a weight"), "{e}");
        assert!(parse_file("w", "TEMPO 1001\n").is_err());
        assert!(parse_file("w", "ATTACK_MAX 5000\n").is_ok());
    }
}
