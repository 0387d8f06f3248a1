//! Compiled scripts: every name already resolved to a slot, a global, a function or a built-in.

use super::table::Builtin;
use super::value::Value;
use crate::syntax::Span;
use crate::syntax::script::{BinOp, PartKind};

#[derive(Clone, Debug)]
pub struct Code {
    pub ex: Ex,
    pub span: Span,
    /// The steps evaluating this always takes (see `Ex::cost`), charged at once by whoever
    /// starts the evaluation rather than one by one as each node runs.
    pub cost: u32,
}

impl Code {
    pub fn new(ex: Ex, span: Span) -> Code {
        let cost = ex.cost();
        Code { ex, span, cost }
    }
}

/// The fields a `.name` may read, resolved when the preset loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    From,
    To,
    Piece,
    Captured,
    CapturedOn,
    Promo,
    Kind,
    IsCapture,
    Side,
    Label,
    Name,
    Royal,
    Value,
}

impl Field {
    pub const ALL: [(&'static str, Field); 13] = [
        ("from", Field::From),
        ("to", Field::To),
        ("piece", Field::Piece),
        ("captured", Field::Captured),
        ("captured_on", Field::CapturedOn),
        ("promo", Field::Promo),
        ("kind", Field::Kind),
        ("capture", Field::IsCapture),
        ("side", Field::Side),
        ("label", Field::Label),
        ("name", Field::Name),
        ("royal", Field::Royal),
        ("value", Field::Value),
    ];
}

/// With its own tag byte (`repr(u8)`) rather than one folded into `Const`'s value: the interpreter
/// matches on it for every node, and a plain tag is read with one load.
///
/// The nodes after `Index` are shapes the compiler recognises (`specialise` in `compile.rs`) and
/// the interpreter runs without building what the general nodes would: each gives what its
/// general form gives, charged the same steps (the general form's `cost`, kept) and memory.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Ex {
    Const(Value),
    Local(u16),
    Global(u16),
    Mover,
    Opponent,
    Part,
    List(Vec<Code>),
    Set(Vec<Code>),
    Map(Vec<(Code, Code)>),
    Not(Box<Code>),
    Neg(Box<Code>),
    Bin(BinOp, Box<Code>, Box<Code>),
    Builtin(Builtin, Vec<Code>),
    Call(u16, Vec<Code>),
    Field(Box<Code>, Field),
    Index(Box<Code>, Box<Code>),
    /// A built-in of one argument: the argument needs no buffer.
    Builtin1(Builtin, Box<Code>),
    /// A reader (`Def::reader`: `empty(s)`, `piece_at(s)`, ...): one square or piece in, a scalar
    /// out, without the general dispatch.
    Read(Builtin, Box<Code>),
    /// `a == constant` (`false`) or `a != constant` (`true`): the constant is compared where it
    /// stands, not copied.
    IsConst(Box<Code>, Value, bool),
    /// `local.field`: read in place, without copying the local.
    LocalField(u16, Field),
    /// `part.field`.
    PartField(Field),
    /// `len(pieces(side))`: the side's pieces, counted without listing them; the span is that of
    /// `pieces(...)` (charged as the list it would build).
    CountPieces(Box<Code>, Span),
}

impl Ex {
    /// One step per node, the nodes below included, except what may not run: the right side of
    /// `and`/`or` is charged when it runs, and a called function's statements charge themselves.
    fn cost(&self) -> u32 {
        let sum = |items: &[Code]| items.iter().fold(0u32, |n, c| n.saturating_add(c.cost));
        1u32.saturating_add(match self {
            Ex::Const(_) | Ex::Local(_) | Ex::Global(_) | Ex::Mover | Ex::Opponent | Ex::Part => 0,
            Ex::List(items) | Ex::Set(items) | Ex::Builtin(_, items) | Ex::Call(_, items) => sum(items),
            Ex::Map(items) => items.iter().fold(0u32, |n, (k, v)| n.saturating_add(k.cost).saturating_add(v.cost)),
            Ex::Not(e) | Ex::Neg(e) | Ex::Field(e, _) | Ex::Builtin1(_, e) | Ex::Read(_, e) => e.cost,
            // What their general forms cost (`specialise` keeps that cost; these are for completeness).
            Ex::IsConst(e, ..) | Ex::CountPieces(e, _) => e.cost.saturating_add(1),
            Ex::LocalField(..) | Ex::PartField(_) => 1,
            Ex::Bin(BinOp::And | BinOp::Or, a, _) => a.cost,
            Ex::Bin(_, a, b) | Ex::Index(a, b) => a.cost.saturating_add(b.cost),
        })
    }
}

