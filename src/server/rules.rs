//! The rules page of a preset: its name, inventor and description, and for every piece a movement
//! diagram drawn by the move generator from the piece's Betza moves ([`super::svg::diagram`]).

use super::api::{Api, Reply};
use super::svg::{self, esc};
use crate::engine::Side;
use std::fmt::Write as _;

/// The page for a game's preset (`game`: an uploaded one too) or a preset the server knows by name
/// (`preset`; the command line's when neither is given).
pub fn page(api: &Api, game: Option<String>, preset: Option<String>) -> Result<String, Reply> {
    // The link back: to the game, or to a new game of the preset.
    let (p, back, base) = match game {
        Some(id) => {
            let e = api.games.get(&id).ok_or_else(|| Reply::error(404, format!("no game `{id}`")))?;
            let e = super::state::entry(&e);
            let id = percent(&id);
            (e.game.preset.clone(), format!("?game={id}"), format!("/api/games/{id}/images/"))
        }
        None => {
            let name = preset.unwrap_or_else(|| api.default.0.clone());
            let base = format!("/api/presets/{}/images/", percent(&name));
            (api.preset(&name)?, format!("?preset={}", percent(&name)), base)
        }
    };
    let pics = svg::Pictures(Some(base.as_str()));
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} - rules</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"stylesheet\" href=\"/style.css\"></head><body class=\"rules\"><main>\
         <p><a href=\"/{back}\">&larr; play {title}</a></p>\
         <h1 id=\"name\">{title}</h1><p id=\"inventor\"><b>Inventor:</b> {inventor}</p>\
         <p id=\"description\">{description}</p><p>Board: {files} &times; {ranks}. \
         Diagrams show where each piece goes from one square of an empty board: \
         <span class=\"key move\"></span> moves only, <span class=\"key capture\"></span> captures only, \
         <span class=\"key both\"></span> moves or captures; a small red dot is a capture over a screen (a piece on the \
         first square of the line), and a ringed mark is a leap (reached even when \
         every square between is occupied). Moves made by the preset's rule scripts are not drawn.</p>\
         <section class=\"pieces\">",
        title = esc(&p.name),
        back = esc(&back),
        inventor = if p.inventor.is_empty() { "unknown".into() } else { esc(&p.inventor) },
        description = esc(&p.description),
        files = p.geo.files,
        ranks = p.geo.ranks,
    );
    for (k, kind) in p.kinds.iter().enumerate() {
        let _ = write!(
            out,
            "<article class=\"piece\" data-kind=\"{name}\"><h2>{name}</h2>\
             <p><b>Labels:</b> {w} (White), {b} (Black); <b>Betza:</b> <code>{betza}</code>; \
             <b>value:</b> {value}{royal}</p>{diagram}</article>",
            name = esc(&kind.name),
            w = esc(&kind.labels[Side::White]),
            b = esc(&kind.labels[Side::Black]),
            // With moves in a region or attacks beside them, the text is `W within palace" attacks "vR`.
            betza = if kind.betza.is_empty() {
                "(none: it does not move by itself)".into()
            } else {
                format!("\"{}\"", esc(&kind.betza))
            },
            value = kind.value,
            royal = if kind.royal { "; royal" } else { "" },
            diagram = svg::diagram(&p, k, pics),
        );
    }
    out.push_str("</section></main></body></html>");
    Ok(out)
}

/// Encode a text for a URL's path or query: letters, digits and `-._~` stay, the rest is `%XX`.
fn percent(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
