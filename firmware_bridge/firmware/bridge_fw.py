# The Pico firmware's logic: scan the switch matrix with per-cell debouncing, read the
# buttons, drive the NeoPixels, and speak the link protocol (docs/protocol.md).
# Hardware comes in as objects (pins, a NeoPixel, a write function), so the same code runs
# on the Pico (main.py), under MicroPython in the tests, and in the emulator under CPython.

import struct

from bridge_link import Receiver, encode

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython (the emulator): the same 30-bit wrapping millisecond ticks
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000) & 0x3FFFFFFF

    def ticks_diff(a, b):
        d = (a - b) & 0x3FFFFFFF
        return d - 0x40000000 if d & 0x20000000 else d


PROTOCOL = 1
VERSION = "1.0.0"

HELLO = 0x01
SNAPSHOT = 0x02
CHANGE = 0x03
BUTTON = 0x04
ACK = 0x05
ERROR = 0x06
SYNC = 0x81
RESEND = 0x82
LED_FULL = 0x83
LED_DELTA = 0x84
STOP = 0x85

BEAT = 0  # why a snapshot was sent: the heartbeat,
GREETING = 1  # after the hello,
ANSWER = 2  # the end of the answer to a RESEND, after the events asked for
FORGOTTEN = 3  # the answer to a RESEND for events no longer kept

E_FRAME = 1  # a damaged frame arrived (CRC, COBS, too long)
E_TYPE = 2  # unknown message type
E_LENGTH = 3  # a message of the wrong length
E_STALE = 4  # an LED delta whose base is not the frame shown
E_RANGE = 5  # an LED index outside the strip


