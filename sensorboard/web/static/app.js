// sensorboard's page: draws any board from its geometry and follows the service over a
// WebSocket. No build step, no dependencies.
"use strict";

const U = 100; // SVG units per board unit
const SVG = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";

// Short text for each LED role, used in cell labels (the legend has the long form).
const ROLE_SHORT = {
  lifted: "lifted", move: "move target", capture: "capture", lift: "may leave",
  wrong: "error, should be empty", missing: "error, a piece belongs here",
  last: "last move", choice: "question candidate", winner: "winner", cut: "would cut a path",
  roll: "the turn goes on here", attacker: "could take the Prime", dodge: "Dodger's second leg",
  "hint-from": "hint: from here", "hint-to": "hint: to here",
  "opponent-from": "opponent's turn: from here", "opponent-to": "opponent's turn: to here",
};
const BUTTON_LABELS = { clock: "Clock (end turn)", hint: "Hint", takeback: "Take back" };
const PIECE_COLOURS = {
  clear: "#f7f5ee", dark: "#34302b", black: "#151515", white: "#fbfbfb",
  yellow: "#f2c200", red: "#c62828", blue: "#1e5bc6", green: "#2e7d32",
  light: "#ece6d6", "?": "#a0a0a0",
};
// A figure game (Tesulda): a base in its owner's colour with the pieces on its rod, each
// piece kind a shape and colour of its own (the pieces' colour means nothing in the rules).
const FIGURE_BASES = ["circle", "square", "triangle"];
const FIGURE_PIECES = {
  crown: "#e0a800", star: "#f07d1a", circle: "#3d7fd6", square: "#c8372d",
  diamond: "#8e44ad", trapezoid: "#13907a", hexagon: "#9aa3a8",
};
const BOX_COLOURS = {
  yellow: "#f6ea9c", red: "#f2b0a8", blue: "#b1c8f0", green: "#b6e0b0",
};

