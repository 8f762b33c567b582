"""A question about which turn was made never stops the board: later changes decide it
(``boards/readings.py``)."""

import random

import pytest

import rules
from boards.layout import load_layout, shipped_layouts
from boards.readings import Settled
from boards.sensing import observer
from boards.tracker import Committed, Prompt, Tracker

from .truth import Mix, run_stream


def reed_teblo() -> Tracker:
    """Red's pawn on i9 beside its own block on i8, on reed switches (a pawn on its own
    block shows nothing more)."""
    state = rules.from_position("teblo", "yellow:a1:25: red:i9:24:i8 red")
    return Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))


def moves(events):
    return [e.move for e in events if isinstance(e, Committed)]


def test_later_changes_decide_a_question_before_it_is_shown():
    """i9 emptied and a piece on h9: red's i9-h9, or i9-i8 onto its block and yellow's block
    on h9. Nothing is shown at the change; yellow's block on c3, then the piece on h9
    lifted and put on g9 (a block never leaves its square) and yellow's pawn stepping:
    i9-h9 it was, and every turn since is committed, nobody having been asked."""
    tracker = reed_teblo()
    tracker.change("i9", False, 1.0)
    assert tracker.change("h9", True, 1.5) == [] and tracker.prompt is None
    events = []
    for cell, value, t in [("c3", True, 2.5), ("h9", False, 3.5), ("g9", True, 4.0),
                           ("a1", False, 4.5), ("a2", True, 5.0)]:
        events += tracker.change(cell, value, t)
    assert moves(events) == ["i9-h9", "+c3", "h9-g9", "a1-a2"]
    assert not [e for e in events if isinstance(e, Prompt | Settled)]
    assert tracker.prompt is None
    assert tracker.turns() == ["i9-h9", "+c3", "h9-g9", "a1-a2"]


def test_a_true_tie_is_shown_once_the_board_is_still_after_the_next_player_began():
    """i9-h9, or i9-i8 and yellow's block on h9; then a block on c3 (yellow's, or red's):
    both readings cost the same. The question is shown once the board has been still for
    error_delay after that block, and the answer commits its reading's turns."""
    tracker = reed_teblo()
    for cell, value, t in [("i9", False, 1.0), ("h9", True, 1.5)]:
        tracker.change(cell, value, t)
    assert tracker.tick(3.0) == []  # still, but nothing has happened since: not yet
    assert tracker.change("c3", True, 3.5) == [] and tracker.prompt is None
    [asked] = tracker.tick(tracker.next_timer())
    assert asked.options == ["i9-h9", "i9-i8", "none"] and tracker.prompt == asked
    assert moves(tracker.choose("i9-i8", 5.0)) == ["i9-i8", "+h9", "+c3"]
    assert tracker.prompt is None and not tracker.readings


def test_an_answer_closes_the_question_and_its_readings():
    """Answered while the readings go on (before it was shown: replay's ``choose``), the
    answer is taken as before (the turn asked about is committed) and the readings are
    let go."""
    tracker = reed_teblo()
    for cell, value, t in [("i9", False, 1.0), ("h9", True, 1.5)]:
        tracker.change(cell, value, t)
    assert tracker.readings
    assert moves(tracker.choose("i9-i8", 2.0)) == ["i9-i8", "+h9"]
    assert tracker.prompt is None and not tracker.readings


def test_none_to_a_waiting_turn_with_a_press_held_is_no_crash():
    """Asked which waiting turn was made, with a clock press held for the answer: the
    reading of ``none`` ends the hold too (it raised IndexError; ``bench/truth.py --mix
    random --first 300000 --game teblo``, seed 300001)."""
    result = run_stream("teblo", "teblo", 300_001, plies=24,
                        mix=Mix.random(random.Random(300_001)))
    assert result.ok and result.committed == result.truth


def test_no_question_is_shown_while_a_piece_is_in_hand():
    """Yellow's pawn on a2 lifted and put back: a touch, or a2-b2 onto its block and red's
    block on a2 (asked unshown). Yellow lifts the pawn again and holds it for seconds: the
    question is not shown, as its answer would be about the turn being made (seed 9700042
    answered ``a2-b2`` and committed red's ``+a2``, a turn nobody made). At yellow's press
    it is shown, and ``a2-b2`` commits yellow's turn alone."""
    state = rules.from_position("teblo", "yellow:a2:24:b2 red:l12:23:i4,k12 yellow")
    tracker = Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))
    for cell, value, t in [("a2", False, 1.0), ("a2", True, 1.5), ("a2", False, 2.0)]:
        assert tracker.change(cell, value, t) == []
    assert tracker.tick(3.5) == [] and tracker.tick(6.0) == [] and tracker.prompt is None
    [asked] = tracker.press("clock", 7.0, "yellow")
    assert asked.options == ["a2-b2", "none"]
    assert moves(tracker.choose("a2-b2", 8.0)) == ["a2-b2"]
    assert tracker.prompt is None and tracker.turns()[-1] == "a2-b2"


@pytest.mark.parametrize(("seed", "plies"), [
    # yellow's turns read two and three answers deep, the questions shown 10 s late; the
    # reading adopted had stopped at its own question and lost the turns since (19 of 24)
    (9_700_062, 24),
    # the garbage red lifted (yellow's block) let the reading of red to move go, and a
    # silent l10-l11 that a shared press could have ended was committed (nobody made it)
    (9_700_002, 24),
    # red's silent i9-j9 asked at red's press and yellow's +e2 made while it was unshown;
    # shown, it was declined at a touch long after, as if red had put the block on e2
    (11_200_008, 60),
    # a late answer whose readings no longer fitted (red's pawn in hand for its next turn)
    # was taken by the tracker itself, stopped at the question 15 s back: 18 of 24
    (12_100_017, 24),
    # a touch of the pawn (or a step and the opponent's block on its cell) shown at a
    # still second; the pawn lifted again, the answer named the turn being made, and the
    # reading of that answer, whose block had just been lifted, committed that block
    (13_000_086, 24),
    (13_000_065, 24),
    # garbage lifted the block yellow put down before the question (a shared press: red's
    # silent l10-k10, or yellow's press): that is a touch, not a reading's misfit
    (14_000_002, 24),
    # yellow's +b2 touched: a block a reading put down since the question, lifted again,
    # is a touch or a block never put down; it lets no reading win (a2-b2 was committed)
    (15_100_048, 24),
    # ... and the answer a2-b2, given with the pawn held on b2, is the turn the reading of
    # none holds, not that of a2-b2 and red's +a2
    (13_000_017, 24),
])
def test_random_habit_streams_that_went_wrong_commit_the_true_turns(seed, plies):
    """``bench/truth.py --mix random --game teblo`` streams (from 9700000, 11200000 with
    60 plies, 12100000 to 15100000) that the unshown questions once took off the truth or
    stalled."""
    mix = Mix.random(random.Random(seed))
    result = run_stream("teblo", "teblo", seed, plies=plies, mix=mix)
    assert not result.off and not result.stalled and not result.illegal
    assert result.committed == result.truth
