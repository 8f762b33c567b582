"""Decisions nobody answers: the board follows the next turns and commits what they decide.

A decision no sensor sees and ``none`` cannot answer (a Telec entry's size) stays open when
nobody answers it and the next player goes on: each answer is followed as a reading
(:mod:`boards.undecided`), and later turns that only one answer allows settle it.
"""

import rules
from boards.events import Rolled, Settled
from boards.tracker import Tracker

from .test_telec_declined import committed, feed


def _bump_after_unanswered_entry():
    """Blue rolls a 4 and enters on a1 (any size: nobody says which); red's single 1 on b1
    then steps onto a1 and bumps what is there, which a single does only to a pyramid no
    bigger than itself: blue's was a 1."""
    tr = Tracker(rules.from_position(
        "telec", "b1=r1 blue:112233445566:0 red:12233445566:0 blue turn"))
    asked = tr.change("a1", True, 1.0)
    return tr, asked


def test_an_entry_whose_size_a_later_bump_decides_is_committed_with_that_size():
    tr, asked = _bump_after_unanswered_entry()
    assert tr.prompt.options == ["1", "2", "3", "4", "5", "6"] and committed(asked) == []
    # nobody answers; red lifts its 1 off b1, takes blue's pyramid up and puts its own
    # there, and blue enters on d1 (a 5). Had blue's pyramid been bigger than a 1, red's
    # lifts were a touch of a1 with the 1 still in hand, which blue's entry does not fit.
    events = feed(tr, [("b1", False), ("a1", False), ("a1", True), ("d1", True)], t=2.0)
    assert committed(events) == []
    events += tr.tick(7.0)  # the board still: the sizes a 1 could not bump are let go
    assert committed(events) == ["roll 4 1", "b1-a1"]
    assert [e.answer for e in events if isinstance(e, Settled)] == ["1"]
    assert tr.turns() == ["roll 4 1", "b1-a1"]
    # blue's 1 back in its stash, blue's roll of 5 read from d1
    assert tr.state.position_str() == "a1=r1 blue:112233445566:0 red:12233445566:0 blue 5"
    assert tr.prompt.options == ["1", "2", "3", "4", "5", "6"]  # blue's entry on d1


def test_an_entry_nothing_decides_stays_open_while_the_next_turns_are_followed():
    tr, _ = _bump_after_unanswered_entry()
    # red enters its own 5 on a5: legal after every size of blue's, so nothing is decided
    events = feed(tr, [("a5", True)], t=2.0) + tr.tick(6.0)
    assert committed(events) == [] and tr.prompt.options == ["1", "2", "3", "4", "5", "6"]
    # every size is still followed, each with red's entry read after it
    assert sorted(path[0] for path in tr.readings if len(path) == 1) == list("123456")
    assert tr.error is None and tr.turns() == []


def test_an_answer_given_after_the_next_turn_went_on_counts_from_when_it_was_asked():
    tr, _ = _bump_after_unanswered_entry()
    feed(tr, [("a5", True)], t=2.0)  # red's entry on a5, blue's size still unsaid
    events = tr.choose("3", 8.0)  # then blue answers on the page
    assert committed(events) == ["roll 4 3"] and tr.turns() == ["roll 4 3"]
    # red's entry on a5, read again after it: red's roll of 5, and its size asked
    assert [(e.player, e.value) for e in events if isinstance(e, Rolled)] == [("red", "5")]
    assert tr.prompt.options == ["1", "2", "3", "4", "5", "6"] and tr.player == "red"
    assert tr.state.position_str() == "a1=b3,b1=r1 blue:11223445566:0 red:12233445566:0 red 5"
    assert tr.readings == {}


def test_a_press_made_while_it_was_open_is_read_again_in_each_reading():
    """Blue's size unsaid, red presses its clock with nothing changed (a turn no sensor
    sees: a roll entering onto its own 5 on b1, or a forfeit), then blue steps a1-a2. Each
    reading reads red's press before blue's step: red's unseen turn is asked after it, and
    blue's visible step declines it (the replay contract), so it is the forfeit."""
    tr = Tracker(rules.from_position(
        "telec", "b1=r5 blue:112233445566:0 red:11223344566:0 blue turn"))
    tr.change("a1", True, 1.0)
    assert tr.press("clock", 2.0, "red") == []
    assert feed(tr, [("a1", False), ("a2", True)], t=3.0) == []
    assert sorted(tr.readings) == [(size,) for size in "123456"]
    assert {p: r.turns() for p, r in tr.readings.items()} == {
        (size,): [f"roll 4 {size}", "roll ace none", "a1-a2"] for size in "123456"}


