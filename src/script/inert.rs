//! Which hooks can neither refuse a turn nor change the board (bulk counting may skip them at the last
//! ply), and which parts' `from` depend on the board's shape alone (the turn generator reuses them).

pub use super::ir::Inert;
use super::ir::{Body, Code, Ex, Field, FromSet, Op, Script, St};
use super::table::Builtin;
use super::value::Value;
use crate::syntax::script::{BinOp, PartKind};

/// The bulk-counting facts of a compiled script.
pub fn of(s: &Script) -> Inert {
    let funcs = quiet_funcs(&s.funcs);
    let quiet = |b: &Option<Body>| b.as_ref().is_none_or(|b| ops_quiet(&b.ops, &funcs));
    let h = &s.hooks;
    let part = std::array::from_fn(|k| quiet(&h.validate[k]) && quiet(&h.capture) && quiet(&h.after[k]));
    let end = quiet(&h.turn_end) && h.every.iter().all(|(_, _, b)| ops_quiet(&b.ops, &funcs));
    let before = std::array::from_fn(|k| quiet(&h.before[k]));
    let shaped = shape_funcs(&s.funcs);
    let from_shape = s.turn.iter().map(|p| p.from.as_ref().is_some_and(|b| ops_shape(&b.ops, &shaped))).collect();
    let start_writes = h
        .turn_start
        .as_ref()
        .filter(|b| ops_quiet(&b.ops, &funcs))
        .map(|b| s.funcs.iter().fold(writes(&b.ops), |w, f| w | writes(&f.ops)));
    let turned = turn_funcs(&s.funcs);
    let from_set = s
        .turn
        .iter()
        .map(|p| {
            let mut set = p.from.as_ref().and_then(|b| from_set(b, &p.kinds, &s.funcs))?;
            set.turn_fields = set.empty_when.as_ref().and_then(|b| ops_turn(&b.ops, &[], &turned));
            Some(set)
        })
        .collect();
    let from_global = s.turn.iter().map(|p| p.from.as_ref().and_then(global_of)).collect();
    let from_steps =
        s.turn.iter().map(|p| p.from.as_ref().map_or(0, |b| b.ops.iter().map(|op| u64::from(op.cost)).sum())).collect();
    let vars = (0..s.globals.len()).filter(|&i| !s.globals[i].state).map(|i| i as u16).collect();
    Inert { part, end, before, from_shape, start_writes, from_set, from_global, from_steps, vars }
}

/// The global a part's `from` is, when its body is `return GLOBAL` alone.
fn global_of(body: &Body) -> Option<u16> {
    match &body.ops[..] {
        [Op { st: St::Return(Some(Code { ex: Ex::Global(g), .. })), .. }] => Some(*g),
        _ => None,
    }
}

/// A part's `from` as a [`FromSet`], when it is one and fits the part: the hand only for a part
/// that may `discard`, board pieces only for one that may `remove`, and nothing else offered.
fn from_set(body: &Body, kinds: &[PartKind], funcs: &[Body]) -> Option<FromSet> {
    if !kinds.iter().all(|k| matches!(k, PartKind::Remove | PartKind::Discard)) {
        return None;
    }
    let [Op { st: St::Return(Some(e)), .. }] = &body.ops[..] else { return None };
    let set = match &e.ex {
        Ex::Call(f, args) if args.is_empty() => {
            let f = funcs.get(*f as usize).filter(|f| f.params == 0)?;
            guarded(f)?
        }
        _ => FromSet { empty_when: None, turn_fields: None, hand: false, kinds: 0 },
    };
    let set = match &e.ex {
        Ex::Call(..) => set,
        _ => set_terms(e, set)?,
    };
    let fits =
        (!set.hand || kinds.contains(&PartKind::Discard)) && (set.kinds == 0 || kinds.contains(&PartKind::Remove));
    fits.then_some(set)
}

/// A function whose statements are `if COND { return [] }` (any number, each without `else`) and
/// then `return SET`: the set, with the conditions as a body of their own.
fn guarded(f: &Body) -> Option<FromSet> {
    let (last, ifs) = f.ops.split_last()?;
    let St::Return(Some(set)) = &last.st else { return None };
    let mut ops = Vec::with_capacity(f.ops.len());
    for op in ifs {
        let St::If(branches, otherwise) = &op.st else { return None };
        let [(cond, then)] = &branches[..] else { return None };
        let [Op { st: St::Return(Some(r)), span, .. }] = &then[..] else { return None };
        if !otherwise.is_empty() || !is_empty_list(r) || !no_locals(cond) {
            return None;
        }
        let yes = Op::new(St::Return(Some(Code::new(Ex::Const(Value::Bool(true)), r.span))), *span);
        ops.push(Op { st: St::If(vec![(cond.clone(), vec![yes])], Vec::new()), ..op.clone() });
    }
    let no = Code::new(Ex::Const(Value::Bool(false)), set.span);
    ops.push(Op { st: St::Return(Some(no)), ..last.clone() });
    let empty_when = (!ifs.is_empty()).then(|| Body { ops, ..f.clone() });
    set_terms(set, FromSet { empty_when, turn_fields: None, hand: false, kinds: 0 })
}

