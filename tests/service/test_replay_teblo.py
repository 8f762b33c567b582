"""Teblo through the whole pipeline: pawns standing on their own blocks.

On reed switches a pawn stepping off its block onto an empty square looks like a block
placement there, and a pawn stepping from one own block to another shows nothing: the
board asks. On analog Hall sensors the same game needs no question.
"""

import json
import random
from pathlib import Path

import pytest

import rules
from boards.choreography import game_events, stages, turn_ops
from boards.layout import load_layout, shipped_layouts
from boards.tracker import presence
from sensorboard.replay import parse_events, replay

from .helpers import ev, moves, random_state

HALL = shipped_layouts()["teblo-hall"]
REEDS = shipped_layouts()["teblo"]


def run(lines, layout=REEDS, position=None, **kw):
    state = rules.from_position("teblo", position) if position else rules.new_game("teblo")
    events = parse_events([json.dumps(x) for x in lines], "test", state.GEOMETRY.names,
                          state.PLAYERS)
    out = []
    final = replay(state, load_layout(layout), events, "test", out.append, **kw)
    return out, final


def position_with_pawn_on_block():
    """Yellow's pawn stands on its own block at c1 (it came from a1 over the box a1)."""
    state = rules.new_game("teblo")
    for m in ["+b1", "+k12", "a1-a2", "+j12", "+b2", "+i12", "a2-b2", "+h12"]:
        state.push_str(m)
    assert state.physical()["b2"] == ("yellow-block", "yellow")
    return state


def script(state, moves_, rng=None):
    """Events for ``moves_`` from the start, answering the board's questions on reeds:
    a clock press after a turn the switches cannot see, and the move's notation after
    every turn (a question comes wherever another history looks the same: a pawn off
    its block or a block, a pawn onto an own block then the opponent's block; with no
    question open, an answer is only a warning)."""
    rng = rng or random.Random(0)
    state = rules.new_game("teblo")
    lines, t = [], 0.5
    for move in moves_:
        for op, cell in turn_ops(state, move, rng):
            lines.append(ev(round(t, 3), op, cell))
            t += 0.3
        if not signature(state, move):
            lines.append({"t": round(t, 3), "op": "press", "button": "clock"})
        lines.append({"t": round(t + 0.3, 3), "op": "choose", "value": str(move)})
        t += 0.6
        state.push(move)
        t += 0.5
    return lines


def test_reeds_ask_step_off_block_or_placement():
    state = position_with_pawn_on_block()
    events = script(state, state.move_stack)
    t = events[-1]["t"] + 1
    # the pawn steps b2 -> c2: the sensor at b2 still sees the block
    events += [ev(t, "lift", "b2"), ev(t + 0.5, "place", "c2")]
    out, final = run(events)
    assert moves(out) == [str(m) for m in state.move_stack]
    prompts = [x for x in out if x["type"] == "prompt"]
    # a block on c2, the pawn off its block, or a silent b2-b1 then red's block on c2
    assert prompts and prompts[-1]["options"] == ["+c2", "b2-b1", "b2-c2", "none"]
    events += [{"t": t + 2.0, "op": "choose", "value": "b2-c2"}]
    out, final = run(events)
    assert moves(out)[-1] == "b2-c2"
    assert final["position"]["c2"] == ["yellow"] and final["position"]["b2"] == ["yellow-block"]


def test_hall_sensors_see_the_step_off_the_block_without_asking():
    state = position_with_pawn_on_block()
    events = script(state, state.move_stack)
    t = events[-1]["t"] + 1
    events += [ev(t, "lift", "b2"), ev(t + 0.5, "place", "c2")]
    out, final = run(events, layout=HALL)
    assert not [x for x in out if x["type"] == "prompt"]
    assert moves(out)[-1] == "b2-c2"


