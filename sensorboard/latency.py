"""Sensor change to LED frame: the CPU time of the scan that carries a debounced change.

That scan reads the matrix, debounces, runs the tracker and the rules, plans the hints
and hands the frame to the LEDs; its thread CPU time is what a Pi adds between a piece
touching down and its LEDs changing (on top of the debounce window and the frame pacing).
Measured on seeded random games played by hand on the simulated board of a layout (each
turn's lifts and places, the mover's clock after a turn the sensors cannot see, every
question answered with the true decision: :class:`Hand`), so it runs the same anywhere
(``bench/latency.py`` over every shipped layout, ``sensorboard bench --games N`` on a Pi).
The reference, measured in the same run, is a fixed piece of plain Python (sorting 20,000
seeded floats), so a run on a slower or busier machine can be compared by the ratio.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import rules
from boards import decisions
from boards.choreography import turn_ops
from boards.decisions import Turn
from boards.layout import Layout
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock

if TYPE_CHECKING:
    from sensorboard.service import BoardService


def games_options(description: str, games: int) -> argparse.ArgumentParser:
    """The options of every bench over these seeded games: how many games, their plies and
    which shipped layouts (``--layout``, repeatable; every one by default)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--layout", action="append", help="only this shipped layout (repeatable)")
    return ap


def measured(games: int, plies: int) -> str:
    """The first line of such a bench's report: when, where and what was played."""
    return (f"Measured {datetime.datetime.now():%Y-%m-%d %H:%M} on {platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}; {games} seeded "
            f"games of {plies} turns per layout\n")


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


def random_line(game: str, rng: random.Random, plies: int) -> list[Hashable]:
    """A seeded random game of ``plies`` decisions (a die sampled by its odds), and those
    that end the turn they are in."""
    state = rules.new_game(game)
    line: list[Hashable] = []
    mover = state.to_move
    while len(line) < plies and state.outcome() is None or decisions.in_turn(state, mover):
        if state.to_move != rules.CHANCE:
            mover = state.to_move
        move = state.sample_chance(rng) if state.to_move == rules.CHANCE else \
            rng.choice(state.legal_moves())
        line.append(move)
        state.push(move)
    return line


def whole_turns(state: rules.GameState, line: list[Hashable]) -> list[Turn]:
    """``line``'s decisions from ``state`` grouped into turns (a die's outcome belongs to
    the turn that rolled it)."""
    state, turns, player = state.clone(), [], None
    for move in line:
        if state.to_move not in (player, rules.CHANCE):
            turns.append([])
            player = state.to_move
        turns[-1].append(move)
        state.push(move)
    return [Turn(t) for t in turns]


class Hand:
    """Plays true turns on a service's simulated board as a person does: each turn's lifts
    and places, the mover's clock after a turn the sensors cannot see, and every question
    answered at once with the true decision (the whole turn, where it asks which turn)."""

    def __init__(self, service, clock: VirtualClock, state: rules.GameState,
                 line: list[Hashable]) -> None:
        from sensorboard.replay import VirtualRun

        self.service, self.run = service, VirtualRun(service, clock, lambda item: None)
        self.state, self.turns = state.clone(), whole_turns(state, line)
        self.answers = self._answers(state, self.turns)

    @property
    def committed(self) -> int:
        """The turns the board has committed as played: those of the game's first turns
        whose decisions are, in order, the board's committed decisions (the turn in
        progress, if any, is not committed)."""
        tracker = self.service.tracker
        stack, done, count = tracker.state.move_stack[:tracker.turn_start], 0, 0
        for turn in self.turns:
            done += len(turn)
            if done > len(stack) or list(stack[done - len(turn):done]) != list(turn):
                break
            count += 1
        return count

    @staticmethod
    def _answers(state: rules.GameState, turns: list[Turn]) -> list[tuple[str, str]]:
        """For each decision of the game: its notation and its whole turn's."""
        state, out = state.clone(), []
        for turn in turns:
            whole = decisions.text(state, turn)
            for move in turn:
                out.append((state.move_str(move), whole))
                state.push(move)
        return out

    def play(self, rng: random.Random, step: float = 0.4, pause: float = 1.0) -> None:
        t = 0.5
        for turn in self.turns:
            player = self.state.to_move
            ops = turn_ops(self.state, turn, rng)
            for op, cell in ops:
                t = self._act(t, op, cell) + step
            before = self._sensed()
            decisions.push(self.state, turn)
            if self._sensed() == before:  # the sensors see no turn: the mover says it is done
                t = self._act(t, "press", "clock", player) + step
            t += pause
        self.run.settle()
        self.service.flush()

    def _sensed(self) -> dict[str, Hashable]:
        """What every sensor of the board shows in the position the hand has played."""
        physical, observe = self.state.physical(), self.service.observe
        return {cell: observe(physical.get(cell, ())) for cell in self.service.layout.cell_sensor}

    def _act(self, t: float, op: str, arg: str, player: str | None = None) -> float:
        self.run.scan_until(t)
        if op == "press":
            self.run.catch_up()
        self.service.act(op, arg, player)
        for _ in range(8):  # the questions this brought, each answered as it comes
            self.run.catch_up()
            prompt = self.service.tracker.prompt
            if prompt is None:
                break
            self.service.act("choose", self._truth(prompt.options))
        return t

    def _truth(self, options: list[str]) -> str:
        done = len(self.service.tracker.state.move_stack)
        decision, whole = self.answers[done] if done < len(self.answers) else ("", "")
        return next((v for v in (decision, whole) if v in options), "none")


def open_sim(layout: Layout, clock: VirtualClock, seed: int):
    """The service of ``layout``'s simulated board, as ``sensorboard bench`` opens it."""
    from sensorboard.board import BoardOptions, open_board

    return open_board(BoardOptions(layout.game, layout=layout, clock=clock,
                                   hardware=HardwareConfig(seed=seed))).service


def change_to_frame(layout: Layout, games: int = 10, plies: int = 30, first_seed: int = 0,
                    played: list | None = None, open_service: Callable = open_sim,
                    ended: Callable[[list, BoardService], None] | None = None,
                    ) -> list[float]:
    """Thread CPU seconds of every scan that carried a debounced change, over ``games``
    seeded random games of ``plies`` decisions on ``layout``'s simulated board, played by
    a :class:`Hand`. ``played`` (a list) gets each game's turns committed and turns made;
    ``ended`` is told each game's decisions as played and its service once it is over."""
    samples: list[float] = []
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        line = random_line(layout.game, rng, plies)
        clock = VirtualClock()
        service = open_service(layout, clock, seed)
        _time_steps(service, samples)
        hand = Hand(service, clock, rules.new_game(layout.game), line)
        hand.play(rng)
        if played is not None:
            played.append((hand.committed, len(hand.turns)))
        if ended is not None:
            ended(line, service)
    return samples


def _time_steps(service, samples: list[float]) -> None:
    """Time each scan of ``service`` that carries a debounced change into ``samples``."""
    step = service.step

    def timed_step() -> list[dict]:
        waiting = len(service.debouncer.pending())
        t0 = time.thread_time_ns()
        out = step()
        took = time.thread_time_ns() - t0
        if waiting and len(service.debouncer.pending()) < waiting:
            samples.append(took / 1e9)
        return out

    service.step = timed_step
