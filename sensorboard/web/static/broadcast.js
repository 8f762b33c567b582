// The broadcast: mini-boards drawn from a game's geometry (/api/geometry/<game>), the
// players with their clocks, and a board's status, for the grid and the board page.
"use strict";

const geometries = {};
async function geometryOf(game) {
  if (!geometries[game]) geometries[game] = fetch(`/api/geometry/${game}`).then(r => r.json());
  return geometries[game];
}

const SVG = "http://www.w3.org/2000/svg";
function svgEl(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// Each player's colour as its name says (the classes p0 / p1 are the fallback).
const COLOURS = {clear: "#f4f4f4", light: "#f4f4f4", white: "#fafafa", dark: "#333",
                 black: "#222", red: "#d23f31", blue: "#2f6fd6", yellow: "#f2c200"};

// The player a piece belongs to: its name begins with the player's ("red-3", "dark-square").
function ownerOf(piece, players) {
  return players.findIndex(p => piece === p || piece.startsWith(`${p}-`));
}

function drawBoard(geo, board) {
  const xs = geo.cells.map(c => c.x), ys = geo.cells.map(c => c.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const svg = svgEl("svg", {viewBox: `${x0 - .6} ${-y1 - .6} ${x1 - x0 + 1.2} ${y1 - y0 + 1.2}`,
                            class: "mini", role: "img",
                            "aria-label": `board ${board.board}: ${board.name || "no game"}`});
  const players = board.players || [];
  const pieces = svgEl("g", {class: "pieces"});  // above every cell
  for (const c of geo.cells) {
    const s = .45 * (c.size || 1);
    svg.append(c.shape === "point"
      ? svgEl("circle", {cx: c.x, cy: -c.y, r: .08, class: "spot", "data-cell": c.name})
      : svgEl("rect", {x: c.x - s, y: -c.y - s, width: 2 * s, height: 2 * s,
                       class: `spot ${c.shape}`, "data-cell": c.name}));
    const stack = (board.pieces || {})[c.name];
    if (!stack || !stack.length) continue;
    const owner = ownerOf(stack[0], players);
    const top = stack[stack.length - 1];
    const r = .36 * Math.max(c.size || 1, .8);
    const attrs = {class: `piece p${owner}`, "data-cell": c.name, "data-piece": top};
    // a block is a square, a rank stone a ring, any other piece a disc
    const mark = top.endsWith("-block")
      ? svgEl("rect", {...attrs, x: c.x - r, y: -c.y - r, width: 2 * r, height: 2 * r})
      : svgEl("circle", {...attrs, cx: c.x, cy: -c.y, r,
                         "stroke-width": top.endsWith("-rank") ? .14 : .05});
    if (COLOURS[players[owner]]) mark.style.fill = COLOURS[players[owner]];
    pieces.append(mark);
    if (stack.length > 1) {
      const t = svgEl("text", {x: c.x, y: -c.y + .14, class: `count p${owner}`});
      t.textContent = stack.length;
      pieces.append(t);
    }
  }
  svg.append(pieces);
  return svg;
}

const STATUS_TEXT = {playing: "playing", question: "question open", error: "error on the board",
                     offline: "offline", finished: "finished", waiting: "waiting"};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The players, each with colour, name and clock.
function drawPlayers(board) {
  const ul = el("ul", "players");
  const players = board.players || ["", ""];
  players.forEach((player, i) => {
    const li = el("li", `player p${i}`);
    li.dataset.player = player;
    const dot = el("span", `dot p${i}`);
    if (COLOURS[player]) dot.style.background = COLOURS[player];
    li.append(dot, el("span", "name", (board.names || [])[i] || "?"),
              el("span", "colour", player ? `(${player})` : ""));
    if (board.clock && player in board.clock.left) {
      const c = el("span", "clock");
      tickClock(c, board.clock, player);
      li.append(c);
    }
    if (board.to_move === player && !board.ended) li.classList.add("to-move");
    ul.append(li);
  });
  return ul;
}

function lastMove(board) {
  if (!board.last) return "no move yet";
  return `${board.move_number} ${board.last}`;
}

function resultText(board) {
  if (!board.ended) return "";
  return `${board.result}${board.termination ? ` (${board.termination})` : ""}`;
}
