//! Built-in functions: what scripts may ask of the position and, in hooks that may, change in it.
//! Nothing here reaches files, the network or the clock: the sandbox is what this table omits.

use super::interp::{Interp, R, fail};
use super::ir::Code;
use super::value::{PartVal, Value};
use crate::engine::board::{Sq, cell};
use crate::engine::position::{Move, mflag};
use crate::engine::side::Side;
use crate::syntax::Span;
use crate::syntax::script::PartKind;
use std::sync::Arc;

pub use super::table::{Builtin, TABLE, lookup};
use super::table::{Family, name_of};

/// A move as scripts see it, described in the position before it.
pub fn move_part(preset: &crate::preset::Preset, cells: &[u8], ep_victim: Sq, m: Move) -> PartVal {
    if m.flags & mflag::DROP != 0 {
        // A natively generated drop (`on setup` may ask for the legal moves of such a preset).
        let (kind, to, piece) = (PartKind::Drop, m.to, m.promo);
        return PartVal { kind, from: Sq::NONE, to, piece, captured: 0, captured_on: Sq::NONE, promo: 0, rook: None };
    }
    let piece = cell::code(cells[m.from.idx()]);
    let (captured, captured_on) = if m.flags & mflag::EP != 0 {
        (cell::code(cells[ep_victim.idx()]), ep_victim)
    } else if m.flags & mflag::CASTLE == 0 && cell::is_piece(cells[m.to.idx()]) {
        (cell::code(cells[m.to.idx()]), m.to)
    } else {
        (0, Sq::NONE)
    };
    let rook = (m.flags & mflag::CASTLE != 0).then(|| {
        let c = &preset.castles[m.extra as usize];
        (c.rook_from, c.rook_to)
    });
    PartVal { kind: PartKind::Move, from: m.from, to: m.to, piece, captured, captured_on, promo: m.promo, rook }
}

