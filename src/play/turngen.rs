//! Legal turns of scripted presets: every sequence of parts the turn structure and the hooks allow.
//! Generation and play share one path, so a turn that was listed plays exactly as it was judged.

use super::leafcount;
use super::memo::{self, Globals, Memos};
use crate::engine::board::{Sq, cell};
use crate::engine::legal::Pins;
use crate::engine::position::{Move, Position};
use crate::engine::side::Side;
use crate::engine::turn::{Turn, TurnPart, apply_raw};
use crate::preset::Preset;
use crate::script::builtins::move_part;
use crate::script::hooks::{self, Call};
use crate::script::ir::{Body, FromSet, MAX_PARTS, PartSpec};
use crate::script::reads::global_bit;
use crate::script::{PartVal, ScriptError, Value};
use crate::syntax::script::PartKind;
use std::sync::Arc;

type R<T> = Result<T, ScriptError>;

pub type Visit<'v> = dyn FnMut(&mut Position, &Turn) -> Result<(), ScriptError> + 'v;

/// A visit that is lent the generator's memos while it runs ([`for_each_turn_in`]).
pub type VisitIn<'a, 'v> = dyn FnMut(&mut Position, &Turn, &mut Memos<'a>) -> Result<(), ScriptError> + 'v;

/// The reason [`trial`] gives when a turn fails only for leaving the mover's royal piece attacked.
pub const ROYAL_UNSAFE: &str = "it would leave the royal piece attacked";
/// `checks illegal`: the turn would attack the opponent's royal piece.
pub const GIVES_CHECK: &str = "it would give check, and checks are illegal here";

/// The reason [`trial`] gives when a move part is not among the legal moves (the caller explains why).
pub const NOT_LISTED: &str = "the move is not legal here";

/// Partial turns (parts applied, each with its hooks) one listing of a position's turns may try.
/// Turns of several parts multiply: four parts of a thousand candidates each are 10^12 sequences.
pub const MAX_PARTIAL_TURNS: u64 = 1_000_000;

/// The part of a turn when a preset declares no turn structure: one move.
const JUST_MOVE: &[PartKind] = &[PartKind::Move];

struct Gen<'a> {
    preset: &'a Preset,
    mover: Side,
    said: Option<&'a mut Vec<String>>,
    /// The cell-change count right after a move part taken from freshly generated legal moves:
    /// while the board has not changed since, the mover's royal piece is known to be safe.
    safe_at: Option<usize>,
    /// Only counting the turns (the last ply of a bulk perft): quiet hooks at the turn's end are skipped.
    leaf: bool,
    /// Turns counted without playing them out, in `leaf` mode.
    counted: u64,
    /// Partial turns tried so far, against [`MAX_PARTIAL_TURNS`].
    tried: u64,
    /// Emptied candidate lists, kept for the next part: a list is needed per part at every node,
    /// and allocating each was a tenth of the generator's time.
    spare: Vec<Vec<TurnPart>>,
    /// Emptied move lists, likewise: a part's pseudo moves, and the legal ones it is judged by.
    spare_moves: Vec<Vec<Move>>,
    /// The cell changes of the undo record when the turn began.
    base: usize,
    /// Per part, the value of its `from` when that depends on the board's shape alone (see
    /// `Inert::from_shape`) and the shape is still the turn's first: after each candidate of an
    /// earlier part that builds no square, the same list (Constructing's `buildable()` after every
    /// move), worked out once.
    from_cache: [Option<Arc<Vec<Value>>>; MAX_PARTS],
    /// Hook runs and `from` values of this listing, reused while what they read is unchanged.
    memos: Memos<'a>,
    /// In `leaf` mode, a quiet `on turn_start` not run yet: it runs before the first script run
    /// or memo lookup that could see what it writes ([`Gen::undefer`]), so that a turn counted
    /// with bitboards alone never runs it. Undoing the board to a mark made while it was still
    /// to run makes it to run again.
    deferred: bool,
    /// The sole blockers found before the candidates of the part being tried (see [`PinsAt`]).
    pins_at: Option<Box<PinsAt>>,
    /// A [`PinsAt`] no longer in use, filled again by the next [`Gen::pins_here`]: a kilobyte
    /// allocated per listing of Ruddigore's last ply was a tenth of what the curse costs there.
    spare_pins: Option<Box<PinsAt>>,
    /// Where this listing found a hook's run in the memos last, by the hook's address (see
    /// [`Memos::hook`]).
    hints: [usize; HINTS],
}

/// Hooks whose runs a listing remembers where it found.
const HINTS: usize = 8;

/// Enemy rider lines and cells a [`PinsAt`] follows at most (more: not kept).
const PIN_LINES: usize = 32;
const PIN_CELLS: usize = 256;

/// The sole blockers of the mover's royal piece ([`Position::sole_blockers`]) on the board that a
/// part's candidates are tried from (its undo record then held `at` cell changes), line by line,
/// with the cells each line's was worked out from: the royal piece's and those on the line up to
/// its second piece. After a candidate (and whatever followed it), only the lines through a cell
/// it set are looked at again: Ruddigore's curse asks for the blockers after every move of a
/// cursed turn, and a move crosses few of the royal piece's lines.
struct PinsAt {
    at: usize,
    royal: Sq,
    pins: Option<Pins>,
    /// Per line (an index into the enemy's rides), its sole blocker.
    on_line: [Option<Sq>; PIN_LINES],
    lines: usize,
    /// Per cell, the lines it lies on (a bit each; all for the royal piece's).
    cells: [u32; PIN_CELLS],
}

/// Call `visit` with the position after each legal turn (and the turn); the position is restored after.
pub fn for_each_turn(pos: &mut Position, preset: &Preset, visit: &mut Visit) -> Result<(), ScriptError> {
    if !preset.script.active {
        let mut moves = Vec::new();
        pos.legal_moves(preset, &mut moves);
        for m in moves {
            pos.make(preset, m);
            let r = visit(pos, &Turn::single(m));
            pos.unmake();
            r?;
        }
        return Ok(());
    }
    for_each_turn_in(pos, preset, &mut Memos::default(), &mut |p, t, _| visit(p, t))
}

/// [`for_each_turn`] with memos kept from one listing to the next (a perft's): the generator uses
/// them while it lists, and lends them to `visit` (whose listings below use them too). Without
/// them every listing of a perft's inner nodes learnt its hooks' runs again (Maidens' `on
/// turn_start` and `on after move` ran in full once or more per listing).
pub fn for_each_turn_in<'a>(
    pos: &mut Position,
    preset: &'a Preset,
    memos: &mut Memos<'a>,
    visit: &mut VisitIn<'a, '_>,
) -> Result<(), ScriptError> {
    if !preset.script.active {
        let mut moves = Vec::new();
        pos.legal_moves(preset, &mut moves);
        for m in moves {
            pos.make(preset, m);
            let r = visit(pos, &Turn::single(m), memos);
            pos.unmake();
            r?;
        }
        return Ok(());
    }
    let mut g = Gen::new(preset, pos.side, None, false);
    g.memos = std::mem::take(memos);
    pos.begin_turn();
    let r = g.start(pos).and_then(|ok| if ok { g.parts(pos, 0, &mut Turn::default(), visit) } else { Ok(()) });
    pos.unmake();
    *memos = std::mem::take(&mut g.memos);
    r
}

/// How many legal turns the side to move has: like counting [`for_each_turn`]'s visits, but the
/// last part's candidates are counted without being played when nothing after them could refuse
/// one (quiet hooks, royal safety known), and hooks that can neither refuse a turn nor change the
/// board are not run at the turn's end. For the last ply of a bulk perft.
pub fn count_turns(pos: &mut Position, preset: &Preset) -> Result<u64, ScriptError> {
    count_turns_in(pos, preset, &mut Memos::default())
}

/// [`count_turns`] with memos kept from one listing to the next (a perft's).
pub fn count_turns_in<'a>(pos: &mut Position, preset: &'a Preset, memos: &mut Memos<'a>) -> Result<u64, ScriptError> {
    if !preset.script.active {
        let mut moves = Vec::new();
        pos.legal_moves(preset, &mut moves);
        return Ok(moves.len() as u64);
    }
    if let Some(n) = count_untried(pos, preset, memos) {
        return n;
    }
    let mut g = Gen::new(preset, pos.side, None, true);
    g.memos = std::mem::take(memos);
    let mut visited = 0;
    pos.begin_turn();
    let r = g.start(pos).and_then(|ok| {
        if ok {
            g.parts(pos, 0, &mut Turn::default(), &mut |_, _, _| {
                visited += 1;
                Ok(())
            })
        } else {
            Ok(())
        }
    });
    pos.unmake();
    *memos = std::mem::take(&mut g.memos);
    r.map(|()| visited + g.counted)
}

