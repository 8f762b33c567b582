"""Bring-up tools on the simulated board: check-wiring and calibrate."""

import re
import subprocess
import sys

import pytest

from boards.layout import layout_for_game, load_layout, shipped_layouts
from boards.sensing import classify
from hardware.backends import HardwareConfig, open_backend
from hardware.clock import VirtualClock
from sensorboard.bringup import (
    CalibrationError,
    calibrate,
    check_wiring,
    thresholds_from,
)
from tests.hardware.test_backends import tiny_layout


def opened(layout=None, **config):
    layout = layout or layout_for_game("tessella")
    clock = VirtualClock()
    hw = open_backend("sim", layout, HardwareConfig(**config), clock)
    return hw, layout, clock


def watch(hw, layout, clock, seconds, script=(), walk_s=0.0):
    """check_wiring with magnets moved by ``script`` [(t, action)] on the virtual clock."""
    script = sorted(script, key=lambda x: x[0])
    lines = []

    def sleep(dt):
        clock.advance(dt)
        while script and script[0][0] <= clock.now():
            script.pop(0)[1]()

    report = check_wiring(hw, layout, clock, seconds=seconds, out=lines.append, sleep=sleep,
                          walk_s=walk_s)
    return report, report.faults(layout.sensor_cell), lines


def test_pieces_put_down_and_lifted_are_shown_by_name_and_are_no_fault():
    hw, layout, clock = opened()
    a1, e5 = layout.cell_sensor["a1"], layout.cell_sensor["e5"]
    m = hw.magnets
    report, faults, lines = watch(hw, layout, clock, 1.0, [
        (0.1, lambda: m.place(a1)), (0.3, lambda: m.place(e5)), (0.6, lambda: m.lift(a1))])
    assert faults == []
    assert "a1 [0,0] closed" in lines and "a1 [0,0] open" in lines
    assert "e5 [6,4] closed" in lines
    assert any("#e5" in line for line in lines)  # the map marks the closed sensor


def test_a_stuck_switch_a_flickering_one_and_a_stray_address_are_reported():
    hw, layout, clock = opened()
    m = hw.magnets
    m.stuck(layout.cell_sensor["c3"], True)
    b2 = layout.cell_sensor["b2"]
    blips = []
    for k in range(4):  # closed for 5 ms, every 200 ms: a magnet at the edge of range
        t = 0.1 + 0.2 * k
        blips += [(t, lambda: m.place(b2)), (t + 0.005, lambda: m.lift(b2))]
    stray = (6, 5)  # the 7x6 matrix has 42 addresses for 41 cells
    assert stray not in layout.sensor_cell
    report, faults, _ = watch(hw, layout, clock, 1.2, blips + [(0.5, lambda: m.place(stray))])
    text = "\n".join(faults)
    assert "c3 [3,2]: closed on every scan" in text
    assert "b2 [1,4]: flickers" in text
    assert "no cell [6,5]: closed, but the layout has no cell there" in text
    assert len(faults) == 3


def test_without_diodes_the_ghosting_corners_are_named():
    layout = tiny_layout(diodes=False)
    hw, layout, clock = opened(layout, bounce=0.0)
    m = hw.magnets
    _, faults, _ = watch(hw, layout, clock, 0.3, [
        (0.05, lambda: m.place((1, 1))), (0.1, lambda: m.place((1, 4))),
        (0.15, lambda: m.place((5, 1)))])
    assert any(line.startswith("cd45 [5,4]: may be a ghost") for line in faults)
    assert len(faults) == 4  # the three real corners cannot be told from the ghost


def test_the_led_walk_lights_one_cell_at_a_time_in_chain_order():
    hw, layout, clock = opened()
    seen = []

    def out(line):
        if line.startswith("LED "):
            lit = [i for i, rgb in enumerate(hw.strip.shown()) if rgb != (0, 0, 0)]
            seen.append((line, lit))

    check_wiring(hw, layout, clock, seconds=0.01, out=out, sleep=clock.advance, walk_s=0.01,
                 live=False)
    assert len(seen) == 41
    for index, (line, lit) in enumerate(seen):
        cell = line.rsplit(" ", 1)[1]
        assert lit == [index] == [layout.cell_led[cell]]
    assert hw.strip.shown() == [(0, 0, 0)] * 41  # dark after the walk