/// Orthogonal directions first, then diagonal.
const KING_DIRS: [(i64, i64); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Interp<'_> {
    /// The squares of the rectangle (existing or not) one step from `s` in the given directions.
    fn around(&self, s: Sq, dirs: &[(i64, i64)]) -> Vec<Sq> {
        let geo = &self.preset.geo;
        let (f, r) = (geo.file(s) as i64, geo.rank(s) as i64);
        dirs.iter().filter_map(|&(dx, dy)| geo.square_checked((f + dx) as i32, (r + dy) as i32)).collect()
    }

    // The argument readers below are inlined into `builtin`, their errors built out of line.

    #[inline]
    fn square(&self, v: &Value, arg: &Code) -> R<Sq> {
        match v {
            Value::Square(s) => Ok(*s),
            other => Err(expected(arg, "a square", other)),
        }
    }

    #[inline]
    pub(super) fn side(&self, v: &Value, arg: &Code) -> R<Side> {
        match v {
            Value::Side(s) => Ok(*s),
            other => Err(expected(arg, "a side (white, black, mover, opponent)", other)),
        }
    }

    /// A piece, or the piece on a square.
    #[inline]
    fn piece(&self, v: &Value, arg: &Code) -> R<Option<u8>> {
        match v {
            Value::Piece(c) => Ok(Some(*c)),
            Value::Square(s) => Ok(Some(self.pos.cells[s.idx()]).filter(|&c| cell::is_piece(c)).map(cell::code)),
            Value::None => Ok(None),
            other => Err(expected(arg, "a piece or a square", other)),
        }
    }

    #[inline]
    fn kind(&self, v: &Value, arg: &Code) -> R<usize> {
        match v {
            Value::Kind(k) => Ok(*k as usize),
            Value::Piece(c) => Ok(cell::kind(*c)),
            other => Err(expected(arg, "a kind of piece (e.g. Queen)", other)),
        }
    }

    /// A kind, or a list or set of kinds (pieces stand for their kinds), as a bit per kind.
    /// Kinds fit: there are at most `cell::MAX_KINDS` (62), and bit 63 stands for no kind.
    fn kind_mask(&mut self, v: &Value, arg: &Code) -> R<u64> {
        match v {
            Value::List(items) | Value::Set(items) => {
                self.touch(arg.span, v)?;
                items.iter().try_fold(0u64, |m, k| Ok(m | 1u64 << self.kind(k, arg)?.min(63)))
            }
            one => Ok(1u64 << self.kind(one, arg)?.min(63)),
        }
    }

    #[inline]
    fn int(&self, v: &Value, arg: &Code) -> R<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            other => Err(expected(arg, "an integer", other)),
        }
    }

    fn items(&self, v: &Value, arg: &Code) -> R<Vec<Value>> {
        match v {
            Value::List(x) | Value::Set(x) => Ok(x.to_vec()),
            Value::Map(m) => Ok(m.iter().map(|(k, _)| k.clone()).collect()),
            other => Err(fail(arg.span, format!("expected a list, set or map, found {}", other.type_name()))),
        }
    }

    /// A list of squares, allocated once: growing it square by square reallocated several times
    /// per call, and `pieces(side)` runs at every node of a scripted perft.
    fn squares_value(&self, it: impl Iterator<Item = Sq>) -> Value {
        let mut v = Vec::with_capacity(it.size_hint().1.unwrap_or(0).min(self.preset.geo.squares.len()));
        v.extend(it.map(Value::Square));
        Value::List(Arc::new(v))
    }

    /// The seeded generator, which only `on setup` has: anywhere else the same turn must give the same result.
    fn rng_for(&mut self, b: Builtin, span: Span) -> R<&mut crate::rng::Rng> {
        let where_ = self.where_;
        self.rng.as_deref_mut().ok_or_else(|| {
            fail(
                span,
                format!(
                    "`{}` draws from the game's seed, so it is only available in `on setup`, not in `{where_}`",
                    name_of(b)
                ),
            )
        })
    }

    /// The squares of `side`'s pieces whose kinds are in `wanted`, out of line: in `builtin`'s
    /// large frame the loop kept little in registers. A plain loop of pushes: each value is
    /// written where it goes (an iterator chain built each on the stack and copied it).
    #[inline(never)]
    fn pieces_of(&self, side: Side, wanted: u64) -> Value {
        let pos = &*self.pos;
        let cells = &pos.cells[..];
        let mut out = Vec::with_capacity(pos.occupied_count(side));
        for s in pos.occupied_by(side) {
            // A piece's kind is below 62: the shift never wraps for one.
            if wanted.wrapping_shr(cell::kind(cells[s.idx()]) as u32) & 1 != 0 {
                out.push(Value::Square(s));
            }
        }
        Value::List(Arc::new(out))
    }

    /// Where the piece that stood on `s` before part `p` stands now; `None` if it is gone.
    #[inline]
    fn follow(&self, p: &PartVal, s: Sq) -> Option<Sq> {
        match p.rook {
            Some((rf, rt)) if s == rf => Some(rt),
            _ if p.kind == PartKind::Move && s == p.from => Some(p.to),
            _ if s == p.captured_on && p.captured != 0 => None,
            _ if p.kind == PartKind::Remove && s == p.to => None,
            _ => Some(s).filter(|&s| cell::is_piece(self.pos.cells[s.idx()])),
        }
    }

    /// `follow(squares)`: the set of squares where those pieces stand now, the gone left out. A
    /// set that the part left as it was is given back as it is (run after every move in Maidens
    /// Chess, where it mostly is, and then nothing is built).
    fn follow_all(&self, p: &PartVal, whole: &Value, items: &[Value], arg: &Code) -> R<Value> {
        let mut same = matches!(whole, Value::Set(_));
        for it in items {
            let Value::Square(s) = *it else { return Err(expected(arg, "a square", it)) };
            same &= self.follow(p, s) == Some(s);
        }
        if same {
            return Ok(whole.clone());
        }
        let squares = items.iter().filter_map(|it| match *it {
            Value::Square(s) => self.follow(p, s).map(Value::Square),
            _ => None,
        });
        Ok(Value::set_of(squares.collect()))
    }

    fn legal_parts(&mut self) -> Vec<PartVal> {
        let preset = self.preset;
        self.pos.cached_legal_moves(preset);
        let pos = &*self.pos;
        pos.moves_cache().iter().map(|&m| move_part(preset, &pos.cells, pos.ep.victim, m)).collect()
    }

    /// `captures()`: the legal moves that take something (from `from`, if given), as parts. The
    /// others are passed over by their squares before any part is made (Maidens asks this before
    /// every move part, and most moves take nothing).
    fn capture_parts(&mut self, from: Option<Sq>) -> Vec<Value> {
        let preset = self.preset;
        self.pos.cached_legal_moves(preset);
        let pos = &*self.pos;
        let takes = |m: &Move| {
            m.flags & mflag::DROP == 0
                && (m.flags & mflag::EP != 0 || (m.flags & mflag::CASTLE == 0 && cell::is_piece(pos.cells[m.to.idx()])))
        };
        pos.moves_cache()
            .iter()
            .filter(|m| from.is_none_or(|s| m.from == s) && takes(m))
            .map(|&m| move_part(preset, &pos.cells, pos.ep.victim, m))
            .filter(|p| p.captured != 0)
            .map(Value::Part)
            .collect()
    }

    /// The built-ins that read one square or piece and give a scalar (`Def::reader`): run for
    /// `Ex::Read` without the dispatch below.
    #[inline]
    pub(super) fn read(&self, b: Builtin, v: &Value, arg: &Code) -> R<Value> {
        use Builtin::*;
        let cells = &self.pos.cells;
        Ok(match b {
            PieceAt => {
                let c = cells[self.square(v, arg)?.idx()];
                if cell::is_piece(c) { Value::Piece(cell::code(c)) } else { Value::None }
            }
            Empty => Value::Bool(cells[self.square(v, arg)?.idx()] == cell::EMPTY),
            Light => Value::Bool(self.preset.geo.is_light(self.square(v, arg)?)),
            Exists => {
                let c = cells[self.square(v, arg)?.idx()];
                Value::Bool(c != cell::HOLE && c != cell::OFF)
            }
            SideOf => self.piece(v, arg)?.map_or(Value::None, |c| Value::Side(cell::side(c))),
            KindOf => self.piece(v, arg)?.map_or(Value::None, |c| Value::Kind(cell::kind(c) as u8)),
            IsRoyal | ValueOf => {
                let k = match v {
                    Value::Kind(k) => Some(*k as usize),
                    other => self.piece(other, arg)?.map(cell::kind),
                };
                match k.map(|k| &self.preset.kinds[k]) {
                    None => Value::None,
                    Some(k) if b == IsRoyal => Value::Bool(k.royal),
                    Some(k) => Value::Int(k.value as i64),
                }
            }
            // Not a reader: `builtin` runs it (neither caller passes one here).
            _ => return Err(fail(arg.span, format!("`{}` is not a one-square reader", name_of(b)))),
        })
    }

    /// Run a built-in on its arguments' values (`args` are their expressions, for errors), by its
    /// family, and charge what it made: the one way every built-in but a reader is called.
    pub(super) fn builtin(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        if let Some(r) = &mut self.reads {
            r.builtin(b, v);
        }
        let def = b.def();
        if def.changes && !self.mutate {
            return Err(fail(
                span,
                format!("`{}` changes the position, which is not allowed in `{}`", def.name, self.where_),
            ));
        }
        let out = match def.family {
            Family::Piece => self.piece_family(b, v, args, span)?,
            Family::Board => self.board_family(b, v, args, span)?,
            Family::Moves => self.moves_family(b, v, args, span)?,
            Family::Material => self.material_family(b, v, args, span)?,
            Family::Turn => self.turn_family(b, v, args, span)?,
            Family::Collection => self.collection_family(b, v, args, span)?,
            Family::Value => self.value_family(b, v, args, span)?,
            Family::Random => self.random_family(b, v, args, span)?,
            Family::Change => self.change_family(b, v, args, span)?,
        };
        match &out {
            // What `Value::weight` would find, without walking the items.
            Value::List(items) | Value::Set(items) if def.flat => self.charge(span, items.len() + 1)?,
            _ => self.charge_value(span, &out)?,
        }
        Ok(out)
    }

    /// Pieces and kinds: a piece's label, name, the piece of a kind and side, the kinds (the one-square readers are in `read`).
    #[inline]
    fn piece_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        let preset = self.preset;
        Ok(match b {
            PieceAt | Empty | Exists | SideOf | KindOf | IsRoyal | ValueOf => self.read(b, &v[0], &args[0])?,
            LabelOf => self.piece(&v[0], &args[0])?.map_or(Value::None, |c| Value::Str(preset.label_of(c).into())),
            NameOf => {
                let k = match &v[0] {
                    Value::Kind(k) => Some(*k as usize),
                    other => self.piece(other, &args[0])?.map(cell::kind),
                };
                k.map_or(Value::None, |k| Value::Str(preset.kinds[k].name.as_str().into()))
            }
            PieceOf => Value::Piece(cell::piece(self.kind(&v[0], &args[0])?, self.side(&v[1], &args[1])?)),
            Kinds => Value::List(Arc::new((0..preset.kinds.len()).map(|k| Value::Kind(k as u8)).collect())),
            _ => return Err(misfiled(b, span)),
        })
    }

    /// The board's squares: files, ranks, neighbours, which exist.
    #[inline]
    fn board_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        let geo = &self.preset.geo;
        Ok(match b {
            Light => self.read(b, &v[0], &args[0])?,
            FileOf => Value::Int(geo.file(self.square(&v[0], &args[0])?) as i64 + 1),
            RankOf => {
                let s = self.square(&v[0], &args[0])?;
                match v.get(1) {
                    Some(side) => {
                        let side = self.side(side, &args[1])?;
                        Value::Int(geo.relative_rank(s, side) as i64 + 1)
                    }
                    None => Value::Int(geo.rank(s) as i64 + 1),
                }
            }
            SquareAt => {
                let (f, r) = (self.int(&v[0], &args[0])?, self.int(&v[1], &args[1])?);
                let ok = (1..=geo.files as i64).contains(&f) && (1..=geo.ranks as i64).contains(&r);
                if ok { Value::Square(geo.square(f as usize - 1, r as usize - 1)) } else { Value::None }
            }
            Neighbours | EdgeNeighbours => {
                let s = self.square(&v[0], &args[0])?;
                let dirs: &[(i64, i64)] = if b == Neighbours { &KING_DIRS } else { &KING_DIRS[..4] };
                self.squares_value(self.around(s, dirs).into_iter().filter(|&t| self.pos.cells[t.idx()] != cell::HOLE))
            }
            Frontier => {
                // Neighbours by cell offset: the mailbox's border cells are `OFF`, so no square's
                // neighbour is out of the cells, and a border cell is no existing square.
                let cells = &self.pos.cells;
                let stride = geo.stride as isize;
                let exists = |t: isize| !matches!(cells[t as usize], cell::HOLE | cell::OFF);
                self.squares_value(geo.squares.iter().copied().filter(|&s| {
                    let t = s.idx() as isize;
                    cells[s.idx()] == cell::HOLE
                        && (exists(t - 1) || exists(t + 1) || exists(t - stride) || exists(t + stride))
                }))
            }
            Squares => {
                self.squares_value(geo.squares.iter().copied().filter(|&s| self.pos.cells[s.idx()] != cell::HOLE))
            }
            Holes => self.squares_value(geo.squares.iter().copied().filter(|&s| self.pos.cells[s.idx()] == cell::HOLE)),
            _ => return Err(misfiled(b, span)),
        })
    }

    /// Attacks and moves: attacked squares, check, legal, safe and mating moves, captures.
    #[inline]
    fn moves_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        let preset = self.preset;
        Ok(match b {
            Attacks => {
                let s = self.square(&v[0], &args[0])?;
                Value::List(Arc::new(self.pos.attacks_from(preset, s).into_iter().map(Value::Square).collect()))
            }
            Attacked => {
                let s = self.square(&v[0], &args[0])?;
                Value::Bool(self.pos.attacked(preset, s, self.side(&v[1], &args[1])?))
            }
            InCheck => Value::Bool(self.pos.in_check(preset, self.side(&v[0], &args[0])?)),
            LegalMoves => Value::List(Arc::new(self.legal_parts().into_iter().map(Value::Part).collect())),
            SafeMoves => {
                let side = self.side(&v[0], &args[0])?;
                let moves = self.pos.safe_moves_for(preset, side);
                let victim = self.pos.ep.victim;
                let cells = &self.pos.cells;
                Value::List(Arc::new(
                    moves.into_iter().map(|m| Value::Part(move_part(preset, cells, victim, m))).collect(),
                ))
            }
            Captures => {
                let from = match v.first() {
                    Some(sq) => Some(self.square(sq, &args[0])?),
                    None => None,
                };
                Value::List(Arc::new(self.capture_parts(from)))
            }
            Checkmates => {
                let side = self.side(&v[0], &args[0])?;
                let moves = self.pos.checkmates_by(preset, side);
                let victim = self.pos.ep.victim;
                let cells = &self.pos.cells;
                Value::List(Arc::new(
                    moves.into_iter().map(|m| Value::Part(move_part(preset, cells, victim, m))).collect(),
                ))
            }
            _ => return Err(misfiled(b, span)),
        })
    }

    /// A side's pieces on the board and in hand.
    #[inline]
    fn material_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        Ok(match b {
            Pieces => {
                let side = self.side(&v[0], &args[0])?;
                match v.get(1) {
                    Some(kinds) => {
                        let wanted = self.kind_mask(kinds, &args[1])?;
                        self.pieces_of(side, wanted)
                    }
                    // Shared with the position, not built again (`len(pieces(side))`).
                    None => Value::List(self.pos.pieces_list(side)),
                }
            }
            Count => {
                let n = match (&v[0], v.get(1)) {
                    (Value::Piece(c), None) => self.pos.counts[cell::code(*c) as usize] as i64,
                    (k, side) => {
                        let k = self.kind(k, &args[0])?;
                        let sides = match side {
                            Some(s) => vec![self.side(s, &args[1])?],
                            None => Side::BOTH.to_vec(),
                        };
                        sides.into_iter().map(|s| self.pos.counts[cell::piece(k, s) as usize] as i64).sum()
                    }
                };
                Value::Int(n)
            }
            Hand => {
                let side = self.side(&v[0], &args[0])?;
                list_of(self.pos.hands[side].iter().map(|&k| Value::Piece(cell::piece(k as usize, side))).collect())
            }
            _ => return Err(misfiled(b, span)),
        })
    }

    /// The game so far and the turn in progress.
    #[inline]
    fn turn_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        Ok(match b {
            History => {
                let turns = self.pos.turn_log();
                Value::List(Arc::new(
                    turns
                        .into_iter()
                        .map(|t| Value::List(Arc::new(t.iter().copied().map(Value::Part).collect())))
                        .collect(),
                ))
            }
            LastTurn => {
                let turns = self.pos.turn_log();
                list_of(turns.last().map(|t| t.iter().copied().map(Value::Part).collect()).unwrap_or_default())
            }
            TurnNumber => Value::Int(self.pos.turn_number() as i64),
            MoveNumber => Value::Int(self.pos.fullmove as i64),
            // Shared with the position, not built again (`for p in this_turn()`, `len(this_turn())`).
            ThisTurn => Value::List(self.pos.this_turn_list()),
            Halfmoves => Value::Int(self.pos.halfmove as i64),
            Follow => {
                let Some(p) = self.part else {
                    return Err(fail(span, format!("`follow` needs a part, and there is none in `{}`", self.where_)));
                };
                match &v[0] {
                    Value::List(items) | Value::Set(items) => {
                        let out = self.follow_all(&p, &v[0], items, &args[0])?;
                        // A run whose squares the part left alone holds for other parts that do.
                        if let Some(r) = &mut self.reads {
                            if super::reads::untouched(&p, items, &self.pos.cells) {
                                r.followed(items);
                            } else {
                                r.outside = true;
                            }
                        }
                        out
                    }
                    one => {
                        self.outside();
                        let s = self.square(one, &args[0])?;
                        self.follow(&p, s).map_or(Value::None, Value::Square)
                    }
                }
            }
            _ => return Err(misfiled(b, span)),
        })
    }

    /// Lists, sets and maps.
    #[inline]
    fn collection_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        Ok(match b {
            Len => Value::Int(match &v[0] {
                Value::List(x) | Value::Set(x) => x.len(),
                Value::Map(m) => m.len(),
                Value::Str(s) => {
                    self.touch(args[0].span, &v[0])?;
                    s.chars().count()
                }
                other => return Err(fail(args[0].span, format!("{} has no length", other.type_name()))),
            } as i64),
            List => Value::List(Arc::new(self.items(&v[0], &args[0])?)),
            Set => Value::set_of(self.items(&v[0], &args[0])?),
            Add => match &v[0] {
                Value::List(x) => Value::List(Arc::new(x.iter().cloned().chain([v[1].clone()]).collect())),
                Value::Set(x) => set_with(x, &v[0], &v[1]),
                other => return Err(fail(args[0].span, format!("cannot add to {}", other.type_name()))),
            },
            Discard => {
                // Every item is compared with the one discarded: read through.
                self.touch(args[0].span, &v[0])?;
                match &v[0] {
                    Value::List(x) => Value::List(Arc::new(x.iter().filter(|&i| i != &v[1]).cloned().collect())),
                    Value::Set(x) => Value::Set(Arc::new(x.iter().filter(|&i| i != &v[1]).cloned().collect())),
                    Value::Map(m) => Value::Map(Arc::new(m.iter().filter(|(k, _)| k != &v[1]).cloned().collect())),
                    other => return Err(fail(args[0].span, format!("cannot discard from {}", other.type_name()))),
                }
            }
            Keys => match &v[0] {
                Value::Map(m) => Value::List(Arc::new(m.iter().map(|(k, _)| k.clone()).collect())),
                other => return Err(fail(args[0].span, format!("{} has no keys", other.type_name()))),
            },
            Get => match &v[0] {
                Value::Map(m) => match m.binary_search_by(|(k, _)| k.cmp(&v[1])) {
                    Ok(at) => m[at].1.clone(),
                    Err(_) => v.get(2).cloned().unwrap_or_default(),
                },
                other => return Err(fail(args[0].span, format!("cannot look up a key in {}", other.type_name()))),
            },
            Put => match &v[0] {
                Value::Map(m) => {
                    let mut items: Vec<(Value, Value)> = m.to_vec();
                    items.push((v[1].clone(), v[2].clone()));
                    Value::map_of(items)
                }
                other => return Err(fail(args[0].span, format!("cannot put a key into {}", other.type_name()))),
            },
            Min | Max => {
                // Every item is compared: read through.
                for (x, a) in v.iter().zip(args) {
                    self.touch(a.span, x)?;
                }
                let items = if v.len() == 1 { self.items(&v[0], &args[0])? } else { v.to_vec() };
                let best = if b == Min { items.into_iter().min() } else { items.into_iter().max() };
                best.unwrap_or_default()
            }
            Range => {
                let (a, z) = (self.int(&v[0], &args[0])?, self.int(&v[1], &args[1])?);
                if z.saturating_sub(a) > super::interp::MAX_MEMORY as i64 {
                    return Err(fail(span, format!("range({a}, {z}) is larger than the memory budget")));
                }
                Value::List(Arc::new((a..z).map(Value::Int).collect()))
            }
            _ => return Err(misfiled(b, span)),
        })
    }

    /// Integers and text.
    #[inline]
    fn value_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        Ok(match b {
            Abs => Value::Int(self.int(&v[0], &args[0])?.checked_abs().ok_or_else(|| fail(span, "integer overflow"))?),
            Str => Value::Str(self.text_of(args[0].span, &v[0])?.into()),
            _ => return Err(misfiled(b, span)),
        })
    }

    /// The game's seeded numbers, only in `on setup`.
    #[inline]
    fn random_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        Ok(match b {
            Random => {
                let n = self.int(&v[0], &args[0])?;
                if n < 1 {
                    return Err(fail(args[0].span, format!("random({n}): n must be at least 1")));
                }
                Value::Int(self.rng_for(b, span)?.below(n as usize) as i64)
            }
            RandomOrder => {
                let mut items = self.items(&v[0], &args[0])?;
                let rng = self.rng_for(b, span)?;
                for i in (1..items.len()).rev() {
                    items.swap(i, rng.below(i + 1));
                }
                Value::List(Arc::new(items))
            }
            _ => return Err(misfiled(b, span)),
        })
    }

    /// What changes the position (`builtin` has checked that it may).
    #[inline]
    fn change_family(&mut self, b: Builtin, v: &[Value], args: &[Code], span: Span) -> R<Value> {
        use Builtin::*;
        let (preset, geo) = (self.preset, &self.preset.geo);
        Ok(match b {
            RemovePiece => {
                let s = self.square(&v[0], &args[0])?;
                if cell::is_piece(self.pos.cells[s.idx()]) {
                    self.pos.set(&preset.zobrist, s, cell::EMPTY);
                }
                Value::None
            }
            Place => {
                let Value::Piece(c) = v[0] else {
                    return Err(fail(args[0].span, format!("expected a piece, found {}", v[0].type_name())));
                };
                let s = self.square(&v[1], &args[1])?;
                if self.pos.cells[s.idx()] == cell::HOLE {
                    return Err(fail(args[1].span, format!("{} does not exist: construct it first", geo.name(s))));
                }
                self.pos.set(&preset.zobrist, s, c);
                Value::None
            }
            Construct => {
                let s = self.square(&v[0], &args[0])?;
                if self.pos.cells[s.idx()] == cell::HOLE {
                    self.pos.set(&preset.zobrist, s, cell::EMPTY);
                }
                Value::None
            }
            Destroy => {
                let s = self.square(&v[0], &args[0])?;
                if cell::is_piece(self.pos.cells[s.idx()]) {
                    return Err(fail(args[0].span, format!("{} holds a piece: remove it first", geo.name(s))));
                }
                self.pos.set(&preset.zobrist, s, cell::HOLE);
                Value::None
            }
            ToHand => {
                let side = self.side(&v[0], &args[0])?;
                let k = self.kind(&v[1], &args[1])?;
                self.pos.hand_add(preset, side, k as u8);
                Value::None
            }
            FromHand => {
                let side = self.side(&v[0], &args[0])?;
                let k = self.kind(&v[1], &args[1])?;
                Value::Bool(self.pos.hand_take(preset, side, k as u8))
            }
            Promote => {
                let s = self.square(&v[0], &args[0])?;
                let c = self.pos.cells[s.idx()];
                if !cell::is_piece(c) {
                    return Err(fail(args[0].span, format!("no piece on {} to promote", geo.name(s))));
                }
                let k = self.kind(&v[1], &args[1])?;
                self.pos.set(&preset.zobrist, s, cell::piece(k, cell::side(c)));
                Value::None
            }
            _ => return Err(misfiled(b, span)),
        })
    }
}

