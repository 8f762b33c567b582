"""Sensor change to LED frame, p99, for every shipped layout, with a reference in the
same run (sensorboard/latency.py says what is measured).

Run by hand: .venv/bin/python bench/latency.py [--games 20] [--plies 30] [--layout NAME]
             [--against TREE [--rounds 2]] [--engine [--rounds 2]]
Prints a markdown table (no assertions), with the turns the games committed of those
played (every one, unless the board lost the game). On a Pi, `sensorboard bench --games N` measures
the same for its own layout. With ``--against TREE`` (another commit's source tree, e.g.
unpacked by ``git archive COMMIT | tar -x -C TREE``) each layout is measured on both
trees, alternately in fresh processes, so that the other tree is the reference of the
same minutes: for a change of the tracker, before and after. With ``--engine`` each
layout is measured alternately with and without the engine searching in its worker
process meanwhile (as while it thinks of a hint or an opponent's turn).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from pipeline import in_tree  # noqa: E402

from boards.layout import load_layout, shipped_layouts  # noqa: E402
from sensorboard.latency import (  # noqa: E402
    change_to_frame,
    games_options,
    measured,
    percentile,
    reference_seconds,
)

PI_FACTOR = 10  # a Raspberry Pi 4 runs this Python about ten times slower

#: Run in a source tree: one layout's p50, p99, max, samples, the reference, and the turns
#: committed and made, as JSON. The games are played by this tree's hand
#: (sensorboard/latency.py, given as the last argument) on that tree's board.
ROWS = """
import importlib.util, json, sys
from boards.layout import load_layout, shipped_layouts
name, games, plies, hand_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if name not in shipped_layouts():  # a layout that tree does not have (an older commit)
    print("null")
    sys.exit()
spec = importlib.util.spec_from_file_location("hand", hand_file)
hand = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hand)

def open_service(layout, clock, seed):
    try:
        return hand.open_sim(layout, clock, seed)
    except ImportError:  # a tree before open_board
        import rules
        from hardware.backends import HardwareConfig
        from sensorboard.service import BoardService
        return BoardService(rules.new_game(layout.game), layout, clock=clock, backend="sim",
                            config=HardwareConfig(seed=seed))

ref = hand.reference_seconds()
played = []
s = hand.change_to_frame(load_layout(shipped_layouts()[name]), games=games, plies=plies,
                         played=played, open_service=open_service)
ref = min(ref, hand.reference_seconds())
print(json.dumps([hand.percentile(s, 0.5), hand.percentile(s, 0.99), max(s), len(s), ref,
                  sum(c for c, _ in played), sum(t for _, t in played)]))
"""


def compare(other: Path, layouts: list[str], games: int, plies: int, rounds: int) -> None:
    here = Path(__file__).resolve().parent.parent
    print(f"this tree against {other}, {rounds} rounds each, alternately\n")
    print("| layout | p50, other | this | p99, other | this | reference, other | this "
          "| turns committed, other | this |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    hand = str(here / "sensorboard" / "latency.py")
    for name in layouts:
        runs: dict[str, list] = {"other": [], "this": []}
        for _ in range(rounds):
            for side, tree in (("other", other), ("this", here)):
                runs[side].append(in_tree(tree, ROWS, name, str(games), str(plies), hand))
        cells = [" | ".join(" / ".join(f"{r[k] * 1e3:.2f} ms" if r else "-" for r in runs[side])
                            for side in ("other", "this")) for k in (0, 1, 4)]
        cells += [" / ".join(f"{r[5]} of {r[6]}" if r else "-" for r in runs[side])
                  for side in ("other", "this")]
        print(f"| {name} | {' | '.join(cells)} |", flush=True)


def with_engine(layouts: dict, games: int, plies: int, rounds: int) -> None:
    """Each layout alternately alone and with the engine searching in the background."""
    import rules
    from engine import EngineWorker

    print("| layout | p99, alone | p99, engine thinking | p50, alone | p50, engine thinking "
          "| reference, alone | engine thinking |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with EngineWorker() as worker:
        for name, path in layouts.items():
            runs: dict[str, list] = {"alone": [], "engine": []}
            for _ in range(rounds):
                for side in ("alone", "engine"):
                    if side == "engine":  # a search far longer than the measurement
                        worker.ask(rules.new_game(load_layout(path).game), seconds=3600)
                    ref = reference_seconds()
                    samples = change_to_frame(load_layout(path), games=games, plies=plies)
                    worker.cancel()
                    runs[side].append((percentile(samples, 0.99), percentile(samples, 0.5),
                                       min(ref, reference_seconds())))
            cells = [" / ".join(f"{r[k] * 1e3:.2f} ms" for r in runs[side])
                     for k in (0, 1, 2) for side in ("alone", "engine")]
            print(f"| {name} | {' | '.join(cells)} |", flush=True)


def main() -> None:
    ap = games_options(__doc__.splitlines()[0], games=20)
    ap.add_argument("--against", type=Path, help="another source tree: each layout measured "
                    "on both, alternately")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--engine", action="store_true", help="each layout alone and with the "
                    "engine searching in the background, alternately")
    args = ap.parse_args()
    layouts = {n: p for n, p in shipped_layouts().items() if not args.layout or n in args.layout}
    print(measured(args.games, args.plies))
    if args.against:
        compare(args.against, list(layouts), args.games, args.plies, args.rounds)
        return
    if args.engine:
        with_engine(layouts, args.games, args.plies, args.rounds)
        return
    print("| layout | samples | p50 | p99 | max | reference (same run) | p99 / reference | "
          f"p99 expected on a Pi 4 (x{PI_FACTOR}) | turns committed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, path in layouts.items():
        ref_before = reference_seconds()
        played: list[tuple[int, int]] = []
        samples = change_to_frame(load_layout(path), games=args.games, plies=args.plies,
                                  played=played)
        ref = min(ref_before, reference_seconds())
        p99 = percentile(samples, 0.99)
        print(f"| {name} | {len(samples):,} | {percentile(samples, 0.5) * 1e3:.2f} ms | "
              f"{p99 * 1e3:.2f} ms | {max(samples) * 1e3:.1f} ms | {ref * 1e3:.2f} ms | "
              f"{p99 / ref:.1f} | {p99 * PI_FACTOR * 1e3:.0f} ms | "
              f"{sum(c for c, _ in played)} of {sum(t for _, t in played)} |", flush=True)


if __name__ == "__main__":
    main()
