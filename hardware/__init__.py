"""Drivers behind two small interfaces: SensorMatrix (read the switches) and LedStrip.

Backends: the RPi.GPIO matrix scanner (hardware.matrix), NeoPixel LEDs (hardware.leds) and
the simulated board (hardware.sim). Debouncing: hardware.debounce. Knows nothing of games.
"""

from hardware.base import RGB, Address, Clock, LedStrip, SensorMatrix
from hardware.clock import RealClock, VirtualClock
from hardware.debounce import Change, Debouncer
from hardware.leds import MemoryStrip, NeoPixelStrip
from hardware.matrix import GpioMatrixScanner, ghost_candidates

__all__ = [
    "RGB",
    "Address",
    "Change",
    "Clock",
    "Debouncer",
    "GpioMatrixScanner",
    "LedStrip",
    "MemoryStrip",
    "NeoPixelStrip",
    "RealClock",
    "SensorMatrix",
    "VirtualClock",
    "ghost_candidates",
]
