//! Betza notation parsed into side-independent moves: leap images relative to "forward", range, modes.

/// One atom with its modifiers, e.g. `ifmnD`.
#[derive(Clone, Debug, PartialEq)]
pub struct BetzaMove {
    /// Leaps as (dx, dy): dx toward the mover's right, dy toward the mover's forward.
    pub images: Vec<(i32, i32)>,
    /// 1 for a leaper; 0 for an unlimited rider; n for a rider of range n.
    pub range: u32,
    pub can_move: bool,
    pub can_capture: bool,
    pub en_passant: bool,
    pub initial: bool,
    pub lame: bool,
    /// `d`: may capture the mover's own pieces (never a royal one).
    pub friendly: bool,
    /// `p`: must hop over exactly one piece first; only squares beyond it are reached.
    pub hop: bool,
    /// `g`: a grasshopper's hop: over the first piece met, landing just beyond it.
    pub grasshopper: bool,
    /// `moves "..." within REGION`: a region index (0 none); the move exists only when its
    /// origin, every square it passes and its destination lie in the region.
    pub within: u8,
    /// `attacks "..."`: never made as a move; it only attacks (for royal safety and `attacked`).
    pub attack_only: bool,
    /// `moves "..." unless_checked`: not made while the mover's royal piece is attacked.
    pub calm: bool,
    /// How the piece travels when it is more than one straight line of steps.
    pub shape: Shape,
}

/// The path of a move that is not one straight line.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Shape {
    #[default]
    Straight,
    /// `z`: steps alternate between an image and one of its two images turned a right angle (crooked bishop `zB`).
    Crooked,
    /// `q`: each step turns to the next image round the circle, always the same way (the rose `qN`).
    Circular,
    /// `[F-oR]`: after the first leg (this move's own images and range), these legs in turn.
    Legs(Vec<Leg>),
}

/// A later leg of a multi-leg move: an atom, its range, and which directions it may take.
#[derive(Clone, Debug, PartialEq)]
pub struct Leg {
    /// All the atom's images; `turn` picks among them relative to the leg before.
    pub images: Vec<(i32, i32)>,
    /// 1 a leap, 0 a ride without limit, n up to n steps.
    pub range: u32,
    pub turn: Turn,
    /// `=`: exactly as many steps as the first leg took.
    pub same_count: bool,
}

/// Which directions a later leg may take, relative to the direction of the leg before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// `o`: outward, less than a right angle away from it.
    Outward,
    /// `a`: any direction but straight back.
    Any,
    /// `f`: straight on (the same direction, when the atoms agree).
    Straight,
    /// `s`: at a right angle.
    Sideways,
}

impl Turn {
    /// Whether a leg in direction `d` may follow one in direction `prev`.
    pub fn allows(self, prev: (i32, i32), d: (i32, i32)) -> bool {
        let dot = prev.0 * d.0 + prev.1 * d.1;
        let cross = prev.0 * d.1 - prev.1 * d.0;
        match self {
            Turn::Outward => dot > 0,
            Turn::Any => !(cross == 0 && dot < 0),
            Turn::Straight => cross == 0 && dot > 0,
            Turn::Sideways => dot == 0,
        }
    }
}

/// Where in the Betza string something is wrong (byte offset and length) and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct BetzaError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

fn err(offset: usize, len: usize, message: impl Into<String>) -> BetzaError {
    BetzaError { offset, len, message: message.into() }
}

