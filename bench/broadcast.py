"""What one poll of the broadcast costs the recorder, for rounds of 50 to 1,000 boards.

Run by hand (prints markdown; no assertions):

    .venv/bin/python bench/broadcast.py --boards 50 200 1000 --turns 40 --polls 20

For each size, N boards' games (random legal Tessella games of ``--turns`` turns, each
turn followed by its ``clock`` entry, as a board on the clock journals them) are stored
and followed exactly as MQTT arrivals are (``Store.add``, then the recorder's views), into
a fresh SQLite store. Then, on the recorder's own objects:

- ``/api/round``: the grid's boards (``Broadcast.boards``) encoded as JSON, the payload
  every spectator's page fetches once a second; and the standings (computed once per
  change of the store, then cached), with every game live on its board, and cold: every
  game read from the store (a recorder started again, earlier rounds);
- the reference, measured in the same run: ``/api/boards`` as it was before the
  broadcast (``Recorder.overview()``, the text overview's payload), encoded as JSON.

Times are the median and the worst of ``--polls`` polls, in milliseconds of one core.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path[0] == str(ROOT / "bench"):  # run as a script: bench/hardware.py is no package
    sys.path[0] = str(ROOT)

import rules  # noqa: E402
from sensorboard import clocks  # noqa: E402
from sensorboard.recorder import Recorder, open_store  # noqa: E402
from sensorboard.tournament import Pairing  # noqa: E402
from sensorboard.web.broadcast import Broadcast  # noqa: E402


def games(boards: int, turns: int, seed: int) -> list[dict]:
    """Every board's entries, in the order a board writes them."""
    rng = random.Random(seed)
    control = clocks.TimeControl.parse("5400+30")
    out = []
    now = time.time() - 3 * turns
    for n in range(1, boards + 1):
        board, uid = str(n), uuid.uuid4().hex
        state = rules.new_game("tessella")
        timing = clocks.start(clocks.GameClock.new(control, state.PLAYERS), now)
        items = [({"type": "start", "game": "tessella", "options": {}, "uid": uid,
                   "position": state.position_str(), "players": list(state.PLAYERS),
                   "board": board, "tags": {"Round": "1", "TimeControl": str(control)}}, now)]
        for ply in range(1, turns + 1):
            if state.outcome() is not None:
                break
            player, move = state.to_move, rng.choice(state.legal_moves())
            text = state.move_str(move)
            state.push(move)
            at = now + 3 * ply
            timing = clocks.end_turn(timing, at)
            items += [({"type": "move", "t": 3.0 * ply, "ply": ply, "player": player,
                        "move": text}, at),
                      ({"type": "clock", "t": 3.0 * ply, "why": "turn",
                        **clocks.to_json(timing, at)}, at)]
        out += [{"board": board, "seq": seq, "game": uid, "at": at, "item": item,
                 "journal": f"journal-{board}"}
                for seq, (item, at) in enumerate(items, start=1)]
    return out


def timed(fn, polls: int) -> tuple[float, float]:
    times = []
    for _ in range(polls):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), max(times)


def measure(boards: int, turns: int, polls: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(os.path.join(folder, "recorder.sqlite"))
        recorder = Recorder(store, "127.0.0.1", 1)
        entries = games(boards, turns, seed)
        for i in range(0, len(entries), 500):
            recorder._follow(store.add(entries[i:i + 500]))
        for view in recorder.boards.values():
            view.online = True
        pairings = tuple(Pairing("1", str(n), f"White {n}", f"Black {n}")
                         for n in range(1, boards + 1))
        broadcast = Broadcast(recorder, pairings)
        live = {(b, v.game): broadcast.game(b, v.log) for b, v in recorder.boards.items()}
        standings_live = timed(lambda: broadcast.standings(live), 1)[0]
        standings_cold = timed(lambda: broadcast.standings({}), 1)[0]
        grid = timed(lambda: json.dumps({"boards": broadcast.boards("1")}), polls)
        reference = timed(lambda: json.dumps({"boards": recorder.overview()}), polls)
        size = len(json.dumps({"boards": broadcast.boards("1")}))
        store.close()
    return {"boards": boards, "grid": grid, "reference": reference, "bytes": size,
            "standings": (standings_live, standings_cold)}


def cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            name = next(line.split(":", 1)[1].strip() for line in f
                        if line.startswith("model name"))
    except (OSError, StopIteration):
        name = platform.machine()
    return f"{name}, {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--polls", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{datetime.date.today()}, {cpu()}, "
          f"Python {platform.python_version()}; {args.turns} turns a board, "
          f"{args.polls} polls\n")
    print("| boards | /api/round grid p50 / max (ms) | reference /api/boards p50 / max (ms) "
          "| grid JSON (kB) | standings: games live / all read from the store (ms) |")
    print("|---|---|---|---|---|")
    for n in args.boards:
        r = measure(n, args.turns, args.polls, args.seed)
        print(f"| {n} | {r['grid'][0]:.1f} / {r['grid'][1]:.1f} | "
              f"{r['reference'][0]:.1f} / {r['reference'][1]:.1f} | {r['bytes'] / 1000:.0f} | "
              f"{r['standings'][0]:.1f} / {r['standings'][1]:.0f} |")


if __name__ == "__main__":
    main()
