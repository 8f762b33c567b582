"""The config file of ``sensorboard run``: settings, and one clear line for each fault."""

import subprocess
import sys

import pytest

from sensorboard.config import ConfigError, load_config


def cli(*args):
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, timeout=120)


def test_config_sets_the_run_options(tmp_path):
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'game = "tessella"\nbackend = "sim"\nrecords = "{tmp_path / "rec"}"\n'
                   '[web]\nenabled = false\nport = 9000\n')
    assert load_config(str(cfg)) == {"game": "tessella", "backend": "sim",
                                     "records": str(tmp_path / "rec"), "web": False,
                                     "port": 9000}
    proc = cli("run", "--config", str(cfg), "--demo", "--speed", "40")
    assert proc.returncode == 0, proc.stderr
    records = list((tmp_path / "rec").glob("*-tessella-*.txt"))
    assert len(records) == 1
    text = records[0].read_text()
    assert '[Game "tessella"]' in text and "1. " in text


@pytest.mark.parametrize("body,message", [
    ('game = "chess"\n', r"game: unknown game 'chess'; valid games: .*tessella"),
    ('game = "tessella"\ncolour = "red"\n', r"colour: unknown key; valid keys: game"),
    ('game = "tessella"\n[web]\nport = "80"\n', r"web\.port: must be a whole number"),
    ('game = "tessella"\n[web]\nport = 70000\n', r"web\.port: must be 1\.\.65535"),
    ('game = "tessella"\nbackend = "usb"\n', r"backend: unknown backend 'usb'"),
    ('game = "tessella"\n[web\n', r"not valid TOML"),
    ('game = "tessella"\n[tags]\nTimeControl = "90 min"\n',
     r"tags\.TimeControl: '90 min': stage 1 '90 min': expected \[MOVES/\]SECONDS"),
])
def test_bad_config_is_one_line_naming_the_key_exit_2(tmp_path, body, message):
    import re

    cfg = tmp_path / "board.toml"
    cfg.write_text(body)
    with pytest.raises(ConfigError) as err:
        load_config(str(cfg))
    assert str(err.value).startswith(f"{cfg}: ") and re.search(message, str(err.value))
    proc = cli("run", "--config", str(cfg), "--demo", "--no-input")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert re.search(message, proc.stderr)


def test_run_without_game_says_so():
    proc = cli("run", "--demo")
    assert proc.returncode == 2 and "--game is required" in proc.stderr
