//! The tree-walking interpreter, with the sandbox's budgets: steps, call depth and memory.

use super::ir::{Body, Code, Ex, Field, Op, St};
use super::reads::Reads;
use super::table::Builtin;
use super::value::{PartVal, Value};
use crate::diag::Diagnostic;
use crate::engine::board::{Sq, cell};
use crate::engine::side::Side;
use crate::engine::{GameOver, Position};
use crate::preset::Preset;
use crate::syntax::Span;
use crate::syntax::script::BinOp;
use std::sync::Arc;

/// Steps (statements and expressions evaluated, loop iterations) one hook call may take.
pub const MAX_STEPS: u64 = 2_000_000;
/// Nested function calls one hook call may make.
pub const MAX_DEPTH: u32 = 64;
/// Elements (list items, map entries, string bytes / 8) one hook call may create.
pub const MAX_MEMORY: usize = 4_000_000;
/// Messages one played turn keeps of what its hooks `say`; what comes after is counted, not kept.
pub const MAX_SAID: usize = 64;
/// Bytes of text one played turn keeps of what its hooks `say`.
pub const MAX_SAID_BYTES: usize = 16 * 1024;

/// Keep a message said during a played turn, within [`MAX_SAID`] messages and [`MAX_SAID_BYTES`]
/// bytes per turn: a hook that says more has the rest replaced by one line saying so.
fn hear(said: &mut Vec<String>, text: String) {
    const CUT: &str = "(more was said than a turn keeps)";
    let bytes: usize = said.iter().map(String::len).sum();
    if said.last().is_some_and(|l| l == CUT) {
        return;
    }
    if said.len() + 1 >= MAX_SAID || bytes + text.len() > MAX_SAID_BYTES {
        said.push(CUT.into());
    } else {
        said.push(text);
    }
}

/// A script failed: where and why. The turn it happened in is not played.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ScriptError {
    pub span: Span,
    pub message: String,
}

impl ScriptError {
    pub fn new(span: Span, message: impl Into<String>) -> ScriptError {
        ScriptError { span, message: message.into() }
    }

    /// `path:line:col: error: ...` with the source line and a caret.
    pub fn render(&self, preset: &Preset) -> String {
        preset.sources.render(&Diagnostic::new(self.span, self.message.clone())).trim_end().to_string()
    }
}

/// How a run ended when it did not fail.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Done(Value),
    Rejected(String),
}

/// Boxed behind thin pointers, so that a result stays small: `R<bool>` and `R<Flow>` fit in two
/// registers, and `R<Value>` is no larger than the value.
pub(super) enum Stop {
    Error(Box<ScriptError>),
    // A thin pointer on purpose: the extra allocation is made only when a turn is rejected.
    #[allow(clippy::box_collection)]
    Reject(Box<String>),
}

pub(super) type R<T> = Result<T, Stop>;

/// How a statement ended. A returned value waits in `Interp::returned`, so that this stays one
/// byte and a statement's result comes back in registers.
#[derive(Clone, Copy)]
enum Flow {
    Next,
    Break,
    Continue,
    Return,
}

/// Room for one more item in a collection a loop is building. A full one grows to at least
/// `MIN_GROWN` at once: such a collection (`out = add(out, s)` over a side's pieces) usually holds
/// more than a few items, and growing it 4, 8, 16 reallocated and copied it twice more.
fn room_for_one(items: &mut Vec<Value>) -> &mut Vec<Value> {
    const MIN_GROWN: usize = 16;
    if items.len() == items.capacity() {
        items.reserve(MIN_GROWN.saturating_sub(items.len()).max(1));
    }
    items
}

pub(super) fn fail(span: Span, msg: impl Into<String>) -> Stop {
    Stop::Error(Box::new(ScriptError::new(span, msg)))
}

/// One hook or function run: the position it sees and may change, and its budgets.
pub struct Interp<'a> {
    pub preset: &'a Preset,
    pub pos: &'a mut Position,
    pub mover: Side,
    pub part: Option<PartVal>,
    /// Whether built-ins that change the position are allowed here.
    pub mutate: bool,
    /// Where `say` goes; `None` while turns are only being generated.
    pub said: Option<&'a mut Vec<String>>,
    /// A `win` or `draw` the run declared.
    pub declared: Option<GameOver>,
    /// The game's seeded numbers, only while a setup is drawn (`on setup`): play stays deterministic.
    pub rng: Option<&'a mut crate::rng::Rng>,
    pub(super) where_: &'a str,
    /// Steps taken so far; set higher before a run to give it less than [`MAX_STEPS`] (load-time work).
    pub(super) steps: u64,
    depth: u32,
    pub(super) mem: usize,
    /// The loops running, innermost last: a runaway script is reported at its loop.
    loops: Vec<Span>,
    /// Local slots of all active frames; a frame is a window starting at `base`. A built-in
    /// call's arguments are evaluated onto its top, so that they need no buffer of their own.
    locals: Vec<Value>,
    base: usize,
    /// The value of the `return` being carried out (`Flow::Return`).
    returned: Value,
    /// When `Some`, what the run reads and writes outside itself is recorded there (the turn
    /// generator reuses a run's effect while none of that changed).
    pub reads: Option<&'a mut Reads>,
}

