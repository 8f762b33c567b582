"""Tesulda through the whole pipeline: figures lifted whole, captures with either figure
lifted first, Dodgers set down between their legs, then the attack choice, swap and draw
asked one at a time, and the three ways a turn ends (the last answer, the mover's clock,
the opponent starting to move)."""

import json
import random

import pytest

import rules
from boards import decisions
from boards.decisions import Turn
from boards.layout import layout_for_game
from rules.tesulda import NONE
from sensorboard import demo
from sensorboard.replay import parse_events, replay

from .helpers import ev, moves, prompts_seen

LAYOUT = layout_for_game("tesulda")


def truth_line(seed, turns):
    """A seeded random game as turns: captures preferred, and after the move ``none``
    half the time where it may be chosen (so turns are often ended by the clock or by
    the opponent starting to move)."""
    rng = random.Random(seed)
    state = rules.new_game("tesulda")
    line = []
    while state.outcome() is None and len(line) < turns:
        player, turn = state.to_move, []
        while decisions.in_turn(state, player):
            legal = state.legal_moves()
            captures = [m for m in legal if m.capture]
            if captures and rng.random() < 0.6:
                move = rng.choice(captures)
            elif NONE in legal and rng.random() < 0.5:
                move = rules.tesulda.NONE
            else:
                move = rng.choice(legal)
            state.push(move)
            turn.append(move)
        line.append(Turn(turn))
    return line, state


def texts(line):
    state = rules.new_game("tesulda")
    out = []
    for turn in line:
        out.append(decisions.text(state, turn))
        decisions.push(state, turn)
    return out


def physical(state):
    return {c: list(p) for c, p in sorted(state.physical().items())}


def play(events, state=None, **kw):
    """Replay ``events`` (dicts) from ``state`` (default: the D-11 start); returns (output
    items, final line, warnings)."""
    state = state or rules.new_game("tesulda")
    lines = [json.dumps(x) for x in events]
    parsed = parse_events(lines, "test", state.GEOMETRY.names, state.PLAYERS)
    out, warnings = [], []
    final = replay(state, LAYOUT, parsed, "test", out.append, warn=warnings.append, **kw)
    return out, final, warnings


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_are_tracked_exactly(seed):
    line, truth = truth_line(seed, 50)
    events = demo.script("tesulda", line, LAYOUT, random.Random(seed), step=0.3, pause=0.5,
                         vary=True)
    out, final, _ = play(events)
    assert moves(out) == texts(line)
    assert final["position"] == physical(truth) and final["to_move"] == truth.to_move
    # every kind of turn was carried out: captures, attack choices, swaps, Dodger detours
    words = " ".join(texts(line))
    assert "x" in words and "swap:" in words
    assert any(e["op"] == "press" for e in events)


def test_every_prompt_offers_only_legal_decisions_one_at_a_time():
    seen = 0
    for seed in (11, 12):
        line, _ = truth_line(seed, 40)
        events = demo.script("tesulda", line, LAYOUT, random.Random(seed), step=0.3,
                             pause=0.5, vary=True)
        for item, legal, where, _ in prompts_seen(rules.new_game("tesulda"), LAYOUT, events):
            # never a whole turn, never the move: the attack choice, or swap / draw / none
            assert " moved:" in where
            assert sorted(item["options"]) == sorted(legal), item
            seen += 1
    assert seen >= 20


# --- hand-made turns --------------------------------------------------------------------

def press(t, player=None):
    return {"t": t, "op": "press", "button": "clock", **({"player": player} if player else {})}


def choose(t, value):
    return {"t": t, "op": "choose", "value": value}


def position(text):
    return rules.from_position("tesulda", text)


def test_a_plain_move_with_nothing_to_ask_is_committed_when_the_figure_is_set_down():
    out, final, _ = play([ev(1.0, "lift", "a2"), ev(1.5, "place", "a5")])
    # a2-a5: a square base with two squares, no friendly neighbour at a5
    assert [x["type"] for x in out] == ["move"]
    assert moves(out) == ["a2-a5"] and out[0]["t"] == pytest.approx(1.5, abs=0.05)
    assert final["to_move"] == "dark" and final["position"]["a5"][0] == "light-square"


CAPTURE = "light:e1=Skh,d4=Sss dark:d7=Ssc,j10=Skh pool: light"


