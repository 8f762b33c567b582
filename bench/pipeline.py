"""CPU time from a sensor change to the LED frame, and random-playout speed against python-chess.

Run by hand: .venv/bin/python bench/pipeline.py   (prints markdown; no assertions)

- change -> frame: the CPU time (thread time) of the scan in which the debouncer reports a
  change, i.e. scanner read + debouncing + tracker + rules + hint planner + strip.show().
  Measured over seeded random Tessella games carried out by hand on the simulated board.
- playouts: random games, legal move generation + push per ply, Tessella next to
  python-chess in the same run, as a ratio (this machine is shared and noisy).
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

import chess  # noqa: E402

import rules  # noqa: E402
from boards.choreography import game_events  # noqa: E402
from hardware.clock import VirtualClock  # noqa: E402
from sensorboard.board import BoardOptions, open_board  # noqa: E402
from sensorboard.replay import VirtualRun, parse_events  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


PREPARE: dict[str, list[float]] = {}  # game -> idle scans that listed a position's turns


def time_steps(service, samples: list[float], listings: list[float]) -> None:
    """Time each of ``service``'s scans in thread CPU seconds: one that carried a debounced
    change goes to ``samples``, an idle one that listed a position's turns ahead of time
    (``Tracker.prepare``: the position's own, or the next player's after a turn that may be
    done) to ``listings``; not one that only let go of an ended turn's lists."""
    step, tracker = service.step, service.tracker
    prepare = tracker.prepare
    listed = []

    def counted_prepare():
        if not getattr(tracker, "_spent", None):
            listed.append(True)
        prepare()

    def timed_step():
        before = len(service.debouncer.pending())
        listed.clear()
        t0 = time.thread_time_ns()
        out = step()
        dt = time.thread_time_ns() - t0
        if before and len(service.debouncer.pending()) < before:
            samples.append(dt / 1e9)
        elif listed:
            listings.append(dt / 1e9)
        return out

    service.step = timed_step
    service.tracker.prepare = counted_prepare


#: Put before code run in another source tree: its own modules, not the ones the virtual
#: environment installed in editable mode.
THIS_TREE = """
import sys
sys.path[:] = [".", "bench"] + [p for p in sys.path if "__editable__" not in p]
sys.meta_path[:] = [f for f in sys.meta_path if "Editable" not in getattr(f, "__name__", "")]
"""


def in_tree(tree: Path, code: str, *args: str):
    """Run ``code`` (which prints JSON on its last line) in a fresh process on the source
    tree ``tree`` (e.g. another commit unpacked by ``git archive COMMIT | tar -x -C
    TREE``), with ``args`` as ``sys.argv[1:]``; returns what it printed."""
    import json
    import subprocess

    proc = subprocess.run([sys.executable, "-c", THIS_TREE + code, *args], cwd=tree,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "BLINKA_OS_AGNOSTIC": "1"})
    return json.loads(proc.stdout.splitlines()[-1])


def change_to_frame(game: str, games: int = 20, plies: int = 40) -> list[float]:
    """Thread CPU seconds of each scan that carried a debounced change."""
    import json

    samples: list[float] = []
    PREPARE[game] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = rules.new_game(game)
        line = []
        while state.outcome() is None and len(line) < plies:
            legal = state.legal_moves()
            # long turns where the game has them: Tulaga claims with reaps
            longest = [m for m in legal if getattr(m, "reap", "")] or [
                m for m in legal if getattr(m, "stones", ())]
            move = rng.choice(longest or legal)
            line.append(move)
            state.push(move)
        events = game_events(rules.new_game(game), line, rng)
        start = rules.new_game(game)
        parsed = parse_events([json.dumps(e) for e in events], "bench", start.GEOMETRY.names)
        clock = VirtualClock()
        service = open_board(BoardOptions(game, clock=clock)).service
        time_steps(service, samples, PREPARE[game])
        run = VirtualRun(service, clock, lambda item: None)
        for ev in parsed:
            run.scan_until(ev.t)
            clock.set(ev.t)
            (service.sim_lift if ev.op == "lift" else service.sim_place)(ev.arg)
        run.settle()
    return samples


def playout_plies_per_second(new_state, seconds: float = 3.0) -> float:
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state()
        for _ in range(200):
            if state.outcome() is not None:
                break
            state.push(rng.choice(state.legal_moves()))
            plies += 1
    return plies / (time.perf_counter() - start)


def chess_plies_per_second(seconds: float = 3.0, clock=time.perf_counter) -> float:
    rng = random.Random(1)
    plies = 0
    start = clock()
    while clock() - start < seconds:
        board = chess.Board()
        for _ in range(200):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies / (clock() - start)


def main() -> None:
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {when}\n")
    print("| sensor change -> LED frame, CPU (scan + debounce + tracker + rules + hints + show)"
          " | p50 | p99 | max | n |")
    print("|---|---|---|---|---|")
    for game, label in (("tessella", "tessella, random games"),
                        ("tulaga", "tulaga, claim-and-reap turns")):
        samples = change_to_frame(game)
        print(f"| {label} | {percentile(samples, 50) * 1e3:.3f} ms | "
              f"{percentile(samples, 99) * 1e3:.3f} ms | {max(samples) * 1e3:.3f} ms | "
              f"{len(samples)} |")
    print()
    print("| idle scan after a move: list the next position's turns, CPU | p50 | p99 | max | n |")
    print("|---|---|---|---|---|")
    for game, prepared in PREPARE.items():
        print(f"| {game} | {percentile(prepared, 50) * 1e3:.3f} ms | "
              f"{percentile(prepared, 99) * 1e3:.3f} ms | {max(prepared) * 1e3:.3f} ms | "
              f"{len(prepared)} |")
    print()
    tess = playout_plies_per_second(lambda: rules.new_game("tessella"))
    ref = chess_plies_per_second()
    print("| random playouts | plies/s | ratio to python-chess (same run) |")
    print("|---|---|---|")
    print(f"| tessella | {tess:,.0f} | {tess / ref:.2f} |")
    print(f"| python-chess {chess.__version__} (reference) | {ref:,.0f} | 1.00 |")


if __name__ == "__main__":
    main()
