"""Telec: ``none`` to a question about a turn nobody made leaves the turn that was made,
and is offered where a longer turn is still under way.

Each case is the essence of a truth stream that stalled or left the truth (bench/truth.py,
random handling mix): the board asked about an entry or a stack no sensor sees, the player
answered ``none``, and the lift of the piece a step had bumped was forgotten with the
question, so the step was never done again for the board.
"""

import rules
from boards.tracker import Committed, Error, Tracker


def feed(tr, changes, t=1.0):
    out = []
    for k, (cell, on) in enumerate(changes):
        out += tr.change(cell, on, t + k)
    return out


def committed(events):
    return [e.move for e in events if isinstance(e, Committed)]


def test_none_to_an_entry_like_a_touch_keeps_the_step_that_bumped_there():
    """Red stacked b1 onto c1, touched its 2 on a1 (blue's tile for a 4); blue lifted its 5
    from d5 and bumped the 2 off a1 (d5 and a1 are adjacent). Asked whether blue rolled a 4
    and entered on a1, blue answered ``none``: the lift on a1 was forgotten, d5-a1 was never
    done, and the game stopped (seed 18000035; seed 11000033 without the drop sensor)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r2,c1=r6,b1=r2,a5=r1,d5=b5 blue:1223344566:1 red:13344556:0 red turn"))
    events = feed(tr, [("b1", False), ("c1", True), ("a1", False), ("a1", True),
                       ("d5", False), ("a1", False), ("a1", True)])
    assert committed(events) == ["b1-c1"]
    assert tr.prompt.options == ["3", "4", "5", "6", "none"]
    tr.choose("none", 10.0)
    assert committed(feed(tr, [("a5", False), ("a4", True)], t=11.0)) == ["d5-a1", "a5-a4"]
    assert tr.prompt is None and tr.turns() == ["b1-c1", "d5-a1", "a5-a4"]


def test_a_bump_after_a_step_made_after_a_touch_is_read_as_the_next_turn():
    """Blue touched its 3 on a4 and stepped it onto its own 6 on b4 (only the lift shows);
    red lifted blue's 2 on d4 and put its 6 from d5 there. Asked which step blue made: read
    from blue's first lift, the 3 put back looked like a blue piece put down in red's turn,
    red was asked whether it had stacked from its stash, and ``none`` forgot the bump (seed
    16000081). Read from the second lift, red's bump is all that came since."""
    tr = Tracker(rules.from_position(
        "telec", "c1=r32,a2=r4,a4=b3,b4=b6,d4=b2,a5=b64,d5=r6 blue:1123455:0 "
                 "red:11234556:0 blue turn"))
    feed(tr, [("a4", False), ("a4", True), ("a4", False), ("d4", False), ("d5", False),
              ("d4", True)])
    assert tr.prompt.options == ["a4-a5", "a4-b4"]
    assert committed(tr.choose("a4-b4", 10.0)) == ["a4-b4", "d5-d4"]
    assert tr.prompt is None and tr.turns() == ["a4-b4", "d5-d4"]


def test_none_to_an_entry_keeps_a_stack_moved_onto_the_piece_it_bumps():
    """Red's a3-cz waited (no drop sensor); red touched its 5 on a1; blue lifted its stack
    off a2 and bumped the 5 with it. ``none`` to blue's entry on a1 forgot the bump; red's
    entry on the emptied a2 was then asked as blue's, without ``none`` (seed 11000033)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r5,d1=r4,a2=b64,a3=r6,a5=b4,d5=b1 blue:12233556:0 red:112233456:0 "
                 "red turn"), blind=frozenset({"cz"}))
    feed(tr, [("a3", False), ("a1", False), ("a1", True), ("a2", False), ("a1", False),
              ("a1", True)])
    assert tr.prompt.options == ["6", "none"]
    tr.choose("none", 10.0)
    tr.change("a2", True, 11.0)
    assert "a2-a1" in tr.prompt.options
    assert committed(tr.choose("a2-a1", 12.0)) == ["a2-a1"]
    # red's entry on its 3, or none: a pyramid of blue's stack put back, not yet carried
    assert tr.prompt.options == ["1", "2", "3", "4", "5", "6", "none"]
    assert tr.turns() == ["a3-cz", "a2-a1"]


def test_a_bump_under_way_is_none_of_the_steps_onto_own_pieces_asked():
    """Blue lifted its 4 from a5 (a step onto its own a4 or b5 shows only that lift), lifted
    red's 2 on d1 to bump it, and touched its own 5 on a4 meanwhile. The board asked a5-a4
    or a5-b5, as if red's step off d1 had begun, with no way to say "neither": blue,
    still holding the 4, could not answer (seed 40200046). Now the touch of a4 asks nothing:
    a step onto a4 shows nothing there, so its 5 put back is no part of it."""
    tr = Tracker(rules.from_position(
        "telec", "c1=r6,d1=r2,a2=r62,d2=r4,a4=b5,d4=b2,a5=b4,b5=b65 blue:1123346:0 "
                 "red:1133455:0 blue turn"))
    feed(tr, [("a5", False), ("d1", False), ("a4", False), ("a4", True)])
    assert tr.prompt is None
    tr.change("d1", True, 11.0)
    assert "a5-d1" in tr.prompt.options
    assert committed(tr.choose("a5-d1", 12.0)) == ["a5-d1"]
    assert tr.turns() == ["a5-d1"]


def test_none_to_a_forfeit_asked_again_for_garbage_answers_both():
    """One shared button. Red stepped b2-b1 and pressed; asked whether blue had forfeited
    on a 4 (unseen), red answered ``none``. Red then lifted its 6 off b1 and put it on
    c1 (garbage), lifted it and put it down there again: the same question came back,
    and the reading of ``none`` asked it once more for the second lift. ``none`` to the
    question shown took that reading, yet its own question went to ``4``: blue's forfeit
    and red's b1-c1 were committed (seed 99100236). One answer to one question seen."""
    tr = Tracker(rules.from_position(
        "telec", "a1=r1,b2=r6,b4=b51 blue:1223344566:0 red:1223344556:0 red turn"))
    clock = Clocked(tr)
    assert committed(clock.change("b2", False, 1.4) + clock.change("b1", True, 1.9)) == ["b2-b1"]
    assert tr.press("clock", 3.1) and tr.prompt.options == ["4", "none"]
    assert tr.choose("none", 3.9) == []
    for cell, on, t in [("b1", False, 5.0), ("c1", True, 6.2), ("c1", False, 9.6),
                        ("c1", True, 11.0)]:
        clock.change(cell, on, t)
    assert tr.prompt.options == ["4", "none"]
    assert committed(tr.choose("none", 11.0, tr.prompt.key)) == []
    assert [e.cells for e in clock.until(12.0) if isinstance(e, Error)] == [
        {"b1": "red-6", "c1": "empty"}]
    clock.change("c1", False, 14.9)
    clock.change("b1", True, 16.4)
    assert tr.turns() == ["b2-b1"]


class Clocked:
    """The tracker with its timers run up to each change, as the board's loop does."""

    def __init__(self, tr):
        self.tr, self.now = tr, 0.0

    def until(self, t):
        out = []
        while (due := self.tr.next_timer()) is not None and due <= t:
            out += self.tr.tick(max(due, self.now))
        self.now = max(self.now, t)
        return out

    def change(self, cell, on, t):
        return self.until(t) + self.tr.change(cell, on, t)
