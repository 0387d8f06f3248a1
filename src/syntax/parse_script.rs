//! Pest pairs to the script AST: functions, hooks, turn parts, statements and expressions.

use super::grammar::{Lower, P, Rule, unexpected};
use super::keywords::*;
use super::script::*;
use super::span::{Span, Spanned};
use crate::diag::Diagnostic;
use pest::iterators::Pairs;

type R<T> = Result<T, Diagnostic>;

/// Deepest bracket nesting accepted in one source text: deeper input is refused before the
/// recursive-descent parser could exhaust the stack.
pub const MAX_NESTING: usize = 100;

/// Deepest expression tree accepted: long operator chains (`1 + 1 + ...`, `not not ...`) nest without
/// brackets, and the checker and interpreter walk the tree recursively.
pub const MAX_EXPR_DEPTH: usize = 200;

/// The first place where brackets nest deeper than [`MAX_NESTING`], as a byte offset.
pub fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The branches of an `if` chain and its final `else`.
type IfChain = (Vec<(Expr, Block)>, Option<Block>);

fn missing(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(span, format!("incomplete {what}"))
}

impl Lower {
    pub(super) fn var(&self, state: bool, mut it: Pairs<Rule>) -> R<VarDecl> {
        let name = it.next().map(|p| self.name(p)).ok_or_else(|| missing(Span::default(), "variable"))?;
        let init = self.expr(it.next().ok_or_else(|| missing(name.span, "variable"))?)?;
        Ok(VarDecl { name, init, state })
    }

    pub(super) fn func(&self, span: Span, mut it: Pairs<Rule>) -> R<FnDecl> {
        let name = self.name(it.next().ok_or_else(|| missing(span, "function"))?);
        let params = it.next().ok_or_else(|| missing(span, "function"))?.into_inner().map(|p| self.name(p)).collect();
        let body = self.block(it.next().ok_or_else(|| missing(span, "function"))?)?;
        Ok(FnDecl { name, params, body, span })
    }

    pub(super) fn hook(&self, span: Span, mut it: Pairs<Rule>) -> R<HookDecl> {
        let point = it.next().ok_or_else(|| missing(span, "hook"))?;
        let point = match point.as_rule() {
            Rule::every_point => {
                let mut nums = point.into_inner();
                let n = self.int(nums.next().ok_or_else(|| missing(span, "hook"))?)?;
                let offset = nums.next().map(|p| self.int(p)).transpose()?.map_or(0, |o| o.node);
                if n.node == 0 {
                    return Err(Diagnostic::new(n.span, "`every 0` would never run: give a period of 1 or more"));
                }
                HookPoint::Every { n: n.node, offset: offset % n.node }
            }
            Rule::phase_point => {
                let mut w = point.into_inner();
                let phase = self.keyword(&PHASES, w.next().ok_or_else(|| missing(span, "hook"))?)?;
                let kind = self.part_kind(w.next().ok_or_else(|| missing(span, "hook"))?)?;
                HookPoint::Part(phase, kind)
            }
            Rule::simple_point => self.keyword(&SIMPLE_POINTS, point)?,
            other => return Err(unexpected(other, span)),
        };
        let body = self.block(it.next().ok_or_else(|| missing(span, "hook"))?)?;
        Ok(HookDecl { point, body, span })
    }

