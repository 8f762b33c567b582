"""The faults of issue 22 with physical dice and figures, each replayed the way players
handle the pieces: through ``sensorboard replay``'s code on the simulated board (Telec,
physical dice) or through the tracker as the truth streams feed it (Tesulda)."""

import json
import random
import subprocess
import sys

import pytest

import rules
from boards.layout import load_layout, shipped_layouts
from sensorboard.latency import change_to_frame
from tests.boards.truth import Mix, TrackerBoard, run_stream
from tests.service.helpers import ev, moves, run

BOARDS = ("telec", "telec-nodrop")


def choose(t, value):
    return {"t": t, "op": "choose", "value": value}


def press(t, player=None):
    line = {"t": t, "op": "press", "button": "clock"}
    return {**line, "player": player} if player else line


def telec(lines, layout="telec"):
    """Replay ``lines`` on a Telec board with physical dice; (output, final line)."""
    warnings = []
    out, final = run("telec", lines, load_layout(shipped_layouts()[layout]),
                     warn=warnings.append)
    return out, final, warnings


def prompts(out):
    return [(x["t"], x["options"]) for x in out if x["type"] == "prompt"]


def timed_moves(out):
    return [(x["t"], x["move"]) for x in out if x["type"] == "move"]


# Blue 4 on a1 (size 6), red 5 on a5 (size 3), blue a1-a2, red a5-a4 (its single on blue's
# tile for a 2), blue a2-a3 (next to it), red 5 again on a5 (size 2).
BESIDE_A4 = [ev(1.0, "place", "a1"), choose(2.0, "6"), ev(3.0, "place", "a5"), choose(4.0, "3"),
             ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"), ev(6.0, "lift", "a5"),
             ev(6.5, "place", "a4"), ev(7.0, "lift", "a2"), ev(7.5, "place", "a3"),
             ev(8.0, "place", "a5"), choose(8.5, "2")]


@pytest.mark.parametrize("layout", BOARDS)
def test_a_bump_entry_asks_its_size_at_once_beside_an_own_piece_that_could_step_there(layout):
    """Blue rolls 2, lifts red's single off a4 and puts a 5 there. Its own 6 on a3 could
    step onto a4 as well, but has not left a3: the size was asked only at red's next
    lift, the answer given meanwhile refused, and the game stuck at that question."""
    lines = [*BESIDE_A4, ev(10.0, "lift", "a4"), ev(10.3, "place", "a4"), choose(11.0, "5"),
             ev(12.0, "lift", "a5"), ev(12.5, "place", "b5")]
    out, final, warnings = telec(lines, layout)
    [(asked, options)] = prompts(out)[3:]
    assert 10.3 <= asked < 11.0 and options == ["4", "5", "6", "none"]
    assert moves(out)[6:] == ["roll 2 5", "a5-b5"] and not warnings
    assert final["position"]["a4"] == ["blue-5"]


# Blue a1-a2, red a5-b5, blue a2-a3 (an entrance of the Center Zone), red b5-a5.
AT_THE_ENTRANCE = [ev(1.0, "place", "a1"), choose(2.0, "6"), ev(3.0, "place", "a5"),
                   choose(4.0, "3"), ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"),
                   ev(6.0, "lift", "a5"), ev(6.5, "place", "b5"), ev(7.0, "lift", "a2"),
                   ev(7.5, "place", "a3"), ev(8.0, "lift", "b5"), ev(8.5, "place", "a5")]


def test_a_step_into_the_center_zone_is_committed_when_its_pad_is_emptied():
    """docs/hardware.md: the piece put on the drop pad and taken away is the step into the
    Center Zone, committed then; it waited for the next player's move instead."""
    lines = [*AT_THE_ENTRANCE, ev(10.0, "lift", "a3"), ev(10.3, "place", "cz"),
             ev(10.8, "lift", "cz"), ev(12.0, "lift", "a5"), ev(12.5, "place", "b5")]
    out, final, _ = telec(lines)
    assert timed_moves(out)[6:] == [(pytest.approx(10.8, abs=0.05), "a3-cz"),
                                    (pytest.approx(12.5, abs=0.05), "a5-b5")]
    assert prompts(out)[2:] == [] and final["stock"]["blue"]["blue-6"] == 1


def test_one_shared_clock_ends_a_forfeit_after_a_waiting_step_into_the_center_zone():
    """Without the drop sensor blue's a3-cz shows only a3 emptied and waits (it could still
    be a step to a tile). Red rolls 5 and forfeits, then presses the shared button: the
    press committed blue's step only, and red's forfeit was lost."""
    lines = [*AT_THE_ENTRANCE, ev(10.0, "lift", "a3"), press(12.0), choose(12.5, "5"),
             choose(13.0, "none"), ev(15.0, "place", "a4"), choose(15.5, "1")]
    out, final, warnings = telec(lines, "telec-nodrop")
    assert moves(out)[6:] == ["a3-cz", "roll 5 none", "roll 2 1"] and not warnings
    assert prompts(out)[2] == (12.0, ["5", "none"])
    assert final["to_move"] == "red"


