"""Layouts: every shipped one loads; every broken one names file, key and fault."""

import re
import subprocess
import sys
import tomllib

import pytest

import rules
from boards.layout import LayoutError, layout_for_game, load_layout, parse_layout, shipped_layouts

SHIPPED = shipped_layouts()


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_layout_loads_and_covers_its_game(name):
    layout = load_layout(SHIPPED[name])
    geometry = rules.GAMES[layout.game].GEOMETRY
    cells = geometry.names
    # Every cell has an LED; every cell but a zone has a sensor (Telec's Center Zone may not).
    sensed = [c.name for c in geometry.cells if c.shape != "zone" or c.name in layout.cell_sensor]
    assert sorted(layout.cell_sensor) == sorted(sensed)
    assert len(set(layout.cell_sensor.values())) == len(sensed)
    assert sorted(layout.cell_led) == sorted(cells)
    assert len(set(layout.cell_led.values())) == len(cells)


def test_telec_center_zone_sensor_is_optional_but_tiles_need_one():
    with_drop, without = load_layout(SHIPPED["telec"]), load_layout(SHIPPED["telec-nodrop"])
    assert "cz" in with_drop.cell_sensor and "cz" not in without.cell_sensor
    assert without.cell_led["cz"] == with_drop.cell_led["cz"]
    data = tomllib.loads(SHIPPED["telec"].read_text())
    del data["cells"]["a3"]["sensor"]
    with pytest.raises(LayoutError, match=r"cells\.a3\.sensor: must be \[row, col\]"):
        parse_layout(data, "telec.toml")


def test_every_game_ships_a_layout():
    for game in rules.GAMES:
        assert layout_for_game(game).game == game


def test_tessella_led_chain_is_a_serpentine():
    layout = layout_for_game("tessella")
    geometry = rules.GAMES["tessella"].GEOMETRY
    by_led = sorted(geometry.cells, key=lambda c: layout.cell_led[c.name])
    # consecutive LEDs are neighbours along a row, or the turn onto the next row
    for a, b in zip(by_led, by_led[1:], strict=False):
        assert abs(a.x - b.x) <= 1.0 and abs(a.y - b.y) <= 0.5


def broken(tmp_path, edit):
    text = SHIPPED["tessella"].read_text()
    path = tmp_path / "broken.toml"
    path.write_text(edit(text))
    return path


CASES = [
    (
        "unknown cell",
        lambda t: t + "zz9 = { sensor = [6, 5], led = 40 }\n",
        r"cells\.zz9: not a cell",
    ),
    (
        "two cells one sensor",
        lambda t: t.replace("b1 = { sensor = [0, 1]", "b1 = { sensor = [0, 0]"),
        r"cells\.b1\.sensor: \[0, 0\] is already the sensor of a1",
    ),
    (
        "led out of range",
        lambda t: t.replace("led = 0 }", "led = 41 }"),
        r"cells\.a1\.led: 41 is out of range 0\.\.40",
    ),
    (
        "missing cell",
        lambda t: re.sub(r"^e5 = .*\n", "", t, flags=re.M),
        r"cells: cells of tessella missing: e5",
    ),
    (
        "sensor outside matrix",
        lambda t: t.replace("sensor = [0, 0]", "sensor = [9, 0]"),
        r"cells\.a1\.sensor: \[9, 0\] is outside the 7x6 matrix",
    ),
    ("bad toml", lambda t: t.replace("[matrix]", "[matrix"), r"not valid TOML"),
    (
        "unknown game",
        lambda t: t.replace('game = "tessella"', 'game = "chess"'),
        r"game: unknown game 'chess'; valid games: .*tessella",
    ),
    (
        "pin twice",
        lambda t: t.replace("col_pins = [17,", "col_pins = [5,"),
        r"matrix: GPIO pins used twice",
    ),
    (
        "wrong type",
        lambda t: t.replace("rows = 7", 'rows = "seven"'),
        r"matrix\.rows: must be an integer",
    ),
    (
        "bad sensor kind",
        lambda t: t.replace('sensor = "binary"', 'sensor = "optical"'),
        r"sensor: must be one of",
    ),
]


@pytest.mark.parametrize("label,edit,message", CASES, ids=[c[0] for c in CASES])
def test_broken_layout_names_file_key_and_fault(tmp_path, label, edit, message):
    path = broken(tmp_path, edit)
    with pytest.raises(LayoutError) as err:
        load_layout(path)
    text = str(err.value)
    assert text.startswith(str(path) + ": ")
    assert re.search(message, text), text


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "nope.toml")


def test_cli_reports_broken_layout_in_one_line_with_exit_2(tmp_path):
    path = broken(tmp_path, CASES[0][1])
    events = tmp_path / "e.jsonl"
    events.write_text("")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sensorboard",
            "replay",
            "--game",
            "tessella",
            "--layout",
            str(path),
            str(events),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "cells.zz9" in proc.stderr
    assert "Traceback" not in proc.stderr


def analog(tmp_path, edit=lambda t: t):
    path = tmp_path / "hall.toml"
    path.write_text(edit(SHIPPED["teblo-hall"].read_text()))
    return path


def test_analog_layout_gives_thresholds_and_magnets():
    layout = load_layout(SHIPPED["teblo-hall"])
    assert layout.sensor == "analog"
    assert set(layout.magnets) == set(rules.GAMES["teblo"].PIECES)
    assert layout.thresholds["empty"] == 0.0


@pytest.mark.parametrize("edit,message", [
    (lambda t: re.sub(r'^"red-block" = .*\n', "", t, flags=re.M),
     r"magnets: an analog layout needs the magnet of every piece; missing: red-block"),
    (lambda t: t.replace('"block" = 0.5', '"block" = -1'), r"thresholds\.block: must be a number"),
    (lambda t: t.replace('"empty" = 0.0', '"empty" = 0.2'), r"thresholds: the lowest class"),
    (lambda t: t.replace('"yellow" = 2.5', '"blue" = 2.5'), r"magnets"),
])
def test_broken_analog_layout_names_the_key(tmp_path, edit, message):
    path = analog(tmp_path, edit)
    with pytest.raises(LayoutError) as err:
        load_layout(path)
    assert re.search(message, str(err.value)), str(err.value)