/// [`count_turns_in`] when the generator would try no candidate: every part before the last is
/// left out (`optional` or `if possible`) and offers nothing, by a `from` run kept in the memos
/// that found nothing with the globals as they are (and did not read what a deferred `on
/// turn_start` writes), and the last part is counted with bitboards ([`Gen::bulk`]). The count
/// the generator would reach, and the steps it would charge, without making one: a bulk perft's
/// last ply does this at most nodes of Maidens (no piece to huff), and setting a generator up and
/// walking its parts cost as much as the count. `None` when it is not so simple.
fn count_untried(pos: &mut Position, preset: &Preset, memos: &Memos) -> Option<R<u64>> {
    let script = &preset.script;
    let inert = &script.inert;
    let last = script.turn.len().max(1) - 1;
    let (kinds, last_from) = match script.turn.get(last) {
        Some(s) if s.if_possible => return None,
        Some(s) => (&s.kinds[..], s.from.is_some()),
        None => (JUST_MOVE, false),
    };
    // Gen::bulk's and Gen::before_unread's conditions for the last part.
    if last_from
        || !leafcount::fits(preset, kinds)
        || !kinds.iter().all(|&k| inert.before[k as usize] && inert.part[k as usize])
    {
        return None;
    }
    // `on turn_start` is put off until something reads it (Gen::start), or it may refuse.
    let deferred = script.hooks.turn_start.is_some();
    if deferred && inert.start_writes.is_none() {
        return None;
    }
    let writes = if deferred { inert.start_writes.unwrap_or(u64::MAX) } else { 0 };
    let globals = Globals::of(&pos.state);
    // The kept runs' steps, charged as the generator charges a run it reuses.
    let mut charges: [Option<(u64, &Body)>; MAX_PARTS] = [None; MAX_PARTS];
    for (i, spec) in script.turn[..last].iter().enumerate() {
        // Left out exactly once when it offers nothing; a part whose kinds include moves offers
        // them whatever its `from`; a part the engine lists natively, or by the board's shape,
        // is not looked up this way; a `before` hook would run.
        let Some(body) = &spec.from else { return None };
        if spec.optional == spec.if_possible
            || i >= MAX_PARTS
            || spec.kinds.contains(&PartKind::Move)
            || inert.from_set.get(i).is_some_and(Option::is_some)
            || inert.from_shape.get(i).copied().unwrap_or(true)
            || spec.kinds.iter().any(|&k| script.hooks.before[k as usize].is_some())
        {
            return None;
        }
        let (empty, read, steps) = from_known_inline(preset, memos, i, pos.side, &globals)?;
        // The generator looks up the globals after putting the turn's `var`s back (reset_vars).
        let reset = script.globals.len() <= 64 && {
            // Only the `var`s it read can differ from what a reset leaves.
            let mut vars = script.inert.vars.iter().filter(|&&j| read >> j & 1 != 0);
            vars.all(|&j| pos.state[j as usize].same(&script.globals[j as usize].init))
        };
        if read & writes != 0 || !reset {
            return None;
        }
        if !empty {
            // One part before the last, offering something: Maidens' huffs.
            return if last == 1 { count_removals(pos, preset, memos, (steps, body)) } else { None };
        }
        charges[i] = Some((steps, body));
    }
    let n = leafcount::count(pos, preset, kinds)?;
    for (steps, body) in charges.into_iter().flatten() {
        if let Err(e) = charge_steps(steps, body) {
            return Some(Err(e));
        }
    }
    Some(Ok(n))
}

/// Removals counted at most by [`count_removals`].
const REMOVALS: usize = 16;

/// [`count_untried`] when the one part before the last, an optional `remove`, offers squares
/// (Maidens' huffs): the turns without it counted with bitboards, and after each removal the
/// last part's, as the generator would count them, when `on turn_start`'s run and each removal's
/// `validate` run are kept in the memos (a removal a hook refuses never is: its run is not kept).
/// Charged as the generator charges: the `from` (`from`: its steps and body), `on turn_start`,
/// then a partial turn and the `validate` run per removal. A generator made for these was a
/// fifth of Maidens' bulk perft, for the two counts it made. `None` when not so simple.
fn count_removals(pos: &mut Position, preset: &Preset, memos: &Memos, from: (u64, &Body)) -> Option<R<u64>> {
    let script = &preset.script;
    let hooks = &script.hooks;
    let spec = script.turn.first()?;
    let k = PartKind::Remove as usize;
    if spec.kinds != [PartKind::Remove] || !spec.optional || hooks.after[k].is_some() {
        return None;
    }
    let last = &script.turn.get(1)?.kinds[..];
    let mover = pos.side;
    // The candidates as the generator lists them (`square_parts`): the squares offered that hold
    // a piece, in board order, each once. Anything but a square: the generator says why not.
    let mut squares = [Sq::NONE; REMOVALS];
    let mut n = 0;
    {
        let g = Globals::of(&pos.state);
        let items: &[Value] = match script.inert.from_global.first().copied().flatten() {
            Some(gi) => match g.get(gi) {
                Value::List(x) | Value::Set(x) => x,
                Value::None => &[],
                one => std::slice::from_ref(one),
            },
            None => memos.from(0, mover, &g, None)?.0,
        };
        for v in items {
            let Value::Square(s) = *v else { return None };
            if cell::is_piece(pos.cells[s.idx()]) {
                *squares.get_mut(n)? = s;
                n += 1;
            }
        }
    }
    squares[..n].sort_unstable();
    // Each once, as the generator lists them.
    let mut once = 0;
    for j in 0..n {
        if once == 0 || squares[j] != squares[once - 1] {
            squares[once] = squares[j];
            once += 1;
        }
    }
    let squares = &squares[..once];
    let mut base = leafcount::count(pos, preset, last)?;
    // The turn's `var`s as the generator's start leaves them, for the runs looked up.
    let vars = &script.inert.vars;
    if n > 0 && !vars.iter().all(|&j| pos.state[j as usize].same(&script.globals[j as usize].init)) {
        return None;
    }
    let mut hint = 0;
    // `on turn_start`, put off by the generator until the first removal is tried.
    let start = match (&hooks.turn_start, n) {
        (Some(body), 1..) => {
            let checks = memo::Checks::new(pos, preset);
            let g = Globals::of(&pos.state);
            let (writes, steps) = memos.hook(body, mover, None, None, &g, &pos.cells, &checks, &mut hint)?;
            Some((writes, steps, body))
        }
        _ => None,
    };
    let mut validated = [0u64; REMOVALS];
    for (j, &sq) in squares.iter().enumerate() {
        let part = TurnPart::Remove(sq);
        let pv = part_value(preset, pos, part);
        let m = pos.mark();
        apply_raw(preset, pos, part);
        let kept = match &hooks.validate[k] {
            Some(body) => {
                let mut g = Globals::of(&pos.state);
                let written = start.is_none_or(|(w, _, _)| g.write(w));
                let at_to = Some(memo::content(pos.cells[sq.idx()]));
                let checks = memo::Checks::new(pos, preset);
                let run =
                    written.then(|| memos.hook(body, mover, Some(&pv), at_to, &g, &pos.cells, &checks, &mut hint));
                run.flatten().map(|(_, steps)| steps)
            }
            None => Some(0),
        };
        let after = kept.and_then(|_| leafcount::count(pos, preset, last));
        pos.undo_to(&m);
        validated[j] = kept?;
        base += after?;
    }
    let charged = (|| {
        charge_steps(from.0, from.1)?;
        if let Some((_, steps, body)) = start {
            charge_steps(steps, body)?;
        }
        for &steps in &validated[..squares.len()] {
            crate::budget::partial_turns(1).map_err(|spent| ScriptError::new(spec.span, spent.to_string()))?;
            if let Some(body) = &hooks.validate[k] {
                charge_steps(steps, body)?;
            }
        }
        Ok(base)
    })();
    Some(charged)
}

/// The emptied lists of a finished generator, kept for the next on this thread: a generator is made
/// for every position listed, and growing its lists again each time was a tenth of Universal's
/// perft. A generator made while another runs (a hook listing turns) starts without.
#[derive(Default)]
struct Pool {
    parts: Vec<Vec<TurnPart>>,
    moves: Vec<Vec<Move>>,
    pins: Option<Box<PinsAt>>,
}

thread_local! {
    // Made at compile time: a lazily made one is checked for having been made at every access,
    // twice per listing (a tenth of what a bulk perft's last ply spends on its generator).
    static POOL: std::cell::Cell<Pool> = const { std::cell::Cell::new(Pool { parts: Vec::new(), moves: Vec::new(), pins: None }) };
}

impl Drop for Gen<'_> {
    fn drop(&mut self) {
        let parts = std::mem::take(&mut self.spare);
        let moves = std::mem::take(&mut self.spare_moves);
        let pins = self.spare_pins.take();
        POOL.set(Pool { parts, moves, pins });
    }
}

