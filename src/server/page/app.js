// Herald's web board: the page's behaviour over the JSON API (docs/web.md). No framework, no network
// beyond the server that sent it. The server draws the board (SVG) and lists every legal turn with
// the clicks that make it; this script only matches clicks against that list.
"use strict";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
let game = null;          // the last state the server sent
let clicks = [];          // the clicks of the turn being assembled
let upload = null;        // the text of an uploaded preset, for new games of it
let busy = false;

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch("/api/" + path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: "the server's answer was not JSON (" + r.status + ")" }; }
  return { status: r.status, ok: r.ok, data };
}

function message(text, kind) {
  const box = $("#messages");
  const div = document.createElement("div");
  if (kind && kind.includes("diag")) {
    // A rendered diagnostic: its headline wraps; the quoted line and its caret keep their columns.
    for (const line of String(text).split("\n")) {
      const row = document.createElement("div");
      row.className = /^\s*\d*\s*\|/.test(line) ? "code" : "head";
      row.textContent = line;
      div.appendChild(row);
    }
  } else div.textContent = text;
  if (kind) div.className = kind;
  box.prepend(div);
  while (box.children.length > 6) box.lastChild.remove();
}

function clearMessages() { $("#messages").textContent = ""; }

function remember(s) {
  // A server restart loses its games; the page keeps what it needs to bring this one back.
  try {
    const rec = { preset: s.preset, fen: s.start_fen, seed: s.seed, turns: s.history };
    if (s.preset === "upload") {
      if (!upload || upload.length > 200000) return;
      rec.source = upload;
    }
    localStorage.setItem("herald-game-" + s.id, JSON.stringify(rec));
    // The copies of the 50 games seen last are kept, the older forgotten.
    const ids = JSON.parse(localStorage.getItem("herald-games") || "[]").filter((i) => i !== s.id);
    ids.push(s.id);
    while (ids.length > 50) localStorage.removeItem("herald-game-" + ids.shift());
    localStorage.setItem("herald-games", JSON.stringify(ids));
  } catch (e) { /* storage full or off: nothing to keep */ }
}

