//! Pest pairs to AST: one `lower_*` function per grammar rule; the only module that sees a `Pair`.

use super::ast::*;
use super::span::{SourceId, Span, Spanned};
use crate::diag::Diagnostic;
use pest::Parser as _;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/preset.pest"]
pub(super) struct PresetParser;

pub(super) type P<'a> = Pair<'a, Rule>;

/// Parse one preset file into its AST.
pub fn parse_preset(src: SourceId, text: &str) -> Result<PresetAst, Diagnostic> {
    if let Some(at) = super::parse_script::too_deep(text) {
        let msg = format!("brackets nest deeper than {} levels here", super::parse_script::MAX_NESTING);
        return Err(Diagnostic::new(Span::new(src, at, at + 1), msg));
    }
    let mut pairs = PresetParser::parse(Rule::preset, text).map_err(|e| syntax_error(src, text, e))?;
    let lower = Lower { src };
    let root = pairs.next().ok_or_else(|| Diagnostic::new(Span::new(src, 0, 0), "empty preset"))?;
    let decls =
        root.into_inner().filter(|p| p.as_rule() != Rule::EOI).map(|p| lower.decl(p)).collect::<Result<_, _>>()?;
    Ok(PresetAst { decls })
}

pub(super) fn syntax_error(src: SourceId, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    // The word found there; at a whitespace character, that character (it may be several bytes: U+0085).
    let first = text[pos..].chars().next().map_or(0, char::len_utf8);
    let end = text[pos..].find(|c: char| c.is_whitespace()).map_or(text.len(), |n| pos + n.max(first));
    let found = text[pos..end].chars().take(20).collect::<String>();
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = if found.is_empty() { "the end of the file".to_string() } else { format!("`{found}`") };
    Diagnostic::new(Span::new(src, pos, end), format!("expected {expected}, found {found}"))
}

/// Friendly names for the rules pest says it expected.
fn describe(rules: &[Rule]) -> String {
    let mut names: Vec<&str> = rules.iter().map(|r| rule_name(*r)).collect();
    names.dedup();
    match names.len() {
        0 => "something else".into(),
        1 => names[0].into(),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}

fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::EOI => "the end of the file",
        Rule::preset | Rule::decl => "a declaration",
        Rule::extends_decl
        | Rule::name_decl
        | Rule::inventor_decl
        | Rule::description_decl
        | Rule::board_decl
        | Rule::colours_decl
        | Rule::side_decl
        | Rule::piece_decl
        | Rule::setup_decl
        | Rule::region_decl
        | Rule::promote_decl
        | Rule::castle_decl
        | Rule::end_decl
        | Rule::remove_decl
        | Rule::safety_decl
        | Rule::state_decl
        | Rule::var_decl
        | Rule::fn_decl
        | Rule::hook_decl
        | Rule::turn_decl
        | Rule::hand_decl
        | Rule::compulsory_decl
        | Rule::drop_decl => "a declaration",
        Rule::not_kw => "`not`",
        Rule::params => "parameter names",
        Rule::hook_point | Rule::every_point | Rule::phase_point | Rule::simple_point | Rule::phase => {
            "a hook (`turn_start`, `before move`, `validate move`, `after move`, `capture`, `turn_end`, `every 2`, `game_end`, `announce`, `setup`)"
        }
        Rule::part_kind | Rule::turn_part => "a part (`move`, `drop`, `remove`, `construct`, `destroy`, `discard`)",
        Rule::block => "a block `{ ... }`",
        Rule::stmt
        | Rule::let_stmt
        | Rule::assign_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::while_stmt
        | Rule::return_stmt
        | Rule::break_stmt
        | Rule::continue_stmt
        | Rule::reject_stmt
        | Rule::win_stmt
        | Rule::draw_stmt
        | Rule::say_stmt
        | Rule::expr_stmt => "a statement",
        Rule::expr
        | Rule::and_expr
        | Rule::not_expr
        | Rule::cmp_expr
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::postfix
        | Rule::primary
        | Rule::list_lit
        | Rule::brace_lit
        | Rule::brace_item
        | Rule::empty_map
        | Rule::true_lit
        | Rule::false_lit
        | Rule::none_lit => "an expression",
        Rule::suffix | Rule::call_args | Rule::field | Rule::index => "`(`, `.` or `[`",
        Rule::or_op | Rule::and_op | Rule::not_op | Rule::neg_op | Rule::add_op | Rule::mul_op => "an operator",
        Rule::cmp_op | Rule::in_op | Rule::not_in => "a comparison",
        Rule::fen_state | Rule::fen_binding => "`name=value`",
        Rule::script_keyword => "a keyword",
        Rule::sident => "a name",
        Rule::on_off => "`on` or `off`",
        Rule::shade => "`light` or `dark`",
        Rule::side_name => "`white` or `black`",
        Rule::direction => "`up`, `down`, `left` or `right`",
        Rule::piece_attr
        | Rule::value_attr
        | Rule::royal_attr
        | Rule::moves_attr
        | Rule::range_attr
        | Rule::word_value
        | Rule::word_moves
        | Rule::word_range => "a piece attribute",
        Rule::region_item | Rule::rank_item | Rule::squares_item => "`rank N` or squares",
        Rule::optional_kw => "`optional`",
        Rule::hand_choice | Rule::hand_kw => "`hand`",
        Rule::hand_end => "`first` or `last`",
        Rule::else_kw => "`else`",
        Rule::if_possible_kw => "`if_possible`",
        Rule::end_cond
        | Rule::checkmate
        | Rule::stalemate
        | Rule::repetition
        | Rule::move_limit
        | Rule::insufficient
        | Rule::reach
        | Rule::extinction
        | Rule::all_kw
        | Rule::by_kw => "an end condition",
        Rule::material | Rule::material_item | Rule::none_kw | Rule::plus | Rule::same_colour => "a material pattern",
        Rule::outcome => "`wins`, `loses` or `draws`",
        Rule::remove_what
        | Rule::remove_piece
        | Rule::remove_castling
        | Rule::remove_promotion
        | Rule::remove_end
        | Rule::end_kind => "what to remove",
        Rule::keyword => "a keyword",
        Rule::ident | Rule::ident_char => "a name",
        Rule::label => "a label",
        Rule::square => "a square",
        Rule::int => "a number",
        Rule::string | Rule::string_body => "a string",
        Rule::WHITESPACE | Rule::COMMENT => "white space",
    }
}