/// `hand(mover)`, `pieces(mover, KINDS)` (constant kinds) and `[]`, joined by `+`, added to `set`.
fn set_terms(e: &Code, mut set: FromSet) -> Option<FromSet> {
    match &e.ex {
        Ex::Bin(BinOp::Add, a, b) => set_terms(b, set_terms(a, set)?),
        Ex::Builtin1(Builtin::Hand, side) if matches!(side.ex, Ex::Mover) => {
            set.hand = true;
            Some(set)
        }
        Ex::Builtin(Builtin::Pieces, args) if args.len() == 2 && matches!(args[0].ex, Ex::Mover) => {
            set.kinds |= const_kinds(&args[1])?;
            Some(set)
        }
        _ if is_empty_list(e) => Some(set),
        _ => None,
    }
}

/// A constant kind, or list or set of kinds, as a bit per kind (as `pieces` reads it).
fn const_kinds(c: &Code) -> Option<u64> {
    let one = |v: &Value| match v {
        Value::Kind(k) => Some(1u64 << (*k).min(63)),
        _ => None,
    };
    match &c.ex {
        Ex::Const(Value::List(items) | Value::Set(items)) => items.iter().try_fold(0, |m, v| Some(m | one(v)?)),
        Ex::Const(v) => one(v),
        Ex::List(items) | Ex::Set(items) => items.iter().try_fold(0, |m, c| match &c.ex {
            Ex::Const(v) => Some(m | one(v)?),
            _ => None,
        }),
        _ => None,
    }
}

fn is_empty_list(c: &Code) -> bool {
    match &c.ex {
        Ex::Const(Value::List(v) | Value::Set(v)) => v.is_empty(),
        Ex::List(v) | Ex::Set(v) => v.is_empty(),
        _ => false,
    }
}

/// Whether an expression reads no local of its own frame (the conditions run in a frame of their
/// own; a called function has its own).
fn no_locals(c: &Code) -> bool {
    match &c.ex {
        Ex::Local(_) | Ex::LocalField(..) => false,
        Ex::Const(_) | Ex::Global(_) | Ex::Mover | Ex::Opponent | Ex::Part | Ex::PartField(_) => true,
        Ex::IsConst(e, ..) | Ex::CountPieces(e, _) | Ex::Not(e) | Ex::Neg(e) | Ex::Field(e, _) => no_locals(e),
        Ex::Builtin1(_, e) | Ex::Read(_, e) => no_locals(e),
        Ex::List(items) | Ex::Set(items) | Ex::Builtin(_, items) | Ex::Call(_, items) => items.iter().all(no_locals),
        Ex::Map(items) => items.iter().all(|(k, v)| no_locals(k) && no_locals(v)),
        Ex::Bin(_, a, b) | Ex::Index(a, b) => no_locals(a) && no_locals(b),
    }
}

/// The globals these statements may set, a bit each (all bits for an index past 63).
fn writes(ops: &[Op]) -> u64 {
    ops.iter().fold(0, |w, op| {
        w | match &op.st {
            St::SetGlobal(i, _) => super::reads::global_bit(*i),
            St::If(branches, otherwise) => branches.iter().fold(writes(otherwise), |w, (_, b)| w | writes(b)),
            St::For(_, _, b) | St::While(_, b) | St::ForThisTurn(_, _, b) => writes(b),
            _ => 0,
        }
    })
}

/// For each function, whether its value depends on the board's shape and the mover alone (see
/// [`code_shape`]); a fixed point from "all" down, as [`quiet_funcs`].
fn shape_funcs(funcs: &[Body]) -> Vec<bool> {
    let mut ok = vec![true; funcs.len()];
    loop {
        let next: Vec<bool> = funcs.iter().map(|f| ops_shape(&f.ops, &ok)).collect();
        if next == ok {
            return ok;
        }
        ok = next;
    }
}

/// Built-ins that read nothing of the position but which squares exist (geometry and the board's
/// shape), or nothing at all (values and collections). Every other reads pieces, hands, the turn
/// or the history, or changes the position.
fn reads_shape_only(b: Builtin) -> bool {
    use Builtin::*;
    super::reads::pure(b) || matches!(b, Exists | Neighbours | EdgeNeighbours | Frontier | Squares | Holes)
}

