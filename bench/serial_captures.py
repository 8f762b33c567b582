"""Tessella captures over the emulated serial link, under the emulator's fault mix.

Run by hand: .venv/bin/python bench/serial_captures.py [RUNS]   (default 500; prints
markdown; no assertions)

Each run is one capture on the serial backend with the firmware emulator behind a real
pty: the capture's lifts and places are carried out by the emulator's own ``script`` op
(each state held 30 ms and until the board has reported it, in the board's time, while
the host scans every 2 ms), with one fault of the mix at a random moment of it: a frame
to the host lost, damaged or cut short, a damaged chunk from the host, noise on the line,
the board muted for 0.3 s, or muted past the host's silence limit (1.3 s: the host reopens
the port), or none. A run holds when the host commits exactly that capture and then shows
nothing in hand and nothing to put right. Random legal moves (a capture where one is
legal, 4 times in 5) carry the games on; the turn after a waiting capture is ended by the
mover's clock press, as a player would.
"""

from __future__ import annotations

import datetime
import logging
import os
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from boards.choreography import turn_ops  # noqa: E402
from boards.layout import layout_for_game  # noqa: E402
from hardware.backends import HardwareConfig  # noqa: E402
from hardware.clock import RealClock  # noqa: E402
from sensorboard.board import BoardOptions, open_board  # noqa: E402
from sensorboard.service import BoardService  # noqa: E402

HOLD = 0.03
FAULTS = ("none", "drop", "corrupt", "truncate", "corrupt_in", "noise", "mute", "mute_long")


def scan(service: BoardService, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        service.step()
        time.sleep(0.002)


def inject(emulator, kind: str, rng: random.Random) -> None:
    if kind == "noise":
        emulator.noise(bytes(rng.randrange(256) for _ in range(20)))
    elif kind in ("mute", "mute_long"):
        emulator.mute(0.3 if kind == "mute" else 1.3)
    elif kind != "none":
        emulator.fault(kind, 1)


def carry_out(service: BoardService, state, move, rng: random.Random, kind: str) -> bool:
    """The turn through the emulator's script op, with the fault ``kind`` at a random
    moment; whether the host committed exactly it and shows nothing left over."""
    layout = service.layout
    ops = turn_ops(state, move, rng)
    before = len(service.tracker.state.move_stack)
    service.sim.emulator.script([(op, layout.cell_sensor[c]) for op, c in ops], HOLD)
    scan(service, rng.uniform(0.0, HOLD * len(ops)))
    inject(service.sim.emulator, kind, rng)
    end = time.monotonic() + 4.0
    while time.monotonic() < end and len(service.tracker.state.move_stack) == before:
        scan(service, 0.01)
    if len(service.tracker.state.move_stack) == before:  # a capture waits for what follows
        scan(service, 0.6)
        service.press("clock", state.to_move)
        scan(service, 0.3)
    stack = service.tracker.state.move_stack
    scan(service, 0.05)
    return stack[before:] == [move] and not service.tracker.differing


def game(seed: int, runs: int, tally: Counter, failures: list[str]) -> int:
    """Play one seeded game until it ends or ``runs`` captures were made; returns the
    captures made."""
    layout = layout_for_game("tessella")
    service = open_board(BoardOptions("tessella", layout=layout, clock=RealClock(),
                                      backend="serial",
                                      hardware=HardwareConfig(serial_port="emulator"))).service
    rng = random.Random(seed)
    state = rules.new_game("tessella")
    made = 0
    try:
        scan(service, 0.3)
        while state.outcome() is None and made < runs:
            legal = state.legal_moves()
            captures = [m for m in legal if "x" in state.move_str(m)]
            capture = bool(captures) and rng.random() < 0.8
            move = rng.choice(captures if capture else legal)
            kind = rng.choice(FAULTS) if capture else "none"
            ok = carry_out(service, state, move, rng, kind)
            if capture:
                made += 1
                tally[kind, ok] += 1
            if not ok:
                failures.append(f"seed {seed}: {state.move_str(move)} with {kind}")
                break  # the game on the host is off the truth from here
            state.push(move)
    finally:
        service.close()
    return made


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    logging.getLogger("firmware_bridge").setLevel(logging.ERROR)  # reopenings are expected
    print(f"# Tessella captures over the emulated serial link — {platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"{datetime.date.today()}\n")
    tally: Counter = Counter()
    failures: list[str] = []
    seed = 0
    start = time.monotonic()
    while sum(tally.values()) < runs:
        game(seed, runs - sum(tally.values()), tally, failures)
        seed += 1
    print("| fault | captures | held | lost |\n|---|---:|---:|---:|")
    for kind in FAULTS:
        held, lost = tally[kind, True], tally[kind, False]
        print(f"| {kind} | {held + lost} | {held} | {lost} |")
    held = sum(n for (_, ok), n in tally.items() if ok)
    print(f"| all | {sum(tally.values())} | {held} | {sum(tally.values()) - held} |\n")
    print(f"{seed} games, {time.monotonic() - start:.0f} s")
    for line in failures:
        print(f"- {line}")


if __name__ == "__main__":
    main()
