# MicroPython stand-in for the neopixel module: remembers the frame last written.


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.written = None

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        self.buf[i] = rgb

    def __getitem__(self, i):
        return self.buf[i]

    def write(self):
        self.written = list(self.buf)
