//! Script values: small, cheap to clone (collections are shared), ordered and hashable so that
//! sets, maps and the position hash can hold them.

use crate::engine::board::{Sq, cell};
use crate::engine::side::Side;
use crate::syntax::script::PartKind;
use std::sync::Arc;

/// One part of a turn as scripts see it: what moved where, what it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartVal {
    pub kind: PartKind,
    /// The square a piece left (moves), or 0.
    pub from: Sq,
    /// The square acted on: a move's destination, a drop's, a removed or constructed square.
    pub to: Sq,
    /// The piece that moved, was dropped or was removed (cell code), or 0.
    pub piece: u8,
    /// The piece captured by a move (cell code), or 0.
    pub captured: u8,
    /// Where the captured piece stood (differs from `to` for en passant), or 0.
    pub captured_on: Sq,
    /// The piece a move promoted to, or 0.
    pub promo: u8,
    /// For castling: the rook's squares.
    pub rook: Option<(Sq, Sq)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    Str(Arc<str>),
    Square(Sq),
    /// A piece: kind and side, as a cell code.
    Piece(u8),
    /// A kind of piece, by index.
    Kind(u8),
    Side(Side),
    List(Arc<Vec<Value>>),
    /// Sorted, without duplicates.
    Set(Arc<Vec<Value>>),
    /// Sorted by key, keys unique.
    Map(Arc<Vec<(Value, Value)>>),
    Part(PartVal),
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Str(_) => "a string",
            Value::Square(_) => "a square",
            Value::Piece(_) => "a piece",
            Value::Kind(_) => "a kind of piece",
            Value::Side(_) => "a side",
            Value::List(_) => "a list",
            Value::Set(_) => "a set",
            Value::Map(_) => "a map",
            Value::Part(_) => "a turn part",
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            Value::None | Value::Bool(false) | Value::Int(0) => false,
            Value::Str(s) => !s.is_empty(),
            Value::List(v) | Value::Set(v) => !v.is_empty(),
            Value::Map(m) => !m.is_empty(),
            _ => true,
        }
    }

    pub fn set_of(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(Arc::new(items))
    }

    pub fn map_of(mut items: Vec<(Value, Value)>) -> Value {
        // Later entries win, as when assigning one key after another.
        items.reverse();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        items.dedup_by(|a, b| a.0 == b.0);
        Value::Map(Arc::new(items))
    }

    /// How many elements it holds (1 for a scalar): what the memory budget counts.
    pub fn weight(&self) -> usize {
        self.weight_within(usize::MAX)
    }

    /// The weight, counting what nested collections hold too (`l = [l, l]` doubles it although
    /// it shares its parts), walked without recursion and only until it reaches `cap`.
    pub fn weight_within(&self, cap: usize) -> usize {
        // Scalars and flat collections, the common case, without the walk's stack.
        match self {
            // Folded without a branch per item: lists of scalars are by far the most common.
            Value::List(items) | Value::Set(items) if !items.iter().fold(false, |any, x| any | x.is_compound()) => {
                return items.len() + 1;
            }
            Value::Map(_) | Value::List(_) | Value::Set(_) => {}
            Value::Str(s) => return s.len() / 8 + 1,
            _ => return 1,
        }
        let mut total = 0usize;
        let mut todo = vec![self];
        while let Some(v) = todo.pop() {
            total = total.saturating_add(match v {
                Value::List(items) | Value::Set(items) => {
                    todo.extend(items.iter().filter(|x| x.is_compound()));
                    items.len() + 1
                }
                Value::Map(m) => {
                    todo.extend(m.iter().flat_map(|(k, x)| [k, x]).filter(|x| x.is_compound()));
                    2 * m.len() + 1
                }
                Value::Str(s) => s.len() / 8 + 1,
                _ => 1,
            });
            if total >= cap {
                break;
            }
        }
        total
    }

    pub(crate) fn is_compound(&self) -> bool {
        matches!(self, Value::List(_) | Value::Set(_) | Value::Map(_) | Value::Str(_))
    }

    /// A copy, made inline for a scalar (the out-of-line `clone` is called for the others): the
    /// interpreter copies a local or a loop item for nearly every operand.
    #[inline(always)]
    pub fn dup(&self) -> Value {
        match *self {
            Value::None => Value::None,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::Square(s) => Value::Square(s),
            Value::Piece(c) => Value::Piece(c),
            Value::Kind(k) => Value::Kind(k),
            Value::Side(s) => Value::Side(s),
            Value::Part(p) => Value::Part(p),
            Value::Str(_) | Value::List(_) | Value::Set(_) | Value::Map(_) => self.clone(),
        }
    }

    /// `==`, with scalars and shared or differently sized collections decided inline: variables
    /// are compared with their old or initial values at every turn.
    #[inline(always)]
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Square(a), Value::Square(b)) => a == b,
            (Value::List(a), Value::List(b)) | (Value::Set(a), Value::Set(b)) => {
                Arc::ptr_eq(a, b) || (a.len() == b.len() && a == b)
            }
            (Value::Map(a), Value::Map(b)) => Arc::ptr_eq(a, b) || (a.len() == b.len() && a == b),
            _ => self == other,
        }
    }

    /// Whether storing `self` over `old` is decided without reading either through: the same
    /// shared collection, or an empty one (compared and digested at once).
    #[inline(always)]
    pub fn trivially_same(&self, old: &Value) -> bool {
        match (self, old) {
            (Value::List(a), Value::List(b)) | (Value::Set(a), Value::Set(b)) => a.is_empty() || Arc::ptr_eq(a, b),
            (Value::List(a) | Value::Set(a), _) => a.is_empty(),
            _ => false,
        }
    }

    /// Whether it is true, consuming it: a scalar (the usual result of a test) is let go without
    /// the out-of-line drop call a `Value` otherwise gets.
    #[inline(always)]
    pub fn into_truth(self) -> bool {
        let t = self.truthy();
        self.discard();
        t
    }

    /// Let go of a value; only collections and strings hold anything to free (`is_compound` names
    /// every variant that owns memory: a variant added with some must be added there).
    #[inline(always)]
    pub fn discard(self) {
        if self.is_compound() {
            drop(self);
        } else {
            std::mem::forget(self);
        }
    }

    /// A 64-bit digest, the same on every run (no random hasher state).
    pub fn digest(&self) -> u64 {
        fn mix(h: u64, x: u64) -> u64 {
            let mut z = (h ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        match self {
            Value::None => mix(0, 0),
            Value::Bool(b) => mix(1, *b as u64),
            Value::Int(i) => mix(2, *i as u64),
            Value::Str(s) => s.bytes().fold(mix(3, s.len() as u64), |h, b| mix(h, b as u64)),
            Value::Square(s) => mix(4, s.idx() as u64),
            Value::Piece(c) => mix(5, *c as u64),
            Value::Kind(k) => mix(6, *k as u64),
            Value::Side(s) => mix(7, s.index() as u64),
            Value::List(v) => v.iter().fold(mix(8, v.len() as u64), |h, x| mix(h, x.digest())),
            Value::Set(v) => v.iter().fold(mix(9, v.len() as u64), |h, x| mix(h, x.digest())),
            Value::Map(m) => m.iter().fold(mix(10, m.len() as u64), |h, (k, v)| mix(mix(h, k.digest()), v.digest())),
            Value::Part(p) => mix(
                mix(mix(11, p.kind as u64), (p.from.idx() as u64) << 16 | p.to.idx() as u64),
                (p.piece as u64) << 16 | (p.captured as u64) << 8 | p.promo as u64,
            ),
        }
    }

    /// The value as a script literal (what `say`, `eval` and the FEN state field show); parses back.
    pub fn show(&self, names: &dyn Names) -> String {
        let list = |v: &[Value]| v.iter().map(|x| x.show(names)).collect::<Vec<_>>().join(",");
        match self {
            Value::None => "none".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Str(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
            Value::Square(s) => names.square_name(*s),
            Value::Piece(c) => format!("piece_of({},{})", names.kind_name(cell::kind(*c)), cell::side(*c)),
            Value::Kind(k) => names.kind_name(*k as usize).to_string(),
            Value::Side(s) => s.to_string(),
            Value::List(v) => format!("[{}]", list(v)),
            Value::Set(v) => format!("{{{}}}", list(v)),
            Value::Map(m) if m.is_empty() => "{:}".into(),
            Value::Map(m) => {
                let items: Vec<String> =
                    m.iter().map(|(k, v)| format!("{}:{}", k.show(names), v.show(names))).collect();
                format!("{{{}}}", items.join(","))
            }
            Value::Part(p) => {
                let label = |c: u8| if c == 0 { "@".to_string() } else { names.label(c).to_string() };
                match p.kind {
                    PartKind::Move => {
                        format!("\"{} {}-{}\"", label(p.piece), names.square_name(p.from), names.square_name(p.to))
                    }
                    PartKind::Drop => format!("\"{}*{}\"", label(p.piece), names.square_name(p.to)),
                    PartKind::Remove | PartKind::Construct => format!("\"@-{}\"", names.square_name(p.to)),
                    PartKind::Destroy => format!("\"-{}\"", names.square_name(p.to)),
                    PartKind::Discard => format!("\"@*{}\"", label(p.piece)),
                }
            }
        }
    }

    /// [`Value::display`], given up once the text is longer than `cap` bytes (`None`): a value
    /// within the memory budget may still show as far more text (long kind names, many times).
    pub fn display_within(&self, names: &dyn Names, cap: usize) -> Option<String> {
        let mut out = String::new();
        match self {
            Value::Str(s) => out.push_str(s),
            other => other.show_into(names, &mut out, cap)?,
        }
        (out.len() <= cap).then_some(out)
    }

    /// [`Value::show`] appended to `out`, stopping (`None`) once `out` is longer than `cap`.
    fn show_into(&self, names: &dyn Names, out: &mut String, cap: usize) -> Option<()> {
        let items = |v: &[Value], out: &mut String| {
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                x.show_into(names, out, cap)?;
            }
            Some(())
        };
        match self {
            Value::List(v) => {
                out.push('[');
                items(v, out)?;
                out.push(']');
            }
            Value::Set(v) => {
                out.push('{');
                items(v, out)?;
                out.push('}');
            }
            Value::Map(m) if !m.is_empty() => {
                out.push('{');
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    k.show_into(names, out, cap)?;
                    out.push(':');
                    x.show_into(names, out, cap)?;
                }
                out.push('}');
            }
            scalar => out.push_str(&scalar.show(names)),
        }
        (out.len() <= cap).then_some(())
    }

    /// The text `say` prints: strings bare, everything else as a literal.
    pub fn display(&self, names: &dyn Names) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            other => other.show(names),
        }
    }
}

/// The names a value is shown with: squares, kinds and piece labels. The preset gives them; values
/// sit below the preset, so they ask through this.
pub trait Names {
    fn square_name(&self, sq: Sq) -> String;
    fn kind_name(&self, kind: usize) -> &str;
    /// A piece's label, as in FEN.
    fn label(&self, code: u8) -> &str;
}

impl<N: Names + ?Sized> Names for std::sync::Arc<N> {
    fn square_name(&self, sq: Sq) -> String {
        (**self).square_name(sq)
    }
    fn kind_name(&self, kind: usize) -> &str {
        (**self).kind_name(kind)
    }
    fn label(&self, code: u8) -> &str {
        (**self).label(code)
    }
}
