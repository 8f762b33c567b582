"""LED frames pushed from their own thread, dimmed to a brightness limit and a power
budget, at most ``fps`` a second.

A WS2812 chain takes ~30 µs per LED to write (4.3 ms for 144), longer through a slow
driver: the scan loop must never wait for it. :class:`PacedStrip` is the strip the
service draws on: ``show()`` hands the frame to a pusher thread and returns at once;
the thread shows the newest frame (frames overtaken while it was busy are dropped, as
they would have been visible for less than a frame), calls the real strip's ``show()``
once per frame, and never more often than ``fps``.

The power estimate, per WS2812B LED: about 20 mA per colour channel at full drive, so
60 mA for full white, plus about 1 mA quiescent. 144 LEDs at full white draw 8.6 A; a
5 V 2 A supply runs them at a quarter of that.

>>> frame = [(255, 255, 255)] * 144
>>> round(current_ma(frame))
8784
>>> dimmed = within_budget(frame, budget_ma=2000)
>>> dimmed[0], round(current_ma(dimmed))
((54, 54, 54), 1974)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from hardware.base import RGB, LedStrip
from hardware.leds import OFF, _Frame

MA_PER_CHANNEL = 20.0  # one colour channel of a WS2812B at 255
IDLE_MA = 1.0  # a WS2812B with all channels off


def current_ma(frame: Sequence[RGB]) -> float:
    """The estimated current of ``frame`` on WS2812B LEDs, in milliamperes."""
    return len(frame) * IDLE_MA + sum(map(sum, frame)) * MA_PER_CHANNEL / 255


def within_budget(frame: Sequence[RGB], *, budget_ma: float, brightness: float = 1.0
                  ) -> list[RGB]:
    """``frame`` scaled by ``brightness`` and, if it would still draw more than
    ``budget_ma``, dimmed further by one factor for every channel of every LED (the
    colours keep their hues and their ratios); rounded down, so never above the budget."""
    scaled = [(r * brightness, g * brightness, b * brightness) for r, g, b in frame]
    lit = sum(map(sum, scaled)) * MA_PER_CHANNEL / 255
    room = budget_ma - len(frame) * IDLE_MA
    factor = 1.0 if lit <= room else max(room, 0.0) / lit
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in scaled]


class PacedStrip(_Frame):
    """The LEDs of ``strip`` through a pusher thread (see the module docstring).

    ``shown()`` is the frame last handed to ``show()`` in the colours it was drawn in
    (what a view should draw); ``pushed()`` what the LEDs were last sent, dimmed;
    ``flush()`` waits until the thread has pushed everything handed to it.

    >>> # strip = PacedStrip(NeoPixelStrip(144, brightness=1.0), fps=50, brightness=0.3,
    >>> #                    budget_ma=2000)
    >>> # strip.set(3, (0, 90, 0)); strip.show()   # returns at once
    """

    def __init__(self, strip: LedStrip, *, fps: float = 50.0, brightness: float = 1.0,
                 budget_ma: float = float("inf")) -> None:
        super().__init__(strip.n)
        if fps <= 0:
            raise ValueError(f"fps must be more than 0, got {fps}")
        self.strip = strip
        self.interval = 1.0 / fps
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.shows = 0  # frames the real strip has shown
        self.error: Exception | None = None  # the last show() that failed, if any
        self._drawn: list[RGB] = [OFF] * self.n
        self._pushed: list[RGB] = [OFF] * self.n
        self._pending: list[RGB] | None = None
        self._busy = False
        self._stopping = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="led-frames", daemon=True)
        self._thread.start()

    def show(self) -> None:
        frame = list(self._next)
        with self._wake:
            self._drawn = frame
            self._pending = frame
            self._wake.notify()

    def shown(self) -> list[RGB]:
        return list(self._drawn)

    def pushed(self) -> list[RGB]:
        return list(self._pushed)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every frame handed over is on the LEDs; False on timeout."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None and not self._busy,
                                       timeout)

    def close(self) -> None:
        """Push the last frame handed over, stop the thread, close the real strip."""
        self.flush()
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self._thread.join(timeout=5.0)
        self.strip.close()

    def _run(self) -> None:
        last = -self.interval
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._stopping)
                if self._pending is None:
                    return
            wait = last + self.interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # frames handed over meanwhile replace this one
            with self._wake:
                frame, self._pending = self._pending, None
                self._busy = True
            try:
                out = within_budget(frame, budget_ma=self.budget_ma,
                                    brightness=self.brightness)
                for i, rgb in enumerate(out):
                    self.strip.set(i, rgb)
                last = time.monotonic()
                self.strip.show()
                self.shows += 1
                self._pushed = out
            except Exception as e:  # a driver fault must not stop the frames after it
                self.error = e
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()
