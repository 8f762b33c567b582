"""Bring-up tools for a newly built board: ``sensorboard check-wiring`` and
``sensorboard calibrate``.

check-wiring scans the matrix for a while, shows a live map of every sensor with the
layout's cell names, walks the LED chain cell by cell (so a chain wired in another order
than the layout says is obvious: the LED that lights is not under the cell named), and
ends with a report of stuck, flickering and ghosting sensors and of closed switches at
addresses no cell uses.

calibrate samples an analog (Hall sensor) board with each class of piece in turn and
prints the ``[thresholds]`` table that tells them apart, or says which classes overlap.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from hardware.backends import Hardware
from hardware.base import Address, Clock
from hardware.matrix import ghost_candidates

BURST_GAP = 0.05  # raw changes closer than this belong to one burst (a contact's bounce)
FLICKER_BLIPS = 2  # bursts that end where they began (a blip) before a sensor flickers
WALK_COLOUR = (0, 0, 120)


@dataclass
class SensorStats:
    """A placed or lifted piece makes one burst of raw changes (the bounce) ending in the
    new state; a flickering sensor makes blips: bursts that end as they began."""

    closed_scans: int = 0
    changes: int = 0
    blips: int = 0
    burst_from: bool | None = None  # the state before the current burst
    burst_last: float = 0.0
    state: bool = False

    def change(self, closed: bool, t: float) -> None:
        self.changes += 1
        if self.burst_from is not None and t - self.burst_last > BURST_GAP:
            self.end_burst()
        if self.burst_from is None:
            self.burst_from = not closed
        self.burst_last = t
        self.state = closed

    def end_burst(self) -> None:
        if self.burst_from is not None and self.burst_from == self.state:
            self.blips += 1
        self.burst_from = None


@dataclass
class WiringReport:
    scans: int = 0
    stats: dict[Address, SensorStats] = field(default_factory=dict)
    ghosts: set[Address] = field(default_factory=set)
    strays: set[Address] = field(default_factory=set)  # closed, but no cell there

    def faults(self, names: dict[Address, str]) -> list[str]:
        """One line per fault, in matrix order."""
        lines = []

        def name(a: Address) -> str:
            return f"{names.get(a, 'no cell')} [{a[0]},{a[1]}]"

        for addr in sorted(self.stats):
            s = self.stats[addr]
            if self.scans and s.closed_scans == self.scans and addr not in self.ghosts:
                lines.append(f"{name(addr)}: closed on every scan: stuck switch, a short, "
                             "or a piece left on it")
            elif s.blips >= FLICKER_BLIPS:
                lines.append(f"{name(addr)}: flickers ({s.blips} blips, {s.changes} changes): "
                             "a loose wire, or a magnet at the edge of the sensor's range")
        for addr in sorted(self.ghosts):
            lines.append(f"{name(addr)}: may be a ghost (three closed corners of a rectangle "
                         "light the fourth): fit diodes, or trust no cell listed here")
        for addr in sorted(self.strays - self.ghosts):
            lines.append(f"no cell [{addr[0]},{addr[1]}]: closed, but the layout has no "
                         "cell there: a wiring fault or a wrong row/column in the layout")
        return lines


def sensor_map(layout, closed: Iterable[Address]) -> str:
    """The matrix as text: each address with its cell name, ``#`` when closed."""
    closed = set(closed)
    names = layout.sensor_cell
    width = max([len(n) for n in names.values()] + [4]) + 2
    lines = ["     " + "".join(f"c{c:<{width - 1}}" for c in range(layout.cols))]
    for r in range(layout.rows):
        row = []
        for c in range(layout.cols):
            label = names.get((r, c), "-")
            mark = "#" if (r, c) in closed else " "
            row.append(f"{mark}{label}".ljust(width))
        lines.append(f"r{r:<3} " + "".join(row))
    return "\n".join(lines)