function show(s) {
  game = s;
  clicks = [];
  $("#title").textContent = s.title;
  document.title = s.title + " - Herald";
  $("#board").innerHTML = s.board;
  for (const side of ["white", "black"]) {
    const row = $("#hand-" + side);
    row.innerHTML = s.hands[side];
    row.dataset.label = side === "white" ? "White's hand" : "Black's hand";
  }
  $("#hands").classList.toggle("none", !s.has_hands);
  document.body.classList.toggle("hands", s.has_hands);
  const status = $("#status");
  status.textContent = s.status;
  status.className = s.result ? "over" : (s.check ? "check" : "");
  $("#fen").textContent = s.fen;
  $("#seed").placeholder = s.seed === null || s.seed === undefined ? "any" : String(s.seed);
  $("#state").textContent = s.state ? "state: " + s.state : "";
  $("#legal-count").textContent = s.result ? "" : "(" + s.moves.length + " legal)";
  const list = $("#movelist");
  list.innerHTML = "";
  for (const line of s.numbered) {
    const li = document.createElement("li");
    li.textContent = line;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  const dl = $("#legal-list");
  dl.innerHTML = "";
  for (const m of s.moves.slice(0, 500)) {
    const o = document.createElement("option");
    o.value = m;
    dl.appendChild(o);
  }
  if (s.note) message(s.note);
  for (const said of s.said) message(said, "said");
  $("#rules-link").href = "/rules?game=" + encodeURIComponent(s.id);
  const sel = $("#preset");
  if ([...sel.options].some((o) => o.value === s.preset)) sel.value = s.preset;
  $("#link").href = "/?game=" + s.id;
  if (params.get("game") !== s.id) {
    params.delete("preset"); params.delete("fen"); params.delete("seed");
    params.set("game", s.id);
    history.replaceState(null, "", "/?" + params.toString());
  }
  remember(s);
  highlight();
  setTimeout(computerTurn, 50);
}

// The legal turns whose clicks begin with `seq`.
function matching(seq) {
  if (!game) return [];
  return game.turns.filter((t) => seq.every((c, i) => t.clicks[i] === c));
}

function highlight() {
  document.querySelectorAll(".sel, .dest").forEach((e) => e.classList.remove("sel", "dest"));
  const cands = matching(clicks);
  const next = new Set(cands.filter((t) => t.clicks.length > clicks.length).map((t) => t.clicks[clicks.length]));
  marks = clicks.map((c) => [c, "sel"]);
  if (clicks.length > 0) for (const n of next) marks.push([n, "dest"]);
  const done = cands.filter((t) => t.clicks.length === clicks.length);
  const choices = $("#choices");
  choices.innerHTML = "";
  if (clicks.length > 0 && done.length > 0 && (done.length > 1 || next.size > 0)) {
    // Each choice names what differs between the turns (a promotion's new piece, by name when
    // the label is a piece's), with the whole turn beneath.
    const texts = done.map((t) => t.text);
    let common = texts.length > 1 ? texts.reduce((a, b) => { let i = 0; while (i < a.length && a[i] === b[i]) i++; return a.slice(0, i); }) : "";
    common = common.slice(0, common.lastIndexOf(" ") + 1);
    const head = document.createElement("div");
    head.className = "choose";
    head.textContent = "Choose:";
    choices.appendChild(head);
    for (const t of done) {
      const b = document.createElement("button");
      b.dataset.choice = t.text;
      const rest = t.text.slice(common.length) || t.text;
      const label = rest.split("-")[0].replace(/[()]/g, "");
      const name = game.names && game.names[label];
      const big = document.createElement("strong");
      big.textContent = name && rest.includes("-") ? name : rest;
      const small = document.createElement("small");
      small.textContent = t.text;
      b.append(big, small);
      b.title = t.text;
      b.addEventListener("click", () => play(t.text));
      choices.appendChild(b);
    }
  }
  preview(cands[0]);
  $("#partial").textContent = clicks.length ? "selected: " + clicks.map((c) => c.replace("hand:", "hand ")).join(" \u2192 ") : "";
}

// Show the parts already clicked in full: a piece moved, a piece removed, a square built or removed.
// The board is drawn again from the server's state after every request, so this only decorates it.
function preview(turn) {
  const board = $("#board");
  if (!game) return;
  board.innerHTML = game.board;
  flip(flipped);
  if (!turn || clicks.length === 0) return restoreMarks();
  let n = 0;
  for (const part of turn.parts) {
    n += part.clicks.length;
    if (n > clicks.length) break;
    const at = (sq) => board.querySelector('[data-square="' + sq + '"]') || board.querySelector('[data-hole="' + sq + '"]');
    if (part.kind === "move") {
      const from = at(part.clicks[0]), to = at(part.clicks[1]);
      const pc = from && from.querySelector(".pc");
      if (pc && to) {
        const old = to.querySelector(".pc");
        if (old) old.remove();
        to.insertBefore(pc, to.querySelector(".dot"));
      }
    } else if (part.kind === "remove" || part.kind === "destroy") {
      const sq = at(part.clicks[0]);
      if (sq) sq.classList.add("gone");
    } else if (part.kind === "build") {
      const sq = at(part.clicks[0]);
      if (sq) sq.classList.add("built");
    }
  }
  restoreMarks();
}

let marks = [];
// The selection and destination marks, put back on a board drawn again.
function restoreMarks() {
  for (const [tok, cls] of marks) {
    const board = $("#board");
    const els = tok.startsWith("hand:")
      ? document.querySelectorAll('[data-click="' + CSS.escape(tok) + '"]')
      : board.querySelectorAll('[data-square="' + tok + '"], [data-hole="' + tok + '"]');
    els.forEach((e) => e.classList.add(cls));
  }
}

function clickToken(tok) {
  if (!game || game.result || busy) return;
  let seq = clicks.concat([tok]);
  if (matching(seq).length === 0) {
    // A click that continues nothing begins again from it, or clears the selection.
    seq = matching([tok]).length ? [tok] : [];
  }
  clicks = seq;
  const cands = matching(clicks);
  const done = cands.filter((t) => t.clicks.length === clicks.length);
  const more = cands.some((t) => t.clicks.length > clicks.length);
  if (clicks.length > 0 && done.length === 1 && !more) {
    play(done[0].text);
    return;
  }
  highlight();
}

function onBoardClick(ev) {
  const el = ev.target.closest("[data-square], [data-hole], [data-click]");
  if (!el) return;
  clickToken(el.dataset.click || el.dataset.square || el.dataset.hole);
}

async function act(path, body) {
  if (!game) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const r = await api("POST", "games/" + game.id + "/" + path, body);
    if (r.status === 404) return lost();
    if (!r.ok) {
      message(r.data.error, "error");
      clicks = [];
      highlight();
      return false;
    }
    clearMessages();
    show(r.data);
    return true;
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function play(text) { return act("play", { turn: text }); }

function thinkMs() { return Number($("#think").value) || 1000; }

function computerTurn() {
  const side = $("#computer").value;
  if (game && !game.result && side && game.side === side && !busy) act("go", { ms: thinkMs() });
}

async function newGame(body) {
  clearMessages();
  const r = await api("POST", "games", body);
  if (!r.ok) {
    // A preset's diagnostics come rendered (file:line:column, the line quoted, a caret under the
    // place), kept as they are: the caret lines up only in a fixed-width block that does not wrap.
    const n = r.data.diagnostics ? r.data.diagnostics.length : 0;
    message(r.data.error, n ? "error diag" : "error");
    if (n) message("the preset did not load: " + n + (n === 1 ? " problem" : " problems") + " (nothing changed)", "error");
    return false;
  }
  show(r.data);
  return true;
}

function chosen() {
  const body = {};
  const name = $("#preset").value;
  if (name === "upload" && upload) body.source = upload; else body.preset = name;
  // No seed typed: a new one, so that a preset with a drawn setup deals a new one each game.
  const seed = $("#seed").value.trim();
  body.seed = seed !== "" ? Number(seed) : Math.floor(Math.random() * 1e9);
  return body;
}

// The game is not on the server (a restart, or it was dropped): bring it back from what was kept.
async function lost(id) {
  id = id || (game && game.id);
  const kept = localStorage.getItem("herald-game-" + id);
  if (kept) {
    const rec = JSON.parse(kept);
    const body = { fen: rec.fen, turns: rec.turns };
    if (rec.source) { body.source = rec.source; upload = rec.source; } else body.preset = rec.preset;
    if (rec.seed !== null && rec.seed !== undefined) body.seed = rec.seed;
    if (await newGame(body)) { message("the server had lost game " + id + "; it was replayed from this browser's copy"); return; }
  }
  message("game " + id + " is not on the server; a new game begins", "error");
  await newGame({});
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const f = input.files[0];
    if (!f) return reject(new Error("no file"));
    const rd = new FileReader();
    rd.onload = () => resolve({ name: f.name, text: rd.result });
    rd.onerror = () => reject(rd.error);
    rd.readAsText(f);
  });
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/yaml" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// Whether Black is drawn at the bottom: the board's squares turn round (style.css), the hands swap.
let flipped = localStorage.getItem("herald-flipped") === "1";
function flip(on) {
  flipped = on;
  document.body.classList.toggle("flipped", on);
  const svg = $("#board svg.board");
  if (svg) svg.classList.toggle("flipped", on);
  try { localStorage.setItem("herald-flipped", on ? "1" : "0"); } catch (e) { /* storage off */ }
}

async function onAction(ev) {
  const action = ev.target.closest("[data-action]").dataset.action;
  if (action === "new") return newGame(chosen());
  if (action === "flip") return flip(!flipped);
  if (!game) return;
  if (action === "undo") return act("undo");
  if (action === "redo") return act("redo");
  if (action === "go") return act("go", { ms: thinkMs() });
  if (action === "hint") {
    const r = await api("POST", "games/" + game.id + "/hint", { ms: thinkMs() });
    if (r.ok) {
      message(r.data.note);
      const t = game.turns.find((x) => x.text === r.data.hint);
      if (t) { clicks = t.clicks.slice(0, 1); highlight(); }
    } else message(r.data.error, "error");
    return;
  }
  if (action === "copy-fen") {
    try { await navigator.clipboard.writeText(game.fen); message("FEN copied"); } catch (e) { message("select the FEN to copy it"); }
    return;
  }
  if (action === "save") {
    const r = await api("GET", "games/" + game.id + "/yaml");
    if (r.ok) download((game.preset === "upload" ? "game" : game.preset) + "-game.yaml", r.data.yaml);
    else message(r.data.error, "error");
  }
}

async function init() {
  $("#board").addEventListener("click", onBoardClick);
  $("#hand-white").addEventListener("click", onBoardClick);
  $("#hand-black").addEventListener("click", onBoardClick);
  document.querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", onAction));
  $("#turn-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = $("#turn").value.trim();
    if (!text) return;
    if (await play(text)) $("#turn").value = "";
  });
  $("#preset").addEventListener("change", () => {
    if ($("#preset").value !== "upload") newGame(chosen());
  });
  $("#computer").addEventListener("change", computerTurn);
  $("#upload").addEventListener("change", async (ev) => {
    try {
      const f = await readFile(ev.target);
      const ok = await newGame({ source: f.text });
      if (ok) {
        upload = f.text;
        const sel = $("#preset");
        let opt = [...sel.options].find((o) => o.value === "upload");
        if (!opt) { opt = document.createElement("option"); opt.value = "upload"; sel.prepend(opt); }
        opt.textContent = f.name + " (loaded)";
        sel.value = "upload";
        message("loaded " + f.name);
      }
    } catch (e) { message(String(e), "error"); }
    ev.target.value = "";
  });
  $("#open").addEventListener("change", async (ev) => {
    try {
      const f = await readFile(ev.target);
      const body = { yaml: f.text };
      if (game && game.preset === "upload" && upload) body.source = upload;
      await newGame(body);
    } catch (e) { message(String(e), "error"); }
    ev.target.value = "";
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { clicks = []; highlight(); }
  });

  const r = await api("GET", "presets");
  const sel = $("#preset");
  for (const name of r.data.presets) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    sel.appendChild(o);
  }
  sel.value = params.get("preset") || r.data.default;

  const id = params.get("game");
  if (id) {
    const g = await api("GET", "games/" + encodeURIComponent(id));
    if (g.ok) return show(g.data);
    return lost(id);
  }
  const body = { preset: params.get("preset") || r.data.default };
  if (params.get("fen")) body.fen = params.get("fen");
  if (params.get("seed")) body.seed = Number(params.get("seed"));
  if (!(await newGame(body))) await newGame({});
}

init();
