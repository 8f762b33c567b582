"""Slips of the keyboard get one clear line and exit 2; piped commands play as typed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sensorboard.cli import main
from sensorboard.web import qr_text

LAYOUTS = Path(__file__).resolve().parents[2] / "boards" / "layouts"


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, timeout=120, input=stdin)


@pytest.mark.parametrize("args,message", [
    (["--port", "99999"], "sensorboard run: --port 99999: a port is 1..65535"),
    (["--port", "0", "--web"], "sensorboard run: --port 0: a port is 1..65535"),
    (["--speed", "0", "--demo"], "sensorboard run: --speed 0: the demo speed must be more "
                                 "than 0 (1 is real time, 2 twice as fast)"),
    (["--speed", "-3", "--demo"], "sensorboard run: --speed -3: the demo speed must be more "
                                  "than 0 (1 is real time, 2 twice as fast)"),
    (["--layout", str(LAYOUTS / "tulaga.toml")],
     f"sensorboard: {LAYOUTS / 'tulaga.toml'}: this layout is made for tulaga, not tessella; "
     "use --game tulaga or a tessella layout"),
    (["--backend", "usb"], "sensorboard: unknown backend 'usb'; valid backends: sim, gpio, serial"),
    (["--backend", "serial", "--port", "ttyACM0"],
     "sensorboard: serial port 'ttyACM0': give a device path (/dev/ttyACM0), serial=NUMBER, "
     "VID:PID (2e8a:0005), auto, or emulator (the firmware on a simulated board)"),
    (["--opponent", "robot"], "sensorboard: --opponent 'robot': expected engine[:LEVEL] "
                              "(LEVEL 1-5), page or board:NAME"),
    (["--opponent", "engine:9"], "sensorboard: --opponent 'engine:9': the engine's levels "
                                 "are 1-5"),
    (["--opponent", "page", "--opponent-side", "purple"],
     "sensorboard: --opponent-side 'purple': tessella's players are clear, dark"),
    (["--opponent-side", "dark"],
     "sensorboard: --opponent-side: give --opponent too (engine, page or board:NAME)"),
])
@pytest.mark.usefixtures("run_stops_at_start")
def test_bad_options_one_line_exit_2_no_record_left(tmp_path, capsys, args, message):
    records = tmp_path / "rec"
    code = main(["run", "--game", "tessella", "--no-input", "--records", str(records), *args])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == message + "\n"
    assert "Traceback" not in out + err
    assert not records.exists() or not any(records.iterdir())


@pytest.mark.usefixtures("run_stops_at_start")
def test_a_layout_whose_cells_are_another_games(tmp_path, capsys):
    text = (LAYOUTS / "tessella.toml").read_text().replace('game = "tessella"',
                                                         'game = "tulaga"')
    layout = tmp_path / "copied.toml"
    layout.write_text(text)
    assert main(["run", "--game", "tulaga", "--no-input", "--layout", str(layout),
                 "--records", str(tmp_path / "rec")]) == 2
    err = capsys.readouterr().err
    assert err == (f"sensorboard: {layout}: cells: these are the cells of tessella: the layout "
                   "is made for tessella, not tulaga\n")
    assert not (tmp_path / "rec").exists()


def test_a_port_in_use_leaves_no_record(tmp_path, capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["run", "--game", "tessella", "--web", "--port", str(port),
                     "--records", str(tmp_path / "rec")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sensorboard: cannot serve on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1
    assert not (tmp_path / "rec").exists()


def test_help_reads_as_plain_text():
    proc = cli("--help")
    assert proc.returncode == 0
    assert "``" not in proc.stdout and "examples:" in proc.stdout
    run = cli("run", "--help")
    assert "lift CELL, place CELL" in run.stdout and "``" not in run.stdout


def test_piped_commands_are_applied_one_after_another(tmp_path):
    """Faster than the debounce window, yet each lift and place is seen on its own."""
    proc = cli("run", "--game", "tessella", "--backend", "sim", "--records", str(tmp_path),
               stdin="lift e4\nplace de45\nlift d5\nplace e5\nlift e3\nlift e5\n"
                     "place e5\n")
    assert proc.returncode == 0, proc.stderr
    assert "  1. e4-de45  (clear)" in proc.stdout
    assert "  1... d5-e5  (dark)" in proc.stdout
    assert "  2. e3xe5  (clear)" in proc.stdout
    record = next(tmp_path.glob("*tessella*.txt")).read_text()
    moves = " ".join(re.sub(r"\{[^}]*\}", " ", record).split())
    assert "1. e4-de45 d5-e5 2. e3xe5" in moves


def test_terminal_draws_coordinates_piles_and_advice(tmp_path):
    proc = cli("run", "--game", "tulaga", "--backend", "sim", "--records", str(tmp_path),
               stdin="place e5\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert " 9  .  .  .  .  .  .  .  .  ." in lines
    assert "    a  b  c  d  e  f  g  h  i" in lines
    assert "black: 11 x black in hand, 6 x black-rank in hand" in lines
    assert "white: clock running, 12 x white in hand, 6 x white-rank in hand" in lines
    proc = cli("run", "--game", "tessella", "--backend", "sim", "--records", str(tmp_path),
               stdin="lift a5\n")
    assert "Not your turn: clear is to move. Put back the dark piece on a5." in proc.stdout


def test_qr_code_of_the_address():
    text = qr_text("http://192.168.1.5:8080/?token=t")
    rows = text.splitlines()[1:]
    assert text.startswith("open it on a phone:")
    assert len({len(r) for r in rows}) == 1 and len(rows) >= 12
    assert any("█" in r for r in rows)


def test_replay_into_a_pipe_closed_early_stops_quietly():
    """`sensorboard replay game.jsonl | head -1`: no traceback when the reader goes away."""
    demo = Path(__file__).resolve().parents[2] / "sensorboard" / "demo" / "tessella.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "sensorboard", "replay", "--game",
                             "tessella", str(demo)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert '"move": "c1-bc12"' in proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and "Traceback" not in err, err