/// A basic atom and whether it is a rider by default.
fn atom(c: char) -> Option<(&'static [(i32, i32)], bool)> {
    const W: &[(i32, i32)] = &[(1, 0)];
    const F: &[(i32, i32)] = &[(1, 1)];
    const WF: &[(i32, i32)] = &[(1, 0), (1, 1)];
    Some(match c {
        'W' => (W, false),
        'F' => (F, false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' => (&[(3, 1)], false),
        'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (WF, false),
        'R' => (W, true),
        'B' => (F, true),
        'Q' => (WF, true),
        _ => return None,
    })
}

/// Moves already parsed that a new one is compared with to drop repeats; past this many (far more
/// than a real piece has) repeats are kept and the movement budget counts them.
const MAX_DISTINCT_SCAN: usize = 64;

/// Parse a whole Betza string such as `fmWfceFifmnD`.
pub fn parse(text: &str) -> Result<Vec<BetzaMove>, BetzaError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err(0, 0, "empty movement: write at least one Betza atom, e.g. \"K\""));
    }
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].1.is_ascii_lowercase() {
            i += 1;
        }
        if chars.get(i).is_some_and(|&(_, c)| c == '[') {
            let mods: Vec<(usize, char)> = chars[start..i].to_vec();
            let (m, next) = legs(text, &chars, i, &mods)?;
            out.push(m);
            i = next;
            continue;
        }
        let at = i;
        let (pos, c) = *chars.get(i).ok_or_else(|| {
            err(
                chars[start].0,
                text.len() - chars[start].0,
                format!(
                    "`{}` ends the movement, but lower-case letters are modifiers and must be followed by an atom \
                     (W F D N A H C Z G K R B Q)",
                    &text[chars[start].0..]
                ),
            )
        })?;
        let (bases, rider) = atom(c)
            .ok_or_else(|| err(pos, c.len_utf8(), format!("`{c}` is not a Betza atom (W F D N A H C Z G K R B Q)")))?;
        i += 1;
        let mut range = if rider { 0 } else { 1 };
        if i < chars.len() && chars[i].1 == c && !rider {
            range = 0;
            i += 1;
        }
        let num_start = i;
        while i < chars.len() && chars[i].1.is_ascii_digit() {
            i += 1;
        }
        if i > num_start {
            let digits: String = chars[num_start..i].iter().map(|x| x.1).collect();
            range = digits.parse().map_err(|_| err(chars[num_start].0, digits.len(), "range is too large"))?;
        }
        // The modifiers are the letters from `start` to the atom (a slice: parsing stays linear).
        let mods = &chars[start..at];
        for &b in bases {
            let m = modified(b, range, mods)?;
            // The same move twice (`WWWW...`, `fWfW...`) adds nothing but work for every position.
            if out.len() > MAX_DISTINCT_SCAN || !out.contains(&m) {
                out.push(m);
            }
        }
    }
    Ok(out)
}

/// A multi-leg move `[F-oR]` starting at `chars[open]` (the `[`): the move and where parsing goes on.
fn legs(
    text: &str,
    chars: &[(usize, char)],
    open: usize,
    mods: &[(usize, char)],
) -> Result<(BetzaMove, usize), BetzaError> {
    let close = chars[open..].iter().position(|&(_, c)| c == ']').map(|k| open + k).ok_or_else(|| {
        err(chars[open].0, text.len() - chars[open].0, "`[` opens a multi-leg move that no `]` closes")
    })?;
    let inner = &chars[open + 1..close];
    let mut pieces = inner.split(|&(_, c)| c == '-');
    let first = pieces.next().unwrap_or_default();
    let at = |k: &[(usize, char)]| k.first().map_or(chars[open].0, |x| x.0);
    let (base, range, rest) = leg_atom(first, at(first))?;
    if !rest.is_empty() {
        return Err(err(rest[0].0, 1, "the first leg is an atom with direction letters before it, e.g. `[F-oR]`"));
    }
    let mut first_mods: Vec<(usize, char)> = mods.to_vec();
    first_mods.extend(first.iter().take_while(|x| x.1.is_ascii_lowercase()));
    let mut m = modified(base, range, &first_mods)?;
    let mut later = Vec::new();
    for leg in pieces {
        let (base, range, turn_mods) = leg_atom(leg, at(leg))?;
        let mut turn = None;
        let mut same_count = false;
        for &(pos, c) in turn_mods {
            match c {
                'o' => turn = Some(Turn::Outward),
                'a' => turn = Some(Turn::Any),
                'f' => turn = Some(Turn::Straight),
                's' => turn = Some(Turn::Sideways),
                '=' => same_count = true,
                _ => return Err(err(pos, 1, format!("`{c}` cannot start a later leg (known: o a f s =)"))),
            }
        }
        let turn = turn.ok_or_else(|| {
            err(
                at(leg),
                1,
                "a later leg says where it turns: o (outward), a (any but back), f (straight on) or s (sideways)",
            )
        })?;
        later.push(Leg { images: images(base), range, turn, same_count });
    }
    if later.is_empty() {
        return Err(err(chars[open].0, close + 1 - open, "a multi-leg move has at least two legs: `[F-oR]`"));
    }
    m.shape = Shape::Legs(later);
    Ok((m, close + 1))
}

/// A leg read: its atom's base leap, its range, and the letters before the atom.
type LegAtom<'c> = ((i32, i32), u32, &'c [(usize, char)]);

