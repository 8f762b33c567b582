"""The wire protocol between the host and the microcontroller (docs/protocol.md), host side.

A frame is ``COBS(body + CRC-32(body) little-endian) + b"\\x00"``; the first byte of a body
is its message type. Messages from the board parse into small named tuples:

>>> frame = encode(led_full(7, [(255, 0, 0), (0, 0, 0)]))
>>> frame[-1], decode(frame[:-1])[:3]
(0, b'\\x83\\x07\\x00')
>>> parse(bytes.fromhex("05 0700"))
Ack(frame=7)
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from typing import NamedTuple

PROTOCOL = 1
MAX_FRAME = 4096

HELLO, SNAPSHOT, CHANGE, BUTTON, ACK, ERROR = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
SYNC, RESEND, LED_FULL, LED_DELTA, STOP = 0x81, 0x82, 0x83, 0x84, 0x85
ERRORS = {1: "damaged frame", 2: "unknown message type", 3: "wrong length",
          4: "stale LED delta", 5: "LED index out of range"}
E_FRAME, E_STALE = 1, 4
BEAT, GREETING, ANSWER, FORGOTTEN = 0, 1, 2, 3  # why a snapshot was sent

TICKS_PERIOD = 1 << 30  # the board's millisecond clock wraps here (MicroPython ticks_ms)


class ProtocolError(ValueError):
    """A frame that is intact (CRC good) but does not make sense."""


class Hello(NamedTuple):
    protocol: int
    rows: int
    cols: int
    leds: int
    boot: int
    heartbeat_ms: int
    debounce_ms: int
    firmware: str
    board_id: str
    buttons: tuple[str, ...]


class Snapshot(NamedTuple):
    seq: int
    t_ms: int
    held: int  # bit k: button k is down
    closed: frozenset[tuple[int, int]]
    cause: int = 0  # BEAT, GREETING, ANSWER or FORGOTTEN (answers to a RESEND)


class Change(NamedTuple):
    seq: int
    t_ms: int
    row: int
    col: int
    closed: bool


class Button(NamedTuple):
    seq: int
    t_ms: int
    index: int
    down: bool


class Ack(NamedTuple):
    frame: int


class Error(NamedTuple):
    code: int
    detail: int
    text: str


Message = Hello | Snapshot | Change | Button | Ack | Error


def encode(body: bytes) -> bytes:
    """The bytes on the wire for ``body``: COBS of body + CRC, then the zero."""
    data = body + struct.pack("<I", zlib.crc32(body))
    out = bytearray()
    for part in data.split(b"\x00"):
        while len(part) >= 254:
            out += b"\xff" + part[:254]
            part = part[254:]
        out += bytes((len(part) + 1,)) + part
    return bytes(out) + b"\x00"


def decode(enc: bytes) -> bytes | None:
    """The body of one frame (the bytes between two zeros), or None when it is damaged."""
    out = bytearray()
    i, n = 0, len(enc)
    while i < n:
        code = enc[i]
        if code == 0 or i + code > n:
            return None
        out += enc[i + 1:i + code]
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    if len(out) < 5 or zlib.crc32(out[:-4]) != struct.unpack("<I", out[-4:])[0]:
        return None
    return bytes(out[:-4])


class Receiver:
    """Splits a byte stream into frame bodies; a damaged frame gives None."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes | None]:
        self._buf += data
        *frames, self._buf = self._buf.split(b"\x00")
        if len(self._buf) > MAX_FRAME:
            self._buf = bytearray()
            frames.append(b"\x01")  # noise with no end: one damaged frame
        return [decode(f) if len(f) <= MAX_FRAME else None for f in frames if f]


def parse(body: bytes, cols: int = 0) -> Message:
    """The message in an intact body from the board (``cols``: the matrix width, for
    snapshots; from the hello)."""
    kind, rest = body[0], body[1:]
    try:
        if kind == HELLO:
            head = struct.calcsize("<BBBHIHB")
            proto, rows, ncols, leds, boot, hb, db = struct.unpack("<BBBHIHB", rest[:head])
            texts, i = [], head
            for _ in range(3):
                size = rest[i]
                texts.append(bytes(rest[i + 1:i + 1 + size]).decode())
                i += 1 + size
            if i != len(rest):
                raise ProtocolError("hello: trailing bytes")
            buttons = tuple(texts[2].split(",")) if texts[2] else ()
            return Hello(proto, rows, ncols, leds, boot, hb, db, texts[0], texts[1], buttons)
        if kind == SNAPSHOT:
            seq, t, held, cause = struct.unpack("<IIHB", rest[:11])
            bits = rest[11:]
            if not cols:
                raise ProtocolError("snapshot before hello")
            closed = frozenset(divmod(i, cols) for i in range(len(bits) * 8)
                               if bits[i >> 3] >> (i & 7) & 1)
            return Snapshot(seq, t, held, closed, cause)
        if kind == CHANGE:
            seq, t, r, c, closed = struct.unpack("<IIBBB", rest)
            return Change(seq, t, r, c, bool(closed))
        if kind == BUTTON:
            seq, t, k, down = struct.unpack("<IIBB", rest)
            return Button(seq, t, k, bool(down))
        if kind == ACK:
            return Ack(*struct.unpack("<H", rest))
        if kind == ERROR:
            code, detail = struct.unpack("<BH", rest[:3])
            return Error(code, detail, bytes(rest[3:]).decode("utf-8", "replace"))
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolError(f"message type 0x{kind:02x}: {e}") from None
    raise ProtocolError(f"unknown message type 0x{kind:02x}")


# -- messages to the board ---------------------------------------------------------------

def sync() -> bytes:
    return bytes((SYNC,))


def resend(since: int) -> bytes:
    return struct.pack("<BI", RESEND, since)


def stop() -> bytes:
    return bytes((STOP,))


def led_full(frame: int, colours: Iterable[tuple[int, int, int]]) -> bytes:
    return struct.pack("<BH", LED_FULL, frame) + bytes(v for rgb in colours for v in rgb)


def led_delta(frame: int, base: int,
              changed: Iterable[tuple[int, tuple[int, int, int]]]) -> bytes:
    body = bytearray(struct.pack("<BHH", LED_DELTA, frame, base))
    for i, (r, g, b) in changed:
        body += struct.pack("<HBBB", i, r, g, b)
    return bytes(body)


def ticks_diff(a: int, b: int) -> int:
    """``a - b`` in milliseconds of the board's wrapping clock (like MicroPython's)."""
    d = (a - b) % TICKS_PERIOD
    return d - TICKS_PERIOD if d >= TICKS_PERIOD // 2 else d
