"""Tessella through the whole pipeline: simulated magnets, the GPIO scanner on the simulated
RPi.GPIO, debouncing, tracker, rules, LED planner, on a virtual clock."""

import json
import random
import subprocess
import sys

import pytest

import rules
from boards.choreography import game_events
from sensorboard.service import DEBOUNCE, SCAN_PERIOD

from .helpers import ev, moves, random_state, run

# Opening that reaches a position where clear may capture dark's a4 from a2... computed below.
OPENING = ["e4-de45", "d5-cd45", "e3-e4", "cd45-cd34"]


def test_simple_move_committed_within_one_debounce_of_the_place():
    out, final = run("tessella", [ev(0.0, "lift", "e4"), ev(0.4, "place", "de45")])
    assert moves(out) == ["e4-de45"]
    move = out[0]
    assert move["ply"] == 1 and move["player"] == "clear"
    assert 0.4 < move["t"] <= 0.4 + 0.003 + DEBOUNCE + SCAN_PERIOD  # bounce + debounce + scan
    assert final["to_move"] == "dark" and final["outcome"] is None
    assert final["position"]["de45"] == ["clear"] and "e4" not in final["position"]


def capture_line():
    """A short legal line from the start that ends with clear having a capture."""
    state = rules.new_game("tessella")
    rng = random.Random(3)
    line = []
    while True:
        caps = [m for m in state.legal_moves() if m.capture]
        if caps and state.to_move == "clear":
            return line, caps[0]
        move = rng.choice([m for m in state.legal_moves() if not m.capture])
        line.append(move)
        state.push(move)


@pytest.mark.parametrize("enemy_first", [True, False])
def test_capture_in_either_order(enemy_first):
    line, cap = capture_line()
    events = game_events(rules.new_game("tessella"), line, random.Random(1))
    t = events[-1]["t"] + 2.0
    first, second = (cap.to, cap.frm) if enemy_first else (cap.frm, cap.to)
    events += [ev(t, "lift", first), ev(t + 0.5, "lift", second), ev(t + 1.0, "place", cap.to)]
    # The shooter lifted first, then the enemy lifted and a piece put on its cell: that is
    # also the enemy touched (put back) while the shooter is in hand. The capture waits
    # for the next event: here clear's side of the clock.
    done = t + 1.0 if enemy_first else t + 2.0
    events += [{"t": t + 2.0, "op": "press", "button": "clock", "player": "clear"}]
    out, final = run("tessella", events)
    assert moves(out) == [str(m) for m in line] + [str(cap)]
    assert done <= out[-1]["t"] <= done + 0.003 + DEBOUNCE + SCAN_PERIOD
    assert final["position"][cap.to] == ["clear"] and cap.frm not in final["position"]
    assert not [x for x in out if x["type"] == "error"]


def test_illegal_placement_is_an_error_until_put_right_and_play_goes_on():
    events = [
        ev(0.0, "lift", "c1"), ev(0.5, "place", "c3"),     # c1 cannot reach c3
        ev(3.0, "lift", "c3"), ev(3.5, "place", "c2"),     # put right: c1-c2
        ev(5.0, "lift", "a2"), ev(5.5, "place", "b2"),     # dark replies
    ]
    out, final = run("tessella", events)
    errors = [x for x in out if x["type"] == "error"]
    assert len(errors) == 1
    assert errors[0]["cells"] == {"c3": "empty"}
    assert 1.4 < errors[0]["t"] < 2.0  # the board was still for about a second
    assert moves(out) == ["c1-c2", "a2-b2"]
    assert final["to_move"] == "clear"


def test_piece_put_back_is_no_move():
    out, final = run("tessella", [ev(0.0, "lift", "e4"), ev(0.6, "place", "e4")])
    assert moves(out) == [] and final["to_move"] == "clear"
    assert not [x for x in out if x["type"] == "error"]


