//! AST to a loaded [`Preset`]: resolve `extends`, names, labels, squares; collect every error at once.

use crate::diag::{Diagnostic, Sources};
use crate::engine::betza::{self, BetzaMove};
use crate::engine::board::{Geometry, MAX_FILES, MAX_RANKS, Sq, cell};
use crate::engine::fen;
use crate::engine::movement;
use crate::engine::side::{BySide, Side};
use crate::engine::zobrist::Zobrist;
use crate::preset::{Castle, EndRule, Kind, MaterialPattern as Pattern, Preset, Promotion};
use crate::script::compile::{Compiler, Decls};
use crate::syntax::ast::*;
use crate::syntax::parse::parse_preset;
use crate::syntax::{Span, Spanned};
use indexmap::IndexMap;
use std::path::{Path, PathBuf};

/// A preset that did not load: every diagnostic, with the sources to render them.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.render())]
pub struct LoadError {
    pub sources: Sources,
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    pub fn render(&self) -> String {
        self.sources.render_all(&self.diagnostics).trim_end().to_string()
    }
}

const MAX_EXTENDS_DEPTH: usize = 16;
/// Castling rights are a bit set in the position.
const MAX_CASTLES: usize = 64;

/// Load a shipped preset by name, or a `.preset` file by path.
pub fn load(spec: &str) -> Result<Preset, LoadError> {
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    let (display, text, dir) = match read_spec(spec, None) {
        Ok(x) => x,
        Err(msg) => {
            let id = sources.add(spec, "");
            return Err(LoadError { sources, diagnostics: vec![Diagnostic::new(Span::new(id, 0, 0), msg)] });
        }
    };
    let decls = gather(&display, &text, dir, &mut sources, &mut diags, &mut Vec::new());
    if !diags.is_empty() {
        return Err(LoadError { sources, diagnostics: diags });
    }
    let preset = Checker { diags: Vec::new() }.build(display, decls, sources);
    preset.map_err(|(sources, diagnostics)| LoadError { sources, diagnostics })
}

/// Load a preset from text (for tests and the REPL), as if read from `path`.
pub fn load_text(path: &str, text: &str) -> Result<Preset, LoadError> {
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    let dir = Path::new(path).parent().map(Path::to_path_buf);
    let decls = gather(path, text, dir, &mut sources, &mut diags, &mut Vec::new());
    if !diags.is_empty() {
        return Err(LoadError { sources, diagnostics: diags });
    }
    Checker { diags: Vec::new() }
        .build(path.to_string(), decls, sources)
        .map_err(|(sources, diagnostics)| LoadError { sources, diagnostics })
}

/// A shipped name or a path: (name to show, text, directory for relative `extends`).
fn read_spec(spec: &str, base: Option<&Path>) -> Result<(String, String, Option<PathBuf>), String> {
    if let Some(text) = crate::presets::shipped(spec) {
        return Ok((format!("presets/{spec}.preset"), text.to_string(), None));
    }
    let path = match base {
        Some(dir) if Path::new(spec).is_relative() => dir.join(spec),
        _ => PathBuf::from(spec),
    };
    let text = crate::presets::read_bounded(&path).map_err(|e| match e {
        Some(e) => no_preset(spec, &e),
        None => format!("preset `{spec}` is larger than the limit of {} bytes", crate::presets::MAX_PRESET_BYTES),
    })?;
    Ok((path.display().to_string(), text, path.parent().map(Path::to_path_buf)))
}

fn no_preset(spec: &str, e: &std::io::Error) -> String {
    let why = match e.kind() {
        std::io::ErrorKind::NotFound => "there is no such file".to_string(),
        _ => format!("the file cannot be read: {e}"),
    };
    let names: Vec<String> = crate::presets::NAMES.iter().map(|n| n.to_string()).collect();
    let hint = suggest(spec, names.iter().collect());
    format!("no preset `{spec}`{hint} ({why}; shipped presets: {})", crate::presets::NAMES.join(", "))
}

