"use strict";
// The server's only script (the Content-Security-Policy runs no other): live parts of
// pages, the submission's progress, and the game viewer. Text from the server is set with
// textContent; the live parts are HTML the server rendered with escaping.
const el = (id) => document.getElementById(id);

// Parts marked data-live="URL" are fetched again whenever the server announces a change.
function followChanges() {
  const parts = document.querySelectorAll("[data-live]");
  if (!parts.length || !window.EventSource) return;
  const events = new EventSource("/events");
  let busy = false, again = false;
  const refresh = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      for (const part of parts) {
        const response = await fetch(part.dataset.live, { credentials: "same-origin" });
        if (response.ok) part.innerHTML = await response.text();
      }
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  };
  events.addEventListener("change", refresh);
}

// A submission's page follows its job until it ends.
function followJob() {
  const box = el("job");
  if (!box || !box.dataset.job) return;
  const poll = async () => {
    const response = await fetch(box.dataset.job, { credentials: "same-origin" });
    if (!response.ok) return;
    const job = await response.json();
    const state = el("job-state");
    state.textContent = job.state;
    state.className = job.state;
    el("job-message").textContent = job.message;
    if (!job.done) setTimeout(poll, 1000);
  };
  setTimeout(poll, 500);
}

// The game viewer: the server sends the board placement of every ply; this only draws.
function viewGame() {
  const data = el("game-data");
  if (!data) return;
  const game = JSON.parse(data.textContent);
  const glyph = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
  let ply = 0;
  const square = (file, rank) => "abcdefgh"[file] + (rank + 1);
  function drawBoard() {
    const board = el("board");
    board.textContent = "";
    const last = ply > 0 ? game.uci[ply - 1] : "";
    const marked = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
    game.fens[ply].split("/").forEach((row, r) => {
      let file = 0;
      for (const ch of row) {
        const empty = parseInt(ch, 10);
        for (const piece of isNaN(empty) ? [ch] : Array(empty).fill("")) {
          const rank = 7 - r;
          const cell = document.createElement("div");
          cell.className = ((file + rank) % 2 === 1 ? "light" : "dark") +
            (marked.includes(square(file, rank)) ? " hl" : "");
          if (piece) {
            cell.textContent = glyph[piece.toLowerCase()] + "\ufe0e";
            cell.classList.add(piece === piece.toUpperCase() ? "w" : "b");
            cell.dataset.piece = piece;
          }
          cell.dataset.square = square(file, rank);
          board.appendChild(cell);
          file++;
        }
      }
    });
  }
  function drawMoves() {
    const moves = el("moves");
    moves.textContent = "";
    game.san.forEach((san, i) => {
      const number = game.first_move + Math.floor((i + game.first_black) / 2);
      if (i === 0 && game.first_black) moves.append(number + "... ");
      else if ((i + game.first_black) % 2 === 0) moves.append(number + ". ");
      const span = document.createElement("span");
      span.className = "m" + (i + 1 === ply ? " cur" : "");
      span.textContent = san;
      span.onclick = () => { ply = i + 1; draw(); };
      moves.append(span, " ");
    });
    moves.append(game.result);
  }
  function draw() {
    drawBoard();
    drawMoves();
    el("info").textContent = "ply " + ply + " of " + game.san.length;
    el("info").dataset.ply = String(ply);
  }
  const step = (to) => { ply = Math.max(0, Math.min(game.san.length, to)); draw(); };
  el("first").onclick = () => step(0);
  el("prev").onclick = () => step(ply - 1);
  el("next").onclick = () => step(ply + 1);
  el("last").onclick = () => step(Infinity);
  document.addEventListener("keydown", (e) => {
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (e.key in keys) { step(keys[e.key]); e.preventDefault(); }
  });
  draw();
}

followChanges();
followJob();
viewGame();
