"""The emulated board for tests and for a person at a desk: its magnets as the service
moves them, and the rig of the backend conformance test (hardware.backends)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from firmware_bridge.emulated import EmulatorProcess, wait_for
from firmware_bridge.link import Link
from hardware.backends import Hardware, HardwareConfig
from hardware.base import RGB, Address, Clock

REACH_S = 2.0  # longest wait for a change to come through the link
REPAIR_S = 0.5  # a change whose frame was lost arrives after the next heartbeat (250 ms)


class EmulatedMagnets:
    """The magnets of an emulated board. While the link is up, ``place``/``lift`` return
    once it has the contact's change (the board debounces it first), so the next scan on
    the host sees it, as it would see a magnet on the simulated board."""

    def __init__(self, emulator: EmulatorProcess, link: Link, bounce: float = 0.003,
                 seen: Callable[[], frozenset[Address]] | None = None) -> None:
        self.emulator = emulator
        self.link = link
        self.seen = seen or link.closed_cells  # what must show the change before returning
        self._bounce = bounce
        self._count: dict[Address, int] = {}
        self._batch: list[Address] | None = None
        self.moved_at = float("-inf")

    @property
    def bounce(self) -> float:
        return self._bounce

    @bounce.setter
    def bounce(self, seconds: float) -> None:
        """The service sets bounce to 0 while it puts the start position down, then back:
        those magnets reach the board together, in one scan, as a board set up before
        it is switched on."""
        if self._batch is not None:
            batch, self._batch = self._batch, None
            if batch:
                self.emulator.command("place_many", addrs=[list(a) for a in batch])
                if self.link.connected():
                    wait_for(lambda: set(batch) <= self.seen(), REACH_S)
        elif seconds == 0:
            self._batch = []
        self._bounce = seconds
        self.emulator.bounce(seconds)

    def place(self, addr: Address, strength: float = 1.0) -> None:
        n = self._count.get(addr, 0)
        self._count[addr] = n + 1
        if self._batch is not None:
            self._batch.append(addr)
            return
        self.moved_at = self.emulator.place(addr)
        if n == 0 and self.link.connected():
            wait_for(lambda: addr in self.seen(), REACH_S)

    def lift(self, addr: Address) -> None:
        n = self._count.get(addr, 0)
        if n == 0:
            raise ValueError(f"no magnet to lift at {addr}")
        self.moved_at = self.emulator.lift(addr)
        if n == 1:
            del self._count[addr]
            if self.link.connected():
                wait_for(lambda: addr not in self.seen(), REACH_S)
        else:
            self._count[addr] = n - 1

    def magnets(self) -> frozenset[Address]:
        return frozenset(self._count)

    def quiet_after(self) -> float:
        """When nothing more can arrive by itself: not while the link holds changes not
        read yet, nor before a lost last frame could be repaired (the next heartbeat)."""
        if self.link.pending():
            return float("inf")
        return self.moved_at + REPAIR_S


def read_quiet(matrix: Any, quiet: float = 0.03) -> frozenset[Address]:
    """Read ``matrix`` until it has not changed for ``quiet`` seconds (longer than the
    board's bounce and debounce); the last reading."""
    last = matrix.read()
    since = time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.002)
        now = matrix.read()
        if now != last:
            last, since = now, time.monotonic()
    return last


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
        # a magnet moved here returns once the matrix reads it and everything it caused
        # (a ghost on a diode-less matrix), as if the host had been scanning meanwhile
        self.board = EmulatedMagnets(self.emulator, hardware.matrix.link,
                                     seen=lambda: read_quiet(hardware.matrix))

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