/// Parse a file and splice in the declarations of what it extends, depth first.
fn gather(
    display: &str,
    text: &str,
    dir: Option<PathBuf>,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    chain: &mut Vec<String>,
) -> Vec<Decl> {
    let id = sources.add(display, text);
    let ast = match parse_preset(id, text) {
        Ok(a) => a,
        Err(d) => {
            diags.push(d);
            return Vec::new();
        }
    };
    chain.push(display.to_string());
    let mut out = Vec::new();
    for decl in ast.decls {
        let Decl::Extends(base) = &decl else {
            out.push(decl);
            continue;
        };
        if chain.len() > MAX_EXTENDS_DEPTH {
            diags.push(Diagnostic::new(
                base.span,
                format!("presets extend each other more than {MAX_EXTENDS_DEPTH} deep"),
            ));
            continue;
        }
        // A preset from a stranger may name only shipped presets or other `.preset` files, so its
        // diagnostics never quote lines of arbitrary files.
        if crate::presets::shipped(&base.node).is_none() && !base.node.ends_with(".preset") {
            let msg = if base.node.contains(['/', '\\', '.']) {
                format!("`extends` names a shipped preset or a `.preset` file, not `{}`", base.node)
            } else {
                no_preset(&base.node, &std::io::ErrorKind::NotFound.into())
            };
            diags.push(Diagnostic::new(base.span, msg));
            continue;
        }
        match read_spec(&base.node, dir.as_deref()) {
            Ok((bd, ..)) if chain.contains(&bd) => {
                diags.push(Diagnostic::new(
                    base.span,
                    format!("`{}` extends itself (through {})", base.node, chain.join(" -> ")),
                ));
            }
            Ok((bd, bt, bdir)) => out.extend(gather(&bd, &bt, bdir, sources, diags, chain)),
            Err(msg) => diags.push(Diagnostic::new(base.span, msg)),
        }
    }
    chain.pop();
    out
}

struct Checker {
    diags: Vec<Diagnostic>,
}

/// The declarations that survive overriding, keyed as a later declaration replaces an earlier one.
#[derive(Default)]
struct Merged {
    name: Option<Name>,
    inventor: Option<Name>,
    description: Option<Name>,
    board: Option<(Spanned<u32>, Spanned<u32>)>,
    colour: Option<(Name, Shade)>,
    sides: [Option<Direction>; 2],
    pieces: IndexMap<String, PieceDecl>,
    setup: Option<Name>,
    regions: IndexMap<String, RegionDecl>,
    promotions: IndexMap<String, PromoteDecl>,
    castles: Vec<CastleDecl>,
    ends: Vec<EndDecl>,
    royal_safety: Option<bool>,
    captures_to_hand: bool,
    must_capture: bool,
    drop_zones: IndexMap<String, (bool, Name, Name)>,
    script: Decls,
}

fn merge(decls: Vec<Decl>) -> Merged {
    let mut m = Merged::default();
    for d in decls {
        match d {
            Decl::Extends(_) => {}
            Decl::Name(n) => m.name = Some(n),
            Decl::Inventor(n) => m.inventor = Some(n),
            Decl::Description(n) => m.description = Some(n),
            Decl::Board { files, ranks } => m.board = Some((files, ranks)),
            Decl::Colours { square, shade } => m.colour = Some((square, shade)),
            Decl::Side { white, dir, .. } => m.sides[usize::from(!white)] = Some(dir),
            Decl::Piece(p) => {
                m.pieces.shift_remove(&p.name.node);
                m.pieces.insert(p.name.node.clone(), p);
            }
            Decl::Setup(s) => m.setup = Some(s),
            Decl::Region(r) => {
                m.regions.insert(r.name.node.clone(), r);
            }
            Decl::Promote(p) => {
                m.promotions.insert(p.piece.node.clone(), p);
            }
            Decl::Castle(c) => {
                m.castles.retain(|o| o.flag.node != c.flag.node);
                m.castles.push(c);
            }
            Decl::End(e) => {
                m.ends.retain(|o| o.cond.kind() != e.cond.kind());
                m.ends.push(e);
            }
            Decl::Remove(RemoveDecl::Piece(n)) => {
                m.pieces.shift_remove(&n.node);
            }
            Decl::Remove(RemoveDecl::Castling(_)) => m.castles.clear(),
            Decl::Remove(RemoveDecl::Promotion(n)) => {
                m.promotions.shift_remove(&n.node);
            }
            Decl::Remove(RemoveDecl::End(kind, _)) => m.ends.retain(|o| o.cond.kind() != kind),
            Decl::RoyalSafety(on) => m.royal_safety = Some(on),
            Decl::Var(v) => {
                m.script.vars.shift_remove(&v.name.node);
                m.script.vars.insert(v.name.node.clone(), v);
            }
            Decl::Fn(f) => {
                m.script.fns.insert(f.name.node.clone(), f);
            }
            Decl::Hook(h) => {
                m.script.hooks.insert(h.point, h);
            }
            Decl::Turn(parts, span) => m.script.turn = Some((parts, span)),
            Decl::CapturesToHand(_) => m.captures_to_hand = true,
            Decl::CapturesCompulsory(_) => m.must_capture = true,
            Decl::DropZone { piece, negate, region } => {
                m.drop_zones.insert(piece.node.clone(), (negate, piece, region));
            }
        }
    }
    m
}

