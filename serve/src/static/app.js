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
    // The entry has a page once it is accepted (a refused first one has none).
    const entry = el("job-entry");
    if (job.linked && entry && entry.dataset.href) {
      const link = document.createElement("a");
      link.id = "job-entry";
      link.href = entry.dataset.href;
      link.textContent = entry.textContent;
      entry.replaceWith(link);
    }
    if (!job.done) setTimeout(poll, 1000);
  };
  setTimeout(poll, 500);
}

// The game viewer: the server sends the board placement of every ply; ChessBoard (the
// kit's board script, loaded before this one) draws it.
function viewGame() {
  const data = el("game-data");
  if (!data) return;
  const game = JSON.parse(data.textContent);
  // It opens on the final position, as the report does: how the game ended is what a
  // visitor comes to see first.
  let ply = game.san.length;
  const step = (to) => { ply = Math.max(0, Math.min(game.san.length, to)); draw(); };
  function draw() {
    const els = { board: el("board"), moves: el("moves"), graph: el("evalgraph") };
    ChessBoard.showGame(els, game, ply, step);
    el("info").textContent = "ply " + ply + " of " + game.san.length;
    el("info").dataset.ply = String(ply);
  }
  ChessBoard.stepControls(() => ply, step);
  draw();
}

followChanges();
followJob();
viewGame();