thread_local! {
    static GENERATED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times [`legal_turns`] ran on this thread: a statistic for tests that a command
/// generates a position's turns once.
pub fn generations() -> u64 {
    GENERATED.get()
}

/// Every legal turn of the side to move.
pub fn legal_turns(pos: &mut Position, preset: &Preset) -> Result<Vec<Turn>, ScriptError> {
    GENERATED.set(GENERATED.get() + 1);
    if !preset.script.active {
        let mut moves = Vec::new();
        pos.legal_moves(preset, &mut moves);
        return Ok(moves.into_iter().map(Turn::single).collect());
    }
    let mut out = Vec::new();
    for_each_turn(pos, preset, &mut |_, t| {
        out.push(*t);
        Ok(())
    })?;
    Ok(out)
}

/// Play a turn (one of [`legal_turns`]) with every hook, collecting what the scripts say.
/// On an error or a refusal the position is as it was.
pub fn play(pos: &mut Position, preset: &Preset, turn: &Turn, said: &mut Vec<String>) -> Result<(), PlayError> {
    play_as(pos, preset, turn, said, false)
}

/// [`play`] for a turn that [`legal_turns`] listed in this very position (the search's children):
/// every hook runs as in `play`, but the parts are not looked for among their candidates again,
/// which worked out each part's `from` and the legal moves a second time at every node searched.
pub fn play_listed(pos: &mut Position, preset: &Preset, turn: &Turn, said: &mut Vec<String>) -> Result<(), PlayError> {
    play_as(pos, preset, turn, said, true)
}

fn play_as(
    pos: &mut Position,
    preset: &Preset,
    turn: &Turn,
    said: &mut Vec<String>,
    listed: bool,
) -> Result<(), PlayError> {
    if !preset.script.active {
        if let Some(m) = turn.as_move() {
            pos.make(preset, m);
        }
        return Ok(());
    }
    let mut g = Gen::new(preset, pos.side, Some(said), false);
    pos.begin_turn();
    let r = g.play(pos, turn, listed);
    match r {
        Ok(None) => Ok(()),
        Ok(Some(why)) => {
            pos.unmake();
            Err(PlayError::Rejected(why))
        }
        Err(e) => {
            pos.unmake();
            Err(PlayError::Script(e))
        }
    }
}

/// Play a turn with every hook and take it back: why a rule refuses it, if one does.
pub fn trial(pos: &mut Position, preset: &Preset, turn: &Turn) -> Result<Option<String>, ScriptError> {
    let mut g = Gen::new(preset, pos.side, None, false);
    pos.begin_turn();
    let r = g.play(pos, turn, false);
    pos.unmake();
    r
}

#[derive(Debug)]
pub enum PlayError {
    Rejected(String),
    Script(ScriptError),
}

impl<'a> Gen<'a> {
    /// A generator for `mover`'s turn; `said` collects the scripts' messages, `leaf` only counts.
    fn new(preset: &'a Preset, mover: Side, said: Option<&'a mut Vec<String>>, leaf: bool) -> Self {
        let pool = POOL.take();
        Gen {
            preset,
            mover,
            said,
            safe_at: None,
            leaf,
            counted: 0,
            tried: 0,
            spare: pool.parts,
            spare_moves: pool.moves,
            base: 0,
            from_cache: Default::default(),
            memos: Memos::default(),
            deferred: false,
            pins_at: None,
            spare_pins: pool.pins,
            hints: [0; HINTS],
        }
    }

    /// Put the turn's scratch variables (`var`) back to their initial values, so that a position
    /// between turns is all board, hands and `state`.
    fn reset_vars(&self, pos: &mut Position) {
        for (i, g) in self.preset.script.globals.iter().enumerate() {
            if !g.state {
                pos.reset_state(i, &g.init);
            }
        }
    }

    /// Reset the turn's scratch variables and run `on turn_start`; false if it rejected.
    fn start(&mut self, pos: &mut Position) -> Result<bool, ScriptError> {
        self.base = pos.cell_changes();
        self.reset_vars(pos);
        let Some(body) = &self.preset.script.hooks.turn_start else { return Ok(true) };
        if self.leaf && self.preset.script.inert.start_writes.is_some() {
            self.deferred = true;
            return Ok(true);
        }
        Ok(self.hook(pos, body, None)?.is_none())
    }

    /// Run the deferred `on turn_start` now, if it is (see [`Gen::deferred`]); quiet, it refuses
    /// nothing.
    fn undefer(&mut self, pos: &mut Position) -> R<()> {
        if !self.deferred {
            return Ok(());
        }
        self.deferred = false;
        if let Some(body) = &self.preset.script.hooks.turn_start {
            self.hook(pos, body, None)?;
        }
        Ok(())
    }

    fn hook(&mut self, pos: &mut Position, body: &'a Body, part: Option<PartVal>) -> R<Option<String>> {
        self.undefer(pos)?;
        let call = Call { body, part, mover: self.mover, mutate: true };
        if self.said.is_some() {
            return hooks::run(self.preset, pos, call, self.said.as_deref_mut());
        }
        // A trial (nothing is said): a run like one made before has its effect again without running.
        let preset = self.preset;
        let at_to = part.map(|p| memo::content(pos.cells[p.to.idx()]));
        let checks = memo::Checks::new(pos, preset);
        let hint = &mut self.hints[(body as *const Body as usize >> 4) % HINTS];
        if let Some((writes, steps)) =
            self.memos.hook(body, self.mover, part.as_ref(), at_to, &Globals::of(&pos.state), &pos.cells, &checks, hint)
        {
            for (i, v) in writes.items() {
                // Most often it holds that value already: not copied (nor dropped) then.
                pos.set_state_from(*i as usize, v);
            }
            charge_steps(steps, body)?;
            return Ok(None);
        }
        self.run_hook(pos, call, part, at_to)
    }

    /// Run a hook no kept run stands for: recorded (and kept if it can be) while its runs are
    /// worth recording.
    fn run_hook(
        &mut self,
        pos: &mut Position,
        call: Call<'a>,
        part: Option<PartVal>,
        at_to: Option<u8>,
    ) -> R<Option<String>> {
        let (preset, body) = (self.preset, call.body);
        if !self.memos.worth(body) {
            return hooks::run(preset, pos, call, None);
        }
        let out = hooks::run_tracked(preset, pos, call, self.memos.reads())?;
        if out.is_none() {
            self.memos.keep_hook(body, self.mover, part, at_to, &pos.state, &memo::Checks::new(pos, preset));
        }
        Ok(out)
    }

    fn kind_at(&self, i: usize) -> (&'a [PartKind], bool, bool) {
        let t: &'a [PartSpec] = &self.preset.script.turn;
        match t.get(i) {
            Some(s) => (&s.kinds, s.optional, s.if_possible),
            None => (JUST_MOVE, false, false),
        }
    }

    /// Run the `before` hooks of the kinds of part `i`; `Some(reason)` if one refused.
    fn before(&mut self, pos: &mut Position, kinds: &[PartKind]) -> Result<Option<String>, ScriptError> {
        for &k in kinds {
            if let Some(body) = &self.preset.script.hooks.before[k as usize]
                && let Some(why) = self.hook(pos, body, None)?
            {
                return Ok(Some(why));
            }
        }
        Ok(None)
    }

    fn part_count(&self) -> usize {
        self.preset.script.turn.len().max(1)
    }

    fn parts(
        &mut self,
        pos: &mut Position,
        i: usize,
        turn: &mut Turn,
        visit: &mut VisitIn<'a, '_>,
    ) -> Result<(), ScriptError> {
        if i == self.part_count() {
            return self.finish(pos, turn, visit, true);
        }
        if self.hopeless(pos, i) {
            return Ok(());
        }
        let (kinds, optional, if_possible) = self.kind_at(i);
        if optional {
            self.parts(pos, i + 1, turn, visit)?;
        }
        // Back on this board, what was known about its safety holds again (see `known_safe`).
        let entry = self.safe_at;
        let deferred = self.deferred;
        let before = pos.mark();
        let r = self.candidates_of(pos, i, kinds, turn, visit);
        pos.undo_to(&before);
        self.safe_at = entry;
        self.deferred = deferred;
        if r? || !if_possible {
            return Ok(());
        }
        self.parts(pos, i + 1, turn, visit)
    }

    fn candidates_of(
        &mut self,
        pos: &mut Position,
        i: usize,
        kinds: &[PartKind],
        turn: &mut Turn,
        visit: &mut VisitIn<'a, '_>,
    ) -> Result<bool, ScriptError> {
        if self.leaf
            && let Some(n) = self.bulk(pos, i, kinds)?
        {
            self.counted += n;
            return Ok(true);
        }
        if self.leaf
            && let Some((n, had)) = self.count_set(pos, i, kinds)?
        {
            self.counted += n;
            return Ok(had);
        }
        // In `leaf` mode the quiet moves may be counted, the other candidates listed with their
        // legal ones (see `Gen::split_quiet`).
        let split = if self.leaf { self.split_quiet(pos, i, kinds)? } else { None };
        let entry = self.safe_at;
        // Generated before `on before` runs, so that a hook asking for the legal moves gets them
        // from the cache instead of generating them again.
        let (cands, split_legal) = match split {
            Some((cands, legal)) => (cands, Some(legal)),
            None => (self.candidates(pos, i, kinds)?, None),
        };
        // Moves offered while a later part may still shield the royal piece are not all legal:
        // those that are keep what is known of the royal piece's safety.
        let shielded = kinds.contains(&PartKind::Move) && self.later_may_shield(i);
        // A copy (the cache is the next node's once a candidate is played), in a reused buffer.
        let mut legal_moves = self.spare_moves.pop().unwrap_or_default();
        legal_moves.clear();
        if shielded {
            match &split_legal {
                Some(legal) => legal_moves.extend_from_slice(legal),
                None => legal_moves.extend_from_slice(pos.cached_legal_moves(self.preset)),
            }
        }
        if let Some(legal) = split_legal {
            self.spare_moves.push(legal);
        }
        let fresh = pos.cell_changes();
        if !self.before_unread(i, kinds) && self.before(pos, kinds)?.is_some() {
            return Ok(!cands.is_empty());
        }
        let had = !cands.is_empty();
        let may_be_alone = self.leaf && self.later_may_vanish(i);
        if !had && !may_be_alone {
            // Nothing to try (an optional part with nothing to offer, most often): none of what
            // judges the candidates below needs working out.
            self.give_parts(cands);
            self.spare_moves.push(legal_moves);
            return Ok(false);
        }
        let unchanged = pos.cell_changes() == fresh;
        // As many legal moves as candidate moves: all are legal (the legal ones are among them).
        // Otherwise the legal moves are mostly the candidates' subsequence, in their order: asked
        // in that order, each is found where the walk through them stands (searched for if not).
        let all_legal =
            shielded && legal_moves.len() == cands.iter().filter(|c| matches!(c, TurnPart::Move(_))).count();
        let walk = std::cell::Cell::new(0);
        let listed = |m: &Move| {
            if all_legal {
                return true;
            }
            let at = walk.get();
            if legal_moves.get(at) == Some(m) {
                walk.set(at + 1);
                return true;
            }
            legal_moves.contains(m)
        };
        let legal_of = |c: &TurnPart| unchanged && !(shielded && matches!(c, TurnPart::Move(m) if !listed(m)));
        let preset = self.preset;
        let drops_safe = preset.royal_safety
            && cands.iter().any(|c| matches!(c, TurnPart::Drop(..)))
            && pos.adding_keeps_safe(preset, self.mover)
            && (self.known_safe(pos) || !pos.in_check(preset, self.mover));
        let mut cands = cands;
        // On a board known to be safe, emptying a square that no enemy rider looks through keeps
        // it safe: the pins are looked for once here, not the check after every removal. Only
        // when a removal is to be judged (Ruddigore's curse offers none on odd moves).
        let safe_removals = cands.iter().any(|c| matches!(c, TurnPart::Remove(_))) && self.known_safe(pos);
        let blockers = if safe_removals { self.sole_blockers(pos) } else { None };
        // Likewise building a square keeps a safe board safe unless it opens a rider's line.
        let safe_builds = cands.iter().any(|c| matches!(c, TurnPart::Construct(_))) && self.known_safe(pos);
        let openers = if safe_builds { pos.hole_openers(self.preset, self.mover) } else { None };
        if self.leaf && i + 1 == self.part_count() && !cands.is_empty() {
            let before = cands.len();
            let judge = Countable::new(self, pos, blockers.as_ref(), openers.as_ref());
            cands.retain(|&c| !judge.sure(pos, c, &legal_of));
            self.counted += (before - cands.len()) as u64;
        }
        let keeps_safe = |pos: &Position, c: &TurnPart| match *c {
            TurnPart::Move(_) => legal_of(c),
            TurnPart::Remove(sq) => removal_keeps_safe(pos, blockers.as_ref(), sq),
            TurnPart::Construct(sq) => openers.as_ref().is_some_and(|o| !o.contains(sq)),
            _ => false,
        };
        if may_be_alone || !cands.is_empty() {
            // The memos looked up and the hooks run from here on see the globals as the turn's
            // start left them.
            if let Err(e) = self.undefer(pos) {
                self.give_parts(cands);
                return Err(e);
            }
        }
        // The globals that the later parts' `from` read, when all are known to be empty now.
        let tail = if may_be_alone { self.empty_tail(pos, i) } else { None };
        // A later part listed natively ([`FromSet`]) keeps no run in the memos: [`Gen::alone`]
        // could never settle a candidate, and would look (Ruddigore's curse after every move).
        let try_alone = may_be_alone && (i + 1..self.part_count()).all(|j| self.set_of(j).is_none());
        // Once a quiet move is found to be a turn by itself for a reason that holds for every
        // quiet move (its hooks' runs read none of their squares or pieces), the others are too.
        let mut quiet_alone = None;
        // Candidates settled without being played (`alone`), charged to the command's budget with
        // the next one played or at the end: nothing can fail in between.
        let (mut owed, mut owed_steps) = (0, 0);
        // The sole blockers on this board, for the later parts' removals to reuse after each
        // candidate that leaves their lines alone (put back when the candidates are done).
        let outer_pins = if self.leaf && cands.len() > 1 && self.later_removes(i) {
            let here = self.pins_here(pos);
            Some(std::mem::replace(&mut self.pins_at, here))
        } else {
            None
        };
        for &c in &cands {
            self.tried += 1;
            let safe = keeps_safe(pos, &c);
            if try_alone
                && self.tried <= MAX_PARTIAL_TURNS
                && let Some((legal, steps)) =
                    self.alone(pos, i, c, tail, &mut quiet_alone, safe, shielded && unchanged && !safe)
            {
                self.counted += legal as u64;
                owed += 1;
                owed_steps += steps;
                continue;
            }
            let spent = crate::budget::partial_turns(owed + 1);
            owed = 0;
            if self.tried > MAX_PARTIAL_TURNS || spent.is_err() {
                self.give_parts(cands);
                return Err(self.too_many_tries(i, spent.err()));
            }
            if owed_steps > 0
                && let Err(spent) = crate::budget::steps(std::mem::take(&mut owed_steps))
            {
                self.give_parts(cands);
                return Err(self.too_many_tries(i, Some(spent)));
            }
            let m = pos.mark();
            if self.step(pos, c, safe, drops_safe)?.is_none() {
                turn.push(c);
                // The last part: its turn's end is undone with the part just below.
                let r = if i + 1 == self.part_count() {
                    self.finish(pos, turn, visit, false)
                } else {
                    self.parts(pos, i + 1, turn, visit)
                };
                turn.pop();
                r?;
            }
            pos.undo_to(&m);
            self.safe_at = entry;
        }
        if let Some(outer) = outer_pins {
            // This board's, kept for the next listing's to fill.
            if let Some(here) = std::mem::replace(&mut self.pins_at, outer) {
                self.spare_pins = Some(here);
            }
        }
        self.give_parts(cands);
        self.spare_moves.push(legal_moves);
        if owed > 0
            && let Err(spent) = crate::budget::partial_turns(owed)
        {
            return Err(self.too_many_tries(i, Some(spent)));
        }
        if owed_steps > 0
            && let Err(spent) = crate::budget::steps(owed_steps)
        {
            return Err(self.too_many_tries(i, Some(spent)));
        }
        Ok(had)
    }

    /// In `leaf` mode, part `i` (moves and drops) counted with bitboards (see [`leafcount`]) when
    /// each legal candidate is sure to be one turn: the last part, whose `before` hooks may be left
    /// unrun ([`Gen::before_unread`]); or a part without hooks after which every later part is
    /// known to offer nothing ([`Gen::later_may_vanish`], [`Gen::empty_tail`]). Not for an `if
    /// possible` part (whether it had candidates, legal or not, decides what follows) nor one with
    /// a `from`. Charged to the budget as [`Gen::alone`]'s turns are.
    fn bulk(&mut self, pos: &mut Position, i: usize, kinds: &[PartKind]) -> R<Option<u64>> {
        let preset = self.preset;
        if preset.script.turn.get(i).is_some_and(|s| s.from.is_some() || s.if_possible)
            || !leafcount::fits(preset, kinds)
        {
            return Ok(None);
        }
        if i + 1 == self.part_count() {
            return Ok(if self.before_unread(i, kinds) { leafcount::count(pos, preset, kinds) } else { None });
        }
        if !self.later_may_vanish(i) || !leafcount::hookless(preset, kinds) {
            return Ok(None);
        }
        self.undefer(pos)?;
        let Some((_, steps)) = self.empty_tail(pos, i) else { return Ok(None) };
        let Some(n) = leafcount::count(pos, preset, kinds) else { return Ok(None) };
        self.tried += n;
        let spent = crate::budget::partial_turns(n).and_then(|()| crate::budget::steps(n.saturating_mul(steps)));
        if let Err(spent) = spent {
            return Err(self.too_many_tries(i, Some(spent)));
        }
        Ok(Some(n))
    }

    /// In `leaf` mode, a move part after which every later part may offer nothing, its quiet
    /// moves counted with bitboards ([`Position::split_moves`]) when one of them, judged by
    /// [`Gen::alone`] from the memos, is a turn by itself for reasons that hold for every quiet
    /// move: each legal one is then one turn, and an illegal one none (no later part follows to
    /// shield the royal piece). The other candidates (captures, promotions, castlings: the
    /// pseudo-legal ones when a later part might shield, else the legal ones) and the legal ones
    /// among them are given back for the caller to try one by one. Charged to the budget as
    /// [`Gen::bulk`]'s turns are. `None` when that is not so simple.
    #[allow(clippy::type_complexity)]
    fn split_quiet(
        &mut self,
        pos: &mut Position,
        i: usize,
        kinds: &[PartKind],
    ) -> R<Option<(Vec<TurnPart>, Vec<Move>)>> {
        let preset = self.preset;
        if kinds != [PartKind::Move]
            || preset.script.turn.get(i).is_none_or(|s| s.from.is_some() || s.if_possible)
            || preset.script.hooks.before[PartKind::Move as usize].is_some()
            || !self.later_may_vanish(i)
            || !self.legal_is_safe()
        {
            return Ok(None);
        }
        let mut moves = self.spare_moves.pop().unwrap_or_default();
        let mut legal = self.spare_moves.pop().unwrap_or_default();
        moves.clear();
        legal.clear();
        let Some((n, sample)) = pos.split_moves(preset, &mut moves, &mut legal) else {
            self.spare_moves.push(moves);
            self.spare_moves.push(legal);
            return Ok(None);
        };
        self.undefer(pos)?;
        let mut steps = 0;
        if let Some(m) = sample {
            let tail = self.empty_tail(pos, i);
            let mut quiet_alone = None;
            let settled = self.alone(pos, i, TurnPart::Move(m), tail, &mut quiet_alone, false, true);
            match quiet_alone {
                Some(s) if settled.is_some() => steps = s,
                _ => {
                    self.spare_moves.push(moves);
                    self.spare_moves.push(legal);
                    return Ok(None);
                }
            }
        }
        self.tried += n;
        let spent = crate::budget::partial_turns(n).and_then(|()| crate::budget::steps(n.saturating_mul(steps)));
        if let Err(spent) = spent {
            return Err(self.too_many_tries(i, Some(spent)));
        }
        self.counted += n;
        let mut cands = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(64));
        let offered = if self.later_may_shield(i) { &moves } else { &legal };
        cands.extend(offered.iter().map(|&m| TurnPart::Move(m)));
        self.spare_moves.push(moves);
        Ok(Some((cands, legal)))
    }

    /// Whether a part after part `i` offers removals (whose safety the sole blockers tell).
    fn later_removes(&self, i: usize) -> bool {
        self.preset.royal_safety
            && self.preset.script.turn.iter().skip(i + 1).any(|s| s.kinds.contains(&PartKind::Remove))
    }

    /// The sole blockers of the mover's royal piece on this board, line by line (see [`PinsAt`]);
    /// `None` when they are not found line by line or there are too many lines or cells.
    fn pins_here(&mut self, pos: &Position) -> Option<Box<PinsAt>> {
        let (preset, us) = (self.preset, self.mover);
        let rides = &preset.movement.attacks[us.other()].rides;
        if !Position::blockers_by_line(preset, us) || rides.len() > PIN_LINES || pos.cells.len() > PIN_CELLS {
            return None;
        }
        let royal = pos.royal_square(us)?;
        let mut p = match self.spare_pins.take() {
            Some(mut spare) => {
                spare.cells.fill(0);
                spare
            }
            None => Box::new(PinsAt {
                at: 0,
                royal,
                pins: None,
                on_line: [None; PIN_LINES],
                lines: 0,
                cells: [0; PIN_CELLS],
            }),
        };
        p.at = pos.cell_changes();
        p.royal = royal;
        p.pins = None;
        p.on_line = [None; PIN_LINES];
        p.lines = rides.len();
        p.cells[royal.idx()] = u32::MAX;
        for (j, r) in rides.iter().enumerate() {
            p.on_line[j] = pos.sole_blocker_on(preset, us, j);
            // As far as the walk for the line's blocker may look: to the second cell that is
            // not empty, or the first that holds no piece (the board's edge, a hole).
            let mut s = royal.idx() as i32;
            let mut met = 0;
            while met < 2 {
                s -= i32::from(r.delta);
                let Some(&c) = pos.cells.get(s as usize) else { break };
                p.cells[s as usize] |= 1 << j;
                if c != cell::EMPTY {
                    met += if cell::is_piece(c) { 1 } else { 2 };
                }
            }
        }
        p.pins = Pins::of(p.on_line[..p.lines].iter().flatten().copied());
        Some(p)
    }

    /// [`Position::sole_blockers`] for the mover: those of [`Gen::pins_at`], the lines through a
    /// cell set since looked at again.
    fn sole_blockers(&self, pos: &Position) -> Option<Pins> {
        let (preset, us) = (self.preset, self.mover);
        if let Some(p) = &self.pins_at
            && pos.cell_changes() >= p.at
            && pos.royal_square(us) == Some(p.royal)
        {
            let crossed =
                pos.cells_changed_since(p.at).fold(0, |m, s| m | p.cells.get(s.idx()).copied().unwrap_or(u32::MAX));
            if crossed == 0 {
                return p.pins;
            }
            if crossed != u32::MAX {
                let line =
                    |j: usize| if crossed >> j & 1 != 0 { pos.sole_blocker_on(preset, us, j) } else { p.on_line[j] };
                return Pins::of((0..p.lines).filter_map(line));
            }
        }
        pos.sole_blockers(preset, us)
    }

    /// Part `i`'s `from` when the engine lists it natively (see [`FromSet`]).
    fn set_of(&self, i: usize) -> Option<&'a FromSet> {
        self.preset.script.inert.from_set.get(i).and_then(Option::as_ref)
    }

    /// Whether a [`FromSet`] offers nothing here: one of its conditions holds (they run as
    /// the function's statements would, after the deferred `on turn_start`).
    /// Kept in the memos (see [`Memos::guard`]) when it reads only what [`FromSet::turn_fields`]
    /// says, and charged as if it ran whenever it is reused.
    fn set_empty(&mut self, pos: &mut Position, i: usize, set: &'a FromSet) -> R<bool> {
        let Some(body) = &set.empty_when else { return Ok(false) };
        let parts = pos.current_parts();
        let keyed = match set.turn_fields.and_then(super::memo::packed_mask) {
            Some(mask) if parts.len() <= MAX_PARTS => {
                let mut key = [0u128; MAX_PARTS];
                for (k, p) in key.iter_mut().zip(parts) {
                    *k = super::memo::packed(p) & mask;
                }
                Some((parts.len(), key))
            }
            _ => None,
        };
        let at = (i, self.mover, pos.fullmove);
        if let Some((n, key)) = keyed
            && let Some((empty, steps)) = self.memos.guard(body, at, n, &key)
        {
            charge_steps(steps, body)?;
            return Ok(empty);
        }
        self.undefer(pos)?;
        let Some((n, key)) = keyed else {
            return Ok(hooks::value(self.preset, pos, body, self.mover)?.truthy());
        };
        let empty = hooks::value_tracked(self.preset, pos, body, self.mover, self.memos.reads())?.truthy();
        let steps = self.memos.reads().steps;
        self.memos.keep_guard(body, at, n, key, empty, steps);
        Ok(empty)
    }

    /// The candidates of a part whose `from` is a [`FromSet`], in the order the general path
    /// lists them: for each kind of the part, the removals in board order, then the discards, a
    /// kind each in increasing order.
    fn list_set(&self, pos: &Position, set: &FromSet, kinds: &[PartKind], out: &mut Vec<TurnPart>) {
        let us = self.mover;
        for &kind in kinds {
            match kind {
                PartKind::Remove if set.kinds != 0 => out.extend(
                    pos.occupied_by(us)
                        .filter(|s| set.kinds.wrapping_shr(cell::kind(pos.cells[s.idx()]) as u32) & 1 != 0)
                        .map(TurnPart::Remove),
                ),
                PartKind::Discard if set.hand => {
                    let mut held = leafcount::hand_kinds(pos, us);
                    while held != 0 {
                        let k = held.trailing_zeros() as usize;
                        held &= held - 1;
                        out.push(TurnPart::Discard(cell::piece(k, us)));
                    }
                }
                _ => {}
            }
        }
    }

    /// In `leaf` mode, the last part counted without being listed when its `from` is a
    /// [`FromSet`] and its hooks and the turn's end hooks are quiet: `(turns, whether it offered
    /// any candidate)`. A discard changes no square, so it is legal when the board is safe now; a
    /// removal opens lines only, so on a safe board it is legal unless its piece alone blocks an
    /// enemy rider (then it is tried), and on an attacked board, with no enemy attack over a
    /// screen, none is. `None` when that is not so simple (the general path then tries each).
    fn count_set(&mut self, pos: &mut Position, i: usize, kinds: &[PartKind]) -> R<Option<(u64, bool)>> {
        let preset = self.preset;
        let Some(set) = self.set_of(i) else { return Ok(None) };
        if i + 1 != self.part_count() || preset.no_checks || !self.before_unread(i, kinds) {
            return Ok(None);
        }
        if self.set_empty(pos, i, set)? {
            return Ok(Some((0, false)));
        }
        let us = self.mover;
        let held = if set.hand && kinds.contains(&PartKind::Discard) {
            leafcount::hand_kinds(pos, us).count_ones() as u64
        } else {
            0
        };
        let mut removals = 0u64;
        if kinds.contains(&PartKind::Remove) {
            let mut bits = set.kinds;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if k >= self.preset.kinds.len() {
                    continue;
                }
                let code = cell::piece(k, us);
                let n = pos.counts[code as usize];
                if n != 0 && pos.is_royal_code(code) {
                    // Without its royal piece the mover may be safe whatever else holds.
                    return Ok(None);
                }
                removals += u64::from(n);
            }
        }
        if held + removals == 0 {
            return Ok(Some((0, false)));
        }
        if !preset.royal_safety {
            return Ok(Some((held + removals, true)));
        }
        if !self.known_safe(pos) && pos.in_check(preset, us) {
            return Ok(pos.adding_keeps_safe(preset, us).then_some((0, true)));
        }
        if removals == 0 {
            return Ok(Some((held, true)));
        }
        // Emptying a square keeps the safe board safe unless its piece alone blocks an enemy
        // rider: those of the set are tried.
        let Some(blockers) = self.sole_blockers(pos) else { return Ok(None) };
        let mut n = held + removals;
        let pinned = blockers.squares();
        for (j, &s) in pinned.iter().enumerate() {
            let c = pos.cells[s.idx()];
            // A square blocking two lines (two riders along one) is tried once.
            if !cell::is_side(c, us)
                || set.kinds.wrapping_shr(cell::kind(c) as u32) & 1 == 0
                || pinned[..j].contains(&s)
            {
                continue;
            }
            let m = pos.mark();
            apply_raw(preset, pos, TurnPart::Remove(s));
            n -= u64::from(pos.in_check(preset, us));
            pos.undo_to(&m);
        }
        Ok(Some((n, true)))
    }

    /// In `leaf` mode, whether the parts after part `i` may offer nothing: each may be left out
    /// (`optional` or `if possible`) and takes its candidates from its `from` alone (no move among
    /// its kinds), and the turn's end hooks are quiet. A candidate of part `i` after which every
    /// later `from` is known to be empty is then one turn by itself (see [`Gen::alone`]).
    fn later_may_vanish(&self, i: usize) -> bool {
        let script = &self.preset.script;
        script.inert.end
            && !self.preset.no_checks
            && i + 1 < script.turn.len()
            && script.turn[i + 1..]
                .iter()
                .all(|p| (p.optional || p.if_possible) && p.from.is_some() && !p.kinds.contains(&PartKind::Move))
    }

    /// Whether candidate `c` of part `i` makes a turn, when that is known without playing it: a
    /// move whose hooks' runs are in the memos, after which each later part's `from`, also in
    /// the memos, is empty, is a turn by itself: legal when `safe` (known to keep the royal piece
    /// safe), not when `unlisted` (left out of the legal moves of this very board, which leave
    /// out nothing else when [`Gen::legal_is_safe`]). Only when [`Gen::later_may_vanish`].
    /// `tail`: the globals the later parts' `from` read (a bit each), when they are known to be
    /// empty before this part: after a candidate whose hooks write none of those, still empty.
    /// `quiet_alone`: a quiet move (see [`quiet`]) was found to be a turn by itself for reasons
    /// that hold for every quiet move of this position; set here when that is found.
    #[allow(clippy::too_many_arguments)]
    fn alone(
        &mut self,
        pos: &Position,
        i: usize,
        c: TurnPart,
        tail: Option<(u64, u64)>,
        quiet_alone: &mut Option<u64>,
        safe: bool,
        unlisted: bool,
    ) -> Option<(bool, u64)> {
        let preset = self.preset;
        let TurnPart::Move(m) = c else { return None };
        if preset.royal_safety && !safe && !(unlisted && self.legal_is_safe()) {
            return None;
        }
        let is_quiet = quiet(pos, m);
        if let Some(steps) = *quiet_alone
            && is_quiet
        {
            return Some((!preset.royal_safety || safe, steps));
        }
        let pv = part_value(preset, pos, c);
        let hooks = &preset.script.hooks;
        let k = pv.kind as usize;
        let capture = if pv.captured != 0 { hooks.capture.as_ref() } else { None };
        // The board before the move stands for the one after it on the squares the move leaves
        // alone, unless the move does more than its squares say (an explosion).
        let cells = preset.explode.is_none().then_some(&pos.cells[..]);
        // What will stand on the move's `to`: the piece moved or the one it promotes to (not
        // looked at for a castling or a drop among the moves).
        use crate::engine::position::mflag;
        let at_to = (m.flags & (mflag::CASTLE | mflag::DROP) == 0)
            .then(|| memo::content(if m.promo != 0 { m.promo } else { pos.cells[m.from.idx()] }));
        let bodies = [hooks.validate[k].as_ref(), capture, hooks.after[k].as_ref()];
        let mut ran = if bodies.iter().all(Option::is_none) {
            memo::PartHooks::none(&pos.state)
        } else {
            self.memos.part_hooks(&bodies, self.mover, &pv, at_to, &pos.state, cells)?
        };
        let keep = ran.keep.take();
        let (g, written) = (&ran.globals, ran.written);
        let uniform = is_quiet && ran.uniform;
        // The steps the runs reused took, charged as if they had run (see `Reads::steps`).
        let mut steps = ran.steps;
        let empty = match tail {
            Some((reads, n)) if reads & written == 0 => {
                steps += n;
                true
            }
            _ => (i + 1..self.part_count()).all(|j| match from_known(self.preset, &self.memos, j, self.mover, g) {
                Some((true, _, n)) => {
                    steps += n;
                    true
                }
                _ => false,
            }),
        };
        if let Some(keep) = keep {
            self.memos.keep_part(keep);
        }
        if !empty {
            return None;
        }
        if uniform {
            *quiet_alone = Some(steps);
        }
        Some((!preset.royal_safety || safe, steps))
    }

    /// When every `from` after part `i` is known (from the memos) to be empty with the globals as
    /// they are, the globals they read, a bit each.
    /// With the steps those runs took.
    fn empty_tail(&self, pos: &Position, i: usize) -> Option<(u64, u64)> {
        let g = Globals::of(&pos.state);
        (i + 1..self.part_count()).try_fold((0, 0), |(reads, steps), j| {
            match from_known(self.preset, &self.memos, j, self.mover, &g) {
                Some((true, mask, n)) => Some((reads | mask, steps + n)),
                _ => None,
            }
        })
    }

    /// Whether a move left out of the legal moves is one that leaves the mover's royal piece
    /// attacked, nothing else: no rule besides royal safety filters them.
    fn legal_is_safe(&self) -> bool {
        let p = self.preset;
        p.explode.is_none()
            && !p.facing_break
            && p.frozen_in_check == 0
            && !p.no_checks
            && !p.must_capture
            && !p.must_drop
    }

    /// Apply one part and run its hooks; `Some(reason)` if a hook refused it (the caller undoes).
    /// `safe`: for a move, the candidates were generated as legal on the board as it is (no hook
    /// has changed it since); for a removal, emptying its square cannot expose the royal piece.
    /// `drops_safe`: the mover's royal piece is safe now and putting a piece down cannot expose it.
    fn step(&mut self, pos: &mut Position, c: TurnPart, safe: bool, drops_safe: bool) -> R<Option<String>> {
        let preset = self.preset;
        let pv = part_value(preset, pos, c);
        let was_safe = self.known_safe(pos);
        apply_raw(preset, pos, c);
        let keeps_safe = match c {
            TurnPart::Move(_) | TurnPart::Remove(_) | TurnPart::Construct(_) => safe,
            TurnPart::Drop(code, _) => drops_safe && !pos.is_royal_code(code),
            TurnPart::Discard(_) => was_safe,
            _ => false,
        };
        self.safe_at = keeps_safe.then(|| pos.cell_changes());
        pos.log_part(pv);
        let hooks = &preset.script.hooks;
        let k = pv.kind as usize;
        if let Some(body) = &hooks.validate[k]
            && let Some(why) = self.hook(pos, body, Some(pv))?
        {
            return Ok(Some(why));
        }
        if pv.captured != 0
            && let Some(body) = &hooks.capture
            && let Some(why) = self.hook(pos, body, Some(pv))?
        {
            return Ok(Some(why));
        }
        if let Some(body) = &hooks.after[k]
            && let Some(why) = self.hook(pos, body, Some(pv))?
        {
            return Ok(Some(why));
        }
        Ok(None)
    }

    /// The end of a turn: royal safety, `on turn_end`, `on every`, then the other side moves.
    /// `Some(reason)` if the turn may not end this way.
    fn end(&mut self, pos: &mut Position) -> Result<Option<String>, ScriptError> {
        let preset = self.preset;
        if preset.royal_safety && !self.known_safe(pos) && pos.in_check(preset, self.mover) {
            return Ok(Some(ROYAL_UNSAFE.into()));
        }
        // The board as it was judged safe: looked at again only if a hook below changes a square.
        let judged = pos.cell_changes();
        let hooks = &preset.script.hooks;
        if let Some(body) = &hooks.turn_end
            && let Some(why) = self.hook(pos, body, None)?
        {
            return Ok(Some(why));
        }
        let n = pos.turn_number();
        for (period, offset, body) in &hooks.every {
            if n % period == *offset
                && let Some(why) = self.hook(pos, body, None)?
            {
                return Ok(Some(why));
            }
        }
        if preset.royal_safety
            && pos.cell_changes() != judged
            && !self.known_safe(pos)
            && pos.in_check(preset, self.mover)
        {
            return Ok(Some(ROYAL_UNSAFE.into()));
        }
        if preset.no_checks && pos.in_check(preset, self.mover.other()) {
            return Ok(Some(GIVES_CHECK.into()));
        }
        self.reset_vars(pos);
        pos.end_turn(preset);
        Ok(None)
    }

    /// Whether no way of ending the turn from part `i` on can be legal: the mover's royal piece is
    /// attacked, and what is left can only add squares or take pieces out of a hand (`construct`,
    /// `discard`: a new square only opens lines, and holes stop every line) with hooks that cannot
    /// change the board. Trying every sequence of what is left would find nothing.
    fn hopeless(&self, pos: &Position, i: usize) -> bool {
        let preset = self.preset;
        let inert = &preset.script.inert;
        // Without a turn structure the one part is a move (`turn` is empty, and so is all of it).
        preset.royal_safety
            && inert.end
            && i < preset.script.turn.len()
            && preset.script.turn[i..].iter().all(|s| {
                s.kinds.iter().all(|&k| {
                    matches!(k, PartKind::Construct | PartKind::Discard)
                        && inert.part[k as usize]
                        && inert.before[k as usize]
                })
            })
            && !self.known_safe(pos)
            && pos.in_check(preset, self.mover)
    }

    #[cold]
    #[inline(never)]
    fn too_many_tries(&self, i: usize, spent: Option<crate::budget::Spent>) -> ScriptError {
        let span = self.preset.script.turn.get(i).map_or_else(Default::default, |s| s.span);
        if let Some(spent) = spent {
            return ScriptError::new(span, spent.to_string());
        }
        ScriptError::new(
            span,
            format!(
                "listing the turns tried more than {MAX_PARTIAL_TURNS} partial turns: the candidates of \
                 the parts multiply (limit them with `from`, or refuse a hopeless turn earlier)"
            ),
        )
    }

    /// In `leaf` mode, whether the `before` hooks of the last part may be left unrun: they can
    /// neither refuse nor change the board, and what they set could only be read by hooks that
    /// counting skips (every candidate of the part is then counted or tried without them).
    fn before_unread(&self, i: usize, kinds: &[PartKind]) -> bool {
        let inert = &self.preset.script.inert;
        self.leaf
            && i + 1 == self.part_count()
            && inert.end
            && kinds.iter().all(|&k| inert.before[k as usize] && inert.part[k as usize])
    }

    /// Whether the board is still as a legal move part left it (so no royal piece of the mover is
    /// attacked). Sound because change counts only grow along a turn: a remembered count that is
    /// not this board's is below every count reached after it, until an undo returns to its board.
    fn known_safe(&self, pos: &Position) -> bool {
        self.safe_at == Some(pos.cell_changes())
    }

    /// The turn is complete: count it, or end it and visit the position after it. `restore`: put
    /// the board back as it was before the turn's end; not needed when the caller undoes the last
    /// part right after (a candidate's loop), which undoes the end too.
    fn finish(
        &mut self,
        pos: &mut Position,
        turn: &Turn,
        visit: &mut VisitIn<'a, '_>,
        restore: bool,
    ) -> Result<(), ScriptError> {
        if turn.is_empty() {
            return Ok(());
        }
        if self.leaf && self.preset.script.inert.end {
            // The end hooks could neither refuse the turn nor change the board: only safety counts.
            let preset = self.preset;
            let unsafe_ = preset.royal_safety && !self.known_safe(pos) && pos.in_check(preset, self.mover);
            let checks = preset.no_checks && pos.in_check(preset, self.mover.other());
            if !unsafe_ && !checks {
                self.counted += 1;
            }
            return Ok(());
        }
        let deferred = self.deferred;
        let m = restore.then(|| pos.mark());
        let r = self
            .undefer(pos)
            .and_then(|()| if self.end(pos)?.is_none() { self.visit(pos, turn, visit) } else { Ok(()) });
        if let Some(m) = m {
            pos.undo_to(&m);
        }
        self.deferred = deferred;
        r
    }

    /// Visit a finished turn, lending it the memos.
    fn visit(&mut self, pos: &mut Position, turn: &Turn, visit: &mut VisitIn<'a, '_>) -> Result<(), ScriptError> {
        let mut memos = std::mem::take(&mut self.memos);
        let r = visit(pos, turn, &mut memos);
        self.memos = memos;
        r
    }

    /// Replay a chosen turn with every hook; `Some(reason)` if it was refused after all. `listed`:
    /// the turn was listed in this position, so its parts are not looked for among the candidates.
    fn play(&mut self, pos: &mut Position, turn: &Turn, listed: bool) -> Result<Option<String>, ScriptError> {
        if !self.start(pos)? {
            return Ok(Some("the turn cannot start".into()));
        }
        let preset = self.preset;
        let mut typed = turn.parts().iter().copied().peekable();
        for i in 0..self.part_count() {
            let (kinds, optional, if_possible) = self.kind_at(i);
            let next = typed.peek().copied().filter(|&c| kinds.contains(&part_value(preset, pos, c).kind));
            if listed {
                let Some(c) = next else { continue };
                typed.next();
                if let Some(why) = self.before(pos, kinds)? {
                    return Ok(Some(why));
                }
                if let Some(why) = self.step(pos, c, false, false)? {
                    return Ok(Some(why));
                }
                continue;
            }
            let cands = self.candidates(pos, i, kinds)?;
            let Some(c) = next else {
                if optional || (if_possible && cands.is_empty()) {
                    continue;
                }
                let words = kinds.iter().map(|k| k.word()).collect::<Vec<_>>().join(" or ");
                return Ok(Some(format!("the turn needs a {words} part here")));
            };
            if !cands.contains(&c) {
                if matches!(c, TurnPart::Move(_)) {
                    return Ok(Some(NOT_LISTED.into()));
                }
                let text = crate::engine::turn::part_text(preset, pos, c);
                return Ok(Some(format!("{text} is not an allowed {} here", part_value(preset, pos, c).kind.word())));
            }
            typed.next();
            if let Some(why) = self.before(pos, kinds)? {
                return Ok(Some(why));
            }
            if let Some(why) = self.step(pos, c, false, false)? {
                return Ok(Some(why));
            }
        }
        if let Some(extra) = typed.next() {
            let text = crate::engine::turn::part_text(preset, pos, extra);
            return Ok(Some(format!("{text} does not fit: this preset's turn has no such part there")));
        }
        self.end(pos)
    }

    /// Give a candidate list back for reuse.
    fn give_parts(&mut self, mut buf: Vec<TurnPart>) {
        buf.clear();
        self.spare.push(buf);
    }

    /// The candidates for part `i`: of each of its kinds, in order.
    fn candidates(&mut self, pos: &mut Position, i: usize, kinds: &[PartKind]) -> Result<Vec<TurnPart>, ScriptError> {
        let preset: &'a Preset = self.preset;
        if let Some(set) = self.set_of(i) {
            let mut out = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(64));
            if !self.set_empty(pos, i, set)? {
                self.list_set(pos, set, kinds, &mut out);
            }
            return Ok(out);
        }
        let from = match preset.script.turn.get(i).and_then(|s| s.from.as_ref()) {
            Some(body) => Some(self.part_from(pos, i, body, kinds)?),
            None => None,
        };
        let from = from.as_ref().map(FromList::items);
        let mut out = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(64));
        for &kind in kinds {
            if kind == PartKind::Move && self.later_may_shield(i) {
                // Royal safety is judged when the turn is complete, and a later part could still
                // cover the royal piece: every move the pieces can make is a candidate.
                // The legal moves are cached from the same generation (`candidates_of` asks).
                let mut moves = self.spare_moves.pop().unwrap_or_default();
                moves.clear();
                pos.pseudo_moves(preset, &mut moves);
                pos.cache_legal_from(preset, &moves);
                out.extend(moves.iter().map(|&m| TurnPart::Move(m)));
                self.spare_moves.push(moves);
                continue;
            }
            self.candidates_of_kind(pos, kind, from, &mut out);
        }
        Ok(out)
    }

    /// Whether a part after part `i` could cover an attacked royal piece: a drop between it and
    /// the attacker, a removal of the attacker, a square taken out of the attacker's line.
    fn later_may_shield(&self, i: usize) -> bool {
        self.preset.royal_safety
            && self
                .preset
                .script
                .turn
                .iter()
                .skip(i + 1)
                .any(|s| s.kinds.iter().any(|k| matches!(k, PartKind::Drop | PartKind::Remove | PartKind::Destroy)))
    }

    /// Part `i`'s `from`, from the cache when it depends on the board's shape alone and the shape
    /// is the turn's first.
    fn part_from(&mut self, pos: &mut Position, i: usize, body: &Body, kinds: &[PartKind]) -> R<FromList> {
        if let Some(g) = self.preset.script.inert.from_global.get(i).copied().flatten() {
            return self.global_from(pos, g, body, kinds);
        }
        let shaped = i < MAX_PARTS
            && self.preset.script.inert.from_shape.get(i).copied().unwrap_or(false)
            && pos.shape_kept_since(self.base);
        if !shaped {
            // A kept run that read none of what the deferred `on turn_start` may write holds
            // without it; any other lookup or run needs it first.
            // One lookup, made again only if running `on turn_start` may have changed the globals.
            let writes = self.preset.script.inert.start_writes.unwrap_or(u64::MAX);
            let kept = match self.memos.from_read(i, self.mover, &Globals::of(&pos.state), Some(pos)) {
                Some((list, read, steps)) if !self.deferred || read & writes == 0 => Some((list.clone(), steps)),
                _ => None,
            };
            let kept = match kept {
                None if self.deferred => {
                    self.undefer(pos)?;
                    let g = Globals::of(&pos.state);
                    self.memos.from(i, self.mover, &g, Some(pos)).map(|(list, steps)| (list.clone(), steps))
                }
                kept => kept,
            };
            if let Some((list, steps)) = kept {
                charge_steps(steps, body)?;
                return Ok(FromList::Shared(list));
            }
            let track = self.memos.worth(body);
            let items = self.candidate_values(pos, body, kinds, track)?;
            if !track {
                return Ok(FromList::Own(items));
            }
            return Ok(match self.memos.keep_from(body, i, self.mover, items, pos) {
                Ok(shared) => FromList::Shared(shared),
                Err(own) => FromList::Own(own),
            });
        }
        if let Some(v) = &self.from_cache[i] {
            return Ok(FromList::Shared(v.clone()));
        }
        // Another listing's, on a board of the same shape: its steps charged as if it ran.
        let squares = &self.preset.geo.squares;
        if let Some((v, steps)) = self.memos.shaped(body, i, self.mover, &pos.cells, squares) {
            charge_steps(steps, body)?;
            self.from_cache[i] = Some(v.clone());
            return Ok(FromList::Shared(v));
        }
        let v = Arc::new(self.candidate_values(pos, body, kinds, true)?);
        let steps = self.memos.reads().steps;
        self.memos.keep_shaped(body, i, self.mover, v.clone(), steps);
        self.from_cache[i] = Some(v.clone());
        Ok(FromList::Shared(v))
    }

    /// A part's `from` that is global `g` ([`Inert::from_global`]): its value as it stands (after
    /// the deferred `on turn_start` if that may write it), charged as the run it stands for.
    ///
    /// [`Inert::from_global`]: crate::script::ir::Inert::from_global
    fn global_from(&mut self, pos: &mut Position, g: u16, body: &Body, kinds: &[PartKind]) -> R<FromList> {
        if self.deferred && self.preset.script.inert.start_writes.unwrap_or(u64::MAX) & global_bit(g) != 0 {
            self.undefer(pos)?;
        }
        charge_steps(from_steps(body), body)?;
        let items = match &pos.state[g as usize] {
            Value::List(x) | Value::Set(x) => FromList::Shared(x.clone()),
            Value::None => FromList::Own(Vec::new()),
            one => FromList::Own(vec![one.clone()]),
        };
        fitting(items.items(), kinds, body)?;
        Ok(items)
    }

    /// A part's `from`: a list or set (or one value) of squares, or of pieces for a `discard`.
    /// `track`: what it reads is recorded in the memos' `reads`.
    fn candidate_values(&mut self, pos: &mut Position, body: &Body, kinds: &[PartKind], track: bool) -> R<Vec<Value>> {
        let v = if track {
            hooks::value_tracked(self.preset, pos, body, self.mover, self.memos.reads())?
        } else {
            hooks::value(self.preset, pos, body, self.mover)?
        };
        let items = match v {
            Value::List(x) | Value::Set(x) => Arc::try_unwrap(x).unwrap_or_else(|shared| shared.to_vec()),
            Value::None => Vec::new(),
            one => vec![one],
        };
        fitting(&items, kinds, body)?;
        Ok(items)
    }

    fn candidates_of_kind(
        &mut self,
        pos: &mut Position,
        kind: PartKind,
        from: Option<&[Value]>,
        out: &mut Vec<TurnPart>,
    ) {
        let preset = self.preset;
        let us = self.mover;
        let squares = |pos: &Position, default: &dyn Fn(u8) -> bool| -> Vec<Sq> {
            let mut v: Vec<Sq> = match from {
                Some(items) => {
                    let mut v = Vec::with_capacity(items.len());
                    v.extend(items.iter().filter_map(|v| if let Value::Square(s) = v { Some(*s) } else { None }));
                    // Lists from `pieces()` and friends come sorted: only others need sorting.
                    if !v.is_sorted() {
                        v.sort_unstable();
                    }
                    v.dedup();
                    v
                }
                None => preset.geo.squares.clone(),
            };
            v.retain(|&s| default(pos.cells[s.idx()]));
            v
        };
        match kind {
            PartKind::Move => {
                out.extend(pos.cached_legal_moves(preset).iter().map(|&m| TurnPart::Move(m)));
            }
            PartKind::Drop => {
                // Most often (a `from` that offers nothing, an empty hand) there is nothing to drop:
                // known before the hand is looked at.
                let empties = squares(pos, &|c| c == cell::EMPTY);
                if empties.is_empty() {
                    return;
                }
                let mut codes = leafcount::hand_kinds(pos, us);
                // Pieces or kinds among the candidates restrict what may be dropped; squares, where.
                if let Some(items) = from
                    && let listed = kind_bits(items)
                    && listed != 0
                {
                    codes &= listed;
                }
                while codes != 0 {
                    let k = codes.trailing_zeros() as u8;
                    codes &= codes - 1;
                    let zone = preset.drop_zones[k as usize].as_ref().map(|z| &z[us]);
                    let code = cell::piece(k as usize, us);
                    let allowed = empties.iter().filter(|&&s| zone.is_none_or(|z| z[s.idx()]));
                    out.extend(allowed.map(|&s| TurnPart::Drop(code, s)));
                }
            }
            PartKind::Remove => {
                let wanted = |c: u8| if from.is_some() { cell::is_piece(c) } else { cell::is_side(c, us.other()) };
                square_parts(pos, &preset.geo.squares, from, &wanted, TurnPart::Remove, out);
            }
            PartKind::Construct => {
                square_parts(pos, &preset.geo.squares, from, &|c| c == cell::HOLE, TurnPart::Construct, out)
            }
            PartKind::Destroy => {
                square_parts(pos, &preset.geo.squares, from, &|c| c == cell::EMPTY, TurnPart::Destroy, out)
            }
            PartKind::Discard => {
                let in_hand = leafcount::hand_kinds(pos, us);
                let mut kinds = match from {
                    Some(items) => in_hand & kind_bits(items),
                    None => in_hand,
                };
                while kinds != 0 {
                    let k = kinds.trailing_zeros() as usize;
                    kinds &= kinds - 1;
                    out.push(TurnPart::Discard(cell::piece(k, us)));
                }
            }
        }
    }
}

