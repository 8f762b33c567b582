"""``--setup FILE``: a Tesulda game starts from each side's entered figures, checked (D-2)."""

import json

import pytest

import rules
from boards import hints
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from rules.tesulda_setup import default_setup_text
from sensorboard import guidance
from sensorboard.cli import main
from sensorboard.service import BoardService

LAYOUT = layout_for_game("tesulda")


def VirtualClockAt0():  # noqa: N802 - reads as the clock it makes
    return VirtualClock()


def replay(tmp_path, capsys, setup_text, game="tesulda"):
    setup = tmp_path / "setup.txt"
    setup.write_text(setup_text)
    events = tmp_path / "events.jsonl"
    events.write_text("")
    code = main(["replay", "--game", game, "--setup", str(setup), str(events)])
    return code, capsys.readouterr(), str(setup)


def test_replay_starts_from_the_setup(tmp_path, capsys):
    light = [line for line in default_setup_text().splitlines() if line.startswith("light")]
    text = "# swapped\n" + "\n".join(light).replace("a1=Sssh", "a1=Sssz").replace(
        "a2=Sssz", "a2=Sssh")
    code, out, _ = replay(tmp_path, capsys, text)
    assert code == 0, out.err
    final = json.loads(out.out.splitlines()[-1])
    expected = rules.new_game("tesulda", setup=text).physical()
    assert final["position"] == {c: list(p) for c, p in expected.items()}
    assert final["position"]["a1"] == ["light-square", "square", "square", "trapezoid"]


def test_a_bad_setup_is_one_line_naming_file_line_and_fault(tmp_path, capsys):
    text = default_setup_text().replace("a1=Sssh", "a1=Tss")
    code, out, path = replay(tmp_path, capsys, text)
    assert code == 2 and out.out == ""
    assert out.err == (f"sensorboard: {path}: setup line 1: light a1=Tss: a triangle may not "
                       "start on the back rank (rank 1) (D-2)\n")


def test_setup_is_refused_for_a_game_without_one(tmp_path, capsys):
    code, out, _ = replay(tmp_path, capsys, default_setup_text(), game="tessella")
    assert code == 2
    assert out.err.startswith("sensorboard: --setup: tessella starts from its fixed position")
    assert out.err.count("\n") == 1