type Built = Result<Preset, (Sources, Vec<Diagnostic>)>;

impl Checker {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(span, msg));
    }

    fn build(mut self, origin: String, decls: Vec<Decl>, sources: Sources) -> Built {
        let whole = Span::new(crate::syntax::SourceId(0), 0, 0);
        let m = merge(decls);
        let geo = self.geometry(&m, whole);
        let forward = BySide::new(m.sides[0].unwrap_or(Direction::Up), m.sides[1].unwrap_or(Direction::Down));
        let (kinds, moves) = self.kinds(&m, whole);
        let lookup = Lookup { geo: &geo, kinds: &kinds };
        let regions = self.regions(&m, &lookup);
        let promotions = self.promotions(&m, &lookup, &regions);
        let drop_zones = self.drop_zones(&m, &lookup, &regions);
        let castles = self.castles(&m, &lookup);
        let ends = self.ends(&m, &lookup, &regions);
        let (script, inits, script_diags) = Compiler::new(&kinds, &geo).script(&m.script);
        let range_names: Vec<Option<Name>> = m.pieces.values().map(|p| p.range.clone()).collect();
        self.diags.extend(script_diags);
        // A `drop` rule only restricts drops: without a drop part in the turn there are none to restrict.
        if !script.turn.iter().any(|p| p.kinds.contains(&crate::syntax::script::PartKind::Drop))
            && let Some((_, piece, _)) = m.drop_zones.values().next()
        {
            self.err(
                piece.span,
                "`drop` says where a piece may be dropped, but no turn has a drop part, so nothing is ever \
                 dropped: add `turn { move or drop }`",
            );
        }
        let setup = m.setup.clone();
        if setup.is_none() {
            self.err(whole, "the preset has no `setup`: give the start position as a FEN");
        }
        if !self.diags.is_empty() {
            return Err((sources, self.diags));
        }
        // Castling pieces' virgin marks are not hashed: the castling rights they add up to are
        // (`Position::castle_rights`), so that the same FEN always hashes the same.
        let irreversible = moves.iter().map(|ms| ms.iter().all(|b| b.images.iter().all(|&(_, dy)| dy > 0))).collect();
        let cares: Vec<bool> = kinds.iter().map(|k| k.cares_virgin).collect();
        let movement = movement::compile(&geo, &moves, &[], forward);
        let zobrist = Zobrist::new(geo.cells, &cares, castles.len());
        let setup = setup.unwrap_or_else(|| Spanned::new(String::new(), whole));
        let mut preset = Preset {
            name: m.name.map(|n| n.node).unwrap_or_else(|| stem(&origin)),
            inventor: m.inventor.map(|n| n.node).unwrap_or_default(),
            description: m.description.map(|n| n.node).unwrap_or_default(),
            origin,
            sources,
            geo,
            forward,
            kinds,
            setup: setup.node.clone(),
            hand_promotion: promotions.iter().flatten().any(|p| p.hand.is_some()),
            promotions,
            castles,
            ends,
            movement,
            zobrist,
            irreversible,
            royal_safety: m.royal_safety.unwrap_or(true),
            captures_to_hand: m.captures_to_hand,
            must_capture: m.must_capture,
            drop_zones,
            setup_cells: Vec::new(),
            script,
        };
        // Castling's attack test protects a royal piece: a castling king that is not royal, or a
        // preset without royal safety, castles through attacked squares.
        for c in &mut preset.castles {
            let king_royal = preset.kinds.get(cell::kind(c.king)).is_some_and(|k| k.royal);
            if !(preset.royal_safety && king_royal) {
                c.safe.clear();
            }
        }
        if let Err(diags) = initial_values(&mut preset, &inits) {
            return Err((preset.sources, diags));
        }
        match range_tables(&preset, &range_names) {
            Ok(limits) if limits.iter().any(Option::is_some) => {
                preset.movement = movement::compile(&preset.geo, &moves, &limits, forward);
            }
            Ok(_) => {}
            Err(diags) => return Err((preset.sources, diags)),
        }
        match fen::parse_board_only(&preset, &setup.node) {
            Ok(cells) => preset.setup_cells = cells,
            Err(e) => return Err((preset.sources, vec![Diagnostic::new(setup.span, format!("bad setup: {e}"))])),
        }
        if let Err(e) = fen::parse(&preset, &setup.node) {
            return Err((preset.sources, vec![Diagnostic::new(setup.span, format!("bad setup: {e}"))]));
        }
        Ok(preset)
    }

    fn geometry(&mut self, m: &Merged, whole: Span) -> Geometry {
        let a1_light = match &m.colour {
            Some((sq, shade)) => {
                let (f, r) = square_coords(&sq.node).unwrap_or((0, 0));
                if square_coords(&sq.node).is_none() {
                    self.err(sq.span, format!("`{}` is not a square", sq.node));
                }
                ((f + r) % 2 == 0) == (*shade == Shade::Light)
            }
            None => false,
        };
        let Some((files, ranks)) = &m.board else {
            self.err(whole, "the preset has no `board FILES x RANKS`");
            return Geometry::new(8, 8, a1_light);
        };
        let mut ok = |n: &Spanned<u32>, max: usize, what: &str| {
            if n.node == 0 || n.node as usize > max {
                self.err(n.span, format!("a board has 1 to {max} {what}, not {}", n.node));
                false
            } else {
                true
            }
        };
        let (f_ok, r_ok) = (ok(files, MAX_FILES, "files"), ok(ranks, MAX_RANKS, "ranks"));
        if !f_ok || !r_ok {
            return Geometry::new(8, 8, a1_light);
        }
        Geometry::new(files.node as usize, ranks.node as usize, a1_light)
    }

    fn kinds(&mut self, m: &Merged, whole: Span) -> (Vec<Kind>, Vec<Vec<BetzaMove>>) {
        let mut kinds = Vec::new();
        let mut moves = Vec::new();
        if m.pieces.is_empty() {
            self.err(whole, "the preset declares no pieces");
        }
        if m.pieces.len() > cell::MAX_KINDS {
            self.err(whole, format!("{} kinds of piece; the limit is {}", m.pieces.len(), cell::MAX_KINDS));
        }
        let mut seen: IndexMap<String, String> = IndexMap::new();
        for p in m.pieces.values() {
            let white = p.label.node.clone();
            if !white.starts_with(|c: char| c.is_ascii_uppercase()) {
                self.err(p.label.span, format!("label `{white}` must start with an upper-case letter (White's label; Black's is its lower case)"));
            }
            let black = white.to_ascii_lowercase();
            if let Some(other) = seen.get(&white) {
                self.err(p.label.span, format!("label `{white}` is already used by {other}"));
            }
            seen.insert(white.clone(), p.name.node.clone());
            let betza_text = p.moves.as_ref().map(|s| s.node.clone()).unwrap_or_default();
            let parsed = match &p.moves {
                Some(s) => betza::parse(&s.node).unwrap_or_else(|e| {
                    self.err(s.span.sub(e.offset, e.len), format!("in the moves of {}: {}", p.name.node, e.message));
                    Vec::new()
                }),
                None => {
                    self.err(p.name.span, format!("piece {} has no `moves`", p.name.node));
                    Vec::new()
                }
            };
            let cares = parsed.iter().any(|b| b.initial);
            moves.push(parsed);
            kinds.push(Kind {
                name: p.name.node.clone(),
                labels: BySide::new(white, black),
                value: p.value.as_ref().map_or(0, |v| v.node as i32),
                royal: p.royal,
                betza: betza_text,
                cares_virgin: cares,
            });
        }
        (kinds, moves)
    }

    fn regions(&mut self, m: &Merged, l: &Lookup) -> IndexMap<String, BySide<Vec<bool>>> {
        let mut out = IndexMap::new();
        for r in m.regions.values() {
            let mut zone = BySide::new(vec![false; l.geo.cells], vec![false; l.geo.cells]);
            for item in &r.items {
                match item {
                    RegionItem::Rank(n) if n.node == 0 || n.node as usize > l.geo.ranks => {
                        self.err(n.span, format!("rank {} is not on a board of {} ranks", n.node, l.geo.ranks));
                    }
                    RegionItem::Rank(n) => {
                        for &sq in &l.geo.squares {
                            for side in Side::BOTH {
                                if l.geo.relative_rank(sq, side) + 1 == n.node as usize {
                                    zone[side][sq as usize] = true;
                                }
                            }
                        }
                    }
                    RegionItem::Squares(sqs) => {
                        for s in sqs {
                            if let Some(sq) = self.square(l, s) {
                                zone[Side::White][sq as usize] = true;
                                zone[Side::Black][sq as usize] = true;
                            }
                        }
                    }
                }
            }
            out.insert(r.name.node.clone(), zone);
        }
        out
    }

    fn promotions(
        &mut self,
        m: &Merged,
        l: &Lookup,
        regions: &IndexMap<String, BySide<Vec<bool>>>,
    ) -> Vec<Option<Promotion>> {
        let mut out = vec![None; l.kinds.len()];
        for p in m.promotions.values() {
            let piece = self.kind(l, &p.piece);
            let zone = regions.get(&p.region.node).cloned();
            if zone.is_none() {
                let known: Vec<&String> = regions.keys().collect();
                self.err(
                    p.region.span,
                    format!("unknown region `{}`{}", p.region.node, suggest(&p.region.node, known)),
                );
            }
            let choices: Vec<usize> = p.choices.iter().filter_map(|c| self.kind(l, c)).collect();
            if let (Some(k), Some(zone)) = (piece, zone) {
                out[k] = Some(Promotion { zone, choices, optional: p.optional, hand: p.hand });
            }
        }
        out
    }

    /// `drop KIND [not] in REGION`: per kind, per side, the cells where it may be dropped.
    fn drop_zones(
        &mut self,
        m: &Merged,
        l: &Lookup,
        regions: &IndexMap<String, BySide<Vec<bool>>>,
    ) -> Vec<Option<BySide<Vec<bool>>>> {
        let mut out = vec![None; l.kinds.len()];
        for (negate, piece, region) in m.drop_zones.values() {
            let kind = self.kind(l, piece);
            let Some(zone) = regions.get(&region.node) else {
                let known: Vec<&String> = regions.keys().collect();
                self.err(region.span, format!("unknown region `{}`{}", region.node, suggest(&region.node, known)));
                continue;
            };
            if let Some(k) = kind {
                let flip = |z: &Vec<bool>| z.iter().map(|&b| b != *negate).collect::<Vec<bool>>();
                out[k] = Some(BySide::new(flip(&zone[Side::White]), flip(&zone[Side::Black])));
            }
        }
        out
    }

    fn castles(&mut self, m: &Merged, l: &Lookup) -> Vec<Castle> {
        let mut out = Vec::new();
        if m.castles.len() > MAX_CASTLES
            && let Some(c) = m.castles.get(MAX_CASTLES)
        {
            self.err(c.flag.span, format!("at most {MAX_CASTLES} castling rules"));
        }
        for c in &m.castles {
            let king = self.label(l, &c.king);
            let rook = self.label(l, &c.rook);
            let sqs: Vec<Option<Sq>> =
                [&c.king_from, &c.king_to, &c.rook_from, &c.rook_to].iter().map(|s| self.square(l, s)).collect();
            let mut flag_chars = c.flag.node.chars();
            let flag = match (flag_chars.next(), flag_chars.next()) {
                (Some(f), None) if f.is_ascii_alphabetic() => Some(f),
                _ => {
                    self.err(c.flag.span, "the castling flag is one letter, as written in the FEN (e.g. \"K\")");
                    None
                }
            };
            let (Some((kk, ks)), Some((rk, rs)), Some(flag)) = (king, rook, flag) else { continue };
            let [Some(kf), Some(kt), Some(rf), Some(rt)] = sqs[..] else { continue };
            if ks != rs {
                self.err(c.rook.span, "the king and the rook of a castling must be of one side");
                continue;
            }
            let between = |a: Sq, b: Sq| line(l.geo, a, b);
            let mut empty: Vec<Sq> = between(kf, kt).into_iter().chain(between(rf, rt)).chain([kt, rt]).collect();
            empty.retain(|&s| s != kf && s != rf);
            empty.sort();
            empty.dedup();
            let safe: Vec<Sq> = [kf].into_iter().chain(between(kf, kt)).chain([kt]).collect();
            out.push(Castle {
                side: ks,
                king: cell::piece(kk, ks),
                rook: cell::piece(rk, rs),
                king_from: kf,
                king_to: kt,
                rook_from: rf,
                rook_to: rt,
                empty,
                safe,
                flag,
            });
        }
        out
    }

    fn ends(&mut self, m: &Merged, l: &Lookup, regions: &IndexMap<String, BySide<Vec<bool>>>) -> Vec<EndRule> {
        let mut out = Vec::new();
        for e in &m.ends {
            let rule = match &e.cond {
                EndCond::Checkmate => EndRule::Checkmate(e.outcome),
                EndCond::Stalemate => EndRule::Stalemate(e.outcome),
                EndCond::Repetition(n) if n.node < 2 => {
                    self.err(n.span, "a repetition rule needs a count of at least 2");
                    continue;
                }
                EndCond::Repetition(n) => EndRule::Repetition(n.node, e.outcome),
                EndCond::MoveLimit(n) if n.node == 0 => {
                    self.err(n.span, "a move limit must be at least 1");
                    continue;
                }
                EndCond::MoveLimit(n) => EndRule::MoveLimit(n.node, e.outcome),
                EndCond::Insufficient(pats) => {
                    let pats = pats
                        .iter()
                        .map(|p| Pattern {
                            items: p
                                .items
                                .iter()
                                .filter_map(|i| self.label(l, &i.label).map(|(k, _)| (k, i.many)))
                                .collect(),
                            same_colour: p.same_colour,
                        })
                        .collect();
                    EndRule::Insufficient(pats, e.outcome)
                }
                EndCond::Reach(region, by) => {
                    let Some(zone) = regions.get(&region.node) else {
                        let known: Vec<&String> = regions.keys().collect();
                        self.err(
                            region.span,
                            format!("unknown region `{}`{}", region.node, suggest(&region.node, known)),
                        );
                        continue;
                    };
                    let royal: Vec<usize> =
                        l.kinds.iter().enumerate().filter(|(_, k)| k.royal).map(|(i, _)| i).collect();
                    let kinds = if by.is_empty() { royal } else { by.iter().filter_map(|k| self.kind(l, k)).collect() };
                    EndRule::Reach(zone.clone(), kinds, e.outcome)
                }
                EndCond::Extinction(kinds) => {
                    let kinds = kinds.as_ref().map(|ks| ks.iter().filter_map(|k| self.kind(l, k)).collect());
                    EndRule::Extinction(kinds, e.outcome)
                }
            };
            out.push(rule);
        }
        out
    }

    fn kind(&mut self, l: &Lookup, n: &Name) -> Option<usize> {
        let found = l.kinds.iter().position(|k| k.name == n.node);
        if found.is_none() {
            let names = l.kinds.iter().map(|k| &k.name).collect();
            self.err(n.span, format!("unknown piece `{}`{}", n.node, suggest(&n.node, names)));
        }
        found
    }

    fn label(&mut self, l: &Lookup, n: &Name) -> Option<(usize, Side)> {
        let found = l
            .kinds
            .iter()
            .enumerate()
            .find_map(|(i, k)| Side::BOTH.into_iter().find(|&s| k.labels[s] == n.node).map(|s| (i, s)));
        if found.is_none() {
            let labels = l.kinds.iter().flat_map(|k| k.labels.0.iter()).collect();
            self.err(n.span, format!("no piece has the label `{}`{}", n.node, suggest(&n.node, labels)));
        }
        found
    }

    fn square(&mut self, l: &Lookup, n: &Name) -> Option<Sq> {
        let sq = l.geo.parse_square(&n.node);
        if sq.is_none() {
            self.err(n.span, format!("`{}` is not a square of this {}x{} board", n.node, l.geo.files, l.geo.ranks));
        }
        sq
    }
}

