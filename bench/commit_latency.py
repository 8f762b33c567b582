"""Commit latency on the virtual clock: from a turn's last sensor event to its commit.

Run by hand: .venv/bin/python bench/commit_latency.py [--streams N] [--first SEED]
             [--plies P] [--mix clean|random|both] [--game GAME] [--tree DIR]
Prints a markdown table per handling mix (no assertions). Each stream is a seeded game
of ``tests/boards/truth.py`` played on the tracker alone; the clock is the stream's own
(virtual) one, so the figures are the tracker's waiting, not CPU time. A sensor event
reaches the tracker one debounce period after it happens (the service's debouncer), so
a turn committed at its last event is committed within one debounce period of it; a
turn waits (``over``) when its commit comes more than ``--slack`` (5 ms) after the event
the tracker got. Why it waited is read from the tracker right after that event:

- ``may go on``: held, complete, and a longer turn fits the board (a Tessella capture
  made shooter first, a Tulaga placement that may become a claim);
- ``taken up``: held, complete, but its last change only took a piece up, which may go
  back (a touch): a Tulaga reap's last stone, a Telec piece off the Center Zone pad;
- ``cannot go on``: held although neither holds (what the tracker must not do);
- ``question``: a question was open (the turn's, or one before it);
- ``incomplete``: no turn complete (a press or a later event tells: a Teblo pawn onto its
  own block on reed switches, a piece in hand, the board wrong, a question still to come).

``p99, the rest``: over the turns neither held nor asked about (``cannot go on`` and
``incomplete``, and every turn committed at once). ``clock only``: turns the sensors
cannot see at all (a forfeit, a Teblo pawn onto its own block on reed switches, a Telec
stack onto an own piece), ended by the clock or a question.

``--tree DIR``: run another checkout's tracker and harness (the same seeds), e.g. the
reference ``git worktree add /tmp/base-lat a612395``.
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

_tree = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else None
sys.path.insert(0, str(Path(_tree or Path(__file__).resolve().parent.parent).resolve()))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards.events import Committed  # noqa: E402
from tests.boards import truth  # noqa: E402
from tests.boards.truth import Mix, Player, TrackerBoard  # noqa: E402

REASONS = ("may go on", "taken up", "cannot go on", "question", "incomplete")
HELD = ("may go on", "taken up", "question")  # waits the player ends (clock, answer)


class TimedBoard(TrackerBoard):
    """The tracker alone, noting what it was doing after each change (``after``) and
    which input each commit came from (``cause``: change, press, answer, timer, end)."""

    def __init__(self, state, layout_name: str) -> None:
        super().__init__(state, layout_name)
        self.after = "incomplete"
        self.t_event = 0.0  # the time of the last change the tracker was told
        self.sensed = False  # whether the last change was told
        self.cause: dict[int, str] = {}

    def _note(self, events: list, cause: str) -> list:
        for e in events:
            self.cause.setdefault(id(e), cause)
        return events

    def advance(self, t: float) -> list:
        return self._note(super().advance(t), "timer")

    def change(self, cell, pieces, t: float) -> list:
        # (a change the sensors cannot see, a pawn onto its own block on reed switches,
        # is no event: the tracker is not told)
        self.sensed = cell not in self.blind and self.observe(pieces) != self.tracker.current[cell]
        self.t_event = t if self.sensed else self.t_event
        out = self._note(super().change(cell, pieces, t), "change")
        self.after = _why(self.tracker) if self.sensed else self.after
        return out

    def press(self, player, t: float) -> list:
        return self._note(super().press(player, t), "press")

    def choose(self, value: str, t: float, asked: str | None = None) -> list:
        return self._note(super().choose(value, t, asked), "answer")

    def finish(self, t: float) -> list:
        return self._note(super().finish(t), "end")


def _why(tracker) -> str:
    """Why the turn would wait after this change (see the module docstring)."""
    if tracker._prompt is not None:  # (one kept unshown until the decisive input too)
        return "question"
    if not tracker.pending:
        return "incomplete"
    if any(c not in tracker.pending for c in tracker._alive):
        return "may go on"
    return "taken up" if tracker.lifting else "cannot go on"


class TimedPlayer(Player):
    """The stream's player, noting each true turn's last sensor event (time, and what the
    tracker was doing after it) and each commit's time and cause."""

    def __init__(self, board, *args, **kwargs) -> None:
        super().__init__(board, *args, **kwargs)
        self.last_event: dict[int, tuple[float, str]] = {}
        self.commits: list[tuple[float, str]] = []

    def lift(self, cell: str) -> None:
        super().lift(cell)
        self._noted()

    def place(self, cell: str, piece: str | None = None) -> None:
        super().place(cell, piece)
        self._noted()

    def _noted(self) -> None:
        if self.doing is not None and self.board.sensed:
            self.last_event[len(self.done)] = (self.board.t_event, self.board.after)

    def handle(self, events: list) -> None:
        for e in events:
            if isinstance(e, Committed):
                self.commits.append((e.t, self.board.cause.get(id(e), "?")))
        super().handle(events)


