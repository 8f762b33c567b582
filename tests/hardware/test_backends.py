"""Every registered backend passes the same checks, against its own rig (the simulated
world it runs in off the real hardware). A backend added by a package joins by itself."""

import subprocess
import sys

import pytest

from boards.layout import layout_for_game, parse_layout
from hardware.backends import (
    BackendError,
    BackendSpec,
    HardwareConfig,
    backend_names,
    backends,
    load,
    open_backend,
    register_backend,
)
from hardware.base import LedStrip, Press, SensorMatrix
from hardware.clock import VirtualClock

SETTLE = 0.05  # longer than any contact bounce


def tiny_layout(diodes: bool = True):
    """A Tessella layout on a 7x6 matrix with one clock button and three LEDs of colour."""
    layout = layout_for_game("tessella")
    return layout if diodes else parse_layout(
        {**_raw(layout), "diodes": False}, "no-diodes.toml")


def _raw(layout) -> dict:
    return {
        "game": layout.game, "name": layout.name, "sensor": layout.sensor,
        "diodes": layout.diodes,
        "matrix": {"rows": layout.rows, "cols": layout.cols,
                   "row_pins": list(layout.row_pins), "col_pins": list(layout.col_pins)},
        "leds": {"count": layout.led_count, "pin": layout.led_pin},
        "buttons": dict(layout.buttons),
        "cells": {c: {"sensor": list(a), "led": layout.cell_led[c]}
                  for c, a in layout.cell_sensor.items()},
    }


RIGS = [(name, rig) for name, spec in sorted(backends().items())
        for rig in spec.rigs() or [None]]


def rigged_backend(name, rig_path, layout):
    assert rig_path, f"backend {name} declares no rig: it cannot be tested"
    clock = VirtualClock()
    with load(rig_path)(layout, clock) as rig:
        hw = open_backend(name, layout, rig.config, clock)
        rig.attach(hw)
        yield hw, rig, clock
        hw.close()


@pytest.fixture(params=RIGS, ids=[f"{n}-{r.rpartition(':')[2] if r else 'none'}"
                                  for n, r in RIGS])
def rigged(request):
    """(hardware, rig, clock) for every path through every registered backend."""
    yield from rigged_backend(*request.param, tiny_layout())


@pytest.fixture(params=RIGS, ids=[f"{n}-{r.rpartition(':')[2] if r else 'none'}"
                                  for n, r in RIGS])
def rigged_without_diodes(request):
    yield from rigged_backend(*request.param, tiny_layout(diodes=False))


def read_settled(hw, clock):
    clock.advance(SETTLE)
    return hw.matrix.read()


def test_the_matrix_reads_the_magnets(rigged):
    hw, rig, clock = rigged
    assert isinstance(hw.matrix, SensorMatrix)
    assert (hw.matrix.rows, hw.matrix.cols) == (7, 6)
    assert read_settled(hw, clock) == frozenset()
    for addr in [(0, 0), (3, 5), (6, 4)]:
        rig.board.place(addr)
    assert read_settled(hw, clock) == {(0, 0), (3, 5), (6, 4)}
    rig.board.lift((3, 5))
    assert read_settled(hw, clock) == {(0, 0), (6, 4)}


def test_three_corners_with_diodes_read_as_three(rigged):
    hw, rig, clock = rigged
    for addr in [(1, 1), (1, 4), (5, 1)]:
        rig.board.place(addr)
    assert read_settled(hw, clock) == {(1, 1), (1, 4), (5, 1)}


def test_without_diodes_three_corners_light_the_fourth(rigged_without_diodes):
    """The physics of a diode-less matrix, whichever way the backend scans it: a row not
    being driven must float, or the reading would differ."""
    hw, rig, clock = rigged_without_diodes
    for addr in [(1, 1), (1, 4), (5, 1)]:
        rig.board.place(addr)
    if not getattr(rig, "GHOSTS", True):  # one input per sensor: nothing to ghost
        assert read_settled(hw, clock) == {(1, 1), (1, 4), (5, 1)}
        return
    assert read_settled(hw, clock) == {(1, 1), (1, 4), (5, 1), (5, 4)}
    rig.board.lift((1, 1))
    assert read_settled(hw, clock) == {(1, 4), (5, 1)}


def test_the_strip_shows_each_frame_and_close_leaves_it_dark(rigged):
    hw, rig, clock = rigged
    assert isinstance(hw.strip, LedStrip)
    assert hw.strip.n == 41
    hw.strip.set(0, (10, 0, 0))
    hw.strip.set(40, (0, 0, 30))
    assert rig.leds()[0] == (0, 0, 0)  # nothing before show()
    hw.strip.show()
    shown = rig.leds()
    assert shown[0] == (10, 0, 0) and shown[40] == (0, 0, 30)
    assert shown[1:40] == [(0, 0, 0)] * 39
    hw.close()
    assert rig.leds() == [(0, 0, 0)] * 41
    hw.close()  # twice is harmless


def test_a_held_button_is_one_press(rigged):
    hw, rig, clock = rigged
    assert hw.buttons is not None
    assert hw.buttons.poll(clock.now()) == []
    rig.press("clock")
    presses = []
    for _ in range(20):
        clock.advance(0.005)
        presses += hw.buttons.poll(clock.now())
    assert presses == [Press("clock")]
    rig.press("clock", down=False)
    for _ in range(20):
        clock.advance(0.005)
        assert hw.buttons.poll(clock.now()) == []
    assert hw.buttons.settled()


def test_unknown_backend_names_the_valid_ones():
    with pytest.raises(BackendError, match=r"unknown backend 'usb'; valid backends: sim, gpio"):
        open_backend("usb", tiny_layout(), HardwareConfig(), VirtualClock())


def test_a_registered_backend_opens_by_name_without_touching_the_service():
    from sensorboard.service import BoardService

    register_backend(BackendSpec("sim-copy", "hardware.sim:open_sim", "hardware.rigs:SimRig"))
    try:
        import rules

        service = BoardService(rules.new_game("tessella"), tiny_layout(), clock=VirtualClock(),
                               backend="sim-copy")
        assert service.backend == "sim-copy" and service.sim is not None
        assert "sim-copy" in backend_names()
    finally:
        from hardware import backends as module

        module._registered.pop("sim-copy")


@pytest.mark.usefixtures("run_stops_at_start")
def test_gpio_off_a_pi_is_one_line_exit_2_and_no_record_folder(tmp_path, monkeypatch, capsys):
    from sensorboard.cli import main

    monkeypatch.setitem(sys.modules, "RPi", None)  # no RPi.GPIO here, as off a Pi
    records = tmp_path / "records"
    status = main(["run", "--game", "tessella", "--backend", "gpio", "--no-input",
                   "--records", str(records)])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("sensorboard: gpio backend: no RPi.GPIO module")
    assert "pip install 'sensorboard[pi]'" in err and "--backend sim" in err
    assert not records.exists()


def test_the_production_path_never_imports_the_simulation():
    code = ("import sys\n"
            "import hardware.gpio, hardware.backends, sensorboard.service, sensorboard.live\n"
            "import sensorboard.web, sensorboard.cli\n"
            "bad = sorted(m for m in sys.modules if m.startswith(('hardware.sim', "
            "'hardware.rigs', 'fake_rpi')))\n"
            "print(' '.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
