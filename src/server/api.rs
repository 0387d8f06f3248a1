//! The JSON API (docs/web.md): games as resources, created, read, played, taken back and searched;
//! a bad request is answered with a 4xx and `{"error": ...}` and changes nothing.

use super::state::{Entry, Games, entry};
use super::svg;
use crate::engine::turn::{Turn, TurnPart};
use crate::engine::{Position, Side};
use crate::game::Game;
use crate::preset::Preset;
use crate::search::{Limits, Searcher};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The largest `/go` a request may ask for: a search is one request's compute.
pub const MAX_GO_NODES: u64 = 5_000_000;
pub const MAX_GO_MS: u64 = 10_000;
/// What `/go` and `/hint` search when not told.
pub const DEFAULT_GO_MS: u64 = 1_000;
/// Turns a created game may be given to replay (a game brought back after a restart).
pub const MAX_REPLAY: usize = 5_000;

/// An answer: the status and a JSON body.
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    pub fn ok(body: Value) -> Reply {
        Reply { status: 200, body }
    }
    pub fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply { status, body: json!({ "error": why.into() }) }
    }
}

type Result<T> = std::result::Result<T, Reply>;

/// What the API serves from: the games, and the preset named on the command line.
pub struct Api {
    pub games: Games,
    /// The name the command line gave and its preset (a shipped name or a file the user chose).
    pub default: (String, Arc<Preset>),
    pub seed: Option<u64>,
    /// Shipped presets checked once, by name.
    loaded: Mutex<HashMap<String, Arc<Preset>>>,
}

impl Api {
    pub fn new(default: (String, Arc<Preset>), seed: Option<u64>) -> Api {
        Api { games: Games::default(), default, seed, loaded: Mutex::default() }
    }

    /// A preset by name: the command line's, or a shipped one. A request never names a file.
    pub fn preset(&self, name: &str) -> Result<Arc<Preset>> {
        if name == self.default.0 {
            return Ok(self.default.1.clone());
        }
        if crate::presets::shipped(name).is_none() {
            let names: Vec<String> = crate::presets::NAMES.iter().map(|n| n.to_string()).collect();
            let hint = crate::diag::suggest(name, names.iter().collect());
            return Err(Reply::error(404, format!("no preset `{name}`{hint}")));
        }
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = loaded.get(name) {
            return Ok(p.clone());
        }
        let p = crate::check::load(name).map(Arc::new).map_err(|e| Reply::error(500, e.render()))?;
        loaded.insert(name.to_string(), p.clone());
        Ok(p)
    }

    /// Route `/api/...` (the path after `/api/`, split at `/`).
    pub fn handle(&self, method: &str, path: &[&str], body: &[u8]) -> Reply {
        let r = match (method, path) {
            ("GET", ["presets"]) => Ok(Reply::ok(self.presets())),
            ("GET", ["presets", name]) => self.preset_info(name),
            ("POST", ["check"]) => parse(body).and_then(|v| self.check(&v)),
            ("POST", ["games"]) => parse(body).and_then(|v| self.create(&v)),
            ("GET", ["games", id]) => self.with(id, |e| Ok(Reply::ok(state(id, e)))),
            ("GET", ["games", id, "yaml"]) => self.with(id, yaml),
            ("POST", ["games", id, action]) => parse(body).and_then(|v| self.act(id, action, &v)),
            (_, ["games"] | ["games", _] | ["games", _, _] | ["presets"] | ["presets", _] | ["check"]) => {
                Err(Reply::error(405, format!("{method} is not a method of /api/{}", path.join("/"))))
            }
            _ => Err(Reply::error(404, format!("no resource /api/{}", path.join("/")))),
        };
        r.unwrap_or_else(|e| e)
    }

    fn with(&self, id: &str, f: impl FnOnce(&mut Entry) -> Result<Reply>) -> Result<Reply> {
        let e = self.games.get(id).ok_or_else(|| Reply::error(404, format!("no game `{id}`")))?;
        let mut guard = entry(&e);
        f(&mut guard)
    }

