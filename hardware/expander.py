"""The switch matrix on MCP23017 I2C expanders (adafruit-circuitpython-mcp230xx).

For a board with more sensors than the Pi has pins: each MCP23017 gives 16 pins on the
I2C bus (GPIO2 SDA, GPIO3 SCL), up to eight chips at 0x20..0x27. The expanders' pins
are numbered in order, GPA0..GPA7 then GPB0..GPB7 of the first chip, then the next
chip's: the matrix rows take the first pins, the columns the ones after.

The chip has pull-ups but no pull-downs, so the scan runs the other way round from the
Pi's: the rows are inputs pulled up, and each column in turn is driven LOW while the
rows are read. With the board's diodes (anode at the row, as for the Pi's own pins) a
closed switch lets a row's pull-up sink into the driven column: the row reads LOW.
Undriven columns are inputs (high-Z), so a matrix without diodes ghosts exactly as it
does on the Pi's pins.

One scan costs, per column, one 16-bit write of the direction register (IODIR, which
also lets the previous column go) and one 16-bit read of the ports (GPIO) of each chip
holding rows: 13 I2C transfers for a 7x6 matrix on one chip, 26 for 12x12 on two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hardware.base import Address

PINS_PER_CHIP = 16
FIRST_ADDRESS = 0x20


def chips_needed(rows: int, cols: int) -> int:
    return -(-(rows + cols) // PINS_PER_CHIP)


def expander_addresses(rows: int, cols: int, configured: Sequence[int]) -> tuple[int, ...]:
    """The chips' I2C addresses: the configured ones, else consecutive from 0x20.

    Raises ValueError naming how many chips the matrix needs when too few are listed."""
    need = chips_needed(rows, cols)
    if not configured:
        if need > 8:
            raise ValueError(f"a {rows}x{cols} matrix needs {need} MCP23017s; "
                             "eight fit on one I2C bus")
        return tuple(range(FIRST_ADDRESS, FIRST_ADDRESS + need))
    if len(configured) < need:
        raise ValueError(f"expanders: a {rows}x{cols} matrix needs {need} MCP23017s "
                         f"({rows + cols} pins), {len(configured)} listed")
    return tuple(configured[:need])


class Mcp23017Matrix:
    """A rows x cols switch matrix on MCP23017s, through the Adafruit driver.

    >>> # from adafruit_mcp230xx.mcp23017 import MCP23017
    >>> # matrix = Mcp23017Matrix([MCP23017(i2c, 0x20)], rows=7, cols=6)
    >>> # matrix.read() -> frozenset({(0, 3), ...})
    """

    def __init__(self, chips: Sequence[Any], rows: int, cols: int) -> None:
        if len(chips) < chips_needed(rows, cols):
            raise ValueError(f"{rows + cols} matrix pins need {chips_needed(rows, cols)} "
                             f"chips, {len(chips)} given")
        self.chips = list(chips)
        self.rows, self.cols = rows, cols
        row_bits: list[int] = [0] * len(chips)
        self._rows: list[tuple[int, int, int]] = []  # (chip, bit mask, row)
        self._cols: list[tuple[int, int]] = []  # (chip, bit mask)
        for k in range(rows + cols):
            chip, bit = divmod(k, PINS_PER_CHIP)
            if k < rows:
                self._rows.append((chip, 1 << bit, k))
                row_bits[chip] |= 1 << bit
            else:
                self._cols.append((chip, 1 << bit))
        self._row_chips = sorted({chip for chip, _, _ in self._rows})
        self._iodir = [0xFFFF] * len(chips)  # every pin an input (high-Z) between drives
        for chip, mcp in zip(range(len(chips)), self.chips, strict=True):
            mcp.iodir = 0xFFFF
            mcp.ipol = 0x0000
            mcp.gppu = row_bits[chip]  # rows pulled up; columns float until driven
            mcp.gpio = 0x0000  # the output latches: a column set to output drives LOW

    def read(self) -> frozenset[Address]:
        chips, iodir, rows = self.chips, self._iodir, self._rows
        closed: list[Address] = []
        driving = None  # the chip whose direction register drives a column now
        for c, (chip, mask) in enumerate(self._cols):
            if driving is not None and driving != chip:
                chips[driving].iodir = iodir[driving]
            chips[chip].iodir = iodir[chip] & ~mask  # this column LOW, the last one high-Z
            driving = chip
            levels = {k: chips[k].gpio for k in self._row_chips}
            closed.extend((r, c) for k, bit, r in rows if not levels[k] & bit)
        if driving is not None:
            chips[driving].iodir = iodir[driving]
        return frozenset(closed)

    def close(self) -> None:
        """Every pin back to an input without pull-up (the chip's reset state)."""
        for mcp in self.chips:
            mcp.iodir = 0xFFFF
            mcp.gppu = 0x0000


def open_expander_matrix(layout: Any, config: Any) -> Mcp23017Matrix:
    """The layout's matrix on MCP23017s on the Pi's I2C bus (raises BackendError)."""
    from adafruit_mcp230xx.mcp23017 import MCP23017

    from hardware.backends import BackendError
    from hardware.buses import open_i2c

    try:
        addresses = expander_addresses(layout.rows, layout.cols, config.expanders)
    except ValueError as e:
        raise BackendError(f"{layout.path}: {e}") from None
    i2c = open_i2c()
    chips = []
    for address in addresses:
        try:
            chips.append(MCP23017(i2c, address=address))
        except (ValueError, OSError):
            raise BackendError(
                f"I2C: no MCP23017 answers at {address:#04x}; check its power, SDA/SCL "
                "wiring and A0-A2 address pins (i2cdetect -y 1 lists what answers)") from None
    return Mcp23017Matrix(chips, layout.rows, layout.cols)
