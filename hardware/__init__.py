"""Drivers behind two small interfaces: SensorMatrix (read the switches) and LedStrip.

Backends: the RPi.GPIO matrix scanner (hardware.matrix, hardware.lgpio_matrix), the
MCP23017 and MCP3008 front ends (hardware.expander, hardware.adc), NeoPixel LEDs
(hardware.leds) paced and dimmed by hardware.frames, and the simulated board
(hardware.sim, hardware.simbus). Debouncing: hardware.debounce. Knows nothing of games.
"""

from hardware.base import RGB, Address, Clock, LedStrip, SensorMatrix
from hardware.clock import RealClock, VirtualClock
from hardware.debounce import Change, Debouncer
from hardware.frames import PacedStrip
from hardware.leds import MemoryStrip, NeoPixelSpiStrip, NeoPixelStrip
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
    "NeoPixelSpiStrip",
    "NeoPixelStrip",
    "PacedStrip",
    "RealClock",
    "SensorMatrix",
    "VirtualClock",
    "ghost_candidates",
]
