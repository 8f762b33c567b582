"""What a board's sensors show: one scan as the debouncer should take it, and the
board's first stable reading at boot.

A binary matrix reads the closed addresses; on a matrix without diodes, the cells that
ghosting could be faking keep what the tracker last saw there and are reported as
unreadable, never turned into pieces. An analog board reads each address's class
(:func:`boards.sensing.classify`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from boards.layout import Layout
from boards.sensing import classify
from hardware.analog import ValueDebouncer
from hardware.debounce import Debouncer
from hardware.matrix import ghost_candidates

BOOT_SCANS = 1000  # at most this many scans to a stable first reading


class Sensors:
    """The scans of one board's ``scanner``; ``unreadable``: the cells a diode-less
    matrix cannot read right now."""

    def __init__(self, layout: Layout, scanner) -> None:
        self.layout = layout
        self.scanner = scanner
        self.analog = layout.sensor == "analog"
        self.addr_cell = layout.sensor_cell
        self.unreadable: frozenset[str] = frozenset()
        self.read_at = float("-inf")  # the time of the last scan
        self._raw: object = None
        self._trusted: object = None

    def read(self, now: float, current: Mapping[str, object]):
        """One scan: closed addresses (binary) or each address's class (analog).
        ``current``: what the tracker last saw on each cell, kept where ghosts may be."""
        self.read_at = now
        if self.analog:
            thresholds, cells = self.layout.thresholds, self.addr_cell
            return {a: classify(v, thresholds) for a, v in self.scanner.read().items()
                    if a in cells}
        raw = self.scanner.read()
        if self.layout.diodes:
            return raw
        if raw != self._raw:
            self._raw = raw
            ghosts = ghost_candidates(raw) if len(raw) >= 3 else frozenset()
            self.unreadable = frozenset(self.addr_cell[a] for a in ghosts
                                        if a in self.addr_cell)
            seen = {a for a in ghosts if a in self.addr_cell and current[self.addr_cell[a]]}
            self._trusted = (raw - ghosts) | seen
        return self._trusted

    def differing(self, seen, current: Mapping[str, object],
                  rest: object) -> list[tuple[str, object]]:
        """The cells whose debounced reading ``seen`` differs from ``current``
        (``rest``: an analog cell's class with nothing on it)."""
        out = []
        for addr, cell in self.addr_cell.items():
            value = seen.get(addr, rest) if self.analog else addr in seen
            if current[cell] != value:
                out.append((cell, value))
        return out


def settle(read: Callable[[float], object], debouncer: Debouncer | ValueDebouncer,
           start: float, period: float) -> None:
    """Scan every ``period`` from ``start`` until the debouncer has been settled for a
    whole window (at most :data:`BOOT_SCANS` scans)."""
    now = start
    for _ in range(BOOT_SCANS):
        debouncer.update(read(now), now)
        if debouncer.settled() and now - start >= debouncer.window_s:
            return
        now += period