def test_wrong_piece_moved_names_both_cells():
    # dark's piece moved on clear's turn: put it back
    out, final = run("tessella", [ev(0.0, "lift", "a2"), ev(0.5, "place", "ab12")])
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[0]["cells"] == {"a2": "dark", "ab12": "empty"}
    assert moves(out) == []


@pytest.mark.parametrize("seed", range(12))
def test_random_games_are_tracked_exactly(seed):
    rng = random.Random(seed)
    state = random_state("tessella", rng, 40)
    line = state.move_stack
    events = game_events(rules.new_game("tessella"), line, rng, step=rng.choice([0.05, 0.3]))
    out, final = run("tessella", events, seed=seed)
    assert moves(out) == [str(m) for m in line]
    assert final["position"] == {c: list(p) for c, p in sorted(state.physical().items())}
    assert final["to_move"] == state.to_move
    outcome = state.outcome()
    assert final["outcome"] == (outcome and {"winner": outcome.winner, "reason": outcome.reason})


@pytest.mark.parametrize("seed", range(6))
def test_random_handling_never_commits_an_illegal_move(seed):
    """Pieces lifted and put down anywhere: whatever is committed is legal, in order."""
    rng = random.Random(seed)
    state = rules.new_game("tessella")
    occupied = {c: len(p) for c, p in state.physical().items()}
    events, t = [], 0.0
    for _ in range(150):
        t += rng.choice([0.02, 0.2, 0.6, 1.5])
        full = [c for c, n in occupied.items() if n]
        if full and (rng.random() < 0.5 or sum(occupied.values()) >= 14):
            cell = rng.choice(full)
            occupied[cell] -= 1
            events.append(ev(round(t, 3), "lift", cell))
        else:
            cell = rng.choice(state.GEOMETRY.names)
            occupied[cell] = occupied.get(cell, 0) + 1
            events.append(ev(round(t, 3), "place", cell))
    out, _ = run("tessella", events, seed=seed)
    for move in moves(out):
        state.push_str(move)  # raises if the tracker ever committed an illegal move


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], input=stdin,
                          capture_output=True, text=True)


