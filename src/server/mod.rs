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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

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

/// Requests whose bodies arrive slowly, read at once each by its own thread; more are refused.
pub const MAX_READING: usize = 64;

/// The largest body announced that tiny_http may read and drop (in one buffer of that size) after
/// the request is refused; a larger announcement is refused unread ([`refuse_unread`]).
pub const MAX_DROPPED: u64 = 64 << 20;

/// What tiny_http has read already with the head: a body of at most this many bytes, announced
/// by its length and without `Expect: 100-continue`.
const READ_WITH_HEAD: u64 = 1024;

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
    let served = Arc::new(Served { name: opts.host.clone(), port: addr.port(), url: format!("http://{addr}/") });
    // The workers take requests whose bodies are read whole: one arriving slowly holds a thread of
    // its own (as tiny_http holds one per connection), never a worker.
    let (tx, rx) = std::sync::mpsc::channel::<Received>();
    let rx = Arc::new(std::sync::Mutex::new(rx));
    for _ in 0..WORKERS {
        let (rx, api, served) = (rx.clone(), api.clone(), served.clone());
        crate::stack::builder()
            .spawn(move || {
                loop {
                    let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                    match next {
                        Ok((rq, body)) => answer(&api, &served, rq, body),
                        Err(_) => break,
                    }
                }
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
    }
    let reading = Arc::new(AtomicUsize::new(0));
    while let Ok(rq) = server.recv() {
        dispatch(rq, &tx, &reading);
    }
    Ok(())
}

/// A request and its body, or the answer to give when the body could not be read.
type Received = (tiny_http::Request, Result<Vec<u8>, Page>);

/// Hand a request to the workers with its body: read here when tiny_http has it already, else by a
/// thread of its own. Nothing here waits on a client.
fn dispatch(mut rq: tiny_http::Request, tx: &Sender<Received>, reading: &Arc<AtomicUsize>) {
    let header = |name: &'static str| rq.headers().iter().any(|h| h.field.equiv(name));
    let too_big = || json(Reply::error(413, format!("the request's body is larger than {MAX_BODY} bytes")));
    let announced = rq.body_length().map(|n| n as u64);
    if announced.is_some_and(|n| n > MAX_DROPPED) {
        return refuse_unread(rq, too_big());
    }
    let at_hand = match announced {
        Some(n) => n <= READ_WITH_HEAD && !header("Expect"),
        None => !header("Transfer-Encoding"),
    };
    if at_hand {
        let body = read_body(&mut rq);
        let _ = tx.send((rq, body));
        return;
    }
    if reading.fetch_add(1, Ordering::SeqCst) >= MAX_READING {
        reading.fetch_sub(1, Ordering::SeqCst);
        let busy = format!("{MAX_READING} requests are sending their bodies already: try again later");
        return refuse_unread(rq, json(Reply::error(503, busy)));
    }
    let (tx, count) = (tx.clone(), reading.clone());
    let spawned = std::thread::Builder::new().spawn(move || {
        if announced.is_some_and(|n| n > MAX_BODY) {
            // Answered at once; the body is read and dropped as it comes (by tiny_http).
            let _ = rq.respond(response(too_big()));
        } else {
            let body = read_body(&mut rq);
            let _ = tx.send((rq, body));
        }
        count.fetch_sub(1, Ordering::SeqCst);
    });
    if spawned.is_err() {
        // The request went with the closure: tiny_http answers a dropped request with a 500.
        reading.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A body up to [`MAX_BODY`] bytes (one more tells it is larger).
fn read_body(rq: &mut tiny_http::Request) -> Result<Vec<u8>, Page> {
    let mut body = Vec::new();
    match rq.as_reader().take(MAX_BODY + 1).read_to_end(&mut body) {
        Err(_) => Err(json(Reply::error(400, "the request's body could not be read"))),
        Ok(_) if body.len() as u64 > MAX_BODY => {
            Err(json(Reply::error(413, format!("the request's body is larger than {MAX_BODY} bytes"))))
        }
        Ok(_) => Ok(body),
    }
}

/// Answer a request without reading its body, and leave its connection open until the process
/// ends: tiny_http reads the rest of a body when its request is dropped into one buffer of the size
/// still unread, and a `Content-Length` of terabytes would abort the process. The answer has no
/// length (the connection is not closed): its status says it.
fn refuse_unread(rq: tiny_http::Request, page: Page) {
    let stream = rq.upgrade("close", response(page));
    std::mem::forget(stream);
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
fn answer(api: &Api, served: &Served, rq: tiny_http::Request, body: Result<Vec<u8>, Page>) {
    let method = rq.method().as_str().to_ascii_uppercase();
    let url = rq.url().to_string();
    let page = match body {
        Err(page) => page,
        Ok(_) if !served.named_by(&rq) => json(Reply::error(421, served.refusal(&rq))),
        Ok(_) if !matches!(method.as_str(), "GET" | "HEAD") && foreign(&rq) => {
            json(Reply::error(403, "a request from another site's page is refused: open this server's own page"))
        }
        Ok(body) => {
            let run = std::panic::AssertUnwindSafe(|| crate::budget::fresh(|| route(api, &method, &url, &body)));
            std::panic::catch_unwind(run).unwrap_or_else(|_| {
                json(Reply::error(500, "the server failed on this request (a bug: please report it)"))
            })
        }
    };
    let _ = rq.respond(response(page));
}

/// A page as a response, with the headers every answer carries.
fn response(page: Page) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
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
    resp
}

/// The address the server was asked to serve: a request must name it (or `localhost`, or an IP
/// address) in `Host`, with the port served. A page of another site can make its own name point at
/// this machine (DNS rebinding) and then read and play here as a page of "its" site; it can never
/// make the browser send another name than its own, so a name the server was not given is refused.
/// An address cannot be re-pointed, so any address is taken (`--host 0.0.0.0` is reached by the
/// machine's addresses on the network); a request with no `Host` (not from a browser) too.
struct Served {
    /// `--host` as given.
    name: String,
    port: u16,
    /// The page's address, for the refusal.
    url: String,
}

impl Served {
    fn host(rq: &tiny_http::Request) -> Option<&str> {
        rq.headers().iter().find(|h| h.field.equiv("Host")).map(|h| h.value.as_str())
    }

    fn named_by(&self, rq: &tiny_http::Request) -> bool {
        Self::host(rq).is_none_or(|h| self.allows(h))
    }

    /// `NAME[:PORT]`, `[V6][:PORT]`; no port is 80.
    fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((v6, after)) if v6.parse::<std::net::Ipv6Addr>().is_ok() => ("::", after),
                _ => return false,
            },
            None => host.split_at(host.find(':').unwrap_or(host.len())),
        };
        let port_ok = match port.strip_prefix(':') {
            Some(p) => p.parse::<u16>() == Ok(self.port),
            None => port.is_empty() && self.port == 80,
        };
        let name_ok = name == "::"
            || name.eq_ignore_ascii_case("localhost")
            || name.eq_ignore_ascii_case(&self.name)
            || name.parse::<std::net::Ipv4Addr>().is_ok();
        port_ok && name_ok
    }

    fn refusal(&self, rq: &tiny_http::Request) -> String {
        format!(
            "the request names `{}` as its host, not this server ({}, or localhost:{}): a page of another \
             site reaching it through that site's own name (DNS rebinding) is refused",
            Self::host(rq).unwrap_or_default(),
            self.url,
            self.port
        )
    }
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