pub(super) struct Lower {
    pub(super) src: SourceId,
}

impl Lower {
    pub(super) fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.src, s.start(), s.end())
    }

    pub(super) fn name(&self, p: P) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    /// A string literal: the unescaped text, spanned by the text inside the quotes.
    pub(super) fn string(&self, p: P) -> Name {
        let body = p.into_inner().next();
        match body {
            Some(b) => Spanned::new(unescape(b.as_str()), self.span(&b)),
            None => Spanned::new(String::new(), Span::default()),
        }
    }

    pub(super) fn int(&self, p: P) -> Result<Spanned<u32>, Diagnostic> {
        let span = self.span(&p);
        p.as_str()
            .parse()
            .map(|n| Spanned::new(n, span))
            .map_err(|_| Diagnostic::new(span, format!("number `{}` is too large", p.as_str())))
    }

    fn decl(&self, p: P) -> Result<Decl, Diagnostic> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let mut next = || it.next().ok_or_else(|| Diagnostic::new(span, "incomplete declaration"));
        Ok(match rule {
            Rule::extends_decl => Decl::Extends(self.string(next()?)),
            Rule::name_decl => Decl::Name(self.string(next()?)),
            Rule::inventor_decl => Decl::Inventor(self.string(next()?)),
            Rule::description_decl => Decl::Description(self.string(next()?)),
            Rule::board_decl => Decl::Board { files: self.int(next()?)?, ranks: self.int(next()?)? },
            Rule::colours_decl => {
                let square = self.name(next()?);
                let shade = if next()?.as_str() == "light" { Shade::Light } else { Shade::Dark };
                Decl::Colours { square, shade }
            }
            Rule::side_decl => {
                let white = next()?.as_str() == "white";
                let dir = match next()?.as_str() {
                    "up" => Direction::Up,
                    "down" => Direction::Down,
                    "left" => Direction::Left,
                    _ => Direction::Right,
                };
                Decl::Side { white, dir, span }
            }
            Rule::piece_decl => Decl::Piece(self.piece(span, it)?),
            Rule::setup_decl => Decl::Setup(self.string(next()?)),
            Rule::region_decl => Decl::Region(self.region(span, it)?),
            Rule::promote_decl => Decl::Promote(self.promote(span, it)?),
            Rule::castle_decl => Decl::Castle(self.castle(span, it)?),
            Rule::end_decl => Decl::End(self.end(span, it)?),
            Rule::remove_decl => Decl::Remove(self.remove(next()?)?),
            Rule::safety_decl => Decl::RoyalSafety(next()?.as_str() == "on"),
            Rule::state_decl | Rule::var_decl => Decl::Var(self.var(rule == Rule::state_decl, it)?),
            Rule::fn_decl => Decl::Fn(self.func(span, it)?),
            Rule::hook_decl => Decl::Hook(self.hook(span, it)?),
            Rule::turn_decl => Decl::Turn(it.map(|p| self.turn_part(p)).collect::<Result<_, _>>()?, span),
            Rule::hand_decl => Decl::CapturesToHand(span),
            Rule::compulsory_decl => Decl::CapturesCompulsory(span),
            Rule::drop_decl => {
                let piece = self.name(next()?);
                let mut region = next()?;
                let negate = region.as_rule() == Rule::not_kw;
                if negate {
                    region = next()?;
                }
                Decl::DropZone { piece, negate, region: self.name(region) }
            }
            other => return Err(Diagnostic::new(span, format!("unexpected {}", rule_name(other)))),
        })
    }

    fn piece(&self, span: Span, mut it: pest::iterators::Pairs<Rule>) -> Result<PieceDecl, Diagnostic> {
        let missing = || Diagnostic::new(span, "incomplete piece declaration");
        let name = self.name(it.next().ok_or_else(missing)?);
        let label = self.name(it.next().ok_or_else(missing)?);
        let mut decl = PieceDecl { name, label, value: None, royal: false, moves: None, range: None };
        for attr in it {
            match attr.as_rule() {
                Rule::value_attr => decl.value = Some(self.int(attr.into_inner().next().ok_or_else(missing)?)?),
                Rule::royal_attr => decl.royal = true,
                Rule::moves_attr => decl.moves = Some(self.string(attr.into_inner().next().ok_or_else(missing)?)),
                Rule::range_attr => decl.range = Some(self.name(attr.into_inner().next().ok_or_else(missing)?)),
                _ => return Err(Diagnostic::new(self.span(&attr), "unknown piece attribute")),
            }
        }
        Ok(decl)
    }

    fn region(&self, span: Span, mut it: pest::iterators::Pairs<Rule>) -> Result<RegionDecl, Diagnostic> {
        let name = self.name(it.next().ok_or_else(|| Diagnostic::new(span, "region needs a name"))?);
        let mut items = Vec::new();
        for item in it {
            items.push(match item.as_rule() {
                Rule::rank_item => {
                    let n = item.into_inner().next().ok_or_else(|| Diagnostic::new(span, "rank needs a number"))?;
                    RegionItem::Rank(self.int(n)?)
                }
                _ => RegionItem::Squares(item.into_inner().map(|s| self.name(s)).collect()),
            });
        }
        Ok(RegionDecl { name, items })
    }

    fn promote(&self, span: Span, it: pest::iterators::Pairs<Rule>) -> Result<PromoteDecl, Diagnostic> {
        let mut names = Vec::new();
        let mut optional = false;
        let mut hand = None;
        for p in it {
            match p.as_rule() {
                Rule::optional_kw => optional = true,
                Rule::hand_choice => {
                    hand = Some(HandPick::Any);
                    for q in p.into_inner() {
                        match (q.as_rule(), q.as_str()) {
                            (Rule::hand_end, "first") => hand = Some(HandPick::First),
                            (Rule::hand_end, _) => hand = Some(HandPick::Last),
                            (Rule::ident, _) => names.push(self.name(q)),
                            _ => {}
                        }
                    }
                }
                _ => names.push(self.name(p)),
            }
        }
        if names.len() < 3 && hand.is_none() {
            return Err(Diagnostic::new(span, "promote needs a piece, a region and at least one choice"));
        }
        let choices = names.split_off(2.min(names.len()));
        let region = names.pop().unwrap_or_else(|| Spanned::new(String::new(), span));
        let piece = names.pop().unwrap_or_else(|| Spanned::new(String::new(), span));
        Ok(PromoteDecl { piece, region, choices, optional, hand })
    }

    fn castle(&self, span: Span, it: pest::iterators::Pairs<Rule>) -> Result<CastleDecl, Diagnostic> {
        let mut parts: Vec<P> = it.collect();
        let flag = match (parts.len(), parts.pop()) {
            (7, Some(flag)) => self.string(flag),
            _ => return Err(Diagnostic::new(span, "castle needs: label from-to label from-to \"flag\"")),
        };
        let [king, king_from, king_to, rook, rook_from, rook_to] = six_names(self, parts);
        Ok(CastleDecl { king, king_from, king_to, rook, rook_from, rook_to, flag, span })
    }

    fn end(&self, span: Span, it: pest::iterators::Pairs<Rule>) -> Result<EndDecl, Diagnostic> {
        let mut cond = None;
        let mut outcome = Outcome::Draws;
        for p in it {
            match p.as_rule() {
                Rule::checkmate => cond = Some(EndCond::Checkmate),
                Rule::stalemate => cond = Some(EndCond::Stalemate),
                Rule::repetition => cond = Some(EndCond::Repetition(self.first_int(span, p)?)),
                Rule::move_limit => cond = Some(EndCond::MoveLimit(self.first_int(span, p)?)),
                Rule::insufficient => {
                    cond = Some(EndCond::Insufficient(p.into_inner().map(|m| self.material(m)).collect()))
                }
                Rule::reach => {
                    let mut names = p.into_inner().filter(|i| i.as_rule() == Rule::ident).map(|i| self.name(i));
                    let region = names.next().ok_or_else(|| Diagnostic::new(span, "reach needs a region"))?;
                    cond = Some(EndCond::Reach(region, names.collect()))
                }
                Rule::extinction => {
                    let items: Vec<_> = p.into_inner().collect();
                    let all = items.iter().any(|i| i.as_rule() == Rule::all_kw);
                    let kinds =
                        items.into_iter().filter(|i| i.as_rule() == Rule::ident).map(|i| self.name(i)).collect();
                    cond = Some(EndCond::Extinction((!all).then_some(kinds)))
                }
                Rule::outcome => {
                    outcome = match p.as_str() {
                        "wins" => Outcome::Wins,
                        "loses" => Outcome::Loses,
                        _ => Outcome::Draws,
                    }
                }
                _ => return Err(Diagnostic::new(self.span(&p), "unexpected token in end condition")),
            }
        }
        let cond = cond.ok_or_else(|| Diagnostic::new(span, "end needs a condition"))?;
        Ok(EndDecl { cond, outcome, span })
    }

    fn first_int(&self, span: Span, p: P) -> Result<Spanned<u32>, Diagnostic> {
        let n = p.into_inner().next().ok_or_else(|| Diagnostic::new(span, "expected a number"))?;
        self.int(n)
    }

    fn material(&self, p: P) -> MaterialPattern {
        let mut pat = MaterialPattern { items: Vec::new(), same_colour: false };
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::material_item => {
                    let mut inner = q.into_inner();
                    if let Some(label) = inner.next() {
                        pat.items.push(MaterialItem { label: self.name(label), many: inner.next().is_some() });
                    }
                }
                Rule::same_colour => pat.same_colour = true,
                _ => {}
            }
        }
        pat
    }

    fn remove(&self, p: P) -> Result<RemoveDecl, Diagnostic> {
        let span = self.span(&p);
        let rule = p.as_rule();
        if rule == Rule::remove_castling {
            return Ok(RemoveDecl::Castling(span));
        }
        let first = p.into_inner().next().ok_or_else(|| Diagnostic::new(span, "remove needs a name"))?;
        Ok(match rule {
            Rule::remove_piece => RemoveDecl::Piece(self.name(first)),
            Rule::remove_promotion => RemoveDecl::Promotion(self.name(first)),
            _ => {
                let kind = match first.as_str() {
                    "checkmate" => EndKind::Checkmate,
                    "stalemate" => EndKind::Stalemate,
                    "repetition" => EndKind::Repetition,
                    "moves" => EndKind::MoveLimit,
                    "reach" => EndKind::Reach,
                    "extinction" => EndKind::Extinction,
                    _ => EndKind::Insufficient,
                };
                RemoveDecl::End(kind, span)
            }
        })
    }
}

/// The six names of a castle declaration; the grammar guarantees there are six.
fn six_names(l: &Lower, parts: Vec<P<'_>>) -> [Name; 6] {
    let mut it = parts.into_iter().map(|p| l.name(p));
    std::array::from_fn(|_| it.next().unwrap_or_else(|| Spanned::new(String::new(), Span::default())))
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}
