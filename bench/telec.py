"""Telec speed, and the tracker's CPU per sensor event for every game after turns of several
decisions came in.

Run by hand: .venv/bin/python bench/telec.py   (prints markdown; no assertions)

- playouts: random Telec games decision by decision (the die sampled with its
  probabilities), next to python-chess random playouts in the same run; plies are
  decisions, turns are counted too;
- sensor event -> LED frame: the CPU time (thread time) of each scan in which a debounced
  change arrives, over seeded games carried out by hand on the simulated board (Telec:
  the bundled demo's player, physical dice, every question answered; Tulaga and Teblo:
  the same seeded games as bench/pipeline.py), and of the idle scan that lists the next
  position's candidates.

With ``--against TREE`` (a source tree of another commit, e.g. unpacked by ``git archive
COMMIT | tar -x -C TREE``) it prints only the Tulaga and Teblo rows, this tree and TREE
measured alternately in fresh processes (``--rounds`` times each), so that the other tree
is the reference of the same minutes: for a change of the tracker, a regression check.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import (  # noqa: E402
    PREPARE,
    change_to_frame,
    chess_plies_per_second,
    in_tree,
    percentile,
    time_steps,
)
from playouts import random_decision  # noqa: E402

import rules  # noqa: E402
from boards.layout import layout_for_game  # noqa: E402
from hardware.clock import VirtualClock  # noqa: E402
from sensorboard import demo  # noqa: E402
from sensorboard.board import BoardOptions, open_board  # noqa: E402
from sensorboard.replay import VirtualRun  # noqa: E402


def telec_playouts(seconds: float = 3.0) -> tuple[float, float]:
    """(decisions/s, turns/s) of random Telec games from the start."""
    rng = random.Random(1)
    decisions = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.new_game("telec")
        player = state.to_move
        for _ in range(1000):
            if random_decision(state, rng) is None:
                break
            decisions += 1
            if state.to_move not in (player, rules.CHANCE):
                turns += 1
                player = state.to_move
    elapsed = time.perf_counter() - start
    return decisions / elapsed, turns / elapsed


def telec_change_to_frame(games: int = 12, turns: int = 40) -> list[float]:
    """Thread CPU seconds of each scan that carried a debounced change, Telec."""
    samples: list[float] = []
    PREPARE["telec"] = []
    layout = layout_for_game("telec")
    for seed in range(games):
        line = demo.pick_line("telec", seed, turns)
        events = demo.script("telec", line, layout, random.Random(seed), step=0.3,
                             pause=0.5, slip=False)
        clock = VirtualClock()
        service = open_board(BoardOptions("telec", layout=layout, clock=clock)).service
        time_steps(service, samples, PREPARE["telec"])
        VirtualRun(service, clock, lambda item: None).play(events)
    return samples


def row(label: str, samples: list[float]) -> str:
    return (f"| {label} | {percentile(samples, 50) * 1e3:.3f} ms | "
            f"{percentile(samples, 99) * 1e3:.3f} ms | {max(samples) * 1e3:.3f} ms | "
            f"{len(samples)} |")


#: Run in a source tree (its own bench/pipeline.py): the Tulaga and Teblo figures, as JSON.
ROWS = """
import json
from pipeline import PREPARE, change_to_frame, percentile
out = {}
for game in ("tulaga", "teblo"):
    s = change_to_frame(game)
    out[game] = [percentile(s, 50), percentile(s, 99), percentile(PREPARE[game], 50),
                 percentile(PREPARE[game], 99)]
print(json.dumps(out))
"""


def compare(other: Path, rounds: int) -> None:
    here = Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict]] = {"other": [], "this": []}
    for _ in range(rounds):
        runs["other"].append(in_tree(other, ROWS))
        runs["this"].append(in_tree(here, ROWS))

    def cells(game: str, k: int, scale: float = 1e3) -> tuple[str, str]:
        return tuple(" / ".join(f"{r[game][k] * scale:.3f} ms" for r in runs[side])
                     for side in ("other", "this"))

    print(f"this tree against {other}, {rounds} rounds each, alternately\n")
    print("| game | per event p50, other | this | per event p99, other | this "
          "| idle listing p50, other | this | idle listing p99, other | this |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in ("tulaga", "teblo"):
        print(f"| {game} | " + " | ".join(" | ".join(cells(game, k)) for k in range(4)) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another source tree: Tulaga and Teblo "
                    "rows of both, measured alternately")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {when}\n")
    if args.against:
        compare(args.against, args.rounds)
        return
    per_decision, per_turn = telec_playouts()
    ref = chess_plies_per_second()
    print("| random playouts | per second | ratio to python-chess plies (same run) |")
    print("|---|---:|---:|")
    print(f"| telec decisions (die sampled) | {per_decision:,.0f} | {per_decision / ref:.2f} |")
    print(f"| telec turns | {per_turn:,.0f} | {per_turn / ref:.2f} |")
    print(f"| python-chess plies (reference) | {ref:,.0f} | 1.00 |")
    print()
    print("| sensor event -> LED frame, CPU | p50 | p99 | max | n |")
    print("|---|---:|---:|---:|---:|")
    print(row("telec, physical dice, every question answered", telec_change_to_frame()))
    print(row("tulaga, claim-and-reap turns", change_to_frame("tulaga")))
    print(row("teblo, random games", change_to_frame("teblo")))
    print()
    print("| idle scan after a move: list the next position's candidates, CPU "
          "| p50 | p99 | max | n |")
    print("|---|---:|---:|---:|---:|")
    for game in ("telec", "tulaga", "teblo"):
        print(row(game, PREPARE[game]))


if __name__ == "__main__":
    main()
