"""LED strips: the in-memory one and real NeoPixel code on Blinka's OS-agnostic board."""

import pytest

from hardware.base import LedStrip
from hardware.leds import MemoryStrip, NeoPixelStrip


def test_memory_strip_shows_only_on_show():
    strip = MemoryStrip(3)
    assert isinstance(strip, LedStrip)
    strip.set(1, (255, 0, 0))
    assert strip.shown() == [(0, 0, 0)] * 3
    strip.show()
    assert strip.shown() == [(0, 0, 0), (255, 0, 0), (0, 0, 0)]
    strip.fill((1, 2, 3))
    strip.show()
    assert strip.shown() == [(1, 2, 3)] * 3


def test_memory_strip_rejects_bad_index_and_colour():
    strip = MemoryStrip(2)
    with pytest.raises(IndexError):
        strip.set(2, (0, 0, 0))
    with pytest.raises(ValueError):
        strip.set(0, (256, 0, 0))


def test_set_many_checks_every_colour_and_index_as_set_does():
    strip, red = MemoryStrip(3), (255, 0, 0)
    strip.set_many([(0, red), (2, [0, 0, 9])])  # a colour not a tuple is taken as set() takes it
    strip.set_many([(1, red)])  # red again: known by now
    strip.show()
    assert strip.shown() == [red, red, (0, 0, 9)]
    for bad in ((1.0, 0, 0), (255.0, 0, 0), (256, 0, 0), [0, -1, 0]):  # equal or not to red
        with pytest.raises(ValueError):
            strip.set_many([(0, bad)])
    with pytest.raises(IndexError):
        strip.set_many([(3, red)])  # a colour known, on an LED the strip has not
    with pytest.raises(IndexError):
        strip.set_many([(-1, red)])


@pytest.fixture
def agnostic(monkeypatch):
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")


def test_neopixel_frame_goes_through_the_library(agnostic):
    strip = NeoPixelStrip(4, pin="NEOPIXEL", brightness=0.3)
    assert isinstance(strip, LedStrip)
    strip.set(0, (255, 0, 0))
    strip.set(3, (0, 10, 200))
    assert strip.shown() == [(0, 0, 0)] * 4  # not shown yet
    strip.show()
    assert strip.shown() == [(255, 0, 0), (0, 0, 0), (0, 0, 0), (0, 10, 200)]
    assert list(strip._pixels[3]) == [0, 10, 200]  # it is the library's own buffer
    strip.fill((5, 5, 5))
    strip.show()
    assert strip.shown() == [(5, 5, 5)] * 4
    strip.close()


def test_neopixel_unknown_pin_names_the_available_ones(agnostic):
    with pytest.raises(ValueError, match=r"no pin 'D18'.*NEOPIXEL"):
        NeoPixelStrip(4, pin="D18")


def test_neopixel_refuses_a_board_attribute_that_is_not_a_pin(agnostic):
    with pytest.raises(ValueError, match="no pin 'I2C'"):
        NeoPixelStrip(2, pin="I2C")