    pub(super) fn turn_part(&self, p: P) -> R<TurnPartDecl> {
        let span = self.span(&p);
        let mut optional = false;
        let mut if_possible = false;
        let mut kinds = Vec::new();
        let mut from = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::optional_kw => optional = true,
                Rule::if_possible_kw => if_possible = true,
                Rule::part_kind => kinds.push(self.part_kind(q)?),
                Rule::or_op => {}
                Rule::expr => from = Some(self.expr(q)?),
                other => return Err(unexpected(other, self.span(&q))),
            }
        }
        if kinds.is_empty() {
            return Err(missing(span, "turn part"));
        }
        Ok(TurnPartDecl { optional, if_possible, kinds, from, span })
    }

    /// A part kind word (`move`, `drop`, ...), from [`PartKind`]'s own word list.
    fn part_kind(&self, p: P) -> R<PartKind> {
        let span = self.span(&p);
        PartKind::from_word(p.as_str()).ok_or_else(|| {
            Diagnostic::new(
                span,
                format!("internal error: the grammar's part kind `{}` has no meaning here", p.as_str()),
            )
        })
    }

    fn block(&self, p: P) -> R<Block> {
        p.into_inner().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&self, p: P) -> R<Stmt> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let mut next = || it.next().ok_or_else(|| missing(span, "statement"));
        let kind = match rule {
            Rule::let_stmt => StmtKind::Let(self.name(next()?), self.expr(next()?)?),
            Rule::assign_stmt => StmtKind::Assign(self.name(next()?), self.expr(next()?)?),
            Rule::if_stmt => {
                let (branches, otherwise) = self.if_chain(span, it)?;
                StmtKind::If(branches, otherwise)
            }
            Rule::for_stmt => StmtKind::For(self.name(next()?), self.expr(next()?)?, self.block(next()?)?),
            Rule::while_stmt => StmtKind::While(self.expr(next()?)?, self.block(next()?)?),
            Rule::return_stmt => StmtKind::Return(it.next().map(|e| self.expr(e)).transpose()?),
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::reject_stmt => StmtKind::Reject(self.expr(next()?)?),
            Rule::win_stmt => StmtKind::Win(self.expr(next()?)?, self.expr(next()?)?),
            Rule::draw_stmt => StmtKind::Draw(self.expr(next()?)?),
            Rule::say_stmt => StmtKind::Say(self.expr(next()?)?),
            Rule::expr_stmt => StmtKind::Expr(self.expr(next()?)?),
            other => return Err(unexpected(other, span)),
        };
        Ok(Spanned::new(kind, span))
    }

    /// `if a { } else if b { } else { }` as branches and an optional last block (the grammar lists them flat).
    fn if_chain(&self, span: Span, it: Pairs<Rule>) -> R<IfChain> {
        let mut branches = Vec::new();
        let mut cond = None;
        for p in it {
            match (p.as_rule(), cond.take()) {
                (Rule::block, Some(c)) => branches.push((c, self.block(p)?)),
                (Rule::block, None) => return Ok((branches, Some(self.block(p)?))),
                (_, _) => cond = Some(self.expr(p)?),
            }
        }
        if branches.is_empty() {
            return Err(missing(span, "if"));
        }
        Ok((branches, None))
    }

    pub(super) fn expr(&self, p: P) -> R<Expr> {
        self.expr_d(p).map(|(e, _)| e)
    }

    /// An expression and the depth of its tree, refused as soon as it passes [`MAX_EXPR_DEPTH`].
    fn expr_d(&self, p: P) -> R<(Expr, usize)> {
        let span = self.span(&p);
        let (e, d) = self.expr_kind(p)?;
        if d > MAX_EXPR_DEPTH {
            return Err(too_deep_expr(span));
        }
        Ok((e, d))
    }

    fn expr_kind(&self, p: P) -> R<(Expr, usize)> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::expr | Rule::and_expr | Rule::sum | Rule::product => self.left_assoc(span, p.into_inner()),
            Rule::not_expr => {
                let mut nots = 0;
                let mut inner = None;
                for q in p.into_inner() {
                    if q.as_rule() == Rule::not_op {
                        nots += 1;
                    } else {
                        inner = Some(self.expr_d(q)?);
                    }
                }
                let (mut e, d) = inner.ok_or_else(|| missing(span, "expression"))?;
                if d + nots > MAX_EXPR_DEPTH {
                    return Err(too_deep_expr(span));
                }
                for _ in 0..nots {
                    e = Spanned::new(ExprKind::Not(Box::new(e)), span);
                }
                Ok((e, d + nots))
            }
            Rule::cmp_expr => self.left_assoc(span, p.into_inner()),
            Rule::unary => {
                let mut negs = 0;
                let mut inner = None;
                for q in p.into_inner() {
                    if q.as_rule() == Rule::neg_op {
                        negs += 1;
                    } else {
                        inner = Some(self.expr_d(q)?);
                    }
                }
                let (mut e, d) = inner.ok_or_else(|| missing(span, "expression"))?;
                if d + negs > MAX_EXPR_DEPTH {
                    return Err(too_deep_expr(span));
                }
                for _ in 0..negs {
                    e = Spanned::new(ExprKind::Neg(Box::new(e)), span);
                }
                Ok((e, d + negs))
            }
            Rule::postfix => self.postfix(p),
            _ => self.primary(p),
        }
    }

    fn left_assoc(&self, span: Span, mut it: Pairs<Rule>) -> R<(Expr, usize)> {
        let (mut left, mut depth) = self.expr_d(it.next().ok_or_else(|| missing(span, "expression"))?)?;
        while let Some(op) = it.next() {
            let op_span = self.span(&op);
            let op = self.keyword(&BIN_OPS, op)?;
            let (right, d) = self.expr_d(it.next().ok_or_else(|| missing(span, "expression"))?)?;
            depth = depth.max(d) + 1;
            if depth > MAX_EXPR_DEPTH {
                return Err(too_deep_expr(op_span));
            }
            let s = Span { end: right.span.end, ..left.span };
            left = Spanned::new(ExprKind::Binary(op, Box::new(left), Box::new(right)), s);
        }
        Ok((left, depth))
    }

    fn postfix(&self, p: P) -> R<(Expr, usize)> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let (mut e, mut depth) = self.expr_d(it.next().ok_or_else(|| missing(span, "expression"))?)?;
        for suffix in it {
            depth += 1;
            if depth > MAX_EXPR_DEPTH {
                return Err(too_deep_expr(span));
            }
            let s = Span { end: self.span(&suffix).end, ..e.span };
            e = match suffix.as_rule() {
                Rule::call_args => {
                    let ExprKind::Ident(name) = &e.node else {
                        return Err(Diagnostic::new(e.span, "only a function name can be called"));
                    };
                    let name = Spanned::new(name.clone(), e.span);
                    let args: Vec<(Expr, usize)> = suffix.into_inner().map(|a| self.expr_d(a)).collect::<R<_>>()?;
                    depth = depth.max(1 + args.iter().map(|a| a.1).max().unwrap_or(0));
                    Spanned::new(ExprKind::Call(name, args.into_iter().map(|a| a.0).collect()), s)
                }
                Rule::field => {
                    let f = self.name(suffix.into_inner().next().ok_or_else(|| missing(s, "field"))?);
                    Spanned::new(ExprKind::Field(Box::new(e), f), s)
                }
                Rule::index => {
                    let (i, d) = self.expr_d(suffix.into_inner().next().ok_or_else(|| missing(s, "index"))?)?;
                    depth = depth.max(d + 1);
                    Spanned::new(ExprKind::Index(Box::new(e), Box::new(i)), s)
                }
                other => return Err(unexpected(other, s)),
            };
        }
        if depth > MAX_EXPR_DEPTH {
            return Err(too_deep_expr(span));
        }
        Ok((e, depth))
    }

    /// Literals and names are leaves; a list, set or map is one level above its deepest item.
    fn primary(&self, p: P) -> R<(Expr, usize)> {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::int => ExprKind::Int(
                p.as_str()
                    .parse()
                    .map_err(|_| Diagnostic::new(span, format!("number `{}` is too large", p.as_str())))?,
            ),
            Rule::string => ExprKind::Str(self.string(p).node),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::none_lit => ExprKind::None,
            Rule::square => ExprKind::Square(p.as_str().to_string()),
            Rule::sident => ExprKind::Ident(p.as_str().to_string()),
            Rule::list_lit => {
                let items: Vec<(Expr, usize)> = p.into_inner().map(|e| self.expr_d(e)).collect::<R<_>>()?;
                let depth = 1 + items.iter().map(|i| i.1).max().unwrap_or(0);
                let kind = ExprKind::List(items.into_iter().map(|i| i.0).collect());
                return Ok((Spanned::new(kind, span), depth));
            }
            Rule::brace_lit => return self.brace(span, p.into_inner()),
            Rule::expr => return self.expr_d(p),
            other => return Err(Diagnostic::new(span, format!("unexpected {other:?} in an expression"))),
        };
        Ok((Spanned::new(kind, span), 1))
    }

    /// `{a, b}` is a set, `{k: v}` a map, `{:}` the empty map, `{}` the empty set.
    fn brace(&self, span: Span, items: Pairs<Rule>) -> R<(Expr, usize)> {
        let (mut set, mut map, mut depth, mut is_map) = (Vec::new(), Vec::new(), 1, false);
        for item in items {
            if item.as_rule() == Rule::empty_map {
                is_map = true;
                continue;
            }
            let mut kv = item.into_inner();
            let (k, dk) = self.expr_d(kv.next().ok_or_else(|| missing(span, "item"))?)?;
            match kv.next() {
                Some(v) => {
                    let (v, dv) = self.expr_d(v)?;
                    depth = depth.max(1 + dk.max(dv));
                    map.push((k, v));
                }
                None => {
                    depth = depth.max(1 + dk);
                    set.push(k);
                }
            }
        }
        let kind = match (set.is_empty(), map.is_empty() && !is_map) {
            (_, true) => ExprKind::Set(set),
            (true, false) => ExprKind::Map(map),
            (false, false) => {
                return Err(Diagnostic::new(span, "this `{...}` mixes map entries (`key: value`) with set items"));
            }
        };
        Ok((Spanned::new(kind, span), depth))
    }
}

fn too_deep_expr(span: Span) -> Diagnostic {
    Diagnostic::new(span, format!("this expression nests deeper than {MAX_EXPR_DEPTH} levels; split it up"))
}
