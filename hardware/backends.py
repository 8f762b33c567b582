"""Hardware backends chosen by name, in one place.

>>> from boards.layout import layout_for_game
>>> from hardware.clock import VirtualClock
>>> hw = open_backend("sim", layout_for_game("tessella"), HardwareConfig(), VirtualClock())
>>> hw.matrix.read(), hw.strip.n
(frozenset(), 41)
>>> hw.close()

A backend is a :class:`BackendSpec`: its name, the function that opens it and the *rig*
(the simulated world the conformance test runs it against). Both are given as
``"module:attribute"`` strings and imported only when used, so opening the ``gpio``
backend never imports the simulation.

The built-in backends are ``sim`` (magnets on a simulated board, the real scanner on a
simulated RPi.GPIO) and ``gpio`` (a switch matrix on the Pi's pins, NeoPixels, buttons).
More come in two ways, and neither edits the service:

* an installed package declares an entry point in the group ``sensorboard.backends``
  whose object is a :class:`BackendSpec`, e.g. in its ``pyproject.toml``::

      [project.entry-points."sensorboard.backends"]
      serial = "firmware_bridge.backend:SPEC"

* or code calls :func:`register_backend` before the backend is opened.

An opener is ``open(layout, config, clock) -> Hardware``; it raises :class:`BackendError`
(one line naming the fault and the fix) when the hardware cannot be opened, and must
leave the LEDs untouched when it does.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import metadata
from typing import Any

from hardware.base import RGB, ButtonSource, Clock, LedStrip, SensorMatrix

ENTRY_POINT_GROUP = "sensorboard.backends"
OFF: RGB = (0, 0, 0)


class BackendError(ValueError):
    """The hardware cannot be opened as asked; the message names the fault and the fix."""


@dataclass(frozen=True)
class HardwareConfig:
    """How the hardware is driven; every field has a default that suits the shipped boards.

    scan_period: seconds between two scans of the matrix.
    debounce: how long a sensor must hold a new state before it counts.
    scan: "group" reads a row's columns in one lgpio call, "per-pin" uses the RPi.GPIO
    API pin by pin, "auto" takes "group" where lgpio is installed.
    settle_s: wait after driving a row before reading the columns (real wiring needs a
    few microseconds).
    pull: "down" uses the Pi's pull-downs on the columns, "off" relies on resistors
    fitted on the board.
    bounce, seed: the simulated contacts.
    led_pin: the NeoPixel data pin, overriding the layout's.
    brightness: the strip's overall brightness, 0..1.
    button_window_s: how long a button must hold before it counts as pressed.
    serial_port: where the ``serial`` backend finds its microcontroller (a path,
    ``serial=NUMBER``, ``VID:PID``, ``auto``, or ``emulator``; see firmware_bridge.ports).
    frontend: what the ``gpio`` backend reads the sensors through: "pins" (the Pi's own
    GPIOs, the layout's row and column pins), "mcp23017" (I2C expanders; see
    hardware.expander) or "mcp3008" (analog Hall sensors through SPI ADCs; see
    hardware.adc).
    expanders: the I2C addresses of the MCP23017s, in pin order (default: from 0x20,
    as many as the matrix needs).
    adc_cs: the chip-select GPIO of each MCP3008, in channel order.
    adc_zero: a Hall sensor's output with no magnet, in volts (a DRV5055 at 3.3 V: 1.65).
    adc_per_volt: sensor readings per volt above ``adc_zero`` (the layout's units).
    adc_threshold: on a switch (binary) layout, the reading from which a cell counts as
    holding a piece.
    led_fps: the most frames a second the LEDs are sent (hardware.frames).
    led_budget_a: the most current the LEDs may draw, in amperes (estimated; frames
    that would draw more are dimmed proportionally).
    palette: the colours of the LED roles: "standard" or "colour-blind" (see
    boards.hints.PALETTES); ``colours`` overrides single roles ({role: [r, g, b]}).
    """

    scan_period: float = 0.002
    debounce: float = 0.010
    scan: str = "auto"
    settle_s: float = 5e-6
    pull: str = "down"
    bounce: float = 0.003
    seed: int = 0
    led_pin: str | None = None
    brightness: float = 0.3
    button_window_s: float = 0.02
    serial_port: str = "auto"
    frontend: str = "pins"
    expanders: tuple[int, ...] = ()
    adc_cs: tuple[int, ...] = ()
    adc_zero: float = 1.65
    adc_per_volt: float = 1.0
    adc_threshold: float = 0.5
    led_fps: float = 50.0
    led_budget_a: float = 2.0
    palette: str = "standard"
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = ()


CHOICES = {"scan": ("auto", "group", "per-pin"), "pull": ("down", "off"),
           "frontend": ("pins", "mcp23017", "mcp3008"),
           "palette": ("standard", "colour-blind")}
RANGES = {"scan_period": (0.0005, 0.1), "debounce": (0.0, 0.5), "settle_s": (0.0, 0.001),
          "bounce": (0.0, 0.1), "brightness": (0.0, 1.0), "button_window_s": (0.0, 0.5),
          "adc_zero": (0.0, 3.3), "adc_per_volt": (0.001, 1000.0),
          "adc_threshold": (0.0, 1000.0), "led_fps": (1.0, 400.0),
          "led_budget_a": (0.05, 100.0)}
NUMBER_LISTS = {"expanders": (0x20, 0x27, "I2C addresses 0x20..0x27"),
                "adc_cs": (0, 27, "GPIO numbers 0..27")}


def hardware_config(table: dict, base: HardwareConfig | None = None) -> HardwareConfig:
    """A HardwareConfig from a config file's ``[hardware]`` table; a bad entry raises
    ValueError("<key>: <what is wrong>")."""
    base = base or HardwareConfig()
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in HardwareConfig.__dataclass_fields__:
            raise ValueError(f"{key}: unknown key; valid keys: "
                             f"{', '.join(HardwareConfig.__dataclass_fields__)}")
        if key in CHOICES and value not in CHOICES[key]:
            raise ValueError(f"{key}: must be one of {', '.join(CHOICES[key])}, got {value!r}")
        if key in RANGES:
            lo, hi = RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not lo <= value <= hi:
                raise ValueError(f"{key}: must be a number from {lo} to {hi}, got {value!r}")
            value = float(value)
        elif key in NUMBER_LISTS:
            lo, hi, what = NUMBER_LISTS[key]
            if not isinstance(value, list | tuple) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
                    for v in value):
                raise ValueError(f"{key}: must be a list of {what}, got {value!r}")
            twice = [v for i, v in enumerate(value) if v in value[:i]]
            if twice:
                raise ValueError(f"{key}: {twice[0]} is listed twice")
            value = tuple(value)
        elif key == "colours":
            value = _colours(value)
        elif key == "seed" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"seed: must be a whole number, got {value!r}")
        elif key == "serial_port" and not isinstance(value, str):
            raise ValueError(f"serial_port: must be text like \"auto\", got {value!r}")
        elif key == "led_pin" and not isinstance(value, str):
            raise ValueError(f"led_pin: must be a pin name like \"D18\", got {value!r}")
        values[key] = value
    return replace(base, **values)


def _colours(table: object) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    if not isinstance(table, dict):
        raise ValueError(f"colours: must be a table of role = [r, g, b], got {table!r}")
    out = []
    for role, rgb in table.items():
        if not (isinstance(rgb, list | tuple) and len(rgb) == 3 and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in rgb)):
            raise ValueError(f"colours.{role}: must be [r, g, b], each 0..255, got {rgb!r}")
        out.append((role, (rgb[0], rgb[1], rgb[2])))
    return tuple(out)


@dataclass
class Hardware:
    """An opened backend: the sensor matrix, the LED strip, the buttons (or None).

    ``magnets`` is the simulated board (place/lift magnets) on simulated backends and None
    on real ones. ``config`` is how it is driven: the config it was opened with, unless
    the opener says otherwise (a microcontroller that debounces itself sets ``debounce``
    to 0 for the host). ``close()`` darkens the LEDs and releases everything; calling it
    again does nothing.
    """

    name: str
    matrix: SensorMatrix | Any  # binary: SensorMatrix; analog: hardware.analog.AnalogMatrix
    strip: LedStrip
    buttons: ButtonSource | None = None
    magnets: Any = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    config: HardwareConfig | None = None  # open_backend fills in the config it was given
    closed: bool = False

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.strip.fill(OFF)
            self.strip.show()
        finally:
            for closer in reversed(self.closers):
                closer()


Opener = Callable[[Any, HardwareConfig, Clock], Hardware]


@dataclass(frozen=True)
class BackendSpec:
    """A backend by name: ``opener`` and ``rig`` are ``"module:attribute"`` paths.

    The rig (for tests and bring-up on a desk) is a class taking ``(layout, clock)``,
    used as a context manager that makes the backend openable off the real hardware; it
    has ``config`` (the HardwareConfig to open with), ``attach(hardware)``, ``board``
    (a :class:`hardware.sim.SimBoard` whose magnets the backend senses), ``press(button,
    player=None, down=True)`` and ``leds()`` (the colours the LEDs show); ``GHOSTS =
    False`` where every sensor has its own input, so a diode-less matrix cannot ghost
    (the conformance test then expects exact readings; True when absent).
    """

    name: str
    opener: str
    rig: str | None = None
    summary: str = ""
    more_rigs: tuple[str, ...] = ()  # other paths through the backend, tested the same way

    def rigs(self) -> tuple[str, ...]:
        return ((self.rig,) if self.rig else ()) + self.more_rigs


BUILTIN: dict[str, BackendSpec] = {
    "sim": BackendSpec("sim", "hardware.sim:open_sim", "hardware.rigs:SimRig",
                       "a simulated board: magnets, bouncing contacts, the real scanner"),
    "gpio": BackendSpec("gpio", "hardware.gpio:open_gpio", "hardware.rigs:LgpioRig",
                        "a switch matrix on the Raspberry Pi's pins, NeoPixels, buttons",
                        ("hardware.rigs:LgpioPerPinRig", "hardware.rigs:GpioRig",
                         "hardware.rigs:Mcp23017Rig", "hardware.rigs:Mcp3008Rig")),
    "serial": BackendSpec("serial", "firmware_bridge.backend:open_serial",
                          "firmware_bridge.rig:SerialRig",
                          "a Raspberry Pi Pico scans the matrix and drives the LEDs over USB"),
}
_registered: dict[str, BackendSpec] = {}


def register_backend(spec: BackendSpec) -> None:
    """Add (or replace) a backend for this process."""
    _registered[spec.name] = spec


def backends() -> dict[str, BackendSpec]:
    """Every known backend by name: built-in, then installed entry points, then registered."""
    found = dict(BUILTIN)
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        spec = ep.load()
        if not isinstance(spec, BackendSpec):
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a BackendSpec")
        found[ep.name] = spec
    found.update(_registered)
    return found


def backend_names() -> tuple[str, ...]:
    return tuple(backends())


def load(path: str) -> Any:
    """The object at ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def spec_for(name: str) -> BackendSpec:
    known = backends()
    if name not in known:
        raise BackendError(f"unknown backend {name!r}; valid backends: {', '.join(known)}")
    return known[name]


def open_backend(name: str, layout: Any, config: HardwareConfig | None = None,
                 clock: Clock | None = None) -> Hardware:
    """Open the backend called ``name`` for ``layout``; see the module docstring."""
    from hardware.clock import RealClock

    spec = spec_for(name)
    opener: Opener = load(spec.opener)
    config = config or HardwareConfig()
    hardware = opener(layout, config, clock or RealClock())
    hardware.name = name
    if hardware.config is None:
        hardware.config = config
    return hardware