def test_one_shared_clock_ends_a_stack_from_the_stash_after_a_step_onto_an_own_piece():
    """Blue's 1 steps from b5 onto its own 6 on c5 (only b5 emptied is seen: it waits).
    Red rolls 2 and stacks a 3 from its stash on its own 4 on d2 (nothing seen) and
    presses the shared button: only blue's step was committed, red's stack lost."""
    lines = [ev(1.0, "place", "b5"), choose(1.5, "1"), ev(3.0, "place", "a5"), choose(3.5, "3"),
             ev(5.0, "place", "c5"), choose(5.5, "6"), ev(7.0, "place", "d2"), choose(7.5, "4"),
             ev(9.0, "lift", "b5"), press(11.0), choose(11.5, "2"), choose(12.0, "3")]
    out, final, warnings = telec(lines)
    assert moves(out)[4:] == ["b5-c5", "roll 2 3"] and not warnings
    assert final["position"]["d2"] == ["red-4", "red-3"] and final["to_move"] == "blue"


# Blue 2 on a4 (size 6), red 5 on a5 (size 3), blue 4 on a1 (size 5), red 2 on d2 (size
# 4), blue a1-a2 (onto red's 3), red d2-d1, blue a4-a3, red d1-d2.
BLUE_ON_RED_3 = [ev(1.0, "place", "a4"), choose(1.5, "6"), ev(2.0, "place", "a5"),
                 choose(2.5, "3"), ev(3.0, "place", "a1"), choose(3.5, "5"),
                 ev(4.0, "place", "d2"), choose(4.5, "4"), ev(5.0, "lift", "a1"),
                 ev(5.5, "place", "a2"), ev(6.0, "lift", "d2"), ev(6.5, "place", "d1"),
                 ev(7.0, "lift", "a4"), ev(7.5, "place", "a3"), ev(8.0, "lift", "d1"),
                 ev(8.5, "place", "d2")]


def test_a_forfeit_pressed_after_a_touch_that_looks_like_a_bump_is_asked_once_that_is_not():
    """bench/truth.py --first 9300000 --game telec-nodrop, seed 9300062: blue's a3-cz
    waits (only a3 emptied shows); red touches blue's single on red's 3, rolls a 3 and
    forfeits, and presses red's clock. The press committed blue's step and asked whether
    red's 6 bumped that single; answered ``none``, red's forfeit was never asked, and with
    no press left the game stopped there."""
    lines = [*BLUE_ON_RED_3, ev(10.0, "lift", "a3"), ev(11.0, "lift", "a2"),
             ev(11.3, "place", "a2"), press(12.0, "red"), choose(12.5, "none"),
             choose(13.0, "3"), ev(14.0, "lift", "a2"), ev(14.5, "place", "b2")]
    out, final, warnings = telec(lines, "telec-nodrop")
    assert [options for _, options in prompts(out)[4:]] == [["6", "none"], ["2", "3", "5"]]
    assert moves(out)[8:] == ["a3-cz", "roll 3 none", "a2-b2"] and not warnings
    assert final["position"]["b2"] == ["blue-5"]


# Blue 2 on a4 (size 6), red 3 on a2 (size 3), blue a4-a3, red 5 on a5 (size 1): red's
# single on a2 is next to blue's 6 on a3.
BESIDE_A2 = [ev(1.0, "place", "a4"), choose(2.0, "6"), ev(3.0, "place", "a2"), choose(4.0, "3"),
             ev(5.0, "lift", "a4"), ev(5.5, "place", "a3"), ev(6.0, "place", "a5"),
             choose(6.5, "1")]
MOVER_FIRST = [ev(8.0, "lift", "a3"), ev(8.3, "lift", "a2"), ev(8.7, "place", "a2")]


@pytest.mark.parametrize("layout", BOARDS)
def test_one_shared_clock_ends_a_forfeit_after_a_bump_made_mover_first(layout):
    """Red forfeits its 5 after blue's bump a3-a2 made mover first, and presses the
    shared button: the press ended blue's turn only. (Without the drop sensor, a3-cz with
    red's single touched meanwhile shows the same: asked first.)"""
    which = [choose(10.2, "a3-a2")] if layout == "telec-nodrop" else []
    lines = [*BESIDE_A2, *MOVER_FIRST, press(10.0), *which, choose(10.5, "5")]
    out, final, warnings = telec(lines, layout)
    assert moves(out)[4:] == ["a3-a2", "roll 5 none"] and not warnings
    assert final["position"] == {"a2": ["blue-6"], "a5": ["red-1"]}