/// Whether a part's `from` values fit its kinds: squares for a part on the board, pieces or kinds
/// for a `discard` or `drop`.
fn fitting(items: &[Value], kinds: &[PartKind], body: &Body) -> R<()> {
    for it in items {
        let fits = match it {
            Value::Square(_) => kinds.iter().any(|k| *k != PartKind::Discard),
            Value::Piece(_) | Value::Kind(_) => kinds.iter().any(|k| matches!(k, PartKind::Discard | PartKind::Drop)),
            _ => false,
        };
        if !fits {
            let words = kinds.iter().map(|k| k.word()).collect::<Vec<_>>().join(" or ");
            let msg = format!("the candidates of a {words} part cannot include {}", it.type_name());
            return Err(ScriptError::new(body.span, msg));
        }
    }
    Ok(())
}

/// Part `j`'s `from` with the globals `g`, when what it offers is known without running it: a
/// global's value ([`Inert::from_global`]) or a run kept in the memos. `(whether it offers
/// nothing, the globals it reads (a bit each), the steps it takes)`.
///
/// [`Inert::from_global`]: crate::script::ir::Inert::from_global
fn from_known(preset: &Preset, memos: &Memos, j: usize, mover: Side, g: &Globals) -> Option<(bool, u64, u64)> {
    from_known_inline(preset, memos, j, mover, g)
}

