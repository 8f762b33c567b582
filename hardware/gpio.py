"""The ``gpio`` backend: a switch matrix on the Raspberry Pi's pins (through the RPi.GPIO
API, which rpi-lgpio provides on every Pi), NeoPixel LEDs and push buttons.

Nothing here imports the simulation; tests install a simulated ``RPi.GPIO`` first
(hardware.rigs.GpioRig).
"""

from __future__ import annotations

from typing import Any

from hardware.backends import BackendError, Hardware, HardwareConfig
from hardware.base import Clock
from hardware.buttons import Buttons, button_pins
from hardware.matrix import GpioMatrixScanner

INSTALL_HINT = "on a Raspberry Pi install the 'pi' extra (pip install 'sensorboard[pi]')"


def import_gpio() -> Any:
    """The RPi.GPIO module, or a BackendError saying why it cannot be used here."""
    try:
        import RPi.GPIO as GPIO
    except ImportError as e:
        raise BackendError(f"gpio backend: no RPi.GPIO module ({e}); {INSTALL_HINT}, "
                           "or use --backend sim off a Pi") from None
    except RuntimeError as e:  # RPi.GPIO off a Pi: "This module can only be run on a ..."
        raise BackendError(f"gpio backend: this is not a Raspberry Pi ({e}); "
                           "use --backend sim") from None
    return GPIO


def open_gpio(layout: Any, config: HardwareConfig, clock: Clock) -> Hardware:
    if layout.sensor == "analog":
        raise BackendError(f"{layout.path}: analog Hall sensors need an ADC; the gpio backend "
                           "reads switches only; use --backend sim")
    gpio = import_gpio()
    closers = []
    try:
        try:
            matrix = GpioMatrixScanner(gpio, layout.row_pins, layout.col_pins,
                                       settle_s=config.settle_s)
        except PermissionError as e:
            raise BackendError(f"gpio backend: no permission on the GPIO device ({e}); "
                               "add the user to the 'gpio' group and log in again") from None
        closers.append(matrix.close)
        buttons = None
        if layout.buttons:
            buttons = Buttons(gpio, button_pins(layout), config.button_window_s)
            closers.append(buttons.close)
        from hardware.leds import NeoPixelStrip

        pin = config.led_pin or layout.led_pin
        try:
            strip = NeoPixelStrip(layout.led_count, pin=pin, brightness=config.brightness)
        except PermissionError as e:
            raise BackendError(f"LEDs on {pin}: no permission ({e}); GPIO18 needs root, "
                               "GPIO10 (SPI) needs the user in the 'spi' group") from None
        except (RuntimeError, ValueError) as e:
            raise BackendError(f"LEDs on {pin}: {e}") from None
        closers.append(strip.close)
    except BaseException:
        for closer in reversed(closers):
            closer()
        raise
    return Hardware(name="gpio", matrix=matrix, strip=strip, buttons=buttons, closers=closers)
