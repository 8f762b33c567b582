"""Analog Hall sensors through MCP3008 ADCs on SPI0 (adafruit-circuitpython-mcp3xxx).

Each sensor (a ratiometric linear Hall sensor such as the DRV5055 at 3.3 V) has its
own ADC channel, so there is no matrix to ghost: sensor number ``k = row * cols + col``
is channel ``k % 8`` of the chip whose chip select is ``adc_cs[k // 8]``. SPI0 is shared
(GPIO9 MISO, GPIO10 MOSI, GPIO11 SCLK); any free GPIO may be a chip select.

A reading is ``(volts - adc_zero) * adc_per_volt``: 0 with no magnet, growing with the
field. An analog layout classifies it with its thresholds; on a switch layout a cell
holds a piece from ``adc_threshold`` up. A scan costs one SPI transfer per sensor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hardware.base import Address

CHANNELS = 8
FULL_SCALE = 1023  # 10 bits
BAUDRATE = 1_000_000  # the MCP3008 converts up to 1.35 MHz at 2.7 V
NOISE_FLOOR = 0.05  # readings below this (in the layout's units) are an empty cell


def chips_needed(rows: int, cols: int) -> int:
    return -(-(rows * cols) // CHANNELS)


class Mcp3008Matrix:
    """Hall sensors on MCP3008s. ``read()`` gives ``{addr: reading}`` for the addresses
    above the noise floor (analog layouts), or with ``threshold`` set the frozenset of
    addresses at or above it (a switch layout on Hall sensors).

    >>> # from adafruit_mcp3xxx.mcp3008 import MCP3008
    >>> # sensors = Mcp3008Matrix([MCP3008(spi, cs) for cs in selects], rows=12, cols=12)
    >>> # sensors.read() -> {(0, 3): 2.47, ...}
    """

    def __init__(self, chips: Sequence[Any], rows: int, cols: int, *, zero: float = 1.65,
                 per_volt: float = 1.0, ref_volts: float = 3.3,
                 threshold: float | None = None, selects: Sequence[Any] = ()) -> None:
        if len(chips) < chips_needed(rows, cols):
            raise ValueError(f"{rows * cols} sensors need {chips_needed(rows, cols)} MCP3008s, "
                             f"{len(chips)} given")
        self.chips = list(chips)
        self.selects = list(selects)  # the chip-select pins, released by close()
        self.rows, self.cols = rows, cols
        self.threshold = threshold
        self._volts_per_count = ref_volts / FULL_SCALE
        self._zero, self._per_volt = zero, per_volt
        self._channels = [(divmod(r * cols + c, CHANNELS), (r, c))
                          for r in range(rows) for c in range(cols)]

    def readings(self) -> dict[Address, float]:
        """Every sensor's reading, the empty ones too."""
        chips, step, zero, per_volt = self.chips, self._volts_per_count, self._zero, \
            self._per_volt
        return {addr: (chips[chip].read(channel) * step - zero) * per_volt
                for (chip, channel), addr in self._channels}

    def read(self) -> dict[Address, float] | frozenset[Address]:
        values = self.readings()
        if self.threshold is not None:
            return frozenset(a for a, v in values.items() if v >= self.threshold)
        return {a: v for a, v in values.items() if v >= NOISE_FLOOR}

    def close(self) -> None:
        for pin in self.selects:
            pin.deinit()


def open_adc_matrix(layout: Any, config: Any) -> Mcp3008Matrix:
    """The layout's sensors on MCP3008s on SPI0 (raises BackendError)."""
    from adafruit_mcp3xxx.mcp3008 import MCP3008

    from hardware.backends import BackendError
    from hardware.buses import open_chip_select, open_spi

    need = chips_needed(layout.rows, layout.cols)
    if len(config.adc_cs) < need:
        raise BackendError(f"hardware.adc_cs: a {layout.rows}x{layout.cols} matrix needs "
                           f"{need} MCP3008s, one chip-select GPIO each; "
                           f"{len(config.adc_cs)} listed")
    spi = open_spi()
    selects = [open_chip_select(cs) for cs in config.adc_cs[:need]]
    chips = [MCP3008(spi, cs, baudrate=BAUDRATE) for cs in selects]
    return Mcp3008Matrix(chips, layout.rows, layout.cols, zero=config.adc_zero,
                         per_volt=config.adc_per_volt, selects=selects,
                         threshold=None if layout.sensor == "analog" else config.adc_threshold)
