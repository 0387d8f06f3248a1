//! AST to a loaded [`Preset`]: resolve `extends`, names, labels, squares; collect every error at once.

use crate::diag::{Diagnostic, Sources};
pub use crate::diag::{edit_distance, suggest};
use crate::engine::betza::{self, BetzaMove};
use crate::engine::board::{Geometry, MAX_FILES, MAX_RANKS, Sq, cell};
use crate::engine::movement;
use crate::engine::side::{BySide, Side};
use crate::engine::zobrist::Zobrist;
use crate::play::fen;
use crate::preset::{Castle, EndRule, Kind, MaterialPattern as Pattern, Preset, Promotion};
use crate::script::compile::{Compiler, Decls};
use crate::syntax::ast::*;
use crate::syntax::parse::{parse_preset, parse_preset_recovering};
use crate::syntax::script::PartKind;
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

    /// Each diagnostic as its location (`path:line:col`) and message, without the quoted source:
    /// for places that show one line per problem.
    pub fn headlines(&self) -> impl Iterator<Item = (String, &str)> {
        self.diagnostics.iter().map(|d| (self.sources.location(d), d.message.as_str()))
    }
}

const MAX_EXTENDS_DEPTH: usize = 16;
/// Files read for one preset, counting each `extends` again: a preset that extends itself twice
/// through paths that grow at each level would otherwise load 2^16 files before the depth limit.
const MAX_LOADS: usize = 64;
/// Diagnostics kept for one preset; the rest are counted in one last line.
const MAX_DIAGNOSTICS: usize = 100;
/// Castling rights are a bit set in the position.
const MAX_CASTLES: usize = 64;

/// Load a shipped preset by name, or a `.preset` file by path.
pub fn load(spec: &str) -> Result<Preset, LoadError> {
    load_as(spec, true)
}

/// Load a preset that a file named rather than the user (a sample game's `preset:`): when the file
/// does not parse as a preset, the error says so without quoting it (it may be any file).
pub fn load_named(spec: &str) -> Result<Preset, LoadError> {
    load_as(spec, false)
}

fn load_as(spec: &str, quote: bool) -> Result<Preset, LoadError> {
    let mut g = Gather::default();
    let file = match read_spec(spec, None) {
        Ok(x) => x,
        Err(msg) => {
            let id = g.sources.add(spec, "");
            return Err(LoadError { sources: g.sources, diagnostics: vec![Diagnostic::new(Span::new(id, 0, 0), msg)] });
        }
    };
    let display = file.display.clone();
    let decls = if quote {
        g.gather(file)
    } else {
        match g.gather_foreign(file, spec) {
            Ok(decls) => decls,
            Err(msg) => {
                let id = g.sources.add(spec, "");
                g.diags.push(Diagnostic::new(Span::new(id, 0, 0), msg));
                Vec::new()
            }
        }
    };
    finish(display, decls, g)
}

/// Load a preset from text (for tests and the REPL), as if read from `path`.
pub fn load_text(path: &str, text: &str) -> Result<Preset, LoadError> {
    let mut g = Gather::default();
    let dir = Path::new(path).parent().map(Path::to_path_buf);
    let key = std::fs::canonicalize(path).map_or_else(|_| path.to_string(), |p| p.display().to_string());
    let decls = g.gather(Read { display: path.to_string(), key, text: text.to_string(), dir });
    finish(path.to_string(), decls, g)
}

/// Check what was gathered, after syntax errors too: every error is reported at once, except
/// those about a word of the text the syntax errors skipped (they follow from them).
fn finish(display: String, decls: Vec<Decl>, g: Gather) -> Result<Preset, LoadError> {
    let Gather { sources, mut diags, images, .. } = g;
    // A preset it extends did not load: what this one lacks would be guesswork.
    if diags.len() > sources.syntax_errors {
        return Err(LoadError::bounded(sources, diags));
    }
    match (Checker { diags: Vec::new(), images }).build(display, decls, sources) {
        Ok(preset) if diags.is_empty() => Ok(preset),
        Ok(preset) => Err(LoadError::bounded(preset.sources, diags)),
        Err((sources, more)) => {
            let follows = |d: &Diagnostic| {
                let m = &d.message;
                sources.skipped_words.iter().any(|w| m.contains(&format!("`{w}`")) || m.contains(&format!("`{w} ")))
            };
            diags.extend(more.into_iter().filter(|d| !follows(d)));
            Err(LoadError::bounded(sources, diags))
        }
    }
}

