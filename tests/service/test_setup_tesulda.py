"""``--setup FILE``: a Tesulda game starts from each side's entered figures, checked (D-2)."""

import json

import rules
from rules.tesulda_setup import default_setup_text
from sensorboard.cli import main


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