def test_reeds_silent_step_between_own_blocks_needs_the_clock_button():
    state = position_with_pawn_on_block()
    state.push_str("+c2")   # a yellow block next to the pawn
    state.push_str("+g12")
    events = script(state, state.move_stack)
    t = events[-1]["t"] + 1
    # b2 -> c2: pawn lifted from a block, put on a block: the switches never change
    events += [ev(t, "lift", "b2"), ev(t + 0.5, "place", "c2"),
               {"t": t + 1.5, "op": "press", "button": "clock"}]
    out, final = run(events)
    assert [x for x in out if x["type"] == "prompt"][-1]["options"] == [
        "b2-b1", "b2-c2", "none"]
    events.append({"t": t + 2.5, "op": "choose", "value": "b2-c2"})
    out, final = run(events)
    assert moves(out)[-1] == "b2-c2"
    assert final["position"]["c2"] == ["yellow-block", "yellow"]


def test_block_placed_on_a_coloured_box_is_an_error():
    out, final = run([ev(0.5, "place", "l1")])
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[0]["cells"] == {"l1": "empty"}
    assert moves(out) == []


def test_pawn_moved_two_squares_is_an_error_then_put_right():
    out, final = run([ev(0.0, "lift", "a1"), ev(0.5, "place", "a3"), ev(3.0, "lift", "a3"),
                      ev(3.5, "place", "a2")])
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[0]["cells"] == {"a3": "empty"}
    assert moves(out) == ["a1-a2"]


def test_placement_that_cuts_a_pawn_off_is_an_error():
    state = rules.new_game("teblo")
    # wall yellow's base in with yellow blocks at a2 and b1 would cut red... build the
    # position where one more red block seals yellow's pawn
    for m in ["+b2", "+a3", "+c1", "+k12"]:
        state.push_str(m)
    cuts = state.cutting_placements()
    assert cuts, state.position_str()
    events = script(state, state.move_stack)
    t = events[-1]["t"] + 1
    events += [ev(t, "place", cuts[0])]
    out, _ = run(events)
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[-1]["cells"] == {cuts[0]: "empty"}
    assert len(moves(out)) == 4


def signature(state, move):
    seq = stages(state, move)
    before, after = seq[0], seq[-1]
    cells = set(before) | set(after)
    return tuple(sorted((c, presence(after.get(c, ()))) for c in cells
                        if presence(after.get(c, ())) != presence(before.get(c, ()))))


def pawn_steps(legal, rng):
    """Half the time the pawn's steps, so pawns walk over their blocks."""
    return [m for m in legal if m.frm] if rng.random() < 0.5 else legal


def play_interactively(line, layout, rng):
    """Carry out ``line`` on a simulated board turn by turn, answering its questions the
    way a player would: press the clock when the board waits, pick the move when asked."""
    from hardware.clock import VirtualClock
    from sensorboard.replay import VirtualRun
    from sensorboard.service import BoardService

    clock = VirtualClock()
    state = rules.new_game("teblo")
    service = BoardService(state, load_layout(layout), clock=clock, backend="sim")
    out: list[dict] = []
    run_ = VirtualRun(service, clock, out.append)
    shadow = rules.new_game("teblo")
    asked = 0
    for move in line:
        for op, cell in turn_ops(shadow, move, rng):
            run_.scan_until(clock.now() + 0.3)
            (service.sim_lift if op == "lift" else service.sim_place)(cell)
        run_.scan_until(clock.now() + 0.3)
        shadow.push(move)
        if len(service.tracker.state.move_stack) < len(shadow.move_stack):
            if service.tracker.prompt is None:
                out += service.press("clock")
            if service.tracker.prompt is not None:
                assert str(move) in service.tracker.prompt.options
                asked += 1
                out += service.choose(str(move))
        run_.scan_until(clock.now() + 0.3)
    out += service.flush()
    return out, service.final(), asked


