"""The board behind the serial link as the hardware interfaces: a sensor matrix, an LED
strip and a button source, all reading from one :class:`~firmware_bridge.link.Link`."""

from __future__ import annotations

from collections import deque

from firmware_bridge.link import Link, Step
from hardware.base import RGB, Address, Press
from hardware.leds import MemoryStrip


class SerialMatrix:
    """``read()`` gives the closed cells as the board reported them. Everything that has
    arrived is handed over at once, except that a cell never changes twice in one read:
    a piece lifted and put back between two host scans is read as a lift, then a place.

    The board debounces every cell itself (its hello says how long), so the host's
    debouncer can pass changes straight through (``Hardware.debounce_s = 0``).
    """

    def __init__(self, link: Link, rows: int, cols: int) -> None:
        self.link = link
        self.rows = rows
        self.cols = cols
        self._closed: frozenset[Address] = frozenset()
        self._waiting: deque[Step] = deque()

    def read(self) -> frozenset[Address]:
        while (step := self.link.next_step()) is not None:
            self._waiting.append(step)
        closed = set(self._closed)
        touched: set[Address] = set()
        while self._waiting:
            step = self._waiting[0]
            if step.snapshot is not None:
                after = set(step.snapshot)
            else:
                after = set(closed)
                for addr, shut in step.changes.items():
                    (after.add if shut else after.discard)(addr)
            moved = after ^ closed
            if moved & touched:
                break
            touched |= moved
            closed = after
            self._waiting.popleft()
        self._closed = frozenset(closed)
        return self._closed

    def close(self) -> None:
        self.link.close()


class SerialStrip(MemoryStrip):
    """The board's NeoPixels: ``show()`` sends the frame; the link repeats it until the
    board acknowledges. ``shown()`` is the frame last pushed; ``acked()`` the one the board
    confirmed."""

    def __init__(self, link: Link, n: int) -> None:
        super().__init__(n)
        self.link = link

    def show(self) -> None:
        super().show()
        self.link.show(self.shown())

    def acked(self) -> list[RGB] | None:
        return self.link.acked_frame()


def press_of(name: str) -> Press:
    """A button name from the board's hello as a press: ``clock`` or ``clock:red``."""
    button, _, player = name.partition(":")
    return Press(button, player or None)


class SerialButtons:
    """The board's buttons (it debounces them): each press once, oldest first."""

    def __init__(self, link: Link) -> None:
        self.link = link

    def poll(self, now: float) -> list[Press]:
        return [press_of(name) for name in self.link.presses()]

    def settled(self) -> bool:
        return True
