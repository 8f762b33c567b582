// Game clocks on a page: the time each side has left, ticking down on the running side.
// A clock view is {left: {player: seconds}, running, wait, low, phase} as the board or the
// recorder sent it (sensorboard/clocks.py); `got` is performance.now() when it arrived.
"use strict";

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

function clockLeft(view, player, got) {
  let left = view.left[player];
  if (view.running === player) {
    const gone = (performance.now() - got) / 1000;
    left -= Math.max(0, gone - (view.wait || 0));
  }
  return Math.max(0, left);
}

// Fill `el` with `player`'s clock: its text, and the classes running / low / flagged.
function showClock(el, view, player, got) {
  const left = clockLeft(view, player, got);
  el.textContent = clockText(left);
  el.classList.add("time");
  el.classList.toggle("running", view.running === player);
  el.classList.toggle("low", left <= view.low);
  el.classList.toggle("flagged", view.phase === "flagged" && left <= 0);
  el.title = left <= view.low ? "low time" : "";
}

// Every element with data-clock-player under `root` ticks with the view it carries.
const clockViews = new WeakMap();
function tickClock(el, view, player) {
  clockViews.set(el, {view, player, got: performance.now()});
  el.dataset.clockPlayer = player;
  showClock(el, view, player, clockViews.get(el).got);
}
setInterval(() => {
  for (const el of document.querySelectorAll("[data-clock-player]")) {
    const c = clockViews.get(el);
    if (c && c.view.running === c.player) showClock(el, c.view, c.player, c.got);
  }
}, 250);
