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
import sys
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
        gpio = self.sim_gpio()
        gpio.set_input(pin, gpio.LOW if down else gpio.HIGH)

    def sim_gpio(self) -> sim.SimGPIO:
        """The simulated pins (the buttons' pins are among them)."""
        assert self.hardware is not None and self.hardware.buttons is not None
        return self.hardware.buttons.gpio  # type: ignore[attr-defined]

    def leds(self) -> list[RGB]:
        assert self.hardware is not None
        return self.hardware.strip.shown()


class GpioRig(SimRig):
    """The classic RPi.GPIO path: a simulated RPi.GPIO (fake-rpi extended into the
    matrix's electrical model) installed as ``RPi.GPIO``, the per-pin scan, and the
    NeoPixel library on Blinka's OS-agnostic board."""

    SCAN = "per-pin"
    ENV: dict[str, str] = {"BLINKA_OS_AGNOSTIC": "1"}

    def __init__(self, layout: Any, clock: Clock, *, bounce: float = 0.003,
                 seed: int = 0) -> None:
        super().__init__(layout, clock)
        self.board = sim.SimBoard(layout.rows, layout.cols, clock=clock, diodes=layout.diodes,
                                  bounce=bounce, seed=seed)
        self.gpio = sim.SimGPIO(self.board, layout.row_pins, layout.col_pins)
        self.config = HardwareConfig(led_pin="NEOPIXEL", settle_s=0.0, scan=self.SCAN)
        self._env: dict[str, str | None] = {}

    def __enter__(self) -> GpioRig:
        self._env = {k: os.environ.get(k) for k in self.ENV}
        os.environ.update(self.ENV)
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()
        for key, value in self._env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

    def sim_gpio(self) -> sim.SimGPIO:
        return self.gpio

    def install(self) -> None:
        sim.install(self.gpio)

    def uninstall(self) -> None:
        sim.uninstall()


class LgpioRig(GpioRig):
    """The path of every current Pi: rpi-lgpio's own RPi.GPIO module (installed from
    PyPI) over a simulated gpiochip (:class:`hardware.simchip.SimLgpio` as ``lgpio``),
    the matrix read with group calls. ``rig.lgpio.calls`` counts the library calls."""

    SCAN = "auto"
    ENV = {"BLINKA_OS_AGNOSTIC": "1", "RPI_LGPIO_REVISION": "c03111",  # a Pi 4 B
           "RPI_LGPIO_CHIP": "0"}
    MODULES = ("lgpio", "RPi", "RPi.GPIO")

    def __init__(self, layout: Any, clock: Clock, **kwargs: Any) -> None:
        from hardware.simchip import SimLgpio

        super().__init__(layout, clock, **kwargs)
        self.lgpio = SimLgpio(self.gpio)
        self._saved: dict[str, Any] = {}

    def install(self) -> None:
        self._saved = {name: sys.modules.pop(name, None) for name in self.MODULES}
        sys.modules["lgpio"] = self.lgpio

    def uninstall(self) -> None:
        for name in self.MODULES:
            sys.modules.pop(name, None)
        for name, module in self._saved.items():
            if module is not None:
                sys.modules[name] = module


class LgpioPerPinRig(LgpioRig):
    """rpi-lgpio over the simulated gpiochip with the per-pin scan (RPi.GPIO calls)."""

    SCAN = "per-pin"
