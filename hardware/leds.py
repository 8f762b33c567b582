"""LED strips: an in-memory one and NeoPixels through adafruit-circuitpython-neopixel."""

from __future__ import annotations

from typing import Any

from hardware.base import RGB

OFF: RGB = (0, 0, 0)


def _rgb(rgb: RGB) -> RGB:
    r, g, b = rgb
    for v in (r, g, b):
        if not isinstance(v, int) or not 0 <= v <= 255:
            raise ValueError(f"colour {rgb!r}: each component must be an int 0..255")
    return (r, g, b)


class _Frame:
    """The frame being built by set()/fill(), common to both strips."""

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"a strip needs at least one LED, got n={n}")
        self.n = n
        self._next: list[RGB] = [OFF] * n

    def set(self, i: int, rgb: RGB) -> None:
        if not 0 <= i < self.n:
            raise IndexError(f"LED index {i} outside 0..{self.n - 1}")
        self._next[i] = _rgb(rgb)

    def fill(self, rgb: RGB) -> None:
        self._next = [_rgb(rgb)] * self.n


class MemoryStrip(_Frame):
    """An LED strip that only remembers the frame last shown."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._shown: list[RGB] = [OFF] * n
        self.shows = 0

    def show(self) -> None:
        self._shown = list(self._next)
        self.shows += 1

    def shown(self) -> list[RGB]:
        return list(self._shown)


class NeoPixelStrip(_Frame):
    """WS2812 ("NeoPixel") LEDs on one data pin, through Adafruit Blinka.

    On a Pi use D18 (PWM) or D10 (SPI MOSI); see docs/hardware.md. Off a Pi, run with
    BLINKA_OS_AGNOSTIC=1 and a pin of Blinka's generic board such as "NEOPIXEL".
    """

    def __init__(
        self,
        n: int,
        *,
        pin: str = "D18",
        brightness: float = 0.3,
        pixel_order: str = "GRB",
    ) -> None:
        super().__init__(n)
        try:
            import board
            import neopixel
        except (ImportError, NotImplementedError, RuntimeError) as e:
            raise RuntimeError(
                f"cannot load Blinka/neopixel ({e}); off a Raspberry Pi set BLINKA_OS_AGNOSTIC=1"
            ) from e
        board_pin = getattr(board, pin, None)
        if type(board_pin).__name__ != "Pin":
            available = sorted(
                name for name in dir(board)
                if not name.startswith("_") and type(getattr(board, name)).__name__ == "Pin"
            )
            raise ValueError(
                f"this board ({getattr(board, 'board_id', '?')}) has no pin {pin!r}; "
                f"available pins: {', '.join(available)}"
            )
        self.pin = pin
        self._pixels: Any = neopixel.NeoPixel(
            board_pin, n, brightness=brightness, auto_write=False, pixel_order=pixel_order
        )

    def show(self) -> None:
        # The library's buffer is only written here, so it always holds the last shown frame.
        self._pixels[:] = self._next
        self._pixels.show()

    def shown(self) -> list[RGB]:
        """Read back from the neopixel object (values before brightness scaling)."""
        return [(int(p[0]), int(p[1]), int(p[2])) for p in self._pixels]

    def close(self) -> None:
        """Blank the LEDs and release the pin."""
        self._pixels.deinit()
