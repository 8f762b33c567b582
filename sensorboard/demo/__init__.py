"""Bundled demo games: ``python -m sensorboard.demo GAME`` writes one as replay input lines.

A demo is a seeded random game carried out by hand (boards.choreography) on the simulated
board, with one slip in it where the game allows one (a piece put where it may not go,
left there until the board lights the error, then put right). The game is played through
the real pipeline while it is scripted, so wherever the board asks (a Teblo pawn stepping
off its block looks like a placement on reed switches) the script presses the clock
and answers, as a player would.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable
from pathlib import Path

import rules
from boards.choreography import turn_ops
from boards.layout import Layout, layout_for_game

FOLDER = Path(__file__).parent


def pick_line(game: str, seed: int, max_plies: int) -> list[Hashable]:
    """A seeded random game that shows the long turns (captures, claims, reaps) often."""
    rng = random.Random(seed)
    state = rules.new_game(game)
    while state.outcome() is None and len(state.move_stack) < max_plies:
        moves = state.legal_moves()
        size = {m: len(turn_ops(state, m, random.Random(0))) for m in moves}
        longest = [m for m in moves if size[m] == max(size.values())]
        state.push(rng.choice(longest if rng.random() < 0.7 else moves))
    return state.move_stack


def script(game: str, line: list[Hashable], layout: Layout, rng: random.Random,
           step: float = 0.7, pause: float = 1.2, slip: bool = True) -> list[dict]:
    """Replay input lines that carry out ``line`` and answer the board's questions."""
    from hardware.clock import VirtualClock
    from sensorboard.replay import VirtualRun
    from sensorboard.service import BoardService

    clock = VirtualClock()
    service = BoardService(rules.new_game(game), layout, clock=clock, backend="sim")
    run = VirtualRun(service, clock, lambda item: None)
    shadow = rules.new_game(game)
    events: list[dict] = []

    def at(op: str, key: str, value: str, wait: float) -> None:
        run.scan_until(clock.now() + wait)
        events.append({"t": round(clock.now(), 3), "op": op, key: value})
        if op == "lift":
            service.sim_lift(value)
        elif op == "place":
            service.sim_place(value)
        elif op == "press":
            service.press(value)
        else:
            service.choose(value)

    run.scan_until(1.0)
    for move in line:
        ops = turn_ops(shadow, move, rng)
        empty = [c for c in shadow.GEOMETRY.names if c not in shadow.physical()
                 and all(cell != c for _, cell in ops)]
        slipping = slip and len(shadow.move_stack) >= 4 and [o for o, _ in ops] == [
            "lift", "place"] and empty
        for k, (op, cell) in enumerate(ops):
            if slipping and k == 1:
                wrong = rng.choice(empty)
                at("place", "cell", wrong, step)
                at("lift", "cell", wrong, 2.5)  # long enough for the error to light
                slip = False
            at(op, "cell", cell, step)
        shadow.push(move)
        run.scan_until(clock.now() + 0.3)
        if len(service.tracker.state.move_stack) < len(shadow.move_stack):
            if service.tracker.prompt is None:
                at("press", "button", "clock", 0.3)
            if service.tracker.prompt is not None:
                at("choose", "value", shadow.move_str(move), step)
        run.scan_until(clock.now() + pause)
    return events


def build(game: str, seed: int = 7, max_plies: int = 60) -> list[dict]:
    line = pick_line(game, seed, max_plies)
    return script(game, line, layout_for_game(game), random.Random(seed))


def load(game: str) -> list[dict]:
    path = FOLDER / f"{game}.jsonl"
    if not path.exists():
        return build(game)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def apply(service, event: dict) -> list[dict]:
    """Carry out one script line on a service's simulated board; returns its events."""
    op = event["op"]
    if op == "lift":
        service.sim_lift(event["cell"])
    elif op == "place":
        service.sim_place(event["cell"])
    elif op == "press":
        return service.press(event["button"])
    else:
        return service.choose(event["value"])
    return []
