"""Surprises a new user met: each fixed where the user meets it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from sensorboard.cli import main
from sensorboard.folderlock import LOCK_NAME

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, timeout=120, input=stdin)


def test_make_run_takes_the_port_and_the_game():
    # Under `make test` the outer make's MAKEFLAGS would have this one print its directory.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    proc = subprocess.run(["make", "-n", "--no-print-directory", "run", "PORT=9123",
                           "GAME=tulaga"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=env)
    line = proc.stdout.strip().splitlines()[-1]
    assert "run --game tulaga" in line and "--port 9123" in line


def test_a_resumed_game_is_said_with_how_to_start_anew(tmp_path):
    first = cli("run", "--game", "tessella", "--records", str(tmp_path),
                stdin="lift e4\nplace de45\n")
    assert first.returncode == 0 and "resuming" not in first.stdout
    again = cli("run", "--game", "tessella", "--records", str(tmp_path), stdin="")
    assert ("sensorboard: resuming the unfinished tessella game " in again.stdout
            and "(1 turn played; --new starts a new game)" in again.stdout)
    readme = (ROOT / "README.md").read_text()
    assert "--new" in readme.split("## In the browser")[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_typed_commands_alongside_the_page(tmp_path):
    proc = cli("run", "--game", "tessella", "--web", "--port", str(free_port()),
               "--records", str(tmp_path), stdin="lift e4\nplace de45\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "commands: lift CELL" in proc.stdout
    assert "  1. e4-de45  (clear)" in proc.stdout


def wait_until_running(proc: subprocess.Popen) -> None:
    for line in proc.stdout:
        if line.startswith("sensorboard: tessella on the sim board"):
            return
    raise AssertionError(proc.stderr.read())


def test_a_second_run_on_a_folder_in_use_is_refused_naming_the_first(tmp_path, capsys):
    records = tmp_path / "rec"
    first = subprocess.Popen([sys.executable, "-m", "sensorboard", "run", "--game",
                              "tessella", "--no-input", "--records", str(records)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_running(first)
        assert (records / LOCK_NAME).read_text() == f"{first.pid}\n"
        assert main(["run", "--game", "tulaga", "--no-input", "--records", str(records)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sensorboard: {records}: in use by ")
        assert "sensorboard run --game tessella" in err and f"(pid {first.pid})" in err
        assert err.count("\n") == 1
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=30) == 0
    assert not (records / LOCK_NAME).exists()  # released on exit


@pytest.mark.usefixtures("run_stops_at_start")
def test_a_lock_left_by_a_dead_run_is_taken_over(tmp_path, capsys):
    records = tmp_path / "rec"
    records.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    (records / LOCK_NAME).write_text(f"{dead}\n")
    assert main(["run", "--game", "tessella", "--no-input", "--records", str(records)]) == 0
    assert not (records / LOCK_NAME).exists()
    assert os.path.exists(records / "journal.sqlite")


def page_session(game: str, options: list[str] = ()):
    from hardware.clock import VirtualClock
    from sensorboard.web.server import WebSession, default_factory

    clock = VirtualClock()
    session = WebSession(game, default_factory("sim", clock, options={game: list(options)}),
                         clock=clock)

    def run(seconds: float) -> dict:
        end = clock.now() + seconds
        while clock.now() < end:
            session.step()
            clock.advance(0.002)
        return session.full()

    return session, run


def test_not_your_turn_stays_said_once_the_board_is_in_error():
    session, run = page_session("tessella")
    try:
        run(0.2)
        session.lift("a5")  # dark's piece, clear to move
        for seconds in (0.1, 2.0):
            advice = run(seconds)["advice"]
            assert advice == {"kind": "turn", "text": "Not your turn: clear is to move. "
                              "Put back the dark piece on a5."}
    finally:
        session.close()


def test_an_entry_on_the_wrong_tile_says_where_it_belongs():
    session, run = page_session("telec", ["dice=electronic"])
    try:
        run(0.2)
        session.press("roll")
        rolled = run(0.3)["rolled"]
        tile = rules.game_module("telec").FACE_TILE["blue"][rolled]
        wrong = "a4" if tile != "a4" else "d4"
        session.place(wrong)
        advice = run(1.5)["advice"]
        assert advice["kind"] == "error"
        assert advice["text"].endswith(f"lift the piece off {wrong} (lit red). Rolled "
                                       f"{rolled}: the turn goes on at {tile}.")
    finally:
        session.close()