@pytest.mark.parametrize("layout", BOARDS)
def test_a_bump_made_mover_first_is_asked_as_a_step_not_as_the_next_players_entry(layout):
    """Blue lifts its 6 off a3, then red's single off a2, and puts the 6 on a2; red then
    enters on d2. With the drop sensor that bump is the only turn made, committed as red
    enters, whose size is asked next. Without it, a3-cz with red's single touched meanwhile
    shows the same: asked which step (not red's size), then red's size."""
    lines = [*BESIDE_A2, *MOVER_FIRST, ev(10.0, "place", "d2"), choose(10.5, "a3-a2"),
             choose(11.0, "4")]
    out, final, warnings = telec(lines, layout)
    sizes = ["1", "2", "3", "4", "5", "6"]
    asked = [["a3-a2", "a3-cz"], sizes] if layout == "telec-nodrop" else [sizes]
    assert [options for _, options in prompts(out)[3:]] == asked
    assert moves(out)[4:] == ["a3-a2", "roll 2 4"]
    assert len(warnings) == (layout == "telec")  # (no question about a3-a2 to answer)
    assert final["position"] == {"a2": ["blue-6"], "a5": ["red-1"], "d2": ["red-4"]}


def test_a_bump_made_mover_first_with_an_enemy_touched_is_not_another_bump():
    """bench/truth.py --first 9100000 --game telec, seed 9100103: red lifts its 5 off d5,
    blue's single off d4 (the bump, mover first), touches blue's c5 while holding both,
    puts the 5 on d4; blue then steps c5 onto its own b5 (only c5 emptied shows) and
    presses the shared button. The press committed d5-c5: c5 emptied was read as red's
    piece lifted again from c5, not as blue's turn begun."""
    seed = 9100103
    result = run_stream("telec", "telec", seed, plies=24, mix=Mix.random(random.Random(seed)))
    assert result.ok, f"{result.off or result.stalled}\n" + "\n".join(result.log[-12:])
    assert result.committed[21:23] == ["d5-d4", "c5-b5"]


def test_one_shared_clock_ends_a_waiting_bump_and_the_next_bump_made_meanwhile():
    """bench/truth.py --first 9600000 --game telec-nodrop, seed 9600071: red's a5-b5 (a
    bump) waits; blue lifts its single off d1 (red's piece could still be on its way from
    a5 to bump it there) and bumps red's single on d2 with it; red stacks a 1 on its own
    3 on b1, unseen, and presses the shared button twice. Both presses did nothing; the
    turns were committed only as blue began the next, red's forfeit asked in place of its
    stack, and blue's bump on b5 was lost. Now a5-b5 is committed once blue's bump on d2
    shows done (red's piece lifted there and blue's put down is no touch), before any
    press, and the stream goes on differently from there."""
    seed = 9600071
    result = run_stream("telec", "telec-nodrop", seed, plies=24,
                        mix=Mix.random(random.Random(seed)))
    assert result.ok, f"{result.off or result.stalled}\n" + "\n".join(result.log[-12:])
    assert result.committed[19:21] == ["a5-b5", "d1-d2"]
    assert "28.37 commit red a5-b5" in result.log


STRAY = [ev(1.0, "place", "a1"), choose(2.0, "6"), ev(5.0, "place", "a3"),
         ev(10.0, "place", "a2"), ev(15.0, "lift", "a3")]


def test_after_a_stray_piece_is_taken_away_the_entry_it_hid_is_asked():
    """Blue enters on a1, a stray piece is put on a3, red enters on a2, the stray is taken
    off a3: the board then said nothing (no question, no error) and the game could not go
    on; now red's size is asked as the stray leaves."""
    out, final, warnings = telec([*STRAY, choose(25.0, "4")])
    assert [x["cells"] for x in out if x["type"] == "error"] == [{"a3": "empty"}] * 2
    assert prompts(out)[1] == (pytest.approx(15.0, abs=0.05), ["1", "2", "3", "4", "5", "6"])
    assert moves(out) == ["roll 4 6", "roll 3 4"] and not warnings


def test_the_stray_piece_sequence_through_the_command_line(tmp_path):
    path = tmp_path / "stray.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [*STRAY, choose(16.0, "4")]))
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "replay", "--game", "telec",
                           "--option", "dice=physical", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["move"] for x in lines if x["type"] == "move"] == ["roll 4 6", "roll 3 4"]
    assert lines[-1]["position"] == {"a1": ["blue-6"], "a2": ["red-4"]}


