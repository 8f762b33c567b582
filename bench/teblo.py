"""Teblo speed, run by hand: ``.venv/bin/python bench/teblo.py [--positions N]``.

Prints markdown table rows (date, machine, measure, value):

- legal-move generation per mid-game position, the fast generator (one cut-square search
  per position) against the naive one from the tests (a flood fill per candidate move),
  on the same positions, and the ratio;
- random playout plies per second (legal moves + push, from the start to the end).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from rules import teblo  # noqa: E402
from tests.rules.test_teblo import naive_legal_moves  # noqa: E402


def mid_game_positions(count: int, seed: int = 1) -> list[teblo.TebloState]:
    """Positions after 20..60 random plies (many blocks on the board, still running)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = teblo.new_game()
        for _ in range(rng.randrange(20, 61)):
            moves = state.legal_moves()
            if not moves:
                break
            state.push(rng.choice(moves))
        if state.outcome() is None:
            out.append(teblo.from_position(state.position_str()))
    return out


def time_fast(positions, repeat: int) -> float:
    """Seconds per position for ``legal_moves()`` on a cold cache (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for state in positions:
            state._legal = state._cuts = None  # cold: no cached moves or cut squares
            teblo._cut_squares.cache_clear()
            state.legal_moves()
        best = min(best, time.perf_counter() - start)
    return best / len(positions)


def time_naive(positions, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for state in positions:
            naive_legal_moves(state)
        best = min(best, time.perf_counter() - start)
    return best / len(positions)


def playout_rate(games: int, seed: int = 2) -> tuple[float, int]:
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = teblo.new_game()
        for _ in range(400):
            moves = state.legal_moves()
            if not moves:  # also empty once a pawn stands on the enemy base
                break
            state.push(rng.choice(moves))
            plies += 1
    return plies / (time.perf_counter() - start), plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    positions = mid_game_positions(args.positions)
    fast = naive = float("inf")
    for _ in range(3):  # interleaved, so both see the same machine load; best of each
        fast = min(fast, time_fast(positions, repeat=5))
        naive = min(naive, time_naive(positions, repeat=1))
    rate, plies = playout_rate(args.games)
    date = datetime.date.today().isoformat()
    machine = (f"{platform.machine()} {platform.processor() or platform.node()}, "
               f"{os.cpu_count()} cpu, Python {platform.python_version()}")
    rows = [
        (f"legal moves, fast, per position ({len(positions)} mid-game)",
         f"{fast * 1e6:.0f} µs"),
        (f"legal moves, naive, per position (same {len(positions)})", f"{naive * 1e6:.0f} µs"),
        ("fast vs naive", f"{naive / fast:.0f}× faster"),
        (f"random playout ({args.games} games, {plies} plies)", f"{rate:,.0f} plies/s"),
    ]
    print("| date | machine | measure | value |")
    print("|---|---|---|---|")
    for measure, value in rows:
        print(f"| {date} | {machine} | {measure} | {value} |")


if __name__ == "__main__":
    main()