impl LoadError {
    /// At most [`MAX_DIAGNOSTICS`], then one line that counts the rest.
    fn bounded(sources: Sources, mut diagnostics: Vec<Diagnostic>) -> LoadError {
        if diagnostics.len() > MAX_DIAGNOSTICS {
            let more = diagnostics.len() - MAX_DIAGNOSTICS;
            let at = diagnostics[MAX_DIAGNOSTICS].span;
            diagnostics.truncate(MAX_DIAGNOSTICS);
            diagnostics.push(Diagnostic::new(at, format!("... and {more} more errors")));
        }
        LoadError { sources, diagnostics }
    }
}

/// A preset's text as read: the name to show, the key for the cycle check (the canonical path, or
/// the shipped name), the text, and the directory its relative `extends` start from.
struct Read {
    display: String,
    key: String,
    text: String,
    dir: Option<PathBuf>,
}

/// A shipped name or a path, read through [`crate::files::read_text`].
fn read_spec(spec: &str, base: Option<&Path>) -> Result<Read, String> {
    if let Some(text) = crate::presets::shipped(spec) {
        let display = format!("presets/{spec}.preset");
        return Ok(Read { key: format!("shipped:{spec}"), display, text: text.to_string(), dir: None });
    }
    let path = match base {
        Some(dir) if Path::new(spec).is_relative() => dir.join(spec),
        _ => PathBuf::from(spec),
    };
    let text = crate::files::read_text(&path).map_err(|e| match e {
        crate::files::ReadError::NotFound => no_preset(spec, &e),
        e => format!("preset `{spec}` is not read: {e}"),
    })?;
    // The file was just read, so it exists; canonical paths make `a/../a/x.preset` and `x.preset` one file.
    let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone()).display().to_string();
    Ok(Read { display: path.display().to_string(), key, text, dir: path.parent().map(Path::to_path_buf) })
}

fn no_preset(spec: &str, e: &crate::files::ReadError) -> String {
    let names: Vec<String> = crate::presets::NAMES.iter().map(|n| n.to_string()).collect();
    let hint = suggest(spec, names.iter().collect());
    format!("no preset `{spec}`{hint} ({e}; shipped presets: {})", crate::presets::NAMES.join(", "))
}

/// The files of one preset as `extends` brings them in, with what loading them has cost so far.
#[derive(Default)]
struct Gather {
    sources: Sources,
    diags: Vec<Diagnostic>,
    /// Cycle-check keys of the files being read, outermost first.
    chain: Vec<String>,
    loads: usize,
    /// The pictures piece declarations name (`image "knight.svg"`), read from beside the file that
    /// names them, by the span of the name: the picture, or why it was not read.
    images: Images,
}

type Images = std::collections::HashMap<Span, Result<crate::preset::PieceImage, String>>;

impl Gather {
    /// Parse a file and splice in the declarations of what it extends, depth first.
    fn gather(&mut self, file: Read) -> Vec<Decl> {
        self.loads += 1;
        let id = self.sources.add(file.display.as_str(), file.text.as_str());
        let recovered = parse_preset_recovering(id, &file.text);
        self.sources.skipped_words.extend(recovered.skipped_words);
        self.sources.syntax_errors += recovered.diagnostics.len();
        self.diags.extend(recovered.diagnostics);
        self.splice(recovered.ast, file)
    }

    /// As [`Gather::gather`] for a file that something other than the user named: if it does not
    /// parse as a preset, the error (for the line that named it) neither quotes it nor keeps its text.
    fn gather_foreign(&mut self, file: Read, named: &str) -> Result<Vec<Decl>, String> {
        self.loads += 1;
        let id = self.sources.add(file.display.as_str(), "");
        match parse_preset(id, &file.text) {
            Ok(ast) => {
                self.sources.set_text(id, &file.text);
                Ok(self.splice(ast, file))
            }
            Err(d) => {
                let line = file.text[..(d.span.start as usize).min(file.text.len())].matches('\n').count() + 1;
                Err(format!(
                    "`{named}` does not parse as a preset (at line {line}); `herald check {}` says why",
                    file.display
                ))
            }
        }
    }

