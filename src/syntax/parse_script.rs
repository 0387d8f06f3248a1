//! Pest pairs to the script AST: functions, hooks, turn parts, statements and expressions.

use super::parse::{Lower, P, PresetParser, Rule, syntax_error};
use super::script::*;
use super::span::{SourceId, Span, Spanned};
use crate::diag::Diagnostic;
use pest::Parser as _;
use pest::iterators::Pairs;

type R<T> = Result<T, Diagnostic>;

/// Deepest bracket nesting accepted in one source text: deeper input is refused before the
/// recursive-descent parser could exhaust the stack.
pub const MAX_NESTING: usize = 100;

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

/// Parse a FEN state field `{name=value,...}` into its bindings.
pub fn parse_fen_state(src: SourceId, text: &str) -> R<Vec<(Name, Expr)>> {
    if let Some(at) = too_deep(text) {
        return Err(Diagnostic::new(Span::new(src, at, at + 1), format!("nested deeper than {MAX_NESTING} levels")));
    }
    let mut pairs = PresetParser::parse(Rule::fen_state, text).map_err(|e| syntax_error(src, text, e))?;
    let l = Lower { src };
    let root = pairs.next().ok_or_else(|| Diagnostic::new(Span::new(src, 0, 0), "empty state"))?;
    root.into_inner()
        .filter(|p| p.as_rule() == Rule::fen_binding)
        .map(|p| {
            let span = l.span(&p);
            let mut it = p.into_inner();
            let name = l.name(it.next().ok_or_else(|| Diagnostic::new(span, "missing name"))?);
            let value = l.expr(it.next().ok_or_else(|| Diagnostic::new(span, "missing value"))?)?;
            Ok((name, value))
        })
        .collect()
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
                let phase = match w.next().map(|p| p.as_str()) {
                    Some("before") => Phase::Before,
                    Some("validate") => Phase::Validate,
                    _ => Phase::After,
                };
                let kind =
                    w.next().and_then(|p| PartKind::from_word(p.as_str())).ok_or_else(|| missing(span, "hook"))?;
                HookPoint::Part(phase, kind)
            }
            _ => match point.as_str() {
                "turn_start" => HookPoint::TurnStart,
                "turn_end" => HookPoint::TurnEnd,
                "capture" => HookPoint::Capture,
                "announce" => HookPoint::Announce,
                _ => HookPoint::GameEnd,
            },
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
                Rule::part_kind => kinds.extend(PartKind::from_word(q.as_str())),
                Rule::or_op => {}
                _ => from = Some(self.expr(q)?),
            }
        }
        if kinds.is_empty() {
            return Err(missing(span, "turn part"));
        }
        Ok(TurnPartDecl { optional, if_possible, kinds, from, span })
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
            _ => StmtKind::Expr(self.expr(next()?)?),
        };
        Ok(Spanned::new(kind, span))
    }

    /// `if a { } else if b { } else { }` flattened into branches and an optional last block.
    fn if_chain(&self, span: Span, mut it: Pairs<Rule>) -> R<IfChain> {
        let cond = self.expr(it.next().ok_or_else(|| missing(span, "if"))?)?;
        let body = self.block(it.next().ok_or_else(|| missing(span, "if"))?)?;
        let mut branches = vec![(cond, body)];
        let otherwise = match it.next() {
            None => None,
            Some(p) if p.as_rule() == Rule::if_stmt => {
                let inner_span = self.span(&p);
                let (more, last) = self.if_chain(inner_span, p.into_inner())?;
                branches.extend(more);
                last
            }
            Some(p) => Some(self.block(p)?),
        };
        Ok((branches, otherwise))
    }

    pub(super) fn expr(&self, p: P) -> R<Expr> {
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
                        inner = Some(self.expr(q)?);
                    }
                }
                let mut e = inner.ok_or_else(|| missing(span, "expression"))?;
                for _ in 0..nots {
                    e = Spanned::new(ExprKind::Not(Box::new(e)), span);
                }
                Ok(e)
            }
            Rule::cmp_expr => self.left_assoc(span, p.into_inner()),
            Rule::unary => {
                let mut negs = 0;
                let mut inner = None;
                for q in p.into_inner() {
                    if q.as_rule() == Rule::neg_op {
                        negs += 1;
                    } else {
                        inner = Some(self.expr(q)?);
                    }
                }
                let mut e = inner.ok_or_else(|| missing(span, "expression"))?;
                for _ in 0..negs {
                    e = Spanned::new(ExprKind::Neg(Box::new(e)), span);
                }
                Ok(e)
            }
            Rule::postfix => self.postfix(p),
            _ => self.primary(p),
        }
    }

    fn left_assoc(&self, span: Span, mut it: Pairs<Rule>) -> R<Expr> {
        let mut left = self.expr(it.next().ok_or_else(|| missing(span, "expression"))?)?;
        while let Some(op) = it.next() {
            let op = match op.as_str().split_whitespace().collect::<Vec<_>>().join(" ").as_str() {
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                "%" => BinOp::Rem,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                "in" => BinOp::In,
                "not in" => BinOp::NotIn,
                "and" => BinOp::And,
                _ => BinOp::Or,
            };
            let right = self.expr(it.next().ok_or_else(|| missing(span, "expression"))?)?;
            let s = Span { end: right.span.end, ..left.span };
            left = Spanned::new(ExprKind::Binary(op, Box::new(left), Box::new(right)), s);
        }
        Ok(left)
    }

    fn postfix(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let mut e = self.expr(it.next().ok_or_else(|| missing(span, "expression"))?)?;
        for suffix in it {
            let s = Span { end: self.span(&suffix).end, ..e.span };
            e = match suffix.as_rule() {
                Rule::call_args => {
                    let ExprKind::Ident(name) = &e.node else {
                        return Err(Diagnostic::new(e.span, "only a function name can be called"));
                    };
                    let name = Spanned::new(name.clone(), e.span);
                    let args = suffix.into_inner().map(|a| self.expr(a)).collect::<R<_>>()?;
                    Spanned::new(ExprKind::Call(name, args), s)
                }
                Rule::field => {
                    let f = self.name(suffix.into_inner().next().ok_or_else(|| missing(s, "field"))?);
                    Spanned::new(ExprKind::Field(Box::new(e), f), s)
                }
                _ => {
                    let i = self.expr(suffix.into_inner().next().ok_or_else(|| missing(s, "index"))?)?;
                    Spanned::new(ExprKind::Index(Box::new(e), Box::new(i)), s)
                }
            };
        }
        Ok(e)
    }

    fn primary(&self, p: P) -> R<Expr> {
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
            Rule::list_lit => ExprKind::List(p.into_inner().map(|e| self.expr(e)).collect::<R<_>>()?),
            Rule::set_lit => ExprKind::Set(p.into_inner().map(|e| self.expr(e)).collect::<R<_>>()?),
            Rule::map_lit => ExprKind::Map(
                p.into_inner()
                    .map(|entry| {
                        let es = self.span(&entry);
                        let mut kv = entry.into_inner();
                        let k = self.expr(kv.next().ok_or_else(|| missing(es, "map entry"))?)?;
                        let v = self.expr(kv.next().ok_or_else(|| missing(es, "map entry"))?)?;
                        Ok((k, v))
                    })
                    .collect::<R<_>>()?,
            ),
            Rule::expr => return self.expr(p),
            other => return Err(Diagnostic::new(span, format!("unexpected {other:?} in an expression"))),
        };
        Ok(Spanned::new(kind, span))
    }
}
