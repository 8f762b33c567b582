"""A ``setup`` line in replay input: the setup entered before the first move, as the
terminal's ``setup`` command and ``POST /api/setup`` enter it (through BoardService.act);
a malformed or late one is one line naming the input line, exit 2, nothing printed."""

import json

import pytest

import rules
from rules.tesulda_setup import default_setup_text
from sensorboard.cli import main

LIGHT = "\n".join(line for line in default_setup_text().splitlines()
                  if line.startswith("light"))
# a1 and a2 swap their figures: a2 then holds Sssh (two squares: straight 3)
SWAPPED = LIGHT.replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh")


def replay(tmp_path, capsys, lines, game="tesulda", *flags):
    events = tmp_path / "events.jsonl"
    events.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code = main(["replay", "--game", game, *flags, str(events)])
    return code, capsys.readouterr(), str(events)


def output(out):
    return [json.loads(line) for line in out.out.splitlines()]


def test_a_setup_line_starts_the_game_from_the_entered_figures(tmp_path, capsys):
    code, out, _ = replay(tmp_path, capsys, [
        {"t": 0, "op": "setup", "text": SWAPPED},
        {"t": 1.0, "op": "lift", "cell": "a2"},
        {"t": 1.5, "op": "place", "cell": "a5"}])
    assert code == 0, out.err
    lines = output(out)
    assert [x["move"] for x in lines if x["type"] == "move"] == ["a2-a5"]
    final = lines[-1]
    assert final["position"]["a5"] == ["light-square", "square", "square", "hexagon"]
    assert final["position"]["a1"] == ["light-square", "square", "square", "trapezoid"]


def test_without_the_setup_line_the_default_figure_moves(tmp_path, capsys):
    code, out, _ = replay(tmp_path, capsys, [
        {"t": 1.0, "op": "lift", "cell": "a2"}, {"t": 1.5, "op": "place", "cell": "a5"}])
    assert code == 0, out.err
    assert output(out)[-1]["position"]["a5"] == ["light-square", "square", "square",
                                                 "trapezoid"]


def test_a_setup_line_is_the_same_game_as_the_setup_file(tmp_path, capsys):
    both = SWAPPED + "\n" + default_setup_text().split("\n", 2)[2].replace(
        "a10=Sssh", "a10=Sssz").replace("a9=Sssz", "a9=Sssh")
    code, out, _ = replay(tmp_path, capsys, [{"t": 0, "op": "setup", "text": both}])
    assert code == 0, out.err
    expected = rules.new_game("tesulda", setup=both).physical()
    assert output(out)[-1]["position"] == {c: list(p) for c, p in expected.items()}
    # two setup lines, one side each, enter both sides as well
    sides = [{"t": 0, "op": "setup", "text": part} for part in both.split("\n# dark")]
    code, out, _ = replay(tmp_path, capsys, sides)
    assert code == 0, out.err
    assert output(out)[-1]["position"] == {c: list(p) for c, p in expected.items()}


def test_a_setup_line_over_a_setup_file_replaces_the_sides_it_names(tmp_path, capsys):
    setup = tmp_path / "setup.txt"
    setup.write_text(default_setup_text().replace("a10=Sssh", "a10=Sssz")
                     .replace("a9=Sssz", "a9=Sssh"))
    code, out, _ = replay(tmp_path, capsys, [{"t": 0, "op": "setup", "text": SWAPPED}],
                          "tesulda", "--setup", str(setup))
    assert code == 0, out.err
    position = output(out)[-1]["position"]
    assert position["a2"] == ["light-square", "square", "square", "hexagon"]  # the line
    assert position["a9"] == ["dark-square", "square", "square", "hexagon"]  # the file


@pytest.mark.parametrize(("lines", "message"), [
    ([{"t": 0, "op": "setup", "text": SWAPPED.replace("a1=Sssz", "a1=Tss")}],
     "events.jsonl:1: setup line 1: light a1=Tss: a triangle may not start on the back rank "
     "(rank 1) (D-2)"),
    ([{"t": 0, "op": "setup", "text": "light e1=Skch"}],
     "events.jsonl:1: setup line 1: light e1=Skch: a square base has 3 slots and this fills "
     "4 (the crown takes 2) (D-2)"),
    ([{"t": 0, "op": "setup", "text": SWAPPED}, {"t": 0, "op": "setup", "text": "purple"}],
     "events.jsonl:2: setup line 1: "),
    ([{"t": 0, "op": "setup"}], "events.jsonl:1: setup needs 'text' as a string, got None"),
    ([{"t": 0, "op": "setup", "text": ["light a1=Sssh"]}],
     "events.jsonl:1: setup needs 'text' as a string, got ['light a1=Sssh']"),
    ([{"t": 0, "op": "setup", "text": SWAPPED, "side": "light"}],
     "events.jsonl:1: unexpected keys ['side']"),
    ([{"t": 1.0, "op": "lift", "cell": "b2"}, {"t": 1.4, "op": "place", "cell": "b3"},
      {"t": 2.0, "op": "setup", "text": SWAPPED}],
     "events.jsonl:3: setup: a setup is entered before the game begins; line 1 already "
     "does lift b2"),
])
def test_a_bad_or_late_setup_line_is_one_line_exit_2_nothing_printed(tmp_path, capsys, lines,
                                                                       message):
    code, out, path = replay(tmp_path, capsys, lines)
    assert code == 2
    assert out.out == ""  # not the move before a late setup, nor a final line
    assert out.err.startswith(f"sensorboard: {path.rsplit('/', 1)[0]}/{message}")
    assert out.err.count("\n") == 1 and "Traceback" not in out.err


def test_a_game_without_a_setup_refuses_the_line(tmp_path, capsys):
    code, out, path = replay(tmp_path, capsys, [{"t": 0, "op": "setup", "text": SWAPPED}],
                             "tessella")
    assert code == 2 and out.out == ""
    assert out.err == (f"sensorboard: {path}:1: tessella starts from its fixed position and "
                       "takes no setup\n")