struct Lookup<'a> {
    geo: &'a Geometry,
    kinds: &'a [Kind],
}

/// Squares strictly between two squares on one line (empty if not on a line).
fn line(geo: &Geometry, a: Sq, b: Sq) -> Vec<Sq> {
    let (fa, ra, fb, rb) = (geo.file(a) as i32, geo.rank(a) as i32, geo.file(b) as i32, geo.rank(b) as i32);
    let (dx, dy) = (fb - fa, rb - ra);
    if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
        return Vec::new();
    }
    let n = dx.abs().max(dy.abs());
    (1..n).filter_map(|k| geo.square_checked(fa + k * dx.signum(), ra + k * dy.signum())).collect()
}

fn square_coords(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let f = (*b.first()? as char).is_ascii_lowercase().then(|| (b[0] - b'a') as usize)?;
    let r: usize = s.get(1..)?.parse().ok()?;
    (r >= 1).then_some((f, r - 1))
}

/// Evaluate the initial values of `state` and `var` (constant expressions) on an empty board.
fn initial_values(preset: &mut Preset, inits: &[crate::script::ir::Code]) -> Result<(), Vec<Diagnostic>> {
    let mut values = Vec::new();
    let mut diags = Vec::new();
    for code in inits {
        match crate::script::hooks::constant(preset, code) {
            Ok(v) => values.push(v),
            Err(e) => {
                diags.push(Diagnostic::new(e.span, e.message));
                values.push(crate::script::Value::None);
            }
        }
    }
    for (g, v) in preset.script.globals.iter_mut().zip(values) {
        g.init = v;
    }
    if diags.is_empty() { Ok(()) } else { Err(diags) }
}

