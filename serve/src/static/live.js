"use strict";
// The live pages' script: the now-playing list follows /live/events; a game's page draws
// each frame its event stream sends (the whole game: board, moves, clocks, what each engine
// said) with the shared ChessBoard, and goes to the stored game when the game ends. Every
// text from an engine or a player is set with textContent.
(() => {
  const el = (id) => document.getElementById(id);

  function followList() {
    const part = document.querySelector("[data-live-list]");
    if (!part || !window.EventSource) return;
    const events = new EventSource("/live/events");
    let busy = false, again = false;
    const refresh = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        const response = await fetch(part.dataset.liveList, { credentials: "same-origin" });
        if (response.ok) part.innerHTML = await response.text();
        document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
      } finally {
        busy = false;
        if (again) { again = false; refresh(); }
      }
    };
    events.addEventListener("change", refresh);
  }

  // Milliseconds as m:ss, or tenths under ten seconds.
  function clock(ms) {
    if (ms === null || ms === undefined) return "–";
    if (ms < 10000) return (ms / 1000).toFixed(1);
    const s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function engineRow(row, engine) {
    row.querySelector(".depth").textContent = engine.depth ?? "";
    row.querySelector(".score").textContent = engine.score ?? "";
    row.querySelector(".nodes").textContent = engine.nodes ?? "";
    row.querySelector(".pv").textContent = (engine.pv || []).join(" ");
  }

  function draw(frame) {
    el("live-white").textContent = frame.white;
    el("live-black").textContent = frame.black;
    el("live-round").textContent = frame.round;
    ChessBoard.draw(el("live-board"), frame.fen, { lastMove: frame.last_move, check: frame.check });
    ChessBoard.moveList(el("live-moves"), frame.sans, {
      firstMoveNumber: frame.first_move_number, blackFirst: frame.black_first,
      current: frame.sans.length,
    });
    const white = el("clock-white"), black = el("clock-black");
    white.textContent = "White " + clock(frame.clocks[0]);
    black.textContent = "Black " + clock(frame.clocks[1]);
    white.classList.toggle("running", !frame.over && frame.turn === "w");
    black.classList.toggle("running", !frame.over && frame.turn === "b");
    engineRow(el("engine-white"), frame.engines[0]);
    engineRow(el("engine-black"), frame.engines[1]);
    const live = el("live");
    live.dataset.plies = String(frame.sans.length);
    document.body.dataset.frames = String(Number(document.body.dataset.frames || 0) + 1);
    if (frame.over) {
      el("live-state").textContent = frame.result ? "over: " + frame.result : "over";
      el("live-end").textContent = frame.detail || "";
    }
  }

  function followGame() {
    const live = el("live");
    const data = el("live-frame");
    if (!live || !data) return;
    draw(JSON.parse(data.textContent));
    if (!window.EventSource) return;
    const events = new EventSource(live.dataset.events);
    events.addEventListener("frame", (event) => {
      const frame = JSON.parse(event.data);
      draw(frame);
      if (frame.over && frame.result) {
        events.close();
        if (frame.stored) window.location.assign(frame.stored);
      }
    });
  }

  followList();
  followGame();
})();
