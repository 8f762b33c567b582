"""LED strips: an in-memory one, NeoPixels through adafruit-circuitpython-neopixel (PWM on
GPIO18, or a Pi 5's PIO) and through adafruit-circuitpython-neopixel-spi (SPI0 MOSI,
GPIO10, no root). hardware.frames paces and dims the frames they show."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hardware.base import RGB

OFF: RGB = (0, 0, 0)


def _rgb(rgb: RGB) -> RGB:
    r, g, b = rgb
    if type(r) is type(g) is type(b) is int and 0 <= r <= 255 and 0 <= g <= 255 \
            and 0 <= b <= 255:
        return (r, g, b)  # (every frame sets a few LEDs: the plain case first)
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
        # The colours set_many has found good, by identity (kept, so no id is reused).
        self._checked: dict[int, RGB] = {id(OFF): OFF}

    def set(self, i: int, rgb: RGB) -> None:
        if not 0 <= i < self.n:
            raise IndexError(f"LED index {i} outside 0..{self.n - 1}")
        self._next[i] = _rgb(rgb)

    def set_many(self, leds: Iterable[tuple[int, RGB]]) -> None:
        """:meth:`set` each LED of ``leds`` (index, colour) to its colour: one call for
        the LEDs a frame changes."""
        n, frame, checked = self.n, self._next, self._checked
        for i, rgb in leds:
            # The same few colour tuples (a palette's) come frame after frame: each is
            # checked once, and then known by identity (a tuple equal to set()'s).
            if checked.get(id(rgb)) is rgb and 0 <= i < n:
                frame[i] = rgb
                continue
            self.set(i, rgb)  # (raises, naming what is wrong)
            if type(rgb) is tuple and len(checked) < 64:
                checked[id(rgb)] = rgb

    def fill(self, rgb: RGB) -> None:
        self._next = [_rgb(rgb)] * self.n

    def close(self) -> None:
        """Release the LEDs (nothing to release for a strip in memory)."""


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


class _PixelStrip(_Frame):
    """A strip whose frames go through an Adafruit pixel buffer (``self._pixels``)."""

    _pixels: Any

    def show(self) -> None:
        # The library's buffer is only written here, so it always holds the last shown frame.
        self._pixels[:] = self._next
        self._pixels.show()

    def shown(self) -> list[RGB]:
        """Read back from the library's pixel buffer (values before its brightness)."""
        return [(int(p[0]), int(p[1]), int(p[2])) for p in self._pixels]

    def close(self) -> None:
        """Blank the LEDs and release the pin."""
        self._pixels.deinit()


class NeoPixelStrip(_PixelStrip):
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
        self._pixels = neopixel.NeoPixel(
            board_pin, n, brightness=brightness, auto_write=False, pixel_order=pixel_order
        )


class NeoPixelSpiStrip(_PixelStrip):
    """WS2812 LEDs on SPI0 MOSI (GPIO10) through adafruit-circuitpython-neopixel-spi: each
    LED bit is one SPI byte at 6.4 MHz. Needs SPI enabled and the user in the 'spi' group,
    not root. The bus comes from hardware.buses (a simulated one in tests)."""

    def __init__(self, n: int, *, brightness: float = 1.0, pixel_order: str = "GRB") -> None:
        super().__init__(n)
        import neopixel_spi

        from hardware.buses import open_spi

        self.pin = "D10"
        self._pixels = neopixel_spi.NeoPixel_SPI(
            open_spi(), n, brightness=brightness, auto_write=False, pixel_order=pixel_order)
