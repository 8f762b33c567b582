"""Physical buttons: a press on the pin becomes one press, through the RPi.GPIO API."""

from hardware.base import Press
from hardware.buttons import Buttons
from hardware.clock import VirtualClock
from hardware.sim import SimBoard, SimGPIO


def gpio():
    board = SimBoard(2, 2, clock=VirtualClock())
    return SimGPIO(board, (2, 3), (4, 5))


def test_press_reported_once_after_the_window_and_release_is_quiet():
    g = gpio()
    buttons = Buttons(g, {"clock": 21}, window_s=0.02)
    assert buttons.poll(0.0) == []  # pull-up: not pressed
    g.set_input(21, g.LOW)
    assert buttons.poll(0.01) == []
    assert buttons.poll(0.02) == []
    assert buttons.poll(0.031) == [Press("clock")]
    assert buttons.poll(0.05) == []  # held: no repeat
    g.set_input(21, g.HIGH)
    assert buttons.poll(0.06) == [] and buttons.poll(0.09) == []
    assert buttons.settled()


def test_a_bounce_shorter_than_the_window_is_no_press():
    g = gpio()
    buttons = Buttons(g, {"clock": 21, "hint": 20})
    g.set_input(20, g.LOW)
    assert buttons.poll(0.0) == []
    g.set_input(20, g.HIGH)
    assert buttons.poll(0.005) == [] and buttons.poll(0.1) == []
