"""The switch-matrix scanner on lgpio's group calls: one read per row for all columns.

Where lgpio is installed (it comes with rpi-lgpio on every Pi) a 12x12 scan with diodes
costs 24 library calls instead of the per-pin path's 168 RPi.GPIO calls (hardware.matrix):

* columns are one input group (pulled down): ``group_read`` returns every column's level
  as the bits of one integer;
* with diodes the rows are one output group, all LOW but the one driven HIGH: moving to
  the next row is one ``group_write`` and no pin is ever reconfigured (a LOW row cannot
  sink current through a diode pointing away from it);
* without diodes an undriven row must float (high-Z), so each row is claimed as an
  output, read, and set back to an input: still one column read per row.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hardware.base import Address
from hardware.matrix import busy_wait, check_pins

USER_GPIO_DRIVERS = frozenset(("raspberrypi,rp1-gpio", "raspberrypi,bcm2835-gpio",
                               "raspberrypi,bcm2711-gpio"))


def gpiochip_number() -> int:
    """The gpiochip carrying the header pins: $RPI_LGPIO_CHIP, else the chip whose driver
    is the Pi's (gpiochip4 on a Pi 5 with older kernels, gpiochip0 elsewhere), else 0."""
    if "RPI_LGPIO_CHIP" in os.environ:
        return int(os.environ["RPI_LGPIO_CHIP"])
    for dev in sorted(Path("/sys/bus/gpio/devices").glob("gpiochip*")):
        try:
            drivers = set((dev / "of_node/compatible").read_text().split("\0"))
        except OSError:
            continue
        if drivers & USER_GPIO_DRIVERS:
            return int(dev.name[len("gpiochip"):])
    return 0


class LgpioMatrixScanner:
    """Reads a rows x cols switch matrix through ``lgpio`` group calls.

    >>> # scanner = LgpioMatrixScanner(lgpio, gpiochip_number(), rows, cols, diodes=True)
    >>> # scanner.read() -> frozenset({(0, 3), ...}); scanner.close()
    """

    def __init__(
        self,
        lgpio: Any,
        chip: int,
        row_pins: Sequence[int],
        col_pins: Sequence[int],
        *,
        diodes: bool = True,
        settle_s: float = 0.0,
        pull: str = "down",
    ) -> None:
        check_pins(row_pins, col_pins)
        self.lgpio = lgpio
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self.rows, self.cols = len(self.row_pins), len(self.col_pins)
        self.diodes = diodes
        self.settle_s = settle_s
        self.handle = lgpio.gpiochip_open(chip)
        pull_flag = lgpio.SET_PULL_DOWN if pull == "down" else lgpio.SET_PULL_NONE
        try:
            lgpio.group_claim_input(self.handle, list(self.col_pins), pull_flag)
            if diodes:
                lgpio.group_claim_output(self.handle, list(self.row_pins), [0] * self.rows)
            else:
                for pin in self.row_pins:
                    lgpio.gpio_claim_input(self.handle, pin, lgpio.SET_PULL_NONE)
        except BaseException:
            lgpio.gpiochip_close(self.handle)
            raise
        self._masks = [(r, 1 << r) for r in range(self.rows)]
        self._bits = [tuple(c for c in range(self.cols) if b >> c & 1)
                      for b in range(1 << self.cols)] if self.cols <= 12 else None

    def read(self) -> frozenset[Address]:
        lg, h = self.lgpio, self.handle
        col_leader, row_leader = self.col_pins[0], self.row_pins[0]
        group_read = lg.group_read
        settle = self.settle_s
        closed: list[Address] = []
        for r, mask in self._masks:
            if self.diodes:
                lg.group_write(h, row_leader, mask)
            else:
                lg.gpio_claim_output(h, self.row_pins[r], 1)
            if settle > 0:
                busy_wait(settle)
            bits = group_read(h, col_leader)[1]
            if not self.diodes:
                lg.gpio_free(h, self.row_pins[r])
                lg.gpio_claim_input(h, self.row_pins[r], lg.SET_PULL_NONE)
            if bits:
                cols = self._bits[bits] if self._bits is not None else [
                    c for c in range(self.cols) if bits >> c & 1]
                closed.extend((r, c) for c in cols)
        return frozenset(closed)

    def close(self) -> None:
        """Leave every matrix pin an input without pulls, and release the chip."""
        lg, h = self.lgpio, self.handle
        if self.diodes:
            lg.group_free(h, self.row_pins[0])
        else:
            for pin in self.row_pins:
                lg.gpio_free(h, pin)
        lg.group_free(h, self.col_pins[0])
        for pin in self.row_pins + self.col_pins:
            lg.gpio_claim_input(h, pin, lg.SET_PULL_NONE)
            lg.gpio_free(h, pin)
        lg.gpiochip_close(h)
