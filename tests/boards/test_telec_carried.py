"""Telec: what the next player did while the last turn waited belongs to the next turn.

Each case is the essence of a truth stream that left the truth (bench/truth.py, random
handling mix): a step onto an own piece shows only its lift, so it waits, and the next
player's first changes must be read as their turn once the waiting one is committed.
"""

import rules
from boards.tracker import Tracker

from .test_telec_declined import committed, feed


def test_a_bump_entry_after_a_question_answered_none_is_asked_its_size():
    """Blue stacked b5 onto its c5 (only the lift shows) and pressed the shared clock; asked
    whether red had stacked from its stash, red answered ``none``, stepped d5 onto its own
    a1 (only the lift again), and blue bumped red's 2 off d4 with a 4 and pressed. The
    bump, made after the question had closed, was taken for a touch made while it was
    open: blue was asked which face it rolled and ``3`` committed ``roll 3 none``, a
    forfeit (seed 30000592)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r4,c1=r4,d4=r2,b5=b2,c5=b4,d5=r2 blue:113345566:1 red:11335566:0 "
                 "blue turn"))
    tr.change("b5", False, 1.0)
    assert committed(tr.press("clock", 2.0)) == ["b5-c5"]
    assert tr.prompt.options == ["null", "4", "none"]  # red's stack from the stash, unseen
    assert tr.choose("none", 3.0) == [] and tr.prompt is None
    assert committed(feed(tr, [("d5", False), ("d4", False), ("d4", True)], t=4.0)) == []
    assert committed(tr.press("clock", 8.0)) == ["d5-a1"]
    assert tr.prompt.options == ["3", "4", "5", "6", "none"]  # the size bumping red's 2
    assert committed(tr.choose("4", 9.0)) == ["roll 3 4"]
    assert tr.prompt is None and tr.turns() == ["b5-c5", "d5-a1", "roll 3 4"]

