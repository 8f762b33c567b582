"""Push buttons on GPIO pins (to ground, with the Pi's pull-ups), debounced into presses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.base import Press


class Buttons:
    """Reads buttons through the RPi.GPIO API; a press is reported once, when the pin has
    read LOW for ``window_s`` after reading HIGH.

    ``pins`` maps a button to its BCM pin: a name (``"clock"``, a shared button) or a
    :class:`Press` naming the player whose side it is (one clock button per player).

    >>> # buttons = Buttons(GPIO, {"hint": 20, Press("clock", "red"): 21})
    >>> # buttons.poll(now) -> [Press("clock", "red")]
    """

    def __init__(self, gpio: Any, pins: Mapping[str | Press, int],
                 window_s: float = 0.02) -> None:
        self.gpio = gpio
        self.pins: dict[Press, int] = {
            (key if isinstance(key, Press) else Press(key)): pin for key, pin in pins.items()}
        if len(set(self.pins.values())) != len(self.pins):
            raise ValueError(f"two buttons on one GPIO pin: {sorted(self.pins.values())}")
        self.window_s = window_s
        gpio.setmode(gpio.BCM)
        for pin in self.pins.values():
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
        self._down: dict[Press, bool] = {press: False for press in self.pins}
        self._since: dict[Press, float] = {}

    def poll(self, now: float) -> list[Press]:
        pressed = []
        low, read = self.gpio.LOW, self.gpio.input
        was_down, since_of = self._down, self._since
        for press, pin in self.pins.items():
            down = read(pin) == low
            if down == was_down[press]:
                if since_of:  # (mostly none is changing: every scan reads every button)
                    since_of.pop(press, None)
                continue
            since = since_of.setdefault(press, now)
            if now - since >= self.window_s - 1e-9:
                del since_of[press]
                was_down[press] = down
                if down:
                    pressed.append(press)
        return pressed

    def settled(self) -> bool:
        return not self._since

    def close(self) -> None:
        """Release the button pins."""
        self.gpio.cleanup(list(self.pins.values()))


def button_pins(layout: Any) -> dict[str | Press, int]:
    """The layout's buttons as :class:`Buttons` takes them: the shared ones by name, a
    clock button per player (``[buttons.clock]``) as that player's :class:`Press`."""
    pins: dict[str | Press, int] = dict(layout.buttons)
    for player, pin in layout.clock_sides.items():
        pins[Press("clock", player)] = pin
    return pins
