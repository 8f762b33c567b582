"""Analog Hall sensors: one field reading per cell, told apart by thresholds.

A linear Hall sensor under each cell reads how strong the magnets above it are, so a
board can tell an empty cell, a blocking piece, a pawn, and a pawn standing on a block
apart (different magnets). On a Pi the readings come through an ADC (or the serial
microcontroller); in tests hardware.sim.SimHallMatrix provides them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple, Protocol, runtime_checkable

from hardware.base import Address


@runtime_checkable
class AnalogMatrix(Protocol):
    rows: int
    cols: int

    def read(self) -> dict[Address, float]:
        """Field readings of the addresses that read above the noise floor."""
        ...


class ValueChange(NamedTuple):
    addr: Address
    value: Hashable
    t: float


class ValueDebouncer:
    """Per-cell debouncing of classified readings: a cell's new class is reported once it
    has held for ``window_s``. Cells absent from a reading have the ``rest`` class."""

    def __init__(self, window_s: float = 0.010, rest: Hashable = None,
                 initial: dict[Address, Hashable] | None = None) -> None:
        self.window_s = window_s
        self.rest = rest
        self._state: dict[Address, Hashable] = dict(initial or {})
        self._since: dict[Address, tuple[Hashable, float]] = {}

    def update(self, values: dict[Address, Hashable], now: float) -> list[ValueChange]:
        rest, state = self.rest, self._state
        differ = {a: v for a, v in values.items() if state.get(a, rest) != v}
        for addr in state:
            if addr not in values and state[addr] != rest:
                differ[addr] = rest
        for addr in [a for a, (v, _) in self._since.items() if differ.get(a, state.get(a)) != v]:
            del self._since[addr]  # went back, or on to another class: start again
        changes = []
        for addr, value in differ.items():
            _, since = self._since.setdefault(addr, (value, now))
            if now - since >= self.window_s - 1e-9:
                del self._since[addr]
                if value == rest:
                    state.pop(addr, None)
                else:
                    state[addr] = value
                changes.append(ValueChange(addr, value, now))
        changes.sort(key=lambda c: c.addr)
        return changes

    def state(self) -> dict[Address, Hashable]:
        return dict(self._state)

    def settled(self, now: float | None = None) -> bool:
        return not self._since

    def pending(self) -> frozenset[Address]:
        return frozenset(self._since)
