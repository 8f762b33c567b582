"""The board behind the serial link as the hardware interfaces: a sensor matrix, an LED
strip and a button source, all reading from one :class:`~firmware_bridge.link.Link`."""

from __future__ import annotations

from firmware_bridge.link import Link
from hardware.base import RGB, Address
from hardware.leds import MemoryStrip


class SerialMatrix:
    """``read()`` gives the closed cells as the board reported them, one board scan per
    call: changes the board saw in separate scans never merge on the host.

    The board debounces every cell itself (its hello says how long), so the host's
    debouncer can pass changes straight through.
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
