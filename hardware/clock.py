"""Clocks: the real monotonic one and a virtual one that tests and replays advance by hand."""

from __future__ import annotations

import time


class RealClock:
    """Seconds from time.monotonic()."""

    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """A clock that only moves when told to; starts at 0.0."""

    def __init__(self, t: float = 0.0) -> None:
        self._t = float(t)

    def now(self) -> float:
        return self._t

    def advance(self, dt: float) -> float:
        if dt < 0:
            raise ValueError(f"cannot advance a clock by a negative amount ({dt})")
        self._t += dt
        return self._t

    def set(self, t: float) -> None:
        self._t = float(t)