def test_an_unseen_turn_asked_at_the_opponents_piece_is_not_declined_by_a_later_lift():
    """Blue forfeits a roll of 4 (nothing shows it) and red enters a piece on d2, where no
    turn of blue's puts one: blue is asked whether it made an unseen turn. Nobody answers;
    blue's 6 is lifted off d1 next, which also reads as blue's d1-d2 with d2 put down
    first. That lift does not decline the question: each answer is followed, and the
    answer given late, 4, commits the forfeit and asks red's entry's size (seed 200025,
    Telec, answered only at the end)."""
    tr = Tracker(rules.from_position(
        "telec", "a1=b1,c1=r4,d1=b6,a4=b6,a5=r5 blue:122334455:0 red:1122334566:0 blue turn"))
    tr.change("d2", True, 1.0)
    assert tr.prompt.options == ["2", "4", "5", "none"]
    assert committed(feed(tr, [("d1", False)], t=2.0) + tr.tick(5.0)) == []
    assert tr.prompt.options == ["2", "4", "5", "none"]
    assert sorted(path[0] for path in tr.readings) == ["2", "4", "5", "none"]
    events = tr.choose("4", 6.0)
    assert committed(events) == ["roll 4 none"] and tr.turns() == ["roll 4 none"]
    assert tr.player == "red" and tr.prompt.options == ["1", "2", "3", "4", "5", "6"]


def test_an_entry_like_a_touch_nobody_answers_is_not_declined_by_the_movers_next_entry():
    """Blue enters a 6 on d4, bumping red's 2 (the 2 lifted, blue's put down: like a touch,
    so asked with ``none``); the shared clock is pressed twice (blue's turn done, red's
    forfeit) and blue enters on a4. Nobody answered: the entry on a4 may be blue's turn
    after a touch, or the turn after next; it does not decline the question, each answer
    is followed, and the answers given late commit the bump, the forfeit and the entry
    (seed 200023, Telec without the drop sensor, answered only at the end)."""
    tr = Tracker(rules.from_position(
        "telec", "d4=r2,a5=b6 blue:11223344556:0 red:11233445566:0 blue turn"))
    feed(tr, [("d4", False), ("d4", True)])
    assert tr.prompt.options == ["3", "4", "5", "6", "none"]  # the size, roll 3 on d4
    assert tr.press("clock", 3.0) == [] and tr.press("clock", 4.0) == []
    assert committed(tr.change("a4", True, 5.0) + tr.tick(8.0)) == []
    assert tr.prompt.options == ["3", "4", "5", "6", "none"]
    assert sorted(path for path in tr.readings if len(path) == 1) == [
        ("3",), ("4",), ("5",), ("6",), ("none",)]
    assert committed(tr.choose("6", 10.0)) == ["roll 3 6"]
    assert committed(tr.choose("5", 11.0)) == ["roll 5 none"]  # red's forfeit's face
    assert committed(tr.choose("4", 12.0)) == ["roll 2 4"]
    assert tr.turns() == ["roll 3 6", "roll 5 none", "roll 2 4"]


