//! How the engine runs a hook: a fresh interpreter over the position, with what the hook may do.

use super::interp::{Interp, Outcome, ScriptError};
use super::ir::Body;
use super::reads::Reads;
use super::value::{PartVal, Value};
use crate::engine::{GameOver, Position, Side};
use crate::preset::Preset;
use std::cell::RefCell;

/// One hook run during a played turn, as `trace on` in the REPL shows it.
#[derive(Clone, Debug)]
pub struct TraceEvent {
    pub hook: String,
    pub part: Option<PartVal>,
    /// Globals (state and scratch) whose value the hook changed: index, before, after.
    pub changed: Vec<(usize, Value, Value)>,
    pub rejected: Option<String>,
    pub said: Vec<String>,
}

thread_local! {
    /// `Some` while tracing; hooks of played turns (those that collect what is said) append here.
    static TRACE: RefCell<Option<Vec<TraceEvent>>> = const { RefCell::new(None) };
}

/// Start (`true`) or stop tracing the hooks of played turns on this thread.
pub fn trace(on: bool) {
    TRACE.with(|t| *t.borrow_mut() = on.then(Vec::new));
}

/// The hooks traced since the last call (empty when tracing is off).
pub fn take_trace() -> Vec<TraceEvent> {
    TRACE.with(|t| t.borrow_mut().as_mut().map(std::mem::take).unwrap_or_default())
}

fn tracing() -> bool {
    TRACE.with(|t| t.borrow().is_some())
}

/// Where a hook runs, for messages (`... in on after move`).
pub struct Call<'b> {
    pub body: &'b Body,
    pub part: Option<PartVal>,
    pub mover: Side,
    pub mutate: bool,
}

/// Run a hook; `Ok(Some(reason))` when it rejected. A `win`/`draw` it declares is recorded in the position.
pub fn run<'a>(
    preset: &'a Preset,
    pos: &'a mut Position,
    call: Call<'a>,
    said: Option<&'a mut Vec<String>>,
) -> Result<Option<String>, ScriptError> {
    // Only played turns collect what is said; legal-turn trials are not traced.
    if said.is_some() && tracing() {
        return run_traced(preset, pos, call, said);
    }
    run_plain(preset, pos, call, said)
}

fn run_plain<'a>(
    preset: &'a Preset,
    pos: &'a mut Position,
    call: Call<'a>,
    said: Option<&'a mut Vec<String>>,
) -> Result<Option<String>, ScriptError> {
    run_with(preset, pos, call, said, None)
}

/// [`run`] for a trial of the turn generator (nothing said, nothing traced), recording in `reads`
/// (cleared first) what the hook read and wrote, so that its effect can be reused.
pub fn run_tracked<'a>(
    preset: &'a Preset,
    pos: &'a mut Position,
    call: Call<'a>,
    reads: &'a mut Reads,
) -> Result<Option<String>, ScriptError> {
    reads.clear();
    reads.to = call.part.map(|p| p.to);
    run_with(preset, pos, call, None, Some(reads))
}

fn run_with<'a>(
    preset: &'a Preset,
    pos: &'a mut Position,
    call: Call<'a>,
    said: Option<&'a mut Vec<String>>,
    reads: Option<&'a mut Reads>,
) -> Result<Option<String>, ScriptError> {
    let mut it = Interp::new(preset, pos, &call.body.name);
    it.mover = call.mover;
    it.part = call.part;
    it.mutate = call.mutate;
    it.said = said;
    it.reads = reads;
    let out = it.run(call.body, Vec::new())?;
    let steps = it.steps;
    if let Some(r) = it.reads.as_deref_mut() {
        r.steps = steps;
    }
    if let Some(g) = it.declared.take() {
        it.pos.declare(g);
    }
    Ok(rejection(out))
}

/// A hook's rejection, if it rejected.
fn rejection(out: Outcome) -> Option<String> {
    match out {
        Outcome::Rejected(r) => Some(r),
        Outcome::Done(_) => None,
    }
}

fn run_traced<'a>(
    preset: &'a Preset,
    pos: &'a mut Position,
    call: Call<'a>,
    said: Option<&'a mut Vec<String>>,
) -> Result<Option<String>, ScriptError> {
    let (hook, part, before) = (call.body.name.clone(), call.part, pos.state.clone());
    let Some(said) = said else { return run_plain(preset, pos, call, None) };
    let heard = said.len();
    let out = run_plain(preset, pos, call, Some(&mut *said))?;
    let changed = before
        .into_iter()
        .zip(pos.state.iter())
        .enumerate()
        .filter(|(_, (b, a))| b != *a)
        .map(|(i, (b, a))| (i, b, a.clone()))
        .collect();
    let event = TraceEvent { hook, part, changed, rejected: out.clone(), said: said[heard..].to_vec() };
    TRACE.with(|t| t.borrow_mut().as_mut().map(|v| v.push(event)));
    Ok(out)
}

/// Run a body for its value (a part's `from`, evaluation); it may not change the position.
pub fn value(preset: &Preset, pos: &mut Position, body: &Body, mover: Side) -> Result<Value, ScriptError> {
    value_with(preset, pos, body, mover, None)
}

/// [`value`], recording in `reads` (cleared first) what the body read, so that its value can be reused.
pub fn value_tracked(
    preset: &Preset,
    pos: &mut Position,
    body: &Body,
    mover: Side,
    reads: &mut Reads,
) -> Result<Value, ScriptError> {
    reads.clear();
    value_with(preset, pos, body, mover, Some(reads))
}