class Sample:
    """The turns of one board: latencies (s) and the turns that waited, by reason."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.rest: list[float] = []  # the turns neither held nor waiting on a question
        self.over: dict[str, int] = dict.fromkeys(REASONS, 0)
        self.ended_by: dict[str, int] = {}
        self.silent = 0

    def add(self, player: TimedPlayer, slack: float) -> None:
        for k, (t_commit, cause) in enumerate(player.commits[:len(player.done)]):
            if player.result.committed[k:k + 1] != player.done[k:k + 1]:
                break  # off the truth from here: no latency to speak of
            if k not in player.last_event:
                self.silent += 1  # nothing the sensors see: the clock is the turn
                continue
            t_last, after = player.last_event[k]
            wait = max(0.0, t_commit - t_last)
            self.latencies.append(wait)
            if after not in HELD:
                self.rest.append(wait)
            if wait > slack:
                self.over[after] += 1
                self.ended_by[cause] = self.ended_by.get(cause, 0) + 1


def run(game: str, layout: str, seed: int, plies: int, mix: Mix) -> TimedPlayer:
    """One stream of ``tests/boards/truth.py`` with the timed board and player."""
    made: list[TimedPlayer] = []

    def player(*args, **kwargs) -> TimedPlayer:
        made.append(TimedPlayer(*args, **kwargs))
        return made[-1]

    board = TimedBoard(truth.rules.new_game(game), layout)
    saved, truth.Player = truth.Player, player
    try:
        truth.run_stream(game, layout, seed, plies=plies, mix=mix, board=board)
    finally:
        truth.Player = saved
    return made[0]


def _mix(name: str, seed: int) -> Mix:
    if name == "random":
        return Mix.random(random.Random(seed))
    return Mix(touch=0, touch_last=0, touch_mid=0, touch_after=0, touch_enemy=0,
               press=0, late=0, garbage=0)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table(args: argparse.Namespace, mix: str) -> None:
    print(f"\n{mix} handling, {args.streams} streams of {args.plies} plies per board, "
          f"seeds {args.first}..\n")
    print("| board | turns | p50 | p99 | max | p99, the rest | over | may go on | taken up | "
          "cannot go on | question | incomplete | ended by | clock only | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for game, layout in truth.boards():
        if args.game and args.game not in (game, layout):
            continue
        sample, start = Sample(), time.process_time()
        for seed in range(args.first, args.first + args.streams):
            sample.add(run(game, layout, seed, args.plies, _mix(mix, seed)), args.slack)
        lat = sample.latencies
        ended = ", ".join(f"{k} {v}" for k, v in sorted(sample.ended_by.items())) or "-"
        print(f"| {layout} | {len(lat)} | {1e3 * percentile(lat, 0.5):.0f} ms | "
              f"{1e3 * percentile(lat, 0.99):.0f} ms | {1e3 * max(lat, default=0):.0f} ms | "
              f"{1e3 * percentile(sample.rest, 0.99):.0f} ms | "
              f"{sum(sample.over.values())} | "
              + " | ".join(str(sample.over[r]) for r in REASONS)
              + f" | {ended} | {sample.silent} | {time.process_time() - start:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=40, help="streams per board and mix")
    ap.add_argument("--first", type=int, default=100_000, help="first seed")
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--mix", choices=("clean", "random", "both"), default="both")
    ap.add_argument("--slack", type=float, default=0.005,
                    help="seconds after its event a commit still counts as at once")
    ap.add_argument("--game", default=None, help="only this game or layout")
    ap.add_argument("--tree", default=None, help="another checkout to measure instead")
    args = ap.parse_args()
    print(f"Measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC on "
          f"{platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; tree: {args.tree or 'this one'}")
    for mix in ("clean", "random") if args.mix == "both" else (args.mix,):
        table(args, mix)


if __name__ == "__main__":
    main()