class Firmware:
    """One board. ``step(now)`` scans once; ``receive(data, now)`` takes bytes from the host.

    ``pin`` is the Pin class (for its IN/OUT constants); ``rows`` and ``cols`` are Pin
    objects (rows driven HIGH one at a time, columns with pull-downs); ``buttons`` is a list
    of (name, Pin) with pull-ups, pressed when LOW; ``leds`` a NeoPixel object or None.
    """

    def __init__(self, pin, rows, cols, leds, buttons, write, board_id, debounce_ms=10,
                 button_ms=20, heartbeat_ms=250, brightness=255, settle=None, history=64):
        self.pin = pin
        self.rows = rows
        self.cols = cols
        self.leds = leds
        self.nleds = len(leds) if leds is not None else 0
        self.buttons = buttons
        self.write = write
        self.board_id = board_id
        self.debounce_ms = debounce_ms
        self.button_ms = button_ms
        self.heartbeat_ms = heartbeat_ms
        self.brightness = brightness
        self.settle = settle
        self.history_len = history
        n = len(rows) * len(cols)
        self.raw = bytearray(n)
        self.state = bytearray(n)
        self.pending = bytearray(n)
        self.since = [0] * n
        nb = len(buttons)
        self.b_state = bytearray(nb)
        self.b_pending = bytearray(nb)
        self.b_since = [0] * nb
        self.seq = 0
        self.history = []
        self.frame_id = 0
        self.rx = Receiver()
        self.boot = _boot_id()
        self.greeted = False
        self.boot_since = None
        self.last_snapshot = 0
        self.stopped = False
        for p in rows:
            p.init(pin.IN, None)

    # -- one scan -----------------------------------------------------------------------
    def step(self, now):
        self.scan()
        if not self.greeted:
            self.settle_boot(now)
            return
        self.debounce(now)
        if self.buttons:
            self.poll_buttons(now)
        if ticks_diff(now, self.last_snapshot) >= self.heartbeat_ms:
            self.snapshot(now, BEAT)

    def scan(self):
        out = self.pin.OUT
        inp = self.pin.IN
        raw = self.raw
        settle = self.settle
        i = 0
        for row in self.rows:
            row.init(out, value=1)
            if settle is not None:
                settle()
            for col in self.cols:
                raw[i] = col.value()
                i += 1
            row.init(inp, None)

    def settle_boot(self, now):
        # The state at power-up is the first reading that holds for the debounce window,
        # so pieces already on the board are in the first snapshot, not reported as news.
        if self.boot_since is None or self.raw != self.state:
            self.state = bytearray(self.raw)
            self.boot_since = now
        elif ticks_diff(now, self.boot_since) >= self.debounce_ms:
            if self.buttons:
                for k in range(len(self.buttons)):
                    self.b_state[k] = 1 if self.buttons[k][1].value() == 0 else 0
            self.greet(now)

    def debounce(self, now):
        raw = self.raw
        state = self.state
        pending = self.pending
        since = self.since
        window = self.debounce_ms
        ncols = len(self.cols)
        for i in range(len(raw)):
            if raw[i] != state[i]:
                if not pending[i]:
                    pending[i] = 1
                    since[i] = now
                if ticks_diff(now, since[i]) >= window:
                    pending[i] = 0
                    state[i] = raw[i]
                    self.event(struct.pack("<BIIBBB", CHANGE, self.seq + 1, now,
                                           i // ncols, i % ncols, state[i]))
            elif pending[i]:
                pending[i] = 0

    def poll_buttons(self, now):
        for k in range(len(self.buttons)):
            down = 1 if self.buttons[k][1].value() == 0 else 0
            if down != self.b_state[k]:
                if not self.b_pending[k]:
                    self.b_pending[k] = 1
                    self.b_since[k] = now
                if ticks_diff(now, self.b_since[k]) >= self.button_ms:
                    self.b_pending[k] = 0
                    self.b_state[k] = down
                    self.event(struct.pack("<BIIBB", BUTTON, self.seq + 1, now, k, down))
            elif self.b_pending[k]:
                self.b_pending[k] = 0

    # -- messages to the host ---------------------------------------------------------
    def send(self, body):
        self.write(encode(body))

    def event(self, body):
        self.seq += 1
        self.history.append((self.seq, body))
        if len(self.history) > self.history_len:
            self.history.pop(0)
        self.send(body)

    def greet(self, now):
        self.greeted = True
        names = ",".join(name for name, _ in self.buttons)
        body = struct.pack("<BBBBHIHB", HELLO, PROTOCOL, len(self.rows), len(self.cols),
                           self.nleds, self.boot, self.heartbeat_ms, self.debounce_ms)
        for text in (VERSION, self.board_id, names):
            data = text.encode()
            body += bytes((len(data),)) + data
        self.send(body)
        self.snapshot(now, GREETING)

    def snapshot(self, now, cause):
        self.last_snapshot = now
        bits = bytearray((len(self.state) + 7) // 8)
        for i in range(len(self.state)):
            if self.state[i]:
                bits[i >> 3] |= 1 << (i & 7)
        held = 0
        for k in range(len(self.b_state)):
            if self.b_state[k]:
                held |= 1 << k
        self.send(struct.pack("<BIIHB", SNAPSHOT, self.seq, now, held, cause) + bytes(bits))

    def error(self, code, detail, text):
        self.send(struct.pack("<BBH", ERROR, code, detail & 0xFFFF) + text.encode())

    # -- messages from the host -------------------------------------------------------
    def receive(self, data, now):
        for body in self.rx.feed(data):
            if body is None:
                self.error(E_FRAME, 0, "damaged frame dropped")
            else:
                self.handle(body, now)

    def handle(self, body, now):
        kind = body[0]
        if not self.greeted:
            return  # the greeting comes by itself once the board has settled
        if kind == SYNC:
            self.greet(now)
        elif kind == RESEND:
            if len(body) != 5:
                return self.error(E_LENGTH, kind, "resend: 5 bytes expected")
            since = struct.unpack("<I", body[1:5])[0]
            old = self.history
            if since >= self.seq:
                return self.snapshot(now, ANSWER)
            if not old or old[0][0] > since + 1:
                return self.snapshot(now, FORGOTTEN)
            for seq, event in old:
                if seq > since:
                    self.send(event)
            self.snapshot(now, ANSWER)
        elif kind == LED_FULL:
            self.led_full(body)
        elif kind == LED_DELTA:
            self.led_delta(body)
        elif kind == STOP:
            self.stopped = True
        else:
            self.error(E_TYPE, kind, "unknown message type")

    def led_full(self, body):
        if len(body) != 3 + 3 * self.nleds:
            return self.error(E_LENGTH, body[0], f"led frame: {self.nleds} LEDs expected")
        fid = body[1] | (body[2] << 8)
        for i in range(self.nleds):
            j = 3 + 3 * i
            self.pixel(i, body[j], body[j + 1], body[j + 2])
        self.shown(fid)

    def led_delta(self, body):
        if len(body) < 5 or (len(body) - 5) % 5:
            return self.error(E_LENGTH, body[0], "led delta: 5 + 5*k bytes expected")
        fid, base = struct.unpack("<HH", body[1:5])
        if base != self.frame_id:
            return self.error(E_STALE, fid, "led delta: base frame is not the one shown")
        for j in range(5, len(body), 5):
            if body[j] | (body[j + 1] << 8) >= self.nleds:
                return self.error(E_RANGE, fid, "led delta: index outside the strip")
        for j in range(5, len(body), 5):
            self.pixel(body[j] | (body[j + 1] << 8), body[j + 2], body[j + 3], body[j + 4])
        self.shown(fid)

    def pixel(self, i, r, g, b):
        k = self.brightness
        self.leds[i] = (r * k // 255, g * k // 255, b * k // 255)

    def shown(self, fid):
        if self.leds is not None:
            self.leds.write()
        self.frame_id = fid
        self.send(struct.pack("<BH", ACK, fid))


def _boot_id():
    try:
        import os

        return struct.unpack("<I", os.urandom(4))[0]
    except (ImportError, AttributeError, NotImplementedError):
        return ticks_ms()


def from_config(config, write):
    """A Firmware on this board's pins (machine.Pin) and LEDs (neopixel), from config."""
    from machine import Pin, unique_id

    rows = [Pin(p, Pin.IN) for p in config.ROW_PINS]
    cols = [Pin(p, Pin.IN, Pin.PULL_DOWN) for p in config.COL_PINS]
    buttons = [(name, Pin(p, Pin.IN, Pin.PULL_UP)) for name, p in config.BUTTONS]
    leds = None
    if config.LED_COUNT:
        from neopixel import NeoPixel

        leds = NeoPixel(Pin(config.LED_PIN, Pin.OUT), config.LED_COUNT)
    board_id = config.BOARD_ID or "".join(f"{b:02x}" for b in unique_id())
    settle = None
    if config.SETTLE_US:
        try:
            from time import sleep_us

            us = config.SETTLE_US

            def settle():
                sleep_us(us)
        except ImportError:
            pass
    return Firmware(Pin, rows, cols, leds, buttons, write, board_id,
                    debounce_ms=config.DEBOUNCE_MS, button_ms=config.BUTTON_MS,
                    heartbeat_ms=config.HEARTBEAT_MS,
                    brightness=int(config.BRIGHTNESS * 255), settle=settle)