    fn splice(&mut self, ast: PresetAst, file: Read) -> Vec<Decl> {
        self.chain.push(file.key.clone());
        let mut out = Vec::new();
        for decl in ast.decls {
            if let Decl::Piece(p) = &decl {
                self.read_images(p, file.dir.as_deref());
            }
            let Decl::Extends(base) = &decl else {
                out.push(decl);
                continue;
            };
            if self.diags.len() > MAX_DIAGNOSTICS {
                break;
            }
            if self.chain.len() > MAX_EXTENDS_DEPTH {
                self.diags.push(Diagnostic::new(
                    base.span,
                    format!("presets extend each other more than {MAX_EXTENDS_DEPTH} deep"),
                ));
                continue;
            }
            if self.loads >= MAX_LOADS {
                let msg = format!("this preset and those it extends make more than {MAX_LOADS} files to read");
                self.diags.push(Diagnostic::new(base.span, msg));
                break;
            }
            // A preset from a stranger may name only shipped presets or other `.preset` files.
            if crate::presets::shipped(&base.node).is_none() && !base.node.ends_with(".preset") {
                let msg = if base.node.contains(['/', '\\', '.']) {
                    format!("`extends` names a shipped preset or a `.preset` file, not `{}`", base.node)
                } else {
                    no_preset(&base.node, &crate::files::ReadError::NotFound)
                };
                self.diags.push(Diagnostic::new(base.span, msg));
                continue;
            }
            match read_spec(&base.node, file.dir.as_deref()) {
                Ok(next) if self.chain.contains(&next.key) => {
                    let through: Vec<&str> = self.chain.iter().map(|k| k.trim_start_matches("shipped:")).collect();
                    self.diags.push(Diagnostic::new(
                        base.span,
                        format!("`{}` extends itself (through {})", base.node, through.join(" -> ")),
                    ));
                }
                // Diagnostics quote only files that parsed as presets: `x.preset` may be a link to
                // any file, and its lines are not ours to print.
                Ok(next) => match self.gather_foreign(next, &base.node) {
                    Ok(decls) => out.extend(decls),
                    Err(msg) => self.diags.push(Diagnostic::new(base.span, msg)),
                },
                Err(msg) => self.diags.push(Diagnostic::new(base.span, msg)),
            }
        }
        self.chain.pop();
        out
    }
}

impl Gather {
    /// Read the pictures a piece declaration names, from the folder of the file that declares it.
    fn read_images(&mut self, p: &PieceDecl, dir: Option<&Path>) {
        for name in &p.image {
            let read = crate::files::read_image(dir, &name.node).map_err(|e| e.to_string());
            let image = read.map(|(ty, bytes)| crate::preset::PieceImage { ty, bytes: bytes.into(), inverted: false });
            self.images.insert(name.span, image);
        }
    }
}

