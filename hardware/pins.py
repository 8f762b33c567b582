"""Which Raspberry Pi pins a board may use for what: checked before anything is opened.

>>> pin_fault(row_pins=(5, 6), col_pins=(17, 18), buttons={"clock": 21}, led_pin="D18",
...           diodes=True, scan="auto")
'GPIO18 is both the LED data pin (D18) and matrix column 2; move one of them'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from hardware.backends import BackendError, HardwareConfig
from hardware.base import Press
from hardware.buttons import button_pins

I2C_PULLED_UP = (2, 3)  # SDA/SCL: 1.8 kOhm pull-ups to 3.3 V are fitted on every Pi
SPI0 = {7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"}
HEADER = range(0, 28)  # the GPIOs on the 40-pin header


def led_gpio(pin: str) -> int | None:
    """The BCM number of a Blinka pin name ("D18" -> 18), None for other names."""
    m = re.fullmatch(r"D(\d+)", pin)
    return int(m.group(1)) if m else None


def pin_fault(*, row_pins: Sequence[int], col_pins: Sequence[int],
              buttons: Mapping[str | Press, int], led_pin: str, diodes: bool,
              scan: str, reserved: Sequence[tuple[int, str]] = ()) -> str | None:
    """The first wiring fault of this pin plan, as one sentence naming the fix; None if
    the plan is sound. ``reserved`` are pins a front end takes (I2C, SPI, chip selects)."""
    users: dict[int, str] = {}

    def use(pin: int, what: str) -> str | None:
        if pin not in HEADER:
            return f"GPIO{pin} ({what}) is not on the Pi's header (GPIO0-27)"
        if pin in users:
            return f"GPIO{pin} is both {users[pin]} and {what}; move one of them"
        users[pin] = what
        return None

    led = led_gpio(led_pin)
    plan: list[tuple[int, str]] = []
    if led is not None:
        plan.append((led, f"the LED data pin ({led_pin})"))
        if led == 10:  # NeoPixels on SPI0: the SPI driver holds its other pins too
            plan += [(p, f"SPI0 {name}, taken by the SPI LEDs") for p, name in SPI0.items()
                     if p != 10]
    plan += list(reserved)
    plan += [(p, f"matrix row {i + 1}") for i, p in enumerate(row_pins)]
    plan += [(p, f"matrix column {i + 1}") for i, p in enumerate(col_pins)]
    plan += [(p, f"the {_button(b)} button") for b, p in buttons.items()]
    for pin, what in plan:
        fault = use(pin, what)
        if fault:
            return fault
    for i, pin in enumerate(col_pins):
        if pin in I2C_PULLED_UP:
            return (f"GPIO{pin} (matrix column {i + 1}) has a 1.8 kOhm pull-up fitted on the "
                    "Pi, so it would always read closed; put a row or a button there")
    for i, pin in enumerate(row_pins):
        if pin in I2C_PULLED_UP and (not diodes or scan == "per-pin"):
            return (f"GPIO{pin} (matrix row {i + 1}) has a 1.8 kOhm pull-up fitted on the Pi, "
                    "so it is never idle; a row there needs diodes and the group scan "
                    "(scan = \"auto\" with lgpio), or move it")
    return None


def frontend_pins(config: HardwareConfig) -> list[tuple[int, str]]:
    """The Pi pins the sensor front end takes: the I2C pair of the MCP23017s, or SPI0 and
    the chip selects of the MCP3008s (none for the Pi's own pins)."""
    if config.frontend == "mcp23017":
        return [(2, "I2C SDA of the MCP23017s"), (3, "I2C SCL of the MCP23017s")]
    if config.frontend == "mcp3008":
        # The kernel's SPI driver holds CE0/CE1 too: the chip selects are other GPIOs.
        return [(p, f"SPI0 {name}, taken by the MCP3008s' SPI bus")
                for p, name in SPI0.items()] + [
            (p, f"the chip select of MCP3008 number {i + 1}")
            for i, p in enumerate(config.adc_cs)]
    return []


def check_pins(layout: Any, config: HardwareConfig) -> None:
    """Raise BackendError naming the layout and the fault if its pins cannot work.

    The layout's matrix pins count only when the Pi's own pins read the matrix; every
    button counts, a clock button per player (``[buttons.clock]``) included."""
    own = config.frontend == "pins"
    led_pin = config.led_pin or layout.led_pin
    if config.frontend == "mcp3008" and led_gpio(led_pin) == 10:
        raise BackendError(f"{layout.path}: the LEDs on SPI ({led_pin}) and the MCP3008s "
                           "cannot share SPI0; put the LEDs on D18 (led_pin = \"D18\")")
    fault = pin_fault(row_pins=layout.row_pins if own else (),
                      col_pins=layout.col_pins if own else (),
                      buttons=button_pins(layout), led_pin=led_pin,
                      diodes=layout.diodes, scan=config.scan,
                      reserved=frontend_pins(config))
    if fault:
        raise BackendError(f"{layout.path}: {fault}")


def _button(button: str | Press) -> str:
    if isinstance(button, Press) and button.player:
        return f"{button.player} {button.button}"
    return button.button if isinstance(button, Press) else button
