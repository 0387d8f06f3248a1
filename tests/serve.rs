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
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("serve")
        .args(args)
        .args(["--port", "0"])
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
    // Too large a body is refused before it is read whole.
    let big = vec![b' '; (herald::server::MAX_BODY + 10) as usize];
    assert_eq!(http(s.port, "POST", &play, &big).0, 413);
    let (_, g2) = call(s.port, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(g2["fen"], g["fen"]);
    assert_eq!(texts(&g2["history"]), Vec::<String>::new());
    assert_eq!(from(&format!("http://127.0.0.1:{}", s.port)).0, 200, "the server's own page plays");
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
            if let Some(id) = v.as_object().and_then(|o| o.values().next()).and_then(Value::as_str) {
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
}
