"""A real mosquitto for the tests: the shipped config on a free loopback port."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "mosquitto.conf"
BRIDGE = ROOT / "deploy" / "bridge.conf"
BRIDGE_SECURITY = ("remote_username", "remote_password", "bridge_cafile", "bridge_insecure")


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not os.access(found, os.X_OK):
        raise RuntimeError("mosquitto is not installed (make test installs it: "
                           ".ci/system-deps)")
    return found


def free_ports(count: int) -> list[int]:
    """``count`` different free ports: each socket is held until all are bound, so the
    kernel cannot hand the same port out twice."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def free_port() -> int:
    return free_ports(1)[0]


class Broker:
    """mosquitto with the shipped settings (or ``config``, one ``install.sh --hall`` wrote),
    listening on 127.0.0.1 only; stopped by pid. ``port`` is the first listener's port,
    ``tls_port`` the second's (the hall network's, with TLS)."""

    def __init__(self, folder: Path, config: Path = SHIPPED) -> None:
        self.folder = folder
        self.port, self.tls_port = free_ports(2)
        data = folder / "mosquitto-data"
        data.mkdir(parents=True, exist_ok=True)
        ports = iter([self.port, self.tls_port])
        lines = []
        for line in config.read_text().splitlines():
            if line.startswith("listener"):
                line = f"listener {next(ports)} 127.0.0.1"
            if not line.startswith("persistence_location"):
                lines.append(line)
        lines += [f"persistence_location {data}/", f"log_dest file {folder / 'mosquitto.log'}"]
        if os.geteuid() == 0:  # started as root it would read and write as 'mosquitto'
            lines.append("user root")
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None

    def start(self) -> Broker:
        self.proc = subprocess.Popen([mosquitto_binary(), "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("mosquitto did not start: "
                                       f"{self.proc.stderr.read()}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            self.proc.wait(10)
        self.proc = None


def bridge_lines(name: str, central: int) -> list[str]:
    """The shipped bridge config for hall ``name``, to a central broker on loopback port
    ``central`` (without its TLS and login lines)."""
    lines = []
    for line in BRIDGE.read_text().splitlines():
        key = line.split(" ", 1)[0]
        if key.startswith("#") or not key or key in BRIDGE_SECURITY:
            continue
        lines.append({"connection": f"connection {name}",
                      "address": f"address 127.0.0.1:{central}"}.get(key, line))
    return lines
