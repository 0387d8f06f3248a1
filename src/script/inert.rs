//! Which hooks can neither refuse a turn nor change the board (bulk counting may skip them at the last
//! ply), and which parts' `from` depend on the board's shape alone (the turn generator reuses them).

pub use super::ir::Inert;
use super::ir::{Body, Code, Ex, Op, Script, St};
use super::table::Builtin;

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
    Inert { part, end, before, from_shape, start_writes }
}

/// The globals these statements may set, a bit each (all bits for an index past 63).
fn writes(ops: &[Op]) -> u64 {
    ops.iter().fold(0, |w, op| {
        w | match &op.st {
            St::SetGlobal(i, _) => 1u64.checked_shl(u32::from(*i)).unwrap_or(u64::MAX),
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
    matches!(
        b,
        Exists
            | FileOf
            | RankOf
            | SquareAt
            | Neighbours
            | EdgeNeighbours
            | Frontier
            | Light
            | Squares
            | Holes
            | PieceOf
            | Kinds
            | Len
            | List
            | Set
            | Add
            | Discard
            | Keys
            | Get
            | Put
            | Abs
            | Min
            | Max
            | Str
            | Range
    )
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