@pytest.mark.parametrize("order", [["d4", "d7"], ["d7", "d4"]])
def test_a_capture_with_either_figure_lifted_first_then_the_attack_choice(order):
    events = [ev(1.0, "lift", order[0]), ev(1.5, "lift", order[1]), ev(2.0, "place", "d7"),
              choose(3.0, "take:cs")]
    out, final, _ = play(events, position(CAPTURE))
    assert out[0] == {"type": "prompt", "t": pytest.approx(2.0, abs=0.05),
                      "options": ["none", "take:c", "take:cs", "take:s"]}
    assert moves(out) == ["d4xd7 take:cs"]
    assert final["position"]["d7"] == ["light-square", "circle", "square", "square", "square"]
    assert "d4" not in final["position"] and final["to_move"] == "dark"


EXTRAS = "light:e1=Skh,c6=Ssss,d8=Tcs dark:j10=Skh pool:ch light"


def test_draw_then_swap_are_asked_one_at_a_time_and_the_last_answer_ends_the_turn():
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), choose(3.0, "draw:h"),
              choose(4.0, "swap:s:c9>d8")]
    out, final, _ = play(events, position(EXTRAS))
    prompts = [x["options"] for x in out if x["type"] == "prompt"]
    assert prompts == [
        ["draw:c", "draw:ch", "draw:h", "none", "swap:s:c9>d8", "swap:ss:c9>d8",
         "swap:c:d8>c9", "swap:s:d8>c9"],
        # the draw is taken: a swap or none, the hexagon drawn among what c9 may give, and
        # nothing from d8 (c9 would hold five pieces)
        ["none", "swap:h:c9>d8", "swap:s:c9>d8", "swap:sh:c9>d8", "swap:ss:c9>d8"]]
    assert moves(out) == ["c6-c9 draw:h swap:s:c9>d8"]
    assert final["position"]["d8"] == ["light-triangle", "circle", "square", "square"]
    assert final["position"]["c9"] == ["light-square", "square", "square", "hexagon"]


def test_the_movers_clock_ends_the_turn_declining_what_is_open():
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), choose(3.0, "draw:c"),
              press(4.0, "light")]
    out, final, _ = play(events, position(EXTRAS))
    assert moves(out) == ["c6-c9 draw:c none"]
    assert final["to_move"] == "dark"


def test_the_opponents_clock_does_not_end_the_turn():
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), press(2.0, "dark"),
              choose(3.0, "none")]
    out, _, _ = play(events, position(EXTRAS))
    assert moves(out) == ["c6-c9 none"] and out[-1]["t"] == pytest.approx(3.0)


def test_the_opponent_starting_to_move_declines_what_is_open():
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), ev(3.0, "lift", "j10"),
              ev(3.5, "place", "j9")]
    out, final, _ = play(events, position(EXTRAS))
    assert moves(out) == ["c6-c9 none", "j10-j9"]
    # committed once the opponent's own figure is set down elsewhere (taken up, it may
    # be a touch)
    assert out[1]["t"] == pytest.approx(3.5, abs=0.05)
    assert final["to_move"] == "light"


def test_the_opponent_touching_a_figure_of_their_own_leaves_the_question_open():
    """Dark lifts j10 and puts it back while light is asked about the swap and draw: a
    touch, not dark's turn begun; light's answer still counts (the truth-checked streams
    found the question declined at the lift)."""
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), ev(3.0, "lift", "j10"),
              ev(3.5, "place", "j10"), choose(4.0, "draw:h"), choose(5.0, "swap:s:c9>d8")]
    out, final, _ = play(events, position(EXTRAS))
    assert moves(out) == ["c6-c9 draw:h swap:s:c9>d8"]
    assert [x["type"] for x in out].count("prompt") == 2 and final["to_move"] == "dark"


def test_the_opponent_taking_the_figure_just_moved_declines_what_is_open():
    # dark's g9 (straight 1 + 2x2 with its hexagon) reaches c9 along the rank
    start = "light:e1=Skh,c6=Ssss,d8=Tcs dark:g9=Sssh,j10=Skh pool:ch light"
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"),
              ev(3.0, "lift", "c9"), ev(3.5, "lift", "g9"), ev(4.0, "place", "c9"),
              choose(5.0, "none")]
    out, final, _ = play(events, position(start))
    assert moves(out) == ["c6-c9 none", "g9xc9 none"]
    assert out[1]["t"] == pytest.approx(4.0, abs=0.05)  # when dark's figure came to c9
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == [
        "none", "take:s", "take:ss"]
    assert final["position"]["c9"][0] == "dark-square"


@pytest.mark.parametrize("answers, turn", [([], "c6-c9 none"),
                                           ([choose(3.0, "draw:c")], "c6-c9 draw:c none")])
