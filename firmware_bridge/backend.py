"""The ``serial`` backend: a microcontroller (a Raspberry Pi Pico running
``firmware_bridge/firmware``) scans the matrix, reads the buttons and drives the LEDs;
the host talks to it over USB serial.

``HardwareConfig.serial_port`` chooses the board (:mod:`firmware_bridge.ports`), or
``emulator``: the firmware on a simulated board in a process of its own, behind a
pseudo-terminal, whose magnets the service (and the web page) move.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from firmware_bridge.devices import SerialButtons, SerialMatrix, SerialStrip
from firmware_bridge.link import Link
from firmware_bridge.ports import PortError, PortSpec, describe_ports
from hardware.backends import BackendError, Hardware, HardwareConfig
from hardware.base import Clock

OPEN_TIMEOUT = 5.0  # seconds to wait for the board's greeting and first snapshot


def button_names(layout: Any) -> list[str]:
    """The layout's buttons as the firmware names them: ``clock``, or ``clock:red`` for a
    player's own side."""
    names = []
    for key in layout.buttons:
        button, player = (key, None) if isinstance(key, str) else (key.button, key.player)
        names.append(f"{button}:{player}" if player else button)
    return names


def open_serial(layout: Any, config: HardwareConfig, clock: Clock) -> Hardware:
    if layout.sensor == "analog":
        raise BackendError(f"{layout.path}: the serial firmware reads switches only; "
                           "analog Hall sensors are not supported on it yet; use --backend sim")
    closers = []
    emulator = None
    try:
        if config.serial_port == "emulator":
            from firmware_bridge.emulated import EmulatorProcess

            emulator = EmulatorProcess(layout.rows, layout.cols, layout.led_count,
                                       button_names(layout), diodes=layout.diodes,
                                       bounce=config.bounce, seed=config.seed,
                                       brightness=config.brightness)
            closers.append(emulator.close)
            spec = PortSpec(path=emulator.path)
        else:
            try:
                spec = PortSpec.parse(config.serial_port)
            except PortError as e:
                raise BackendError(str(e)) from None
        link = Link(spec)
        link.start()
        closers.append(link.close)
        if not link.wait_ready(OPEN_TIMEOUT):
            where = link.device or f"{spec} ({describe_ports()})"
            raise BackendError(f"serial backend: no board answered on {where} within "
                               f"{OPEN_TIMEOUT:.0f} s; is the Pico plugged in and flashed with "
                               "firmware_bridge/firmware (docs/protocol.md)?")
        check_fits(layout, link)
    except BaseException:
        for closer in reversed(closers):
            closer()
        raise
    magnets = None
    if emulator is not None:
        from firmware_bridge.rig import EmulatedMagnets

        magnets = EmulatedMagnets(emulator, link, bounce=config.bounce)
    buttons = SerialButtons(link) if link.hello.buttons else None
    return Hardware(name="serial", matrix=SerialMatrix(link, layout.rows, layout.cols),
                    strip=SerialStrip(link, layout.led_count), buttons=buttons,
                    magnets=magnets, closers=closers,
                    config=replace(config, debounce=0.0))  # the board debounces every cell


def check_fits(layout: Any, link: Link) -> None:
    """The board's firmware must be configured for this layout's matrix and LEDs."""
    hello = link.hello
    where = f"serial backend: the board on {link.device} ({hello.board_id})"
    if (hello.rows, hello.cols) != (layout.rows, layout.cols):
        raise BackendError(f"{where} scans a {hello.rows}x{hello.cols} matrix, the layout "
                           f"{layout.path} has {layout.rows}x{layout.cols}; set ROW_PINS and "
                           "COL_PINS in its bridge_config.py")
    if hello.leds != layout.led_count:
        raise BackendError(f"{where} drives {hello.leds} LEDs, the layout has "
                           f"{layout.led_count}; set LED_COUNT in its bridge_config.py")
    missing = set(button_names(layout)) - set(hello.buttons)
    if missing:
        raise BackendError(f"{where} has no button {', '.join(sorted(missing))}; "
                           "add it to BUTTONS in its bridge_config.py")