#[derive(Clone, Debug)]
pub struct Op {
    pub st: St,
    pub span: Span,
    /// The statement's own step and those of the expressions it always evaluates first: one
    /// charge per statement instead of one per node. Later `if` conditions, a `while` condition
    /// after the first and loop iterations are charged as they come.
    pub cost: u32,
}

impl Op {
    pub fn new(st: St, span: Span) -> Op {
        let cost = st.cost();
        Op { st, span, cost }
    }
}

impl St {
    fn cost(&self) -> u32 {
        1u32.saturating_add(match self {
            St::SetLocal(_, e) | St::SetGlobal(_, e) | St::Reject(e) | St::Draw(e) | St::Say(e) | St::Eval(e) => e.cost,
            St::Return(e) => e.as_ref().map_or(0, |e| e.cost),
            St::Win(a, b) => a.cost.saturating_add(b.cost),
            St::If(branches, _) => branches.first().map_or(0, |(c, _)| c.cost),
            St::For(_, e, _) | St::While(e, _) => e.cost,
            St::AddToLocal { args, .. } => args.iter().fold(2u32, |n, c| n.saturating_add(c.cost)),
            St::ForThisTurn(..) => 1,
            St::Break | St::Continue => 0,
        })
    }
}

/// With its own tag byte, for the same reason as `Ex`. The last two are shapes the compiler
/// recognises, as in `Ex`.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum St {
    SetLocal(u16, Code),
    SetGlobal(u16, Code),
    If(Vec<(Code, Vec<Op>)>, Vec<Op>),
    For(u16, Code, Vec<Op>),
    While(Code, Vec<Op>),
    Return(Option<Code>),
    Break,
    Continue,
    Reject(Code),
    Win(Code, Code),
    Draw(Code),
    Say(Code),
    Eval(Code),
    /// `x = add(x, item)`, `args` being `[x, item]` and `span` the call's: the item goes into x's
    /// own storage when x is a list or set nothing else shares, so a loop building a collection is
    /// linear, not quadratic. Otherwise (x not a list or set) it runs as the general call.
    AddToLocal {
        slot: u16,
        args: Vec<Code>,
        span: Span,
    },
    /// `for x in this_turn()`, the span being `this_turn()`'s: the parts are read from the position
    /// rather than from its shared list, which is made again for every new part (Ruddigore's
    /// perft 3 took 2.9% more instructions without this node).
    ForThisTurn(u16, Span, Vec<Op>),
}

/// A function or hook body.
#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub params: u16,
    pub locals: u16,
    pub ops: Vec<Op>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub init: Value,
    /// Part of the position (hash, FEN) rather than scratch for one turn.
    pub state: bool,
    pub span: Span,
}

/// Most parts a turn may declare (the compiler refuses more; a turn holds this many inline).
pub const MAX_PARTS: usize = 4;

