"""``sensorboard bench``: measure a board where it stands (on a Pi, the real one).

Times full scans of the matrix, counts the GPIO-library calls of one scan, and runs the
service's loop idle for a while, comparing its CPU with a bare loop waking at the same
rate (reading the matrix and nothing else) measured just before it, and the CPU time
from a sensor change to its LED frame on seeded games (sensorboard.latency; on the
simulated board of the same layout, as the pieces cannot move by themselves). Nothing
is recorded; the LEDs stay dark.
"""

from __future__ import annotations

import platform
import time
from collections import Counter
from pathlib import Path

from hardware.clock import RealClock


class Counting:
    """A stand-in for a module that counts the calls made through it."""

    def __init__(self, module) -> None:
        self._module = module
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str):
        value = getattr(self._module, name)
        if not callable(value) or isinstance(value, type):
            return value

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return value(*args, **kwargs)

        return counted


def count_calls(matrix) -> int | None:
    """GPIO-library calls of one scan (the lgpio module or the RPi.GPIO one)."""
    for attr in ("lgpio", "gpio"):
        module = getattr(matrix, attr, None)
        if module is not None:
            counting = Counting(module)
            setattr(matrix, attr, counting)
            try:
                matrix.read()
            finally:
                setattr(matrix, attr, module)
            return sum(counting.calls.values())
    return None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def idle_share(step, period: float, seconds: float) -> tuple[float, list[float]]:
    """CPU share of one core of a loop calling ``step`` every ``period`` for ``seconds``,
    and the time each step took."""
    took = []
    c0, t0 = time.process_time(), time.monotonic()
    end = t0 + seconds
    while True:
        start = time.monotonic()
        if start >= end:
            break
        step()
        took.append(time.monotonic() - start)
        time.sleep(max(0.0, period - (time.monotonic() - start)))
    return (time.process_time() - c0) / (time.monotonic() - t0), took


def machine() -> str:
    model = Path("/proc/device-tree/model")
    name = model.read_text().rstrip("\0") if model.exists() else platform.machine()
    return f"{name}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}"


def run_bench(args, layout) -> int:
    from sensorboard.board import BoardOptions, open_board

    board = open_board(BoardOptions(layout.game, layout=layout, backend=args.backend,
                                    hardware=args.hardware, clock=RealClock()))
    service, hardware = board.service, board.service.hardware
    try:
        period = service.scan_period
        print(f"sensorboard bench: {layout.name} ({layout.rows}x{layout.cols}) on the "
              f"{args.backend} backend; {machine()}")
        calls = count_calls(hardware.matrix) if layout.sensor == "binary" else None
        scans = []
        for _ in range(args.scans):
            start = time.perf_counter()
            hardware.matrix.read()
            scans.append(time.perf_counter() - start)
        print(f"scan: {1e6 * sum(scans) / len(scans):.0f} us mean, "
              f"{1e6 * percentile(scans, 0.99):.0f} us p99 over {len(scans)} scans"
              + (f"; {calls} GPIO-library calls per scan" if calls is not None else ""))
        bare, _ = idle_share(hardware.matrix.read, period, args.seconds)
        share, took = idle_share(service.step, period, args.seconds)
        ratio = share / max(bare, 1e-9)
        print(f"idle: the service loop uses {share:.1%} of a core; a bare loop reading the "
              f"matrix every {period * 1000:g} ms {bare:.1%} (ratio {ratio:.2f}); "
              f"step p99 {1e6 * percentile(took, 0.99):.0f} us over {len(took)} steps")
    finally:
        board.close()
    if args.games > 0:
        from sensorboard.latency import change_to_frame, reference_seconds

        ref = reference_seconds()
        samples = change_to_frame(layout, games=args.games)
        p99 = percentile(samples, 0.99)
        print(f"sensor change -> LED frame: {1e3 * percentile(samples, 0.5):.2f} ms p50, "
              f"{1e3 * p99:.2f} ms p99 over {len(samples)} changes ({args.games} games); "
              f"reference {1e3 * ref:.2f} ms, p99 / reference {p99 / ref:.1f} "
              "(docs/performance.md has this machine's figures to compare)")
    return 0
