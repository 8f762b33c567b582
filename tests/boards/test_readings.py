"""A question about which turn was made never stops the board: later changes decide it
(``boards/readings.py``)."""

import random

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


def test_later_changes_decide_an_open_question_and_close_it():
    """i9 emptied and a piece on h9: red's i9-h9, or i9-i8 onto its block and yellow's block
    on h9. Yellow's block on c3, then the piece on h9 lifted and put on g9 (a block never
    leaves its square) and yellow's pawn stepping: i9-h9 it was, and every turn since is
    committed, nobody having answered. The question waits for the next put-down (where
    both readings still fit, equally cheap), and is shown then."""
    tracker = reed_teblo()
    tracker.change("i9", False, 1.0)
    assert tracker.change("h9", True, 1.5) == [] and tracker.prompt is None
    asked = tracker.change("c3", True, 2.5)
    assert [e.options for e in asked if isinstance(e, Prompt)] == [["i9-h9", "i9-i8", "none"]]
    events = []
    for cell, value, t in [("h9", False, 3.5), ("g9", True, 4.0), ("a1", False, 4.5),
                           ("a2", True, 5.0)]:
        events += tracker.change(cell, value, t)
    assert moves(events) == ["i9-h9", "+c3", "h9-g9", "a1-a2"]
    assert [e.answer for e in events if isinstance(e, Settled)] == ["i9-h9"]
    assert tracker.prompt is None
    assert tracker.turns() == ["i9-h9", "+c3", "h9-g9", "a1-a2"]


def test_a_question_waits_through_the_next_players_thinking():
    """i9 emptied and a piece on h9, then the board still for seconds: yellow thinking,
    whose next move may settle it. The question is not shown until that move (a block on
    c3, after which both readings still fit)."""
    tracker = reed_teblo()
    tracker.change("i9", False, 1.0)
    tracker.change("h9", True, 1.5)
    assert tracker.tick(tracker.next_timer()) == [] and tracker.prompt is None
    assert tracker.tick(9.0) == [] and tracker.prompt is None
    asked = tracker.change("c3", True, 10.0)
    assert [e.options for e in asked if isinstance(e, Prompt)] == [["i9-h9", "i9-i8", "none"]]


def test_the_board_still_for_a_second_lets_a_reading_go():
    """The reading that does not fit is let go once the board has been still for a second
    (error_delay), without waiting for another change."""
    tracker = reed_teblo()
    for cell, value, t in [("i9", False, 1.0), ("h9", True, 1.5), ("c3", True, 2.5),
                           ("h9", False, 3.5), ("g9", True, 4.0)]:
        tracker.change(cell, value, t)
    assert tracker.prompt is not None  # one change since i9-i8 stopped fitting
    events = tracker.tick(tracker.next_timer())
    assert moves(events) == ["i9-h9", "+c3", "h9-g9"]
    assert tracker.prompt is None


def test_an_answer_closes_the_question_and_its_readings():
    """Answered while the readings go on, the answer is taken as before (the turn asked
    about is committed) and the readings are let go."""
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
    import random

    from .truth import Mix, run_stream

    result = run_stream("teblo", "teblo", 300_001, plies=24,
                        mix=Mix.random(random.Random(300_001)))
    assert result.ok and result.committed == result.truth


def test_readings_that_agree_on_the_next_turn_only_do_not_settle_the_question():
    """Yellow's pawn on a2 touched (taken up, put back) while red stepped l12-l11, then
    stepped onto yellow's own block on a3 (only its lift shows). Asked a2-a3 or none, the
    reading of a2-a3 (made at the touch, the pawn put back read as red's +a2) and that of
    none (the step made later) both made a2-a3 next; settling on that alone took the
    wrong one and committed red's +a2 (seed 91000008). Only readings that agree on every
    turn since settle so."""
    result = run_stream("teblo", "teblo", 91000008, plies=24,
                        mix=Mix.random(random.Random(91000008)))
    assert result.truth[4:6] == ["a2-a3", "l11-k11"]
    assert result.committed == result.truth


def test_an_answer_after_the_next_turns_lifts_takes_the_reading_that_read_them():
    """Asked i9-h9 or i9-i8 (and yellow's block on h9), yellow's pawn then stepped from a1
    onto its own block on a2 (only the lift shows) and red took up the pawn on h9: the
    answer i9-h9, with nothing put down since the question, went to the tracker alone,
    which could not read a2's lift and h9's as two turns, and nothing after i9-h9 was ever
    committed (seed 93000451). The answer's reading, which followed them, is taken."""
    state = rules.from_position("teblo", "yellow:a1:24:a2 red:i9:24:i8 red")
    tracker = Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))
    for cell, value, t in [("i9", False, 1.0), ("h9", True, 1.5), ("a1", False, 2.0)]:
        tracker.change(cell, value, t)
    tracker.tick(tracker.next_timer())
    tracker.change("h9", False, 3.5)
    assert tracker.prompt is None  # (nothing put down since: not shown, yet answerable)
    tracker.choose("i9-h9", 4.0)
    assert moves(tracker.change("g9", True, 4.5)) == ["a1-a2", "h9-g9"]
    assert tracker.turns() == ["i9-h9", "a1-a2", "h9-g9"]
    result = run_stream("teblo", "teblo", 93000451, plies=24,
                        mix=Mix.random(random.Random(93000451)))
    assert result.committed == result.truth


def test_a_second_touch_asks_again_about_what_came_since():
    """Yellow's c3-d3 onto its own block while red's pawn on l11 was touched, asked (and
    answered late, l11 touched again meanwhile): under `c3-d3`, the reading of `none` to
    red's `l11-l10` (and yellow's `+l11`) asks the same again at the second touch. Let go
    as a repeat of the question above it, it left `l11-l10` alone, which was committed
    with `+l11` though nobody had moved (seed 97000236, ply 13 of 60)."""
    mix = Mix.random(random.Random(97000236))
    result = run_stream("teblo", "teblo", 97000236, plies=14, mix=mix)
    assert "c3-d3" in result.truth
    assert result.committed == result.truth


def test_a_player_who_presses_only_after_unseen_turns_is_not_late_at_a_press():
    """Seed 99200069 of the 60-ply random mix (nobody presses after a turn the sensors
    see), turns 31 to 33: yellow's pawn steps a1-a2 onto its own block (the switches see
    a1 emptied), red puts a block on b1, yellow's pawn steps a2-b2 onto its own block
    (unseen) and yellow presses its clock. That is also yellow's a1-b1 and its press. The
    press counted the reading of a1-a2 late (red began before it), and a1-b1 was
    committed; but yellow's last turn was ended by no press of theirs, so a press is no
    sign that they press after every turn: the question is shown, and answered."""
    seed = 99200069
    result = run_stream("teblo", "teblo", seed, plies=33, mix=Mix.random(random.Random(seed)))
    assert not result.off and not result.illegal
    assert result.committed[30:33] == ["a1-a2", "+b1", "a2-b2"]
