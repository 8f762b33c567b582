"""Random-playout speed of the Tulaga rules.

Run by hand: .venv/bin/python bench/tulaga.py   (prints a markdown table row; no assertions)

- uniform: seeded games from the start, each ply ``legal_moves()`` + ``random.choice`` + ``push``
  (most plies are plain placements; the game ends when a pile runs out);
- claiming: the same, but a Tulaga is claimed whenever one is offered, so the boards stay
  crowded and every ply finds Tulagas (the tracker's worst case per turn);
- list/s: ``legal_moves()`` alone on positions from the claiming games (cache cleared each time).
"""

from __future__ import annotations

import datetime
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402

SECONDS = 2.0


def playouts(claiming: bool) -> float:
    plies = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        rng = random.Random(seed)
        seed += 1
        state = rules.new_game("tulaga")
        for _ in range(400):
            moves = state.legal_moves()
            if not moves:
                break
            if claiming:
                claims = [m for m in moves if m.stones]
                moves = claims or moves
            state.push(rng.choice(moves))
            plies += 1
    return plies / (time.perf_counter() - start)


def listing() -> float:
    positions = []
    for seed in range(20):
        rng = random.Random(seed)
        state = rules.new_game("tulaga")
        while state.legal_moves() and len(positions) < 400:
            moves = state.legal_moves()
            state.push(rng.choice([m for m in moves if m.stones] or moves))
            positions.append(state.clone())
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        for state in positions:
            state._legal = None
            state.legal_moves()
        n += len(positions)
    return n / (time.perf_counter() - start)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.node()


def main() -> None:
    uniform, claiming, lists = playouts(False), playouts(True), listing()
    machine = f"{cpu_name()}, {platform.machine()}, {os.cpu_count()} cpu"
    print("| date | machine | python | uniform plies/s | claiming plies/s | legal_moves/s |")
    print("|---|---|---|---|---|---|")
    print(f"| {datetime.date.today()} | {machine} | {platform.python_version()} "
          f"| {uniform:,.0f} | {claiming:,.0f} | {lists:,.0f} |")


if __name__ == "__main__":
    main()
