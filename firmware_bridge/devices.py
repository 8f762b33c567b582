"""The board behind the serial link as the hardware interfaces: a sensor matrix, an LED
strip and a button source, all reading from one :class:`~firmware_bridge.link.Link`."""

from __future__ import annotations

from firmware_bridge.link import Link
from hardware.base import RGB, Address, Press
from hardware.leds import MemoryStrip


class SerialMatrix:
    """``read()`` gives the closed cells as the board reported them, one scan of the board
    per call: changes the board saw at different times reach the host in different reads,
    in their order (a piece lifted and put back is a lift, then a place), however late
    they arrive. The host reads every 2 ms and the board reports at most one scan per
    2 ms, so a backlog (after a resend) drains at once.

    The board debounces every cell itself (its hello says how long), so the host's
    debouncer passes changes straight through (the backend sets ``debounce`` to 0).
    """

    def __init__(self, link: Link, rows: int, cols: int) -> None:
        self.link = link
        self.rows = rows
        self.cols = cols
        self._closed: frozenset[Address] = frozenset()

    def read(self) -> frozenset[Address]:
        step = self.link.next_step()
        if step is not None:
            if step.snapshot is not None:
                self._closed = step.snapshot
            else:
                closed = set(self._closed)
                for addr, shut in step.changes.items():
                    (closed.add if shut else closed.discard)(addr)
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