fn ops_shape(ops: &[Op], f: &[bool]) -> bool {
    ops.iter().all(|op| match &op.st {
        St::SetLocal(_, e) | St::Eval(e) => code_shape(e, f),
        St::Return(e) => e.as_ref().is_none_or(|e| code_shape(e, f)),
        St::If(branches, otherwise) => {
            branches.iter().all(|(c, b)| code_shape(c, f) && ops_shape(b, f)) && ops_shape(otherwise, f)
        }
        St::For(_, e, b) | St::While(e, b) => code_shape(e, f) && ops_shape(b, f),
        St::AddToLocal { args, .. } => args.iter().all(|e| code_shape(e, f)),
        St::Break | St::Continue => true,
        St::SetGlobal(..) | St::Reject(_) | St::Win(..) | St::Draw(_) | St::Say(_) | St::ForThisTurn(..) => false,
    })
}

/// Whether an expression reads only locals, constants, the mover and the board's shape. A field
/// (`x.piece`) may read the board through a square: not allowed, nor globals, the part or the turn.
fn code_shape(c: &Code, f: &[bool]) -> bool {
    match &c.ex {
        Ex::Const(_) | Ex::Local(_) | Ex::Mover | Ex::Opponent => true,
        Ex::Global(_) | Ex::Part | Ex::LocalField(..) | Ex::PartField(_) | Ex::Field(..) => false,
        Ex::CountPieces(..) => false,
        Ex::IsConst(e, ..) | Ex::Not(e) | Ex::Neg(e) => code_shape(e, f),
        Ex::Builtin1(b, e) | Ex::Read(b, e) => reads_shape_only(*b) && code_shape(e, f),
        Ex::Builtin(b, args) => reads_shape_only(*b) && args.iter().all(|e| code_shape(e, f)),
        Ex::List(items) | Ex::Set(items) => items.iter().all(|e| code_shape(e, f)),
        Ex::Map(items) => items.iter().all(|(k, v)| code_shape(k, f) && code_shape(v, f)),
        Ex::Bin(_, a, b) | Ex::Index(a, b) => code_shape(a, f) && code_shape(b, f),
        Ex::Call(i, args) => f.get(*i as usize).copied().unwrap_or(false) && args.iter().all(|e| code_shape(e, f)),
    }
}

/// For each function, whether it is quiet: every function it may call is quiet too (a fixed point
/// from "all quiet" down, so recursion is handled).
fn quiet_funcs(funcs: &[Body]) -> Vec<bool> {
    let mut ok = vec![true; funcs.len()];
    loop {
        let next: Vec<bool> = funcs.iter().map(|f| ops_quiet(&f.ops, &ok)).collect();
        if next == ok {
            return ok;
        }
        ok = next;
    }
}

fn changes_position(b: Builtin) -> bool {
    b.def().changes
}

fn ops_quiet(ops: &[Op], funcs: &[bool]) -> bool {
    ops.iter().all(|op| op_quiet(op, funcs))
}

fn op_quiet(op: &Op, f: &[bool]) -> bool {
    match &op.st {
        St::Reject(_) => false,
        St::SetLocal(_, e) | St::SetGlobal(_, e) | St::Say(e) | St::Eval(e) | St::Draw(e) => code_quiet(e, f),
        St::Win(a, b) => code_quiet(a, f) && code_quiet(b, f),
        St::Return(e) => e.as_ref().is_none_or(|e| code_quiet(e, f)),
        St::If(branches, otherwise) => {
            branches.iter().all(|(c, b)| code_quiet(c, f) && ops_quiet(b, f)) && ops_quiet(otherwise, f)
        }
        St::For(_, e, b) | St::While(e, b) => code_quiet(e, f) && ops_quiet(b, f),
        St::ForThisTurn(_, _, b) => ops_quiet(b, f),
        St::AddToLocal { args, .. } => args.iter().all(|e| code_quiet(e, f)),
        St::Break | St::Continue => true,
    }
}

fn code_quiet(c: &Code, f: &[bool]) -> bool {
    match &c.ex {
        Ex::Const(_) | Ex::Local(_) | Ex::Global(_) | Ex::Mover | Ex::Opponent | Ex::Part => true,
        Ex::LocalField(..) | Ex::PartField(_) => true,
        Ex::IsConst(e, ..) | Ex::CountPieces(e, _) => code_quiet(e, f),
        Ex::Builtin1(b, e) | Ex::Read(b, e) => !changes_position(*b) && code_quiet(e, f),
        Ex::List(items) | Ex::Set(items) => items.iter().all(|e| code_quiet(e, f)),
        Ex::Map(items) => items.iter().all(|(k, v)| code_quiet(k, f) && code_quiet(v, f)),
        Ex::Not(e) | Ex::Neg(e) | Ex::Field(e, _) => code_quiet(e, f),
        Ex::Bin(_, a, b) | Ex::Index(a, b) => code_quiet(a, f) && code_quiet(b, f),
        Ex::Builtin(b, args) => !changes_position(*b) && args.iter().all(|e| code_quiet(e, f)),
        Ex::Call(i, args) => f.get(*i as usize).copied().unwrap_or(false) && args.iter().all(|e| code_quiet(e, f)),
    }
}

