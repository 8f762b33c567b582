"""The clock button: one per player (as on a chess clock) or one shared, and questions
that can always be declined with ``none``."""

import rules
from boards.tracker import Committed, Prompt, Rejected, Tracker


def walled_pawn():
    """Yellow's pawn on its own block at b2, own blocks at b1 and c2: on reed switches its
    steps b2-b1 and b2-c2 show nothing."""
    state = rules.new_game("teblo")
    for m in ["+b1", "+k12", "a1-a2", "+j12", "+b2", "+i12", "a2-b2", "+h12", "+c2", "+g12"]:
        state.push_str(m)
    return state


def moves(events):
    return [e.move for e in events if isinstance(e, Committed)]


def test_own_side_after_a_silent_step_commits_it_or_asks_which():
    tracker = Tracker(walled_pawn())
    events = tracker.press("clock", 1.0, "yellow")
    assert events == [Prompt(1.0, ["b2-b1", "b2-c2", "none"])]  # two silent steps fit
    assert moves(tracker.choose("b2-c2", 2.0)) == ["b2-c2"]


def test_press_by_the_player_who_has_just_moved_asks_nothing():
    state = walled_pawn()
    tracker = Tracker(state)
    assert tracker.press("clock", 1.0, "red") == []  # red has just moved: confirmed
    assert tracker.prompt is None and tracker.state.to_move == "yellow"


def test_shared_button_never_commits_an_unseen_move_without_a_question():
    state = rules.new_game("teblo")
    for m in ["+b1", "+k12", "a1-a2", "+j12", "+b2", "+i12", "a2-b2", "+h12"]:
        state.push_str(m)
    # one silent step only (b2-b1); a per-player press on yellow's side commits it ...
    assert moves(Tracker(state.clone()).press("clock", 1.0, "yellow")) == ["b2-b1"]
    # ... the shared button asks, and "none" (red confirming its own move) changes nothing
    tracker = Tracker(state.clone())
    assert tracker.press("clock", 1.0) == [Prompt(1.0, ["b2-b1", "none"])]
    assert tracker.choose("none", 2.0) == [] and tracker.prompt is None
    assert len(tracker.state.move_stack) == 8 and tracker.state.to_move == "yellow"


def test_unseen_move_question_left_open_is_settled_by_later_turns():
    """A shared press, then a block: red confirming its move and yellow's block, or
    yellow's unseen step and red's block (seed 83000249 went off the truth when the block
    was taken for yellow's at once). Red's pawn stepping next tells that the press was
    red's (after yellow's unseen step and red's block it would be yellow's turn); the
    block then is yellow's, as later blocks confirm (every other reading needs a step
    back onto b2 that no press ended)."""
    tracker = Tracker(walled_pawn())
    tracker.press("clock", 1.0)
    assert tracker.prompt is not None
    assert moves(tracker.change("e5", True, 2.0)) == []
    tracker.change("l12", False, 3.0)
    assert moves(tracker.change("l11", True, 4.0)) == []  # (one put-down: not yet)
    assert moves(tracker.tick(5.5)) == []
    assert tracker.prompt.options == ["+e5", "b2-b1", "b2-c2", "none"]  # no longer the press
    assert moves(tracker.change("e6", True, 6.0)) == []
    assert moves(tracker.change("e7", True, 7.0)) == ["+e5"]


def test_declining_a_question_keeps_earlier_moves_and_the_leds_show_the_board():
    state = rules.new_game("tessella")
    for m in ["b1-b2", "a3-ab23"]:
        state.push_str(m)
    tracker = Tracker(state)
    for t, (cell, value) in enumerate([("b2", False), ("a2", False), ("ab23", False),
                                       ("a2", True), ("ab23", True)]):
        assert tracker.change(cell, value, float(t)) == []  # the shooter may be in hand
    assert tracker.press("clock", 6.0, "clear") == [Prompt(6.0, ["b2xa2", "b2xab23", "none"])]
    assert tracker.choose("none", 7.0) == []
    assert len(tracker.state.move_stack) == 2
    # no capture: the shooter is in hand, and the LEDs show it lifted with its targets
    assert tracker.tick(8.5) == [] and tracker.lifted() == ["b2"]
    assert tracker.targets() and tracker.change("b2", True, 9.0) == []
    assert not tracker.differing and len(tracker.state.move_stack) == 2


def test_clock_press_names_a_player_of_the_game():
    tracker = Tracker(rules.new_game("tessella"))
    [rejected] = tracker.press("clock", 1.0, "red")
    assert isinstance(rejected, Rejected) and "players: clear, dark" in rejected.reason


def both_walled():
    """Yellow's pawn on a2 beside its own blocks a3 and b2 (its steps there show only a2
    emptied, so the sensors cannot tell them apart); red's pawn on its own block k12 beside
    its own block k11 (that step shows nothing on reed switches)."""
    state = rules.new_game("teblo")
    for m in ["+a3", "+k12", "+b2", "l12-k12", "a1-a2", "+k11"]:
        state.push_str(m)
    return state


def test_own_side_press_after_the_opponents_ambiguous_turn_asks_it_then_counts():
    """Yellow steps a2-b2 (a2-a3 looks the same), red then steps k12-k11 unseen and presses
    its side: yellow's turn is asked, and after the answer red's press still commits red's
    silent step (found by ``bench/truth.py --first 900110 --game teblo``, where the answer
    came late, after a touch, and red's step was lost)."""
    tracker = Tracker(both_walled())
    assert tracker.change("a2", False, 1.0) == []
    assert tracker.press("clock", 2.0, "red") == [Prompt(2.0, ["a2-a3", "a2-b2", "none"])]
    assert tracker.change("c5", True, 3.0) == [] and tracker.change("c5", False, 3.5) == []
    assert moves(tracker.choose("a2-b2", 4.0)) == ["a2-b2", "k12-k11"]
    assert tracker.prompt is None and tracker.state.to_move == "yellow"

