//! `herald serve`: a local web board. A small synchronous HTTP server (tiny_http, a few worker
//! threads) answers the JSON API ([`api`]), the page (embedded HTML, CSS and JavaScript) and the
//! rules pages ([`rules`]); nothing is fetched from the network or read from disk at run time.

pub mod api;
pub mod rules;
pub mod state;
pub mod svg;

use api::{Api, Reply};
use std::io::Read as _;
use std::sync::Arc;

/// Threads answering requests: a search (`/go`) holds one for up to [`api::MAX_GO_MS`], so the page
/// of another tab stays responsive while one game thinks.
pub const WORKERS: usize = 4;
/// The largest request body read: a preset file (1 MiB) as JSON text, with room for escapes.
pub const MAX_BODY: u64 = 3 << 20;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// What `herald serve` was asked for.
pub struct Options {
    pub preset: String,
    pub host: String,
    pub port: u16,
    pub seed: Option<u64>,
}

/// Serve until the process ends; the first line printed is `listening on http://HOST:PORT/`.
pub fn run(opts: &Options) -> Result<(), String> {
    let preset = crate::check::load(&opts.preset)
        .map(Arc::new)
        .map_err(|e| e.render().lines().filter(|l| l.contains(": error: ")).collect::<Vec<_>>().join("\n"))?;
    let server = tiny_http::Server::http((opts.host.as_str(), opts.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.host, opts.port))?;
    let addr = server.server_addr().to_ip().ok_or("the server has no IP address")?;
    println!("listening on http://{addr}/");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let api = Arc::new(Api::new((opts.preset.clone(), preset), opts.seed));
    let server = Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, api) = (server.clone(), api.clone());
            crate::stack::builder().spawn(move || {
                while let Ok(rq) = server.recv() {
                    answer(&api, rq);
                }
            })
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// A response's body and type.
struct Page {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
    /// A picture of a preset: it never changes under its URL, so the browser may keep it, and it
    /// runs nothing when opened alone (an SVG may hold a script).
    picture: bool,
}

impl Page {
    fn new(status: u16, kind: &'static str, body: impl Into<Vec<u8>>) -> Page {
        Page { status, kind, body: body.into(), picture: false }
    }
}

fn json(r: Reply) -> Page {
    Page::new(r.status, "application/json; charset=utf-8", r.body.to_string())
}

fn picture(found: Result<(&'static str, Arc<[u8]>), Reply>) -> Page {
    match found {
        Ok((kind, bytes)) => Page { status: 200, kind, body: bytes.to_vec(), picture: true },
        Err(r) => json(r),
    }
}

/// Answer one request; a panic in a handler is a 500, and the worker goes on.
fn answer(api: &Api, mut rq: tiny_http::Request) {
    let method = rq.method().as_str().to_ascii_uppercase();
    let url = rq.url().to_string();
    let mut body = Vec::new();
    let read = rq.as_reader().take(MAX_BODY + 1).read_to_end(&mut body);
    let page = if read.is_err() {
        json(Reply::error(400, "the request's body could not be read"))
    } else if !matches!(method.as_str(), "GET" | "HEAD") && foreign(&rq) {
        json(Reply::error(403, "a request from another site's page is refused: open this server's own page"))
    } else if body.len() as u64 > MAX_BODY {
        json(Reply::error(413, format!("the request's body is larger than {MAX_BODY} bytes")))
    } else {
        let run = std::panic::AssertUnwindSafe(|| crate::budget::fresh(|| route(api, &method, &url, &body)));
        std::panic::catch_unwind(run)
            .unwrap_or_else(|_| json(Reply::error(500, "the server failed on this request (a bug: please report it)")))
    };
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok();
    let mut resp = tiny_http::Response::from_data(page.body).with_status_code(page.status);
    let (cache, policy) = if page.picture {
        ("private, max-age=86400", Some("default-src 'none'; style-src 'unsafe-inline'; sandbox"))
    } else {
        ("no-store", None)
    };
    for h in [
        header("Content-Type", page.kind),
        header("Cache-Control", cache),
        header("X-Content-Type-Options", "nosniff"),
        policy.and_then(|p| header("Content-Security-Policy", p)),
    ]
    .into_iter()
    .flatten()
    {
        resp.add_header(h);
    }
    let _ = rq.respond(resp);
}

/// Whether a browser sent this request from another site's page: it names that page's origin in
/// `Origin`, and a page elsewhere must not create or play games here behind the user's back (a
/// cross-site form or `fetch` needs no permission to send a POST). Clients that are not browsers
/// (curl, scripts) send no `Origin` and are not affected.
fn foreign(rq: &tiny_http::Request) -> bool {
    let header = |name: &'static str| rq.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str());
    match (header("Origin"), header("Host")) {
        (None, _) => false,
        (Some(origin), Some(host)) => origin.split_once("://").map(|(_, at)| at) != Some(host),
        (Some(_), None) => true,
    }
}

fn route(api: &Api, method: &str, url: &str, body: &[u8]) -> Page {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let get = method == "GET" || method == "HEAD";
    match path {
        "/" | "/index.html" if get => Page::new(200, "text/html; charset=utf-8", INDEX),
        "/app.js" if get => Page::new(200, "text/javascript; charset=utf-8", SCRIPT),
        "/style.css" if get => Page::new(200, "text/css; charset=utf-8", STYLE),
        "/rules" if get => match rules::page(api, param(query, "game"), param(query, "preset")) {
            Ok(html) => Page::new(200, "text/html; charset=utf-8", html),
            Err(r) => Page::new(r.status, "text/plain; charset=utf-8", r.body["error"].as_str().unwrap_or_default()),
        },
        _ => match path.strip_prefix("/api/") {
            Some(rest) => {
                let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
                match parts.as_slice() {
                    ["games", id, "images", name] if get => picture(api.game_picture(id, name)),
                    ["presets", preset, "images", name] if get => {
                        picture(api.preset(&decode(preset)).and_then(|p| api::picture(&p, name)))
                    }
                    _ => json(api.handle(method, &parts, body)),
                }
            }
            None => Page::new(404, "text/plain; charset=utf-8", format!("no page {path}")),
        },
    }
}

/// A query parameter, percent-decoded.
pub fn param(query: &str, name: &str) -> Option<String> {
    query.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| decode(v))
}

/// Decode `%XX` and `+` in a query value.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