struct Checker {
    diags: Vec<Diagnostic>,
    images: Images,
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
    facing_break: bool,
    captures_to_hand: bool,
    must_capture: bool,
    drop_zones: IndexMap<String, (bool, Name, Name)>,
    drop_rules: IndexMap<String, (Name, bool, bool, bool)>,
    drop_as: IndexMap<String, (Name, Vec<Name>)>,
    immobility: bool,
    checks_illegal: bool,
    must_drop: bool,
    castle_dropped: bool,
    gating: Option<Name>,
    explode: Option<(Vec<Name>, Span)>,
    ep_zone: Option<Name>,
    fen_unmoved: Option<Name>,
    frozen_in_check: IndexMap<String, Name>,
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
            Decl::Remove(RemoveDecl::Facing(_)) => m.facing_break = false,
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
            Decl::FacingBreak(_) => m.facing_break = true,
            Decl::CapturesCompulsory(_) => m.must_capture = true,
            Decl::DropZone { piece, negate, region } => {
                m.drop_zones.insert(piece.node.clone(), (negate, piece, region));
            }
            Decl::DropRule { piece, one_per_file, no_mate, opposite_colours } => {
                m.drop_rules.insert(piece.node.clone(), (piece, one_per_file, no_mate, opposite_colours));
            }
            Decl::DropAs { piece, kinds } => {
                m.drop_as.insert(piece.node.clone(), (piece, kinds));
            }
            Decl::Immobility(_) => m.immobility = true,
            Decl::ChecksIllegal(_) => m.checks_illegal = true,
            Decl::DropsCompulsory(_) => m.must_drop = true,
            Decl::CastleDropped(_) => m.castle_dropped = true,
            Decl::Gating(r) => m.gating = Some(r),
            Decl::CapturesExplode(spared, span) => m.explode = Some((spared, span)),
            Decl::EnPassant(r) => m.ep_zone = Some(r),
            Decl::FenUnmoved(r) => m.fen_unmoved = Some(r),
            Decl::FrozenInCheck(k) => {
                m.frozen_in_check.insert(k.node.clone(), k);
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
        // The setup's board can be read when the board is sound and the pieces fit the cell codes,
        // whatever else is wrong (a piece whose moves did not parse keeps its labels, with no moves).
        let board_ok = self.diags.is_empty() && m.board.is_some() && m.pieces.len() <= cell::MAX_KINDS;
        let forward = BySide::new(m.sides[0].unwrap_or(Direction::Up), m.sides[1].unwrap_or(Direction::Down));
        let (kinds, moves, within) = self.kinds(&m, whole);
        let lookup = Lookup { geo: &geo, kinds: &kinds };
        let regions = self.regions(&m, &lookup);
        let limits = self.move_limits(&m, &lookup, &regions, &within);
        let promotions = self.promotions(&m, &lookup, &regions);
        let drop_zones = self.drop_zones(&m, &lookup, &regions);
        let castles = self.castles(&m, &lookup);
        let ends = self.ends(&m, &lookup, &regions);
        let demote = self.demotions(&m, &lookup);
        let gating = m.gating.as_ref().and_then(|r| self.region_named(&regions, r));
        let ep_zone = m.ep_zone.as_ref().and_then(|r| self.region_named(&regions, r));
        let explode = m.explode.as_ref().map(|(spared, _)| crate::preset::Explosion {
            spared: spared.iter().filter_map(|k| self.kind(&lookup, k)).fold(0u64, |b, k| b | 1 << k),
            around: [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
                .map(|(dx, dy)| geo.delta(dx, dy)),
        });
        let check_limit = ends.iter().find_map(|r| if let EndRule::Checks(n, _) = r { Some(*n) } else { None });
        let (drop_one_per_file, drop_no_mate, drop_opposite_colours) = self.drop_rules(&m, &lookup);
        let fen_unmoved = m.fen_unmoved.as_ref().and_then(|r| self.region_named(&regions, r));
        let frozen_in_check =
            m.frozen_in_check.values().filter_map(|k| self.kind(&lookup, k)).fold(0u64, |b, k| b | 1 << k);
        let (drop_as, drop_base) = self.drop_as(&m, &lookup);
        let images = self.images(&m);
        let (mut script, inits, script_diags) = Compiler::new(&kinds, &geo).script(&m.script);
        // A turn of a move or a drop and nothing else to run: drops are generated natively.
        let drops = script.globals.is_empty()
            && m.script.hooks.values().all(|h| h.point == crate::syntax::script::HookPoint::Setup)
            && matches!(&script.turn[..], [p] if !p.optional && !p.if_possible && p.from.is_none()
                && p.kinds.len() == 2 && p.kinds.contains(&PartKind::Move) && p.kinds.contains(&PartKind::Drop));
        if drops {
            script.active = false;
        }
        let range_names: Vec<Option<Name>> = m.pieces.values().map(|p| p.range.clone()).collect();
        self.diags.extend(script_diags);
        // The turn generator of scripted turns judges royal safety by check alone, which an
        // explosion that destroys a royal piece would fool.
        if let Some((_, span)) = &m.explode
            && script.active
        {
            self.err(*span, "`captures explode` works only with plain turns: no hooks, state or turn of several parts");
        }
        // A `drop` rule only restricts drops: without a drop part in the turn there are none to restrict.
        if !script.turn.iter().any(|p| p.kinds.contains(&crate::syntax::script::PartKind::Drop))
            && let Some(piece) = m.drop_zones.values().map(|z| &z.1).chain(m.drop_as.values().map(|a| &a.0)).next()
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
        if !self.diags.is_empty() && !board_ok {
            return Err((sources, self.diags));
        }
        let had_setup = setup.is_some();
        // Castling pieces' virgin marks are not hashed: the castling rights they add up to are
        // (`Position::castle_rights`), so that the same FEN always hashes the same.
        // Moves of pawn-like pieces reset the move-limit count: pieces that only go forward and
        // move otherwise than they capture (the FIDE and makruk pawns; not a shogi pawn or lance,
        // whose moves Fairy-Stockfish's FEN count does not reset).
        let irreversible = moves
            .iter()
            .map(|ms| {
                let forward = ms.iter().all(|b| b.images.iter().all(|&(_, dy)| dy > 0));
                forward && ms.iter().any(|b| b.can_move != b.can_capture)
            })
            .collect();
        // With gating, whether a piece has moved decides whether it opens a gate: hashed for all.
        let cares: Vec<bool> = kinds.iter().map(|k| k.cares_virgin || gating.is_some()).collect();
        let move_spans: Vec<(Span, String)> = m
            .pieces
            .values()
            .map(|p| (p.moves.as_ref().map_or(p.name.span, |s| s.span), p.name.node.clone()))
            .collect();
        let too_much = |e: movement::TooMuchWork| {
            let (span, name) = &move_spans[e.kind];
            let msg = format!(
                "the moves of {name} take more than {} units of work to compile (paths that multiply at each leg?)",
                movement::MAX_MOVEMENT_WORK
            );
            vec![Diagnostic::new(*span, msg)]
        };
        let movement = match movement::compile(&geo, &moves, &[], forward, &limits) {
            Ok(m) => m,
            Err(e) => return Err((sources, too_much(e))),
        };
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
            facing_break: m.facing_break,
            captures_to_hand: m.captures_to_hand,
            must_capture: m.must_capture,
            explode,
            ep_zone,
            check_limit: check_limit.unwrap_or(0),
            drop_zones,
            demote,
            drops,
            hand_pool: drops || gating.is_some(),
            gating,
            drop_one_per_file,
            drop_no_mate,
            drop_as,
            drop_base,
            fen_unmoved,
            frozen_in_check,
            drop_opposite_colours,
            no_checks: m.checks_illegal,
            must_drop: m.must_drop,
            castle_dropped: m.castle_dropped,
            mobile: Vec::new(),
            promo_limit: Vec::new(),
            setup_cells: Vec::new(),
            script,
            images,
            bits: None,
            attack_bits: None,
        };
        if !self.diags.is_empty() {
            if had_setup && let Err(e) = fen::parse_board_only(&preset, &setup.node) {
                self.err(setup.span, format!("bad setup: {e}"));
            }
            return Err((preset.sources, self.diags));
        }
        // Castling's attack test protects a royal piece: a castling king that is not royal, or a
        // preset without royal safety, castles through attacked squares.
        for c in &mut preset.castles {
            let king_royal = preset.kinds.get(cell::kind(c.king)).is_some_and(|k| k.royal);
            if !(preset.royal_safety && king_royal) {
                c.safe.clear();
            }
        }
        let mut left = LoadSteps(crate::script::interp::MAX_STEPS);
        if let Err(diags) = initial_values(&mut preset, &inits, &mut left) {
            return Err((preset.sources, diags));
        }
        match range_tables(&preset, &range_names, &mut left) {
            Ok(limits) if limits.iter().any(Option::is_some) => {
                let extra = movement::Limits {
                    regions: preset.movement.regions.clone(),
                    hop_limits: preset.movement.hop_limits.clone(),
                    pass_kinds: preset.movement.pass_kinds,
                };
                match movement::compile(&preset.geo, &moves, &limits, forward, &extra) {
                    Ok(m) => preset.movement = m,
                    Err(e) => {
                        let diags = too_much(e);
                        return Err((preset.sources, diags));
                    }
                }
            }
            Ok(_) => {}
            Err(diags) => return Err((preset.sources, diags)),
        }
        if m.immobility {
            preset.mobile = mobility(&preset);
        }
        match fen::parse_board_only(&preset, &setup.node) {
            Ok(cells) => {
                preset.promo_limit = promo_limits(&preset, &cells);
                preset.setup_cells = cells;
            }
            Err(e) => return Err((preset.sources, vec![Diagnostic::new(setup.span, format!("bad setup: {e}"))])),
        }
        if let Err(e) = fen::parse(&preset, &setup.node) {
            return Err((preset.sources, vec![Diagnostic::new(setup.span, format!("bad setup: {e}"))]));
        }
        preset.bits = crate::engine::bulk::tables(&preset);
        preset.attack_bits = crate::engine::attackbits::compile(&preset.geo, &preset.movement);
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

    /// The kinds, their Betza moves, and the region names their `within` moves name (a move's
    /// `within` is 1 + its index in that list).
    fn kinds(&mut self, m: &Merged, whole: Span) -> (Vec<Kind>, Vec<Vec<BetzaMove>>, Vec<Name>) {
        let mut kinds = Vec::new();
        let mut moves = Vec::new();
        let mut within: Vec<Name> = Vec::new();
        if m.pieces.is_empty() {
            self.err(whole, "the preset declares no pieces");
        }
        if m.pieces.len() > cell::MAX_KINDS {
            self.err(whole, format!("{} kinds of piece; the limit is {}", m.pieces.len(), cell::MAX_KINDS));
        }
        let mut seen: IndexMap<String, String> = IndexMap::new();
        for p in m.pieces.values() {
            let white = p.label.node.clone();
            if !white.trim_start_matches('+').starts_with(|c: char| c.is_ascii_uppercase()) {
                self.err(p.label.span, format!("label `{white}` must start with an upper-case letter (White's label; Black's is its lower case)"));
            }
            let black = white.to_ascii_lowercase();
            if let Some(other) = seen.get(&white) {
                self.err(p.label.span, format!("label `{white}` is already used by {other}"));
            }
            seen.insert(white.clone(), p.name.node.clone());
            let betza_text = p.moves.as_ref().map(|s| s.node.clone()).unwrap_or_default();
            let mut parsed = match &p.moves {
                Some(s) => betza::parse(&s.node).unwrap_or_else(|e| {
                    self.err(s.span.sub(e.offset, e.len), format!("in the moves of {}: {}", p.name.node, e.message));
                    Vec::new()
                }),
                None if p.more_moves.is_empty() => {
                    self.err(p.name.span, format!("piece {} has no `moves`", p.name.node));
                    Vec::new()
                }
                None => Vec::new(),
            };
            for g in &p.more_moves {
                let idx = match &g.within {
                    Some(r) => match within.iter().position(|w| w.node == r.node) {
                        Some(i) => i + 1,
                        None => {
                            within.push(r.clone());
                            within.len()
                        }
                    },
                    None => 0,
                };
                let more = betza::parse(&g.betza.node).unwrap_or_else(|e| {
                    let s = &g.betza;
                    self.err(s.span.sub(e.offset, e.len), format!("in the moves of {}: {}", p.name.node, e.message));
                    Vec::new()
                });
                for mut bm in more {
                    if bm.shape != betza::Shape::Straight {
                        self.err(
                            g.betza.span,
                            "moves `within` a region, `unless_checked` or `attacks` only are straight lines or leaps",
                        );
                    }
                    bm.within = idx.min(255) as u8;
                    bm.attack_only = g.attack_only;
                    bm.calm = g.calm;
                    parsed.push(bm);
                }
            }
            if within.len() > 254 {
                self.err(p.name.span, "too many regions named by `within` (254 at most)");
            }
            let cares = parsed.iter().any(|b| b.initial);
            // The text's first part is read as moves, so the groups that move come before the
            // attack-only ones; with no moves at all it starts empty (`" attacks "vR`).
            let groups =
                p.more_moves.iter().filter(|g| !g.attack_only).chain(p.more_moves.iter().filter(|g| g.attack_only));
            let betza_text = groups.fold(betza_text, |t, g| {
                let what = if g.attack_only { "attacks" } else { "moves" };
                let mut within = g.within.as_ref().map(|w| format!(" within {}", w.node)).unwrap_or_default();
                if g.calm {
                    within.push_str(" unless_checked");
                }
                if t.is_empty() && !g.attack_only {
                    format!("{}{within}", g.betza.node)
                } else {
                    format!("{t}\" {what} \"{}{within}", g.betza.node)
                }
            });
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
        (kinds, moves, within)
    }

    /// Each kind's pictures: White's and Black's, or one for both (Black's drawn inverted).
    fn images(&mut self, m: &Merged) -> Vec<BySide<Option<crate::preset::PieceImage>>> {
        let mut out = Vec::with_capacity(m.pieces.len());
        for p in m.pieces.values() {
            let mut got = Vec::new();
            for name in &p.image {
                match self.images.get(&name.span) {
                    Some(Ok(image)) => got.push(Some(image.clone())),
                    Some(Err(why)) => {
                        let why = why.clone();
                        self.err(name.span, why);
                        got.push(None);
                    }
                    None => got.push(None),
                }
            }
            out.push(match got.as_slice() {
                [Some(w), Some(b)] => BySide::new(Some(w.clone()), Some(b.clone())),
                [Some(w)] => {
                    BySide::new(Some(w.clone()), Some(crate::preset::PieceImage { inverted: true, ..w.clone() }))
                }
                _ => BySide::new(None, None),
            });
        }
        out
    }

    /// Regions named by `within`, kinds named by `hops_not_over` and `spares`, and `passes`.
    fn move_limits(
        &mut self,
        m: &Merged,
        l: &Lookup,
        regions: &IndexMap<String, BySide<Vec<bool>>>,
        within: &[Name],
    ) -> movement::Limits {
        let mut out = movement::Limits { regions: vec![BySide::new(Vec::new(), Vec::new())], ..Default::default() };
        for w in within {
            let zone = self.region_named(regions, w);
            out.regions.push(zone.unwrap_or_else(|| BySide::new(vec![false; l.geo.cells], vec![false; l.geo.cells])));
        }
        for (k, p) in m.pieces.values().enumerate() {
            let mut bits = |names: &[Name]| names.iter().filter_map(|n| self.kind(l, n)).fold(0u64, |b, k| b | 1 << k);
            let over = bits(&p.hops_not_over);
            let take = bits(&p.spares);
            out.hop_limits.push((over, take));
            if p.passes {
                out.pass_kinds |= 1 << k;
            }
        }
        out
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
                                    zone[side][sq.idx()] = true;
                                }
                            }
                        }
                    }
                    RegionItem::Squares(sqs) => {
                        for s in sqs {
                            if let Some(sq) = self.square(l, s) {
                                zone[Side::White][sq.idx()] = true;
                                zone[Side::Black][sq.idx()] = true;
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
            let zone = self.region_named(regions, &p.region);
            let choices: Vec<usize> = p.choices.iter().filter_map(|c| self.kind(l, c)).collect();
            if let (Some(k), Some(zone)) = (piece, zone) {
                out[k] = Some(Promotion {
                    zone,
                    choices,
                    optional: p.optional,
                    hand: p.hand,
                    leaving: p.leaving,
                    lost: p.lost,
                    on_capture: p.on_capture,
                });
            }
        }
        out
    }

    /// `promoted from KIND`: per kind, the kind it goes to hand as when captured.
    fn demotions(&mut self, m: &Merged, l: &Lookup) -> Vec<u8> {
        let mut out: Vec<u8> = (0..l.kinds.len() as u8).collect();
        for (i, p) in m.pieces.values().enumerate() {
            if let Some(base) = &p.promoted_from
                && let Some(k) = self.kind(l, base)
            {
                out[i] = k as u8;
            }
        }
        out
    }

    /// `drop KIND one_per_file no_mate opposite_colours`: a bit per kind for each rule.
    fn drop_rules(&mut self, m: &Merged, l: &Lookup) -> (u64, u64, u64) {
        let (mut files, mut mates, mut colours) = (0u64, 0u64, 0u64);
        for (piece, one_per_file, no_mate, opposite) in m.drop_rules.values() {
            if let Some(k) = self.kind(l, piece) {
                files |= u64::from(*one_per_file) << k;
                mates |= u64::from(*no_mate) << k;
                colours |= u64::from(*opposite) << k;
            }
        }
        (files, mates, colours)
    }

    /// `drop KIND also_as KIND...`: per kind, the other kinds it may be dropped as; and per kind, the
    /// kind in hand a drop of it takes (itself, or the kind whose `also_as` names it).
    fn drop_as(&mut self, m: &Merged, l: &Lookup) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut extra = vec![Vec::new(); l.kinds.len()];
        let mut base: Vec<u8> = (0..l.kinds.len() as u8).collect();
        for (piece, kinds) in m.drop_as.values() {
            let Some(k) = self.kind(l, piece) else { continue };
            for name in kinds {
                let Some(other) = self.kind(l, name) else { continue };
                if other == k || extra[k].contains(&(other as u8)) {
                    continue;
                }
                if base[other] as usize != other {
                    let first = &l.kinds[base[other] as usize].name;
                    self.err(
                        name.span,
                        format!(
                            "{} is already named by `drop {first} also_as`: a dropped {} must come from one kind in hand",
                            name.node, name.node
                        ),
                    );
                    continue;
                }
                base[other] = k as u8;
                extra[k].push(other as u8);
            }
        }
        (extra, base)
    }

    /// The region a declaration names (`within R`, `promote ... in R`, `drop K in R`, `end reach R`,
    /// `gating in R`, `en_passant in R`, `fen_unmoved in R`), or an error with a did-you-mean when
    /// there is none.
    fn region_named(&mut self, regions: &IndexMap<String, BySide<Vec<bool>>>, r: &Name) -> Option<BySide<Vec<bool>>> {
        let zone = regions.get(&r.node).cloned();
        if zone.is_none() {
            let known: Vec<&String> = regions.keys().collect();
            self.err(r.span, format!("unknown region `{}`{}", r.node, suggest(&r.node, known)));
        }
        zone
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
            let Some(zone) = self.region_named(regions, region) else { continue };
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
                EndCond::Stalemate(fewer) => EndRule::Stalemate(e.outcome, *fewer),
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
                EndCond::Passes => EndRule::Passes(e.outcome),
                EndCond::Facing => EndRule::Facing(e.outcome),
                EndCond::Reach(region, by, answered) => {
                    let Some(zone) = self.region_named(regions, region) else { continue };
                    let royal: Vec<usize> =
                        l.kinds.iter().enumerate().filter(|(_, k)| k.royal).map(|(i, _)| i).collect();
                    let kinds = if by.is_empty() { royal } else { by.iter().filter_map(|k| self.kind(l, k)).collect() };
                    // The region's cells as a list: judged in every position, a scan of the whole
                    // board was a third of breakthrough's perft.
                    let cells = |z: &[bool]| z.iter().enumerate().filter(|(_, z)| **z).map(|(c, _)| c as u16).collect();
                    let zone = BySide::new(cells(&zone[Side::White]), cells(&zone[Side::Black]));
                    EndRule::Reach(zone, kinds, *answered, e.outcome)
                }
                EndCond::Bare(answered) => EndRule::Bare(*answered, e.outcome),
                EndCond::Extinction(kinds, at_most) => {
                    let kinds = kinds.as_ref().map(|ks| ks.iter().filter_map(|k| self.kind(l, k)).collect());
                    EndRule::Extinction(kinds, at_most.as_ref().map_or(0, |n| n.node), e.outcome)
                }
                EndCond::Checks(n) if !(1..=99).contains(&n.node) => {
                    self.err(n.span, "a count of checks must be from 1 to 99");
                    continue;
                }
                EndCond::Checks(n) => EndRule::Checks(n.node as u8, e.outcome),
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
    // Rank 0 is no square (`r - 1` underflowed: `then_some` builds its value before the test).
    r.checked_sub(1).map(|r| (f, r))
}