/// The buffers of a finished run, kept for the next run on this thread: hooks run at every node
/// of a perft, and allocating them each time cost more than reaching a thread-local. Nested runs
/// (a hook's built-in running another) find the set taken and start with empty buffers.
#[derive(Debug, Default)]
struct Scratch {
    locals: Vec<Value>,
    loops: Vec<Span>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = const { std::cell::Cell::new(Scratch { locals: Vec::new(), loops: Vec::new() }) };
}

impl Drop for Interp<'_> {
    fn drop(&mut self) {
        let mut locals = std::mem::take(&mut self.locals);
        // Empty unless the run failed midway.
        if !locals.is_empty() {
            locals.clear();
        }
        let mut loops = std::mem::take(&mut self.loops);
        loops.clear();
        SCRATCH.set(Scratch { locals, loops });
    }
}

impl<'a> Interp<'a> {
    pub fn new(preset: &'a Preset, pos: &'a mut Position, where_: &'a str) -> Interp<'a> {
        let mover = pos.side;
        let scratch = SCRATCH.take();
        Interp {
            preset,
            pos,
            mover,
            part: None,
            mutate: false,
            said: None,
            declared: None,
            rng: None,
            where_,
            steps: 0,
            depth: 0,
            mem: 0,
            loops: scratch.loops,
            locals: scratch.locals,
            base: 0,
            returned: Value::None,
            reads: None,
        }
    }

    /// Run a body with arguments; `reject` ends it with `Rejected`.
    /// The steps are charged to the command's budget too ([`crate::budget`]).
    pub fn run(&mut self, body: &Body, args: Vec<Value>) -> Result<Outcome, ScriptError> {
        let before = self.steps;
        let r = self.call(body, args, body.span);
        if let Err(spent) = crate::budget::steps(self.steps.saturating_sub(before)) {
            return Err(ScriptError::new(body.span, format!("{spent} (stopped in `{}`)", self.where_)));
        }
        match r {
            Ok(v) => Ok(Outcome::Done(v)),
            Err(Stop::Reject(r)) => Ok(Outcome::Rejected(*r)),
            Err(Stop::Error(e)) => Err(*e),
        }
    }

    fn call(&mut self, body: &Body, args: Vec<Value>, at: Span) -> R<Value> {
        let base = self.locals.len();
        self.locals.extend(args);
        self.enter(body, base, at)
    }

    /// Run a body whose arguments are already on the locals stack from `base` on.
    fn enter(&mut self, body: &Body, base: usize, at: Span) -> R<Value> {
        if self.depth >= MAX_DEPTH {
            self.locals.truncate(base);
            return Err(fail(at, format!("calls nest deeper than {MAX_DEPTH} levels (runaway recursion?)")));
        }
        self.depth += 1;
        let saved = self.base;
        self.base = base;
        // A frame with no locals but its arguments (most functions) has nothing to make room for.
        let top = base + body.locals as usize;
        // A few slots at most: pushed inline rather than through the generic `resize`.
        while self.locals.len() < top {
            self.locals.push(Value::None);
        }
        self.locals.truncate(top);
        let r = self.block(&body.ops);
        self.locals.truncate(base);
        self.base = saved;
        self.depth -= 1;
        match r? {
            Flow::Return => Ok(std::mem::take(&mut self.returned)),
            _ => Ok(Value::None),
        }
    }

    /// Charge `n` steps: a statement with the expressions it evaluates, or one loop iteration.
    #[inline]
    fn step(&mut self, n: u32, span: Span) -> R<()> {
        self.steps += n as u64;
        if self.steps > MAX_STEPS {
            return Err(self.too_many_steps(span));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_many_steps(&self, span: Span) -> Stop {
        let span = self.loops.last().copied().unwrap_or(span);
        fail(span, format!("the script ran for more than {MAX_STEPS} steps in `{}` (endless loop?)", self.where_))
    }

    /// Evaluate an expression the current statement's charge did not cover.
    fn eval_charged(&mut self, c: &Code) -> R<Value> {
        self.step(c.cost, c.span)?;
        self.eval(c)
    }

    /// Count `n` elements made against the memory budget: every script value made is charged
    /// through here (`charge_value` weighs one first).
    #[inline(always)]
    pub(super) fn charge(&mut self, span: Span, n: usize) -> R<()> {
        self.mem = self.mem.saturating_add(n);
        if self.mem > MAX_MEMORY {
            return Err(self.too_much_memory(span));
        }
        Ok(())
    }

    /// Charge a value made, by its weight (`Value::weight`): a scalar is one, a collection or a
    /// string is weighed out of line.
    #[inline(always)]
    pub(super) fn charge_value(&mut self, span: Span, v: &Value) -> R<()> {
        let n = if v.is_compound() { self.weigh(v) } else { 1 };
        self.charge(span, n)
    }

    /// A collection's or a string's weight, walked only as far as the memory left.
    #[inline(never)]
    fn weigh(&self, v: &Value) -> usize {
        v.weight_within((MAX_MEMORY + 1).saturating_sub(self.mem))
    }

    /// Charge the steps of reading a value through (comparing, searching, showing it): one per
    /// element, as `Value::weight` counts them. Scalars cost nothing beyond their statement's
    /// charge. The walk that weighs it stops where the budget ends, so weighing costs no more.
    #[inline(always)]
    pub(super) fn touch(&mut self, span: Span, v: &Value) -> R<()> {
        if v.is_compound() { self.touch_weight(span, v) } else { Ok(()) }
    }

    #[inline(never)]
    fn touch_weight(&mut self, span: Span, v: &Value) -> R<()> {
        let room = (MAX_STEPS + 1).saturating_sub(self.steps);
        let w = v.weight_within(usize::try_from(room).unwrap_or(usize::MAX));
        self.steps = self.steps.saturating_add(w as u64);
        if self.steps > MAX_STEPS {
            return Err(self.too_many_steps(span));
        }
        Ok(())
    }

    /// A value as text (`say`, `str`, `"..." + v`): a collection's reading charged as steps, and
    /// given up when the text would be larger than the memory left. The caller charges the text's
    /// memory (a string's copy is that, and nothing else).
    pub(super) fn text_of(&mut self, span: Span, v: &Value) -> R<String> {
        if !matches!(v, Value::Str(_)) {
            self.touch(span, v)?;
        }
        let cap = MAX_MEMORY.saturating_sub(self.mem).saturating_mul(8);
        match v.display_within(self.preset, cap) {
            Some(t) => Ok(t),
            None => Err(self.too_much_memory(span)),
        }
    }

    #[cold]
    #[inline(never)]
    fn too_much_memory(&self, span: Span) -> Stop {
        fail(span, format!("the script built more than {MAX_MEMORY} values in `{}`", self.where_))
    }

    fn block(&mut self, ops: &[Op]) -> R<Flow> {
        for op in ops {
            match self.exec(op)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn exec(&mut self, op: &Op) -> R<Flow> {
        self.step(op.cost, op.span)?;
        match &op.st {
            St::SetLocal(i, e) => {
                let v = self.eval(e)?;
                self.locals[self.base + *i as usize] = v;
            }
            St::AddToLocal { slot, args, span } => self.add_to_local(*slot, args, *span)?,
            St::SetGlobal(i, e) => {
                let v = self.eval(e)?;
                // Compared with the old value and digested into the position's hash: read through,
                // unless that is decided at once (the value it holds, an empty collection).
                if v.is_compound() && !v.trivially_same(&self.pos.state[*i as usize]) {
                    self.touch_weight(e.span, &v)?;
                }
                if let Some(r) = &mut self.reads {
                    r.wrote(*i);
                }
                self.pos.set_state(self.preset, *i as usize, v);
            }
            St::If(branches, otherwise) => {
                // The first condition is in the statement's charge, the others are charged if reached.
                for (i, (cond, body)) in branches.iter().enumerate() {
                    if i > 0 {
                        self.step(cond.cost, cond.span)?;
                    }
                    if self.test(cond)? {
                        return self.block(body);
                    }
                }
                return self.block(otherwise);
            }
            St::For(slot, e, body) => return self.for_loop(op.span, *slot as usize, e, body),
            St::ForThisTurn(slot, at, body) => return self.for_this_turn(op.span, *slot as usize, *at, body),
            St::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                self.returned = v;
                return Ok(Flow::Return);
            }
            St::Break => return Ok(Flow::Break),
            St::Continue => return Ok(Flow::Continue),
            St::Eval(e) => {
                self.eval(e)?;
            }
            St::While(..) | St::Reject(_) | St::Win(..) | St::Draw(_) | St::Say(_) => return self.exec_other(op),
        }
        Ok(Flow::Next)
    }

    /// The statements that run less often (`while` once per loop, not per iteration), out of line:
    /// `exec` stays smaller, with less to save and restore on every statement. Charged already.
    #[inline(never)]
    fn exec_other(&mut self, op: &Op) -> R<Flow> {
        match &op.st {
            St::While(cond, body) => {
                self.loops.push(op.span);
                // The first test is in the statement's charge; each iteration charges one step, and
                // the test after it.
                while self.test(cond)? {
                    self.step(1, op.span)?;
                    match self.block(body)? {
                        Flow::Break => break,
                        Flow::Return => {
                            self.loops.pop();
                            return Ok(Flow::Return);
                        }
                        _ => {}
                    }
                    self.step(cond.cost, op.span)?;
                }
                self.loops.pop();
            }
            St::Reject(e) => {
                let v = self.eval(e)?;
                return Err(Stop::Reject(v.display(self.preset).into()));
            }
            St::Win(side, reason) => {
                self.declares();
                let Value::Side(s) = self.eval(side)? else {
                    return Err(fail(side.span, "`win` needs a side: `win mover \"reason\"`"));
                };
                let reason = self.eval(reason)?.display(self.preset);
                self.declared.get_or_insert(GameOver { winner: Some(s), reason });
            }
            St::Draw(reason) => {
                self.declares();
                let reason = self.eval(reason)?.display(self.preset);
                self.declared.get_or_insert(GameOver { winner: None, reason });
            }
            St::Say(e) => {
                // Charged alike whether the turn is played or only tried, so both end alike.
                let v = self.eval(e)?;
                let text = self.text_of(e.span, &v)?;
                self.charge(e.span, text.len() / 8 + 1)?;
                if let Some(said) = self.said.as_deref_mut() {
                    hear(said, text);
                }
            }
            // The others `exec` runs itself, never passing them here.
            _ => {}
        }
        Ok(Flow::Next)
    }

    /// `x = add(x, item)` (`St::AddToLocal`): when x is a list or set, the item goes into its own
    /// storage (copied first if something else shares it). The steps are the statement's, charged
    /// already; the memory charged is what was added (the item and its place), not the whole
    /// collection again. Otherwise the call runs as written, and fails as `add` does.
    #[inline(never)]
    fn add_to_local(&mut self, i: u16, args: &[Code], span: Span) -> R<()> {
        let slot = self.base + i as usize;
        if !matches!(self.locals[slot], Value::List(_) | Value::Set(_)) {
            let v = self.call_builtin(Builtin::Add, args, span)?;
            self.locals[slot] = v;
            return Ok(());
        }
        let item = self.eval(&args[1])?;
        let n = if item.is_compound() { self.weigh(&item) } else { 1 };
        self.charge(span, n + 1)?;
        match &mut self.locals[self.base + i as usize] {
            Value::List(items) => room_for_one(Arc::make_mut(items)).push(item),
            Value::Set(items) => {
                if let Err(at) = items.binary_search(&item) {
                    room_for_one(Arc::make_mut(items)).insert(at, item);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `for`: the items are read from the collection as the loop goes (it cannot change meanwhile).
    fn for_loop(&mut self, span: Span, slot: usize, e: &Code, body: &[Op]) -> R<Flow> {
        match self.eval(e)? {
            Value::List(v) | Value::Set(v) => self.each(span, slot, body, v.len(), |i| v[i].dup()),
            other => self.for_other(span, slot, e, body, other),
        }
    }

    /// `for p in this_turn()` (`St::ForThisTurn`, `at` the call's span): the parts, a few at most,
    /// are copied out of the position rather than built into a list; charged as that list would be.
    #[inline(never)]
    fn for_this_turn(&mut self, span: Span, slot: usize, at: Span, body: &[Op]) -> R<Flow> {
        const FEW: usize = super::ir::MAX_PARTS;
        self.outside();
        let parts = self.pos.current_parts();
        let n = parts.len();
        let Some(&first) = parts.first() else { return self.charge(at, 1).map(|()| Flow::Next) };
        if n > FEW {
            return match self.call_builtin(Builtin::ThisTurn, &[], at)? {
                Value::List(v) => self.each(span, slot, body, v.len(), |i| v[i].dup()),
                _ => Ok(Flow::Next),
            };
        }
        let mut few = [first; FEW];
        few[..n].copy_from_slice(parts);
        self.charge(at, n + 1)?;
        self.each(span, slot, body, n, |i| Value::Part(few[i]))
    }

    /// A loop over a map's keys or a count, out of line: lists are looped over far more often.
    #[inline(never)]
    fn for_other(&mut self, span: Span, slot: usize, e: &Code, body: &[Op], v: Value) -> R<Flow> {
        match v {
            Value::Map(m) => self.each(span, slot, body, m.len(), |i| m[i].0.clone()),
            Value::Int(n) => {
                // The loop's items count like `range(0, n)`.
                if n > MAX_MEMORY.saturating_sub(self.mem) as i64 {
                    return Err(fail(e.span, format!("a loop over {n} is larger than the memory budget")));
                }
                self.charge(e.span, n.max(0) as usize)?;
                self.each(span, slot, body, n.max(0) as usize, |i| Value::Int(i as i64))
            }
            other => Err(fail(e.span, format!("cannot loop over {}", other.type_name()))),
        }
    }

    fn each(&mut self, span: Span, slot: usize, body: &[Op], n: usize, item: impl Fn(usize) -> Value) -> R<Flow> {
        self.loops.push(span);
        for i in 0..n {
            self.step(1, span)?;
            std::mem::replace(&mut self.locals[self.base + slot], item(i)).discard();
            match self.block(body)? {
                Flow::Break => break,
                Flow::Return => {
                    self.loops.pop();
                    return Ok(Flow::Return);
                }
                _ => {}
            }
        }
        self.loops.pop();
        Ok(Flow::Next)
    }

    /// Whether an expression (charged already) is true: the nodes whose truth is known without
    /// building their value (a local, a part's square or piece, a comparison, a reader) are
    /// decided here; the others are evaluated and let go.
    fn test(&mut self, c: &Code) -> R<bool> {
        Ok(match &c.ex {
            Ex::Not(e) => !self.test(e)?,
            Ex::Local(i) => self.locals[self.base + *i as usize].truthy(),
            Ex::Global(i) => {
                self.note_global(*i);
                self.pos.state[*i as usize].truthy()
            }
            // The boolean is not built, but still counted, as `binary` counts it.
            Ex::IsConst(a, v, negated) => self.is_const(a, v, c.span)? != *negated,
            Ex::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let (l, r) = (self.eval(a)?, self.eval(b)?);
                let same = self.equal(&l, &r, c.span)?;
                self.charge(c.span, 1)?;
                same == (*op == BinOp::Eq)
            }
            Ex::Bin(BinOp::And, a, b) => {
                self.test(a)? && {
                    self.step(b.cost, b.span)?;
                    self.test(b)?
                }
            }
            Ex::Bin(BinOp::Or, a, b) => {
                self.test(a)? || {
                    self.step(b.cost, b.span)?;
                    self.test(b)?
                }
            }
            // `part.capture`, `m.from`: a part's square or piece is tested where the part stands.
            Ex::PartField(f) => match self.part.and_then(|p| part_code(&p, *f)) {
                Some(code) => {
                    self.note_field(*f);
                    code != 0
                }
                None => self.eval(c)?.into_truth(),
            },
            Ex::LocalField(i, f) => match &self.locals[self.base + *i as usize] {
                Value::Part(p) if part_code(p, *f).is_some() => part_code(p, *f) != Some(0),
                _ => self.eval(c)?.into_truth(),
            },
            Ex::Read(b, arg) => self.read_node(*b, arg, c.span)?.into_truth(),
            _ => self.eval(c)?.into_truth(),
        })
    }

    /// `a == v` for a constant `v` (`Ex::IsConst`), the boolean counted as `binary` counts it.
    #[inline(always)]
    fn is_const(&mut self, a: &Code, v: &Value, span: Span) -> R<bool> {
        let l = self.eval(a)?;
        let same = self.equal(&l, v, span);
        l.discard();
        let same = same?;
        self.charge(span, 1)?;
        Ok(same)
    }

    /// A reader (`Ex::Read`): its scalar result counted here as `builtin` would count it.
    #[inline(always)]
    fn read_node(&mut self, b: Builtin, arg: &Code, span: Span) -> R<Value> {
        let v = self.eval(arg)?;
        if let Some(r) = &mut self.reads {
            r.builtin(b, std::slice::from_ref(&v));
        }
        let r = self.read(b, &v, arg);
        v.discard();
        let out = r?;
        self.charge(span, 1)?;
        Ok(out)
    }

    /// A built-in call: the arguments go onto the locals stack, above every frame (a call among
    /// them leaves it as it found it). A built-in does not touch the locals, so they are lent out
    /// while it runs.
    #[inline]
    pub(super) fn call_builtin(&mut self, b: Builtin, args: &[Code], span: Span) -> R<Value> {
        if args.is_empty() {
            return self.builtin(b, &[], args, span);
        }
        let top = self.locals.len();
        for e in args {
            match self.eval(e) {
                Ok(v) => self.locals.push(v),
                Err(stop) => {
                    self.locals.truncate(top);
                    return Err(stop);
                }
            }
        }
        let locals = std::mem::take(&mut self.locals);
        let r = self.builtin(b, &locals[top..], args, span);
        self.locals = locals;
        self.locals.truncate(top);
        r
    }

    /// Evaluate an expression whose steps (`Code::cost`) were charged already. A local or a
    /// constant (most operands and arguments) is copied here, inline where it is asked for; every
    /// other node is evaluated by `eval_node`.
    #[inline(always)]
    pub(super) fn eval(&mut self, c: &Code) -> R<Value> {
        match &c.ex {
            Ex::Local(i) => Ok(self.locals[self.base + *i as usize].dup()),
            Ex::Const(v) => Ok(v.dup()),
            _ => self.eval_node(c),
        }
    }

    /// One arm per node.
    #[inline(never)]
    fn eval_node(&mut self, c: &Code) -> R<Value> {
        Ok(match &c.ex {
            Ex::Const(v) => v.clone(),
            Ex::Local(i) => self.locals[self.base + *i as usize].dup(),
            Ex::Global(i) => {
                self.note_global(*i);
                self.pos.state[*i as usize].clone()
            }
            Ex::Mover => Value::Side(self.mover),
            Ex::Opponent => Value::Side(self.mover.other()),
            Ex::Part => match self.part {
                Some(p) => {
                    if let Some(r) = &mut self.reads {
                        r.whole_part();
                    }
                    Value::Part(p)
                }
                None => return Err(self.no_part(c.span)),
            },
            Ex::List(items) => {
                let v = items.iter().map(|e| self.eval(e)).collect::<R<Vec<_>>>()?;
                let v = Value::List(Arc::new(v));
                self.charge_value(c.span, &v)?;
                v
            }
            Ex::Set(items) => {
                let v = Value::set_of(items.iter().map(|e| self.eval(e)).collect::<R<Vec<_>>>()?);
                self.charge_value(c.span, &v)?;
                v
            }
            Ex::Map(items) => {
                let v = Value::map_of(
                    items.iter().map(|(k, v)| Ok((self.eval(k)?, self.eval(v)?))).collect::<R<Vec<_>>>()?,
                );
                self.charge_value(c.span, &v)?;
                v
            }
            Ex::Not(e) => Value::Bool(!self.test(e)?),
            Ex::Neg(e) => match self.eval(e)? {
                Value::Int(i) => Value::Int(i.checked_neg().ok_or_else(|| fail(c.span, "integer overflow"))?),
                other => return Err(fail(e.span, format!("cannot negate {}", other.type_name()))),
            },
            Ex::Bin(BinOp::And, a, b) => {
                let l = self.eval(a)?;
                if !l.truthy() { l } else { self.eval_charged(b)? }
            }
            Ex::Bin(BinOp::Or, a, b) => {
                let l = self.eval(a)?;
                if l.truthy() { l } else { self.eval_charged(b)? }
            }
            Ex::Bin(op, a, b) => {
                let (l, r) = (self.eval(a)?, self.eval(b)?);
                self.binary(*op, l, r, c.span)?
            }
            Ex::IsConst(a, v, negated) => Value::Bool(self.is_const(a, v, c.span)? != *negated),
            Ex::Builtin(b, args) => self.call_builtin(*b, args, c.span)?,
            // One argument needs no buffer.
            Ex::Builtin1(b, arg) => {
                let v = self.eval(arg)?;
                let r = self.builtin(*b, std::slice::from_ref(&v), std::slice::from_ref(&**arg), c.span);
                v.discard();
                r?
            }
            Ex::Read(b, arg) => self.read_node(*b, arg, c.span)?,
            // Counted where they are (the occupancy bits), not listed; charged as that list and the
            // count would be. Kept although `pieces(side)` is shared with the position: that list
            // is made again whenever the board changed, and counting is cheaper (Modern Chaturanga's
            // perft 5 took 18% more instructions without this node).
            Ex::CountPieces(side, at) => {
                if let Some(r) = &mut self.reads {
                    r.material = true;
                }
                let v = self.eval(side)?;
                let s = self.side(&v, side);
                v.discard();
                let n = self.pos.occupied_count(s?);
                self.charge(*at, n + 1)?;
                self.charge(c.span, 1)?;
                Value::Int(n as i64)
            }
            Ex::Call(f, args) => {
                // The arguments go straight onto the locals stack, where the callee's frame begins.
                let base = self.locals.len();
                for e in args {
                    let v = self.eval(e)?;
                    self.locals.push(v);
                }
                let preset = self.preset;
                self.enter(&preset.script.funcs[*f as usize], base, c.span)?
            }
            Ex::Field(e, f) => {
                let v = self.eval(e)?;
                self.field(&v, *f, c.span)?
            }
            // Read in place, without copying the local.
            Ex::LocalField(i, f) => self.field(&self.locals[self.base + *i as usize], *f, c.span)?,
            Ex::PartField(f) => match self.part {
                Some(p) => {
                    self.note_field(*f);
                    self.field(&Value::Part(p), *f, c.span)?
                }
                None => return Err(self.no_part(c.span)),
            },
            Ex::Index(e, i) => {
                let (v, i) = (self.eval(e)?, self.eval(i)?);
                match (&v, &i) {
                    (Value::List(items), Value::Int(n)) => {
                        let len = items.len() as i64;
                        let k = if *n < 0 { len + n } else { *n };
                        items
                            .get(usize::try_from(k).unwrap_or(usize::MAX))
                            .cloned()
                            .ok_or_else(|| fail(c.span, format!("index {n} is outside a list of {len}")))?
                    }
                    (Value::Map(m), key) => {
                        m.binary_search_by(|(k, _)| k.cmp(key)).map(|at| m[at].1.clone()).unwrap_or(Value::None)
                    }
                    _ => return Err(fail(c.span, format!("cannot index {} with {}", v.type_name(), i.type_name()))),
                }
            }
        })
    }

    /// A global read, recorded when reads are.
    #[inline(always)]
    fn note_global(&mut self, i: u16) {
        if let Some(r) = &mut self.reads {
            r.global(i, &self.pos.state[i as usize]);
        }
    }

    #[inline(always)]
    fn note_field(&mut self, f: Field) {
        if let Some(r) = &mut self.reads {
            r.field(f);
        }
    }

    /// A result declared (`win`, `draw`), recorded when reads are.
    #[inline(always)]
    fn declares(&mut self) {
        if let Some(r) = &mut self.reads {
            r.declares = true;
        }
    }

    /// Something read or done beyond the part and the globals, recorded when reads are.
    #[inline(always)]
    pub(super) fn outside(&mut self) {
        if let Some(r) = &mut self.reads {
            r.outside = true;
        }
    }

    #[cold]
    #[inline(never)]
    fn no_part(&self, span: Span) -> Stop {
        fail(span, format!("there is no `part` in `{}`", self.where_))
    }

    /// `l == r`, charged as a read of `l` when both are collections or strings (a comparison of
    /// those may walk them through).
    #[inline(always)]
    fn equal(&mut self, l: &Value, r: &Value, span: Span) -> R<bool> {
        if l.is_compound() && r.is_compound() {
            self.touch_weight(span, l)?;
        }
        Ok(l == r)
    }

    fn binary(&mut self, op: BinOp, l: Value, r: Value, span: Span) -> R<Value> {
        use Value::*;
        let overflow = || fail(span, "integer overflow");
        // The left list grows in place when nothing else shares it (`hand(mover) + pieces(mover)`).
        let (l, r) = match (op, l, r) {
            (BinOp::Add, List(mut a), List(b)) => {
                if a.is_empty() {
                    a = b;
                } else {
                    // An unshared right list gives up its items without copying them.
                    let items = Arc::make_mut(&mut a);
                    match Arc::try_unwrap(b) {
                        Ok(mut moved) => items.append(&mut moved),
                        Err(shared) => items.extend(shared.iter().cloned()),
                    }
                }
                let v = List(a);
                self.charge_value(span, &v)?;
                return Ok(v);
            }
            (_, l, r) => (l, r),
        };
        let v = match (op, &l, &r) {
            (BinOp::Eq, _, _) => Bool(self.equal(&l, &r, span)?),
            (BinOp::Ne, _, _) => Bool(!self.equal(&l, &r, span)?),
            (BinOp::In | BinOp::NotIn, _, _) => {
                // A list or a string is searched through; a set or a map by halves.
                let found = match &r {
                    List(v) => {
                        self.touch(span, &r)?;
                        v.contains(&l)
                    }
                    Set(v) => v.binary_search(&l).is_ok(),
                    Map(m) => m.binary_search_by(|(k, _)| k.cmp(&l)).is_ok(),
                    Str(s) => {
                        self.touch(span, &r)?;
                        matches!(&l, Str(t) if s.contains(&**t))
                    }
                    _ => {
                        return Err(fail(
                            span,
                            format!("`in` needs a list, set, map or string, not {}", r.type_name()),
                        ));
                    }
                };
                Bool(found == (op == BinOp::In))
            }
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Int(a), Int(b)) => Bool(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            }),
            (BinOp::Add, Int(a), Int(b)) => Int(a.checked_add(*b).ok_or_else(overflow)?),
            (BinOp::Sub, Int(a), Int(b)) => Int(a.checked_sub(*b).ok_or_else(overflow)?),
            (BinOp::Mul, Int(a), Int(b)) => Int(a.checked_mul(*b).ok_or_else(overflow)?),
            (BinOp::Div | BinOp::Rem, Int(_), Int(0)) => return Err(fail(span, "division by zero")),
            (BinOp::Div, Int(a), Int(b)) => Int(a.div_euclid(*b)),
            (BinOp::Rem, Int(a), Int(b)) => Int(a.rem_euclid(*b)),
            (BinOp::Add, Str(a), _) => {
                let text = self.text_of(span, &r)?;
                Str(format!("{a}{text}").into())
            }
            (BinOp::Add, Set(a), Set(b)) => Value::set_of(a.iter().chain(b.iter()).cloned().collect()),
            // Each item of the left set is looked up: read through, whatever is kept.
            (BinOp::Sub, Set(a), Set(b)) => {
                self.touch(span, &l)?;
                Set(Arc::new(a.iter().filter(|x| b.binary_search(x).is_err()).cloned().collect()))
            }
            (BinOp::Mul, Set(a), Set(b)) => {
                self.touch(span, &l)?;
                Set(Arc::new(a.iter().filter(|x| b.binary_search(x).is_ok()).cloned().collect()))
            }
            _ => {
                return Err(fail(
                    span,
                    format!("cannot apply `{}` to {} and {}", op.symbol(), l.type_name(), r.type_name()),
                ));
            }
        };
        self.charge_value(span, &v)?;
        Ok(v)
    }

    fn field(&self, v: &Value, f: Field, span: Span) -> R<Value> {
        let code = |c: u8| if c == 0 { Value::None } else { Value::Piece(c) };
        let sq = |s: Sq| if s == Sq::NONE { Value::None } else { Value::Square(s) };
        Ok(match (v, f) {
            (Value::Part(p), Field::From) => sq(p.from),
            (Value::Part(p), Field::To) => sq(p.to),
            (Value::Part(p), Field::Piece) => code(p.piece),
            (Value::Part(p), Field::Captured) => code(p.captured),
            (Value::Part(p), Field::CapturedOn) => sq(p.captured_on),
            (Value::Part(p), Field::Promo) => code(p.promo),
            (Value::Part(p), Field::Kind) => Value::Str(p.kind.word().into()),
            (Value::Part(p), Field::IsCapture) => Value::Bool(p.captured != 0),
            (Value::Piece(c), Field::Side) => Value::Side(cell::side(*c)),
            (Value::Piece(c), Field::Kind) => Value::Kind(cell::kind(*c) as u8),
            (Value::Piece(c), Field::Label) => Value::Str(self.preset.label_of(*c).into()),
            (Value::Piece(c), Field::Name) => Value::Str(self.preset.kinds[cell::kind(*c)].name.as_str().into()),
            (Value::Piece(c), Field::Royal) => Value::Bool(self.preset.kinds[cell::kind(*c)].royal),
            (Value::Piece(c), Field::Value) => Value::Int(self.preset.kinds[cell::kind(*c)].value as i64),
            (Value::Kind(k), Field::Name) => Value::Str(self.preset.kinds[*k as usize].name.as_str().into()),
            (Value::Kind(k), Field::Royal) => Value::Bool(self.preset.kinds[*k as usize].royal),
            (Value::Kind(k), Field::Value) => Value::Int(self.preset.kinds[*k as usize].value as i64),
            _ => {
                let name = Field::ALL.iter().find(|(_, x)| *x == f).map_or("?", |(n, _)| n);
                return Err(fail(span, format!("{} has no field `{name}`", v.type_name())));
            }
        })
    }
}

/// A part's field that is a square or a piece code, 0 for none (what `field` gives as none, or
/// `capture` as false); `None` for the other fields.
#[inline]
fn part_code(p: &PartVal, f: Field) -> Option<u16> {
    Some(match f {
        Field::From => p.from.idx() as u16,
        Field::To => p.to.idx() as u16,
        Field::Piece => p.piece as u16,
        Field::Captured | Field::IsCapture => p.captured as u16,
        Field::CapturedOn => p.captured_on.idx() as u16,
        Field::Promo => p.promo as u16,
        _ => return None,
    })
}