    fn presets(&self) -> Value {
        let mut names: Vec<&str> = crate::presets::NAMES.to_vec();
        if !names.contains(&self.default.0.as_str()) {
            names.insert(0, &self.default.0);
        }
        json!({ "default": self.default.0, "presets": names })
    }

    fn preset_info(&self, name: &str) -> Result<Reply> {
        let p = self.preset(name)?;
        Ok(Reply::ok(json!({
            "name": p.name,
            "inventor": p.inventor,
            "description": p.description,
            "files": p.geo.files,
            "ranks": p.geo.ranks,
            "pieces": p.kinds.iter().map(|k| json!({
                "name": k.name, "white": k.labels[Side::White], "black": k.labels[Side::Black],
                "betza": k.betza, "value": k.value, "royal": k.royal,
            })).collect::<Vec<_>>(),
        })))
    }

    /// `{"source": TEXT}`: check an uploaded preset; its name and pieces, or its diagnostics.
    fn check(&self, v: &Value) -> Result<Reply> {
        let source = field_str(v, "source")?.ok_or_else(|| missing("source"))?;
        let p = upload(source)?;
        Ok(Reply::ok(json!({ "ok": true, "name": p.name, "pieces": p.kinds.len() })))
    }

    /// `POST /api/games`: a new game of a named preset or an uploaded one, from a FEN or the setup
    /// (drawn from a seed), perhaps with turns to replay, or a sample game's YAML to open.
    fn create(&self, v: &Value) -> Result<Reply> {
        if let Some(yaml) = field_str(v, "yaml")? {
            return self.open(v, yaml);
        }
        let (name, preset) = self.chosen(v)?;
        let fen = field_str(v, "fen")?.filter(|f| !f.trim().is_empty());
        let seed = match v.get("seed") {
            None | Some(Value::Null) => self.seed,
            Some(s) => Some(s.as_u64().ok_or_else(|| bad("`seed` must be a whole number of 0 or more"))?),
        };
        let turns: Vec<String> = match v.get("turns") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) if a.len() <= MAX_REPLAY => a
                .iter()
                .map(|t| t.as_str().map(String::from).ok_or_else(|| bad("`turns` must be a list of texts")))
                .collect::<Result<_>>()?,
            Some(_) => return Err(bad(format!("`turns` must be a list of at most {MAX_REPLAY} texts"))),
        };
        let mut game = Game::new(preset, fen, seed).map_err(|e| bad(format!("fen: {e}")))?;
        for (i, t) in turns.iter().enumerate() {
            game.play(t).map_err(|e| bad(format!("turn {} `{t}`: {e}", i + 1)))?;
        }
        let e = Entry { game, preset_name: name, redo: Vec::new(), note: None };
        Ok(self.created(e))
    }

    fn created(&self, mut e: Entry) -> Reply {
        // The state is computed before the game is shared, under the id it will have.
        let id = self.games.next_id();
        let body = state(&id, &mut e);
        self.games.insert(id, e);
        Reply { status: 201, body }
    }

    /// The preset a creating request names: `source` (uploaded text) or `preset` (a name; the command
    /// line's when neither is given).
    fn chosen(&self, v: &Value) -> Result<(String, Arc<Preset>)> {
        if let Some(source) = field_str(v, "source")? {
            return Ok(("upload".into(), Arc::new(upload(source)?)));
        }
        let name = field_str(v, "preset")?.unwrap_or(&self.default.0).to_string();
        let p = self.preset(&name).map_err(|r| Reply { status: 400, ..r })?;
        Ok((name, p))
    }

    /// A sample game's YAML: its preset (by name, or the uploaded `source`), FEN, seed and turns played.
    fn open(&self, v: &Value, yaml: &str) -> Result<Reply> {
        let g = crate::games::parse_game(yaml).map_err(|e| bad(format!("the sample game: {e}")))?;
        let (name, preset) = match field_str(v, "source")? {
            Some(_) => self.chosen(v)?,
            None => (g.preset.clone(), self.preset(&g.preset).map_err(|r| Reply { status: 400, ..r })?),
        };
        let mut game = Game::new(preset, g.fen.as_deref(), g.seed).map_err(|e| bad(format!("fen: {e}")))?;
        let plays = g.steps.iter().filter_map(|s| if let crate::games::Step::Play(t) = s { Some(t) } else { None });
        for (i, t) in plays.enumerate() {
            game.play(t).map_err(|e| bad(format!("the sample game's turn {} `{t}`: {e}", i + 1)))?;
        }
        let note = format!("opened {}", g.name.unwrap_or_else(|| game.preset.name.clone()));
        Ok(self.created(Entry { game, preset_name: name, redo: Vec::new(), note: Some(note) }))
    }

    /// `POST /api/games/ID/ACTION`.
    fn act(&self, id: &str, action: &str, v: &Value) -> Result<Reply> {
        let e = self.games.get(id).ok_or_else(|| Reply::error(404, format!("no game `{id}`")))?;
        let mut e = entry(&e);
        e.note = None;
        match action {
            "play" => {
                let turn = field_str(v, "turn")?.ok_or_else(|| missing("turn"))?;
                let shown = e.game.play(turn).map_err(|err| bad(err.to_string()))?;
                // A turn played other than the next to redo ends the line that redo would follow.
                if e.redo.last() == Some(&shown) {
                    e.redo.pop();
                } else {
                    e.redo.clear();
                }
            }
            "undo" => {
                let t = e.game.undo().ok_or_else(|| Reply::error(409, "there is no turn to take back"))?;
                e.redo.push(t);
            }
            "redo" => {
                let t = e.redo.last().cloned().ok_or_else(|| Reply::error(409, "there is no turn to play again"))?;
                e.game.play(&t).map_err(|err| Reply::error(409, format!("cannot play `{t}` again: {err}")))?;
                e.redo.pop();
            }
            "go" | "hint" => {
                let limits = limits(v)?;
                let preset = e.game.preset.clone();
                if let Some(r) = e.game.result().map_err(|err| bad(err.to_string()))? {
                    return Err(Reply::error(409, format!("the game is over: {r}")));
                }
                let found = Searcher::new()
                    .search(&preset, &mut e.game.pos, &limits)
                    .map_err(|err| Reply::error(409, err.to_string()))?;
                let said = format!(
                    "{} (score {}, depth {}, {} nodes, {} ms)",
                    found.text,
                    found.score_text(),
                    found.depth,
                    found.nodes,
                    found.time_ms
                );
                if action == "hint" {
                    let mut s = state(id, &mut e);
                    s["hint"] = json!(found.text);
                    s["note"] = json!(format!("hint: {said}"));
                    return Ok(Reply::ok(s));
                }
                e.game.play(&found.text).map_err(|err| Reply::error(500, err.to_string()))?;
                e.redo.clear();
                e.note = Some(format!("the computer played {said}"));
            }
            _ => return Err(Reply::error(404, format!("no action `{action}`: play, undo, redo, go or hint"))),
        }
        Ok(Reply::ok(state(id, &mut e)))
    }
}