def test_calibration_finds_thresholds_that_classify_every_sample():
    layout = load_layout(shipped_layouts()["teblo-hall"])
    hw, layout, clock = opened(layout)
    thresholds = calibrate(hw, layout, clock, scans=3, ask=None, sleep=clock.advance,
                           out=lambda line: None)
    assert list(thresholds) == ["empty", "block", "pawn", "pawn-on-block"]
    assert thresholds["empty"] == 0.0
    for piece_sum, kind in [(0.0, "empty"), (1.0, "block"), (2.5, "pawn"),
                            (3.5, "pawn-on-block")]:
        for noise in (-0.03, 0.03):
            assert classify(piece_sum + noise, thresholds) == kind


def test_calibration_names_classes_it_cannot_tell_apart():
    with pytest.raises(CalibrationError, match="cannot tell block from pawn: block reads up"):
        thresholds_from({"empty": [0.0], "block": [0.9, 1.6], "pawn": [1.5, 2.6]})


def cli(*args):
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, timeout=120)


def test_check_wiring_command_on_the_simulated_board():
    out = cli("check-wiring", "--game", "tulaga", "--seconds", "0.1", "--walk", "0")
    assert out.returncode == 0, out.stderr
    assert "no faults found" in out.stdout and "never closed:" in out.stdout


def test_calibrate_command_refuses_a_switch_board_and_bad_options():
    out = cli("calibrate", "--game", "tessella")
    assert out.returncode == 2 and "calibrate is for analog (Hall) sensors" in out.stderr
    out = cli("check-wiring", "--game", "tessella", "--seconds", "0")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "--seconds must be > 0" in out.stderr


@pytest.mark.parametrize("name", sorted(shipped_layouts()))
def test_the_wiring_diagram_of_each_shipped_layout_is_in_the_docs_and_names_everything(name):
    import xml.dom.minidom
    from pathlib import Path

    from sensorboard.config import load_config
    from sensorboard.wiring import wiring_svg

    root = Path(__file__).resolve().parents[2]
    layout = load_layout(shipped_layouts()[name])
    hardware = load_config(str(root / "deploy" / "config" / f"{name}.toml"))["hardware"]
    svg = wiring_svg(layout, hardware)  # the board as deploy/config sets it up
    committed = root / "docs" / "wiring" / f"{name}.svg"
    assert committed.read_text() == svg, "regenerate with sensorboard wiring-diagram --config"
    texts = [t.firstChild.data for t in xml.dom.minidom.parseString(svg)
             .getElementsByTagName("text")]
    if hardware.frontend == "mcp3008":
        for k, cs in enumerate(hardware.adc_cs):
            assert f"ADC{k + 1}: chip select GPIO{cs}" in texts
        for r, c in layout.cell_sensor.values():
            chip, channel = divmod(r * layout.cols + c, 8)
            assert f"ADC{chip + 1} CH{channel}" in texts
    else:
        for r, pin in enumerate(layout.row_pins):
            assert f"row {r}: GPIO{pin}" in texts
        for pin in layout.col_pins:
            assert f"GPIO{pin}" in texts
    for cell, led in layout.cell_led.items():
        # in the matrix (if it has a sensor) and on the board
        assert texts.count(cell) == 1 + (cell in layout.cell_sensor) and str(led) in texts


def test_the_wiring_diagram_of_a_board_on_expanders_names_their_pins(tmp_path):
    from sensorboard.wiring import wiring_svg

    layout = load_layout(shipped_layouts()["teblo"])
    svg = wiring_svg(layout, HardwareConfig(frontend="mcp23017"))
    assert ">row 0: 0x20 GPA0<" in svg and ">row 11: 0x20 GPB3<" in svg
    assert ">0x20 GPB4<" in svg and ">0x21 GPA7<" in svg  # columns 0 and 11
    assert "rows pulled up, columns driven LOW" in svg and "GPIO4<" not in svg


def test_bench_command_measures_the_simulated_board():
    out = cli("bench", "--game", "tessella", "--seconds", "0.2", "--scans", "20",
              "--games", "1")
    assert out.returncode == 0, out.stderr
    assert "56 GPIO-library calls per scan" in out.stdout  # 7x6 per-pin: 7 * (2 + 6)
    assert "idle: the service loop uses" in out.stdout and "ratio" in out.stdout
    latency = re.search(r"sensor change -> LED frame: .* over (\d+) changes \(1 games\)",
                        out.stdout)
    assert latency and int(latency.group(1)) > 20  # a game's lifts and places