#[derive(Clone, Debug)]
pub struct PartSpec {
    pub optional: bool,
    pub if_possible: bool,
    /// The kinds of part that may stand here, at least one.
    pub kinds: Vec<PartKind>,
    pub from: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Hooks {
    pub turn_start: Option<Body>,
    /// Indexed by `PartKind as usize`.
    pub before: [Option<Body>; 6],
    pub validate: [Option<Body>; 6],
    pub after: [Option<Body>; 6],
    pub capture: Option<Body>,
    pub turn_end: Option<Body>,
    pub every: Vec<(u32, u32, Body)>,
    pub game_end: Option<Body>,
    pub announce: Option<Body>,
    pub setup: Option<Body>,
}

#[derive(Clone, Debug, Default)]
pub struct Script {
    pub globals: Vec<Global>,
    pub funcs: Vec<Body>,
    pub hooks: Hooks,
    /// The parts of a turn; empty means one move.
    pub turn: Vec<PartSpec>,
    /// Whether anything here changes how turns are made (otherwise the plain move path runs).
    pub active: bool,
    /// The index in `funcs` of `fn evaluate`, the preset's own evaluation for the computer player.
    pub evaluate: Option<usize>,
    /// Which hooks bulk counting may skip at the last ply.
    pub inert: Inert,
}

impl Script {
    pub fn global(&self, name: &str) -> Option<usize> {
        self.globals.iter().position(|g| g.name == name)
    }

    /// Whether the position carries any `state` (so the FEN may have a state field).
    pub fn has_state(&self) -> bool {
        self.globals.iter().any(|g| g.state)
    }
}

/// What bulk counting at the last ply may leave unrun, found when the preset loads (by `inert::of`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inert {
    /// Per part kind: its `validate` and `after` hooks and `on capture` are absent or quiet.
    pub part: [bool; 6],
    /// `on turn_end` and every `on every N` are absent or quiet.
    pub end: bool,
    /// Per part kind: its `before` hook is absent or quiet.
    pub before: [bool; 6],
    /// Per part of the turn: its `from` reads nothing of the position but the board's shape (which
    /// squares exist) and the mover, so its value holds for every candidate of an earlier part that
    /// builds or removes no square (Constructing's `buildable()` after each move).
    pub from_shape: Vec<bool>,
    /// When `on turn_start` is present and quiet: the globals it (or any function) may write, a
    /// bit each (all bits for an index past 63). Bulk counting runs it only once a part needs them.
    pub start_writes: Option<u64>,
    /// Per part of the turn: its `from` as a set the engine lists natively (see [`FromSet`]).
    pub from_set: Vec<Option<FromSet>>,
    /// Per part of the turn: the global its `from` is, when it is just one (`remove from
    /// huffable`): read where it stands instead of run, at every listing.
    pub from_global: Vec<Option<u16>>,
    /// Per part of the turn: the steps its `from` takes when it runs, if it is one `return`
    /// statement (a global's `from` is charged this whenever it is read in its stead).
    pub from_steps: Vec<u64>,
    /// The globals declared `var` (not `state`), put back to their initial values at every
    /// turn's start and end: only these are looked at then.
    pub vars: Vec<u16>,
}

/// A part's `from` that is, unless a condition empties it, the mover's hand and the mover's
/// pieces of some kinds on the board: `from hand(mover) + pieces(mover, [Queen, Rook])`, or a
/// function of no parameters whose statements are `if COND { return [] }` and then `return` such
/// a set (Ruddigore's `sacrifices()`). Found when the preset loads (`inert::from_set`); the turn
/// generator lists it (and counts it at perft's last ply) without building the list.
#[derive(Clone, Debug)]
pub struct FromSet {
    /// The conditions, as a body whose value is true when one of them holds (the part then offers
    /// nothing): the function's own statements, each `return []` made `return true` and the last
    /// `return` made `return false`, so that it runs (and is charged) as the function would.
    pub empty_when: Option<Body>,
    /// When `empty_when` reads nothing but constants, the mover, the full-move number and these
    /// fields of the turn's parts so far (a bit per [`Field`]; `for p in this_turn()`, `p.capture`):
    /// its value holds for every candidate of an earlier part that leaves those as they were.
    pub turn_fields: Option<u32>,
    /// `hand(mover)` is in the set: each kind in the mover's hand, to discard.
    pub hand: bool,
    /// `pieces(mover, KINDS)`: a bit per kind of the mover's pieces, to remove (0: none).
    pub kinds: u64,
}

impl PartialEq for FromSet {
    fn eq(&self, o: &FromSet) -> bool {
        self.empty_when.is_some() == o.empty_when.is_some()
            && self.turn_fields == o.turn_fields
            && self.hand == o.hand
            && self.kinds == o.kinds
    }
}

impl Eq for FromSet {}
