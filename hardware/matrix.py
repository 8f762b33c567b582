"""The per-pin switch-matrix scanner, written against the RPi.GPIO API (rpi-lgpio on every
Pi, the classic RPi.GPIO where lgpio is missing, hardware.sim.SimGPIO in tests). Where
lgpio is present hardware.lgpio_matrix reads a whole row in one call instead."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from hardware.base import Address


class GpioMatrixScanner:
    """Reads a rows x cols switch matrix: rows driven one at a time, columns pulled down.

    Between drives every row is an input (high-Z), so an undriven row never sources or
    sinks current through a closed switch. `settle_s` is waited after driving a row, for the
    column lines to charge on real wiring (a few microseconds); 0 means no wait.
    """

    def __init__(
        self,
        gpio: Any,
        row_pins: Sequence[int],
        col_pins: Sequence[int],
        *,
        settle_s: float = 0.0,
        pull: str = "down",
    ) -> None:
        check_pins(row_pins, col_pins)
        self.gpio = gpio
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self.rows = len(self.row_pins)
        self.cols = len(self.col_pins)
        self.settle_s = settle_s
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        col_pull = gpio.PUD_DOWN if pull == "down" else gpio.PUD_OFF  # "off": resistors fitted
        for pin in self.col_pins:
            gpio.setup(pin, gpio.IN, pull_up_down=col_pull)
        for pin in self.row_pins:
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_OFF)

    def read(self) -> frozenset[Address]:
        gpio = self.gpio
        setup, read_pin = gpio.setup, gpio.input
        out, high, inp, off = gpio.OUT, gpio.HIGH, gpio.IN, gpio.PUD_OFF
        cols, settle = tuple(enumerate(self.col_pins)), self.settle_s
        closed: list[Address] = []
        add = closed.append  # (a plain loop: a generator per row costs more than its reads)
        for r, row_pin in enumerate(self.row_pins):
            setup(row_pin, out, initial=high)
            try:
                if settle > 0:
                    busy_wait(settle)
                for c, col_pin in cols:
                    if read_pin(col_pin):
                        add((r, c))
            finally:
                setup(row_pin, inp, pull_up_down=off)
        return frozenset(closed)

    def close(self) -> None:
        """Release the matrix pins (the rest of the GPIO state is left alone)."""
        self.gpio.cleanup(list(self.row_pins + self.col_pins))

    def __enter__(self) -> GpioMatrixScanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def ghost_candidates(closed: Iterable[Address]) -> frozenset[Address]:
        return ghost_candidates(closed)


def ghost_candidates(closed: Iterable[Address]) -> frozenset[Address]:
    """The closed addresses a diode-less matrix might be showing falsely.

    (r, c) is a candidate when r and c stay connected through the *other* closed contacts
    (the fourth corner of a rectangle, or of any longer loop): then current can reach column
    c from row r without that switch, so it would read closed either way. With three real
    magnets on three corners all four corners are candidates: the scan cannot tell which
    one is false.
    """
    edges = set(closed)
    adj: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for r, c in edges:
        adj.setdefault(("r", r), set()).add(("c", c))
        adj.setdefault(("c", c), set()).add(("r", r))
    found = set()
    for r, c in edges:
        start, goal = ("r", r), ("c", c)
        seen = {start}
        todo = [start]
        while todo:
            node = todo.pop()
            for nxt in adj[node]:
                if (node == start and nxt == goal) or nxt in seen:
                    continue  # the switch under test itself does not count
                if nxt == goal:
                    found.add((r, c))
                    todo.clear()
                    break
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(found)


def check_pins(row_pins: Sequence[int], col_pins: Sequence[int]) -> None:
    if not row_pins or not col_pins:
        raise ValueError("a matrix needs at least one row pin and one column pin")
    pins = list(row_pins) + list(col_pins)
    if len(set(pins)) != len(pins):
        raise ValueError(f"a pin is used twice in rows {row_pins} / columns {col_pins}")


def busy_wait(seconds: float) -> None:
    # time.sleep() cannot wait a few microseconds: the kernel rounds it up to ~60 us or more.
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
