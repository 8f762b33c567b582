"""The two interfaces every hardware backend implements (sim, gpio, serial)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

Address = tuple[int, int]
"""A sensor address: (row, column) in the scan matrix, both from 0."""

RGB = tuple[int, int, int]


@runtime_checkable
class Clock(Protocol):
    def now(self) -> float: ...


@runtime_checkable
class SensorMatrix(Protocol):
    rows: int
    cols: int

    def read(self) -> frozenset[Address]:
        """The (row, col) addresses whose switches are closed right now (raw, not debounced)."""
        ...


@runtime_checkable
class LedStrip(Protocol):
    n: int

    def set(self, i: int, rgb: RGB) -> None: ...

    def fill(self, rgb: RGB) -> None: ...

    def show(self) -> None:
        """Push the frame built by set()/fill() to the LEDs."""
        ...

    def shown(self) -> list[RGB]:
        """The frame last pushed by show()."""
        ...
