"use strict";
// ChessBoard: the one board and move list the kit's pages share (the report, the server's
// game and live pages, the play page). It only draws what it is given; every text that
// came from an engine or a player is set with textContent, never parsed as HTML.
//
//   ChessBoard.draw(el, fen, opts)      opts: flipped, lastMove ("e2e4" or null), check,
//                                       coordinates (default true), selected, targets
//   ChessBoard.moveList(el, sans, opts) opts: firstMoveNumber, blackFirst, current (ply),
//                                       onSelect(ply), result
//   ChessBoard.evalGraph(box, ply, onSelect)  marks `ply` on the kit's SVG graph in `box`
//                                       (if it holds one); a click on it selects a ply
//   ChessBoard.showGame(els, game, ply, onSelect)  one ply of a game as the kit's pages
//                                       send it: board, move list and graph at once
//   ChessBoard.stepControls(ply, step)  the viewer's buttons and keys
//
// Squares are `div`s with data-square ("e4"), data-piece ("P", "k") when occupied, and the
// classes light/dark, hl (last move), check, selected and target.
const ChessBoard = (() => {
  const GLYPH = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
  const FILES = "abcdefgh";

  // The pieces of a FEN's placement field by square name; a full FEN is accepted too.
  function placement(fen) {
    const squares = {};
    const rows = String(fen || "").split(" ")[0].split("/");
    rows.slice(0, 8).forEach((row, r) => {
      let file = 0;
      for (const ch of row) {
        if (file > 7) break;
        const empty = parseInt(ch, 10);
        if (isNaN(empty)) {
          if (GLYPH[ch.toLowerCase()]) squares[FILES[file] + (8 - r)] = ch;
          file++;
        } else {
          file += empty;
        }
      }
    });
    return squares;
  }

  // The side to move ("w" or "b"); a placement alone is taken as White to move.
  const sideToMove = (fen) => (String(fen || "").split(" ")[1] === "b" ? "b" : "w");

  function square(name, piece, dark, marks) {
    const cell = document.createElement("div");
    cell.className = dark ? "dark" : "light";
    cell.dataset.square = name;
    for (const [mark, on] of marks) if (on) cell.classList.add(mark);
    if (piece) {
      const glyph = document.createElement("span");
      glyph.className = "piece " + (piece === piece.toUpperCase() ? "w" : "b");
      glyph.textContent = GLYPH[piece.toLowerCase()] + "\ufe0e";
      cell.dataset.piece = piece;
      cell.appendChild(glyph);
    }
    return cell;
  }

  function coordinate(cell, kind, text) {
    const label = document.createElement("span");
    label.className = "coord " + kind;
    label.textContent = text;
    cell.appendChild(label);
  }

  function draw(el, fen, opts) {
    const o = Object.assign({ flipped: false, lastMove: null, check: false, coordinates: true,
      selected: null, targets: [] }, opts || {});
    const pieces = placement(fen);
    const last = typeof o.lastMove === "string" ? [o.lastMove.slice(0, 2), o.lastMove.slice(2, 4)] : [];
    const king = sideToMove(fen) === "w" ? "K" : "k";
    el.textContent = "";
    el.classList.add("chessboard");
    el.classList.toggle("flipped", !!o.flipped);
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = o.flipped ? 7 - col : col, rank = o.flipped ? row : 7 - row;
        const name = FILES[file] + (rank + 1);
        const piece = pieces[name];
        const cell = square(name, piece, (file + rank) % 2 === 0, [
          ["hl", last.includes(name)], ["check", !!o.check && piece === king],
          ["selected", o.selected === name], ["target", o.targets.includes(name)]]);
        if (o.coordinates && row === 7) coordinate(cell, "file", FILES[file]);
        if (o.coordinates && col === 0) coordinate(cell, "rank", String(rank + 1));
        el.appendChild(cell);
      }
    }
  }

  // Scrolls the list alone to its current move: scrollIntoView would scroll the page too.
  function keepInView(el) {
    const cur = el.querySelector(".cur");
    if (cur && (cur.offsetTop < el.scrollTop ||
        cur.offsetTop + cur.offsetHeight > el.scrollTop + el.clientHeight)) {
      el.scrollTop = cur.offsetTop - el.clientHeight / 2;
    }
  }

  function moveList(el, sans, opts) {
    const o = Object.assign({ firstMoveNumber: 1, blackFirst: false, current: null,
      onSelect: null, result: "" }, opts || {});
    const shift = o.blackFirst ? 1 : 0;
    el.textContent = "";
    el.classList.add("movelist");
    sans.forEach((san, i) => {
      const number = o.firstMoveNumber + Math.floor((i + shift) / 2);
      if (i === 0 && shift) el.append(number + "\u2026 ");
      else if ((i + shift) % 2 === 0) el.append(number + ". ");
      const move = document.createElement("span");
      move.className = "m" + (i + 1 === o.current ? " cur" : "");
      move.dataset.ply = String(i + 1);
      move.textContent = san;
      if (o.onSelect) move.onclick = () => o.onSelect(i + 1);
      el.append(move, " ");
    });
    if (o.result) el.append(o.result);
    keepInView(el);
  }

  function evalGraph(box, ply, onSelect) {
    const svg = box && box.querySelector("svg[data-plies]");
    if (!svg) return;
    const plies = Number(svg.dataset.plies) || 0, width = svg.viewBox.baseVal.width;
    const x = String(plies ? Math.max(0, Math.min(ply, plies)) / plies * width : width);
    const marker = svg.querySelector(".marker");
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
    if (onSelect && !svg.dataset.wired) {
      svg.dataset.wired = "1";
      svg.addEventListener("click", (e) => {
        const box = svg.getBoundingClientRect();
        onSelect(Math.round((e.clientX - box.left) / box.width * plies));
      });
    }
  }

  // Shows ply `ply` of a game as the report and the server's game page send it (fens:
  // each ply's placement; uci, checks, san, first_move, first_black, result): the board
  // in els.board, the move list in els.moves, the mark on the evaluation graph in
  // els.graph; a click on a move or on the graph calls onSelect(ply).
  function showGame(els, game, ply, onSelect) {
    // The placement and the side to move: the check flag is the mover's.
    draw(els.board, game.fens[ply] + ((ply + game.first_black) % 2 ? " b" : " w"), {
      lastMove: ply > 0 ? game.uci[ply - 1] : null,
      check: game.checks[ply],
    });
    moveList(els.moves, game.san, {
      firstMoveNumber: game.first_move, blackFirst: game.first_black === 1, current: ply,
      result: game.result, onSelect,
    });
    evalGraph(els.graph, ply, onSelect);
  }

  // The viewer's controls: the buttons #first, #prev, #next and #last, and the arrow,
  // Home and End keys, each calling step(to) with the ply it asks for; ply() is the
  // ply shown.
  function stepControls(ply, step) {
    const button = (id, to) => { document.getElementById(id).onclick = () => step(to()); };
    button("first", () => 0);
    button("prev", () => ply() - 1);
    button("next", () => ply() + 1);
    button("last", () => Infinity);
    document.addEventListener("keydown", (e) => {
      const keys = { ArrowLeft: ply() - 1, ArrowRight: ply() + 1, Home: 0, End: Infinity };
      if (e.key in keys) { step(keys[e.key]); e.preventDefault(); }
    });
  }

  return { draw, moveList, evalGraph, placement, showGame, stepControls };
})();
