"""Telec truth streams on the board without the Center Zone's drop sensor that once left
the truth (bench/truth.py, random handling mix), each kept as the essence of its fault."""

import random

import rules
from boards.tracker import Tracker

from .test_telec_declined import committed, feed
from .truth import Mix, run_stream


def test_of_two_waiting_turns_the_one_the_next_turns_explain_is_committed():
    """Red's 3 on a2 stepped onto red's 6 on a1 (only a2's lift seen); blue touched its 2 on
    a3 (as red's a2-a3 bumping it would show), then stepped it into the Center Zone (only
    a3's lift seen), and red's stack stepped from a1 to a2. Two of red's turns were
    waiting, a2-a1 and a2-a3; only a2-a1 with blue's a3-cz and red's a1-a2 read in order
    explains the board, yet nothing was committed, and red's press later committed a2-a3,
    which the board no longer showed (seed 94000173)."""
    mix = Mix.random(random.Random(94000173))
    result = run_stream("telec", "telec-nodrop", 94000173, plies=24, mix=mix)
    assert result.truth[15:18] == ["a2-a1", "a3-cz", "a1-a2"]
    assert not result.off and not result.stalled and not result.illegal
    assert result.committed == result.truth


def test_a_step_into_the_zone_and_a_stack_step_after_two_waiting_turns_commit_the_first():
    """The essence of seed 94000173: red's 3 lifted from a2 (onto red's 6 on a1, or to bump
    blue's 2 on a3), blue's 2 on a3 touched, then lifted again (into the Center Zone, no
    sensor there), red's stack lifted from a1 and put on a2: a2-a1, a3-cz and a1-a2."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r6,a2=r3,d2=r5,a3=b2 blue:11233445566:0 red:112234456:0 red turn"),
        blind=frozenset({"cz"}))
    events = feed(tr, [("a2", False), ("a3", False), ("a3", True), ("a3", False),
                       ("a1", False), ("a2", True)])
    assert committed(events) == ["a2-a1", "a3-cz", "a1-a2"]


def test_a_stack_step_answered_while_its_last_pyramid_is_put_back_asks_the_entry_with_none():
    """Red's stack of 5 and 2 on d1 stepped onto red's 6 on c1 (an arrival no sensor sees):
    the 2 lifted, then, a question open, the 5 lifted and put back. Asked whether that was
    d1-c1 done and blue's entry on d1 (blue's 5 names d1), or a touch, red answered d1-c1,
    the turn under way. The piece on d1 was then read as blue's entry and its size asked
    with no ``none``, though blue had not begun (seed 93000209)."""
    mix = Mix.random(random.Random(93000209))
    result = run_stream("telec", "telec-nodrop", 93000209, plies=24, mix=mix)
    assert "d1-c1" in result.truth
    assert not result.off and not result.stalled and not result.illegal
    assert result.committed == result.truth


def test_the_entry_on_a_tile_a_stack_answered_as_stepped_off_may_be_its_pyramid_put_back():
    """The essence of seed 93000209: red's 5 and 2 on d1 may step onto red's 6 on c1; d1
    lifted and put back is that step and blue's entry on d1, or a touch. Answered d1-c1,
    the piece on d1 may still be red's: blue's size is asked with ``none``, which leaves
    the board to be put right as d1-c1 leaves it."""
    tr = Tracker(rules.from_position(
        "telec", "c1=r6,d1=r52,d3=b32,d4=r4,a5=r2,c5=b4,d5=b3 blue:11245566:0 "
                 "red:1133456:0 red turn"), blind=frozenset({"cz"}))
    assert feed(tr, [("d1", False), ("d1", True)])[-1].options == ["d1-c1", "none"]
    events = tr.choose("d1-c1", 3.0)
    assert committed(events) == ["d1-c1"]
    assert tr.prompt.options == ["1", "2", "4", "5", "6", "none"]
    assert tr.choose("none", 4.0) == [] and tr.prompt is None
    assert tr.tick(5.5)[-1].cells == {"d1": "empty"}
    assert committed(feed(tr, [("d1", False), ("c5", False), ("c4", True)], t=6.0)) \
        == ["c5-c4"]


def test_a_touch_while_that_entry_is_asked_with_none_leaves_the_question_open():
    """Red's 1 on d1 stepped onto red's 6 on a5 and blue entered a 6 on d1, answered so;
    blue's size, asked with ``none``, is not declined by blue's 2 on c1 touched meanwhile
    (c1 empty and d1 taken is no step of blue's from c1 when d1 was asked about: a first
    form of the mend for seed 93000209 read it so and lost d1's pyramid, seed 94000138)."""
    tr = Tracker(rules.from_position(
        "telec", "c1=b2,d1=r1,a5=r6,d5=b3 blue:1123445566:0 red:223344556:1 red turn"),
        blind=frozenset({"cz"}))
    assert feed(tr, [("d1", False), ("d1", True)])[-1].options == ["d1-a5", "none"]
    assert committed(tr.choose("d1-a5", 3.0)) == ["d1-a5"]
    assert feed(tr, [("c1", False), ("c1", True)], t=4.0) == []
    assert tr.prompt.options == ["1", "2", "3", "4", "5", "6", "none"]
    assert committed(tr.choose("6", 6.0)) == ["roll 5 6"]