@pytest.mark.parametrize("seed", range(4))
def test_random_games_with_pawn_walks_on_reeds_answering_questions(seed):
    rng = random.Random(seed)
    state = random_state("teblo", rng, 50, prefer=lambda legal: pawn_steps(legal, rng))
    out, final, asked = play_interactively(state.move_stack, REEDS, rng)
    assert moves(out) == [str(m) for m in state.move_stack]
    assert final["position"] == {c: list(p) for c, p in sorted(state.physical().items())}


@pytest.mark.parametrize("seed", range(3))
def test_random_games_on_hall_sensors_need_no_questions(seed):
    rng = random.Random(seed)
    line = random_state("teblo", rng, 50, prefer=lambda legal: pawn_steps(legal, rng)).move_stack
    out, final = run(game_events(rules.new_game("teblo"), line, rng, step=0.3), layout=HALL)
    assert not [x for x in out if x["type"] == "prompt"]
    assert moves(out) == [str(m) for m in line]


def test_hint_button_lights_the_cutting_squares():
    from boards import hints
    from boards.tracker import Tracker

    state = rules.new_game("teblo")
    for m in ["+b2", "+a3", "+c1", "+k12"]:
        state.push_str(m)
    tracker = Tracker(state)
    assert tracker.press("hint", 10.0) == []
    frame = hints.plan(tracker.view(), 10.5)
    assert sorted(frame) == state.cutting_placements() and set(frame.values()) == {"cut"}
    assert "cut" not in hints.plan(tracker.view(), 20.0).values()


assert Path(HALL).exists() and Path(REEDS).exists()


def test_pawn_lifted_and_put_down_within_one_scan_is_a_step():
    """Both changes confirmed by the same scan: no order is known, so the step it is."""
    out, final = run([ev(0.5, "lift", "a1"), ev(0.5, "place", "a2")], layout=REEDS)
    assert moves(out) == ["a1-a2"]


def test_answer_given_right_after_the_place_waits_for_the_board_to_settle():
    state = position_with_pawn_on_block()
    events = script(state, state.move_stack)
    t = events[-1]["t"] + 1
    events += [ev(t, "lift", "b2"), ev(t + 0.5, "place", "c2"),
               {"t": t + 0.501, "op": "choose", "value": "b2-c2"}]
    out, final = run(events)
    assert moves(out)[-1] == "b2-c2"


def test_a_replayed_answer_names_its_question_and_a_replaced_one_refuses_it():
    """``choose`` may name the question it answers (``asked``: its prompt line's ``t`` to
    the millisecond and its options, joined by ``|``). Yellow's touch of b1 is asked
    about; yellow then steps b1-c1, the first question settles and the step is asked: a
    ``none`` meant for the first is refused with a warning, and the step answered."""
    lines = [ev(1.0, "lift", "a1"), ev(1.5, "place", "b1"), ev(2.0, "place", "c5"),
             ev(2.5, "place", "b2"), ev(3.0, "place", "c6"), ev(4.0, "lift", "b1"),
             ev(4.5, "place", "b1")]
    out, _ = run(lines)
    first = [x for x in out if x["type"] == "prompt"][-1]
    assert first["options"] == ["b1-b2", "none"]
    key = f"{first['t']:.3f}|b1-b2|none"
    lines += [ev(5.0, "lift", "b1"), ev(5.5, "place", "c1")]
    warned: list[str] = []
    out, _ = run([*lines, {"t": 7.0, "op": "choose", "value": "none", "asked": key}],
                 warn=warned.append)
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == \
        ["b1-b2", "b1-c1", "none"]
    assert moves(out) == ["a1-b1", "+c5", "+b2", "+c6"]
    assert warned == ["test:10: choose: 'none' answered a question no longer open; now "
                      "asked: b1-b2, b1-c1, none"]
    second = [x for x in out if x["type"] == "prompt"][-1]
    lines.append({"t": 7.0, "op": "choose", "value": "b1-c1",
                  "asked": f"{second['t']:.3f}|b1-b2|b1-c1|none"})
    out, _ = run(lines)
    assert moves(out) == ["a1-b1", "+c5", "+b2", "+c6", "b1-c1"]
