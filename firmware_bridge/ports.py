"""Which serial device is the board: by path, by USB serial number, by VID:PID, or found.

A port is given as text (the config's ``port``, ``--serial-port``):

* a path: ``/dev/ttyACM0``, ``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c...``,
  ``COM3``: that device, whatever is on it;
* ``serial=E6614C311B6B8F2A``: the USB device with that serial number (the Pico's
  unique id), under whatever name it comes back;
* ``2e8a:0005``: the first USB device with that VID:PID (2e8a:0005 is MicroPython on a
  Raspberry Pi Pico);
* ``auto``: the one device with the Raspberry Pi vendor id 2e8a.

>>> PortSpec.parse("serial=E661").serial, PortSpec.parse("2e8a:0005").vid_pid
('E661', (11914, 5))
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from serial.tools import list_ports

PICO_VID = 0x2E8A
MICROPYTHON_PID = 0x0005


class PortError(ValueError):
    """A port spec that cannot be understood, or a board that cannot be found."""


@dataclass(frozen=True)
class PortSpec:
    path: str | None = None
    serial: str | None = None
    vid_pid: tuple[int, int] | None = None

    @classmethod
    def parse(cls, text: str) -> PortSpec:
        text = text.strip()
        if not text:
            raise PortError("serial port: empty; give a path, serial=NUMBER, VID:PID, auto or "
                            "emulator")
        if text == "auto":
            return cls()
        if text.startswith("serial="):
            number = text.removeprefix("serial=")
            if not number:
                raise PortError("serial port: 'serial=' needs the USB serial number")
            return cls(serial=number)
        m = re.fullmatch(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{4})", text)
        if m:
            return cls(vid_pid=(int(m[1], 16), int(m[2], 16)))
        if text.startswith("/") or re.fullmatch(r"COM\d+", text):
            return cls(path=text)
        raise PortError(f"serial port {text!r}: give a device path (/dev/ttyACM0), "
                        "serial=NUMBER, VID:PID (2e8a:0005), auto, or emulator (the firmware "
                        "on a simulated board)")

    def __str__(self) -> str:
        if self.path:
            return self.path
        if self.serial:
            return f"serial={self.serial}"
        if self.vid_pid:
            return "{:04x}:{:04x}".format(*self.vid_pid)
        return "auto"

    def find(self) -> str | None:
        """The device path of the board now, or None while it is not there."""
        if self.path is not None:
            return self.path if os.path.exists(self.path) else None
        found = [p for p in list_ports.comports() if self._matches(p)]
        if len(found) > 1 and self.serial is None and self.vid_pid is None:
            names = ", ".join(sorted(p.device for p in found))
            raise PortError(f"serial port auto: several Raspberry Pi devices ({names}); "
                            "choose one with serial=NUMBER or a path")
        return sorted(p.device for p in found)[0] if found else None

    def _matches(self, port) -> bool:
        if self.serial is not None:
            return port.serial_number == self.serial
        if self.vid_pid is not None:
            return (port.vid, port.pid) == self.vid_pid
        return port.vid == PICO_VID


def describe_ports() -> str:
    """The serial devices present, for an error message."""
    ports = list_ports.comports()
    if not ports:
        return "no serial devices present"
    def one(p) -> str:
        usb = f"{p.vid:04x}:{p.pid:04x}" if p.vid is not None else "no USB id"
        number = f", serial={p.serial_number}" if p.serial_number else ""
        return f"{p.device} ({usb}{number})"

    return "present: " + "; ".join(one(p) for p in ports)
