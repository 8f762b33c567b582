"""Telec: a piece touched while the mover holds theirs is no part of a turn that waits.

Each case is the essence of a truth stream that left the truth (bench/truth.py, random
handling mix).
"""

import rules
from boards.tracker import Tracker

from .test_telec_declined import committed, feed


def test_a_touch_of_an_own_piece_midway_through_a_bump_does_not_end_it_as_a_stack():
    """Red lifted its 1 from a2 (a stack onto its own 6 on b2 shows only that lift), then
    blue's 1 from a3 to bump it, touched its 6 on b2 with both in hand, and put its 1 on
    a3. Putting the 6 back ended the turn as a2-b2 (a3 taken for blue's next turn begun),
    and red's a2-a3 was lost (seed 56000004 on telec-nodrop)."""
    tr = Tracker(rules.from_position(
        "telec", "c1=b6,a2=r1,b2=r6,d2=r1,a3=b1,d4=r6,d5=b31 blue:2244556:1 "
                 "red:22334455:0 red turn"), blind=frozenset({"cz"}))
    assert feed(tr, [("a2", False), ("a3", False), ("b2", False), ("b2", True),
                     ("a3", True)]) == []
    # blue's 1 put back on a3 (a2-b2 and a touch) or red's 1 put there: the same to see
    assert tr.press("clock", 7.0)[-1].options == ["a2-a3", "a2-b2"]
    assert committed(tr.choose("a2-a3", 8.0)) == ["a2-a3"]
    assert tr.turns() == ["a2-a3"]