/// [`from_known`] inline, for [`count_untried`], which asks at most nodes of a bulk perft's last
/// ply (Maidens'); inline everywhere, it made Ruddigore's generator slower.
#[inline(always)]
fn from_known_inline(preset: &Preset, memos: &Memos, j: usize, mover: Side, g: &Globals) -> Option<(bool, u64, u64)> {
    let script = &preset.script;
    if let Some(gi) = script.inert.from_global.get(j).copied().flatten() {
        let body = script.turn.get(j)?.from.as_ref()?;
        let empty = match g.get(gi) {
            Value::None => true,
            Value::List(x) | Value::Set(x) => x.is_empty(),
            _ => false,
        };
        return Some((
            empty,
            global_bit(gi),
            script.inert.from_steps.get(j).copied().unwrap_or_else(|| from_steps(body)),
        ));
    }
    // Without the board: `j` is a later part, whose board is not this one.
    memos.from_read(j, mover, g, None).map(|(list, read, steps)| (list.is_empty(), read, steps))
}

/// The steps a `from` of one `return` statement takes when it runs: that statement's.
fn from_steps(body: &Body) -> u64 {
    body.ops.iter().map(|op| u64::from(op.cost)).sum()
}

/// A part's `from` values: its own list, or the list cached for the turn (no allocation for the
/// sharing when nothing is cached).
enum FromList {
    Own(Vec<Value>),
    Shared(Arc<Vec<Value>>),
}

