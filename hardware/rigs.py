"""Rigs: the simulated world each backend runs against in tests and on a desk.

A rig makes its backend openable without the real hardware, then lets a test move
magnets (``rig.board``), press buttons (``rig.press``) and see the LEDs (``rig.leds()``)
as a person at the board would. See :class:`hardware.backends.BackendSpec`.

>>> # with GpioRig(layout, clock) as rig:
>>> #     hw = open_backend("gpio", layout, rig.config, clock); rig.attach(hw)
>>> #     rig.board.place((0, 0)); hw.matrix.read() -> frozenset({(0, 0)})
"""

from __future__ import annotations

import os
from typing import Any

from hardware import sim
from hardware.backends import Hardware, HardwareConfig
from hardware.base import RGB, Clock, Press


class SimRig:
    """The ``sim`` backend brings its own simulated board; the rig only reaches into it."""

    def __init__(self, layout: Any, clock: Clock) -> None:
        self.layout = layout
        self.clock = clock
        self.config = HardwareConfig()
        self.hardware: Hardware | None = None
        self.board: sim.SimBoard | None = None

    def __enter__(self) -> SimRig:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def attach(self, hardware: Hardware) -> None:
        self.hardware = hardware
        if hardware.magnets is not None:
            self.board = hardware.magnets

    def press(self, button: str, player: str | None = None, down: bool = True) -> None:
        """Hold the button down (or let it go)."""
        assert self.hardware is not None and self.hardware.buttons is not None
        buttons = self.hardware.buttons
        pin = buttons.pins[Press(button, player)]  # type: ignore[attr-defined]
        gpio = buttons.gpio  # type: ignore[attr-defined]
        gpio.set_input(pin, gpio.LOW if down else gpio.HIGH)

    def leds(self) -> list[RGB]:
        assert self.hardware is not None
        return self.hardware.strip.shown()


class GpioRig(SimRig):
    """A simulated RPi.GPIO (fake-rpi extended into the matrix's electrical model)
    installed as ``RPi.GPIO``, and the NeoPixel library on Blinka's OS-agnostic board."""

    def __init__(self, layout: Any, clock: Clock, *, bounce: float = 0.003,
                 seed: int = 0) -> None:
        super().__init__(layout, clock)
        self.board = sim.SimBoard(layout.rows, layout.cols, clock=clock, diodes=layout.diodes,
                                  bounce=bounce, seed=seed)
        self.gpio = sim.SimGPIO(self.board, layout.row_pins, layout.col_pins)
        self.config = HardwareConfig(led_pin="NEOPIXEL", settle_s=0.0)
        self._env: str | None = None

    def __enter__(self) -> GpioRig:
        self._env = os.environ.get("BLINKA_OS_AGNOSTIC")
        os.environ["BLINKA_OS_AGNOSTIC"] = "1"
        sim.install(self.gpio)
        return self

    def __exit__(self, *exc: object) -> None:
        sim.uninstall()
        if self._env is None:
            os.environ.pop("BLINKA_OS_AGNOSTIC", None)
        else:
            os.environ["BLINKA_OS_AGNOSTIC"] = self._env
