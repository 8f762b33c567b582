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
