//! `herald serve` (docs/web.md): the JSON API over real HTTP, against the library's own answers for
//! the same games; and the page in a real browser (Chromium through chromedriver's WebDriver), which
//! is skipped, saying so, when chromedriver is not installed.

use herald::game::Game;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A `herald serve` child on a free port, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    serve_on(args, 0)
}

/// [`serve`] on a given port (0: a free one).
fn serve_on(args: &[&str], port: u16) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("serve")
        .args(args)
        .args(["--port", &port.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("herald serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the first line names the URL: {line:?}"));
    Server { child, port }
}

/// One HTTP/1.1 request over a fresh connection: the status and the body.
fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    http_with(port, method, path, body, "")
}

/// [`http`] with more header lines (each ending in `\r\n`).
fn http_with(port: u16, method: &str, path: &str, body: &[u8], headers: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    read_response(&mut BufReader::new(s))
}

/// A request written as given (head and body) over a fresh connection: the status and the body.
fn raw(port: u16, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    s.write_all(request).unwrap();
    read_response(&mut BufReader::new(s))
}

/// The status and body of a response: by its length, in chunks, or up to the end of the connection.
fn read_response(r: &mut impl BufRead) -> (u16, String) {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (mut length, mut chunked) = (None, false);
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        if l.starts_with("transfer-encoding:") && l.contains("chunked") {
            chunked = true;
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            r.read_line(&mut line).unwrap();
            let n = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        r.read_exact(&mut body).unwrap();
    } else {
        r.read_to_end(&mut body).unwrap();
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

fn call(port: u16, method: &str, path: &str, body: Value) -> (u16, Value) {
    let bytes = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    let (status, text) = http(port, method, path, &bytes);
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}")))
}

fn library_game(preset: &str, fen: Option<&str>) -> Game {
    Game::new(Arc::new(herald::check::load(preset).unwrap()), fen, None).unwrap()
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

#[test]
fn games_are_created_played_taken_back_and_searched() {
    let s = serve(&[]);
    let (status, g) = call(s.port, "POST", "/api/games", json!({"preset": "chess"}));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut lib = library_game("chess", None);
    assert_eq!(g["preset"], "chess");
    assert_eq!(g["side"], "white");
    assert_eq!(g["result"], Value::Null);
    assert_eq!(g["fen"], lib.fen());
    assert_eq!(texts(&g["moves"]), lib.legal_texts().unwrap());
    assert_eq!(texts(&g["history"]), Vec::<String>::new());

    // Short notation as the REPL takes it; the answer is the library's position after the same turn.
    let (status, g) = call(s.port, "POST", &format!("/api/games/{id}/play"), json!({"turn": "e4"}));
    assert_eq!(status, 200, "{g}");
    lib.play("e4").unwrap();
    assert_eq!(g["fen"], lib.fen());
    assert_eq!(texts(&g["history"]), ["P e2-e4"]);
    assert_eq!(g["side"], "black");
    assert_eq!(texts(&g["moves"]), lib.legal_texts().unwrap());

    // An illegal turn: a 400 saying why, and nothing changed.
    let (status, e) = call(s.port, "POST", &format!("/api/games/{id}/play"), json!({"turn": "P d2-d4"}));
    assert_eq!(status, 400);
    assert_eq!(e["error"], "the piece on d2 is white's, and it is black to move", "{e}");
    let (_, g) = call(s.port, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(g["fen"], lib.fen());

    // Undo, redo, and redo with nothing left.
    let (status, g) = call(s.port, "POST", &format!("/api/games/{id}/undo"), Value::Null);
    assert_eq!((status, texts(&g["history"]), texts(&g["redo"])), (200, vec![], vec!["P e2-e4".to_string()]));
    let (status, g) = call(s.port, "POST", &format!("/api/games/{id}/redo"), Value::Null);
    assert_eq!((status, texts(&g["history"])), (200, vec!["P e2-e4".to_string()]));
    assert_eq!(g["fen"], lib.fen());
    let (status, e) = call(s.port, "POST", &format!("/api/games/{id}/redo"), Value::Null);
    assert_eq!((status, e["error"].as_str().unwrap()), (409, "there is no turn to play again"));

    // The computer plays one of the legal turns.
    let before = lib.legal_texts().unwrap();
    let (status, g) = call(s.port, "POST", &format!("/api/games/{id}/go"), json!({"nodes": 300}));
    assert_eq!(status, 200, "{g}");
    let history = texts(&g["history"]);
    assert_eq!(history.len(), 2);
    assert!(before.contains(&history[1]), "{} is not among {before:?}", history[1]);
    lib.play(&history[1]).unwrap();
    assert_eq!(g["fen"], lib.fen());

    // A hint changes nothing.
    let (status, h) = call(s.port, "POST", &format!("/api/games/{id}/hint"), json!({"nodes": 300}));
    assert_eq!(status, 200);
    assert!(lib.legal_texts().unwrap().contains(&h["hint"].as_str().unwrap().to_string()), "{}", h["hint"]);
    assert_eq!(h["fen"], lib.fen());
}

#[test]
fn bad_requests_get_a_reason_and_change_nothing() {
    let s = serve(&[]);
    let (_, g) = call(s.port, "POST", "/api/games", json!({}));
    assert_eq!(g["preset"], "chess", "the command line's preset when none is named");
    let id = g["id"].as_str().unwrap().to_string();
    let play = format!("/api/games/{id}/play");
    let cases: &[(&str, &str, &[u8], u16, &str)] = &[
        ("POST", &play, b"{\"turn\": ", 400, "the body is not JSON"),
        ("POST", &play, b"[1, 2]", 400, "the body must be a JSON object"),
        ("POST", &play, b"{}", 400, "the request has no `turn`"),
        ("POST", &play, b"{\"turn\": 5}", 400, "`turn` must be a text"),
        ("POST", &play, b"{\"turn\": \"e9\"}", 400, "e9 is not a square of this board"),
        ("POST", &play, b"{\"turn\": \"P e2-e5\"}", 400, "P on e2 cannot move to e5"),
        ("POST", &format!("/api/games/{id}/undo"), b"", 409, "there is no turn to take back"),
        ("POST", &format!("/api/games/{id}/go"), b"{\"nodes\": 99999999999}", 400, "`nodes` must be a whole number"),
        ("POST", &format!("/api/games/{id}/go"), b"{\"ms\": 0}", 400, "`ms` must be a whole number"),
        ("POST", &format!("/api/games/{id}/fly"), b"", 404, "no action `fly`"),
        ("GET", "/api/games/0000", b"", 404, "no game `0000`"),
        ("POST", "/api/games/0000/play", b"{\"turn\": \"e4\"}", 404, "no game `0000`"),
        ("POST", "/api/games", b"{\"preset\": \"chesss\"}", 400, "no preset `chesss`; did you mean `chess`?"),
        ("POST", "/api/games", b"{\"preset\": \"/etc/passwd\"}", 400, "no preset `/etc/passwd`"),
        ("POST", "/api/games", b"{\"preset\": \"chess\", \"fen\": \"8/8 w\"}", 400, "fen: "),
        ("POST", "/api/games", b"{\"seed\": -1}", 400, "`seed` must be a whole number"),
        ("DELETE", &format!("/api/games/{id}"), b"", 405, "DELETE is not a method"),
    ];
    for (method, path, body, status, error) in cases {
        let (got, text) = http(s.port, method, path, body);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(got, *status, "{method} {path} {}: {text}", String::from_utf8_lossy(body));
        assert!(v["error"].as_str().unwrap().starts_with(error), "{method} {path}: {text}");
    }
    // Another site's page may not play here; this server's own page may.
    let from = |origin: &str| http_with(s.port, "POST", &play, b"{\"turn\": \"e4\"}", &format!("Origin: {origin}\r\n"));
    let (got, text) = from("http://evil.example");
    assert_eq!(got, 403, "{text}");
    assert!(text.contains("another site's page"), "{text}");
    assert_eq!(from("null").0, 403);
    // Too large a body is refused before it is read: it is not even sent whole.
    let head = format!(
        "POST {play} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\n\r\n",
        s.port,
        herald::server::MAX_BODY + 10
    );
    assert_eq!(raw(s.port, &[head.as_bytes(), &[b' '; 1000]].concat()).0, 413);
    let (_, g2) = call(s.port, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(g2["fen"], g["fen"]);
    assert_eq!(texts(&g2["history"]), Vec::<String>::new());
    assert_eq!(from(&format!("http://127.0.0.1:{}", s.port)).0, 200, "the server's own page plays");
}

#[test]
fn a_request_must_name_this_server_as_its_host() {
    let s = serve(&[]);
    let get = |host: &str| {
        raw(s.port, format!("GET /api/presets HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes())
    };
    let p = s.port;
    for host in [
        format!("127.0.0.1:{p}"),
        format!("localhost:{p}"),
        format!("LocalHost:{p}"),
        format!("[::1]:{p}"),
        format!("192.168.1.20:{p}"),
    ] {
        assert_eq!(get(&host).0, 200, "Host: {host}");
    }
    // A page of another site reaching the server through its own name (DNS rebinding), or any
    // request naming another port or no port.
    for host in [
        format!("evil.example:{p}"),
        format!("127.0.0.1.nip.io:{p}"),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{}", p ^ 1),
        format!("[::1x]:{p}"),
    ] {
        let (status, text) = get(&host);
        assert_eq!(status, 421, "Host: {host}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let why = v["error"].as_str().unwrap();
        assert!(
            why.starts_with(&format!("the request names `{host}` as its host, not this server (http://127.0.0.1:{p}/")),
            "{why}"
        );
        assert!(why.contains("DNS rebinding"), "{why}");
    }
    // It changes nothing: a turn sent naming another host is not played.
    let (_, g) = call(s.port, "POST", "/api/games", json!({}));
    let id = g["id"].as_str().unwrap();
    let turn = "{\"turn\": \"e4\"}";
    let post = format!(
        "POST /api/games/{id}/play HTTP/1.1\r\nHost: evil.example:{p}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{turn}",
        turn.len()
    );
    assert_eq!(raw(s.port, post.as_bytes()).0, 421);
    let (_, after) = call(s.port, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(texts(&after["history"]), Vec::<String>::new());
    // A client that is not a browser may name no host (HTTP/1.0).
    assert_eq!(raw(s.port, b"GET /api/presets HTTP/1.0\r\n\r\n").0, 200);
}

#[test]
fn hostile_bodies_neither_stop_nor_stall_the_server() {
    let s = serve(&[]);
    let p = s.port;
    // A length of terabytes announced (tiny_http would buffer the rest of it when the request is
    // dropped, which aborts the process): refused unread, and the server goes on.
    let huge = format!("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Length: 99999999999999\r\n\r\n");
    let mut c = TcpStream::connect(("127.0.0.1", p)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    c.write_all(&[huge.as_bytes(), &[b'x'; 4096]].concat()).unwrap();
    let mut status = String::new();
    BufReader::new(c).read_line(&mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 413 "), "{status}");
    // More bodies than workers that never arrive: each is read by a thread of its own, and the
    // workers still answer (only a hang would fail here, on the read's two minutes). Each
    // connection is first answered once, so that tiny_http gives it a thread of its own before the
    // next one comes (its pool may queue a connection arriving with others behind busy ones).
    let primed = || {
        let c = TcpStream::connect(("127.0.0.1", p)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let (mut w, mut r) = (c.try_clone().unwrap(), BufReader::new(c));
        w.write_all(format!("GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n\r\n").as_bytes()).unwrap();
        assert_eq!(read_response(&mut r).0, 200);
        (w, r)
    };
    let (mut probe, mut probe_r) = primed();
    let stalled: Vec<_> = (0..herald::server::WORKERS * 2)
        .map(|_| {
            let (mut w, r) = primed();
            let head = format!("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Length: 5000\r\n\r\n{{");
            w.write_all(head.as_bytes()).unwrap();
            (w, r)
        })
        .collect();
    let body = b"{}";
    let post = format!("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Length: {}\r\n\r\n", body.len());
    probe.write_all(&[post.as_bytes(), body].concat()).unwrap();
    assert_eq!(read_response(&mut probe_r).0, 201);
    drop(stalled);
    // A chunked body longer than the limit is read up to it, then refused.
    let mut c = TcpStream::connect(("127.0.0.1", p)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nTransfer-Encoding: chunked\r\n\r\n");
    c.write_all(head.as_bytes()).unwrap();
    let mut w = c.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = [b' '; 65536];
        for _ in 0..(herald::server::MAX_BODY / 65536 + 2) {
            if w.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .and_then(|_| w.write_all(&chunk))
                .and_then(|_| w.write_all(b"\r\n"))
                .is_err()
            {
                break;
            }
        }
    });
    let (status, text) = read_response(&mut BufReader::new(c));
    assert_eq!(status, 413, "{text}");
    let _ = writer.join();
    assert_eq!(call(p, "GET", "/api/presets", Value::Null).0, 200, "the server goes on");
}

#[test]
fn games_are_separate_and_a_multi_part_turn_is_played_whole() {
    let s = serve(&["constructing"]);
    let (_, a) = call(s.port, "POST", "/api/games", json!({}));
    let (_, b) = call(s.port, "POST", "/api/games", json!({"preset": "chess"}));
    let (ida, idb) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    assert_ne!(ida, idb);
    assert_eq!(a["preset"], "constructing");
    let mut lib = library_game("constructing", None);
    assert_eq!(texts(&a["moves"]), lib.legal_texts().unwrap());
    // Every turn of constructing is a move then a square built: three clicks.
    let turns = a["turns"].as_array().unwrap();
    let first = turns.iter().find(|t| t["text"] == "P g7-g8; @-g5").expect("P g7-g8; @-g5 is legal");
    assert_eq!(first["clicks"], json!(["g7", "g8", "g5"]));
    assert!(turns.iter().all(|t| t["clicks"].as_array().unwrap().len() == 3));
    // The move alone is incomplete.
    let (status, e) = call(s.port, "POST", &format!("/api/games/{ida}/play"), json!({"turn": "P g7-g8"}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().starts_with("`P g7-g8` needs another part here"), "{e}");
    let (status, g) = call(s.port, "POST", &format!("/api/games/{ida}/play"), json!({"turn": "P g7-g8; @-g5"}));
    assert_eq!(status, 200, "{g}");
    lib.play("P g7-g8; @-g5").unwrap();
    assert_eq!(g["fen"], lib.fen());
    assert!(g["board"].as_str().unwrap().contains("data-square=\"g5\""), "the built square is drawn");
    // The other game did not move.
    let (_, b2) = call(s.port, "GET", &format!("/api/games/{idb}"), Value::Null);
    assert_eq!(b2["fen"], b["fen"]);
}

#[test]
fn promotions_share_their_clicks_and_hands_are_drawn() {
    let s = serve(&[]);
    let fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
    let (status, g) = call(s.port, "POST", "/api/games", json!({"preset": "chess", "fen": fen}));
    assert_eq!(status, 201, "{g}");
    let mut lib = library_game("chess", Some(fen));
    let promos: Vec<String> = lib.legal_texts().unwrap().into_iter().filter(|t| t.starts_with("P a7-a8")).collect();
    assert_eq!(promos.len(), 4);
    let shared: Vec<String> = g["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["clicks"] == json!(["a7", "a8"]))
        .map(|t| t["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(shared, promos);

    // A drop: the piece in hand, then the square; the hand is drawn with its contract attributes.
    let fen = "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1";
    let (status, g) = call(s.port, "POST", "/api/games", json!({"preset": "crazyhouse", "fen": fen}));
    assert_eq!(status, 201, "{g}");
    let drop = g["turns"].as_array().unwrap().iter().find(|t| t["text"] == "Q*e4").expect("Q*e4 is legal");
    assert_eq!(drop["clicks"], json!(["hand:Q", "e4"]));
    let hand = g["hands"]["white"].as_str().unwrap();
    assert!(hand.contains("data-hand=\"white\" data-piece=\"Q\" data-side=\"white\""), "{hand}");
    assert_eq!(g["hands"]["black"], "");
}

#[test]
fn the_board_has_the_contract_attributes() {
    let s = serve(&[]);
    let (_, g) = call(s.port, "POST", "/api/games", json!({"preset": "constructing"}));
    let board = g["board"].as_str().unwrap();
    let lib = library_game("constructing", None);
    let existing = lib.preset.geo.squares.iter().filter(|&&sq| lib.pos.cells[sq.idx()] != 2).count();
    assert_eq!(board.matches("data-square=").count(), existing, "one element per existing square");
    assert_eq!(board.matches("data-hole=").count(), 15 * 15 - existing, "holes are blank targets");
    assert_eq!(board.matches("data-piece=").count(), 20);
    assert!(board.contains("data-square=\"f6\""), "{board}");
    assert!(board.contains("<g class=\"pc\" data-piece=\"K\" data-side=\"white\">"));
    assert!(board.contains("<g class=\"pc\" data-piece=\"k\" data-side=\"black\">"));
}

#[test]
fn presets_are_uploaded_checked_and_sample_games_saved_and_opened() {
    let s = serve(&[]);
    let tiny = "board 3 x 3\npiece King K royal moves \"K\"\nsetup \"k2/3/2K w\"\n";
    let (status, g) = call(s.port, "POST", "/api/games", json!({"source": tiny}));
    assert_eq!(status, 201, "{g}");
    assert_eq!(g["preset"], "upload");
    assert_eq!(texts(&g["moves"]), ["K c1-b1", "K c1-c2"]);

    let broken = "board 3 x 3\npiece King K royal moves \"K\"\nsetup \"k2/3/2Q w\"\n";
    let (status, e) = call(s.port, "POST", "/api/games", json!({"source": broken}));
    assert_eq!(status, 400, "{e}");
    let d = &e["diagnostics"][0];
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(3), Some(8)), "{e}");
    let (status, e) = call(s.port, "POST", "/api/check", json!({"source": "extends \"../secret.preset\"\n"}));
    assert_eq!(status, 400);
    assert_eq!(e["diagnostics"][0]["line"], 1);
    assert!(e["error"].as_str().unwrap().contains("may extend only a shipped preset"), "{e}");

    // Save a game as a sample game; open it again: the same position.
    let (_, g) = call(s.port, "POST", "/api/games", json!({"preset": "chess", "turns": ["e4", "e5", "Nf3"]}));
    let id = g["id"].as_str().unwrap();
    let (status, y) = call(s.port, "GET", &format!("/api/games/{id}/yaml"), Value::Null);
    assert_eq!(status, 200);
    let yaml = y["yaml"].as_str().unwrap();
    assert!(yaml.contains("preset: \"chess\"") && yaml.contains("  - play: \"N g1-f3\""), "{yaml}");
    let (status, o) = call(s.port, "POST", "/api/games", json!({"yaml": yaml}));
    assert_eq!(status, 201, "{o}");
    assert_eq!(o["fen"], g["fen"]);
    assert_eq!(o["history"], g["history"]);
    assert_ne!(o["id"], g["id"]);
}

#[test]
fn the_rules_page_draws_each_piece_from_its_moves() {
    let s = serve(&[]);
    let (status, page) = http(s.port, "GET", "/rules?preset=chess", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<h1 id=\"name\">Chess</h1>"));
    let knight = page.split("<article").find(|a| a.contains("data-kind=\"Knight\"")).unwrap();
    // From d4 on an empty board: eight leaps, each a move or a capture.
    let mut marked: Vec<&str> = knight.split("data-square=\"").skip(1).map(|r| &r[..2]).collect();
    marked.sort();
    assert_eq!(marked, ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]);
    assert_eq!(knight.matches("class=\"both leap\"").count(), 8);
    let rook = page.split("<article").find(|a| a.contains("data-kind=\"Rook\"")).unwrap();
    assert_eq!(rook.matches("class=\"both\"").count(), 14, "a rook slides: no leaps");
    let pawn = page.split("<article").find(|a| a.contains("data-kind=\"Pawn\"")).unwrap();
    assert_eq!((pawn.matches("class=\"move").count(), pawn.matches("class=\"capture").count()), (2, 2));
    // A cannon captures over a screen: from e5 of xiangqi's 9x10 board, along its four lines.
    let (_, page) = http(s.port, "GET", "/rules?preset=xiangqi", b"");
    let cannon = page.split("<article").find(|a| a.contains("data-kind=\"Cannon\"")).unwrap();
    assert!(cannon.contains("data-from=\"e5\""), "{cannon}");
    assert_eq!(cannon.matches("class=\"move\"").count(), 17, "moves as a rook");
    assert_eq!(cannon.matches("class=\"capture screened\"").count(), 13, "captures beyond a screen");
    assert_eq!(http(s.port, "GET", "/rules?preset=nope", b"").0, 404);
    let (status, index) = http(s.port, "GET", "/", b"");
    assert_eq!(status, 200);
    assert!(index.contains("id=\"fen\"") && index.contains("data-action=\"go\""));
}

#[test]
fn a_preset_names_pictures_and_the_board_draws_them() {
    let s = serve(&["tests/pictures/pictured.preset"]);
    let (status, g) = call(s.port, "POST", "/api/games", json!({}));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap();
    let lib = library_game("tests/pictures/pictured.preset", None);
    let kind = |name: &str| lib.preset.kinds.iter().position(|k| k.name == name).unwrap();
    let (a, c) = (kind("Archbishop"), kind("Chancellor"));
    let board = g["board"].as_str().unwrap();
    // The pieces keep their contract attributes; the picture replaces the token.
    let on = |sq: &str| {
        board.split(&format!("data-square=\"{sq}\"")).nth(1).unwrap().split("<circle class=\"dot\"").next().unwrap()
    };
    let base = format!("/api/games/{id}/images/");
    assert!(on("c1").contains("data-piece=\"A\" data-side=\"white\""), "{}", on("c1"));
    assert!(on("c1").contains(&format!("<image class=\"pic\" href=\"{base}{a}-white\"")), "{}", on("c1"));
    assert!(on("c8").contains(&format!("<image class=\"pic inverted\" href=\"{base}{a}-black\"")), "{}", on("c8"));
    assert!(on("h8").contains(&format!("<image class=\"pic\" href=\"{base}{c}-black\"")), "{}", on("h8"));
    assert!(!on("a1").contains("<image"), "a rook named no picture: {}", on("a1"));
    // Served from memory as read at load, under the game's URL; the same bytes as the files.
    let file = |f: &str| std::fs::read_to_string(format!("tests/pictures/{f}")).unwrap();
    for (name, want) in [
        (format!("{a}-white"), file("archbishop.svg")),
        (format!("{a}-black"), file("archbishop.svg")),
        (format!("{c}-white"), file("chancellor-white.svg")),
        (format!("{c}-black"), file("chancellor-black.svg")),
    ] {
        let (status, body) = http(s.port, "GET", &format!("{base}{name}"), b"");
        assert_eq!((status, body), (200, want), "{name}");
    }
    for name in ["0-white", "99-white", &format!("{a}-red"), "x", "../archbishop.svg"] {
        assert_eq!(http(s.port, "GET", &format!("{base}{name}"), b"").0, 404, "{name}");
    }
    assert_eq!(http(s.port, "GET", &format!("/api/games/0000/images/{a}-white"), b"").0, 404);
    // The rules page draws them too, from the game's preset.
    let (status, rules) = http(s.port, "GET", &format!("/rules?game={id}"), b"");
    assert_eq!(status, 200);
    assert!(rules.contains(&format!("href=\"{base}{a}-white\"")), "{rules}");

    // An uploaded preset has no folder: it names no picture, and is told where.
    let source = "extends \"chess\"\npiece Knight N value 3 moves \"N\" image \"knight.svg\"\n";
    let (status, e) = call(s.port, "POST", "/api/games", json!({"source": source}));
    assert_eq!(status, 400, "{e}");
    assert_eq!((e["diagnostics"][0]["line"].as_u64(), e["diagnostics"][0]["column"].as_u64()), (Some(2), Some(41)));
    assert!(e["error"].as_str().unwrap().contains("names no image files"), "{e}");
    assert!(e["error"].as_str().unwrap().contains("^^^^^^^^^^"), "the diagnostic quotes the line: {e}");
}

#[test]
fn a_picture_is_read_only_from_beside_its_preset() {
    let dir = std::env::temp_dir().join(format!("herald-pictures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    let write = |name: &str, body: &[u8]| std::fs::write(dir.join(name), body).unwrap();
    let load = |image: &str| {
        let text = format!("board 3 x 3\npiece King K royal moves \"K\" image \"{image}\"\nsetup \"k2/3/2K w\"\n");
        write("inner/p.preset", text.as_bytes());
        match herald::check::load(&dir.join("inner/p.preset").to_string_lossy()) {
            Ok(p) => Ok(p.images[0][herald::engine::Side::Black].as_ref().map(|i| i.inverted)),
            Err(e) => Err(e.headlines().map(|(_, m)| m.to_string()).collect::<Vec<_>>().join("\n")),
        }
    };
    write("inner/k.svg", b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    assert_eq!(load("k.svg"), Ok(Some(true)), "one picture: Black's is White's inverted");
    // A link inside the folder to a file outside it.
    write("outside.svg", b"<svg/>");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("outside.svg"), dir.join("inner/link.svg")).unwrap();
        assert_eq!(
            load("link.svg"),
            Err("image `link.svg` lies outside the preset's folder (through a symbolic link)".into())
        );
        std::os::unix::fs::symlink(dir.join("inner/k.svg"), dir.join("inner/near.svg")).unwrap();
        assert_eq!(load("near.svg"), Ok(Some(true)), "a link that stays inside is followed");
    }
    let mut big = b"<svg xmlns=\"http://www.w3.org/2000/svg\">".to_vec();
    big.resize(herald::files::MAX_IMAGE_BYTES as usize + 1, b' ');
    write("inner/big.svg", &big);
    assert_eq!(load("big.svg"), Err(format!("image `big.svg` is larger than the limit of {} bytes", 256 * 1024)));
    std::fs::create_dir_all(dir.join("inner/dir.svg")).unwrap();
    assert_eq!(load("dir.svg"), Err("image `dir.svg` is not read: it is a folder, not a regular file".into()));
    assert!(load("../outside.svg").unwrap_err().contains("names a file beside the preset"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// The page in a browser, over WebDriver.

/// A chromedriver child and one headless Chromium session.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = wd(self.port, "DELETE", &format!("/session/{}", self.session), Value::Null);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn wd(port: u16, method: &str, path: &str, body: Value) -> Value {
    let bytes = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    let (_, text) = http(port, method, path, &bytes);
    serde_json::from_str::<Value>(&text).map(|v| v["value"].clone()).unwrap_or(Value::Null)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn browser() -> Option<Browser> {
    let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let chromium =
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].into_iter().find(|p| std::path::Path::new(p).exists())?;
    let port = free_port();
    let child =
        Command::new(driver).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().ok()?;
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(20) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
        "binary": chromium,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"],
    }}}});
    let v = wd(port, "POST", "/session", caps);
    let session = v["sessionId"].as_str()?.to_string();
    Some(Browser { driver: child, port, session })
}

impl Browser {
    fn go(&self, url: &str) {
        wd(self.port, "POST", &format!("/session/{}/url", self.session), json!({ "url": url }));
    }
    /// The first element a CSS selector finds, waiting for it to appear.
    fn find(&self, css: &str) -> String {
        let start = Instant::now();
        loop {
            let v = wd(
                self.port,
                "POST",
                &format!("/session/{}/element", self.session),
                json!({"using": "css selector", "value": css}),
            );
            // An element is `{"element-6066-...": ID}`; an error is `{"error": ..., "message": ...}`.
            if let Some(id) = v.get("element-6066-11e4-a52e-4f735466cecf").and_then(Value::as_str) {
                return id.to_string();
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no element {css}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    fn click(&self, css: &str) {
        let id = self.find(css);
        let v = wd(self.port, "POST", &format!("/session/{}/element/{id}/click", self.session), json!({}));
        assert!(v.is_null(), "clicking {css}: {v}");
    }
    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        wd(self.port, "GET", &format!("/session/{}/element/{id}/text", self.session), Value::Null)
            .as_str()
            .unwrap_or("")
            .to_string()
    }
    /// Wait until the text of an element is `want`.
    fn wait_text(&self, css: &str, want: &str) {
        let start = Instant::now();
        while self.text(css) != want {
            assert!(start.elapsed() < Duration::from_secs(30), "{css} is {:?}, not {want:?}", self.text(css));
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    /// Run a script in the page and answer its value.
    fn exec(&self, script: &str) -> Value {
        wd(self.port, "POST", &format!("/session/{}/execute/sync", self.session), json!({"script": script, "args": []}))
    }
    /// Wait until a script's value is true.
    fn wait_until(&self, script: &str) {
        let start = Instant::now();
        while self.exec(script) != json!(true) {
            assert!(start.elapsed() < Duration::from_secs(30), "never true: {script}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    fn count(&self, css: &str) -> usize {
        let v = wd(
            self.port,
            "POST",
            &format!("/session/{}/elements", self.session),
            json!({"using": "css selector", "value": css}),
        );
        v.as_array().map_or(0, Vec::len)
    }
}

#[test]
fn the_page_plays_by_clicks_in_a_browser() {
    let Some(b) = browser() else {
        println!("skipped: chromedriver and chromium are not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let s = serve(&[]);
    let base = format!("http://127.0.0.1:{}", s.port);

    // Chess: e2 then e4.
    b.go(&format!("{base}/?preset=chess"));
    b.wait_text("#fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(b.count("[data-square]"), 64);
    assert_eq!(b.count("[data-square] [data-piece][data-side=white]"), 16);
    b.click("[data-square=e2]");
    assert_eq!(b.count(".dest[data-square]"), 2, "e3 and e4 are offered");
    b.click("[data-square=e4]");
    let mut lib = library_game("chess", None);
    lib.play("e4").unwrap();
    b.wait_text("#fen", &lib.fen());
    b.wait_text("#status", "black to move");
    assert_eq!(b.count("[data-square=e4] [data-piece=P][data-side=white]"), 1);
    // Typed, then taken back and played again.
    let turn = b.find("#turn");
    wd(b.port, "POST", &format!("/session/{}/element/{turn}/value", b.session), json!({"text": "e5\n"}));
    lib.play("e5").unwrap();
    b.wait_text("#fen", &lib.fen());
    b.click("[data-action=undo]");
    lib.undo();
    b.wait_text("#fen", &lib.fen());
    b.click("[data-action=redo]");
    lib.play("e5").unwrap();
    b.wait_text("#fen", &lib.fen());

    // A promotion: the clicks are shared, so the turns are offered as choices.
    let fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
    b.go(&format!("{base}/?preset=chess&fen={}", fen.replace(' ', "%20").replace('/', "%2F")));
    b.wait_text("#fen", fen);
    b.click("[data-square=a7]");
    b.click("[data-square=a8]");
    let mut promo = library_game("chess", Some(fen));
    let choices: Vec<String> = promo.legal_texts().unwrap().into_iter().filter(|t| t.starts_with("P a7-a8")).collect();
    assert_eq!(b.count("[data-choice]"), choices.len());
    let knight = choices.iter().find(|c| c.ends_with("N-a8")).unwrap();
    b.click(&format!("[data-choice=\"{knight}\"]"));
    promo.play(knight).unwrap();
    b.wait_text("#fen", &promo.fen());

    // Constructing: a move, then a square built, click by click.
    b.go(&format!("{base}/?preset=constructing"));
    let mut built = library_game("constructing", None);
    b.wait_text("#fen", &built.fen());
    b.click("[data-square=g7]");
    b.click("[data-square=g8]");
    assert!(b.count(".dest[data-hole]") > 0, "the squares that may be built are offered");
    b.click("[data-hole=g5]");
    built.play("P g7-g8; @-g5").unwrap();
    b.wait_text("#fen", &built.fen());

    // A drop: the piece in hand, its destinations marked (every empty square), then the square.
    let fen = "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1";
    b.go(&format!("{base}/?preset=crazyhouse&fen={}", fen.replace(' ', "%20").replace('/', "%2F")));
    b.wait_text("#fen", fen);
    assert_eq!(b.count("#hands:not(.none) #hand-white [data-hand=white][data-piece=Q][data-side=white]"), 1);
    b.click("[data-hand=white][data-piece=Q]");
    let mut house = library_game("crazyhouse", Some(fen));
    let drops = house.legal_texts().unwrap().into_iter().filter(|t| t.starts_with("Q*")).count();
    assert_eq!((drops, b.count(".dest[data-square]")), (62, 62), "the queen may go to every empty square");
    b.click("[data-square=e4]");
    house.play("Q*e4").unwrap();
    b.wait_text("#fen", &house.fen());
    assert_eq!(b.count("[data-square=e4] [data-piece=Q][data-side=white]"), 1);
    assert_eq!(b.count("[data-hand=white]"), 0, "the hand is empty");

    // Flip: the board turns round, the hands swap, and clicks still reach the squares.
    b.go(&format!("{base}/?preset=chess"));
    let mut flipped = library_game("chess", None);
    b.wait_text("#fen", &flipped.fen());
    b.click("[data-action=flip]");
    assert_eq!(b.count("body.flipped svg.board.flipped"), 1);
    // e2 is drawn above e4 now: its square lies higher on the page.
    b.wait_until(
        "const y = (s) => document.querySelector('[data-square=' + s + ']').getBoundingClientRect().top; \
         return y('e2') < y('e4') && y('e7') > y('e2');",
    );
    b.click("[data-square=d2]");
    b.click("[data-square=d4]");
    flipped.play("d4").unwrap();
    b.wait_text("#fen", &flipped.fen());
    assert_eq!(b.count("svg.board.flipped"), 1, "the board stays flipped after a turn");
    b.click("[data-action=flip]");
    assert_eq!(b.count("svg.board.flipped"), 0);

    // The computer's turn: one of the legal turns is played.
    let before = flipped.fen();
    b.exec("document.querySelector('#think').value = '300'; return true;");
    b.click("[data-action=go]");
    b.wait_text("#status", "white to move");
    let after = b.text("#fen");
    let legal = flipped.legal_texts().unwrap();
    let played = legal.iter().find(|t| {
        let mut g = library_game("chess", Some(&before));
        g.play(t).unwrap();
        g.fen() == after
    });
    assert!(played.is_some(), "{after} follows no legal turn from {before}");
    assert_eq!(b.count("#movelist li"), 1, "one numbered line: 1. P d2-d4 ...");
    // A new game: the start again.
    b.click("[data-action=new]");
    b.wait_text("#fen", &library_game("chess", None).fen());
    assert_eq!(b.count("#movelist li"), 0);
    // An illegal typed turn is refused with the reason, and nothing changes.
    let turn = b.find("#turn");
    wd(b.port, "POST", &format!("/session/{}/element/{turn}/value", b.session), json!({"text": "e5\n"}));
    b.wait_until("const e = document.querySelector('#messages .error'); return !!e && e.textContent === 'no white P can move to e5';");
    b.wait_text("#fen", &library_game("chess", None).fen());

    // A server started again knows no game, and gives out new ids; the page brings its game back
    // from the browser's copy (preset, start, turns) under a new id.
    b.go(&format!("{base}/?preset=crazyhouse"));
    let mut kept = library_game("crazyhouse", None);
    b.wait_text("#fen", &kept.fen());
    for t in ["e4", "d5", "exd5"] {
        let input = b.find("#turn");
        wd(b.port, "POST", &format!("/session/{}/element/{input}/value", b.session), json!({"text": format!("{t}\n")}));
        kept.play(t).unwrap();
        b.wait_text("#fen", &kept.fen());
    }
    let url = b.exec("return location.href;").as_str().unwrap().to_string();
    let port = s.port;
    drop(s);
    let s2 = serve_on(&[], port);
    b.go(&url);
    b.wait_text("#fen", &kept.fen());
    let now = b.exec("return location.href;").as_str().unwrap().to_string();
    assert_ne!(now, url, "a new id");
    assert!(b.text("#messages").contains("it was replayed from this browser's copy"), "{}", b.text("#messages"));
    let id = now.split("game=").nth(1).unwrap();
    let (_, g) = call(s2.port, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(texts(&g["history"]), kept.played.iter().map(|t| t.text.clone()).collect::<Vec<_>>());
}

#[test]
fn the_page_draws_a_presets_pictures_in_a_browser() {
    let Some(b) = browser() else {
        println!("skipped: chromedriver and chromium are not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let s = serve(&["tests/pictures/pictured.preset"]);
    b.go(&format!("http://127.0.0.1:{}/", s.port));
    b.find("[data-square=c1] image.pic");
    assert_eq!(b.count("[data-piece] image.pic"), 4, "two archbishops and two chancellors");
    assert_eq!(b.count("[data-square=c8] [data-piece=a][data-side=black] image.pic.inverted"), 1);
    // Black's archbishop is White's picture inverted; every picture arrives as an image.
    b.wait_until("return getComputedStyle(document.querySelector('image.pic.inverted')).filter === 'invert(1)';");
    b.wait_until(
        "const hrefs = [...document.querySelectorAll('image.pic')].map((i) => i.getAttribute('href')); \
         window.sizes = window.sizes || {}; \
         for (const h of hrefs) if (!(h in window.sizes)) { window.sizes[h] = -1; \
           const im = new Image(); im.onload = () => { window.sizes[h] = im.naturalWidth; }; im.src = h; } \
         return hrefs.every((h) => window.sizes[h] === 45);",
    );
}
