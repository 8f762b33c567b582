"""The Pico firmware on a simulated board, at one end of a pseudo-terminal.

``python -m firmware_bridge.emulator --rows 7 --cols 6 --leds 41 --buttons clock
--link /tmp/board/tty`` runs the firmware of ``firmware_bridge/firmware`` under CPython,
with stand-ins for MicroPython's ``machine`` and ``neopixel`` modules wired to
:class:`hardware.sim.SimBoard` through :class:`hardware.sim.SimGPIO` (so the firmware's
own scan code drives rows and reads columns of the electrical model). The host opens the
pty's other end as a serial port; ``--link`` is a symlink to it, kept up to date like
udev's ``/dev/serial/by-id`` names.

Commands on standard input, one JSON object a line; each is answered on standard output
with ``{"ok": OP, "at": <time.monotonic() when done>}`` (plus what it asks for):

* ``{"op": "place", "addr": [r, c]}``, ``{"op": "lift", "addr": [r, c]}``: a magnet;
  ``{"op": "place_many", "addrs": [[r, c], ...]}``: several at the same instant
* ``{"op": "script", "steps": [["place", [r, c]], ["lift", [r, c]], ...], "hold": 0.03}``:
  magnets moved one after the other, each state held ``hold`` seconds and until the
  firmware has reported it (a stalled process stretches the holds, never squeezes them)
* ``{"op": "bounce", "seconds": 0.003}``: how long contacts bounce from now on
* ``{"op": "press", "button": 0, "down": true}``: hold a button (or let it go)
* ``{"op": "leds"}``: answers ``"leds": [[r, g, b], ...]`` as the NeoPixels show them
* ``{"op": "unplug", "seconds": 2.0}``: the cable pulled: the pty vanishes, the firmware
  loses power; magnets still move; then a new pty (a new name) and a fresh boot
* ``{"op": "restart"}``: the microcontroller resets; the pty stays
* ``{"op": "fault", "kind": "drop" | "corrupt" | "truncate", "count": n}``: the next n
  frames to the host are lost, get a byte flipped, or stop half-way; ``corrupt_in``: the
  next n chunks from the host get a byte flipped
* ``{"op": "noise", "hex": "..."}``: raw bytes onto the line
* ``{"op": "mute", "seconds": 1.5}``: nothing the board sends reaches the host for that
  long (a stalled USB port, a starved board); the board goes on scanning and listening
* ``{"op": "quit"}``

Every new pty is announced as ``{"tty": "/dev/pts/N", "boot": k}``.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import sys
import time
import tty
import types
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent / "firmware"


def install_standins(gpio, pixels: list) -> None:
    """Make ``import machine`` and ``import neopixel`` give stand-ins over ``gpio`` (a
    SimGPIO); the NeoPixel stand-in records each written frame into ``pixels``."""

    class Pin:
        IN, OUT, OPEN_DRAIN = 0, 1, 2
        PULL_UP, PULL_DOWN = 1, 2

        def __init__(self, ident, mode=-1, pull=-1, *, value=None):
            self.ident = ident
            if mode != -1:
                self.init(mode, pull, value=value)

        def init(self, mode=-1, pull=-1, *, value=None):
            if mode == Pin.OUT:
                gpio.setup(self.ident, gpio.OUT, initial=gpio.HIGH if value else gpio.LOW)
            elif mode == Pin.IN:
                pud = {Pin.PULL_UP: gpio.PUD_UP, Pin.PULL_DOWN: gpio.PUD_DOWN}.get(
                    pull, gpio.PUD_OFF)
                gpio.setup(self.ident, gpio.IN, pull_up_down=pud)

        def value(self, v=None):
            if v is None:
                return gpio.input(self.ident)
            gpio.output(self.ident, 1 if v else 0)
            return None

    class NeoPixel:
        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin, self.n = pin, n
            self.buf = [(0, 0, 0)] * n

        def __len__(self):
            return self.n

        def __setitem__(self, i, rgb):
            self.buf[i] = tuple(rgb)

        def __getitem__(self, i):
            return self.buf[i]

        def fill(self, rgb):
            self.buf = [tuple(rgb)] * self.n

        def write(self):
            pixels[:] = self.buf

    machine = types.ModuleType("machine")
    machine.Pin = Pin
    machine.unique_id = lambda: b"\xe6\x61\x4c\x31\x1b\x6b\x8f\x2a"
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel


class Emulator:
    """One emulated board; :meth:`run` serves commands and the pty until ``quit``."""

    def __init__(self, args: argparse.Namespace) -> None:
        from hardware.clock import RealClock
        from hardware.sim import SimBoard, SimGPIO

        sys.path.insert(0, str(FIRMWARE))
        import bridge_fw

        self.fw_module = bridge_fw
        self.args = args
        self.board = SimBoard(args.rows, args.cols, clock=RealClock(), diodes=not args.no_diodes,
                              bounce=args.bounce, seed=args.seed)
        self.row_pins = tuple(range(args.rows))
        self.col_pins = tuple(range(args.rows, args.rows + args.cols))
        self.led_pin = args.rows + args.cols
        self.button_pins = [self.led_pin + 1 + k for k in range(len(args.buttons))]
        self.gpio = SimGPIO(self.board, self.row_pins, self.col_pins)
        self.gpio.setmode(self.gpio.BCM)
        self.pixels: list = [(0, 0, 0)] * args.leds
        install_standins(self.gpio, self.pixels)
        for addr in args.magnet:
            self.board.place(addr)
        self.faults: list[str] = []
        self.in_faults = 0
        self.mute_until = 0.0
        self.script: list[tuple[str, tuple[int, int]]] = []
        self.script_hold = 0.03
        self.script_at = 0.0
        self.script_cell: tuple[int, bool] | None = None
        self.last_tty: str | None = None
        self.master: int | None = None
        self.slave: int | None = None
        self.fw = None
        self.boots = 0
        self.plug_at: float | None = None
        self.sel = selectors.DefaultSelector()
        self.sel.register(sys.stdin, selectors.EVENT_READ, "control")
        self.running = True
        self.pending = b""

    def config(self) -> types.SimpleNamespace:
        a = self.args
        return types.SimpleNamespace(
            ROW_PINS=self.row_pins, COL_PINS=self.col_pins, LED_PIN=self.led_pin,
            LED_COUNT=a.leds, BUTTONS=tuple(zip(a.buttons, self.button_pins, strict=True)),
            BRIGHTNESS=a.brightness, BOARD_ID=a.board_id, DEBOUNCE_MS=a.debounce_ms,
            BUTTON_MS=20, SCAN_MS=a.scan_ms, SETTLE_US=0, HEARTBEAT_MS=a.heartbeat_ms)

    # -- the cable and the power ----------------------------------------------------------
    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        if os.ttyname(self.slave) == self.last_tty:
            # the kernel gave the old number back; a real host often does not (the old
            # node is still held open), and the host must cope with either
            spare = self.master, self.slave
            self.master, self.slave = os.openpty()
            os.close(spare[0])
            os.close(spare[1])
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        name = self.last_tty = os.ttyname(self.slave)
        link = Path(self.args.link)
        tmp = link.with_name(link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(name)
        tmp.replace(link)
        self.sel.register(self.master, selectors.EVENT_READ, "pty")
        self.boot()
        self.say({"tty": name, "boot": self.boots, "at": time.monotonic()})

    def unplug(self) -> None:
        Path(self.args.link).unlink(missing_ok=True)
        if self.master is not None:
            self.sel.unregister(self.master)
            os.close(self.master)
            os.close(self.slave)
        self.master = self.slave = None
        self.fw = None  # no power without the cable

    def boot(self) -> None:
        self.boots += 1
        self.pixels[:] = [(0, 0, 0)] * self.args.leds
        self.fw = self.fw_module.from_config(self.config(), self.write)

    def write(self, frame: bytes) -> None:
        if self.faults:
            kind = self.faults.pop(0)
            if kind == "drop":
                return
            if kind == "corrupt":
                i = len(frame) // 2
                frame = frame[:i] + bytes(((frame[i] ^ 0x5A) or 1,)) + frame[i + 1:]
            elif kind == "truncate":
                frame = frame[: len(frame) // 2]
        if self.master is None or time.monotonic() < self.mute_until:
            return
        try:
            os.write(self.master, frame)
        except BlockingIOError:
            pass  # the host is not reading: the bytes are lost, as on a stalled USB port
        except OSError:
            pass

    # -- commands --------------------------------------------------------------------------
    def say(self, item: dict) -> None:
        sys.stdout.write(json.dumps(item) + "\n")
        sys.stdout.flush()

    def command(self, line: str) -> None:
        cmd = json.loads(line)
        op = cmd["op"]
        reply: dict = {}
        if op == "place":
            self.board.place(tuple(cmd["addr"]))
        elif op == "place_many":
            for addr in cmd["addrs"]:
                self.board.place(tuple(addr))
        elif op == "lift":
            self.board.lift(tuple(cmd["addr"]))
        elif op == "script":
            self.script += [(step[0], tuple(step[1])) for step in cmd["steps"]]
            self.script_hold = float(cmd.get("hold", 0.03))
        elif op == "bounce":
            self.board.bounce = float(cmd["seconds"])
        elif op == "press":
            pin = self.button_pins[cmd["button"]]
            self.gpio.set_input(pin, self.gpio.LOW if cmd.get("down", True) else self.gpio.HIGH)
        elif op == "leds":
            reply["leds"] = [list(p) for p in self.pixels]
        elif op == "unplug":
            self.unplug()
            self.plug_at = time.monotonic() + float(cmd.get("seconds", 1.0))
        elif op == "restart":
            self.boot()
        elif op == "fault" and cmd["kind"] == "corrupt_in":
            self.in_faults += int(cmd.get("count", 1))
        elif op == "fault":
            self.faults += [cmd["kind"]] * int(cmd.get("count", 1))
        elif op == "mute":
            self.mute_until = time.monotonic() + float(cmd["seconds"])
        elif op == "noise":
            if self.master is not None:
                os.write(self.master, bytes.fromhex(cmd["hex"]))
        elif op == "quit":
            self.running = False
        else:
            raise ValueError(f"unknown op {op!r}")
        self.say({"ok": op, "at": time.monotonic(), **reply})

    def reported(self) -> bool:
        """Whether the firmware has reported the script's last step (debounced it)."""
        if self.script_cell is None:
            return True
        i, closed = self.script_cell
        return bool(self.fw.state[i]) == closed

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> None:
        self.plug()
        period = self.args.scan_ms / 1000
        next_scan = time.monotonic()
        while self.running:
            timeout = max(0.0, next_scan - time.monotonic())
            for key, _ in self.sel.select(timeout):
                if key.data == "control":
                    data = os.read(sys.stdin.fileno(), 65536)
                    if not data:
                        self.running = False
                        break
                    *lines, self.pending = (self.pending + data).split(b"\n")
                    for line in lines:
                        self.command(line.decode())
                elif self.master is not None:
                    try:
                        data = os.read(self.master, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    if data and self.in_faults:
                        self.in_faults -= 1
                        i = len(data) // 2
                        data = data[:i] + bytes(((data[i] ^ 0x5A) or 1,)) + data[i + 1:]
                    if data and self.fw is not None:
                        self.fw.receive(data, self.fw_module.ticks_ms())
            now = time.monotonic()
            if self.plug_at is not None and now >= self.plug_at:
                self.plug_at = None
                self.plug()
            if self.script and self.fw is not None and self.reported() \
                    and now >= self.script_at:
                op, addr = self.script.pop(0)
                (self.board.place if op == "place" else self.board.lift)(addr)
                self.script_cell = (addr[0] * self.args.cols + addr[1], op == "place")
                self.script_at = now + self.script_hold
            if now >= next_scan:
                next_scan = max(next_scan + period, now)
                if self.fw is not None:
                    self.fw.step(self.fw_module.ticks_ms())
                    if self.fw.stopped:
                        self.running = False
        self.unplug()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator",
                                 description="the Pico firmware on a simulated board")
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--cols", type=int, required=True)
    ap.add_argument("--leds", type=int, required=True)
    ap.add_argument("--buttons", default="", help="button names, comma-separated")
    ap.add_argument("--link", required=True, help="symlink kept pointing at the pty")
    ap.add_argument("--magnet", action="append", default=[], metavar="R,C",
                    help="a magnet on the board at power-up (repeatable)")
    ap.add_argument("--no-diodes", action="store_true")
    ap.add_argument("--bounce", type=float, default=0.003)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--brightness", type=float, default=1.0)
    ap.add_argument("--board-id", default="emulator")
    ap.add_argument("--debounce-ms", type=int, default=10)
    ap.add_argument("--heartbeat-ms", type=int, default=250)
    ap.add_argument("--scan-ms", type=int, default=2)
    args = ap.parse_args(argv)
    args.buttons = [b for b in args.buttons.split(",") if b]
    args.magnet = [tuple(int(v) for v in m.split(",")) for m in args.magnet]
    return args


def main(argv: list[str] | None = None) -> int:
    Emulator(parse_args(argv)).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
