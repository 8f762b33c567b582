"""The interfaces every hardware backend implements (sim, gpio, serial, ...): a sensor
matrix, an LED strip and a button source. hardware.backends opens them by name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol, runtime_checkable

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

    def set_many(self, leds: Iterable[tuple[int, RGB]]) -> None:
        """set() each LED of ``leds`` (index, colour)."""
        ...

    def fill(self, rgb: RGB) -> None: ...

    def show(self) -> None:
        """Push the frame built by set()/fill() to the LEDs."""
        ...

    def shown(self) -> list[RGB]:
        """The frame last pushed by show()."""
        ...

    def close(self) -> None:
        """Release the LEDs' pin or bus."""
        ...


class Press(NamedTuple):
    """A button press: ``button`` is one of the tracker's buttons (clock, hint, takeback);
    ``player`` names the side of a per-player clock button, None for a shared button."""

    button: str
    player: str | None = None


@runtime_checkable
class ButtonSource(Protocol):
    def poll(self, now: float) -> list[Press]:
        """The presses completed since the last poll (debounced), oldest first."""
        ...

    def settled(self) -> bool:
        """True when no button is between two states."""
        ...