def test_the_end_of_the_input_ends_the_turn_declining_what_is_open(answers, turn):
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), *answers]
    out, final, _ = play(events, position(EXTRAS))
    assert moves(out) == [turn] and out[-1]["type"] == "move"
    assert final["to_move"] == "dark" and final["position"]["c9"][0] == "light-square"


def test_the_end_of_the_input_declines_the_attack_choice():
    events = [ev(1.0, "lift", "d4"), ev(1.5, "lift", "d7"), ev(2.0, "place", "d7")]
    out, final, _ = play(events, position(CAPTURE))
    assert moves(out) == ["d4xd7 none"]
    assert final["position"]["d7"] == ["light-square", "square", "square"]
    assert final["to_move"] == "dark"


def test_the_end_of_the_input_leaves_open_a_question_none_does_not_answer():
    # D-9: the Prime steps onto e3, which dark's e7 reaches; only handing its crown to a
    # neighbour out of reach completes the turn, so the swap is asked without ``none``
    start = "light:e1=Sks,d4=Sss,f4=Sss dark:e7=Ssss,j10=Skh pool: light"
    out, final, _ = play([ev(1.0, "lift", "e1"), ev(1.5, "place", "e3")], position(start))
    assert out == [{"type": "prompt", "t": pytest.approx(1.5, abs=0.05),
                    "options": ["swap:k:e3>d4", "swap:k:e3>f4"]}]
    assert final["to_move"] == "light"


def test_a_figure_touched_while_asked_leaves_the_question_open():
    events = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), ev(2.0, "lift", "c9"),
              ev(2.3, "place", "c9"), choose(3.0, "none")]
    out, _, _ = play(events, position(EXTRAS))
    assert moves(out) == ["c6-c9 none"] and [x["type"] for x in out].count("prompt") == 1


DODGER = "light:e1=Skh,e4=Scz dark:j10=Skh pool: light"


def test_a_dodger_set_down_between_its_legs_then_going_on():
    events = [ev(1.0, "lift", "e4"), ev(1.5, "place", "e5"), ev(2.5, "lift", "e5"),
              ev(3.0, "place", "f6")]
    out, final, _ = play(events, position(DODGER))
    assert moves(out) == ["e4-f6"] and out[0]["t"] == pytest.approx(3.0, abs=0.05)
    assert "e5" not in final["position"] and final["position"]["f6"][0] == "light-square"


def test_a_dodger_without_setting_down_and_one_that_stops_at_its_corner():
    out, _, _ = play([ev(1.0, "lift", "e4"), ev(1.5, "place", "f6")], position(DODGER))
    assert moves(out) == ["e4-f6"]
    out, _, _ = play([ev(1.0, "lift", "e4"), ev(1.5, "place", "e5"), press(2.5, "light")],
                     position(DODGER))
    assert moves(out) == ["e4-e5"] and out[0]["t"] == pytest.approx(2.5)
    # or the opponent's first move says the Dodger had stopped there
    out, _, _ = play([ev(1.0, "lift", "e4"), ev(1.5, "place", "e5"), ev(3.0, "lift", "j10"),
                      ev(3.5, "place", "i10")], position(DODGER))
    assert moves(out) == ["e4-e5", "j10-i10"]


def test_a_dodger_whose_questions_were_asked_at_its_corner_goes_on():
    # at f7 the Dodger is asked about a swap with g7; it goes on to g8 instead
    start = "light:e1=Skh,f6=Scz,g7=Tcs dark:j10=Skh pool: light"
    events = [ev(1.0, "lift", "f6"), ev(1.5, "place", "f7"), ev(2.5, "lift", "f7"),
              ev(3.0, "place", "g8"), choose(4.0, "none")]
    out, final, _ = play(events, position(start))
    prompts = [x for x in out if x["type"] == "prompt"]
    assert len(prompts) == 2 and moves(out) == ["f6-g8 none"]
    assert "f7" not in final["position"] and final["to_move"] == "dark"


JUMPER = "light:e1=Skh,c3=Sssd dark:c5=Tcs,j10=Skh pool: light"


def test_a_jumper_moves_its_full_rating_over_a_figure():
    out, final, _ = play([ev(1.0, "lift", "c3"), ev(1.5, "place", "c6")], position(JUMPER))
    assert moves(out) == ["c3-c6"] and "c5" in final["position"]
    # short of its full rating it may not stop: an error on the square it was put on
    out, _, _ = play([ev(1.0, "lift", "c3"), ev(1.5, "place", "c4")], position(JUMPER))
    assert moves(out) == [] and out[0]["type"] == "error" and out[0]["cells"]["c4"] == "empty"


