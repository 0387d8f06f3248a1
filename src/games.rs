//! Sample games (docs/formats.md): YAML files that play turns and check positions; shared by `herald test` and `cargo test`.

use crate::check;
use crate::game::Game;
use crate::preset::Preset;
use indexmap::IndexMap;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub name: Option<String>,
    pub preset: String,
    pub fen: Option<String>,
    pub seed: Option<u64>,
    /// Steps are single-key maps (`- play: "e4"`), not YAML tags.
    #[serde(default, with = "serde_yaml::with::singleton_map_recursive")]
    pub steps: Vec<Step>,
    pub expect: Option<Checks>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    Play(String),
    Reject(String),
    Check(Box<Checks>),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    pub result: Option<String>,
    pub reason: Option<String>,
    pub fen: Option<String>,
    pub side: Option<String>,
    pub legal_count: Option<usize>,
    pub legal_includes: Option<Vec<String>>,
    pub legal_excludes: Option<Vec<String>>,
    pub piece_at: Option<IndexMap<String, String>>,
    /// Exactly what the preset's scripts said during the last turn (an extension of the contract).
    pub said: Option<Vec<String>>,
}

/// The most a sample game's YAML may hold once its aliases are expanded: one unit per value, plus
/// one per 8 bytes of text. A 1 MiB file without aliases stays far below it; a file that aliases a
/// long list thousands of times (billions of values) is refused after this much work.
pub const MAX_YAML_UNITS: u64 = 4_000_000;

/// How deep `[` and `{` may nest in a sample game's YAML: the YAML reader's own limit of nesting
/// (128), checked before it reads, as the reader takes time quadratic in the depth of brackets
/// (100,000 of them, 200 KB, took two minutes to be refused).
pub const MAX_YAML_BRACKETS: usize = 128;

/// Parse a sample game's YAML, refusing a document whose aliases expand beyond [`MAX_YAML_UNITS`]
/// or whose brackets nest deeper than [`MAX_YAML_BRACKETS`].
pub fn parse_game(text: &str) -> Result<GameFile, String> {
    use serde::de::DeserializeSeed;
    check_brackets(text)?;
    let left = std::cell::Cell::new(MAX_YAML_UNITS);
    // First a pass that only counts, stopping as soon as the budget is spent; then the real one.
    Budget(&left).deserialize(serde_yaml::Deserializer::from_str(text)).map_err(|e| e.to_string())?;
    serde_yaml::from_str(text).map_err(|e| e.to_string())
}

/// Refuse brackets nested deeper than [`MAX_YAML_BRACKETS`]. Every `[` and `{` is counted, also
/// in quoted text: an overestimate that only a file of over a hundred unclosed brackets reaches.
fn check_brackets(text: &str) -> Result<(), String> {
    let mut depth = 0usize;
    for (i, line) in text.lines().enumerate() {
        for b in line.bytes() {
            match b {
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => continue,
            }
            if depth > MAX_YAML_BRACKETS {
                return Err(format!("brackets `[` `{{` nest deeper than {MAX_YAML_BRACKETS} levels at line {}", i + 1));
            }
        }
    }
    Ok(())
}

/// A visitor that walks any YAML value, charging it to the units left.
#[derive(Clone, Copy)]
struct Budget<'a>(&'a std::cell::Cell<u64>);

impl Budget<'_> {
    fn charge<E: serde::de::Error>(self, units: u64) -> Result<(), E> {
        match self.0.get().checked_sub(units) {
            Some(left) => {
                self.0.set(left);
                Ok(())
            }
            None => Err(E::custom(format!(
                "the YAML holds more than {MAX_YAML_UNITS} values once its aliases are expanded"
            ))),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Budget<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Budget<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.charge(1 + v.len() as u64 / 8)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.charge(1)?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.charge(1)?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess;
        let ((), variant) = data.variant_seed(self)?;
        variant.newtype_variant_seed(self)
    }
}

/// One failed game: the file, where in it, and why.
#[derive(Debug, Clone)]
pub struct Failure {
    pub file: PathBuf,
    pub at: String,
    pub why: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.file.display(), self.at, self.why)
    }
}

#[derive(Debug, Default)]
pub struct Summary {
    pub passed: usize,
    pub failures: Vec<Failure>,
}

/// Every `*.yaml` file at or below the given paths, sorted.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    out.sort();
    Ok(out)
}

/// Folders are followed only where they really are: a link to a folder is skipped (a link to `.`
/// would make the walk endless).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Runs sample games, loading each preset once.
#[derive(Default)]
pub struct Runner {
    presets: HashMap<String, Arc<Preset>>,
}

impl Runner {
    pub fn run_all(&mut self, files: &[PathBuf]) -> Summary {
        let mut s = Summary::default();
        for f in files {
            match self.run_file(f) {
                Ok(()) => s.passed += 1,
                Err(fail) => s.failures.push(fail),
            }
        }
        s
    }

    pub fn run_file(&mut self, file: &Path) -> Result<(), Failure> {
        let text = crate::files::read_text(file).map_err(|e| Failure {
            file: file.to_path_buf(),
            at: "reading".into(),
            why: e.to_string(),
        })?;
        self.run_text(file, &text)
    }

