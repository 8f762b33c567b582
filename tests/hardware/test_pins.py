"""Bad wiring plans and bad [hardware] settings: one line naming the fault and the fix,
exit 2, no record folder, the LEDs never opened."""

import re

import pytest

from hardware.backends import HardwareConfig, hardware_config
from hardware.base import Press
from hardware.buttons import button_pins
from hardware.pins import pin_fault
from sensorboard.cli import main

PLAN = dict(row_pins=(5, 6, 13), col_pins=(17, 27, 22), buttons={"clock": 21},
            led_pin="D18", diodes=True, scan="auto")


@pytest.mark.parametrize("change,message", [
    ({"col_pins": (17, 27, 5)}, "GPIO5 is both matrix row 1 and matrix column 3"),
    ({"led_pin": "D13"}, "GPIO13 is both the LED data pin (D13) and matrix row 3"),
    ({"buttons": {"clock": 18}}, "GPIO18 is both the LED data pin (D18) and the clock button"),
    ({"buttons": {Press("clock", "red"): 20, Press("clock", "blue"): 18}},
     "GPIO18 is both the LED data pin (D18) and the blue clock button"),
    ({"buttons": {"hint": 20, Press("clock", "red"): 20}},
     "GPIO20 is both the hint button and the red clock button"),
    ({"led_pin": "D10", "col_pins": (17, 11, 22)}, "GPIO11 is both SPI0 SCLK"),
    ({"col_pins": (17, 2, 22)}, "GPIO2 (matrix column 2) has a 1.8 kOhm pull-up"),
    ({"row_pins": (5, 3, 13), "scan": "per-pin"}, "GPIO3 (matrix row 2) has a 1.8 kOhm"),
    ({"row_pins": (5, 3, 13), "diodes": False}, "a row there needs diodes"),
    ({"row_pins": (5, 6, 30)}, "GPIO30 (matrix row 3) is not on the Pi's header"),
])
def test_a_bad_pin_plan_is_named(change, message):
    assert message in pin_fault(**{**PLAN, **change})


def test_a_sound_plan_passes_and_rows_may_use_the_i2c_pins_with_diodes():
    assert pin_fault(**PLAN) is None
    assert pin_fault(**{**PLAN, "row_pins": (2, 3, 13)}) is None


def test_every_shipped_layout_has_a_sound_pin_plan():
    from boards.layout import load_layout, shipped_layouts

    for path in shipped_layouts().values():
        layout = load_layout(path)
        assert pin_fault(row_pins=layout.row_pins, col_pins=layout.col_pins,
                         buttons=button_pins(layout), led_pin=layout.led_pin,
                         diodes=layout.diodes, scan="auto") is None, path


def test_hardware_table_sets_the_config_and_names_bad_keys():
    assert hardware_config({"scan": "per-pin", "debounce": 0.02, "seed": 3}) == HardwareConfig(
        scan="per-pin", debounce=0.02, seed=3)
    for table, message in [({"scan": "fast"}, "scan: must be one of auto, group, per-pin"),
                           ({"debounce": 2}, "debounce: must be a number from 0.0 to 0.5"),
                           ({"rate": 1}, "rate: unknown key; valid keys: scan_period")]:
        with pytest.raises(ValueError, match=re.escape(message)):
            hardware_config(table)


def run_with(tmp_path, capsys, layout_text=None, config_text=""):
    records = tmp_path / "records"
    args = ["run", "--game", "tessella", "--no-input", "--records", str(records)]
    if layout_text is not None:
        (tmp_path / "board.toml").write_text(layout_text)
        args += ["--layout", str(tmp_path / "board.toml")]
    if config_text:
        (tmp_path / "run.toml").write_text(config_text)
        args += ["--config", str(tmp_path / "run.toml")]
    status = main(args)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert not records.exists()
    return err


@pytest.mark.usefixtures("run_stops_at_start")
def test_cli_refuses_a_layout_whose_led_pin_is_a_matrix_pin(tmp_path, capsys):
    from boards.layout import layout_for_game

    text = open(layout_for_game("tessella").path).read().replace('pin = "D18"', 'pin = "D17"')
    err = run_with(tmp_path, capsys, layout_text=text)
    assert "board.toml: GPIO17 is both the LED data pin (D17) and matrix column 1" in err


@pytest.mark.usefixtures("run_stops_at_start")
def test_cli_refuses_a_bad_hardware_table(tmp_path, capsys):
    err = run_with(tmp_path, capsys, config_text='[hardware]\npull = "up"\n')
    assert "run.toml: hardware.pull: must be one of down, off, got 'up'" in err


@pytest.mark.parametrize("table,message", [
    ('palette = "pastel"', "run.toml: hardware.palette: must be one of standard, "
                           "colour-blind, got 'pastel'"),
    ('[hardware.colours]\nglow = [1, 2, 3]', "run.toml: hardware.colours.glow: not an LED "
                                             "role; roles: lifted, move"),
    ('[hardware.colours]\nmove = [0, 300, 0]', "run.toml: hardware.colours.move: must be "
                                               "[r, g, b], each 0..255"),
    ("led_budget_a = 0", "run.toml: hardware.led_budget_a: must be a number from 0.05"),
    ("led_fps = 1000", "run.toml: hardware.led_fps: must be a number from 1.0 to 400.0"),
])
@pytest.mark.usefixtures("run_stops_at_start")
def test_cli_refuses_bad_led_settings(tmp_path, capsys, table, message):
    err = run_with(tmp_path, capsys, config_text=f"[hardware]\n{table}\n")
    assert message in err


@pytest.mark.usefixtures("run_stops_at_start")
def test_cli_refuses_a_clock_button_per_player_on_the_led_pin(tmp_path, capsys):
    from boards.layout import layout_for_game

    text = open(layout_for_game("tessella").path).read().replace(
        "[buttons]\nclock = 21", "[buttons]\nclock = { clear = 21, dark = 18 }")
    assert "clock = { clear = 21, dark = 18 }" in text
    err = run_with(tmp_path, capsys, layout_text=text)
    assert "board.toml: GPIO18 is both the LED data pin (D18) and the dark clock button" in err
