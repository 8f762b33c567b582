"""The read model's share of an event: thread CPU of each view made
(``boards.view.view_of``: the TurnView the LEDs, the page and the terminal read; for the
LEDs only the fields they read) beside the CPU of the scans that carry a change, over the
seeded games of bench/latency.py, with the same reference (sorting 20,000 seeded floats)
measured before and after each layout.

Run by hand: .venv/bin/python bench/view.py [--games 10] [--plies 30] [--layout NAME]
Prints a markdown table (no assertions).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards import view as turn_view  # noqa: E402
from boards.layout import load_layout, shipped_layouts  # noqa: E402
from sensorboard.latency import (  # noqa: E402
    change_to_frame,
    games_options,
    measured,
    percentile,
    reference_seconds,
)


def timed_views(name: str, games: int, plies: int) -> tuple[list[float], list[float]]:
    """(seconds of every view built, seconds of every scan that carried a change)."""
    views: list[float] = []
    build = turn_view.view_of

    def view_of(*args: object, **kwargs: object):
        t0 = time.thread_time_ns()
        out = build(*args, **kwargs)
        views.append((time.thread_time_ns() - t0) / 1e9)
        return out

    turn_view.view_of = view_of  # (the service calls it through the module)
    try:
        scans = change_to_frame(load_layout(shipped_layouts()[name]), games=games,
                                plies=plies)
    finally:
        turn_view.view_of = build
    return views, scans


def main() -> None:
    args = games_options(__doc__.splitlines()[0], games=10).parse_args()
    names = args.layout or list(shipped_layouts())
    print(measured(args.games, args.plies))
    print("| layout | views | view p50 | view p99 | change scans | scan p50 | scan p99 | "
          "reference |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        ref = reference_seconds()
        views, scans = timed_views(name, args.games, args.plies)
        ref = min(ref, reference_seconds())
        cells = [f"{percentile(v, q) * 1e6:.0f} µs" for v in (views,) for q in (0.5, 0.99)]
        cells += [str(len(scans))]
        cells += [f"{percentile(scans, q) * 1e3:.2f} ms" for q in (0.5, 0.99)]
        print(f"| {name} | {len(views)} | {' | '.join(cells)} | {ref * 1e3:.2f} ms |",
              flush=True)


if __name__ == "__main__":
    main()