def test_cli_replay_prints_json_lines_and_final():
    text = "\n".join(json.dumps(x) for x in [ev(0.0, "lift", "e4"), ev(0.4, "place", "de45")])
    proc = cli("replay", "--game", "tessella", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert lines[0]["type"] == "move" and lines[0]["move"] == "e4-de45"
    assert lines[-1]["type"] == "final" and lines[-1]["to_move"] == "dark"


@pytest.mark.parametrize("text,message", [
    ('{"t": 0, "op": "lift", "cell": "c1"}\nnot json\n', r"<stdin>:2: not valid JSON"),
    ('{"t": 0, "op": "fly", "cell": "c1"}\n', r"<stdin>:1: 'op' must be one of"),
    ('{"t": 0, "op": "lift", "cell": "z9"}\n', r"<stdin>:1: unknown cell 'z9'; valid cells: a1"),
    ('{"t": 1, "op": "lift", "cell": "c1"}\n{"t": 0.5, "op": "place", "cell": "c2"}\n',
     r"<stdin>:2: 't' goes back in time"),
    ('{"t": 0, "op": "lift", "cell": "c3"}\n', r"<stdin>:1: lift c3: there is no piece on c3"),
    ('{"t": "soon", "op": "lift", "cell": "c1"}\n', r"<stdin>:1: 't' must be a number"),
    ('[1, 2]\n', r"<stdin>:1: expected a JSON object"),
    ('{"t": 0, "op": "press", "button": "bell"}\n', r"<stdin>:1: press: unknown button 'bell'"),
])
def test_cli_malformed_input_is_one_line_and_exit_2(text, message):
    import re

    proc = cli("replay", "--game", "tessella", "-", stdin=text)
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert re.search(message, err), err


def test_cli_unknown_game_lists_valid_ones():
    proc = cli("replay", "--game", "chess", "-", stdin="")
    assert proc.returncode == 2
    assert "unknown game 'chess'; valid games:" in proc.stderr and "tessella" in proc.stderr


def test_cli_missing_events_file():
    proc = cli("replay", "--game", "tessella", "/nonexistent/e.jsonl")
    assert proc.returncode == 2 and "/nonexistent/e.jsonl: cannot read" in proc.stderr


def test_physical_clock_button_commits_through_the_gpio_pin():
    """The layout's clock button, read through the (simulated) RPi.GPIO module."""
    import rules as rules_
    from boards.layout import layout_for_game
    from hardware.clock import VirtualClock
    from sensorboard.replay import VirtualRun
    from sensorboard.service import BoardService

    clock = VirtualClock()
    state = rules_.new_game("tulaga")
    for m in ["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9"]:
        state.push_str(m)
    layout = layout_for_game("tulaga")
    service = BoardService(state, layout, clock=clock, backend="sim")
    out = []
    run_ = VirtualRun(service, clock, out.append)
    service.sim_place("e1")  # a Tulaga: the board waits, a claim could follow
    run_.scan_until(1.0)
    assert service.tracker.state.to_move == "black"
    gpio = service.scanner.gpio
    gpio.set_input(layout.buttons["clock"], gpio.LOW)
    for _ in range(30):  # scan by scan: the virtual run cannot know when a finger comes
        clock.advance(0.002)
        out += service.step()
    assert [x["move"] for x in out if x["type"] == "move"] == ["e1"]


def test_cli_answer_without_a_question_is_a_warning_and_the_replay_goes_on():
    lines = [{"t": 0, "op": "choose", "value": "e4-e5"}, ev(0.5, "lift", "e4"),
             ev(1.0, "place", "de45")]
    proc = cli("replay", "--game", "tessella", "-", stdin="\n".join(json.dumps(x) for x in lines))
    assert proc.returncode == 0
    assert "<stdin>:1: choose: no question is open" in proc.stderr
    assert [json.loads(x)["type"] for x in proc.stdout.splitlines()] == ["move", "final"]


def test_takeback_undoes_the_last_move_once_the_board_is_put_back():
    events = [ev(0.0, "lift", "c1"), ev(0.5, "place", "c2"),
              {"t": 1.5, "op": "press", "button": "takeback"},
              ev(2.0, "lift", "c2"), ev(2.5, "place", "c1"),      # the board put back
              ev(3.5, "lift", "e4"), ev(4.0, "place", "de45")]
    out, final = run("tessella", events)
    kinds = [(x["type"], x.get("move")) for x in out]
    assert kinds == [("move", "c1-c2"), ("takeback", "c1-c2"), ("move", "e4-de45")]
    assert [x["ply"] for x in out] == [1, 1, 1]
    assert "c2" not in final["position"] and final["position"]["c1"] == ["clear"]
    assert not [x for x in out if x["type"] == "error"]


def test_takeback_lights_what_to_put_back_and_the_record_drops_the_move(tmp_path):
    import rules as rules_
    from boards import hints
    from boards.tracker import Tracker
    from sensorboard.gamerecord import parse_record
    from sensorboard.gamewriter import GameWriter, open_journal

    tracker = Tracker(rules_.new_game("tessella"))
    writer = GameWriter.new(open_journal(tmp_path), rules_.new_game("tessella"))
    from sensorboard.events import tracker_json

    for e in tracker.change("c1", False, 0.0) + tracker.change("c2", True, 0.5):
        writer.event(tracker_json(e))
    writer.flush()
    assert "1. c1-c2" in writer.record_path.read_text()
    for e in tracker.press("takeback", 1.0):
        writer.event(tracker_json(e))
    assert hints.plan(tracker.view(), 1.1) == {"c1": "missing", "c2": "wrong"}
    writer.flush()
    record = parse_record(writer.record_path.read_text())
    assert record.turns == [] and record.preamble == ["taken back: c1-c2"]
    assert tracker.state.move_stack == [] and tracker.state.to_move == "clear"
