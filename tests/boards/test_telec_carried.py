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


def test_none_to_an_entry_like_the_movers_touch_keeps_the_step_into_the_center_zone():
    """Blue lifted its 3 from a1 to stack it on its own d5 (only the lift shows) and,
    still holding it, touched its own 3 on d2 (red's tile for a 2). Red stepped d3 into
    the Center Zone (no drop sensor: only the lift shows), and blue stepped d2-d3. Asked
    whether red had entered on d2 bumping blue's 3, red answered ``none``: the touch was
    forgotten with everything after it, red's d3-cz was lost and red's next turn was
    committed in its place (seed 40300007 on telec-nodrop)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=b3,d2=b3,d3=r4,a5=r43,c5=b4,d5=b5 blue:11224566:0 red:112235566:0 "
                 "blue turn"), blind=frozenset({"cz"}))
    events = feed(tr, [("a1", False), ("d2", False), ("d2", True), ("d3", False),
                       ("d2", False), ("d3", True)])
    assert committed(events) == ["a1-d5"]
    assert tr.prompt.options == ["5", "6", "none"]  # red's entry bumping d2: a touch too
    assert committed(tr.choose("none", 9.0)) == ["d3-cz", "d2-d3"]
    assert tr.prompt is None and tr.turns() == ["a1-d5", "d3-cz", "d2-d3"]


def test_none_to_an_entry_like_the_movers_touch_keeps_the_turns_made_since():
    """Blue lifted its 2 from b5 (onto its own a5 or c5: only the lift shows) and, still
    holding it, touched its own 5 on a5 (red's tile for a 5); red stacked b1 onto its own
    a1 (only the lift), and blue lifted its stack off c5. Asked which step blue had made,
    then whether red had entered on a5 bumping blue's 5, red answered ``none``: red's
    b1-a1 was forgotten with the touch, and the board showed errors to the end (seed
    50000071)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r3,b1=r2,a5=b5,b5=b2,c5=b6 blue:112334456:0 red:1123445566:0 blue turn"))
    feed(tr, [("b5", False), ("a5", False), ("a5", True), ("b1", False), ("c5", False)])
    assert tr.prompt.options == ["b5-a5", "b5-c5"]
    assert committed(tr.choose("b5-c5", 9.0)) == ["b5-c5"]
    assert tr.prompt.options == ["6", "none"]  # red's entry bumping a5: a touch too
    assert tr.choose("none", 10.0) == [] and tr.prompt is None and tr.error is None
    assert committed(tr.change("c4", True, 11.0)) == ["b1-a1", "c5-c4"]
    assert tr.prompt is None and tr.turns() == ["b5-c5", "b1-a1", "c5-c4"]


def test_a_step_onto_an_own_piece_made_after_a_touch_is_read_from_the_second_lift():
    """Blue touched its 2 on b5, then stacked it onto its own 4 on c5 (only the lifts
    show); red stacked d1 onto its own 5 on c1 (only the lift) and blue entered a 5 on
    d1. Answered that blue's step was b5-c5, the board read red's turn from blue's first
    lift: the 2 put back looked like a blue piece put down in red's turn, red was asked
    for the face of a forfeit, and red's d1-c1 was lost (seed 83000159 on
    telec-nodrop)."""
    tr = Tracker(rules.from_position(
        "telec", "b1=b1,c1=r5,d1=r2,a2=r1,a4=b3,c4=b31,b5=b2,c5=b4,d5=b642 blue:556:0 "
                 "red:13344566:1 blue turn"), blind=frozenset({"cz"}))
    feed(tr, [("b5", False), ("b5", True), ("b5", False), ("d1", False), ("d1", True)])
    assert tr.prompt.options == ["b5-c5", "none"]
    assert committed(tr.choose("b5-c5", 9.0)) == ["b5-c5"]
    assert tr.prompt.options == ["d1-c1", "none"]  # red's step, then blue's entry on d1
    assert committed(tr.choose("d1-c1", 10.0)) == ["d1-c1"]
    # the size blue entered with, or none: red's 2 put back on d1, not yet carried over
    assert tr.prompt.options == ["5", "6", "none"]
    assert committed(tr.choose("5", 11.0)) == ["roll 5 5"]


def test_the_input_ending_after_a_waiting_step_and_the_next_players_lift_commits_both():
    """Blue stacked its 3-1 from d5 onto its own 5 on c5 (only the lift shows: it waits,
    a bump of red's stack on a1, linked to d5, could be under way); red lifted its 2-1
    off a1 onto its own 3 on a2 (only the lift again), and the input ended. Nothing was
    committed: the bump still seemed under way (seed 57200091 on telec-nodrop)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r21,c1=r4,a2=r3,c2=r2,d2=r3,c5=b5,d5=b31 blue:122344566:0 "
                 "red:145566:0 blue turn"), blind=frozenset({"cz"}))
    assert feed(tr, [("c1", False), ("c1", True), ("d5", False), ("a1", False)]) == []
    assert committed(tr.flush(9.0)) == ["d5-c5", "a1-a2"]
    assert tr.prompt is None and tr.turns() == ["d5-c5", "a1-a2"]


def test_the_next_players_changes_are_read_in_order_after_a_waiting_turn_is_answered():
    """Without a drop sensor: blue moved its 2-1 from a1 onto red's 5-4 on a2 and touched
    d5; red stacked its 4 from b1 onto its own 5 on c1 (only the lift shows) and blue,
    having rolled, entered a 1 on a1. Asked which turn blue made (a1-a2, a1-d5), the
    answer a1-a2 left red's lift and blue's entry read as one turn, red's b1-a1, committed
    unasked (seed 97000085, ply 22, on telec-nodrop): read in order, b1-c1 waits at the lift
    and the entry on a1 may be the next turn's, which the sensors cannot tell from b1-a1."""
    tr = Tracker(rules.from_position(
        "telec", "a1=b21,b1=r4,c1=r5,a2=r54,b4=b3,c5=b2,d5=r3 blue:13445566:0 "
                 "red:1122366:0 blue turn"), blind=frozenset({"cz"}))
    assert feed(tr, [("a1", False), ("a2", False), ("a2", True), ("d5", False), ("d5", True),
                     ("b1", False), ("a1", True)])[-1].options == ["a1-a2", "a1-d5", "none"]
    events = tr.choose("a1-a2", 9.0)
    assert committed(events) == ["a1-a2"]
    assert tr.prompt.options == ["b1-a1", "b1-c1"]
    assert committed(tr.choose("b1-c1", 10.0)) == ["b1-c1"]
    assert tr.turns() == ["a1-a2", "b1-c1"]


def test_a_step_named_after_the_turns_since_reads_them_again():
    """Red stacked its d1 onto its own d2 (only the lift shows), blue stepped its 1 from a5
    onto its own 6 on a4 (only the lift again), and red entered on the freed a5. Asked
    whether red bumped a5 from d1 (d1 and a5 are adjacent) or stacked onto d2, red named
    d1-d2: what a5 showed since was carried to blue as one touch, blue's step was lost
    and the game stopped (seed 99200277 of 300 x 60). Read again after d1-d2, the lift
    and the piece put on a5 are blue's step and red's entry, or a touch: asked."""
    tr = Tracker(rules.from_position(
        "telec", "a1=b6,b1=r643,c1=r3,d1=r41,d2=r5,a4=b6,c4=b51,d4=b3,a5=b1,c5=b5,d5=r21 "
                 "blue:22344:0 red:256:0 red turn"))
    feed(tr, [("d1", False), ("a5", False), ("a5", True)])
    assert tr.prompt.options == ["d1-a5", "d1-d2"]
    assert committed(tr.choose("d1-d2", 10.0)) == ["d1-d2"]
    assert tr.prompt.options == ["a5-a4", "none"]
    assert committed(tr.choose("a5-a4", 11.0)) == ["a5-a4"]
    assert tr.prompt.options == ["2", "5", "6", "none"]  # red's entry on a5: its size


def test_a_bump_entry_after_a_turn_carried_to_the_press_is_asked_its_size():
    """Red stepped a3 into the Center Zone (no drop sensor: it waits), blue stepped a4 onto
    its own 4 on a5 (only the lift), red bumped blue's 3 off d2 with a 4 and pressed. Both
    waiting steps were committed at the press, but the bump, read at once with blue's step,
    counted as blue touching its own 3: red's turn was asked only its face, and ``roll 2
    none`` recorded (seed 99100316 of telec-nodrop). Blue's step is done by the lift on
    a4, so the lift and place on d2 after it are red's: a bump entry, asked its size."""
    tr = Tracker(rules.from_position(
        "telec", "d2=b3,a3=r2,a4=b2,c4=b5,a5=b4 blue:11234566:0 red:1123344556:1 red turn"),
        blind=frozenset({"cz"}))
    feed(tr, [("a3", False), ("a4", False), ("d2", False), ("d2", True)])
    assert committed(tr.press("clock", 6.0, "red")) == ["a3-cz", "a4-a5"]
    assert tr.prompt.options == ["4", "5", "6", "none"]
    assert committed(tr.choose("4", 7.0)) == ["roll 2 4"]
