//! Script AST to IR: every name resolved once, when the preset loads, with every error collected.

use super::ir::*;
use super::table::{self, Builtin};
use super::value::Value;
use crate::diag::Diagnostic;
use crate::diag::suggest;
use crate::engine::board::Geometry;
use crate::engine::side::Side;
use crate::preset::Kind;
use crate::syntax::Span;
use crate::syntax::script::{self as ast, BinOp, ExprKind, HookPoint, Phase, StmtKind};
use indexmap::IndexMap;

/// The name of the optional function that evaluates a position for the computer player.
pub const EVALUATE: &str = "evaluate";

/// What the script declarations of a preset add up to, after `extends` overriding.
#[derive(Default)]
pub struct Decls {
    pub vars: IndexMap<String, ast::VarDecl>,
    pub fns: IndexMap<String, ast::FnDecl>,
    pub hooks: IndexMap<HookPoint, ast::HookDecl>,
    pub turn: Option<(Vec<ast::TurnPartDecl>, Span)>,
}

pub struct Compiler<'a> {
    kinds: &'a [Kind],
    geo: &'a Geometry,
    globals: Vec<(String, bool)>,
    fns: Vec<(String, usize)>,
    pub diags: Vec<Diagnostic>,
    scopes: Vec<Vec<(String, u16)>>,
    next_slot: u16,
    max_slot: u16,
    in_loop: u32,
    /// Whether `part` means something where we are compiling.
    has_part: bool,
}

