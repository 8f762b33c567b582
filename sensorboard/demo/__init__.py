"""Bundled demo games: ``python -m sensorboard.demo GAME`` writes one as replay input lines.

A demo is a seeded random game carried out by hand (boards.choreography), with one slip
in it: a piece put on a cell where it may not go, left there until the board lights the
error, then put right.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import rules
from boards.choreography import turn_ops

FOLDER = Path(__file__).parent


def build(game: str, seed: int = 7, max_plies: int = 60, step: float = 0.7,
          pause: float = 1.2) -> list[dict]:
    rng = random.Random(seed)
    state = rules.new_game(game)
    events: list[dict] = []
    t = 1.0
    slip_done = False
    while state.outcome() is None and len(state.move_stack) < max_plies:
        moves = state.legal_moves()
        # Show the long turns (captures, claims and reaps) more often than chance would.
        size = {m: len(turn_ops(state, m, random.Random(0))) for m in moves}
        longest = [m for m in moves if size[m] == max(size.values())]
        move = rng.choice(longest if rng.random() < 0.7 else moves)
        ops = turn_ops(state, move, rng)
        empty = [c for c in state.GEOMETRY.names if c not in state.physical()
                 and all(cell != c for _, cell in ops)]
        slip = (not slip_done and len(state.move_stack) >= 4 and [o for o, _ in ops] ==
                ["lift", "place"] and empty)
        for k, (op, cell) in enumerate(ops):
            if slip and k == 1:
                wrong = rng.choice(empty)
                events.append({"t": round(t, 3), "op": "place", "cell": wrong})
                t += 2.5  # long enough for the error to light
                events.append({"t": round(t, 3), "op": "lift", "cell": wrong})
                t += step
                slip_done = True
            events.append({"t": round(t, 3), "op": op, "cell": cell})
            t += step
        state.push(move)
        t += pause
    return events


def load(game: str) -> list[dict]:
    path = FOLDER / f"{game}.jsonl"
    if not path.exists():
        return build(game)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