fn value_with(
    preset: &Preset,
    pos: &mut Position,
    body: &Body,
    mover: Side,
    reads: Option<&mut Reads>,
) -> Result<Value, ScriptError> {
    let mut it = Interp::new(preset, pos, &body.name);
    it.mover = mover;
    it.reads = reads;
    let out = it.run(body, Vec::new())?;
    let steps = it.steps;
    if let Some(r) = it.reads.as_deref_mut() {
        r.steps = steps;
    }
    match out {
        Outcome::Done(v) => Ok(v),
        Outcome::Rejected(r) => {
            Err(ScriptError::new(body.span, format!("`reject \"{r}\"` outside a hook that may reject")))
        }
    }
}

/// Run `on announce` after a turn was played: `mover` is the side that played. Only `say` has an effect.
pub fn announce(preset: &Preset, pos: &mut Position, mover: Side, said: &mut Vec<String>) -> Result<(), ScriptError> {
    let Some(body) = &preset.script.hooks.announce else { return Ok(()) };
    let heard = said.len();
    let mut it = Interp::new(preset, pos, &body.name);
    it.mover = mover;
    it.said = Some(&mut *said);
    it.run(body, Vec::new())?;
    drop(it);
    if tracing() {
        let event = TraceEvent {
            hook: body.name.clone(),
            part: None,
            changed: vec![],
            rejected: None,
            said: said[heard..].to_vec(),
        };
        TRACE.with(|t| t.borrow_mut().as_mut().map(|v| v.push(event)));
    }
    Ok(())
}

/// The `on game_end` verdict for the side to move, if the preset has one.
pub fn game_end(preset: &Preset, pos: &mut Position) -> Result<Option<GameOver>, ScriptError> {
    let Some(body) = &preset.script.hooks.game_end else { return Ok(None) };
    game_end_with(preset, pos, body, None)
}

/// [`game_end`] (the preset has the hook), recording in `reads` (cleared first) what it read, so
/// that its verdict can be reused.
pub fn game_end_tracked(
    preset: &Preset,
    pos: &mut Position,
    body: &Body,
    reads: &mut Reads,
) -> Result<Option<GameOver>, ScriptError> {
    reads.clear();
    game_end_with(preset, pos, body, Some(reads))
}

fn game_end_with(
    preset: &Preset,
    pos: &mut Position,
    body: &Body,
    reads: Option<&mut Reads>,
) -> Result<Option<GameOver>, ScriptError> {
    let mover = pos.side;
    let mut it = Interp::new(preset, pos, &body.name);
    it.mover = mover;
    it.reads = reads;
    it.run(body, Vec::new())?;
    let steps = it.steps;
    if let Some(r) = it.reads.as_deref_mut() {
        r.steps = steps;
    }
    Ok(it.declared.take())
}

/// Run `on setup` on a freshly set up position with the game's generator; `Some(reason)` if it rejected.
pub fn setup(
    preset: &Preset,
    pos: &mut Position,
    body: &Body,
    rng: &mut crate::rng::Rng,
) -> Result<Option<String>, ScriptError> {
    let mut it = Interp::new(preset, pos, &body.name);
    it.mutate = true;
    it.rng = Some(rng);
    Ok(rejection(it.run(body, Vec::new())?))
}

/// Call a preset function on an empty board (for what a preset computes once, when it loads).
pub fn call(preset: &Preset, f: usize, args: Vec<Value>) -> Result<Value, ScriptError> {
    let body = &preset.script.funcs[f];
    let mut pos = Position::empty(preset);
    let mut it = Interp::new(preset, &mut pos, &body.name);
    match it.run(body, args)? {
        Outcome::Done(v) => Ok(v),
        Outcome::Rejected(r) => {
            Err(ScriptError::new(body.span, format!("`reject \"{r}\"` in a function run at load time")))
        }
    }
}

/// As [`call`], with at most `steps` steps (of [`super::interp::MAX_STEPS`]): what a preset computes
/// at load shares one budget. Also returns the steps it took (all of them when it ran out).
pub fn call_within(preset: &Preset, f: usize, args: Vec<Value>, steps: u64) -> (Result<Value, ScriptError>, u64) {
    run_within(preset, &preset.script.funcs[f], args, steps)
}

/// As [`constant`], with at most `steps` steps, as [`call_within`].
pub fn constant_within(preset: &Preset, code: &super::ir::Code, steps: u64) -> (Result<Value, ScriptError>, u64) {
    run_within(preset, &constant_body(code), Vec::new(), steps)
}

fn run_within(preset: &Preset, body: &Body, args: Vec<Value>, steps: u64) -> (Result<Value, ScriptError>, u64) {
    let mut pos = Position::empty(preset);
    let mut it = Interp::new(preset, &mut pos, &body.name);
    let before = super::interp::MAX_STEPS.saturating_sub(steps);
    it.steps = before;
    let result = match it.run(body, args) {
        Ok(Outcome::Done(v)) => Ok(v),
        Ok(Outcome::Rejected(r)) => {
            Err(ScriptError::new(body.span, format!("`reject \"{r}\"` in a function run at load time")))
        }
        Err(e) => Err(e),
    };
    let used = it.steps.saturating_sub(before).min(steps);
    (result, used)
}

fn constant_body(code: &super::ir::Code) -> Body {
    Body {
        name: "an initial value".into(),
        params: 0,
        locals: 0,
        ops: vec![super::ir::Op::new(super::ir::St::Return(Some(code.clone())), code.span)],
        span: code.span,
    }
}

/// Evaluate a constant expression (an initial value, a FEN state value) on an empty board.
pub fn constant(preset: &Preset, code: &super::ir::Code) -> Result<Value, ScriptError> {
    let body = constant_body(code);
    let mut pos = Position::empty(preset);
    value(preset, &mut pos, &body, Side::White)
}
