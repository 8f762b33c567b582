"""Sensor change to LED frame, p99, for every shipped layout, with a reference in the
same run (sensorboard/latency.py says what is measured).

Run by hand: .venv/bin/python bench/latency.py [--games 20] [--plies 30] [--layout NAME]
Prints a markdown table (no assertions). On a Pi, `sensorboard bench --games N` measures
the same for its own layout.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards.layout import load_layout, shipped_layouts  # noqa: E402
from sensorboard.latency import change_to_frame, percentile, reference_seconds  # noqa: E402

PI_FACTOR = 10  # a Raspberry Pi 4 runs this Python about ten times slower


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--layout", action="append", help="only this shipped layout (repeatable)")
    args = ap.parse_args()
    layouts = {n: p for n, p in shipped_layouts().items() if not args.layout or n in args.layout}
    print(f"Measured {datetime.datetime.now():%Y-%m-%d %H:%M} on {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; {args.games} seeded "
          f"games of {args.plies} turns per layout\n")
    print("| layout | samples | p50 | p99 | max | reference (same run) | p99 / reference | "
          f"p99 expected on a Pi 4 (x{PI_FACTOR}) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, path in layouts.items():
        ref_before = reference_seconds()
        samples = change_to_frame(load_layout(path), games=args.games, plies=args.plies)
        ref = min(ref_before, reference_seconds())
        p99 = percentile(samples, 0.99)
        print(f"| {name} | {len(samples):,} | {percentile(samples, 0.5) * 1e3:.2f} ms | "
              f"{p99 * 1e3:.2f} ms | {max(samples) * 1e3:.1f} ms | {ref * 1e3:.2f} ms | "
              f"{p99 / ref:.1f} | {p99 * PI_FACTOR * 1e3:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