/// One leg's text: lower-case letters or `=` (returned), an atom, and its range.
fn leg_atom(leg: &[(usize, char)], at: usize) -> Result<LegAtom<'_>, BetzaError> {
    let k = leg.iter().take_while(|x| x.1.is_ascii_lowercase() || x.1 == '=').count();
    let (pos, c) = *leg.get(k).ok_or_else(|| err(at, 1, "a leg needs an atom (W F D N A H C Z G R B)"))?;
    let (bases, rider) = atom(c).ok_or_else(|| err(pos, 1, format!("`{c}` is not a Betza atom")))?;
    if bases.len() != 1 {
        return Err(err(pos, 1, "a leg is one atom (not K or Q): write the move once per atom"));
    }
    let mut range = if rider { 0 } else { 1 };
    let mut j = k + 1;
    if leg.get(j).is_some_and(|x| x.1 == c) && !rider {
        range = 0;
        j += 1;
    }
    let digits: String = leg[j..].iter().take_while(|x| x.1.is_ascii_digit()).map(|x| x.1).collect();
    if !digits.is_empty() {
        range = digits.parse().map_err(|_| err(leg[j].0, digits.len(), "range is too large"))?;
        j += digits.len();
    }
    if let Some(&(p, c)) = leg.get(j) {
        return Err(err(p, 1, format!("unexpected `{c}` in a leg")));
    }
    Ok((bases[0], range, &leg[..k]))
}

const KNOWN: &str = "m c d e i n p g z q f b l r s v, and [legs]";

fn modified(base: (i32, i32), range: u32, mods: &[(usize, char)]) -> Result<BetzaMove, BetzaError> {
    let mut m = BetzaMove {
        images: Vec::new(),
        range,
        can_move: false,
        can_capture: false,
        en_passant: false,
        initial: false,
        lame: false,
        friendly: false,
        hop: false,
        grasshopper: false,
        within: 0,
        attack_only: false,
        calm: false,
        shape: Shape::Straight,
    };
    let mut dirs = Vec::new();
    for &(pos, c) in mods {
        match c {
            'm' => m.can_move = true,
            'c' => m.can_capture = true,
            'e' => m.en_passant = true,
            'i' => m.initial = true,
            'n' => m.lame = true,
            'd' => m.friendly = true,
            'p' => m.hop = true,
            'g' => {
                m.hop = true;
                m.grasshopper = true;
            }
            'z' => m.shape = Shape::Crooked,
            'q' => m.shape = Shape::Circular,
            'f' | 'b' | 'l' | 'r' | 's' | 'v' => dirs.push((pos, c)),
            'j' | 'a' | 'h' | 'o' | 'u' | 'x' | 'y' | 'k' | 't' | 'w' => {
                return Err(err(pos, 1, format!("Betza modifier `{c}` is not supported yet (known: {KNOWN})")));
            }
            _ => return Err(err(pos, 1, format!("`{c}` is not a Betza modifier (known: {KNOWN})"))),
        }
    }
    if !m.can_move && !m.can_capture && !m.en_passant && !m.friendly {
        m.can_move = true;
        m.can_capture = true;
    }
    m.images = select(base, &dirs);
    if m.images.is_empty() {
        let (pos, _) = dirs[0];
        return Err(err(pos, dirs.len(), "these directions select no move of this atom"));
    }
    Ok(m)
}

/// The 8 (or 4) images of a leap.
fn images(base: (i32, i32)) -> Vec<(i32, i32)> {
    let (x, y) = base;
    let mut v = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let p = (a * sa, b * sb);
            if !v.contains(&p) {
                v.push(p);
            }
        }
    }
    v
}

/// Apply direction letters: each group selects some images; the union is kept.
fn select(base: (i32, i32), dirs: &[(usize, char)]) -> Vec<(i32, i32)> {
    let all = images(base);
    if dirs.is_empty() {
        return all;
    }
    let orth = base.1 == 0;
    let diag = base.0 == base.1;
    let mut groups: Vec<(char, Option<char>)> = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i].1;
        let next = dirs.get(i + 1).map(|d| d.1);
        let pairs = !orth
            && match (c, next) {
                ('f' | 'b', Some('l' | 'r')) | ('l' | 'r', Some('f' | 'b')) => true,
                ('f' | 'b', Some('s')) | ('f', Some('f')) | ('b', Some('b')) => !diag,
                ('l' | 'r', Some('v')) | ('l', Some('l')) | ('r', Some('r')) => !diag,
                _ => false,
            };
        if pairs {
            groups.push((c, next));
            i += 2;
        } else {
            groups.push((c, None));
            i += 1;
        }
    }
    all.into_iter().filter(|&img| groups.iter().any(|&g| matches(img, g))).collect()
}

fn one(img: (i32, i32), c: char) -> bool {
    let (dx, dy) = img;
    match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        's' => dx != 0 && dx.abs() >= dy.abs(),
        'v' => dy != 0 && dy.abs() >= dx.abs(),
        _ => false,
    }
}

