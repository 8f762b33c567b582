"""The board's words, read from the tracker's state: the same on the page and the terminal."""

from __future__ import annotations

import rules
from boards.tracker import Tracker
from sensorboard.guidance import idle_press, in_hand, not_your_turn, restore_steps


def test_take_back_of_a_capture_swaps_before_putting_back():
    state = rules.new_game("tessella")
    for move in ("b1-a1", "d5-e5"):
        state.push_str(move)
    assert restore_steps(state, "e4xe5") == [
        "on e5 replace the clear piece by the dark piece", "put the clear piece back on e4"]


def test_take_back_of_a_claim_and_reap_lifts_first_then_puts_back():
    state = rules.from_position(
        "tulaga", "black:f8,g8,h8 white:e7 black-rank: white-rank: piles:9+6,11+6 "
                  "rank-stones:6 black")
    steps = restore_steps(state, "f6*f6f8g8h8@g7>W")
    assert steps == ["lift the black-rank piece off g7", "put the white piece back on e7",
                     "put the black piece back on f8", "put the black piece back on g8",
                     "put the black piece back on h8"]


def test_in_hand_names_only_what_surely_is_off_the_board():
    tracker = Tracker(rules.new_game("tessella"))
    assert in_hand(tracker.view()) == ""
    tracker.change("e4", False, 0.0)
    assert in_hand(tracker.view()) == "In hand: clear piece from e4"
    tracker.change("e3", False, 0.1)  # a second piece up: both named
    assert in_hand(tracker.view()) == "In hand: clear piece from e3, clear piece from e4"


def test_not_your_turn_names_the_piece_and_who_is_to_move():
    tracker = Tracker(rules.new_game("teblo"))
    tracker.change("l12", False, 0.0)  # red's pawn; yellow is to move
    assert not_your_turn(tracker.view()) == ("Not your turn: yellow is to move. "
                                      "Put back the red piece on l12.")
    tracker.change("l12", True, 0.5)
    assert not_your_turn(tracker.view()) is None
    tracker.change("a1", False, 1.0)  # yellow's own pawn: a turn in progress
    assert not_your_turn(tracker.view()) is None


def test_a_press_that_does_nothing_says_why():
    tracker = Tracker(rules.new_game("tessella"))
    assert idle_press(tracker.view(), "clock") == (
        "Clock: no turn to end; clear has not moved a piece.")
    assert idle_press(tracker.view(), "takeback") == "Take back: there is no move to take back yet."
    assert idle_press(tracker.view(), "hint") == ("Hint: nothing to show; no cell is marked for "
                                           "clear now.")
    tracker.change("e4", False, 0.0)
    assert idle_press(tracker.view(), "hint") == ("Hint: shown between turns; finish or undo the "
                                           "move on the board first.")
    assert idle_press(tracker.view(), "clock") == ("Clock: the move on the board is not a complete "
                                            "legal turn yet.")


def test_a_new_board_not_set_up_says_what_is_missing_and_extra():
    """Any game: a board that differs from the start when a new game begins is put right
    first (nothing taken for a move), named in words and on the LEDs."""
    from boards import hints
    from boards.layout import layout_for_game
    from hardware.clock import VirtualClock
    from sensorboard.guidance import advice
    from sensorboard.replay import VirtualRun
    from sensorboard.service import BoardService

    standing = rules.new_game("tessella").physical()
    standing["c3"] = standing.pop("e4")
    clock = VirtualClock()
    service = BoardService(rules.new_game("tessella"), layout_for_game("tessella"),
                           clock=clock, backend="sim", pieces=standing)
    out = []
    VirtualRun(service, clock, out.append).scan_until(2.0)
    assert advice(service) == {"kind": "setup", "text": (
        "The board is not set up as the game starts: missing the clear piece on e4 (lit "
        "blue); extra piece on c3 (lit red: take it off).")}
    assert hints.plan(service.view, clock.now()) == {"e4": "missing", "c3": "wrong"}
    assert [x["cells"] for x in out if x["type"] == "error"] == [{"c3": "empty", "e4": "clear"}]
    assert in_hand(service.view) == ""
