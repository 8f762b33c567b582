"""The emulator as seen from the host: start it, move its magnets, pull its cable.

>>> # with EmulatorProcess(rows=7, cols=6, leds=41, buttons=["clock"]) as emu:
>>> #     link = Link(emu.path); emu.place((0, 0)); emu.unplug(2.0); emu.leds()
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

Address = tuple[int, int]


class EmulatorError(RuntimeError):
    pass


class EmulatorProcess:
    """``python -m firmware_bridge.emulator`` in its own process; ``path`` is the symlink
    to its pty (the name stays while the pty behind it changes), ``tty`` the pty now."""

    def __init__(self, rows: int, cols: int, leds: int, buttons: Sequence[str] = (), *,
                 magnets: Iterable[Address] = (), diodes: bool = True, bounce: float = 0.003,
                 seed: int = 0, brightness: float = 1.0, heartbeat_ms: int = 250,
                 debounce_ms: int = 10, folder: str | None = None) -> None:
        self._tmp = None if folder else tempfile.TemporaryDirectory(prefix="sensorboard-emu-")
        self.folder = Path(folder or self._tmp.name)
        self.path = str(self.folder / "ttyPICO")
        self.buttons = list(buttons)
        cmd = [sys.executable, "-m", "firmware_bridge.emulator", "--rows", str(rows),
               "--cols", str(cols), "--leds", str(leds), "--buttons", ",".join(buttons),
               "--link", self.path, "--bounce", str(bounce), "--seed", str(seed),
               "--brightness", str(brightness), "--heartbeat-ms", str(heartbeat_ms),
               "--debounce-ms", str(debounce_ms)]
        if not diodes:
            cmd.append("--no-diodes")
        for r, c in magnets:
            cmd += ["--magnet", f"{r},{c}"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._replies: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self.tty: str | None = None
        self.boots = 0
        self.plugged_at = 0.0  # time.monotonic() of the last plug-in
        self._plugged = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self._plugged.wait(10.0):
            self.close()
            raise EmulatorError("the emulator did not start")

    def _read(self) -> None:
        for line in self.proc.stdout:
            item = json.loads(line)
            if "tty" in item:
                self.tty, self.boots, self.plugged_at = item["tty"], item["boot"], item["at"]
                self._plugged.set()
            else:
                self._replies.put(item)
        self._replies.put(None)

    def command(self, op: str, **args) -> dict:
        with self._lock:
            if self.proc.poll() is not None:
                raise EmulatorError(f"the emulator has exited ({self.proc.returncode})")
            self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
            self.proc.stdin.flush()
            try:
                reply = self._replies.get(timeout=5.0)
            except queue.Empty:
                raise EmulatorError(f"the emulator did not answer {op}") from None
        if reply is None or reply.get("ok") != op:
            raise EmulatorError(f"the emulator answered {reply!r} to {op}")
        return reply

    def place(self, addr: Address) -> float:
        """Put a magnet on ``addr``; returns the time.monotonic() at which it was there."""
        return self.command("place", addr=list(addr))["at"]

    def lift(self, addr: Address) -> float:
        return self.command("lift", addr=list(addr))["at"]

    def script(self, steps: list[tuple[str, Address]], hold: float = 0.03) -> None:
        """Move magnets one after the other (``("place", addr)``, ``("lift", addr)``),
        each state held ``hold`` seconds on the board; returns at once."""
        self.command("script", steps=[[op, list(a)] for op, a in steps], hold=hold)

    def bounce(self, seconds: float) -> None:
        self.command("bounce", seconds=seconds)

    def press(self, button: str, down: bool = True) -> None:
        self.command("press", button=self.buttons.index(button), down=down)

    def leds(self) -> list[tuple[int, int, int]]:
        return [tuple(p) for p in self.command("leds")["leds"]]

    def unplug(self, seconds: float) -> None:
        """Pull the cable for ``seconds``: the board loses power, then boots again on a
        new pty (``path`` follows it)."""
        self._plugged.clear()
        self.command("unplug", seconds=seconds)

    def wait_plugged(self, timeout: float = 10.0) -> bool:
        return self._plugged.wait(timeout)

    def restart(self) -> None:
        self.command("restart")

    def fault(self, kind: str, count: int = 1) -> None:
        self.command("fault", kind=kind, count=count)

    def mute(self, seconds: float) -> None:
        """Nothing the board sends reaches the host for ``seconds`` (it goes on scanning)."""
        self.command("mute", seconds=seconds)

    def noise(self, data: bytes) -> None:
        self.command("noise", hex=data.hex())

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=3.0)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> EmulatorProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_for(condition, timeout: float = 2.0, every: float = 0.002) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds have passed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(every)
    return bool(condition())