@pytest.mark.parametrize("layout", BOARDS)
def test_the_latency_games_commit_every_turn(layout):
    """bench/latency.py's Telec games committed about 75 % of their turns: its hand
    answered each decision with the whole turn's notation before anything was asked and
    never pressed the clock after a forfeit, so the game went off (seeds 3 and 4 lost
    most of theirs). The hand now plays as a person does (sensorboard/latency.py)."""
    played = []
    samples = change_to_frame(load_layout(shipped_layouts()[layout]), games=2, plies=30,
                              first_seed=3, played=played)
    assert samples and [c for c, _ in played] == [t for _, t in played]
    assert all(t > 10 for _, t in played)


# --- Tesulda ---------------------------------------------------------------------------------

# bench/truth.py --first 100001 --game tesulda (random handling): the first 17 turns, then
# dark's c1-c2 (touching light's g3 meanwhile), light's capture d1xc2 (dark's figure lifted
# first), dark lifts f6 to capture on c3, light touches b1 and answers the take as it puts
# b1 back.
TESULDA = ["d2-e3 swap:s:e2>e3", "a9-a6", "g2-h3 swap:c:h3>h2", "b9-a8", "e3-g3 swap:c:h2>g3",
           "i9-i8 swap:cz:j9>i8", "h1-e4", "i8-h6", "a2-a4", "c9-c8 swap:s:d9>c8",
           "a4xa6 take:ss", "h6xe4 none", "a6-a5", "e4xc1 take:s", "h3-h4 swap:c:g3>h4",
           "j10-f6", "c2-c3 swap:c:c3>b2"]
DARK_C1_C2 = [("c1", (), 24.755), ("g3", (), 24.9),
              ("g3", ("light-triangle", "circle", "square", "square"), 25.012),
              ("c2", ("dark-triangle", "circle", "circle", "square", "square", "trapezoid"),
               25.3)]
LIGHT_D1_C2 = [("c2", (), 25.518), ("d1", (), 25.794),
               ("c2", ("light-circle", "star", "circle", "hexagon"), 25.849)]


def tesulda_board():
    state = rules.new_game("tesulda")
    for turn in TESULDA:
        for decision in turn.split():
            state.push_str(decision)
    return TrackerBoard(state, "tesulda")


def play(board, changes, answers):
    """Each change, answering at once a question about which turn was made."""
    for cell, pieces, t in changes:
        board.change(cell, pieces, t)
        if board.prompt and answers.get(board.prompt.options[0]):
            board.choose(answers[board.prompt.options[0]], t)


def test_a_tesulda_take_answered_as_the_next_player_begins_is_kept():
    board = tesulda_board()
    play(board, [*DARK_C1_C2, *LIGHT_D1_C2], {"c1-c2": "c1-c2"})
    assert board.tracker.turns()[-1] == "c1-c2"
    assert board.prompt is not None and "take:z" in board.prompt.options  # asked at once
    play(board, [("f6", (), 26.139), ("b1", (), 31.781),
                 ("b1", ("light-circle", "circle", "circle", "diamond"), 32.041)], {})
    board.choose("take:z", 32.041)
    assert board.prompt is not None and "swap:rc:c2>c3" in board.prompt.options
    board.choose("swap:rc:c2>c3", 33.0)
    assert board.tracker.turns()[-1] == "d1xc2 take:z swap:rc:c2>c3"
    # dark's capture on c3, begun with f6 lifted while the question was open, goes on
    board.change("c3", (), 34.0)
    board.change("c3", board.tracker.before_pieces["f6"], 34.5)
    state = board.tracker.state
    assert state.move_str(state.move_stack[-1]) == "f6xc3"  # its take is asked
    assert board.prompt is not None and "take:c" in board.prompt.options


def test_a_tesulda_capture_made_own_figure_first_asks_its_take_before_the_next_turn():
    """Light lifts its figure off d1 first, then dark's off c2 (where dark's Dodger may
    have stopped at a corner on its way to d1), and sets its own on c2: dark's c1-c2 and
    light's capture are done. It waited for dark to lift f6, and the take was asked only
    then, with the next turn begun."""
    board = tesulda_board()
    play(board, [*DARK_C1_C2, ("d1", (), 25.518), ("c2", (), 25.794), LIGHT_D1_C2[-1]],
         {"c1-c2": "c1-c2"})
    assert board.tracker.turns()[-1] == "c1-c2"
    assert board.prompt is not None and "take:z" in board.prompt.options
    board.choose("take:z", 26.0)
    board.choose("swap:rc:c2>c3", 26.5)
    assert board.tracker.turns()[-1] == "d1xc2 take:z swap:rc:c2>c3"
