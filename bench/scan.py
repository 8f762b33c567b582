"""Full-matrix scan rate of GpioMatrixScanner on the simulated RPi.GPIO.

Run by hand: .venv/bin/python bench/scan.py   (prints a markdown table; no assertions)
The machine is shared and noisy, so each rate is also given relative to a plain-Python
reference measured in the same run: dict lookups, one per switch read.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.clock import VirtualClock  # noqa: E402
from hardware.matrix import GpioMatrixScanner  # noqa: E402
from hardware.sim import SimBoard, SimGPIO, default_pins  # noqa: E402

SECONDS = 2.0
TARGET_12x12 = 1000.0


def scans_per_second(rows: int, cols: int, diodes: bool) -> float:
    clock = VirtualClock()
    board = SimBoard(rows, cols, clock=clock, diodes=diodes, bounce=0.003, seed=1)
    for addr in [(0, 0), (0, 1), (1, 0), (rows - 1, cols - 1), (rows // 2, cols // 2)]:
        board.place(addr)
    row_pins, col_pins = default_pins(rows, cols)
    scanner = GpioMatrixScanner(SimGPIO(board, row_pins, col_pins), row_pins, col_pins)
    clock.advance(1.0)  # past the bounce: a board at rest, as it is most of the time
    n = 0
    start = time.perf_counter()
    end = start + SECONDS
    while True:
        for _ in range(50):
            scanner.read()
        n += 50
        now = time.perf_counter()
        if now >= end:
            return n / (now - start)


def reference_per_second(reads: int) -> float:
    """Scans per second if a scan were `reads` plain dict lookups."""
    table = {i: i & 1 for i in range(reads)}
    keys = list(range(reads))
    n = 0
    start = time.perf_counter()
    end = start + SECONDS
    while True:
        for _ in range(50):
            for k in keys:
                table[k]
        n += 50
        now = time.perf_counter()
        if now >= end:
            return n / (now - start)


def main() -> None:
    u = platform.uname()
    print(f"# scan bench, {datetime.datetime.now().isoformat(timespec='seconds')}\n")
    print(f"- machine: {u.system} {u.release} {u.machine}, processor "
          f"{platform.processor() or '?'}, {os.cpu_count()} CPUs")
    print(f"- python {platform.python_version()}; {SECONDS:.0f} s per measurement\n")
    print("| matrix | diodes | scans/s | reference scans/s (dict lookups) | ratio |")
    print("|---|---|---:|---:|---:|")
    for rows, cols in [(7, 6), (12, 12)]:
        ref = reference_per_second(rows * cols)
        for diodes in (True, False):
            rate = scans_per_second(rows, cols, diodes)
            print(f"| {rows}x{cols} | {'on' if diodes else 'off'} | {rate:,.0f} | "
                  f"{ref:,.0f} | {rate / ref:.3f} |")
            if (rows, cols) == (12, 12) and rate < TARGET_12x12:
                print(f"|  | | below the {TARGET_12x12:,.0f}/s target | | |")


if __name__ == "__main__":
    main()