    /// Run a sample game's YAML text as if read from `file` (its preset path is relative to it).
    /// Each sample game is one command, with its own budget ([`crate::budget`]).
    pub fn run_text(&mut self, file: &Path, text: &str) -> Result<(), Failure> {
        crate::budget::fresh(|| self.run_game(file, text))
    }

    fn run_game(&mut self, file: &Path, text: &str) -> Result<(), Failure> {
        let fail = |at: &str, why: String| Failure { file: file.to_path_buf(), at: at.to_string(), why };
        let g = parse_game(text).map_err(|e| fail("yaml", e))?;
        let preset = self.preset(&g.preset, file).map_err(|e| fail("preset", e))?;
        let mut game = Game::new(preset, g.fen.as_deref(), g.seed).map_err(|e| fail("fen", e.to_string()))?;
        for (i, step) in g.steps.iter().enumerate() {
            let at = |what: &str| format!("step {} ({what})", i + 1);
            match step {
                Step::Play(t) => {
                    game.play(t).map_err(|e| fail(&at(&format!("play {t:?}")), e.to_string()))?;
                }
                Step::Reject(t) => {
                    let before = game.fen();
                    if let Ok(played) = game.play(t) {
                        return Err(fail(
                            &at(&format!("reject {t:?}")),
                            format!("the turn was accepted as `{played}`"),
                        ));
                    }
                    if game.fen() != before {
                        return Err(fail(&at(&format!("reject {t:?}")), "the position changed".into()));
                    }
                }
                Step::Check(c) => verify(&mut game, c).map_err(|e| fail(&at("check"), e))?,
            }
        }
        if let Some(c) = &g.expect {
            verify(&mut game, c).map_err(|e| fail("expect", e))?;
        }
        Ok(())
    }

    fn preset(&mut self, spec: &str, file: &Path) -> Result<Arc<Preset>, String> {
        let resolved = if crate::presets::shipped(spec).is_some() {
            spec.to_string()
        } else {
            file.parent().unwrap_or(Path::new(".")).join(spec).display().to_string()
        };
        if let Some(p) = self.presets.get(&resolved) {
            return Ok(p.clone());
        }
        let p = Arc::new(check::load_named(&resolved).map_err(|e| e.render())?);
        self.presets.insert(resolved, p.clone());
        Ok(p)
    }
}

fn normalise(turn: &str) -> String {
    turn.split(';').map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("; ")
}

/// Check a position against expectations; the first mismatch is the error.
pub fn verify(game: &mut Game, c: &Checks) -> Result<(), String> {
    if let Some(want) = &c.result {
        let result = game.result().map_err(|e| e.to_string())?;
        let got = match &result {
            None => "ongoing",
            Some(r) => match r.winner {
                Some(crate::engine::Side::White) => "white",
                Some(crate::engine::Side::Black) => "black",
                None => "draw",
            },
        };
        if got != want {
            let text = result.as_ref().map_or("ongoing".to_string(), |r| r.to_string());
            return Err(format!("result is {got} ({text}), expected {want}"));
        }
    }
    if let Some(want) = &c.reason {
        let got = game.result().map_err(|e| e.to_string())?.map(|r| r.reason).unwrap_or_default();
        if !got.contains(want.as_str()) {
            return Err(format!("reason is `{got}`, expected it to contain `{want}`"));
        }
    }
    if let Some(want) = &c.said
        && game.said() != want.as_slice()
    {
        return Err(format!("the last turn said {:?}, expected {want:?}", game.said()));
    }
    if let Some(want) = &c.fen {
        let got = game.fen();
        if got.trim() != want.trim() {
            return Err(format!("fen is `{got}`, expected `{want}`"));
        }
    }
    if let Some(want) = &c.side {
        let got = game.pos.side.fen_char().to_string();
        if &got != want {
            return Err(format!("side to move is {got}, expected {want}"));
        }
    }
    let legal = game.legal_texts().map_err(|e| e.to_string())?;
    if let Some(n) = c.legal_count.filter(|&n| n != legal.len()) {
        return Err(format!("{} legal turns, expected {n}: {}", legal.len(), legal.join(", ")));
    }
    for t in c.legal_includes.iter().flatten() {
        if !legal.contains(&normalise(t)) {
            return Err(format!("`{t}` is not among the legal turns: {}", legal.join(", ")));
        }
    }
    for t in c.legal_excludes.iter().flatten() {
        if legal.contains(&normalise(t)) {
            return Err(format!("`{t}` is legal, expected it not to be"));
        }
    }
    for (sq, want) in c.piece_at.iter().flatten() {
        let got = piece_at(game, sq)?;
        if &got != want {
            return Err(format!("{sq} holds `{got}`, expected `{want}`"));
        }
    }
    Ok(())
}

/// `.` for empty, `*` for a missing square, else the label.
pub fn piece_at(game: &Game, sq: &str) -> Result<String, String> {
    use crate::engine::board::cell;
    let s = game.preset.geo.parse_square(sq).ok_or_else(|| format!("{sq} is not a square of this board"))?;
    let c = game.pos.cells[s.idx()];
    Ok(match c {
        cell::EMPTY => ".".into(),
        cell::HOLE => "*".into(),
        _ => game.preset.label_of(c).to_string(),
    })
}