def test_missing_setup_file(tmp_path, capsys):
    code = main(["replay", "--game", "tesulda", "--setup", str(tmp_path / "no.txt"),
                 str(tmp_path / "no.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and "no.txt: cannot read the setup file" in err and err.count("\n") == 1


# --- the board checked against the setup before the first move --------------------------

def booted(standing, state=None, until=3.0):
    """A simulated board whose figures stand as ``standing`` says, for a new game of
    ``state`` (default: the D-11 start), scanned ``until`` seconds; returns (service,
    clock, out, run)."""
    from sensorboard.replay import VirtualRun

    state = state or rules.new_game("tesulda")
    clock = VirtualClock()
    service = BoardService(state, LAYOUT, clock=clock, backend="sim", pieces=standing)
    out = []
    run = VirtualRun(service, clock, out.append)
    run.scan_until(until)
    return service, clock, out, run


def test_a_missing_and_an_extra_figure_are_named_before_the_first_move():
    standing = rules.new_game("tesulda").physical()
    standing["c4"] = standing.pop("b2")  # one figure set up on the wrong square
    service, clock, out, run = booted(standing)
    # both at once, what b2 should hold and that c4 should be empty; no figure "in hand"
    errors = [x for x in out if x["type"] == "error"]
    assert [e["cells"] for e in errors] == [
        {"b2": "light-triangle+circle+square", "c4": "empty"}]
    assert errors[0]["t"] == pytest.approx(service.tracker.error_delay, abs=0.05)
    assert hints.plan(service.view, clock.now()) == {"b2": "missing", "c4": "wrong"}
    assert guidance.in_hand(service.view) == ""
    assert guidance.advice(service) == {
        "kind": "setup",
        "text": "The board is not set up as the game starts: missing the light triangle base "
                "with circle, square on b2 (lit blue); extra figure on c4 (lit red: take it "
                "off)."}
    # put right, the game begins: b2's figure moves as the first move
    service.sim_lift("c4")
    service.sim_place("b2")
    run.scan_until(4.0)
    assert guidance.advice(service) is None and not service.tracker.restoring
    service.sim_lift("b2")
    run.scan_until(4.5)
    service.sim_place("b3")
    run.scan_until(7.0)
    assert service.tracker.prompt is not None  # b3: swap with a2 or c2 asked
    service.choose("none")
    assert service.tracker.turns() == ["b2-b3 none"]


def test_a_board_put_right_at_once_is_no_error():
    standing = rules.new_game("tesulda").physical()
    standing["c4"] = standing.pop("b2")
    service, clock, out, run = booted(standing, until=0.3)
    assert hints.plan(service.view, clock.now()) == {"b2": "missing", "c4": "wrong"}
    service.sim_lift("c4")
    service.sim_place("b2")
    run.scan_until(3.0)
    assert out == [] and hints.plan(service.view, clock.now()) == {}


def test_a_figure_lifted_on_a_set_up_board_is_the_first_move_not_missing():
    service, clock, out, run = booted(rules.new_game("tesulda").physical())
    service.sim_lift("a2")
    run.scan_until(4.0)
    assert not service.tracker.restoring and guidance.advice(service) is None
    assert guidance.in_hand(service.view).startswith("In hand: ")
    assert [x for x in out if x["type"] == "error"] == []


# --- a setup entered before the first move ------------------------------------------------

def light_text(old_new=(("a1=Sssh", "a1=Sssz"), ("a2=Sssz", "a2=Sssh"))):
    text = default_setup_text().split("dark")[0]
    for old, new in old_new:
        text = text.replace(old, new)
    return text


def test_a_side_entered_replaces_that_side_and_is_journaled(tmp_path):
    from sensorboard.gamelog import GameLog
    from sensorboard.gamewriter import open_game, open_journal

    journal = open_journal(tmp_path)
    writer, _ = open_game(journal, "tesulda")
    clock = VirtualClockAt0()
    service = BoardService(writer.state, LAYOUT, clock=clock, backend="sim",
                           listeners=[writer.event])
    assert service.set_up(light_text()) == []
    state = service.tracker.state
    assert str(state.figure("a1")) == "Sssz" and str(state.figure("a2")) == "Sssh"
    assert str(state.figure("a10")) == "Sssh"  # dark as it stood
    assert not service.tracker.restoring  # the same squares are filled
    assert service.sim_pieces("a1") == 4  # the simulated figure rebuilt: base + 3 pieces
    writer.close()
    log = GameLog.from_entries(journal.entries(writer.uid))
    assert log.state.position_str() == state.position_str()
    assert "SetUp" in writer.record_path.read_text()


def test_a_bad_setup_lists_every_fault_and_changes_nothing():
    service = BoardService(rules.new_game("tesulda"), LAYOUT, clock=VirtualClockAt0(),
                           backend="sim")
    before = service.tracker.state.position_str()
    text = light_text((("a1=Sssh", "a1=Tss"), ("c1=Sssd", "c1=Sssq")))
    with pytest.raises(rules.SetupError) as fault:
        service.set_up(text)
    assert fault.value.errors == [
        "setup line 1: light a1=Tss: a triangle may not start on the back rank (rank 1) (D-2)",
        "setup line 1: light c1: unknown piece letter 'q' (pieces: k crown, r star, c circle, "
        "s square, d diamond, z trapezoid, h hexagon)"]
    with pytest.raises(rules.SetupError) as fault:
        service.set_up(light_text((("a1=Sssh", "a1=Sssc"),)))
    assert fault.value.errors == ["setup: light has 17 circle pieces; a side has 16 (D-2)",
                                  "setup: light has 8 hexagon pieces; a side has 9 (D-2)"]
    assert service.tracker.state.position_str() == before


def test_no_setup_once_the_game_has_begun_nor_for_a_fixed_start():
    service = BoardService(rules.new_game("tesulda"), LAYOUT, clock=VirtualClockAt0(),
                           backend="sim")
    service.tracker.state.push_str("a2-a5")
    with pytest.raises(rules.SetupError, match="the game has begun"):
        service.set_up(light_text())
    tessella = BoardService(rules.new_game("tessella"), layout_for_game("tessella"),
                            clock=VirtualClockAt0(), backend="sim")
    with pytest.raises(rules.SetupError, match="tessella starts from its fixed position"):
        tessella.set_up(light_text())


# --- the terminal's setup command ------------------------------------------------------------

def test_terminal_setup_command_text_file_and_faults(tmp_path):
    from sensorboard.commands import enter_setup, parse_command

    service = BoardService(rules.new_game("tesulda"), LAYOUT, clock=VirtualClockAt0(),
                           backend="sim")
    rank1, rank2 = light_text().splitlines()
    line = rank1 + " " + rank2.removeprefix("light ")
    assert parse_command("setup " + line, rules.new_game("tesulda").GEOMETRY.names) == (
        "setup", line)
    assert enter_setup(service, line.replace("a1=Sssz", "a1=Skk")) == ([], [
        "setup line 1: light a1=Skk: a square base has 3 slots and this fills 4 (the crown "
        "takes 2) (D-2)"])
    assert enter_setup(service, str(tmp_path / "none.txt"))[1][0].startswith(
        f"setup: {tmp_path / 'none.txt'}: cannot read the setup file")
    assert enter_setup(service, line) == ([], [])
    assert str(service.tracker.state.figure("a1")) == "Sssz"
    path = tmp_path / "setup.txt"
    path.write_text(default_setup_text())
    assert enter_setup(service, str(path)) == ([], [])
    assert str(service.tracker.state.figure("a1")) == "Sssh"


def test_run_reads_setup_commands_from_the_terminal(tmp_path):
    import subprocess
    import sys

    rank1, rank2 = light_text().splitlines()
    line = rank1 + " " + rank2.removeprefix("light ")
    stdin = (f"setup {line.replace('b1=Cccd', 'b1=Cccx')}\n"
             f"setup {line}\n" "lift a2\n" "place a5\n" f"setup {line}\n")
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "run", "--game", "tesulda",
                           "--backend", "sim", "--records", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, input=stdin)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert ("sensorboard: setup line 1: light b1: unknown piece letter 'x' (pieces: k crown, "
            "r star, c circle, s square, d diamond, z trapezoid, h hexagon)") in out
    assert "  1. a2-a5  (light)" in out  # a2 held Sssh, straight 3
    assert ("sensorboard: setup: the game has begun; a setup is entered before the first "
            "move") in out
    record = next(tmp_path.glob("*tesulda*.txt")).read_text()
    assert "light:a1=Sssz" in record and "a1=Sssh" not in record.split("dark:")[0]


def test_run_web_starts_from_the_setup_file(tmp_path, monkeypatch, capsys):
    import socket

    import sensorboard.web as web

    setup = tmp_path / "setup.txt"
    setup.write_text(light_text())
    seen = []

    async def serve(session, host, port, started, sock):  # the page, as far as it matters
        seen.append(str(session.service.tracker.state.figure("a1")))
        seen.append(session.snapshot()["setup"].splitlines()[0])

    monkeypatch.setattr(web, "serve", serve)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ["run", "--game", "tesulda", "--web", "--port", str(port), "--records",
            str(tmp_path / "rec"), "--setup", str(setup)]
    assert main(args) == 0, capsys.readouterr().err
    assert seen == ["Sssz", light_text().splitlines()[0]]
    assert main([*args, "--demo"]) == 2
    assert capsys.readouterr().err == ("sensorboard: --setup: the demo plays its game from "
                                       "the default setup; give one of them\n")
