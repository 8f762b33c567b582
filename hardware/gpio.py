"""The ``gpio`` backend: the sensors through the Raspberry Pi's pins, NeoPixel LEDs and
push buttons.

The sensors come through one of three front ends (``frontend`` in the config): the
Pi's own pins (a switch matrix read with lgpio's group calls where lgpio is installed,
else pin by pin through the RPi.GPIO API), MCP23017 I2C expanders (hardware.expander)
or MCP3008 ADCs reading analog Hall sensors (hardware.adc).
Nothing here imports the simulation; tests install simulated modules first
(hardware.rigs).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hardware.backends import BackendError, Hardware, HardwareConfig
from hardware.base import Clock
from hardware.buttons import Buttons, button_pins
from hardware.matrix import GpioMatrixScanner
from hardware.pins import check_pins

INSTALL_HINT = "on a Raspberry Pi install the 'pi' extra (pip install 'sensorboard[pi]')"
CHIP_HINT = "add the user to the 'gpio' group (sudo adduser $USER gpio) and log in again"


def import_gpio() -> Any:
    """The RPi.GPIO module, or a BackendError saying why it cannot be used here."""
    try:
        import RPi.GPIO as GPIO
    except ImportError as e:
        raise BackendError(f"gpio backend: no RPi.GPIO module ({e}); {INSTALL_HINT}, "
                           "or use --backend sim off a Pi") from None
    except (RuntimeError, NotImplementedError) as e:  # "This module can only be run on a ..."
        raise BackendError(f"gpio backend: this is not a Raspberry Pi ({e}); "
                           "use --backend sim") from None
    return GPIO


def import_lgpio(scan: str) -> Any:
    """The lgpio module for the group scan, None for the per-pin scan."""
    if scan == "per-pin":
        return None
    try:
        import lgpio
    except ImportError:
        if scan == "group":
            raise BackendError('gpio backend: scan = "group" needs the lgpio module; '
                               f'{INSTALL_HINT}, or set scan = "per-pin"') from None
        return None
    return lgpio


def open_scanner(gpio: Any, lgpio: Any, layout: Any, config: HardwareConfig) -> Any:
    if config.frontend == "mcp23017":
        from hardware.expander import open_expander_matrix

        return open_expander_matrix(layout, config)
    if config.frontend == "mcp3008":
        from hardware.adc import open_adc_matrix

        return open_adc_matrix(layout, config)
    if lgpio is not None:
        from hardware.lgpio_matrix import LgpioMatrixScanner, gpiochip_number

        return LgpioMatrixScanner(lgpio, gpiochip_number(), layout.row_pins, layout.col_pins,
                                  diodes=layout.diodes, settle_s=config.settle_s,
                                  pull=config.pull)
    return GpioMatrixScanner(gpio, layout.row_pins, layout.col_pins,
                             settle_s=config.settle_s, pull=config.pull)


def _chip_fault(e: Exception) -> bool:
    text = str(e).lower()
    return isinstance(e, PermissionError) or "gpiochip" in text or "permi" in text


def open_gpio(layout: Any, config: HardwareConfig, clock: Clock) -> Hardware:
    if layout.sensor == "analog" and config.frontend != "mcp3008":
        raise BackendError(f"{layout.path}: analog Hall sensors need an ADC: set "
                           'frontend = "mcp3008" and adc_cs in [hardware] '
                           "(docs/hardware.md), or use --backend sim")
    check_pins(layout, config)
    gpio = import_gpio()
    lgpio = import_lgpio(config.scan) if config.frontend == "pins" else None
    if lgpio is None and config.scan == "auto" and config.frontend == "pins":
        check_pins(layout, replace(config, scan="per-pin"))
    closers = []
    try:
        try:
            matrix = open_scanner(gpio, lgpio, layout, config)
            closers.append(matrix.close)
            buttons = None
            if button_pins(layout):
                buttons = Buttons(gpio, button_pins(layout), config.button_window_s)
                closers.append(buttons.close)
        except BackendError:
            raise
        except Exception as e:
            if _chip_fault(e):
                raise BackendError(f"gpio backend: cannot open the GPIO chip ({e}); "
                                   f"{CHIP_HINT}") from None
            raise
        strip = open_leds(layout, config)
        closers.append(strip.close)
    except BaseException:
        for closer in reversed(closers):
            closer()
        raise
    return Hardware(name="gpio", matrix=matrix, strip=strip, buttons=buttons, closers=closers)


def open_leds(layout: Any, config: HardwareConfig) -> Any:
    """The layout's NeoPixels, on GPIO10 through SPI or on another pin through the PWM (or
    the Pi 5's PIO) driver, behind the frame pusher (hardware.frames): dimmed to
    ``brightness`` and ``led_budget_a``, at most ``led_fps`` frames a second."""
    from hardware.frames import PacedStrip
    from hardware.leds import NeoPixelSpiStrip, NeoPixelStrip

    pin = config.led_pin or layout.led_pin
    try:
        if pin == "D10":
            raw: Any = NeoPixelSpiStrip(layout.led_count)
        else:
            raw = NeoPixelStrip(layout.led_count, pin=pin, brightness=1.0)
    except PermissionError as e:
        raise BackendError(f"LEDs on {pin}: no permission ({e}); GPIO18 needs root, "
                           "GPIO10 (SPI) needs the user in the 'spi' group") from None
    except (RuntimeError, ValueError, ImportError) as e:
        raise BackendError(f"LEDs on {pin}: {e}") from None
    return PacedStrip(raw, fps=config.led_fps, brightness=config.brightness,
                      budget_ma=config.led_budget_a * 1000)