impl<'a> Compiler<'a> {
    pub fn new(kinds: &'a [Kind], geo: &'a Geometry) -> Compiler<'a> {
        Compiler {
            kinds,
            geo,
            globals: Vec::new(),
            fns: Vec::new(),
            diags: Vec::new(),
            scopes: Vec::new(),
            next_slot: 0,
            max_slot: 0,
            in_loop: 0,
            has_part: false,
        }
    }

    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(span, msg));
    }

    /// Compile everything; global initial values are filled in later (they need a preset to evaluate).
    pub fn script(mut self, d: &Decls) -> (Script, Vec<Code>, Vec<Diagnostic>) {
        self.globals = d.vars.values().map(|v| (v.name.node.clone(), v.state)).collect();
        self.fns = d.fns.values().map(|f| (f.name.node.clone(), f.params.len())).collect();
        for v in d.vars.values() {
            self.check_name(&v.name);
        }
        for f in d.fns.values() {
            self.check_not_square(&f.name);
        }
        let inits: Vec<Code> = d.vars.values().map(|v| self.expr_alone(&v.init)).collect();
        let globals = d
            .vars
            .values()
            .map(|v| Global { name: v.name.node.clone(), init: Value::None, state: v.state, span: v.name.span })
            .collect();
        let funcs = d.fns.values().map(|f| self.body(&f.name.node, &f.params, &f.body, f.span, false)).collect();
        let mut hooks = Hooks::default();
        for h in d.hooks.values() {
            let with_part = matches!(h.point, HookPoint::Part(..) | HookPoint::Capture);
            let body = self.body(&h.point.describe(), &[], &h.body, h.span, with_part);
            match h.point {
                HookPoint::TurnStart => hooks.turn_start = Some(body),
                HookPoint::Part(Phase::Before, k) => hooks.before[k as usize] = Some(body),
                HookPoint::Part(Phase::Validate, k) => hooks.validate[k as usize] = Some(body),
                HookPoint::Part(Phase::After, k) => hooks.after[k as usize] = Some(body),
                HookPoint::Capture => hooks.capture = Some(body),
                HookPoint::TurnEnd => hooks.turn_end = Some(body),
                HookPoint::Every { n, offset } => hooks.every.push((n, offset, body)),
                HookPoint::GameEnd => hooks.game_end = Some(body),
                HookPoint::Announce => hooks.announce = Some(body),
                HookPoint::Setup => hooks.setup = Some(body),
            }
        }
        let mut turn = Vec::new();
        if let Some((parts, span)) = &d.turn {
            if parts.len() > MAX_PARTS {
                self.err(*span, format!("a turn may have at most {MAX_PARTS} parts; this one has {}", parts.len()));
            }
            if parts.iter().all(|p| p.optional || p.if_possible) {
                self.err(*span, "no part of this turn is required: make at least one part required");
            }
            for p in parts {
                let from = p.from.as_ref().map(|e| {
                    let name = format!("the `from` of the {} part", p.kinds[0].word());
                    let ret = ast::Stmt::new(StmtKind::Return(Some(e.clone())), e.span);
                    self.body(&name, &[], &[ret], e.span, false)
                });
                turn.push(PartSpec {
                    optional: p.optional,
                    if_possible: p.if_possible,
                    kinds: p.kinds.clone(),
                    from,
                    span: p.span,
                });
            }
        }
        let active = !globals_is_empty(d) || d.hooks.values().any(|h| h.point != HookPoint::Setup) || d.turn.is_some();
        let evaluate = self.evaluate(d);
        let script = Script { globals, funcs, hooks, turn, active, evaluate, inert: Default::default() };
        let script = Script { inert: super::inert::of(&script), ..script };
        (script, inits, self.diags)
    }

    /// `fn evaluate()` adds to the computer player's evaluation; `fn evaluate(base)` replaces it.
    fn evaluate(&mut self, d: &Decls) -> Option<usize> {
        let (i, _, f) = d.fns.get_full(EVALUATE)?;
        if f.params.len() > 1 {
            self.err(f.name.span, "`evaluate` takes no parameter, or one (the built-in evaluation)");
        }
        Some(i)
    }

    fn check_name(&mut self, n: &ast::Name) {
        if table::lookup(&n.node).is_some() {
            self.err(n.span, format!("`{}` is a built-in function; choose another name", n.node));
        }
        self.check_not_square(n);
    }

    /// A name shaped like a square (`a1`, `h10`) would read as the square wherever it is used.
    fn check_not_square(&mut self, n: &ast::Name) {
        let mut chars = n.node.chars();
        let letter = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        let digits = chars.as_str();
        if letter && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            self.err(
                n.span,
                format!(
                    "`{}` is written like a square, and reads as the square wherever it is used; choose another name",
                    n.node
                ),
            );
        }
    }

    /// Compile one expression that stands alone (initial values, FEN state values).
    pub fn expr_alone(&mut self, e: &ast::Expr) -> Code {
        self.scopes = vec![Vec::new()];
        self.next_slot = 0;
        self.max_slot = 0;
        let c = self.expr(e);
        if self.max_slot > 0 {
            self.err(e.span, "an initial value cannot declare variables");
        }
        c
    }

    fn body(&mut self, name: &str, params: &[ast::Name], stmts: &[ast::Stmt], span: Span, has_part: bool) -> Body {
        self.scopes = vec![Vec::new()];
        self.next_slot = 0;
        self.max_slot = 0;
        self.has_part = has_part;
        for p in params {
            self.declare(p);
        }
        let ops = self.block(stmts);
        self.has_part = false;
        Body { name: name.to_string(), params: params.len() as u16, locals: self.max_slot, ops, span }
    }

    fn declare(&mut self, n: &ast::Name) -> u16 {
        self.check_name(n);
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        if let Some(s) = self.scopes.last_mut() {
            s.push((n.node.clone(), slot));
        }
        slot
    }

    fn block(&mut self, stmts: &[ast::Stmt]) -> Vec<Op> {
        self.scopes.push(Vec::new());
        let saved = self.next_slot;
        let ops = stmts.iter().map(|s| specialise_op(Op::new(self.stmt(s), s.span))).collect();
        self.scopes.pop();
        self.next_slot = saved;
        ops
    }

    fn local(&self, name: &str) -> Option<u16> {
        self.scopes.iter().rev().find_map(|s| s.iter().rev().find(|(n, _)| n == name).map(|&(_, i)| i))
    }

    fn stmt(&mut self, s: &ast::Stmt) -> St {
        match &s.node {
            StmtKind::Let(n, e) => {
                let c = self.expr(e);
                St::SetLocal(self.declare(n), c)
            }
            StmtKind::Assign(n, e) => {
                let c = self.expr(e);
                if let Some(i) = self.local(&n.node) {
                    St::SetLocal(i, c)
                } else if let Some(i) = self.globals.iter().position(|g| g.0 == n.node) {
                    St::SetGlobal(i as u16, c)
                } else {
                    let known: Vec<String> = self.names_in_scope();
                    let hint = suggest(&n.node, known.iter().collect());
                    self.err(n.span, format!("no variable `{}` to assign to (declare it with `let`){hint}", n.node));
                    St::Eval(c)
                }
            }
            StmtKind::If(branches, otherwise) => {
                let b = branches.iter().map(|(c, body)| (self.expr(c), self.block(body))).collect();
                St::If(b, otherwise.as_ref().map(|o| self.block(o)).unwrap_or_default())
            }
            StmtKind::For(n, e, body) => {
                let c = self.expr(e);
                self.scopes.push(Vec::new());
                let saved = self.next_slot;
                let slot = self.declare(n);
                self.in_loop += 1;
                let b = self.block(body);
                self.in_loop -= 1;
                self.scopes.pop();
                self.next_slot = saved;
                St::For(slot, c, b)
            }
            StmtKind::While(c, body) => {
                let c = self.expr(c);
                self.in_loop += 1;
                let b = self.block(body);
                self.in_loop -= 1;
                St::While(c, b)
            }
            StmtKind::Return(e) => St::Return(e.as_ref().map(|e| self.expr(e))),
            StmtKind::Break | StmtKind::Continue => {
                if self.in_loop == 0 {
                    self.err(s.span, "`break` and `continue` belong inside a loop");
                }
                if matches!(s.node, StmtKind::Break) { St::Break } else { St::Continue }
            }
            StmtKind::Reject(e) => St::Reject(self.expr(e)),
            StmtKind::Win(side, reason) => St::Win(self.expr(side), self.expr(reason)),
            StmtKind::Draw(e) => St::Draw(self.expr(e)),
            StmtKind::Say(e) => St::Say(self.expr(e)),
            StmtKind::Expr(e) => St::Eval(self.expr(e)),
        }
    }

    fn names_in_scope(&self) -> Vec<String> {
        let mut v: Vec<String> = self.scopes.iter().flatten().map(|(n, _)| n.clone()).collect();
        v.extend(self.globals.iter().map(|g| g.0.clone()));
        v
    }

    fn expr(&mut self, e: &ast::Expr) -> Code {
        let ex = match &e.node {
            ExprKind::Int(i) => Ex::Const(Value::Int(*i)),
            ExprKind::Str(s) => Ex::Const(Value::Str(s.as_str().into())),
            ExprKind::Bool(b) => Ex::Const(Value::Bool(*b)),
            ExprKind::None => Ex::Const(Value::None),
            ExprKind::Square(s) => match self.square(s) {
                Some(v) => Ex::Const(v),
                None => {
                    self.err(e.span, format!("`{s}` is not a square of this board"));
                    Ex::Const(Value::None)
                }
            },
            ExprKind::Ident(name) => self.ident(name, e.span),
            // An empty literal is one shared value, so that `x = {}` allocates nothing.
            ExprKind::List(items) if items.is_empty() => Ex::Const(Value::List(Default::default())),
            ExprKind::Set(items) if items.is_empty() => Ex::Const(Value::Set(Default::default())),
            ExprKind::Map(items) if items.is_empty() => Ex::Const(Value::Map(Default::default())),
            // A literal of constants (`[Queen, Rook]`) is built once, here, not at every evaluation.
            ExprKind::List(items) => {
                let items: Vec<Code> = items.iter().map(|i| self.expr(i)).collect();
                match constants(&items) {
                    Some(v) => Ex::Const(Value::List(std::sync::Arc::new(v))),
                    None => Ex::List(items),
                }
            }
            ExprKind::Set(items) => {
                let items: Vec<Code> = items.iter().map(|i| self.expr(i)).collect();
                match constants(&items) {
                    Some(v) => Ex::Const(Value::set_of(v)),
                    None => Ex::Set(items),
                }
            }
            ExprKind::Map(items) => Ex::Map(items.iter().map(|(k, v)| (self.expr(k), self.expr(v))).collect()),
            ExprKind::Not(x) => Ex::Not(Box::new(self.expr(x))),
            ExprKind::Neg(x) => Ex::Neg(Box::new(self.expr(x))),
            ExprKind::Binary(op, a, b) => Ex::Bin(*op, Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Call(name, args) => self.call(name, args),
            ExprKind::Field(x, f) => {
                let c = self.expr(x);
                match Field::ALL.iter().find(|(n, _)| *n == f.node) {
                    Some(&(_, field)) => Ex::Field(Box::new(c), field),
                    None => {
                        let names: Vec<String> = Field::ALL.iter().map(|(n, _)| n.to_string()).collect();
                        let hint = suggest(&f.node, names.iter().collect());
                        self.err(f.span, format!("no field `{}`{hint}", f.node));
                        Ex::Const(Value::None)
                    }
                }
            }
            ExprKind::Index(x, i) => Ex::Index(Box::new(self.expr(x)), Box::new(self.expr(i))),
        };
        specialise(Code::new(ex, e.span))
    }

    fn square(&self, s: &str) -> Option<Value> {
        self.geo.parse_square(s).map(Value::Square)
    }

    fn ident(&mut self, name: &str, span: Span) -> Ex {
        if let Some(i) = self.local(name) {
            return Ex::Local(i);
        }
        if let Some(i) = self.globals.iter().position(|g| g.0 == name) {
            return Ex::Global(i as u16);
        }
        match name {
            "mover" => return Ex::Mover,
            "opponent" => return Ex::Opponent,
            "white" => return Ex::Const(Value::Side(Side::White)),
            "black" => return Ex::Const(Value::Side(Side::Black)),
            "part" if self.has_part => return Ex::Part,
            "part" => {
                self.err(span, "`part` exists only in part hooks (`before`/`validate`/`after` PART, `capture`)");
                return Ex::Const(Value::None);
            }
            _ => {}
        }
        if let Some(k) = self.kinds.iter().position(|k| k.name == name) {
            return Ex::Const(Value::Kind(k as u8));
        }
        let mut known = self.names_in_scope();
        known.extend(self.kinds.iter().map(|k| k.name.clone()));
        known.extend(["mover", "opponent", "white", "black"].map(String::from));
        let hint = suggest(name, known.iter().collect());
        self.err(span, format!("unknown name `{name}`{hint}"));
        Ex::Const(Value::None)
    }

    fn call(&mut self, name: &ast::Name, args: &[ast::Expr]) -> Ex {
        let codes: Vec<Code> = args.iter().map(|a| self.expr(a)).collect();
        if let Some(i) = self.fns.iter().position(|f| f.0 == name.node) {
            let want = self.fns[i].1;
            if want != codes.len() {
                self.err(name.span, format!("`{}` takes {want} argument(s), given {}", name.node, codes.len()));
            }
            return Ex::Call(i as u16, codes);
        }
        if let Some(&table::Def { builtin: b, min, max, .. }) = table::lookup(&name.node) {
            if codes.len() < min || codes.len() > max {
                let want = if min == max { min.to_string() } else { format!("{min} to {max}") };
                self.err(name.span, format!("`{}` takes {want} argument(s), given {}", name.node, codes.len()));
                return Ex::Const(Value::None);
            }
            return Ex::Builtin(b, codes);
        }
        let mut known: Vec<String> = self.fns.iter().map(|f| f.0.clone()).collect();
        known.extend(table::TABLE.iter().map(|t| t.name.to_string()));
        let hint = suggest(&name.node, known.iter().collect());
        self.err(name.span, format!("no function `{}`{hint}", name.node));
        Ex::Const(Value::None)
    }
}

