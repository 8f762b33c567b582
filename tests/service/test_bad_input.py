"""Bad input met along the way: one clear line naming the file and line (or key), exit 2,
no traceback, nothing changed."""

import json
import re
import subprocess
import sys

import pytest

from boards.layout import LayoutError, layout_for_game, load_layout, shipped_layouts
from sensorboard.config import ConfigError, load_config


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          input=stdin, timeout=120)


def one_line(proc):
    err = proc.stderr.decode()
    assert proc.returncode == 2, err[:300]
    assert err.count("\n") == 1 and "Traceback" not in err, err[:300]
    return err


def replay(lines, *extra):
    return cli("replay", "--game", "tessella", *extra, "-", stdin="\n".join(lines).encode())


def test_deeply_nested_json_line_is_refused():
    deep = '{"t": 0, "op": "lift", "cell": ' + "[" * 100_000 + "]" * 100_000 + "}"
    err = one_line(replay(['{"t": 0, "op": "lift", "cell": "e4"}', deep]))
    assert err == "sensorboard: <stdin>:2: JSON nested too deeply\n"


def test_huge_unknown_cell_is_quoted_by_its_start_only():
    big = json.dumps({"t": 0, "op": "lift", "cell": "x" * 20_000_000})
    err = one_line(replay([big]))
    assert len(err) < 1000
    assert re.match(r"sensorboard: <stdin>:1: unknown cell 'x{39}\.\.\. \(20000002 characters\)",
                    err)


@pytest.mark.parametrize("t", ["1e15", "1e300", "-1", "1e999"])
def test_time_out_of_range_is_refused(t):
    proc = replay(['{"t": 0.5, "op": "lift", "cell": "e4"}',
                   '{"t": ' + t + ', "op": "place", "cell": "e5"}'])
    err = one_line(proc)
    assert err.startswith("sensorboard: <stdin>:2: 't' must be a number of seconds from 0 to ")
    assert proc.stdout == b""  # nothing was played


def test_press_names_a_player_of_the_game():
    ok = replay(['{"t": 0.5, "op": "lift", "cell": "e4"}',
                 '{"t": 1.0, "op": "place", "cell": "e5"}',
                 '{"t": 1.5, "op": "press", "button": "clock", "player": "clear"}'])
    assert ok.returncode == 0 and b'"move": "e4-e5"' in ok.stdout
    err = one_line(replay(['{"t": 0.5, "op": "press", "button": "clock", "player": "red"}']))
    assert err == ("sensorboard: <stdin>:1: press: 'player' must be one of clear, dark, "
                   "got 'red'\n")


def test_layout_that_is_not_utf8(tmp_path):
    bad = tmp_path / "board.toml"
    bad.write_bytes(shipped_layouts()["tessella"].read_bytes() + b'\nname = "caf\xe9"\n')
    with pytest.raises(LayoutError, match=r"board\.toml: not UTF-8 text"):
        load_layout(bad)
    err = one_line(replay(['{"t": 0.5, "op": "lift", "cell": "e4"}'], "--layout", str(bad)))
    assert f"{bad}: not UTF-8 text" in err


def test_config_that_is_not_utf8(tmp_path):
    bad = tmp_path / "board.toml"
    bad.write_bytes(b'game = "tessella"\nrecords = "\xff\xfe"\n')
    with pytest.raises(ConfigError, match=r"board\.toml: not UTF-8 text"):
        load_config(str(bad))
    err = one_line(cli("run", "--config", str(bad), "--no-input"))
    assert f"{bad}: not UTF-8 text" in err


def test_led_count_is_bounded(tmp_path):
    text = shipped_layouts()["tessella"].read_text()
    big = tmp_path / "big.toml"
    big.write_text(re.sub(r"(?m)^count = \d+", "count = 100000000", text))
    with pytest.raises(LayoutError, match=r"big\.toml: leds\.count: must be 1\.\.4096, got "
                                          r"100000000"):
        load_layout(big)
    assert layout_for_game("tessella").led_count == 41


def test_unwritable_records_folder_is_refused_before_anything_starts(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    records = blocker / "records"
    err = one_line(cli("run", "--game", "tessella", "--backend", "sim", "--records",
                       str(records), "--no-input"))
    assert f"records: cannot write game records in {records}" in err
    assert blocker.read_text() == "not a folder" and list(tmp_path.iterdir()) == [blocker]
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'game = "tessella"\nrecords = "{records}"\n')
    err = one_line(cli("run", "--config", str(cfg), "--no-input"))
    assert f"{cfg}: records: cannot write game records in {records}" in err


def test_clock_buttons_per_player_or_shared(tmp_path):
    # the shipped board's hint button takes its one free pin (GPIO0): red's side takes it
    text = re.sub(r"(?m)^hint = 0.*\n(^ +#.*\n)*", "", shipped_layouts()["teblo"].read_text())
    per_player = tmp_path / "clock.toml"
    per_player.write_text(re.sub(r"(?m)^clock = \d+$", "clock = { yellow = 15, red = 1 }",
                                 text))
    layout = load_layout(per_player)
    assert layout.clock_sides == {"yellow": 15, "red": 1} and "clock" not in layout.buttons
    assert load_layout(shipped_layouts()["teblo"]).clock_sides == {}
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(re.sub(r"(?m)^clock = \d+$", "clock = { yellow = 15, blue = 18 }", text))
    with pytest.raises(LayoutError, match=r"wrong\.toml: buttons\.clock: one button per "
                                          r"player needs exactly the players yellow, red"):
        load_layout(wrong)


def test_an_answer_names_its_question_by_a_string():
    err = one_line(replay(['{"t": 0, "op": "choose", "value": "none", "asked": 1.5}']))
    assert err == ("sensorboard: <stdin>:1: choose: 'asked' must be a question's key as a "
                   "string (\"T|OPTION|...\"), got 1.5\n")