EXPOSE = "light:a1=Skh,a2=Ss dark:a8=Ssssh,j10=Skh pool: light"


def test_a_move_exposing_the_prime_is_an_error_showing_the_attacker():
    events = [ev(1.0, "lift", "a2"), ev(1.5, "place", "c2"), ev(4.0, "lift", "c2"),
              ev(4.5, "place", "a3")]
    out, final, _ = play(events, position(EXPOSE))
    error = out[0]
    assert error["type"] == "error" and error["cells"] == {"c2": "empty"}
    assert error["attackers"] == ["a8"]
    assert moves(out) == ["a2-a3"] and final["to_move"] == "dark"


def test_an_answer_not_offered_leaves_the_question_open():
    events = [ev(1.0, "lift", "d4"), ev(1.5, "lift", "d7"), ev(2.0, "place", "d7"),
              choose(3.0, "take:ss"), choose(3.5, "swap:s:d7>d8"), choose(4.0, "take:s")]
    out, _, warnings = play(events, position(CAPTURE))
    assert len(warnings) == 2 and "'take:ss' is not offered" in warnings[0]
    assert moves(out) == ["d4xd7 take:s"]


def test_the_default_pattern_written_out_as_a_setup_gives_the_same_game():
    from rules.tesulda_setup import default_setup_text

    out, final, _ = play([ev(1.0, "lift", "e2"), ev(1.5, "place", "e3")],
                         rules.new_game("tesulda", setup=default_setup_text()))
    out2, final2, _ = play([ev(1.0, "lift", "e2"), ev(1.5, "place", "e3")])
    assert out == out2 and final == final2


def test_the_bundled_demo_plays_its_game():
    line = demo.pick_line("tesulda", 7, 60)
    out, final, warnings = play(demo.load("tesulda"))
    assert moves(out) == texts(line) and not warnings
    assert sum("x" in m for m in moves(out)) >= 3  # captures and their attack choices
    assert [x["type"] for x in out].count("error") == 1  # the one slip, put right


# --- the truth-checked streams through replay ------------------------------------------------

def replay_stream(seed, plies=14):
    from tests.boards import truth, truth_replay

    return truth_replay.run_stream("tesulda", "tesulda", seed, plies=plies,
                                   mix=truth.Mix.random(random.Random(seed)))


@pytest.mark.parametrize("seed", [20_000, 20_001, 20_002])
def test_streams_played_by_hand_replay_to_the_true_turns(seed):
    """A seeded game played with ordinary handling habits (touches, enemy figures touched
    while holding one's own, clock presses, late answers, garbage put right) on the
    simulated board, written down as replay input and replayed: the ``move`` lines are the
    true turns (``tests/boards/truth_replay.py``; ``bench/truth.py --replay`` runs
    hundreds)."""
    result = replay_stream(seed)
    assert result.ok, (result.off or result.stalled, result.log[-12:])
    assert result.committed == result.truth and len(result.truth) == 14


def test_a_stream_replayed_through_the_command_line_gives_the_true_turns(tmp_path):
    """The same input lines through ``sensorboard replay --game tesulda FILE``."""
    import subprocess
    import sys

    from tests.boards import truth, truth_replay

    mix = truth.Mix.random(random.Random(20_003))
    board = truth_replay.ServiceBoard(rules.new_game("tesulda"), "tesulda")
    played = truth.run_stream("tesulda", "tesulda", 20_003, plies=10, mix=mix, board=board)
    assert played.ok
    path = tmp_path / "stream.jsonl"
    path.write_text(board.jsonl())
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "replay", "--game", "tesulda",
                           str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert moves(lines) == played.truth


def test_the_replay_check_catches_an_answer_that_is_not_the_true_one():
    """The check can fail: the same stream's input with one answer changed to another
    option of its question replays to a turn nobody made."""
    from tests.boards import truth, truth_replay

    mix = truth.Mix.random(random.Random(20_000))
    board = truth_replay.ServiceBoard(rules.new_game("tesulda"), "tesulda")
    played = truth.run_stream("tesulda", "tesulda", 20_000, plies=8, mix=mix, board=board)
    assert truth_replay.check_replay(played, board).ok
    answer = next(line for line in board.lines
                  if line["op"] == "choose" and line["value"].startswith("swap:"))
    answer["value"] = "none"
    result = truth_replay.check_replay(played, board)
    assert result.off.startswith("replay ply") and not result.ok