fn matches(img: (i32, i32), group: (char, Option<char>)) -> bool {
    let (dx, dy) = img;
    match group {
        (c, None) => one(img, c),
        ('f' | 'b', Some('s')) => one(img, group.0) && dx.abs() > dy.abs(),
        ('l' | 'r', Some('v')) => one(img, group.0) && dy.abs() > dx.abs(),
        (a, Some(b)) if a == b => match a {
            'f' | 'b' => one(img, a) && dy.abs() > dx.abs(),
            _ => one(img, a) && dx.abs() > dy.abs(),
        },
        (a, Some(b)) => one(img, a) && one(img, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imgs(s: &str) -> Vec<Vec<(i32, i32)>> {
        let mut v: Vec<Vec<(i32, i32)>> = parse(s).unwrap().into_iter().map(|m| m.images).collect();
        v.iter_mut().for_each(|x| x.sort());
        v
    }

    #[test]
    fn pawn_parts() {
        let p = parse("fmWfceFifmnD").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].images, vec![(0, 1)]);
        assert!(p[0].can_move && !p[0].can_capture);
        assert_eq!(imgs("fceF")[0], vec![(-1, 1), (1, 1)]);
        assert!(p[1].en_passant && p[1].can_capture && !p[1].can_move);
        assert!(p[2].initial && p[2].lame && p[2].can_move);
        assert_eq!(p[2].images, vec![(0, 2)]);
    }

    #[test]
    fn compounds_and_riders() {
        assert_eq!(parse("Q").unwrap().len(), 2);
        assert_eq!(parse("R4").unwrap()[0].range, 4);
        assert_eq!(parse("NN").unwrap()[0].range, 0);
        assert_eq!(parse("N").unwrap()[0].images.len(), 8);
        assert_eq!(imgs("fN")[0].len(), 4);
        assert_eq!(imgs("ffN")[0], vec![(-1, 2), (1, 2)]);
        assert_eq!(imgs("fsN")[0], vec![(-2, 1), (2, 1)]);
        assert_eq!(imgs("frF")[0], vec![(1, 1)]);
        assert_eq!(imgs("sW")[0], vec![(-1, 0), (1, 0)]);
        assert_eq!(imgs("vW")[0], vec![(0, -1), (0, 1)]);
    }

    #[test]
    fn errors_point_at_the_letter() {
        let e = parse("fmWxQ").unwrap_err();
        assert_eq!(e.offset, 3);
        let e = parse("fmWX").unwrap_err();
        assert_eq!((e.offset, e.len), (3, 1));
        assert!(parse("fm").is_err());
        assert!(parse("xK").is_err());
    }

    #[test]
    fn grasshopper_hops_and_lands_beyond() {
        let g = parse("gQ").unwrap();
        assert_eq!(g.len(), 2);
        assert!(g.iter().all(|m| m.hop && m.grasshopper && m.can_move && m.can_capture));
        assert!(!parse("pR").unwrap()[0].grasshopper);
    }

    #[test]
    fn friendly_and_hopping_captures() {
        let d = parse("dK").unwrap();
        assert!(d[0].friendly && !d[0].can_capture && !d[0].can_move);
        let cd = parse("cdN").unwrap();
        assert!(cd[0].friendly && cd[0].can_capture && !cd[0].can_move);
        let p = parse("mRcpR").unwrap();
        assert!(!p[0].hop && p[0].can_move && !p[0].can_capture);
        assert!(p[1].hop && p[1].can_capture && !p[1].can_move && p[1].range == 0);
    }

    #[test]
    fn crooked_circular_and_legs() {
        assert_eq!(parse("zB").unwrap()[0].shape, Shape::Crooked);
        assert_eq!(parse("qN").unwrap()[0].shape, Shape::Circular);
        let g = parse("F[F-oR]").unwrap();
        assert_eq!(g.len(), 2);
        let Shape::Legs(legs) = &g[1].shape else { panic!("legs") };
        assert_eq!((legs[0].turn, legs[0].range, legs[0].same_count), (Turn::Outward, 0, false));
        let s = parse("[R-=aB]").unwrap();
        let Shape::Legs(legs) = &s[0].shape else { panic!("legs") };
        assert!(legs[0].same_count && legs[0].turn == Turn::Any);
        assert!(Turn::Outward.allows((1, 1), (1, 0)) && !Turn::Outward.allows((1, 1), (-1, 0)));
        assert!(!Turn::Any.allows((2, 1), (-2, -1)) && Turn::Any.allows((2, 1), (2, 1)));
        assert!(parse("[F-R]").is_err());
        assert!(parse("[F-oR").is_err());
        assert!(parse("[F]").is_err());
        assert!(parse("").is_err());
    }
}
