"""Slips a new user makes: each is one line naming what is wrong, exit 2, and nothing left
behind (no records folder, no journal)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import rules
from sensorboard.cli import main


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, timeout=120, input=stdin)


def refused(capsys, args: list[str]) -> str:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert err.count("\n") == 1 and "Traceback" not in out + err, err
    return err


RANK = "sensorboard: option: Tulaga rank_stones must be 4, 5 or 6 (U-2), got 7\n"


@pytest.mark.parametrize("extra", [[], ["--web", "--port", "1"]])
@pytest.mark.usefixtures("run_stops_at_start")
def test_a_game_option_out_of_range_is_refused_before_a_journal(tmp_path, capsys, extra):
    records = tmp_path / "rec"
    err = refused(capsys, ["run", "--game", "tulaga", "--option", "rank_stones=7",
                           "--records", str(records), *extra])
    assert err == RANK
    assert not records.exists()


@pytest.mark.usefixtures("run_stops_at_start")
def test_a_config_option_out_of_range_names_the_file_and_key(tmp_path, capsys):
    config = tmp_path / "board.toml"
    config.write_text(f'game = "tulaga"\nrecords = "{tmp_path / "rec"}"\n'
                      '[options]\nrank_stones = 7\n')
    err = refused(capsys, ["run", "--config", str(config), "--web"])
    assert err == (f"sensorboard: {config}: options.rank_stones: Tulaga rank_stones must be "
                   "4, 5 or 6 (U-2), got 7\n")
    assert not (tmp_path / "rec").exists()


@pytest.mark.parametrize("bounce", ["-1", "nan", "inf", "1e300"])
def test_replay_bounce_out_of_range(capsys, bounce, tmp_path):
    events = tmp_path / "e.jsonl"
    events.write_text('{"t": 0, "op": "lift", "cell": "e4"}\n')
    err = refused(capsys, ["replay", "--game", "tessella", "--bounce", bounce, str(events)])
    assert err == (f"sensorboard replay: --bounce {float(bounce):g}: the switch bounce is 0 "
                   "to 0.1 seconds\n")
    assert capsys.readouterr().out == ""


@pytest.mark.usefixtures("run_stops_at_start")
def test_a_page_port_that_is_not_a_number(tmp_path, capsys):
    err = refused(capsys, ["run", "--game", "tessella", "--web", "--port", "abc",
                           "--records", str(tmp_path / "rec")])
    assert err == ("sensorboard run: --port abc: the page's port is a number 1..65535 (a "
                   "serial port name goes with --backend serial)\n")
    assert not (tmp_path / "rec").exists()


def test_run_seed_fixes_the_electronic_die(tmp_path):
    """README: with an electronic die ``--seed`` fixes the rolls, for ``run`` too."""
    rolled = []
    for _ in range(2):
        proc = cli("run", "--game", "telec", "--option", "dice=electronic", "--seed", "7",
                   "--new", "--records", str(tmp_path), stdin="press roll\n")
        assert proc.returncode == 0, proc.stderr
        rolled.append([line for line in proc.stdout.splitlines() if "rolled" in line])
    assert rolled[0] and rolled[0] == rolled[1]


def test_typed_slips_name_only_what_the_game_has(tmp_path):
    proc = cli("run", "--game", "tessella", "--records", str(tmp_path),
               stdin="press foo\npress roll\nsetup light a1=Sssh\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.count("unknown button 'foo'; buttons: clock, hint, takeback\n") == 1
    assert "unknown button 'roll'; buttons: clock, hint, takeback\n" in out
    assert ("sensorboard: setup: tessella starts from its fixed position and takes no "
            "setup\n") in out
    assert "cannot read the setup file" not in out


def test_replay_press_lists_the_game_s_buttons():
    proc = cli("replay", "--game", "tessella", "-",
               stdin='{"t": 0.5, "op": "press", "button": "roll"}\n')
    assert proc.returncode == 2
    assert proc.stderr == ("sensorboard: <stdin>:1: press: unknown button 'roll'; buttons: "
                           "clock, hint, takeback\n")


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_each_page_legend_lists_only_its_game_s_roles(game):
    from hardware.clock import VirtualClock
    from sensorboard.web.server import WebSession, default_factory

    clock = VirtualClock()
    session = WebSession(game, default_factory("sim", clock), clock=clock)
    try:
        roles = [item["role"] for item in session.full()["legend"]]
    finally:
        session.close()
    assert {"lifted", "move", "wrong", "missing", "last", "choice"} <= set(roles)
    assert "roll" not in roles  # physical dice by default: the board rolls nothing
    assert ("attacker" in roles) == ("dodge" in roles) == (game == "tesulda")
    assert ("cut" in roles) == (game in ("teblo", "tesulda"))
    assert ("capture" in roles) == (game != "teblo")


def test_the_roll_role_with_the_board_s_die():
    from sensorboard.web.snapshot import legend_json

    assert "roll" in [item["role"] for item in legend_json("telec", die=True)]