/// The empty list that built-ins give, one shared value: an empty hand or turn allocates nothing.
static EMPTY_LIST: std::sync::LazyLock<Arc<Vec<Value>>> = std::sync::LazyLock::new(Default::default);

/// A list of the items; the shared empty list when there are none.
#[inline]
fn list_of(items: Vec<Value>) -> Value {
    if items.is_empty() { Value::List(EMPTY_LIST.clone()) } else { Value::List(Arc::new(items)) }
}

/// A built-in passed to the function of a family it is not in: a table error, reported rather than
/// panicking.
#[cold]
#[inline(never)]
fn misfiled(b: Builtin, span: Span) -> super::interp::Stop {
    fail(span, format!("`{}` is not run by the function of its family (built-in table error)", name_of(b)))
}

/// An argument of the wrong type: `expected a square, found a piece`.
#[cold]
#[inline(never)]
fn expected(arg: &Code, what: &str, found: &Value) -> super::interp::Stop {
    fail(arg.span, format!("expected {what}, found {}", found.type_name()))
}

/// A set with one more item, inserted in order (the set itself when it holds the item already).
fn set_with(items: &[Value], set: &Value, item: &Value) -> Value {
    match items.binary_search(item) {
        Ok(_) => set.clone(),
        Err(at) => {
            let mut out = Vec::with_capacity(items.len() + 1);
            out.extend_from_slice(&items[..at]);
            out.push(item.clone());
            out.extend_from_slice(&items[at..]);
            Value::Set(Arc::new(out))
        }
    }
}
