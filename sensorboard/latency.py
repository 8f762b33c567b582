"""Sensor change to LED frame: the CPU time of the scan that carries a debounced change.

That scan reads the matrix, debounces, runs the tracker and the rules, plans the hints
and hands the frame to the LEDs; its thread CPU time is what a Pi adds between a piece
touching down and its LEDs changing (on top of the debounce window and the frame pacing).
Measured on seeded random games played by hand on the simulated board of a layout, with
every question answered, so it runs the same anywhere (``bench/latency.py`` over every
shipped layout, ``sensorboard bench --games N`` on a Pi). The reference, measured in the
same run, is a fixed piece of plain Python (sorting 20,000 seeded floats), so a run on a
slower or busier machine can be compared by the ratio.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import rules
from boards.choreography import game_events
from boards.layout import Layout
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock

if TYPE_CHECKING:
    from sensorboard.service import BoardService


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def reference_seconds(repeat: int = 30) -> float:
    """The median thread CPU time of sorting 20,000 seeded random floats."""
    rng = random.Random(7)
    data = [rng.random() for _ in range(20_000)]
    took = []
    for _ in range(repeat):
        t0 = time.thread_time_ns()
        sorted(data)
        took.append((time.thread_time_ns() - t0) / 1e9)
    return percentile(took, 0.5)


def change_to_frame(layout: Layout, games: int = 10, plies: int = 30,
                    first_seed: int = 0, ended: Callable[[list, BoardService], None] | None = None
                    ) -> list[float]:
    """Thread CPU seconds of every scan that carried a debounced change, over ``games``
    seeded random games of ``plies`` turns on ``layout``'s simulated board (``ended``: is
    told each game's decisions as played and its service once the input has settled)."""
    from sensorboard.board import BoardOptions, open_board
    from sensorboard.replay import VirtualRun, parse_events

    samples: list[float] = []
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        state = rules.new_game(layout.game)
        line = []
        while state.outcome() is None and len(line) < plies:
            move = state.sample_chance(rng) if state.to_move == rules.CHANCE else \
                rng.choice(state.legal_moves())
            line.append(move)
            state.push(move)
        start = rules.new_game(layout.game)
        events = game_events(start, line, rng, answer=True)
        parsed = parse_events([json.dumps(e) for e in events], "bench", start.GEOMETRY.names)
        clock = VirtualClock()
        service = open_board(BoardOptions(layout.game, layout=layout, clock=clock,
                                          hardware=HardwareConfig(seed=seed))).service
        step = service.step

        def timed_step(step=step, service=service) -> list[dict]:
            waiting = len(service.debouncer.pending())
            t0 = time.thread_time_ns()
            out = step()
            took = time.thread_time_ns() - t0
            if waiting and len(service.debouncer.pending()) < waiting:
                samples.append(took / 1e9)
            return out

        service.step = timed_step  # type: ignore[method-assign]
        run = VirtualRun(service, clock, lambda item: None)
        for ev in parsed:
            run.scan_until(ev.t)
            if ev.op not in ("lift", "place"):
                run.catch_up()
            service.act(ev.op, ev.arg, ev.player)  # a question the board did not ask is refused
        run.settle()
        if ended is not None:
            ended(line, service)
    return samples