fn globals_is_empty(d: &Decls) -> bool {
    d.vars.is_empty()
}

/// Compile one expression typed outside any preset file (the REPL's `eval`): the preset's
/// variables and functions are in scope; the result is a body returning the value.
pub fn standalone(preset: &crate::preset::Preset, text: &str) -> Result<Body, String> {
    let mut sources = crate::diag::Sources::default();
    let wrapped = format!("{{value={text}}}");
    let src = sources.add("eval", &wrapped);
    // The FEN state rule reads `{name=expression}`; the grammar has no rule for a bare expression.
    let bindings = crate::syntax::parse::parse_fen_state(src, &wrapped)
        .map_err(|d| d.message.replace("found `}`", "found the end of the expression"))?;
    let [(_, expr)] = bindings.as_slice() else { return Err("one expression expected".into()) };
    let mut c = Compiler::new(&preset.kinds, &preset.geo);
    c.globals = preset.script.globals.iter().map(|g| (g.name.clone(), g.state)).collect();
    c.fns = preset.script.funcs.iter().map(|f| (f.name.clone(), f.params as usize)).collect();
    let code = c.expr_alone(expr);
    if let Some(d) = c.diags.first() {
        return Err(d.message.clone());
    }
    let op = Op::new(St::Return(Some(code.clone())), code.span);
    Ok(Body { name: "eval".into(), params: 0, locals: 0, ops: vec![op], span: code.span })
}

