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
from dataclasses import replace
from typing import Any

from hardware import sim
from hardware.backends import Hardware, HardwareConfig
from hardware.base import RGB, Clock, Press


class SimRig:
    """The ``sim`` backend brings its own simulated board; the rig only reaches into it.

    ``GHOSTS``: whether a matrix without diodes ghosts on this path (False where every
    sensor has its own input)."""

    GHOSTS = True

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
        self.config = HardwareConfig(led_pin="NEOPIXEL", settle_s=0.0, scan=self.SCAN,
                                     brightness=1.0)
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

    def leds(self) -> list[RGB]:
        """What the LED library was last given, once the frame pusher has caught up."""
        assert self.hardware is not None
        strip = self.hardware.strip
        strip.flush()  # type: ignore[attr-defined]
        return strip.strip.shown()  # type: ignore[attr-defined]

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


class BusRig(GpioRig):
    """A front end on simulated buses: ``self.buses`` (a :class:`hardware.simbus.SimBuses`)
    is what :mod:`hardware.buses` opens while the rig is entered; buttons and LEDs stay on
    the Pi's pins as in :class:`GpioRig`."""

    SCAN = "per-pin"

    def __init__(self, layout: Any, clock: Clock, **kwargs: Any) -> None:
        from hardware.simbus import SimBuses

        super().__init__(layout, clock, **kwargs)
        self.buses = SimBuses()

    def install(self) -> None:
        from hardware.buses import use_buses

        super().install()
        self._using = use_buses(self.buses)
        self._using.__enter__()

    def uninstall(self) -> None:
        self._using.__exit__(None, None, None)
        super().uninstall()


class Mcp23017Rig(BusRig):
    """The matrix on MCP23017 expanders: the real Adafruit driver over a simulated I2C bus
    whose chips implement the MCP23017 registers (:mod:`hardware.simbus`), their pins
    wired into the same electrical model. ``rig.i2c.transactions`` counts the transfers."""

    FIRST_CHANNEL = 1000  # the expanders' pins in the electrical model (not Pi GPIOs)

    def __init__(self, layout: Any, clock: Clock, **kwargs: Any) -> None:
        from hardware.expander import PINS_PER_CHIP, expander_addresses
        from hardware.simbus import SimBuses, SimI2C, SimMcp23017

        super().__init__(layout, clock, **kwargs)
        rows, cols = layout.rows, layout.cols
        channels = [self.FIRST_CHANNEL + k for k in range(rows + cols)]
        self.expander_gpio = sim.SimGPIO(self.board, channels[:rows], channels[rows:])
        addresses = expander_addresses(rows, cols, ())
        self.i2c = SimI2C({
            address: SimMcp23017(self.expander_gpio,
                                 channels[i * PINS_PER_CHIP:(i + 1) * PINS_PER_CHIP])
            for i, address in enumerate(addresses)})
        self.buses = SimBuses(i2c=self.i2c)
        self.config = replace(self.config, frontend="mcp23017", expanders=addresses)


class Mcp3008Rig(BusRig):
    """Hall sensors on MCP3008s: the real Adafruit driver over a simulated SPI bus whose
    chips answer conversions bit by bit (:mod:`hardware.simbus`); each sensor outputs
    ``adc_zero`` plus its magnets' field over ``adc_per_volt``, with seeded noise. One
    sensor per channel: nothing ghosts."""

    GHOSTS = False
    NOISE_VOLTS = 0.004  # about one ADC step

    def __init__(self, layout: Any, clock: Clock, **kwargs: Any) -> None:
        import random

        from hardware.adc import CHANNELS, chips_needed
        from hardware.pins import HEADER, SPI0, led_gpio
        from hardware.simbus import SimBuses, SimMcp3008, SimSPI

        super().__init__(layout, clock, **kwargs)
        taken = set(SPI0) | {2, 3} | set(layout.buttons.values()) | set(
            layout.clock_sides.values()) | {led_gpio(layout.led_pin)}
        free = [p for p in HEADER if p not in taken]
        cs = tuple(free[:chips_needed(layout.rows, layout.cols)])
        self.config = replace(self.config, frontend="mcp3008", adc_cs=cs, adc_per_volt=3.0)
        rng = random.Random(kwargs.get("seed", 0))
        zero, per_volt, cols = self.config.adc_zero, self.config.adc_per_volt, layout.cols

        def sensor(chip: int) -> Any:
            def volts(channel: int) -> float:
                field = self.board.fields().get(divmod(chip * CHANNELS + channel, cols), 0.0)
                return zero + field / per_volt + rng.uniform(-1, 1) * self.NOISE_VOLTS
            return volts

        self.spi = SimSPI({pin: SimMcp3008(sensor(i)) for i, pin in enumerate(cs)})
        self.buses = SimBuses(spi=self.spi)
