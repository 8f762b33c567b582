// The "play against" menu and the opponent's panel (see sensorboard/web/against.py):
// the opponent's turn to carry out, the engine's thinking on request, and for a person
// playing a side from this page the decisions to pick (on the board: from, then to; or
// as buttons, the decisions no sensor sees included).
"use strict";

let againstMenu = null; // [{value, label}], sent with the first full snapshot
let pickFrom = null;    // the cell picked first (from) while picking a turn

function opponentText(opp) {
  if (opp.code) {  // another board: the pairing code both boards show, and its news
    const said = opp.news && !opp.news.startsWith("pairing code") ? ` ${opp.news}.` : "";
    return `${remoteText(opp)} Pairing code ${opp.code}, game ${opp.game}.${said}`;
  }
  return remoteText(opp);
}

function remoteText(opp) {
  if (opp.proposed) {
    return `${opp.label} (${opp.side}) plays ${opp.proposed.move}: ${opp.proposed.words}. ` +
      (opp.proposed.silent ? "Carry it out on the board, then press the clock: the " +
        "sensors cannot see this turn." : "Carry it out on the board.");
  }
  if (opp.thinking) return `${opp.label} (${opp.side}) is thinking…`;
  if (opp.options && opp.options.length) return `${opp.label} (${opp.side}) is to move.`;
  return `Playing against ${opp.label} (${opp.side}).`;
}

function drawAgainst(snap) {
  if (snap.against) againstMenu = snap.against;
  const who = $("against-who");
  if (againstMenu && who.dataset.key !== JSON.stringify(againstMenu)) {
    who.dataset.key = JSON.stringify(againstMenu);
    who.replaceChildren(...againstMenu.map((m) => new Option(m.label, m.value)));
  }
  const side = $("against-side");
  if (side.dataset.key !== snap.players.join("|")) {
    side.dataset.key = snap.players.join("|");
    side.replaceChildren(...snap.players.map((p) => new Option(p, p)));
    side.value = snap.players[snap.players.length - 1];
  }
  const opp = snap.opponent;
  const form = $("against-form");
  if (!form.contains(document.activeElement)) {
    const board = opp && opp.value.startsWith("board:");
    who.value = board ? "board:" : opp ? opp.value : "";
    if (board) $("against-name").value = opp.value.slice("board:".length);
    if (opp) side.value = opp.side;
  }
  $("against-board").hidden = who.value !== "board:";
  for (const c of [who, side, $("against-apply"), $("against-name"), $("against-code")]) {
    c.disabled = !allowed;
  }
  const turn = $("opponent-turn");
  turn.hidden = !opp;
  turn.textContent = opp ? opponentText(opp) : "";
  const thinking = $("thinking");
  const thoughts = snap.thinking;
  thinking.hidden = !$("thinking-toggle").checked;
  thinking.textContent = !thoughts ? "Nothing yet: press Hint to ask the engine." :
    `The engine's turn${thoughts.by === "hint" ? " for " + thoughts.side : ""}: ` +
    `${thoughts.move}; it gives ${thoughts.side} ${Math.round(thoughts.win * 100)}% to win.`;
  drawPicker(opp);
}

function drawPicker(opp) {
  const options = (opp && opp.options) || [];
  const picker = $("picker");
  picker.hidden = !options.length;
  if (!options.length) pickFrom = null;
  const shown = pickFrom ? options.filter((o) => o.from.includes(pickFrom)) : options;
  const done = (opp && opp.picked) || [];
  $("picker-text").textContent = (done.length ? `Picked so far: ${done.join(" ")}. ` : "") +
    (pickFrom ? `From ${pickFrom}: click where it goes, or pick below.`
      : `${opp ? opp.side : ""}'s turn: click a piece and where it goes, or pick below.`);
  const picks = $("picks");
  const key = JSON.stringify([shown, allowed]);
  if (picks.dataset.key === key) return;
  picks.dataset.key = key;
  picks.replaceChildren(...shown.map((o) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.dataset.value = o.move;
    b.textContent = `${o.move}: ${o.words}`;
    b.disabled = !allowed;
    b.addEventListener("click", () => { pickFrom = null; post("turn", { move: o.move }); });
    return b;
  }));
}

function pickCell(name) {
  // A click on the board while a person on this page picks a turn: from, then to.
  const options = (view && view.opponent && view.opponent.options) || [];
  if (!options.length) return false;
  let found;
  if (pickFrom) {
    found = options.filter((o) => o.from.includes(pickFrom) && o.to.includes(name));
    if (!found.length && name !== pickFrom) found = null;
  } else if (options.some((o) => o.from.includes(name))) {
    pickFrom = name;
    drawPicker(view.opponent);
    return true;
  } else {
    found = options.filter((o) => !o.from.length && o.to.includes(name));
  }
  pickFrom = null;
  if (found && found.length === 1) post("turn", { move: found[0].move });
  else if (found && found.length) notice("Several turns fit: pick one below.");
  else notice(`${name}: no decision of this turn goes there; pick below.`);
  drawPicker(view.opponent);
  return true;
}

$("against-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const who = $("against-who").value;
  const body = { opponent: who, side: $("against-side").value };
  if (who === "board:") {  // another board: its name, and its code where it shows one
    body.opponent = who + $("against-name").value.trim();
    const code = $("against-code").value.trim();
    if (code) body.pair = code;
  }
  post("against", body);
});
$("against-who").addEventListener("change", () => {
  $("against-board").hidden = $("against-who").value !== "board:";
});
$("thinking-toggle").addEventListener("change", () => drawAgainst(view));
$("pick-again").addEventListener("click", () => { pickFrom = null; post("turn", { move: null }); });
// A snapshot that arrived while this script was still loading was drawn without the menu.
if (view) drawAgainst(view);