/// The values of expressions that are all constants, or `None`.
fn constants(items: &[Code]) -> Option<Vec<Value>> {
    items.iter().map(|c| if let Ex::Const(v) = &c.ex { Some(v.clone()) } else { None }).collect()
}

/// An expression in the shape of an `Ex` node of its own (see `Ex`), made that node; any other
/// expression as it is. Its steps stay those of the general form: the charge does not depend on
/// which node runs.
fn specialise(c: Code) -> Code {
    let Code { ex, span, cost } = c;
    let ex = match ex {
        Ex::Builtin(b, mut args) if args.len() == 1 => {
            let arg = args.pop().map(Box::new);
            match (b, arg) {
                (Builtin::Len, Some(arg)) => match arg.ex {
                    Ex::Builtin1(Builtin::Pieces, side) => Ex::CountPieces(side, arg.span),
                    _ => Ex::Builtin1(b, arg),
                },
                (b, Some(arg)) if b.def().reader => Ex::Read(b, arg),
                (b, Some(arg)) => Ex::Builtin1(b, arg),
                (b, None) => Ex::Builtin(b, Vec::new()),
            }
        }
        Ex::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => match b.ex {
            Ex::Const(v) => Ex::IsConst(a, v, op == BinOp::Ne),
            _ => Ex::Bin(op, a, b),
        },
        Ex::Field(e, f) => match e.ex {
            Ex::Local(i) => Ex::LocalField(i, f),
            Ex::Part => Ex::PartField(f),
            _ => Ex::Field(e, f),
        },
        other => other,
    };
    Code { ex, span, cost }
}

/// A statement in the shape of an `St` node of its own, made that node (as `specialise` does for
/// expressions), its steps kept.
fn specialise_op(op: Op) -> Op {
    let Op { st, span, cost } = op;
    let st = match st {
        St::SetLocal(i, Code { ex: Ex::Builtin(Builtin::Add, args), span: at, .. })
            if args.len() == 2 && matches!(args[0].ex, Ex::Local(j) if j == i) =>
        {
            St::AddToLocal { slot: i, args, span: at }
        }
        St::For(i, Code { ex: Ex::Builtin(Builtin::ThisTurn, _), span: at, .. }, body) => St::ForThisTurn(i, at, body),
        other => other,
    };
    Op { st, span, cost }
}
