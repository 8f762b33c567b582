"""LED frames: pushed from their own thread (a slow show() never holds a scan), one show()
per frame and never above the frame rate, dimmed to the brightness and the power budget;
the SPI variant decoded from its waveform; the palette a board's config picks."""

import threading
import time
from dataclasses import replace

import pytest

import rules
from boards import hints
from boards.layout import layout_for_game
from hardware.backends import HardwareConfig, open_backend
from hardware.buses import use_buses
from hardware.clock import VirtualClock
from hardware.frames import PacedStrip, current_ma, within_budget
from hardware.leds import MemoryStrip
from hardware.rigs import GpioRig
from hardware.simbus import SimBuses, SimSPI, SimWs2812Chain
from sensorboard.service import BoardService


class HeldStrip(MemoryStrip):
    """A strip whose show() does not return until the test lets it."""

    def __init__(self, n):
        super().__init__(n)
        self.release = threading.Event()
        self.entered = threading.Event()

    def show(self):
        self.entered.set()
        self.release.wait(10)
        super().show()


def test_a_144_led_board_at_full_white_is_dimmed_to_its_supply():
    frame = [(255, 255, 255)] * 144
    assert current_ma(frame) == pytest.approx(8784)  # 61 mA a LED: far beyond 2 A
    out = within_budget(frame, budget_ma=2000)
    assert 1900 < current_ma(out) <= 2000  # dimmed to the budget, not darker
    assert out[0] == (54, 54, 54)


def test_dimming_keeps_the_hues_and_a_frame_within_budget_is_only_scaled_by_brightness():
    frame = [(200, 100, 0)] * 100 + [(0, 0, 0)] * 44
    out = within_budget(frame, budget_ma=500)
    assert current_ma(out) <= 500
    r, g, b = out[0]
    assert b == 0 and abs(r - 2 * g) <= 1  # same orange, dimmer
    assert out[100:] == [(0, 0, 0)] * 44
    assert within_budget([(100, 50, 10)] * 3, budget_ma=2000, brightness=0.3) == [
        (30, 15, 3)] * 3


def test_a_slow_show_never_holds_the_scans():
    """The LED driver hangs in show() while a player makes a move: the scans go on, the
    move is committed, and the newest frame is shown once the driver is free."""
    clock = VirtualClock()
    layout = layout_for_game("tessella")
    hw = open_backend("sim", layout, HardwareConfig(bounce=0.0), clock)
    held = HeldStrip(layout.led_count)
    hw.strip = PacedStrip(held, fps=1000)
    service = BoardService(rules.new_game("tessella"), layout, clock=clock, hardware=hw)

    def scans(n):
        for _ in range(n):
            clock.advance(service.scan_period)
            service.step()

    service.sim_lift("b1")  # the first frame lit: the driver takes it and hangs
    scans(10)
    assert held.entered.wait(5)
    service.sim_place("b2")
    scans(200)  # 200 scans while show() has not returned
    assert not held.release.is_set() and held.shows == 0
    assert service.tracker.turns() == ["b1-b2"]  # committed meanwhile
    drawn = hw.strip.shown()
    held.release.set()
    assert hw.strip.flush()
    assert held.shown() == drawn  # then the newest frame, not the ones in between
    assert held.shows == 2
    hw.strip.close()


def test_one_show_per_frame_and_never_above_the_frame_rate():
    raw = MemoryStrip(4)
    strip = PacedStrip(raw, fps=20)
    start = time.monotonic()
    frames = 0
    while time.monotonic() - start < 0.3:
        strip.set(0, (frames % 256, 0, 0))
        strip.show()
        frames += 1
    elapsed = time.monotonic() - start
    assert strip.flush()
    assert raw.shown()[0] == ((frames - 1) % 256, 0, 0)  # the last frame is the one shown
    assert 1 <= raw.shows <= int(elapsed * 20) + 2 < frames
    shows = raw.shows
    strip.show()  # a frame identical to the last is still one show()
    assert strip.flush() and raw.shows == shows + 1
    strip.close()


def test_the_spi_leds_carry_each_frame_in_one_latch():
    chain = SimWs2812Chain(41)
    layout = layout_for_game("tessella")
    clock = VirtualClock()
    with GpioRig(layout, clock) as rig, use_buses(SimBuses(spi=SimSPI(listeners=[chain]))):
        config = replace(rig.config, led_pin="D10", brightness=0.5, led_budget_a=2.0)
        hw = open_backend("gpio", layout, config, clock)
        latches = chain.latches
        hw.strip.set(0, (200, 0, 0))
        hw.strip.set(40, (0, 16, 255))
        hw.strip.show()
        assert hw.strip.flush()
        assert chain.latches == latches + 1
        assert chain.leds[0] == (100, 0, 0) and chain.leds[40] == (0, 8, 127)
        assert chain.leds[1:40] == [(0, 0, 0)] * 39
        hw.close()
        assert chain.leds == [(0, 0, 0)] * 41  # dark after close


def test_a_pulse_the_leds_cannot_read_is_a_fault():
    chain = SimWs2812Chain(1)
    with pytest.raises(ValueError, match="neither a 0 nor a 1"):
        chain.receive(bytes([0b11111111, 0b11100000, 0]), 6_400_000)


def test_the_configured_palette_lights_the_leds():
    clock = VirtualClock()
    layout = layout_for_game("tessella")
    config = HardwareConfig(bounce=0.0, palette="colour-blind",
                            colours=(("move", (1, 2, 3)),))
    service = BoardService(rules.new_game("tessella"), layout, clock=clock, config=config)
    cell = sorted(service.tracker.state.physical())[0]
    service.sim.lift(layout.cell_sensor[cell])
    for _ in range(20):
        clock.advance(service.scan_period)
        service.step()
    lit = {role: service.strip.shown()[layout.cell_led[c]] for c, role in service.frame.items()}
    assert lit["lifted"] == hints.COLOUR_BLIND["lifted"]
    assert lit.get("move", (1, 2, 3)) == (1, 2, 3)


def test_spi_leds_without_permission_are_one_line_and_release_the_matrix():
    from hardware.backends import BackendError

    layout = layout_for_game("tessella")
    clock = VirtualClock()
    denied = SimBuses(faults={"spi": PermissionError(13, "Permission denied")})
    with GpioRig(layout, clock) as rig, use_buses(denied):
        with pytest.raises(BackendError, match=r"^LEDs on D10: SPI: no permission on "
                                               r"/dev/spidev0.0 \(Permission denied\); add "
                                               r"the user to the 'spi' group"):
            open_backend("gpio", layout, replace(rig.config, led_pin="D10"), clock)
        assert all(rig.gpio.pin_mode(p) is None for p in layout.row_pins + layout.col_pins)