fn bad(why: impl Into<String>) -> Reply {
    Reply::error(400, why)
}

fn missing(field: &str) -> Reply {
    bad(format!("the request has no `{field}`"))
}

/// The body as a JSON object (an empty body is an empty object).
fn parse(body: &[u8]) -> Result<Value> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let v: Value = serde_json::from_slice(body).map_err(|e| bad(format!("the body is not JSON: {e}")))?;
    if !v.is_object() {
        return Err(bad("the body must be a JSON object"));
    }
    Ok(v)
}

/// A text field, if present; anything else there is an error.
fn field_str<'a>(v: &'a Value, name: &str) -> Result<Option<&'a str>> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("`{name}` must be a text"))),
    }
}

/// A picture of a preset by its URL name (`3-white`): its media type and bytes.
pub fn picture(p: &Preset, name: &str) -> Result<(&'static str, std::sync::Arc<[u8]>)> {
    let none = || Reply::error(404, format!("no image `{name}`"));
    let (k, side) = name.split_once('-').ok_or_else(none)?;
    let side = match side {
        "white" => Side::White,
        "black" => Side::Black,
        _ => return Err(none()),
    };
    let k: usize = k.parse().map_err(|_| none())?;
    let img = p.images.get(k).and_then(|i| i[side].as_ref()).ok_or_else(none)?;
    Ok((img.ty.mime(), img.bytes.clone()))
}