def test_an_unseen_turn_asked_at_a_shared_press_is_followed_once_the_next_player_enters():
    """Red stacks onto its own 6 on d5 (nothing shows it) and the shared clock is pressed:
    red is asked its unseen turn. Nobody answers; blue enters on a4 (a piece no turn of
    red's puts there), then red steps d5-a1, which alone would read as red's turn, no
    unseen one made. The question is followed per answer from blue's entry on, so the
    answers given late, red's roll of 2 and blue's size, commit all three turns (red's
    size, unsaid when blue entered, counts as declined, as the replay contract has it;
    seed 200008, Telec without the drop sensor, answered only at the end)."""
    tr = Tracker(rules.from_position(
        "telec", "d2=b5,d5=r6 blue:11223344566:0 red:11223344556:0 red turn"))
    tr.press("clock", 1.0)
    assert tr.prompt.options == ["2", "4", "none"]
    feed(tr, [("a4", True), ("d5", False), ("a1", True)], t=2.0)
    assert tr.prompt.options == ["2", "4", "none"] and tr.turns() == []
    assert sorted(path for path in tr.readings if len(path) == 1) == [
        ("2",), ("4",), ("none",)]
    assert committed(tr.choose("2", 10.0)) == ["roll 2 none"]
    assert committed(tr.choose("1", 11.0)) == ["roll 2 1", "d5-a1"]
    assert tr.turns() == ["roll 2 none", "roll 2 1", "d5-a1"] and tr.prompt is None


def test_an_entry_like_a_touch_is_followed_when_the_next_turns_only_lift_and_put_back():
    """Blue enters a 5 on d1, bumping red's 1 (like a touch: asked with ``none``), and
    presses its clock. Nobody answers; red steps c1-b1 onto its own 2 (c1 taken up, b1
    as it was) and blue steps d1-c1 (d1 taken up, c1 put down where the board showed a
    piece before). No piece came down where the board showed none, yet the board is no
    longer as it was when the question was put: the next turns went on past it, and each
    answer is followed (before, nothing was: the readings that later turns decide were
    never there)."""
    tr = Tracker(rules.from_position(
        "telec", "d1=r1,c1=r4,b1=r2 blue:112233445566:0 red:123345566:0 blue turn"))
    feed(tr, [("d1", False), ("d1", True)])
    assert tr.prompt.options == ["2", "3", "4", "5", "6", "none"]  # the size, roll 5 on d1
    assert tr.press("clock", 3.0, "blue") == []
    assert committed(feed(tr, [("c1", False), ("d1", False), ("c1", True)], t=4.0)
                     + tr.tick(9.0)) == []
    assert sorted(path for path in tr.readings if len(path) == 1) == [
        ("2",), ("3",), ("4",), ("5",), ("6",), ("none",)]
    assert committed(tr.choose("5", 10.0)) == ["roll 5 5"]


def test_an_entry_like_a_touch_is_followed_once_the_next_player_steps():
    """Red enters a 6 on c1, bumping blue's 5 (like a touch: asked with ``none``), and
    presses its clock; nobody answers, and blue steps b4-a4. That step is no turn of red's,
    and fits blue's turn after red's entry: each answer is followed from then on (before,
    the question waited with nothing followed, and what came since was read only as the
    board stood at the answer)."""
    tr = Tracker(rules.from_position(
        "telec", "c1=b5,b4=b4 blue:1122334566:0 red:112233445566:0 red turn"))
    feed(tr, [("c1", False), ("c1", True)])
    assert tr.prompt.options == ["6", "none"]  # the size, roll null on c1
    assert tr.press("clock", 3.0, "red") == []
    assert committed(feed(tr, [("b4", False), ("a4", True)], t=4.0) + tr.tick(9.0)) == []
    assert sorted(path for path in tr.readings if len(path) == 1) == [("6",), ("none",)]
    assert committed(tr.choose("6", 10.0)) == ["roll null 6", "b4-a4"]


def test_telec_answered_only_at_the_end_commits_every_turn():
    """Seed 200001 of the random mix, nobody answering while it is played, an arbiter
    answering every question once it has ended. Blue's bump-entry on d1 (d1 taken up and
    put back, like a touch), read again after a late answer, then red's c1-b1 onto its own
    piece and blue's d1-c1: no piece came down where the board showed none, so the
    question was neither followed nor declined, and the 15 turns since were swallowed (9
    of 24 committed, no question left, an error on four cells)."""
    import random

    from tests.boards.truth import Mix, run_stream

    mix = Mix.random(random.Random(200001))
    mix.answer, mix.answer_at_end = False, True
    result = run_stream("telec", "telec", 200001, plies=24, mix=mix)
    assert not result.off and not result.illegal
    assert result.committed == result.truth and len(result.truth) == 24
