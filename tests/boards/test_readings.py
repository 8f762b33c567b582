"""A question about which turn was made never stops the board: later changes decide it
(``boards/readings.py``)."""

import rules
from boards.layout import load_layout, shipped_layouts
from boards.readings import Settled
from boards.sensing import observer
from boards.tracker import Committed, Prompt, Tracker


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
    committed, nobody having answered."""
    tracker = reed_teblo()
    tracker.change("i9", False, 1.0)
    assert tracker.change("h9", True, 1.5) == [] and tracker.prompt is None  # (kept unshown)
    asked = tracker.change("c3", True, 2.5)  # both readings free still: asked now
    assert [e.options for e in asked if isinstance(e, Prompt)] == [["i9-h9", "i9-i8", "none"]]
    events = []
    for cell, value, t in [("h9", False, 3.5), ("g9", True, 4.0),
                           ("a1", False, 4.5), ("a2", True, 5.0)]:
        events += tracker.change(cell, value, t)
    assert moves(events) == ["i9-h9", "+c3", "h9-g9", "a1-a2"]
    assert [e.answer for e in events if isinstance(e, Settled)] == ["i9-h9"]
    assert tracker.prompt is None
    assert tracker.turns() == ["i9-h9", "+c3", "h9-g9", "a1-a2"]


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
    for cell, value, t in [("i9", False, 1.0), ("h9", True, 1.5), ("c3", True, 2.0)]:
        tracker.change(cell, value, t)
    assert tracker.readings and tracker.prompt is not None
    assert moves(tracker.choose("i9-i8", 2.5)) == ["i9-i8", "+h9", "+c3"]
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


def test_a_press_made_while_a_question_was_unshown_counts_for_the_next_question():
    """Red's pawn step asked about unshown; yellow steps onto its own block (no sensor
    sees it) and presses; red puts a block down. Once red's step is answered, yellow's
    press says yellow made the silent step: red's block is not committed as yellow's
    (``bench/truth.py --mix random --first 17000024 --game teblo``: ``+k10`` committed
    for yellow where yellow had played ``b1-c1``)."""
    import random

    from .truth import Mix, run_stream

    result = run_stream("teblo", "teblo", 17_000_024, plies=24,
                        mix=Mix.random(random.Random(17_000_024)))
    assert result.ok and result.committed == result.truth


def test_none_to_a_question_put_again_after_the_turn_before_was_decided():
    """Yellow's pawn steps from b2 onto its own block on b1 (no sensor sees it land); red
    lifts its pawn off i12 and puts it back, then puts a block on b2. The put-down decides
    yellow's ``b2-b1`` unshown, and red's turn is asked: ``i12-h12`` or ``i12-i11`` (each
    with yellow's block on i12), or ``none``. Answered ``none``, red's ``+b2`` is committed
    and yellow's next block is yellow's (``bench/truth.py --mix random --first 57800020
    --game teblo``: the reading of ``none`` was let go when ``b2-b1`` was decided, and
    red's ``+b2`` was lost, ``+i8`` committed as red's)."""
    state = rules.from_position("teblo", "yellow:b2:24:b1 red:i12:23:h12,i11 yellow")
    tracker = Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))
    events = []
    for cell, value, t in [("b2", False, 1.0), ("i12", False, 2.0), ("i12", True, 2.5),
                           ("b2", True, 3.0)]:
        events += tracker.change(cell, value, t)
    assert [e.options for e in events if isinstance(e, Prompt)] == [
        ["i12-h12", "i12-i11", "none"]]
    events += tracker.choose("none", 3.5)
    events += tracker.change("i8", True, 4.0)
    assert moves(events) == ["b2-b1", "+b2", "+i8"]
    assert [e.player for e in events if isinstance(e, Committed)] == ["yellow", "red", "yellow"]
    assert tracker.prompt is None