def check_wiring(hardware: Hardware, layout, clock: Clock, *, seconds: float,
                 out: Callable[[str], None] = print, sleep: Callable[[float], None] | None = None,
                 walk_s: float = 0.3, live: bool = True) -> WiringReport:
    """Scan for ``seconds`` (printing each change and the map), then walk the LEDs, then
    return the report. ``sleep`` waits between scans (a virtual clock's advance in tests)."""
    import time

    sleep = sleep or time.sleep
    period = hardware.config.scan_period
    names = layout.sensor_cell
    report = WiringReport()
    stats = report.stats
    previous: frozenset[Address] | None = None
    end = clock.now() + seconds
    while clock.now() < end:
        # Switches: the closed ones; Hall sensors: those reading above the noise floor.
        closed = frozenset(hardware.matrix.read())
        report.scans += 1
        for addr in closed:
            stats.setdefault(addr, SensorStats()).closed_scans += 1
        if closed != previous:
            for addr in (closed ^ previous) if previous is not None else closed:
                s = stats.setdefault(addr, SensorStats())
                now_closed = addr in closed
                if previous is None:
                    s.state = now_closed
                else:
                    s.change(now_closed, clock.now())
                    if live:
                        r, c = addr
                        out(f"{names.get(addr, 'no cell')} [{r},{c}] "
                            f"{'closed' if now_closed else 'open'}")
            if not layout.diodes and len(closed) >= 3:
                report.ghosts |= ghost_candidates(closed)
            report.strays |= {a for a in closed if a not in names}
            previous = closed
            if live:
                out(sensor_map(layout, closed))
        sleep(period)
    for s in stats.values():
        s.end_burst()
    if walk_s > 0:
        walk_leds(hardware, layout, clock, out=out, sleep=sleep, step_s=walk_s)
    return report


def walk_leds(hardware: Hardware, layout, clock: Clock, *, out: Callable[[str], None],
              sleep: Callable[[float], None], step_s: float) -> list[tuple[str, int]]:
    """Light one cell's LED at a time, in the game's cell order, saying which: a chain
    wired in another order shows at once. Returns (cell, LED index) as walked."""
    strip = hardware.strip
    walked = []
    for cell, led in sorted(layout.cell_led.items(), key=lambda item: item[1]):
        strip.fill((0, 0, 0))
        strip.set(led, WALK_COLOUR)
        strip.show()
        out(f"LED {led}: should light under {cell}")
        walked.append((cell, led))
        sleep(step_s)
    strip.fill((0, 0, 0))
    strip.show()
    return walked


# --- calibration of analog sensors ------------------------------------------------------

class CalibrationError(ValueError):
    """The samples cannot be told apart; the message names the classes that overlap."""


def sample(hardware: Hardware, cells: Iterable[Address], clock: Clock, *, scans: int,
           sleep: Callable[[float], None]) -> dict[Address, list[float]]:
    """``scans`` readings of every address in ``cells`` (0.0 where nothing is read)."""
    readings: dict[Address, list[float]] = {a: [] for a in cells}
    for _ in range(scans):
        values = hardware.matrix.read()
        for addr, seen in readings.items():
            seen.append(float(values.get(addr, 0.0)))
        sleep(hardware.config.scan_period)
    return readings


def thresholds_from(samples: dict[str, list[float]]) -> dict[str, float]:
    """Thresholds (each class's lowest reading, the lowest class from 0.0) half-way
    between neighbouring classes' samples, ordered by their medians.

    >>> thresholds_from({"empty": [0.0, 0.02], "block": [0.98, 1.04], "pawn": [2.4, 2.6]})
    {'empty': 0.0, 'block': 0.5, 'pawn': 1.72}
    """
    order = sorted(samples, key=lambda k: statistics.median(samples[k]))
    out = {order[0]: 0.0}
    for low, high in zip(order, order[1:], strict=False):
        top, bottom = max(samples[low]), min(samples[high])
        if top >= bottom:
            raise CalibrationError(
                f"cannot tell {low} from {high}: {low} reads up to {top:.3f}, {high} from "
                f"{bottom:.3f}; use magnets further apart in strength, or mount the sensors "
                "closer to the pieces")
        out[high] = round((top + bottom) / 2, 3)
    return out


def thresholds_toml(thresholds: dict[str, float]) -> str:
    lines = ["[thresholds]  # class = the lowest reading of that class (sensorboard calibrate)"]
    lines += [f'"{name}" = {value}' for name, value in thresholds.items()]
    return "\n".join(lines)


def example_stacks(layout) -> dict[str, list[float]]:
    """For a simulated board: magnet strengths (one piece, or two stacked) that make each
    threshold class, from the layout's own magnets."""
    from boards.sensing import classify

    strengths = sorted(set(layout.magnets.values()))
    stacks = [[]] + [[s] for s in strengths] + [[a, b] for a in strengths for b in strengths
                                               if a <= b]
    found: dict[str, list[float]] = {}
    for stack in stacks:
        found.setdefault(classify(sum(stack), layout.thresholds), stack)
    return found


