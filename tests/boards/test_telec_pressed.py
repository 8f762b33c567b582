"""Telec: a clock press that comes after the next player's turn has begun.

Each case is the essence of a truth stream that left the truth (bench/truth.py, random
handling mix).
"""

import rules
from boards.tracker import Tracker

from .test_telec_declined import committed, feed


def test_a_press_after_the_next_players_step_into_the_center_zone_is_an_unseen_turn():
    """Blue stacked its 4-2 from a2 onto its own 6 on a1 (only the lift shows: it waits,
    a2-a3 bumping red's 6 could be under way); red stepped a3 into the Center Zone (no
    drop sensor: only the lift shows); blue entered a 1 on its own stack on a1 (unseen) and
    pressed its clock. The press committed a2-a1 and was spent on it: a3-cz was taken
    for red's next turn and blue's entry was lost (seed 56000851 on telec-nodrop)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=b6,b1=r3,a2=b42,d2=r4,a3=r6,b5=b6 blue:11233455:0 "
                 "red:112234556:0 blue turn"), blind=frozenset({"cz"}))
    assert feed(tr, [("a2", False), ("a3", False), ("b5", False), ("b5", True)]) == []
    assert committed(tr.press("clock", 6.0, "blue")) == ["a2-a1", "a3-cz"]
    assert tr.prompt.options == ["null", "4"]  # the face of blue's unseen entry
    tr.choose("4", 7.0)
    assert committed(tr.choose("1", 8.0)) == ["roll 4 1"]
    assert tr.prompt is None and tr.turns() == ["a2-a1", "a3-cz", "roll 4 1"]
