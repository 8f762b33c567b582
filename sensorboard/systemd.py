"""Talking to systemd: readiness, the watchdog and stopping, through $NOTIFY_SOCKET.

The protocol is one datagram per message on the unix socket systemd names in
``NOTIFY_SOCKET`` (a leading ``@`` is the abstract namespace); ``WATCHDOG_USEC`` is the
watchdog period when the unit sets ``WatchdogSec=``. Outside systemd every call does
nothing.

>>> notifier = Notifier({})   # not under systemd
>>> notifier.ready(), notifier.tick(0.0), notifier.stopping()
(False, False, False)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        self.every = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 and mine else None
        self._next = 0.0

    def send(self, message: str) -> bool:
        """Send one message; False when not under systemd (or the socket is gone)."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def tick(self, now: float) -> bool:
        """Ping the watchdog if half its period has passed since the last ping."""
        if self.every is None or now < self._next:
            return False
        self._next = now + self.every
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
