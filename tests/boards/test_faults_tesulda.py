"""Tesulda streams that went off the truth (issue 22), each replayed through the tracker as
the truth streams feed it: the true turns up to the fault, then the lifts and places the
player made."""

import pytest

import rules
from tests.boards.truth import TrackerBoard


def board_after(turns):
    state = rules.new_game("tesulda")
    for turn in turns:
        for decision in turn.split():
            state.push_str(decision)
    return TrackerBoard(state, "tesulda")


# bench/truth.py --mix random --game tesulda --first 9200096, and --first 9100145: the
# mover lifts their figure, touches (lifts and puts back) an enemy figure it could capture,
# and sets their own down on an empty square. A figure of the opponent's that could stop at
# that square on a Dodger's corner had not left its own: the capture, its take asked, was
# committed with ``none``, and the step never was.
TOUCHED_THEN_STEPPED = {
    "9200096": (["g2-h3 swap:s:h3>i2", "b9-a8 swap:sz:a9>a8", "f2-e3 swap:c:e3>d2", "a8-b5",
                 "h2-i3 swap:zh:j2>i3", "e9-f8 swap:s:g9>f8", "i3-e5"],
                "b5", "a2", "e6"),
    "9100145": (["h2-g3 swap:s:f2>g3", "d9-c8 swap:s:b9>c8", "g2-f3 swap:ss:g3>f3",
                 "e9-f8 swap:s:f8>g9", "f3-g2 swap:s:g2>g1", "d10-e9 swap:rh:e9>f9", "b1-e4",
                 "h9-i8 swap:c:j9>i8", "a2-a3 swap:ss:a3>b2", "g9-h8 swap:ss:h8>i9",
                 "b2-b4 swap:c:b4>a3", "f9-d7 swap:s:d7>c8", "i2-h3 swap:s:h3>g3",
                 "d7xd2 take:s draw:c", "d1xd2 take:cc swap:rh:d2>c2", "c8-a8 swap:c:a8>b9",
                 "c2-c8", "b9xc8 take:ch swap:c:c8>c9", "e2-e3 swap:cc:d2>e3",
                 "i9-f9 swap:s:f9>e10", "a3-c4 swap:ss:b4>c4", "c8-f5", "c4-b7"],
                "f5", "h3", "d7"),
}


@pytest.mark.parametrize("seed", sorted(TOUCHED_THEN_STEPPED))
def test_an_enemy_touched_while_the_mover_holds_their_figure_is_no_capture(seed):
    turns, start, touched, end = TOUCHED_THEN_STEPPED[seed]
    board = board_after(turns)
    figure, enemy = board.tracker.before_pieces[start], board.tracker.before_pieces[touched]
    board.change(start, (), 1.0)
    board.change(touched, (), 1.2)
    board.change(touched, enemy, 1.4)  # looks like the capture on it: its take is asked
    board.change(end, figure, 1.6)
    assert board.tracker.turns()[-1] == f"{start}-{end}"
    assert len(board.tracker.turns()) == len(turns) + 1 and board.prompt is None


# bench/truth.py --mix random --game tesulda --first 55000239 --plies 60: light's b9-a10 (a
# Dodger that could go on from a10 to take a7) waits; dark captures a7xa2 lifting its own
# figure first, then touches it. The board waited as if light's turn might go on (a2 only
# touched), asked which move light made once light carried a10-a7, and then put dark's
# take and declined it in the same instant: ``a7xa2 none none`` for ``a7xa2 take:ss``.
BEFORE_B9_A10 = ["e2-f3 swap:c:f2>f3", "b9-b8 swap:c:b8>c9", "f1-d3 swap:c:d3>d2", "j9-h7",
                 "g2-h3 none", "a9-b9 swap:ss:b9>b8", "d1-e2 swap:rc:e2>d3",
                 "f9-g8 swap:c:h9>g8", "d3-h8", "g8-f9 swap:cs:f9>g9", "h8-a7",
                 "g9-h8 swap:s:h8>h9", "a7xb9 take:z", "a10-a7 none"]


def test_a_capture_made_own_figure_first_after_a_waiting_dodger_asks_its_take_at_once():
    board = board_after(BEFORE_B9_A10)
    light, dark = board.tracker.before_pieces["b9"], board.tracker.before_pieces["a7"]
    for cell, pieces, t in [("b9", (), 1.0), ("a10", light, 2.0), ("a7", (), 3.0),
                            ("a2", (), 4.0), ("a2", dark, 5.0)]:
        board.change(cell, pieces, t)
    assert board.tracker.turns()[-1] == "b9-a10"
    assert board.prompt is not None
    assert board.prompt.options == ["none", "take:s", "take:ss", "take:sz", "take:z"]
    board.change("a2", (), 5.5)  # dark touches its figure: the question stays
    board.change("a2", dark, 5.7)
    assert board.prompt is not None and "take:ss" in board.prompt.options
    board.choose("take:ss", 6.0)
    assert board.tracker.turns()[-1] == "a7xa2 take:ss" and board.prompt is None
    board.change("a10", (), 7.0)
    board.change("a7", light, 8.0)
    board.press("light", 9.0)
    assert board.tracker.turns()[-3:] == ["b9-a10", "a7xa2 take:ss", "a10-a7"]
    assert board.prompt is None and not board.tracker.differing