/// For each function, the fields of the turn's parts it reads when it reads nothing else but
/// constants, its arguments, the mover and the full-move number (see [`ops_turn`]); `None` when it
/// reads more. A fixed point from "nothing read" up, as [`quiet_funcs`].
fn turn_funcs(funcs: &[Body]) -> Vec<Option<u32>> {
    let mut read = vec![Some(0); funcs.len()];
    loop {
        let next: Vec<Option<u32>> = funcs.iter().map(|f| ops_turn(&f.ops, &[], &read)).collect();
        if next == read {
            return read;
        }
        read = next;
    }
}

/// The fields of a part a memo can key on (those `memo::packed` holds), a bit per [`Field`].
const KEYED: [Field; 8] = [
    Field::From,
    Field::To,
    Field::CapturedOn,
    Field::Piece,
    Field::Captured,
    Field::Promo,
    Field::Kind,
    Field::IsCapture,
];

/// Statements that read nothing but constants, locals, the mover, the full-move number and, of
/// the parts of `for p in this_turn()` (`parts`: the loops' locals, which nothing else may read
/// whole or write), the fields returned (a bit each); `None` when they read or do more.
fn ops_turn(ops: &[Op], parts: &[u16], f: &[Option<u32>]) -> Option<u32> {
    let free = |i: &u16| !parts.contains(i);
    ops.iter().try_fold(0, |m, op| {
        Some(
            m | match &op.st {
                St::SetLocal(i, e) if free(i) => code_turn(e, parts, f)?,
                St::Eval(e) => code_turn(e, parts, f)?,
                St::Return(e) => e.as_ref().map_or(Some(0), |e| code_turn(e, parts, f))?,
                St::If(branches, otherwise) => {
                    branches.iter().try_fold(ops_turn(otherwise, parts, f)?, |m, (c, b)| {
                        Some(m | code_turn(c, parts, f)? | ops_turn(b, parts, f)?)
                    })?
                }
                St::For(i, e, b) if free(i) => code_turn(e, parts, f)? | ops_turn(b, parts, f)?,
                St::While(e, b) => code_turn(e, parts, f)? | ops_turn(b, parts, f)?,
                St::ForThisTurn(i, _, b) => {
                    let mut inner = parts.to_vec();
                    inner.push(*i);
                    ops_turn(b, &inner, f)?
                }
                St::AddToLocal { slot, args, .. } if free(slot) => {
                    args.iter().try_fold(0, |m, e| Some(m | code_turn(e, parts, f)?))?
                }
                St::Break | St::Continue => 0,
                _ => return None,
            },
        )
    })
}

/// An expression of [`ops_turn`]'s kind.
fn code_turn(c: &Code, parts: &[u16], f: &[Option<u32>]) -> Option<u32> {
    let all = |items: &[Code]| items.iter().try_fold(0, |m, e| Some(m | code_turn(e, parts, f)?));
    match &c.ex {
        Ex::Const(_) | Ex::Mover | Ex::Opponent => Some(0),
        Ex::Local(i) => (!parts.contains(i)).then_some(0),
        Ex::LocalField(i, field) if parts.contains(i) && KEYED.contains(field) => Some(1 << *field as u32),
        Ex::IsConst(e, ..) | Ex::Not(e) | Ex::Neg(e) => code_turn(e, parts, f),
        Ex::Builtin1(b, e) | Ex::Read(b, e) => pure(*b).then(|| code_turn(e, parts, f))?,
        Ex::Builtin(b, args) => pure(*b).then(|| all(args))?,
        Ex::List(items) | Ex::Set(items) => all(items),
        Ex::Map(items) => {
            items.iter().try_fold(0, |m, (k, v)| Some(m | code_turn(k, parts, f)? | code_turn(v, parts, f)?))
        }
        Ex::Bin(_, a, b) | Ex::Index(a, b) => Some(code_turn(a, parts, f)? | code_turn(b, parts, f)?),
        Ex::Call(i, args) => Some((*f.get(*i as usize)?)? | all(args)?),
        _ => None,
    }
}

/// Built-ins whose value is their arguments' and the preset's fixed data's alone, and the
/// full-move number.
fn pure(b: Builtin) -> bool {
    b == Builtin::MoveNumber || super::reads::pure(b)
}
