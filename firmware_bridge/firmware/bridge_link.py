# The framing of the serial link, for the Pico (MicroPython) side.
# A frame on the wire is COBS(body + CRC-32 of body, little-endian) followed by one 0x00.
# See docs/protocol.md. Runs unchanged under CPython (the emulator) and MicroPython.

try:
    from binascii import crc32
except ImportError:  # a MicroPython build without binascii.crc32
    crc32 = None

if crc32 is None:
    _TABLE = []
    for _i in range(256):
        _c = _i
        for _ in range(8):
            _c = (_c >> 1) ^ 0xEDB88320 if _c & 1 else _c >> 1
        _TABLE.append(_c)

    def crc32(data, crc=0):
        crc ^= 0xFFFFFFFF
        for b in data:
            crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
        return crc ^ 0xFFFFFFFF


MAX_FRAME = 4096  # bytes between two zeros; anything longer is noise


def encode(body):
    """The bytes on the wire for one frame carrying ``body``."""
    c = crc32(body) & 0xFFFFFFFF
    data = bytes(body) + bytes((c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, c >> 24))
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    o = 1
    code = 1
    for b in data:
        if b:
            out[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
        else:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
    out[code_at] = code
    out[o] = 0
    return bytes(out[: o + 1])


def decode(enc):
    """The body inside one frame (without its zero), or None if it is damaged."""
    out = bytearray()
    i = 0
    n = len(enc)
    while i < n:
        code = enc[i]
        if code == 0 or i + code > n:
            return None
        out.extend(enc[i + 1 : i + code])
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    if len(out) < 5:
        return None
    body = bytes(out[:-4])
    c = out[-4] | (out[-3] << 8) | (out[-2] << 16) | (out[-1] << 24)
    if crc32(body) & 0xFFFFFFFF != c:
        return None
    return body


class Receiver:
    """Collects bytes into frames; ``feed`` returns the bodies completed, with None for
    each damaged frame (a bad CRC, bad COBS, or too long)."""

    def __init__(self):
        self.buf = bytearray()
        self.overflow = False

    def feed(self, data):
        done = []
        for b in data:
            if b:
                if len(self.buf) < MAX_FRAME:
                    self.buf.append(b)
                else:
                    self.overflow = True
                continue
            if self.buf or self.overflow:
                done.append(None if self.overflow else decode(self.buf))
            self.buf = bytearray()
            self.overflow = False
        return done