impl FromList {
    fn items(&self) -> &[Value] {
        match self {
            FromList::Own(v) => v,
            FromList::Shared(v) => v,
        }
    }
}

/// In `leaf` mode, which candidates of the last part are sure to make a legal turn: no hook after
/// them could refuse one, and the mover's royal piece is known to stay safe. What does not depend
/// on the candidate is worked out once per part.
struct Countable<'p> {
    /// Per part kind: its hooks and the turn's end hooks are quiet.
    quiet: [bool; 6],
    royal_safety: bool,
    /// The board is as a legal move left it.
    safe_now: bool,
    /// When the board is safe now, the squares whose emptying could expose the royal piece.
    blockers: Option<&'p Pins>,
    /// When the board is safe now, the holes whose building could expose it.
    openers: Option<&'p Pins>,
}

impl<'p> Countable<'p> {
    fn new(g: &Gen, pos: &Position, blockers: Option<&'p Pins>, openers: Option<&'p Pins>) -> Countable<'p> {
        let inert = &g.preset.script.inert;
        Countable {
            // `checks illegal` is judged when the turn ends: no candidate is sure before that.
            quiet: std::array::from_fn(|k| inert.end && inert.part[k] && !g.preset.no_checks),
            royal_safety: g.preset.royal_safety,
            safe_now: g.known_safe(pos),
            blockers,
            openers,
        }
    }

    /// `legal`: for a move, that it was generated as legal on this very board (asked of moves
    /// only: it may search the legal moves).
    #[inline]
    fn sure(&self, pos: &Position, c: TurnPart, legal: &dyn Fn(&TurnPart) -> bool) -> bool {
        let (kind, safe) = match c {
            TurnPart::Move(_) => (PartKind::Move, legal(&c)),
            // Changes no square: the board is as safe as it was.
            TurnPart::Discard(_) => (PartKind::Discard, self.safe_now),
            TurnPart::Remove(sq) => (PartKind::Remove, removal_keeps_safe(pos, self.blockers, sq)),
            TurnPart::Drop(..) => (PartKind::Drop, false),
            TurnPart::Construct(sq) => (PartKind::Construct, self.openers.is_some_and(|o| !o.contains(sq))),
            TurnPart::Destroy(_) => (PartKind::Destroy, false),
        };
        self.quiet[kind as usize] && (!self.royal_safety || safe)
    }
}

