"""Telec truth streams in bulk, through replay with physical dice: how many go off the truth,
commit an illegal turn, print a wrong roll, or stall.

Run by hand: .venv/bin/python bench/telec_truth.py [--streams N] [--first SEED]
             [--turns T] [--mix default|random] [--show K]
Prints a markdown table (no assertions; ``make test`` runs a few dozen). Each stream is a
seeded Telec game played by hand on the simulated board (touches, bumps begun with either
piece, the Center Zone with and without its drop sensor, clock presses by side or shared,
late answers), its lines then run through ``sensorboard.replay``; see
``tests/boards/truth_telec.py``.
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
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from tests.boards.truth_telec import LAYOUTS, Mix, run_stream  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=1000, help="streams per layout")
    ap.add_argument("--first", type=int, default=100_000, help="first seed")
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--mix", choices=("default", "random"), default="random")
    ap.add_argument("--show", type=int, default=3, help="failures to print per layout")
    args = ap.parse_args()
    print(f"Measured {datetime.date.today()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; seeds {args.first}.., {args.turns} turns, "
          f"{args.mix} handling mix\n")
    print("| layout | streams | turns | rolls | off the truth | illegal | stalled | questions | "
          "errors shown | CPU seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    failures = []
    for layout in LAYOUTS:
        n = turns = rolls = off = illegal = stalled = questions = errors = 0
        start = time.process_time()
        for seed in range(args.first, args.first + args.streams):
            mix = Mix.random(random.Random(seed)) if args.mix == "random" else Mix()
            r = run_stream("telec", seed, turns=args.turns, mix=mix, layout=layout)
            n += 1
            turns += len(r.truth)
            rolls += len(r.rolls)
            off += bool(r.off)
            illegal += r.illegal
            stalled += bool(r.stalled)
            questions += r.questions
            errors += r.errors
            if not r.ok:
                failures.append(r)
        secs = time.process_time() - start
        print(f"| {layout} | {n} | {turns} | {rolls} | {off} | {illegal} | {stalled} | "
              f"{questions} | {errors} | {secs:.0f} |")
    shown: dict[str, int] = {}
    for r in failures:
        if shown.get(r.layout, 0) >= args.show:
            continue
        shown[r.layout] = shown.get(r.layout, 0) + 1
        print(f"\n{r.layout} seed {r.seed}: {r.off or r.stalled or 'illegal'}")
        print("  " + "\n  ".join(r.log[-16:]))


if __name__ == "__main__":
    main()