let view = null;    // the last snapshot drawn
let board = null;   // {id, cells: {name: {g, shape, pieces, cell}}}
let socket = null;
let review = null;  // a past position shown read-only: {ply, move, pieces, leds}
let allowed = true; // may this page act (false: a viewer without the token)
let flipped = localStorage.getItem("sensorboard-flipped") === "1"; // seen from the far side
const VIEWER_TEXT = "You are watching: playing from this page needs the board's token. " +
  "Open the address sensorboard printed (it ends in ?token=…).";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function hashColour(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 55%, 50%)`;
}

function ledFill(rgb) {
  // LEDs are driven dim on purpose; show the hue at a visible brightness.
  const m = Math.max(...rgb);
  if (!m) return null;
  const [r, g, b] = rgb.map((v) => Math.round((v * 230) / m));
  return `rgb(${r}, ${g}, ${b})`;
}

function pieceText(pieces) {
  if (board && board.figures && pieces.length && pieces[0] !== "?") return figureText(pieces);
  return pieces.map((p) => (p === "?" ? "a piece (not yet known)" : `${p} piece`)).join(" on ");
}

function figureText(pieces) {
  // ["light-square", "square", "hexagon"] -> "light square base with square, hexagon"
  const base = pieces[0].replace("-", " ") + " base";
  const rest = pieces.slice(1).filter((p) => p !== "?");
  return rest.length ? `${base} with ${rest.join(", ")}` : base;
}

// --- the board ------------------------------------------------------------------------

function isDiamond(cell, geometry, byName) {
  // A small square whose neighbours are all diagonal (octagon-and-square boards) sits
  // turned by 45 degrees, its sides facing them.
  const nbrs = (geometry.adjacency || {})[cell.name] || [];
  return nbrs.length > 0 && nbrs.every((n) => {
    const o = byName[n];
    return o && o.x !== cell.x && o.y !== cell.y;
  });
}

function shapeFor(cell, geometry, byName, g) {
  const s = cell.size * U;
  if (cell.shape === "octagon") {
    const R = (s * 0.96) / 2 / Math.cos(Math.PI / 8);
    const pts = [];
    for (let k = 0; k < 8; k++) {
      const a = Math.PI / 8 + (k * Math.PI) / 4;
      pts.push(`${(R * Math.cos(a)).toFixed(1)},${(R * Math.sin(a)).toFixed(1)}`);
    }
    return el("polygon", { points: pts.join(" "), class: "shape" }, g);
  }
  if (cell.shape === "point") {
    el("circle", { r: U * 0.1, class: "dot", fill: "#6b5a3a" }, g);
    // The LED shows as a ring around the stone, so it stays visible under a stone.
    return el("circle", { r: U * 0.47, class: "shape halo", fill: "transparent" }, g);
  }
  if (cell.shape === "square" && isDiamond(cell, geometry, byName)) {
    const h = (s * 0.98) / Math.SQRT2;
    return el("polygon", { points: `0,${-h} ${h},0 0,${h} ${-h},0`, class: "shape" }, g);
  }
  const side = s * 0.96;
  return el("rect", { x: -side / 2, y: -side / 2, width: side, height: side, rx: 4,
    class: "shape" }, g);
}

function baseFill(cell) {
  if (cell.shape === "point") return "transparent";
  if (cell.shape === "box") return BOX_COLOURS[cell.label] || "#d8d0c0";
  if (cell.shape === "square") return cell.size < 1 ? "#b89b6a" : "#e6d7b8";
  if (cell.shape === "tile") return "#d9d4c7";
  if (cell.shape === "zone") return "#3d4a5c";
  return "#e2cfa5";
}

// A piecepack tile's face (Telec): its suit's colour and its value, as printed on it.
const SUIT_COLOURS = { blue: "#1e5bc6", red: "#c62828", black: "#222" };
const VALUE_MARKS = { null: "○", ace: "A" };

function titleCase(text) {
  return text.replace(/\b\w/g, (ch) => ch.toUpperCase());
}

function drawFace(cell, g) {
  const [suit, value] = cell.label.split(" ");
  const t = el("text", { x: -0.4 * U * cell.size, y: -0.3 * U * cell.size, class: "tile-face",
    fill: SUIT_COLOURS[suit] || hashColour(suit), "data-face": cell.label,
    "aria-hidden": "true" }, g);
  t.textContent = VALUE_MARKS[value] || value;
}

function cellName(cell) {
  // "a1 (blue 4)": a tile says its face; the Center Zone its name.
  if (cell.shape === "tile" && cell.label) return `${cell.name} (${cell.label})`;
  if (cell.shape === "zone" && cell.label) return `${cell.name} (${titleCase(cell.label)})`;
  return cell.name;
}

function flipGeometry(geometry) {
  // The board seen from the other side: every coordinate negated (turned by 180 degrees).
  const turn = ([x, y]) => [-x, -y];
  const out = { ...geometry, cells: geometry.cells.map((c) => ({ ...c, x: -c.x, y: -c.y })) };
  const coords = geometry.coordinates;
  if (coords) {
    out.coordinates = { files: (coords.files || []).map(([x, n]) => [-x, n]),
      ranks: (coords.ranks || []).map(([y, n]) => [-y, n]) };
  }
  for (const [key, value] of Object.entries(geometry)) {
    if (key !== "cells" && key !== "adjacency" && Array.isArray(value) &&
        value.every((p) => Array.isArray(p) && p.length === 2)) out[key] = value.map(turn);
  }
  return out;
}

function buildBoard(snap) {
  const geometry = flipped ? flipGeometry(snap.geometry) : snap.geometry;
  const svg = $("board");
  svg.replaceChildren();
  const byName = {};
  for (const c of geometry.cells) byName[c.name] = c;
  const pad = 0.08;
  const coords = geometry.coordinates || { files: [], ranks: [] };
  // Text grows with the board so a 12x12 board still reads on a phone.
  const span = Math.max(...geometry.cells.map((c) => c.x)) - Math.min(...geometry.cells.map((c) => c.x));
  const k = Math.max(1, (span + 1) / 6);
  const margin = 0.42 * k; // room for the file and rank labels
  const padL = pad + (coords.ranks.length ? margin : 0);
  const padB = pad + (coords.files.length ? margin : 0);
  const minX = Math.min(...geometry.cells.map((c) => c.x - c.size / 2)) - padL;
  const maxX = Math.max(...geometry.cells.map((c) => c.x + c.size / 2)) + pad;
  const minY = Math.min(...geometry.cells.map((c) => c.y - c.size / 2)) - padB;
  const maxY = Math.max(...geometry.cells.map((c) => c.y + c.size / 2)) + pad;
  const X = (x) => (x - minX) * U;
  const Y = (y) => (maxY - y) * U;
  svg.setAttribute("viewBox", `0 0 ${((maxX - minX) * U).toFixed(0)} ${((maxY - minY) * U).toFixed(0)}`);
  svg.setAttribute("aria-label", `${snap.game} board`);
  el("rect", { x: 0, y: 0, width: "100%", height: "100%", fill: "#c9b48a", rx: 12 }, svg);
  // A board of points is played on the corners of squares (a chessboard's): draw the
  // squares whose four corners are points, shaded alternately; the stones sit on corners.
  const squares = el("g", { "aria-hidden": "true", class: "point-squares" }, svg);
  const at = {};
  for (const c of geometry.cells) if (c.shape === "point") at[`${c.x},${c.y}`] = c;
  for (const c of geometry.cells) {
    if (c.shape !== "point") continue;
    const corners = [[1, 0], [0, 1], [1, 1]].every(([dx, dy]) => at[`${c.x + dx},${c.y + dy}`]);
    if (!corners) continue;
    const dark = (Math.round(c.x) + Math.round(c.y)) % 2 === 0;
    el("rect", { x: X(c.x), y: Y(c.y + 1), width: U, height: U,
      class: `point-square ${dark ? "dark" : "light"}` }, squares);
  }
  // File letters below the board, rank numbers to its left.
  const labels = el("g", { "aria-hidden": "true", class: "coords" }, svg);
  const bottom = Math.min(...geometry.cells.map((c) => c.y - c.size / 2));
  const left = Math.min(...geometry.cells.map((c) => c.x - c.size / 2));
  for (const [x, name] of coords.files) {
    const t = el("text", { x: X(x), y: Y(bottom - margin / 2 - 0.02), class: "coord",
      "font-size": 30 * k }, labels);
    t.textContent = name;
  }
  for (const [y, name] of coords.ranks) {
    const t = el("text", { x: X(left - margin / 2 - 0.02), y: Y(y), class: "coord",
      "font-size": 30 * k }, labels);
    t.textContent = name;
  }
  // Any outline the geometry adds (e.g. a hole): a list of [x, y] points.
  for (const [key, value] of Object.entries(geometry)) {
    if (key === "cells" || key === "adjacency" || !Array.isArray(value)) continue;
    if (!value.length || !value.every((p) => Array.isArray(p) && p.length === 2)) continue;
    el("polygon", { points: value.map(([x, y]) => `${X(x)},${Y(y)}`).join(" "),
      fill: "#7d6b4e", "aria-hidden": "true", class: `outline ${key}` }, svg);
  }
  const cells = {};
  for (const c of geometry.cells) {
    const g = el("g", {
      class: `cell ${c.shape}`, transform: `translate(${X(c.x).toFixed(1)},${Y(c.y).toFixed(1)})`,
      role: "button", tabindex: "0", "data-cell": c.name,
    }, svg);
    const title = el("title", {}, g);
    const shape = shapeFor(c, geometry, byName, g);
    if (c.shape !== "point" && c.size >= 1) {
      const t = el("text", { y: 0.44 * U * c.size, class: "cell-name",
        "aria-hidden": "true" }, g);
      t.textContent = c.shape === "zone" ? titleCase(c.label || c.name) : c.name;
    }
    if (c.shape === "tile" && c.label) drawFace(c, g);
    const pieces = el("g", { class: "pieces", "aria-hidden": "true" }, g);
    g.addEventListener("click", (ev) => cellAction(c.name, ev.shiftKey));
    for (const on of ["pointerenter", "focus"]) g.addEventListener(on, () => showTip(c.name));
    for (const off of ["pointerleave", "blur"]) g.addEventListener(off, () => hideTip(c.name));
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        cellAction(c.name, ev.shiftKey);
      }
    });
    cells[c.name] = { g, shape, pieces, title, cell: c, key: null };
  }
  // The name of the cell under the pointer or the keyboard focus, readable on any board.
  const tip = el("g", { id: "tip", class: "tip", "aria-hidden": "true", visibility: "hidden" },
    svg);
  el("rect", { rx: 8, class: "tip-box" }, tip);
  el("text", { class: "tip-text" }, tip);
  board = { id: snap.board, game: snap.game, cells, X, Y, tip, maxX, minX, k,
    figures: Boolean(snap.figures), geometry: snap.geometry, flipped };
  $("flip").setAttribute("aria-pressed", flipped ? "true" : "false");
}

function showTip(name) {
  const { tip, X, Y, k } = board;
  const c = board.cells[name].cell;
  const text = tip.querySelector("text");
  text.textContent = name;
  text.setAttribute("font-size", 36 * k);
  const w = Math.max(0.9, 0.3 * name.length + 0.3) * U * k;
  const h = 0.62 * U * k;
  let cx = X(c.x);
  cx = Math.min(Math.max(cx, w / 2), X(board.maxX) - w / 2);
  let top = Y(c.y) - (c.size / 2) * U - h - 6;
  if (top < 0) top = Y(c.y) + (c.size / 2) * U + 6;
  const box = tip.querySelector("rect");
  box.setAttribute("x", cx - w / 2);
  box.setAttribute("y", top);
  box.setAttribute("width", w);
  box.setAttribute("height", h);
  text.setAttribute("x", cx);
  text.setAttribute("y", top + h / 2);
  tip.dataset.cell = name;
  tip.setAttribute("visibility", "visible");
  tip.parentNode.appendChild(tip); // keep it above the cells
  $("where").textContent = board.cells[name].g.getAttribute("aria-label");
}

function hideTip(name) {
  if (board.tip.dataset.cell !== name) return;
  board.tip.setAttribute("visibility", "hidden");
  $("where").textContent = "";
}

// One shape of radius r centred on (x, y): a figure's base or a piece on its rod.
function shapeOf(kind, x, y, r, attrs, parent) {
  const pts = (list) => list.map(([px, py]) => `${(x + px * r).toFixed(1)},${(y + py * r).toFixed(1)}`).join(" ");
  if (kind === "square") {
    return el("rect", { x: x - 0.85 * r, y: y - 0.85 * r, width: 1.7 * r, height: 1.7 * r,
      rx: r * 0.12, ...attrs }, parent);
  }
  if (kind === "triangle") return el("polygon", { points: pts([[0, -1.05], [1, 0.75], [-1, 0.75]]), ...attrs }, parent);
  if (kind === "diamond") return el("polygon", { points: pts([[0, -1.1], [0.8, 0], [0, 1.1], [-0.8, 0]]), ...attrs }, parent);
  if (kind === "trapezoid") return el("polygon", { points: pts([[-0.55, -0.7], [0.55, -0.7], [1, 0.7], [-1, 0.7]]), ...attrs }, parent);
  if (kind === "hexagon") {
    const h = [0, 1, 2, 3, 4, 5].map((k) => [Math.cos((k * Math.PI) / 3), Math.sin((k * Math.PI) / 3)]);
    return el("polygon", { points: pts(h), ...attrs }, parent);
  }
  if (kind === "star") {
    const s5 = [];
    for (let k = 0; k < 10; k++) {
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      const q = k % 2 ? 0.45 : 1.05;
      s5.push([q * Math.cos(a), q * Math.sin(a)]);
    }
    return el("polygon", { points: pts(s5), ...attrs }, parent);
  }
  if (kind === "crown") {
    return el("polygon", { points: pts([[-1, 0.7], [-1, -0.6], [-0.5, 0], [0, -0.9], [0.5, 0],
      [1, -0.6], [1, 0.7]]), ...attrs }, parent);
  }
  return el("circle", { cx: x, cy: y, r, ...attrs }, parent);
}

// Where the pieces on a rod sit on their base: rows of at most three.
function rodSpots(n, r) {
  const rows = n <= 3 ? [n] : [Math.ceil(n / 2), Math.floor(n / 2)];
  const out = [];
  rows.forEach((k, row) => {
    const y = rows.length === 1 ? 0 : (row ? 1 : -1) * r * 1.2;
    for (let i = 0; i < k; i++) out.push([(i - (k - 1) / 2) * r * 2.15, y]);
  });
  return out;
}

function drawFigure(entry, list, inHand) {
  const { pieces } = entry;
  const unknown = list[0] === "?";
  const [owner, ...rest] = unknown ? ["?"] : list[0].split("-");
  const shape = FIGURE_BASES.includes(rest.join("-")) ? rest.join("-") : "circle";
  const cls = `piece base${inHand ? " in-hand" : ""}`;
  const R = 0.4 * U;
  shapeOf(shape, 0, shape === "triangle" ? -0.04 * U : 0, shape === "square" ? R * 1.12 : R,
    { fill: PIECE_COLOURS[owner] || hashColour(owner), class: cls, "data-owner": owner,
      "data-base": shape }, pieces);
  if (unknown) {
    const t = el("text", { class: "piece-text", fill: "#111" }, pieces);
    t.textContent = "?";
    return;
  }
  const kinds = list.slice(1).filter((p) => p !== "?");
  const r = kinds.length > 3 ? 0.095 * U : 0.11 * U;
  const dy = shape === "triangle" ? 0.12 * U : 0;
  rodSpots(kinds.length, r).forEach(([x, y], i) => {
    shapeOf(kinds[i], x, y + dy, r, { fill: FIGURE_PIECES[kinds[i]] || hashColour(kinds[i]),
      class: `piece on-rod${inHand ? " in-hand" : ""}`, "data-piece": kinds[i] }, pieces);
  });
}

function drawPieces(entry, list, inHand) {
  const { pieces, cell } = entry;
  pieces.replaceChildren();
  if (board && board.figures && list.length) {
    drawFigure(entry, list, inHand);
    return;
  }
  const scale = cell.shape === "point" ? 1.2 : Math.min(cell.size, 1);
  list.forEach((name, i) => {
    const parts = name.split("-");
    const base = parts[0];
    const kind = parts.slice(1).join("-");
    const fill = PIECE_COLOURS[base] || hashColour(base);
    let r = 0.32 * scale * U;
    if (/^\d+$/.test(kind)) r *= 0.55 + (0.45 * Number(kind)) / 6;
    const dy = -i * 0.08 * U * scale;
    const cls = `piece${inHand ? " in-hand" : ""}`;
    if (kind === "block") {
      el("rect", { x: -r, y: -r + dy, width: 2 * r, height: 2 * r, rx: 6, fill, class: cls },
        pieces);
    } else {
      el("circle", { cy: dy, r, fill, class: cls }, pieces);
      if (kind === "rank") el("circle", { cy: dy, r: r * 0.55, fill: "none", class: cls }, pieces);
    }
    const label = name === "?" ? "?" : /^\d+$/.test(kind) ? kind : "";
    if (label) {
      const dark = ["dark", "black", "blue", "red"].includes(base);
      const t = el("text", { y: dy, class: "piece-text", fill: dark ? "#fff" : "#111" }, pieces);
      t.textContent = label;
    }
  });
}

function reviewInfo(name) {
  const pieces = review.pieces[name] || [];
  const led = review.leds[name];
  return { present: pieces.length > 0, pieces, in_hand: [], led: led ? led.led : [0, 0, 0],
    role: led ? led.role : null };
}

function updateCell(name, live) {
  const entry = board.cells[name];
  if (!entry) return;
  const info = review ? reviewInfo(name) : live;
  const key = JSON.stringify(info);
  if (entry.key === key) return;
  entry.key = key;
  const cell = entry.cell;
  const lit = info.role ? ledFill(info.led) : null;
  const fill = lit || baseFill(cell);
  entry.shape.setAttribute("fill", fill);
  entry.g.dataset.role = info.role || "";
  entry.g.dataset.led = info.led.join(",");
  entry.g.dataset.present = info.present ? "1" : "0";
  if (info.present) drawPieces(entry, info.pieces, false);
  else drawPieces(entry, info.in_hand, true);
  let what = "empty";
  if (info.present) what = pieceText(info.pieces);
  else if (info.in_hand.length) what = `${pieceText(info.in_hand)} in hand`;
  let label = `${cellName(cell)}: ${what}`;
  if (info.role) label += `, LED: ${ROLE_SHORT[info.role] || info.role}`;
  entry.g.setAttribute("aria-label", label);
  entry.title.textContent = info.role ? `${label} (rgb ${info.led.join(", ")})` : label;
  if (board.tip && board.tip.dataset.cell === name &&
      board.tip.getAttribute("visibility") === "visible") {
    $("where").textContent = label;
  }
}

// --- the rest of the page -----------------------------------------------------------------

function render(snap) {
  const same = board && board.id === snap.board && board.game === snap.game;
  if (!same || board.flipped !== flipped) {
    const geometry = snap.geometry || (same ? board.geometry : null);
    if (!geometry) return; // an action's answer for an older board; the push follows
    buildBoard({ ...snap, geometry });
  }
  if (view && view.board === snap.board && snap.seq < view.seq) return; // older news
  if (view && view.board !== snap.board && review) {
    review = null;
    $("review").hidden = true;
  }
  view = snap;
  for (const [name, info] of Object.entries(snap.cells)) updateCell(name, info);

  const select = $("game");
  if (select.options.length !== snap.games.length) {
    select.replaceChildren(...snap.games.map((g) => new Option(g, g)));
  }
  if (document.activeElement !== select) select.value = snap.game;

  let status;
  if (snap.outcome) status = `Game over: ${snap.result}`;
  else status = `${snap.game}: ${snap.to_move} to move`;
  if (snap.rolled) status += `, rolled ${snap.rolled}`;
  if (snap.demo) status += " (demo playing)";
  $("status").textContent = status;

  const advice = $("board-error");
  advice.textContent = snap.advice ? snap.advice.text : "";
  advice.dataset.kind = snap.advice ? snap.advice.kind : "";
  advice.hidden = !snap.advice;

  const prompt = $("prompt");
  const options = $("options");
  const offered = snap.options ||
    (snap.prompt || []).map((value) => ({ value, text: value, pieces: [] }));
  const wanted = JSON.stringify(offered);
  $("question").textContent = snap.question || "Which move?";
  if (options.dataset.key !== wanted) {
    options.dataset.key = wanted;
    options.replaceChildren(...offered.map(({ value, text, pieces }) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.dataset.value = value;
      const words = document.createElement("span");
      words.className = "option-text";
      words.textContent = text;
      b.append(...pieces.map((p) => pieceIcon(p)), words);
      // The answer names the question shown when it was given: one that later events
      // replaced meanwhile refuses it (409) rather than taking it for the new one.
      b.addEventListener("click",
        () => post("choose", { value, asked: options.dataset.asked || undefined }));
      return b;
    }));
  }
  options.dataset.asked = snap.question_key || "";
  for (const b of options.querySelectorAll("button")) {
    b.setAttribute("aria-current", String(b.dataset.value === snap.offered));
  }
  $("on-board").textContent = snap.on_board || "";
  prompt.hidden = !snap.prompt;

  const buttons = $("buttons");
  if (buttons.dataset.key !== snap.buttons.join("|")) {
    buttons.dataset.key = snap.buttons.join("|");
    buttons.replaceChildren(...snap.buttons.map((name) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = `button-${name}`;
      b.textContent = BUTTON_LABELS[name] || name;
      b.addEventListener("click", () => post("press", { button: name }));
      return b;
    }));
  }
  for (const b of document.querySelectorAll("#buttons button, #options button, #new")) {
    b.disabled = !allowed;
  }
  $("game").disabled = !allowed;
  $("viewer").hidden = allowed;
  $("viewer").textContent = allowed ? "" : VIEWER_TEXT;

  $("hand").textContent = snap.hand || "";
  drawSides(review || snap, snap);
  drawPool(review || snap);
  drawSetup(snap);
  drawMoves(snap);
  if (typeof drawAgainst === "function") drawAgainst(snap); // against.js

  const lit = {};
  for (const [name, live] of Object.entries(snap.cells)) {
    const info = review ? reviewInfo(name) : live;
    if (info.role) (lit[info.role] = lit[info.role] || []).push(name);
  }
  const legend = $("legend");
  legend.replaceChildren(...(snap.legend || view.legend || []).map((item) => {
    const li = document.createElement("li");
    li.dataset.role = item.role;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = ledFill(item.rgb) || "#000";
    sw.setAttribute("aria-hidden", "true");
    const text = document.createElement("span");
    const cells = lit[item.role];
    text.textContent = `${item.role}: ${item.text}` + (cells ? ` — ${cells.join(", ")}` : "");
    if (cells) li.className = "on";
    li.append(sw, text);
    return li;
  }));
}

let legendCache = null;

function drawSides(pos, snap) {
  const sides = $("sides");
  const words = snap.words || { stock: "in hand", home: "home" };
  sides.replaceChildren(...snap.players.map((player) => {
    const li = document.createElement("li");
    li.dataset.player = player;
    const name = document.createElement("strong");
    name.textContent = player;
    const parts = [name];
    const running = !review && snap.clock === player;
    li.classList.toggle("running", running);
    if (snap.clocks && !review) {  // the game's clock: time left, ticking while it runs
      const c = document.createElement("span");
      c.className = "clock";
      tickClock(c, snap.clocks, player);
      parts.push(c);
    } else if (running) {
      const c = document.createElement("span");
      c.className = "clock";
      c.textContent = "clock running";
      parts.push(c);
    }
    const stock = (pos.stock || {})[player];
    if (stock) {
      for (const [piece, n] of Object.entries(stock)) {
        const s = document.createElement("span");
        s.className = "stock";
        s.dataset.piece = piece;
        s.append(pieceIcon(piece), `${n} × ${piece} ${words.stock}`);
        parts.push(s);
      }
    }
    const home = (pos.home || {})[player];
    if (home !== undefined) {
      const s = document.createElement("span");
      s.className = "home";
      s.textContent = `${home} ${words.home}`;
      parts.push(s);
    }
    const captured = (pos.captured || {})[player];
    if (captured !== undefined) {
      const s = document.createElement("span");
      s.className = "captured";
      s.textContent = `captured ${captured}`;
      parts.push(s);
    }
    li.append(...parts);
    return li;
  }));
}

function drawPool(pos) {
  const pool = pos.pool;
  $("pool-section").hidden = pool === null || pool === undefined;
  if (!pool) return;
  const counts = {};
  for (const p of pool) counts[p] = (counts[p] || 0) + 1;
  const list = $("pool");
  const key = JSON.stringify(counts);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const items = Object.entries(counts).map(([piece, n]) => {
    const li = document.createElement("li");
    li.dataset.piece = piece;
    li.append(pieceIcon(piece), `${n} × ${piece}`);
    return li;
  });
  if (!items.length) {
    const li = document.createElement("li");
    li.textContent = "empty: no piece has been removed yet";
    items.push(li);
  }
  list.replaceChildren(...items);
}

function drawSetup(snap) {
  const open = snap.setup !== null && snap.setup !== undefined && !review;
  $("setup").hidden = !open;
  if (!open) return;
  const text = $("setup-text");
  // The board's setup fills the box, unless the player is editing it.
  if (text.dataset.source !== snap.setup && (text.value === (text.dataset.source || "") ||
      document.activeElement !== text)) {
    text.value = snap.setup;
    text.dataset.source = snap.setup;
  }
  text.disabled = !allowed || snap.demo;
  $("setup-enter").disabled = !allowed || snap.demo;
}

function setupErrors(errors) {
  $("setup-errors").replaceChildren(...(errors || []).map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
}

function pieceIcon(piece) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `${-0.5 * U} ${-0.5 * U} ${U} ${U}`);
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  const g = el("g", {}, svg);
  if (board && board.figures && FIGURE_PIECES[piece]) {
    shapeOf(piece, 0, 0, 0.38 * U, { fill: FIGURE_PIECES[piece], class: "piece" }, g);
    svg.dataset.piece = piece;
    return svg;
  }
  drawPieces({ pieces: g, cell: { shape: "square", size: 1.2 } }, [piece], false);
  return svg;
}

function drawMoves(snap) {
  const moves = $("moves");
  const n = snap.players.length;
  const key = `${snap.moves.join(" ")}|${review ? review.ply : ""}`;
  if (moves.dataset.key === key) return;
  moves.dataset.key = key;
  const last = snap.moves.length;
  moves.replaceChildren(...snap.numbered.map(([number, group]) => {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "move-number";
    num.textContent = `${number}.`;
    li.append(num);
    group.forEach((text, k) => {
      const ply = (number - 1) * n + k + 1;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.ply = ply;
      b.textContent = text;
      b.title = `show the position after ${number}.${k ? ".." : ""} ${text}`;
      if (ply === last) b.classList.add("last");
      if (review && review.ply === ply) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => showPosition(ply));
      li.append(" ", b);
    });
    return li;
  }));
  moves.scrollTop = moves.scrollHeight;
}

async function showPosition(ply) {
  try {
    const res = await fetch(`/api/position?ply=${ply}`);
    const data = await res.json();
    if (!res.ok) {
      notice(data.error || `position ${ply} failed (${res.status})`);
      return;
    }
    if (!board || data.board !== board.id) return;
    review = data;
    const n = view.players.length;
    const label = `${Math.floor((ply - 1) / n) + 1}.${(ply - 1) % n ? ".." : ""} ${data.move}`;
    $("review-text").textContent = (ply ? `Showing the position after ${label} ` +
      "(read-only; the LEDs as they showed that move). " : "Showing the start position " +
      "(read-only). ") + `${data.to_move} was to move. ← and → step through the moves.`;
    $("review").hidden = false;
    redraw();
  } catch (e) {
    notice(`position ${ply} failed: ${e}`);
  }
}

function stepMoves(delta) {
  // ← and →: the position one move earlier or later; past the last move, the live board.
  if (!view || !board) return;
  const last = view.moves.length;
  const ply = (review ? review.ply : last) + delta;
  if (ply >= last) {
    if (review) backToLive();
  } else if (ply >= 0) {
    showPosition(ply);
  }
}

function toggleFlip() {
  flipped = !flipped;
  localStorage.setItem("sensorboard-flipped", flipped ? "1" : "0");
  if (view) redraw();
}

function backToLive() {
  review = null;
  $("review").hidden = true;
  redraw();
}

function redraw() {
  for (const entry of Object.values(board.cells)) entry.key = null;
  $("moves").dataset.key = "";
  render({ ...view, seq: view.seq, legend: legendCache });
}

function notice(text) {
  const n = $("notice");
  n.textContent = text || "";
  n.hidden = !text;
}

async function post(action, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Sensorboard-Token"] = token;
  try {
    const res = await fetch(`/api/${action}`, { method: "POST", headers, body: JSON.stringify(body) });
    const data = await res.json();
    if (action === "setup") setupErrors(res.ok ? [] : data.errors || [data.error]);
    if (!res.ok && action === "setup" && data.errors) {
      const n = data.errors.length;
      notice(`Setup not entered, nothing changed: ${n === 1 ? "1 fault" : `${n} faults`} ` +
        "(listed under the setup box).");
      return;
    }
    if (!res.ok) {
      notice(data.error || `${action} failed (${res.status})`);
      return;
    }
    notice(data.notice || (action === "setup" ? "Setup entered; the board is checked " +
      "against it." : ""));
    if (data.state && board && data.state.board === board.id) {
      render({ ...data.state, legend: legendCache });
    }
  } catch (e) {
    notice(`${action} failed: ${e}`);
  }
}

function cellAction(name, place) {
  if (review) {
    notice("This is a past position (read-only): go back to the live board to play.");
    return;
  }
  if (!allowed) {
    notice(VIEWER_TEXT);
    return;
  }
  if (typeof pickCell === "function" && pickCell(name)) return; // against.js
  post(place ? "place" : "toggle", { cell: name });
}

async function checkAccess() {
  // A page without the board's token may watch but not act: say so before any click.
  const headers = token ? { "X-Sensorboard-Token": token } : {};
  try {
    const res = await fetch("/api/state", { headers });
    const data = await res.json();
    allowed = data.allowed !== false;
    if (view) redraw();
  } catch (e) {
    // the WebSocket reports a lost connection
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "live"; };
  socket.onmessage = (ev) => {
    const snap = JSON.parse(ev.data);
    if (snap.legend) legendCache = snap.legend;
    render(snap);
  };
  socket.onclose = () => {
    $("connection").textContent = "connection lost; reconnecting…";
    setTimeout(connect, 1000);
  };
}

$("new-game").addEventListener("submit", (ev) => {
  ev.preventDefault();
  post("new", { game: $("game").value });
});
$("back-live").addEventListener("click", backToLive);
$("flip").addEventListener("click", toggleFlip);
document.addEventListener("keydown", (ev) => {
  const typing = ev.target.closest && ev.target.closest("input, textarea, select");
  if (typing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    stepMoves(ev.key === "ArrowLeft" ? -1 : 1);
  }
});
$("setup-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  post("setup", { text: $("setup-text").value });
});
checkAccess();
connect();
