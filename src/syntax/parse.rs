//! Pest pairs to AST: one `lower_*` function per grammar rule; the only module that sees a `Pair`.

use super::ast::*;
use super::grammar::{Lower, P, PresetParser, Rule, unexpected};
use super::keywords::*;
use super::script::Expr;
use super::span::{SourceId, Span, Spanned};
use crate::diag::Diagnostic;
use pest::Parser as _;

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

/// The words that begin a declaration, for "did you mean" after a misspelt one.
const DECL_KEYWORDS: &[&str] = &[
    "extends",
    "name",
    "inventor",
    "description",
    "board",
    "colours",
    "side",
    "piece",
    "setup",
    "region",
    "promote",
    "castle",
    "end",
    "remove",
    "royal_safety",
    "state",
    "var",
    "fn",
    "on",
    "turn",
    "captures",
    "drop",
    "immobility",
    "gating",
    "fen_unmoved",
    "frozen_in_check",
    "facing",
    "en_passant",
    "checks",
    "drops",
];

/// The most syntax errors reported from one file before giving up.
const MAX_SYNTAX_ERRORS: usize = 20;

/// What a parse that goes on after syntax errors found.
pub struct Recovered {
    /// The declarations that parsed (none skipped when there was no error).
    pub ast: PresetAst,
    pub diagnostics: Vec<Diagnostic>,
    /// The words of the skipped text: a later error about one of them (`unknown piece `Knight``
    /// after `peice Knight ...` was skipped) follows from the syntax error and is not reported.
    pub skipped_words: Vec<String>,
}

/// Parse a preset, going on after a syntax error: the declaration holding it is skipped, from the
/// line that begins it to the next line that begins a declaration (a line starting with a letter
/// in its first column), and the rest is parsed again. Skipped text becomes spaces, so every span
/// still points into the file as written.
pub fn parse_preset_recovering(src: SourceId, text: &str) -> Recovered {
    let mut work = text.to_string();
    let mut diagnostics = Vec::new();
    let mut skipped_words = Vec::new();
    loop {
        let err = match parse_preset(src, &work) {
            Ok(ast) => return Recovered { ast, diagnostics, skipped_words },
            Err(e) => e,
        };
        let at = (err.span.start as usize).min(work.len());
        diagnostics.push(with_keyword_hint(err, &work));
        let (from, to) = declaration_around(&work, at);
        // Nothing left to skip (the error is in text already skipped): stop rather than loop.
        if work[from..to].trim().is_empty() || diagnostics.len() >= MAX_SYNTAX_ERRORS {
            return Recovered { ast: PresetAst { decls: Vec::new() }, diagnostics, skipped_words };
        }
        skipped_words.extend(
            work[from..to]
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_string),
        );
        // Multi-byte characters become as many spaces as they had bytes, so offsets do not move.
        let blank: String = work[from..to]
            .chars()
            .map(|c| if c == '\n' { "\n".to_string() } else { " ".repeat(c.len_utf8()) })
            .collect();
        work.replace_range(from..to, &blank);
    }
}

/// The byte range of the declaration holding `at`: from the start of the last line at or before
/// it that begins with a letter, to the start of the next such line after it (or the end). An error
/// at the start of a line whose declaration parses on its own is the previous declaration's: it
/// stopped short (`board 8 x` before `piece ...`).
fn declaration_around(text: &str, at: usize) -> (usize, usize) {
    let starts_decl = |line_start: usize| text[line_start..].starts_with(|c: char| c.is_ascii_alphabetic());
    let line_of_at = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let next_decl = |from: usize| {
        let mut next = text[from..].find('\n').map(|n| from + n + 1);
        while let Some(line) = next {
            if starts_decl(line) {
                return line;
            }
            next = text[line..].find('\n').map(|n| line + n + 1);
        }
        text.len()
    };
    let sound = |from: usize| PresetParser::parse(Rule::preset, &text[from..next_decl(from)]).is_ok();
    if at == line_of_at && line_of_at > 0 && sound(at) {
        let mut from = text[..line_of_at - 1].rfind('\n').map_or(0, |n| n + 1);
        while from > 0 && !starts_decl(from) {
            from = text[..from - 1].rfind('\n').map_or(0, |n| n + 1);
        }
        return (from, line_of_at);
    }
    let mut from = line_of_at;
    while from > 0 && !starts_decl(from) {
        from = text[..from - 1].rfind('\n').map_or(0, |n| n + 1);
    }
    if !starts_decl(from) {
        from = line_of_at;
    }
    (from, next_decl(at))
}

