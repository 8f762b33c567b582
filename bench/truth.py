"""Truth-checked streams in bulk: how many go off the truth, commit an illegal move, or stall.

Run by hand: .venv/bin/python bench/truth.py [--streams N] [--first SEED] [--plies P]
             [--mix default|random] [--game GAME] [--show K] [--replay]
Prints a markdown table (no assertions; ``make test`` runs a few hundred per board).
Each stream is a seeded game played with ordinary handling (touches, the next turn on
freed cells, clock presses, late answers, garbage put right); see ``tests/boards/truth.py``.
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

from tests.boards import truth_replay  # noqa: E402
from tests.boards import truth_telec as telec  # noqa: E402
from tests.boards.truth import Mix, boards, run_stream  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=1000, help="streams per board")
    ap.add_argument("--first", type=int, default=100_000, help="first seed")
    ap.add_argument("--plies", type=int, default=24)
    ap.add_argument("--mix", choices=("default", "random"), default="random")
    ap.add_argument("--game", default=None, help="only this game or layout (e.g. teblo-hall)")
    ap.add_argument("--show", type=int, default=3, help="failures to print per board")
    ap.add_argument("--replay", action="store_true",
                    help="play the streams on the simulated board and run them through "
                         "replay (Telec with physical dice, rolls checked too: truth_telec.py; "
                         "the other games' presence-sensing boards: truth_replay.py)")
    args = ap.parse_args()
    print(f"Measured {datetime.date.today()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; seeds {args.first}.., {args.plies} plies, "
          f"{args.mix} handling mix\n")
    print("| board | streams | moves | off the truth | illegal | stalled | questions | "
          "errors shown | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    failures = []
    for game, layout in boards():
        if args.game and args.game not in (game, layout):
            continue
        if args.replay and game != "telec" and not truth_replay.replayable(layout):
            print(f"| {layout} | (no replay streams: its sensors tell pieces apart) |")
            continue
        n = moves = off = illegal = stalled = questions = errors = 0
        start = time.process_time()
        for seed in range(args.first, args.first + args.streams):
            if args.replay and game == "telec":
                mix = telec.Mix.random(random.Random(seed)) if args.mix == "random" \
                    else telec.Mix()
                r = telec.run_stream(game, seed, turns=args.plies, mix=mix, layout=layout)
            else:
                mix = Mix.random(random.Random(seed)) if args.mix == "random" else Mix()
                play = truth_replay.run_stream if args.replay else run_stream
                r = play(game, layout, seed, plies=args.plies, mix=mix)
            n += 1
            moves += len(r.truth)
            off += bool(r.off)
            illegal += r.illegal
            stalled += bool(r.stalled)
            questions += r.questions
            errors += r.errors
            if not r.ok:
                failures.append(r)
        secs = time.process_time() - start
        print(f"| {layout} | {n} | {moves} | {off} | {illegal} | {stalled} | {questions} | "
              f"{errors} | {secs:.1f} |")
    shown: dict[str, int] = {}
    for r in failures:
        if shown.get(r.layout, 0) >= args.show:
            continue
        shown[r.layout] = shown.get(r.layout, 0) + 1
        print(f"\n{r.layout} seed {r.seed}: {r.off or r.stalled or 'illegal'}")
        print("  " + "\n  ".join(r.log[-14:]))


if __name__ == "__main__":
    main()