def calibrate(hardware: Hardware, layout, clock: Clock, *, scans: int,
              ask: Callable[[str], None], sleep: Callable[[float], None],
              out: Callable[[str], None] = print) -> dict[str, float]:
    """Sample every cell with each class of piece in turn and return the thresholds.

    On a board with simulated magnets the pieces are put down here; on a real one
    ``ask`` tells the person what to put down and waits for them.
    """
    addrs = sorted(layout.sensor_cell)
    classes = sorted(layout.thresholds, key=layout.thresholds.__getitem__)
    stacks = example_stacks(layout) if hardware.magnets is not None else {}
    samples: dict[str, list[float]] = {}
    empty: dict[Address, float] = {}
    for kind in classes:
        if hardware.magnets is not None:
            stack = stacks.get(kind)
            if stack is None:
                out(f"calibrate: no piece of this layout reads as {kind}; skipped")
                continue
            for addr in addrs:
                for strength in stack:
                    hardware.magnets.place(addr, strength)
        elif kind == classes[0]:
            ask(f"take every piece off the board (class {kind}), then press Enter")
        else:
            ask(f"put pieces that read as {kind} on a few cells (the more the better), "
                "then press Enter")
        readings = sample(hardware, addrs, clock, scans=scans, sleep=sleep)
        if kind == classes[0]:
            empty = {a: statistics.median(v) for a, v in readings.items()}
            values = [x for v in readings.values() for x in v]
        else:
            spread = max((max(v) - min(v) for v in readings.values()), default=0.0)
            moved = [v for a, v in readings.items()
                     if abs(statistics.median(v) - empty.get(a, 0.0)) > 2 * spread + 0.05]
            if not moved:
                raise CalibrationError(f"no cell read differently with {kind} pieces than "
                                       "empty; were they put down?")
            values = [x for v in moved for x in v]
        samples[kind] = values
        out(f"{kind}: {len(values)} readings from {min(values):.3f} to {max(values):.3f}")
        if hardware.magnets is not None:
            for addr in addrs:
                for _ in stacks.get(kind, []):
                    hardware.magnets.lift(addr)
    return thresholds_from(samples)


def run_bringup(args, layout) -> int:
    """``sensorboard check-wiring`` / ``sensorboard calibrate`` on the configured backend.
    check-wiring exits 1 when it found a fault, calibrate when classes overlap."""
    import sys
    import time

    from hardware.backends import HardwareConfig, open_backend
    from hardware.clock import RealClock

    clock = RealClock()
    hardware = open_backend(args.backend, layout, args.hardware or HardwareConfig(), clock)
    try:
        if args.command == "calibrate":
            if layout.sensor != "analog":
                print(f"sensorboard: {layout.path}: calibrate is for analog (Hall) sensors; "
                      "this layout's switches need no thresholds", file=sys.stderr)
                return 2

            def ask(text: str) -> None:
                print(text, flush=True)
                sys.stdin.readline()

            try:
                thresholds = calibrate(hardware, layout, clock, scans=args.scans, ask=ask,
                                       sleep=time.sleep)
            except CalibrationError as e:
                print(f"sensorboard: calibrate: {e}", file=sys.stderr)
                return 1
            print(f"# paste into {layout.path} in place of its [thresholds] table")
            print(thresholds_toml(thresholds))
            return 0
        print(f"sensorboard: watching the {layout.rows}x{layout.cols} matrix of {layout.name} "
              f"for {args.seconds:g} s: put a piece on each cell and lift it again; "
              "Ctrl-C stops", flush=True)
        print(sensor_map(layout, ()), flush=True)
        try:
            report = check_wiring(hardware, layout, clock, seconds=args.seconds,
                                  walk_s=args.walk)
        except KeyboardInterrupt:
            return 130
        faults = report.faults(layout.sensor_cell)
        never = [c for a, c in sorted(layout.sensor_cell.items()) if a not in report.stats]
        print(f"checked {report.scans} scans of {len(layout.sensor_cell)} sensors")
        if never:
            print(f"never closed: {', '.join(never)} (put a piece on each to test it)")
        for line in faults:
            print(f"fault: {line}")
        print("no faults found" if not faults else f"{len(faults)} fault(s) found")
        return 1 if faults else 0
    finally:
        hardware.close()