/// Whether emptying `sq` keeps the mover's royal piece safe, `blockers` being the sole blockers
/// of a board known to be safe (`None`: not known, or not so simple to tell).
#[inline]
fn removal_keeps_safe(pos: &Position, blockers: Option<&Pins>, sq: Sq) -> bool {
    blockers.is_some_and(|b| !b.contains(sq)) && !pos.is_royal_code(pos.cells[sq.idx()])
}

/// The parts on the squares that hold what `keep` accepts: of a part's `from` list (in board
/// order, each once), or of the whole board. Written straight into `out`, which the turn generator
/// reuses, since this runs for a part after every earlier part at every node.
fn square_parts(
    pos: &Position,
    board: &[Sq],
    from: Option<&[Value]>,
    keep: &dyn Fn(u8) -> bool,
    make: fn(Sq) -> TurnPart,
    out: &mut Vec<TurnPart>,
) {
    let Some(items) = from else {
        out.extend(board.iter().filter(|&&s| keep(pos.cells[s.idx()])).map(|&s| make(s)));
        return;
    };
    let start = out.len();
    // Lists from `pieces()` and friends come in board order: only others are sorted.
    let (mut ordered, mut last) = (true, Sq::NONE);
    for v in items {
        if let Value::Square(s) = *v
            && keep(pos.cells[s.idx()])
        {
            ordered &= s > last;
            last = s;
            out.push(make(s));
        }
    }
    if !ordered {
        let key = |p: &TurnPart| match *p {
            TurnPart::Remove(s) | TurnPart::Construct(s) | TurnPart::Destroy(s) => s,
            _ => Sq::NONE,
        };
        out[start..].sort_unstable_by_key(key);
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || key(&out[i]) != key(&out[kept - 1]) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// A bit per kind among the pieces and kinds of a part's candidates.
fn kind_bits(items: &[Value]) -> u64 {
    kinds_listed(items).into_iter().fold(0u64, |m, k| m | 1u64 << k)
}

/// The kinds of the pieces and kinds among a part's candidates.
fn kinds_listed(items: &[Value]) -> Vec<u8> {
    items
        .iter()
        .filter_map(|v| match v {
            Value::Piece(c) => Some(cell::kind(*c) as u8),
            Value::Kind(k) => Some(*k),
            _ => None,
        })
        .collect()
}

/// Charge the steps of a run whose effect was reused, as if it had run (the command's budget of
/// hook steps counts them alike).
fn charge_steps(steps: u64, body: &Body) -> R<()> {
    crate::budget::steps(steps)
        .map_err(|spent| ScriptError::new(body.span, format!("{spent} (stopped in `{}`)", body.name)))
}

/// Whether a move is quiet: it takes nothing, promotes nothing, moves no rook and drops nothing;
/// as a part, such moves differ only in their squares and piece (see [`move_part`]).
#[inline]
fn quiet(pos: &Position, m: Move) -> bool {
    use crate::engine::position::mflag;
    m.flags & (mflag::DROP | mflag::EP | mflag::CASTLE) == 0 && m.promo == 0 && !cell::is_piece(pos.cells[m.to.idx()])
}

/// A part as scripts see it, described in the position before it.
pub fn part_value(preset: &Preset, pos: &Position, p: TurnPart) -> PartVal {
    let blank = |kind, to, piece| PartVal {
        kind,
        from: Sq::NONE,
        to,
        piece,
        captured: 0,
        captured_on: Sq::NONE,
        promo: 0,
        rook: None,
    };
    match p {
        TurnPart::Move(m) => move_part(preset, &pos.cells, pos.ep.victim, m),
        TurnPart::Remove(s) => blank(PartKind::Remove, s, cell::code(pos.cells[s.idx()])),
        TurnPart::Drop(c, s) => blank(PartKind::Drop, s, c),
        TurnPart::Construct(s) => blank(PartKind::Construct, s, 0),
        TurnPart::Destroy(s) => blank(PartKind::Destroy, s, 0),
        TurnPart::Discard(c) => blank(PartKind::Discard, Sq::NONE, c),
    }
}
