"""The emulated board for tests and for a person at a desk: its magnets as the service
moves them, and the rig of the backend conformance test (hardware.backends)."""

from __future__ import annotations

from typing import Any

from firmware_bridge.emulated import EmulatorProcess, wait_for
from firmware_bridge.link import Link
from hardware.backends import Hardware, HardwareConfig
from hardware.base import RGB, Address, Clock

REACH_S = 2.0  # longest wait for a change to come through the link


class EmulatedMagnets:
    """The magnets of an emulated board. While the link is up, ``place``/``lift`` return
    once it has the contact's change (the board debounces it first), so the next scan on
    the host sees it, as it would see a magnet on the simulated board."""

    def __init__(self, emulator: EmulatorProcess, link: Link, bounce: float = 0.003) -> None:
        self.emulator = emulator
        self.link = link
        self._bounce = bounce
        self._count: dict[Address, int] = {}

    @property
    def bounce(self) -> float:
        return self._bounce

    @bounce.setter
    def bounce(self, seconds: float) -> None:
        self._bounce = seconds
        self.emulator.bounce(seconds)

    def place(self, addr: Address, strength: float = 1.0) -> None:
        n = self._count.get(addr, 0)
        self._count[addr] = n + 1
        self.emulator.place(addr)
        if n == 0 and self.link.connected():
            wait_for(lambda: addr in self.link.closed_cells(), REACH_S)

    def lift(self, addr: Address) -> None:
        n = self._count.get(addr, 0)
        if n == 0:
            raise ValueError(f"no magnet to lift at {addr}")
        self.emulator.lift(addr)
        if n == 1:
            del self._count[addr]
            if self.link.connected():
                wait_for(lambda: addr not in self.link.closed_cells(), REACH_S)
        else:
            self._count[addr] = n - 1

    def magnets(self) -> frozenset[Address]:
        return frozenset(self._count)

    def quiet_after(self) -> float:
        return float("-inf")  # the board has debounced every change it reported


class SerialRig:
    """The ``serial`` backend's rig: the firmware emulator (its own process, a pty) stands
    in for the Pico; ``board`` moves its magnets, ``press`` its buttons, ``leds()`` reads
    its NeoPixels."""

    def __init__(self, layout: Any, clock: Clock) -> None:
        from firmware_bridge.backend import button_names

        self.layout = layout
        self.clock = clock
        self.names = button_names(layout)
        self.emulator: EmulatorProcess | None = None
        self.hardware: Hardware | None = None
        self.board: EmulatedMagnets | None = None
        self.config = HardwareConfig()

    def __enter__(self) -> SerialRig:
        layout = self.layout
        self.emulator = EmulatorProcess(layout.rows, layout.cols, layout.led_count, self.names,
                                        diodes=layout.diodes, brightness=1.0)
        self.config = HardwareConfig(serial_port=self.emulator.path)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.emulator is not None:
            self.emulator.close()

    def attach(self, hardware: Hardware) -> None:
        self.hardware = hardware
        self.board = EmulatedMagnets(self.emulator, hardware.matrix.link)

    def press(self, button: str, player: str | None = None, down: bool = True) -> None:
        name = f"{button}:{player}" if player else button
        self.emulator.press(name, down)
        link = self.hardware.matrix.link
        wait_for(lambda: (name in link.held()) == down, REACH_S)

    def leds(self) -> list[RGB]:
        """What the emulated NeoPixels show, once the board has acknowledged the frame
        last shown on the host."""
        strip = self.hardware.strip
        if strip.link.connected():
            wait_for(lambda: strip.acked() == strip.shown() or strip.shows == 0, REACH_S)
        return self.emulator.leds()