impl Api {
    /// `GET /api/games/ID/images/NAME`: a picture of the game's preset.
    pub fn game_picture(&self, id: &str, name: &str) -> Result<(&'static str, std::sync::Arc<[u8]>)> {
        let e = self.games.get(id).ok_or_else(|| Reply::error(404, format!("no game `{id}`")))?;
        let preset = entry(&e).game.preset.clone();
        picture(&preset, name)
    }
}

/// `{"nodes": N}` or `{"ms": N}` (or both), each capped; a second when neither is given.
fn limits(v: &Value) -> Result<Limits> {
    let num = |name: &str, max: u64| -> Result<Option<u64>> {
        match v.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(n) => match n.as_u64() {
                Some(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(bad(format!("`{name}` must be a whole number from 1 to {max}"))),
            },
        }
    };
    let nodes = num("nodes", MAX_GO_NODES)?;
    let ms = num("ms", MAX_GO_MS)?;
    let depth = num("depth", 40)?.map(|d| d as u32);
    if nodes.is_none() && ms.is_none() && depth.is_none() {
        return Ok(Limits::time_ms(DEFAULT_GO_MS));
    }
    // A depth alone is still bounded in time.
    Ok(Limits { depth, nodes, time_ms: ms.or(if nodes.is_none() { Some(MAX_GO_MS) } else { None }) })
}

