//! The AST of rule scripts: functions, hooks, turn structure, statements and expressions.

use super::span::{Span, Spanned};

pub type Name = Spanned<String>;
pub type Expr = Spanned<ExprKind>;
pub type Stmt = Spanned<StmtKind>;
pub type Block = Vec<Stmt>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PartKind {
    Move,
    Drop,
    Remove,
    Construct,
    Destroy,
    /// `@*Q`: a piece taken out of the mover's hand (a sacrifice from hand).
    Discard,
}

impl PartKind {
    pub const ALL: [PartKind; 6] =
        [PartKind::Move, PartKind::Drop, PartKind::Remove, PartKind::Construct, PartKind::Destroy, PartKind::Discard];

    pub fn word(self) -> &'static str {
        match self {
            PartKind::Move => "move",
            PartKind::Drop => "drop",
            PartKind::Remove => "remove",
            PartKind::Construct => "construct",
            PartKind::Destroy => "destroy",
            PartKind::Discard => "discard",
        }
    }

    pub fn from_word(w: &str) -> Option<PartKind> {
        PartKind::ALL.into_iter().find(|k| k.word() == w)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Once, before the candidates of a part are generated.
    Before,
    /// For each candidate, applied tentatively: `reject` refuses it.
    Validate,
    /// After a part is accepted.
    After,
}

/// Where in a turn a hook runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HookPoint {
    TurnStart,
    Part(Phase, PartKind),
    Capture,
    TurnEnd,
    /// On turns whose number is `offset` modulo `n` (turn 1 is White's first).
    Every {
        n: u32,
        offset: u32,
    },
    GameEnd,
    /// After a turn has been played for real (not while turns are generated): for messages.
    Announce,
    /// Once, when a game starts from the preset's setup: may draw a random setup.
    Setup,
}

impl HookPoint {
    pub fn describe(&self) -> String {
        match self {
            HookPoint::TurnStart => "on turn_start".into(),
            HookPoint::Part(ph, k) => {
                let p = match ph {
                    Phase::Before => "before",
                    Phase::Validate => "validate",
                    Phase::After => "after",
                };
                format!("on {p} {}", k.word())
            }
            HookPoint::Capture => "on capture".into(),
            HookPoint::TurnEnd => "on turn_end".into(),
            HookPoint::Every { n, offset } => format!("on every {n} offset {offset}"),
            HookPoint::GameEnd => "on game_end".into(),
            HookPoint::Setup => "on setup".into(),
            HookPoint::Announce => "on announce".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: Name,
    pub init: Expr,
    /// `state` (part of the position) rather than `var` (scratch for one turn).
    pub state: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    pub name: Name,
    pub params: Vec<Name>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HookDecl {
    pub point: HookPoint,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TurnPartDecl {
    pub optional: bool,
    /// Required when it has a candidate, left out when it has none.
    pub if_possible: bool,
    /// The kinds of part that may stand here (`move or drop`), at least one.
    pub kinds: Vec<PartKind>,
    /// Where the candidates come from (squares), when not the default.
    pub from: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Str(String),
    Bool(bool),
    None,
    Square(String),
    Ident(String),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Name, Vec<Expr>),
    Field(Box<Expr>, Name),
    Index(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Let(Name, Expr),
    Assign(Name, Expr),
    /// Branches in order; the last block is the `else`.
    If(Vec<(Expr, Block)>, Option<Block>),
    For(Name, Expr, Block),
    While(Expr, Block),
    Return(Option<Expr>),
    Break,
    Continue,
    Reject(Expr),
    Win(Expr, Expr),
    Draw(Expr),
    Say(Expr),
    Expr(Expr),
}
