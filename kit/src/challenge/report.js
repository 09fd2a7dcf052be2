"use strict";
// The games come with a FEN placement per ply, computed by the kit: this script only draws.
// Every text from the data is set with textContent (never parsed as HTML), and the page's
// Content-Security-Policy runs this script alone.
const data = JSON.parse(document.getElementById("data").textContent);
const glyph = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
const el = (id) => document.getElementById(id);
let game = null, ply = 0;

function squareName(file, rank) { return "abcdefgh"[file] + (rank + 1); }

function drawBoard() {
  const board = el("board");
  board.textContent = "";
  const rows = game.fens[ply].split("/");
  const last = ply > 0 ? game.uci[ply - 1] : "";
  const marked = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      const empty = parseInt(ch, 10);
      const pieces = isNaN(empty) ? [ch] : Array(empty).fill("");
      for (const piece of pieces) {
        const rank = 7 - r;
        const cell = document.createElement("div");
        cell.className = ((file + rank) % 2 === 1 ? "light" : "dark") +
          (marked.includes(squareName(file, rank)) ? " hl" : "");
        if (piece) {
          cell.textContent = glyph[piece.toLowerCase()] + "\ufe0e";
          cell.classList.add(piece === piece.toUpperCase() ? "w" : "b");
        }
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
  el("info").textContent = game.white + " \u2013 " + game.black + "  " + game.result +
    " (" + game.termination + ")  ply " + ply + "/" + game.san.length +
    (game.detail ? "  \u00b7 " + game.detail : "");
  // Scroll the move list alone: scrollIntoView would scroll the page as well, and the
  // report would open scrolled past its title and standings.
  const cur = document.querySelector("#moves .cur");
  const box = el("moves");
  if (cur && (cur.offsetTop < box.scrollTop ||
      cur.offsetTop + cur.offsetHeight > box.scrollTop + box.clientHeight)) {
    box.scrollTop = cur.offsetTop - box.clientHeight / 2;
  }
}

function open(i) {
  game = data.games[i];
  ply = game.san.length;
  document.querySelectorAll("#games tr").forEach((tr) => tr.classList.toggle("open", tr.dataset.i == i));
  draw();
}

function step(to) {
  if (!game) return;
  ply = Math.max(0, Math.min(game.san.length, to));
  draw();
}

function listGames() {
  const table = el("games");
  const head = table.insertRow();
  for (const h of ["#", "Round", "White", "Black", "Result", "Ending", "Plies"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  data.games.forEach((g, i) => {
    const tr = table.insertRow();
    tr.dataset.i = i;
    for (const v of [g.id, g.round, g.white, g.black, g.result, g.termination, g.san.length]) {
      tr.insertCell().textContent = v;
    }
    tr.onclick = () => open(i);
  });
}

el("first").onclick = () => step(0);
el("prev").onclick = () => step(ply - 1);
el("next").onclick = () => step(ply + 1);
el("last").onclick = () => step(Infinity);
document.addEventListener("keydown", (e) => {
  const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
  if (e.key in keys) { step(keys[e.key]); e.preventDefault(); }
});
listGames();
if (data.games.length) open(0);
else el("info").textContent = "No games yet.";
