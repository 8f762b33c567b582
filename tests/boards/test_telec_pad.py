"""Telec: the Center Zone's drop pad showing a piece counts for a step into it only after
the stepping piece left its tile.

The essence of a truth stream that left the truth (bench/truth.py, random handling mix,
60 plies): a piece put on the pad and taken back before the step began is no stage of it.
"""

import rules
from boards.tracker import Tracker

from .test_telec_declined import committed, feed


def test_a_piece_put_on_the_pad_and_back_before_the_step_is_no_step_into_the_zone():
    """Red put its 2 from a2 on the pad and back (a piece out of place, put right), then
    stacked its 1 from a3 onto that 2 (only the lift shows); blue bumped red's 3 off d5
    with its stack from c5. The pad's piece, shown before a3 was lifted, was read as
    a3's step into the Center Zone: ``a3-cz`` was committed where ``a3-a2`` was played
    (seed 51100048, ply 20). Both look the same by the end; now red is asked."""
    tr = Tracker(rules.from_position(
        "telec", "b1=r5,a2=r2,d2=r6,a3=r1,d4=b1,b5=b32,c5=b21,d5=r3 blue:3445566:0 "
                 "red:1234456:0 red turn"))
    events = feed(tr, [("a2", False), ("cz", True), ("cz", False), ("a2", True),
                       ("a3", False), ("d5", False), ("c5", False), ("d5", True)])
    assert committed(events) == []
    assert tr.prompt.options == ["a3-a2", "a3-cz"]
    assert committed(tr.choose("a3-a2", 20.0)) == ["a3-a2", "c5-d5"]
    assert tr.turns() == ["a3-a2", "c5-d5"]