/// Steps left of the budget shared by everything a preset computes while it loads: initial values
/// and `range` tables ([`crate::script::interp::MAX_STEPS`] in all).
struct LoadSteps(u64);

impl LoadSteps {
    /// The error when nothing is left.
    fn spent(&self) -> String {
        format!(
            "what the preset computes while it loads (initial values, `range` tables) ran for more than {} steps in all",
            crate::script::interp::MAX_STEPS
        )
    }
}

/// Evaluate the initial values of `state` and `var` (constant expressions) on an empty board.
fn initial_values(
    preset: &mut Preset,
    inits: &[crate::script::ir::Code],
    left: &mut LoadSteps,
) -> Result<(), Vec<Diagnostic>> {
    let mut values = Vec::new();
    let mut diags = Vec::new();
    for code in inits {
        let (result, used) = crate::script::hooks::constant_within(preset, code, left.0);
        left.0 -= used;
        match result {
            Ok(v) => values.push(v),
            Err(_) if left.0 == 0 => {
                diags.push(Diagnostic::new(code.span, left.spent()));
                return Err(diags);
            }
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

/// Evaluate each `range FN` once for every count of steps that can fit on the board: each function
/// once per preset, however many pieces use it, within the load's budget of steps (sixty pieces
/// naming a slow function made sixty tables of full budgets each).
fn range_tables(
    preset: &Preset,
    names: &[Option<Name>],
    left: &mut LoadSteps,
) -> Result<Vec<movement::RangeFn>, Vec<Diagnostic>> {
    let most = preset.geo.files.max(preset.geo.ranks);
    let mut diags = Vec::new();
    let mut out = Vec::new();
    let mut tables: std::collections::HashMap<usize, Option<Vec<u8>>> = std::collections::HashMap::new();
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
        if let Some(table) = tables.get(&f) {
            // Computed (or failed, and said so) for an earlier piece.
            out.push(table.clone());
            continue;
        }
        let mut table = Vec::with_capacity(most + 1);
        let mut failed = false;
        for n in 0..=most {
            let args = vec![crate::script::Value::Int(n as i64)];
            let (result, used) = crate::script::hooks::call_within(preset, f, args, left.0);
            left.0 -= used;
            match result {
                Ok(crate::script::Value::Int(r)) => table.push(r.clamp(0, 255) as u8),
                Ok(other) => {
                    let msg = format!("`{}({n})` gave {}, not a number of steps", name.node, other.type_name());
                    diags.push(Diagnostic::new(name.span, msg));
                    failed = true;
                }
                Err(_) if left.0 == 0 => {
                    let msg = format!("{} (`{}` runs once for each n from 0 to {most})", left.spent(), name.node);
                    diags.push(Diagnostic::new(name.span, msg));
                    return Err(diags);
                }
                Err(e) => {
                    diags.push(Diagnostic::new(e.span, e.message));
                    failed = true;
                }
            }
            if failed {
                break;
            }
        }
        let table = (!failed).then_some(table);
        tables.insert(f, table.clone());
        out.push(table);
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// `promote ... to lost ...`: per piece code, the setup's count of the kinds such rules name.
fn promo_limits(preset: &Preset, setup: &[u8]) -> Vec<u16> {
    let lost: Vec<&Promotion> = preset.promotions.iter().flatten().filter(|p| p.lost).collect();
    if lost.is_empty() {
        return Vec::new();
    }
    let mut limit = vec![u16::MAX; 128];
    for p in lost {
        for &k in &p.choices {
            for side in Side::BOTH {
                let code = cell::piece(k, side);
                limit[code as usize] = setup.iter().filter(|&&c| cell::code(c) == code).count() as u16;
            }
        }
    }
    limit
}

/// `immobility illegal`: per piece code and cell, whether the piece alone on the board has a move.
fn mobility(preset: &Preset) -> Vec<Vec<bool>> {
    use crate::engine::Position;
    let mut out = vec![Vec::new(); 128];
    let mut moves = Vec::new();
    for k in 0..preset.kinds.len() {
        for side in Side::BOTH {
            let code = cell::piece(k, side);
            let mut table = vec![false; preset.geo.cells];
            for &sq in &preset.geo.squares {
                let mut pos = Position::empty(preset);
                pos.place(&preset.zobrist, sq, code);
                pos.side = side;
                moves.clear();
                pos.pseudo_moves(preset, &mut moves);
                table[sq.idx()] = moves.iter().any(|m| m.from == sq);
            }
            out[code as usize] = table;
        }
    }
    out
}

fn stem(path: &str) -> String {
    Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| path.to_string())
}