/// A syntax error on a line's first word that is a misspelt declaration keyword says which.
fn with_keyword_hint(mut d: Diagnostic, text: &str) -> Diagnostic {
    let at = (d.span.start as usize).min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    if !text[line_start..at].trim().is_empty() {
        return d;
    }
    let word: String = text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if word.is_empty() || DECL_KEYWORDS.contains(&word.as_str()) {
        return d;
    }
    let known: Vec<String> = DECL_KEYWORDS.iter().map(|k| k.to_string()).collect();
    d.message.push_str(&crate::diag::suggest(&word, known.iter().collect()));
    d
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
        | Rule::drop_decl
        | Rule::immobility_decl
        | Rule::gating_decl
        | Rule::unmoved_decl
        | Rule::frozen_decl
        | Rule::compulsory_decl
        | Rule::explode_decl
        | Rule::en_passant_decl
        | Rule::checks_decl
        | Rule::drops_compulsory_decl
        | Rule::castle_dropped_decl
        | Rule::facing_decl
        | Rule::en_passant_kw
        | Rule::facing_kw => "a declaration",
        Rule::explode_kw => "`explode`",
        Rule::sparing_kw => "`sparing`",
        Rule::drop_flag => "`one_per_file`, `no_mate` or `opposite_colours`",
        Rule::also_as => "`also_as`",
        Rule::calm_kw => "`unless_checked`",
        Rule::on_capture_kw => "`on_capture`",
        Rule::promoted_attr | Rule::from_kw => "`promoted from KIND`",
        Rule::or_from => "`or from`",
        Rule::lost_kw => "`lost`",
        Rule::dropped_kw => "`dropped`",
        Rule::answered_kw => "`answered`",
        Rule::at_most_kw => "`at_most`",
        Rule::fewer_kw => "`fewer_pieces`",
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
        Rule::attacks_attr | Rule::hops_attr | Rule::spares_attr | Rule::passes_attr => "a piece attribute",
        Rule::attacks_kw | Rule::hops_kw | Rule::spares_kw => "a piece attribute",
        Rule::image_attr | Rule::image_kw => "`image \"FILE\"`",
        Rule::within | Rule::within_kw => "`within REGION`",
        Rule::break_kw => "`break` (after `facing`)",
        Rule::region_item | Rule::rank_item | Rule::squares_item => "`rank N` or squares",
        Rule::optional_kw => "`optional`",
        Rule::hand_choice | Rule::hand_kw => "`hand`",
        Rule::hand_end => "`first` or `last`",
        Rule::else_kw => "`else`",
        Rule::if_possible_kw => "`if_possible`",
        Rule::end_cond
        | Rule::checks
        | Rule::checks_kw
        | Rule::checkmate
        | Rule::stalemate
        | Rule::repetition
        | Rule::move_limit
        | Rule::insufficient
        | Rule::passes_end
        | Rule::facing_end
        | Rule::reach
        | Rule::extinction
        | Rule::all_kw
        | Rule::bare_end
        | Rule::bare_kw
        | Rule::by_kw => "an end condition",
        Rule::material | Rule::material_item | Rule::none_kw | Rule::plus | Rule::same_colour => "a material pattern",
        Rule::outcome => "`wins`, `loses` or `draws`",
        Rule::remove_what
        | Rule::remove_piece
        | Rule::remove_castling
        | Rule::remove_promotion
        | Rule::remove_end
        | Rule::remove_facing
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

impl Lower {
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
                let shade = self.keyword(&SHADES, next()?)?;
                Decl::Colours { square, shade }
            }
            Rule::side_decl => {
                let white = self.keyword(&SIDE_NAMES, next()?)?;
                let dir = self.keyword(&DIRECTIONS, next()?)?;
                Decl::Side { white, dir, span }
            }
            Rule::piece_decl => Decl::Piece(self.piece(span, it)?),
            Rule::setup_decl => Decl::Setup(self.string(next()?)),
            Rule::region_decl => Decl::Region(self.region(span, it)?),
            Rule::promote_decl => Decl::Promote(self.promote(span, it)?),
            Rule::castle_decl => Decl::Castle(self.castle(span, it)?),
            Rule::end_decl => Decl::End(self.end(span, it)?),
            Rule::remove_decl => Decl::Remove(self.remove(next()?)?),
            Rule::safety_decl => Decl::RoyalSafety(self.keyword(&ON_OFF, next()?)?),
            Rule::state_decl | Rule::var_decl => Decl::Var(self.var(rule == Rule::state_decl, it)?),
            Rule::fn_decl => Decl::Fn(self.func(span, it)?),
            Rule::hook_decl => Decl::Hook(self.hook(span, it)?),
            Rule::turn_decl => Decl::Turn(it.map(|p| self.turn_part(p)).collect::<Result<_, _>>()?, span),
            Rule::hand_decl => Decl::CapturesToHand(span),
            Rule::immobility_decl => Decl::Immobility(span),
            Rule::gating_decl => Decl::Gating(self.name(next()?)),
            Rule::unmoved_decl => Decl::FenUnmoved(self.name(next()?)),
            Rule::frozen_decl => Decl::FrozenInCheck(self.name(next()?)),
            Rule::facing_decl => Decl::FacingBreak(span),
            Rule::compulsory_decl => Decl::CapturesCompulsory(span),
            Rule::explode_decl => {
                Decl::CapturesExplode(it.filter(|p| p.as_rule() == Rule::ident).map(|p| self.name(p)).collect(), span)
            }
            Rule::en_passant_decl => Decl::EnPassant(
                self.name(
                    it.find(|p| p.as_rule() == Rule::ident)
                        .ok_or_else(|| Diagnostic::new(span, "en_passant needs a region"))?,
                ),
            ),
            Rule::checks_decl => Decl::ChecksIllegal(span),
            Rule::drops_compulsory_decl => Decl::DropsCompulsory(span),
            Rule::castle_dropped_decl => Decl::CastleDropped(span),
            Rule::drop_decl => {
                let piece = self.name(next()?);
                let mut region = next()?;
                if region.as_rule() == Rule::also_as {
                    return Ok(Decl::DropAs { piece, kinds: it.map(|k| self.name(k)).collect() });
                }
                if region.as_rule() == Rule::drop_flag {
                    let mut flags = vec![region.as_str().to_string()];
                    flags.extend(it.map(|f| f.as_str().to_string()));
                    let has = |f: &str| flags.iter().any(|x| x == f);
                    return Ok(Decl::DropRule {
                        piece,
                        one_per_file: has("one_per_file"),
                        no_mate: has("no_mate"),
                        opposite_colours: has("opposite_colours") || has("opposite_colors"),
                    });
                }
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
        let mut decl = PieceDecl {
            name,
            label,
            value: None,
            royal: false,
            moves: None,
            range: None,
            promoted_from: None,
            more_moves: Vec::new(),
            hops_not_over: Vec::new(),
            spares: Vec::new(),
            passes: false,
            image: Vec::new(),
        };
        for attr in it {
            match attr.as_rule() {
                Rule::value_attr => decl.value = Some(self.int(attr.into_inner().next().ok_or_else(missing)?)?),
                Rule::royal_attr => decl.royal = true,
                Rule::moves_attr => {
                    let mut inner = attr.into_inner();
                    let betza = self.string(inner.next().ok_or_else(missing)?);
                    let mut within = None;
                    let mut calm = false;
                    for q in inner {
                        match q.as_rule() {
                            Rule::calm_kw => calm = true,
                            Rule::within => within = q.into_inner().nth(1).map(|r| self.name(r)),
                            other => return Err(unexpected(other, self.span(&q))),
                        }
                    }
                    if within.is_some() || calm {
                        decl.more_moves.push(MoveGroup { betza, within, attack_only: false, calm });
                    } else {
                        decl.moves = Some(betza);
                    }
                }
                Rule::attacks_attr => {
                    let betza = self.string(attr.into_inner().nth(1).ok_or_else(missing)?);
                    decl.more_moves.push(MoveGroup { betza, within: None, attack_only: true, calm: false });
                }
                Rule::hops_attr => decl.hops_not_over.push(self.name(attr.into_inner().nth(1).ok_or_else(missing)?)),
                Rule::spares_attr => decl.spares.push(self.name(attr.into_inner().nth(1).ok_or_else(missing)?)),
                Rule::passes_attr => decl.passes = true,
                Rule::image_attr => {
                    decl.image =
                        attr.into_inner().filter(|p| p.as_rule() == Rule::string).map(|p| self.string(p)).collect()
                }
                Rule::range_attr => decl.range = Some(self.name(attr.into_inner().next().ok_or_else(missing)?)),
                Rule::promoted_attr => {
                    decl.promoted_from = attr.into_inner().find(|p| p.as_rule() == Rule::ident).map(|p| self.name(p))
                }
                other => return Err(unexpected(other, self.span(&attr))),
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
                Rule::squares_item => RegionItem::Squares(item.into_inner().map(|s| self.name(s)).collect()),
                other => return Err(unexpected(other, self.span(&item))),
            });
        }
        Ok(RegionDecl { name, items })
    }

    fn promote(&self, span: Span, it: pest::iterators::Pairs<Rule>) -> Result<PromoteDecl, Diagnostic> {
        let mut names = Vec::new();
        let mut optional = false;
        let mut hand = None;
        let mut leaving = false;
        let mut lost = false;
        let mut on_capture = false;
        for p in it {
            match p.as_rule() {
                Rule::optional_kw => optional = true,
                Rule::on_capture_kw => on_capture = true,
                Rule::or_from => leaving = true,
                Rule::lost_kw => lost = true,
                Rule::hand_choice => {
                    hand = Some(HandPick::Any);
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::hand_end => {
                                let first = self.keyword(&HAND_ENDS, q)?;
                                hand = Some(if first { HandPick::First } else { HandPick::Last });
                            }
                            Rule::ident => names.push(self.name(q)),
                            Rule::hand_kw | Rule::else_kw => {}
                            other => return Err(unexpected(other, self.span(&q))),
                        }
                    }
                }
                Rule::ident => names.push(self.name(p)),
                other => return Err(unexpected(other, self.span(&p))),
            }
        }
        if names.len() < 3 && hand.is_none() {
            return Err(Diagnostic::new(span, "promote needs a piece, a region and at least one choice"));
        }
        let choices = names.split_off(2.min(names.len()));
        let region = names.pop().unwrap_or_else(|| Spanned::new(String::new(), span));
        let piece = names.pop().unwrap_or_else(|| Spanned::new(String::new(), span));
        Ok(PromoteDecl { piece, region, choices, optional, hand, leaving, lost, on_capture })
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
                Rule::checks => {
                    let n = p.into_inner().find(|i| i.as_rule() == Rule::int);
                    cond =
                        Some(EndCond::Checks(self.int(n.ok_or_else(|| Diagnostic::new(span, "expected a number"))?)?))
                }
                Rule::checkmate => cond = Some(EndCond::Checkmate),
                Rule::stalemate => cond = Some(EndCond::Stalemate(p.into_inner().next().is_some())),
                Rule::repetition => cond = Some(EndCond::Repetition(self.first_int(span, p)?)),
                Rule::move_limit => cond = Some(EndCond::MoveLimit(self.first_int(span, p)?)),
                Rule::insufficient => {
                    cond =
                        Some(EndCond::Insufficient(p.into_inner().map(|m| self.material(m)).collect::<Result<_, _>>()?))
                }
                Rule::passes_end => cond = Some(EndCond::Passes),
                Rule::facing_end => cond = Some(EndCond::Facing),
                Rule::bare_end => cond = Some(EndCond::Bare(p.into_inner().any(|i| i.as_rule() == Rule::answered_kw))),
                Rule::reach => {
                    let items: Vec<_> = p.into_inner().collect();
                    let answered = items.iter().any(|i| i.as_rule() == Rule::answered_kw);
                    let mut names = items.into_iter().filter(|i| i.as_rule() == Rule::ident).map(|i| self.name(i));
                    let region = names.next().ok_or_else(|| Diagnostic::new(span, "reach needs a region"))?;
                    cond = Some(EndCond::Reach(region, names.collect(), answered))
                }
                Rule::extinction => {
                    let items: Vec<_> = p.into_inner().collect();
                    let all = items.iter().any(|i| i.as_rule() == Rule::all_kw);
                    let at_most = match items.iter().find(|i| i.as_rule() == Rule::int) {
                        Some(i) => Some(self.int(i.clone())?),
                        None => None,
                    };
                    let kinds =
                        items.into_iter().filter(|i| i.as_rule() == Rule::ident).map(|i| self.name(i)).collect();
                    cond = Some(EndCond::Extinction((!all).then_some(kinds), at_most))
                }
                Rule::outcome => outcome = self.keyword(&OUTCOMES, p)?,
                other => return Err(unexpected(other, self.span(&p))),
            }
        }
        let cond = cond.ok_or_else(|| Diagnostic::new(span, "end needs a condition"))?;
        Ok(EndDecl { cond, outcome, span })
    }

    fn first_int(&self, span: Span, p: P) -> Result<Spanned<u32>, Diagnostic> {
        let n = p.into_inner().next().ok_or_else(|| Diagnostic::new(span, "expected a number"))?;
        self.int(n)
    }

    fn material(&self, p: P) -> Result<MaterialPattern, Diagnostic> {
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
                Rule::none_kw => {}
                other => return Err(unexpected(other, self.span(&q))),
            }
        }
        Ok(pat)
    }

    fn remove(&self, p: P) -> Result<RemoveDecl, Diagnostic> {
        let span = self.span(&p);
        let rule = p.as_rule();
        if rule == Rule::remove_castling {
            return Ok(RemoveDecl::Castling(span));
        }
        if rule == Rule::remove_facing {
            return Ok(RemoveDecl::Facing(span));
        }
        let first = p.into_inner().next().ok_or_else(|| Diagnostic::new(span, "remove needs a name"))?;
        Ok(match rule {
            Rule::remove_piece => RemoveDecl::Piece(self.name(first)),
            Rule::remove_promotion => RemoveDecl::Promotion(self.name(first)),
            Rule::remove_end => RemoveDecl::End(self.keyword(&END_KINDS, first)?, span),
            other => return Err(unexpected(other, span)),
        })
    }
}

/// The six names of a castle declaration; the grammar guarantees there are six.
fn six_names(l: &Lower, parts: Vec<P<'_>>) -> [Name; 6] {
    let mut it = parts.into_iter().map(|p| l.name(p));
    std::array::from_fn(|_| it.next().unwrap_or_else(|| Spanned::new(String::new(), Span::default())))
}

/// Parse a FEN state field `{name=value,...}` into its bindings.
pub fn parse_fen_state(src: SourceId, text: &str) -> Result<Vec<(Name, Expr)>, Diagnostic> {
    if let Some(at) = super::parse_script::too_deep(text) {
        return Err(Diagnostic::new(
            Span::new(src, at, at + 1),
            format!("nested deeper than {} levels", super::parse_script::MAX_NESTING),
        ));
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
