"""Push buttons on GPIO pins (to ground, with the Pi's pull-ups), debounced into presses."""

from __future__ import annotations

from typing import Any


class Buttons:
    """Reads named buttons through the RPi.GPIO API; a press is reported once, when the pin
    has read LOW for ``window_s`` after reading HIGH.

    >>> # buttons = Buttons(GPIO, {"clock": 21}); buttons.poll(now) -> ["clock"]
    """

    def __init__(self, gpio: Any, pins: dict[str, int], window_s: float = 0.02) -> None:
        self.gpio = gpio
        self.pins = dict(pins)
        self.window_s = window_s
        gpio.setmode(gpio.BCM)
        for pin in self.pins.values():
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
        self._down: dict[str, bool] = {name: False for name in self.pins}
        self._since: dict[str, float] = {}

    def poll(self, now: float) -> list[str]:
        pressed = []
        for name, pin in self.pins.items():
            down = self.gpio.input(pin) == self.gpio.LOW
            if down == self._down[name]:
                self._since.pop(name, None)
                continue
            since = self._since.setdefault(name, now)
            if now - since >= self.window_s - 1e-9:
                del self._since[name]
                self._down[name] = down
                if down:
                    pressed.append(name)
        return pressed

    def settled(self) -> bool:
        return not self._since
