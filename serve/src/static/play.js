"use strict";
// The play page: the server owns the game and checks every move; this draws its state
// with ChessBoard (the kit's board script) and posts the human's moves. Text from the
// server (names, the bot's messages) is set with textContent only.
(() => {
  const el = (id) => document.getElementById(id);
  const token = document.querySelector('meta[name="play-token"]').content;
  let game = null, flipped = null, selected = null, receivedAt = 0, polling = false;

  const targetsOf = (from) => game && game.turn === "human" && from
    ? [...new Set(game.legal.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4)))] : [];

  function draw() {
    const human = game.human.toLowerCase();
    if (flipped === null) flipped = human === "black";
    ChessBoard.draw(el("board"), game.fen, { flipped, lastMove: game.last, check: game.check,
      selected, targets: targetsOf(selected) });
    ChessBoard.moveList(el("moves"), game.san, { firstMoveNumber: game.first_move,
      blackFirst: game.black_first, current: game.san.length,
      result: game.ending ? game.ending.result : "" });
    el("status").textContent = game.ending ? game.ending.reason + " (" + game.ending.result + ")"
      : game.turn === "human" ? "Your move" : (human === "white" ? game.black : game.white) + " is thinking\u2026";
    document.body.dataset.turn = game.turn;
    document.body.dataset.plies = String(game.san.length);
    el("undo").disabled = el("resign").disabled = game.turn !== "human";
    drawClocks();
  }

  function clockText(ms) {
    if (ms === null) return "\u2013";
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function drawClocks() {
    if (!game) return;
    const toMove = game.fen.split(" ")[1] === "w" ? 0 : 1;
    const sides = flipped ? [0, 1] : [1, 0];
    ["clock-top", "clock-bottom"].forEach((id, i) => {
      const side = sides[i], running = !game.ending && side === toMove;
      let ms = game.clocks[side];
      if (running && ms !== null) ms -= performance.now() - receivedAt;
      el(id).querySelector(".name").textContent = side === 0 ? game.white : game.black;
      el(id).querySelector(".time").textContent = clockText(ms);
      el(id).classList.toggle("running", running);
    });
  }

  function show(state) {
    game = state;
    receivedAt = performance.now();
    selected = null;
    draw();
    if (game.turn === "bot") poll();
  }

  async function poll() {
    if (polling) return;
    polling = true;
    try {
      while (game.turn === "bot") {
        await new Promise((done) => setTimeout(done, 250));
        const response = await fetch("/state", { cache: "no-store" });
        if (response.ok) {
          const state = await response.json();
          if (state.turn !== "bot" || state.san.length !== game.san.length) show(state);
        }
      }
    } finally {
      polling = false;
    }
  }

  async function post(path, body) {
    el("message").textContent = "";
    const response = await fetch(path, { method: "POST", cache: "no-store",
      headers: { "content-type": "application/json", "x-play-token": token },
      body: body === undefined ? "" : JSON.stringify(body) });
    if (response.ok) show(await response.json());
    else {
      el("message").textContent = await response.text();
      draw();
    }
  }

  // The pieces a promotion may take, chosen in the dialog; "" cancels.
  function choosePromotion() {
    const dialog = el("promotion");
    return new Promise((done) => {
      dialog.querySelectorAll("button").forEach((b) => { b.onclick = () => { dialog.close(); done(b.dataset.piece); }; });
      dialog.oncancel = () => done("");
      dialog.showModal();
    });
  }

  async function tryMove(from, to) {
    const moves = game.legal.filter((m) => m.slice(0, 4) === from + to);
    selected = null;
    if (!moves.length) { draw(); return; }
    let uci = moves[0];
    if (moves.length > 1) {
      const piece = await choosePromotion();
      if (!piece) { draw(); return; }
      uci = from + to + piece;
    }
    await post("/move", { move: uci });
  }

  const squareAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit && hit.closest("#board [data-square]");
  };

  function pointerDown(e) {
    const cell = e.target.closest("[data-square]");
    if (!cell || !game || game.turn !== "human") return;
    const square = cell.dataset.square;
    if (selected && targetsOf(selected).includes(square)) { tryMove(selected, square); return; }
    selected = targetsOf(square).length ? square : null;
    draw();
  }

  function pointerUp(e) {
    if (!selected) return;
    const cell = squareAt(e.clientX, e.clientY);
    if (cell && cell.dataset.square !== selected && targetsOf(selected).includes(cell.dataset.square)) {
      tryMove(selected, cell.dataset.square);
    }
  }

  el("board").addEventListener("pointerdown", pointerDown);
  document.addEventListener("pointerup", pointerUp);
  el("flip").onclick = () => { flipped = !flipped; draw(); };
  el("undo").onclick = () => post("/undo");
  el("resign").onclick = () => post("/resign");
  setInterval(drawClocks, 200);
  fetch("/state", { cache: "no-store" }).then((r) => r.json()).then(show);
})();
