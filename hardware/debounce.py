"""Per-cell debouncing of raw matrix readings into stable changes."""

from __future__ import annotations

from typing import NamedTuple

from hardware.base import Address

_EPS = 1e-9  # scan times built by adding 0.002 repeatedly drift by a few ulps


class Change(NamedTuple):
    addr: Address
    closed: bool
    t: float  # when the change was reported (the scan that confirmed it)


class Debouncer:
    """Reports a cell's change once its raw state has stayed different from the reported
    state for `window_s` seconds; a bounce back to the reported state restarts the wait.

    Every cell starts open. With scans every P seconds a clean change is reported within
    window_s + P of the last bounce.
    """

    def __init__(self, window_s: float = 0.010) -> None:
        if window_s < 0:
            raise ValueError(f"window_s must be >= 0, got {window_s}")
        self.window_s = window_s
        self._state: set[Address] = set()
        self._since: dict[Address, float] = {}  # cell -> first scan of its unbroken difference

    def update(self, raw: frozenset[Address], now: float) -> list[Change]:
        differ = raw.symmetric_difference(self._state)
        for addr in [a for a in self._since if a not in differ]:
            del self._since[addr]  # bounced back before the window ran out
        changes: list[Change] = []
        for addr in differ:
            since = self._since.setdefault(addr, now)
            if now - since >= self.window_s - _EPS:
                del self._since[addr]
                closed = addr in raw
                if closed:
                    self._state.add(addr)
                else:
                    self._state.discard(addr)
                changes.append(Change(addr, closed, now))
        changes.sort()
        return changes

    def state(self) -> frozenset[Address]:
        """The debounced closed cells."""
        return frozenset(self._state)

    def pending(self) -> frozenset[Address]:
        """Cells whose raw state differs from the reported one, not yet long enough."""
        return frozenset(self._since)

    def settled(self, now: float | None = None) -> bool:
        """True when no change is pending (`now` is accepted for symmetry and unused)."""
        return not self._since
