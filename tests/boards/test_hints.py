"""What the LEDs show, from the tracker's view of the turn."""

import rules
from boards import hints
from boards.tracker import Tracker


def test_lifted_piece_lights_its_legal_destinations_captures_in_another_colour():
    state = rules.from_position("tessella", "clear:a1,a2,e1,e2 dark:a3,a4,e5,e4 clear")
    tracker = Tracker(state)
    tracker.change("a2", False, 0.0)
    frame = hints.plan(tracker.view(), 0.1)
    assert frame["a2"] == "lifted"
    assert frame["a3"] == "capture"
    assert {c for c, r in frame.items() if r == "move"} == {"ab12", "ab23", "b2"}
    assert hints.PALETTE["capture"] != hints.PALETTE["move"]


def test_lifting_the_enemy_first_lights_the_shooters():
    state = rules.from_position("tessella", "clear:a1,a2,e1,e2 dark:a3,a4,e5,e4 clear")
    tracker = Tracker(state)
    tracker.change("a3", False, 0.0)
    frame = hints.plan(tracker.view(), 0.1)
    assert frame["a3"] == "move" and frame["a2"] == "lift"  # place the shooter there


def test_error_lights_the_wrong_cells_until_put_right():
    tracker = Tracker(rules.new_game("tessella"))
    tracker.change("c1", False, 0.0)
    tracker.change("c3", True, 0.5)
    tracker.tick(1.6)
    assert hints.plan(tracker.view(), 1.6) == {"c3": "wrong"}
    tracker.change("c3", False, 2.0)
    assert "wrong" not in hints.plan(tracker.view(), 2.1).values()


def test_move_shown_briefly_then_dark():
    tracker = Tracker(rules.new_game("tessella"))
    tracker.change("e4", False, 0.0)
    tracker.change("e5", True, 0.5)
    assert hints.plan(tracker.view(), 1.0) == {"e4": "last", "e5": "last"}
    assert hints.plan(tracker.view(), 0.5 + hints.LAST_MOVE_SECONDS + 0.1) == {}


def test_end_of_game_lights_the_winner():
    state = rules.from_position("tessella", "clear:a1,a2,e1,e2 dark:a3,a4,e5,e4 clear")
    tracker = Tracker(state)
    tracker.change("a3", False, 0.0)
    tracker.change("a2", False, 0.2)
    tracker.change("a3", True, 0.4)
    assert tracker.state.outcome().winner == "clear"
    frame = hints.plan(tracker.view(), 10.0)
    assert set(frame.values()) == {"winner"} and set(frame) == {"a1", "a3", "e1", "e2"}


def test_tulaga_turn_lights_stage_by_stage():
    state = rules.new_game("tulaga")
    for m in ["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "e5", "c5"]:
        state.push_str(m)
    tracker = Tracker(state)
    tracker.change("e1", True, 1.0)
    # the stones of the Tulaga: each may be lifted (and each but e1 may hold the rank stone)
    assert set(tracker.targets()) == {"a1", "b1", "c1", "d1", "e1"}
    for i, cell in enumerate(["a1", "b1", "c1", "d1", "e1"]):
        tracker.change(cell, False, 2.0 + i)
    # claiming: where the rank stone may go
    assert tracker.targets() == dict.fromkeys(["a1", "b1", "c1", "d1", "e1"], "move")
    tracker.change("c1", True, 8.0)
    # after it: the enemy stones of the reaping direction (north of c1: c5 and c9)
    assert tracker.targets() == {"c5": "lift", "c9": "lift"}
    tracker.change("c5", False, 9.0)
    assert tracker.targets() == {"c9": "lift"}
    # c9 lifted ends the reap, or it is in hand to be put back: the turn waits for the
    # next event, here black's side of the clock
    assert tracker.change("c9", False, 10.0) == []
    events = tracker.press("clock", 11.0, "black")
    assert [e.move for e in events] == ["e1*a1b1c1d1e1@c1>N"]


def test_prompt_blinks_the_candidate_cells():
    state = rules.new_game("teblo")
    for m in ["+b1", "+k12", "a1-a2", "+j12", "+b2", "+i12", "a2-b2", "+h12"]:
        state.push_str(m)
    tracker = Tracker(state)
    # pawn off its block at b2, or a block on c2 (or red's block after a silent b2-b1):
    # not asked while red thinks; brought up with hint
    tracker.change("c2", True, 1.0)
    assert tracker.prompt is None
    assert tracker.tick(2.0) == [] and tracker.prompt is None
    tracker.press("hint", 2.0)
    assert tracker.prompt.options == ["+c2", "b2-b1", "b2-c2", "none"]
    lit = [hints.plan(tracker.view(), 2.0 + k / 8) for k in range(8)]
    assert any(f == {} for f in lit) and any(set(f.values()) == {"choice"} for f in lit)
    assert {"b2", "c2"} <= set(next(f for f in lit if f))


def test_pieces_now_follow_the_sensor():
    from boards.layout import load_layout, shipped_layouts
    from boards.sensing import observer

    state = rules.new_game("teblo")
    for m in ["+b1", "+k12", "a1-a2", "+j12", "+b2", "+i12", "a2-b2", "+h12"]:
        state.push_str(m)
    hall = Tracker(state.clone(), observe=observer(load_layout(shipped_layouts()["teblo-hall"])))
    hall.change("b2", "block", 1.0)  # the pawn lifted off its block
    assert hall.pieces_now("b2") == (("yellow-block",), ("yellow",))
    reeds = Tracker(state.clone())
    reeds.change("l1", True, 1.0)  # something put down on a box, where no move goes
    assert reeds.pieces_now("l1") == (("?",), ())
    reeds.change("l1", False, 1.5)
    assert reeds.pieces_now("l1") == ((), ())