/// Check an uploaded preset: it may extend shipped presets only (a request never reads the server's
/// files); its diagnostics with line and column when it does not load.
pub fn upload(source: &str) -> Result<Preset> {
    use crate::syntax::ast::Decl;
    let mut sources = crate::diag::Sources::default();
    let id = sources.add("upload.preset", source);
    let parsed = crate::syntax::parse::parse_preset_recovering(id, source);
    for d in &parsed.ast.decls {
        // An uploaded preset has no folder of its own: it names no file, neither a preset to extend
        // (but a shipped one) nor a picture.
        let named = match d {
            Decl::Extends(base) if crate::presets::shipped(&base.node).is_none() => {
                Some((base.span, format!("an uploaded preset may extend only a shipped preset, not `{}`", base.node)))
            }
            Decl::Piece(p) => p.image.first().map(|i| {
                let why = "an uploaded preset names no image files: serve the preset from its file \
                           (`herald serve path/to/it.preset`) to draw its pictures";
                (i.span, why.to_string())
            }),
            _ => None,
        };
        if let Some((span, message)) = named {
            let (line, column) = sources.line_col(id, span.start);
            return Err(Reply {
                status: 400,
                body: json!({
                    "error": sources.render_all(&[crate::diag::Diagnostic::new(span, message.clone())]).trim_end(),
                    "diagnostics": [{ "file": "upload.preset", "line": line, "column": column, "message": message }],
                }),
            });
        }
    }
    crate::check::load_text("upload.preset", source).map_err(|e| {
        let diagnostics: Vec<Value> = e
            .diagnostics
            .iter()
            .map(|d| {
                let (line, column) = e.sources.line_col(d.span.src, d.span.start);
                json!({ "file": e.sources.get(d.span.src).path, "line": line, "column": column, "message": d.message })
            })
            .collect();
        Reply { status: 400, body: json!({ "error": e.render(), "diagnostics": diagnostics }) }
    })
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The clicks that make one part, and what kind of part it is: a square, or a piece in hand
/// (`hand:LABEL`) then a square.
fn part_clicks(p: &Preset, part: &TurnPart) -> (&'static str, Vec<String>) {
    let g = &p.geo;
    match *part {
        TurnPart::Move(m) => ("move", vec![g.name(m.from), g.name(m.to)]),
        TurnPart::Drop(c, to) => ("drop", vec![format!("hand:{}", p.label_of(c)), g.name(to)]),
        TurnPart::Remove(s) => ("remove", vec![g.name(s)]),
        TurnPart::Construct(s) => ("build", vec![g.name(s)]),
        TurnPart::Destroy(s) => ("destroy", vec![g.name(s)]),
        TurnPart::Discard(c) => ("discard", vec![format!("hand:{}", p.label_of(c))]),
    }
}

/// A turn for the page: its text, its clicks, and its parts (the page previews the parts clicked).
fn turn_json(p: &Preset, text: &str, t: &Turn) -> Value {
    let parts: Vec<(&str, Vec<String>)> = t.parts().iter().map(|part| part_clicks(p, part)).collect();
    let clicks: Vec<&String> = parts.iter().flat_map(|(_, c)| c).collect();
    json!({
        "text": text,
        "clicks": clicks,
        "parts": parts.iter().map(|(kind, c)| json!({ "kind": kind, "clicks": c })).collect::<Vec<_>>(),
    })
}

/// A game's state: what the page shows and the legal turns with the clicks that make each.
pub fn state(id: &str, e: &mut Entry) -> Value {
    let game = &mut e.game;
    let (legal, error) = match game.legal() {
        Ok(l) => (l, None),
        Err(err) => (Vec::new(), Some(err.to_string())),
    };
    let result = game.result().ok().flatten();
    let p = game.preset.clone();
    let mut turns: Vec<(String, &Turn)> = legal.iter().map(|t| (game.text(t), t)).collect();
    turns.sort_by(|a, b| a.0.cmp(&b.0));
    let pos: &Position = &game.pos;
    let side = pos.side;
    let in_check = result.is_none() && p.royal_safety && pos.in_check(&p, side);
    let status = match &result {
        Some(r) => r.to_string(),
        None if in_check => format!("{side} to move (check)"),
        None => format!("{side} to move"),
    };
    let base = format!("/api/games/{id}/images/");
    let pics = svg::Pictures(Some(base.as_str()));
    let mut said: Vec<String> = game.said().to_vec();
    if let Some(err) = error {
        said.push(err);
    }
    json!({
        "id": id,
        "preset": e.preset_name,
        "title": p.name,
        "fen": game.fen(),
        "start_fen": game.start_fen,
        "seed": game.drawn_from(),
        "side": side_name(side),
        "result": result.as_ref().map(|r| json!({
            "winner": r.winner.map(side_name), "reason": r.reason, "text": r.to_string(),
        })),
        "status": status,
        "check": in_check,
        "moves": turns.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
        "turns": turns.iter().map(|(text, t)| turn_json(&p, text, t)).collect::<Vec<_>>(),
        "history": game.played.iter().map(|t| t.text.clone()).collect::<Vec<_>>(),
        "numbered": crate::repl::record::numbered(game),
        "redo": e.redo.iter().rev().cloned().collect::<Vec<_>>(),
        "said": said,
        "note": e.note,
        "state": crate::display::state(&p, pos).trim_end().strip_prefix("state: ").unwrap_or_default(),
        "board": svg::board(&p, pos, &game.last_squares(), pics),
        "hands": {
            "white": svg::hand(&p, pos, Side::White, pics),
            "black": svg::hand(&p, pos, Side::Black, pics),
        },
        // Each label's piece name, for the page's words (`Queen` for a promotion choice).
        "names": p.kinds.iter().flat_map(|k| [(k.labels[Side::White].clone(), json!(k.name)), (k.labels[Side::Black].clone(), json!(k.name))]).collect::<serde_json::Map<_, _>>(),
        "has_hands": p.drops || p.captures_to_hand || !pos.hands[Side::White].is_empty() || !pos.hands[Side::Black].is_empty(),
    })
}

/// `GET /api/games/ID/yaml`: the game as a sample game.
fn yaml(e: &mut Entry) -> Result<Reply> {
    let text = crate::repl::record::yaml(&mut e.game, std::path::Path::new("game.yaml")).map_err(bad)?;
    Ok(Reply::ok(json!({ "yaml": text })))
}
