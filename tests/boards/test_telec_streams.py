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
