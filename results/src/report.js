"use strict";
// The report's games, drawn with ChessBoard (the kit's board script, inlined before this
// one). The games come with a FEN placement and a check flag per ply, computed by the kit:
// this script only draws. Every text from the data is set with textContent (never parsed
// as HTML), and the page's Content-Security-Policy runs this script alone.
const data = JSON.parse(document.getElementById("data").textContent);
const el = (id) => document.getElementById(id);
let game = null, ply = 0, current = -1;

function graph() {
  return document.querySelector('.evalgraph[data-game="' + current + '"]');
}

function draw() {
  ChessBoard.showGame({ board: el("board"), moves: el("moves"), graph: graph() }, game, ply, step);
  el("info").textContent = game.white + " \u2013 " + game.black + "  " + game.result +
    " (" + game.termination + ")  ply " + ply + "/" + game.san.length +
    "  \u00b7 " + game.round_label + (game.detail ? "  \u00b7 " + game.detail : "");
}

function open(i) {
  game = data.games[i];
  current = i;
  ply = game.san.length;
  document.querySelectorAll("#games tr").forEach((tr) => tr.classList.toggle("open", tr.dataset.i == i));
  document.querySelectorAll(".evalgraph").forEach((g) => { g.hidden = g.dataset.game != i; });
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
  for (const h of ["#", "Game", "White", "Black", "Result", "Ending", "Plies"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  data.games.forEach((g, i) => {
    const tr = table.insertRow();
    tr.dataset.i = i;
    for (const v of [g.id, g.round_label, g.white, g.black, g.result, g.termination, g.san.length]) {
      tr.insertCell().textContent = v;
    }
    tr.onclick = () => open(i);
  });
}

ChessBoard.stepControls(() => ply, step);
listGames();
if (data.games.length) open(0);
else el("info").textContent = "No games yet.";