/// Evaluate each `range FN` once for every count of steps that can fit on the board.
fn range_tables(preset: &Preset, names: &[Option<Name>]) -> Result<Vec<movement::RangeFn>, Vec<Diagnostic>> {
    let most = preset.geo.files.max(preset.geo.ranks);
    let mut diags = Vec::new();
    let mut out = Vec::new();
    for name in names {
        let Some(name) = name else {
            out.push(None);
            continue;
        };
        let Some(f) = preset.script.funcs.iter().position(|b| b.name == name.node) else {
            let known: Vec<&String> = preset.script.funcs.iter().map(|b| &b.name).collect();
            diags
                .push(Diagnostic::new(name.span, format!("no function `{}`{}", name.node, suggest(&name.node, known))));
            out.push(None);
            continue;
        };
        if preset.script.funcs[f].params != 1 {
            let msg = format!("`{}` must take one parameter: the number of steps that fit on the board", name.node);
            diags.push(Diagnostic::new(name.span, msg));
            out.push(None);
            continue;
        }
        let mut table = Vec::with_capacity(most + 1);
        for n in 0..=most {
            match crate::script::hooks::call(preset, f, vec![crate::script::Value::Int(n as i64)]) {
                Ok(crate::script::Value::Int(r)) => table.push(r.clamp(0, 255) as u8),
                Ok(other) => {
                    let msg = format!("`{}({n})` gave {}, not a number of steps", name.node, other.type_name());
                    diags.push(Diagnostic::new(name.span, msg));
                    break;
                }
                Err(e) => {
                    diags.push(Diagnostic::new(e.span, e.message));
                    break;
                }
            }
        }
        out.push(Some(table));
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

fn stem(path: &str) -> String {
    Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| path.to_string())
}

/// ", did you mean `X`?" for the closest known name, if it is close.
pub fn suggest(name: &str, known: Vec<&String>) -> String {
    let best =
        known.into_iter().map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), k)).min_by_key(|x| x.0);
    match best {
        Some((d, k)) if d <= 2.max(name.len() / 3) && d > 0 => format!("; did you mean `{k}`?"),
        _ => String::new(),
    }
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
