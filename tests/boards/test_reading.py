"""Readings as plain values (``boards/reading.py``), on hand-built Teblo positions read
by reed switches (a pawn on its own block shows nothing more than the block)."""

import rules
from boards.constants import presence
from boards.reading import Answer, Change, Plays, Press, Reading, Readings, advance


def plays(position: str) -> Plays:
    return Plays(rules.from_position("teblo", position), presence)


# Red's pawn on i9 beside its own block on i8 (and, for silent steps, on j9).
RED_I9 = "yellow:a1:25: red:i9:24:i8 red"


def read(position: str, *events) -> Readings:
    return Readings().read(plays(position), events)


def texts(p: Plays, readings: Readings) -> set[tuple[str, ...]]:
    return {tuple(p.text(r.turns, k) for k in range(len(r.turns))) for r in readings.readings}


def test_a_reading_is_a_small_hashable_value():
    a = Reading(("x",), frozenset({("h9", True)}), frozenset(), ("touch",))
    assert a == Reading(("x",), frozenset({("h9", True)}), frozenset(), ("touch",))
    assert len({a, Reading()}) == 2
    assert a.cost == 1 and Reading().cost == 0


def test_a_step_whose_signature_another_turn_shares_is_not_decided():
    """i9 emptied, a piece on h9: red's i9-h9, or i9-i8 onto its own block and yellow's
    block on h9. Both cost nothing: nothing decides which."""
    p = plays(RED_I9)
    readings = Readings().read(p, [Change("i9", False), Change("h9", True)])
    free = [r for r in readings.readings if r.cost == 0]
    assert {tuple(p.text(r.turns, k) for k in range(len(r.turns))) for r in free} >= {
        ("i9-h9",), ("i9-i8", "+h9")}
    assert readings.decided() is None


def test_a_block_never_leaves_its_square():
    """After the h9 piece, yellow's block on c3, then the piece on h9 lifted and put on g9:
    only red's pawn does that without a touch, so i9-h9 was the turn."""
    p = plays(RED_I9)
    readings = Readings().read(p, [Change("i9", False), Change("h9", True),
                                   Change("c3", True), Change("h9", False),
                                   Change("g9", True)])
    assert p.text((readings.decided(),)) == "i9-h9"
    dearer = [r for r in readings.readings if p.text(r.turns) == "i9-i8"]
    assert dearer and all(r.cost > 0 for r in dearer)


def test_a_touch_costs_one_and_putting_it_back_nothing():
    p = plays(RED_I9)
    lifted = advance(p, Reading(), Change("a1", False))
    touched = [r for r in lifted if r.astray == {"a1"}]
    assert [r.unusual for r in touched] == [("touch",)]
    back = advance(p, touched[0], Change("a1", True))
    assert back == [Reading(unusual=("touch",))]


def test_a_piece_put_where_no_turn_puts_it_is_a_stray():
    p = plays(RED_I9)
    out = advance(p, Reading(), Change("a5", True))
    strays = [r for r in out if "stray" in r.unusual]
    assert strays == [Reading(astray=frozenset({"a5"}), unusual=("stray",))]
    assert any(r.cost == 0 and p.text(r.turns) == "+a5" for r in out)


def test_a_silent_turn_ended_by_the_movers_press_costs_nothing():
    """Red's pawn on its block on i8 between two own blocks (i7, j8): a step onto either
    shows nothing, only red's press says one was made, and nothing tells which."""
    p = plays("yellow:a1:25: red:i8:22:i8,i7,j8 red")
    pressed = Readings().read(p, [Press("red")])
    firsts = {p.text((r.turns[0],)) for r in pressed.readings if r.cost == 0 and r.turns}
    assert {"i8-i7", "i8-j8"} <= firsts
    assert pressed.decided() is None
    unpressed = advance(p, Reading(), Change("c3", True))
    silent = [r for r in unpressed if len(r.turns) == 2]
    assert silent and all(r.unusual == ("silent turn",) for r in silent)


def test_the_cheapest_first_turn_is_decided_only_where_every_other_costs_more():
    """A block on k5 no pawn reaches: red's +k5, or a stray (dearer), decides +k5. i9
    emptied and a piece on h9 decides nothing (i9-h9, or i9-i8 and yellow's +h9, both
    free), and neither does yellow's block on c3 after it."""
    p = plays(RED_I9)
    readings = Readings().read(p, [Change("k5", True)])
    assert p.text((readings.decided(),)) == "+k5"
    readings = readings.after(p, Change("c3", True))
    assert p.text((readings.decided(),)) == "+k5"
    assert ("+k5", "+c3") in texts(p, readings)
    tied = Readings().read(p, [Change("i9", False), Change("h9", True), Change("c3", True)])
    assert tied.decided() is None


def test_a_reading_let_go_keeps_a_later_decision_from_being_strict():
    """Readings dearer than the cheapest by more than MARGIN are let go; once the cheapest
    costs as much as one let go, nothing is decided."""
    p = plays(RED_I9)
    readings = Readings().read(p, [Change("i9", False), Change("h9", True)])
    assert readings.dropped == 2
    touched = Readings(readings.readings[:1], dropped=0)
    assert touched.decided() is None


def test_the_next_players_press_confirms_and_a_press_for_nothing_costs_one():
    p = plays(RED_I9)
    readings = Readings().read(p, [Change("k5", True), Press("red")])
    confirmed = [r for r in readings.readings if r.pressed and r.cost == 0]
    assert [p.text(r.turns) for r in confirmed] == ["+k5"]
    assert all(r.cost >= 1 for r in readings.readings if not r.turns)


def test_the_readings_kept_are_bounded_and_cheapest_first():
    p = plays(RED_I9)
    readings = Readings().read(p, [Change(c, True) for c in ("c3", "d4", "e5", "f6")])
    costs = [r.cost for r in readings.readings]
    assert len(costs) <= 64 and costs == sorted(costs)
    assert costs[-1] <= costs[0] + 2


def test_the_next_players_press_before_the_question_still_counts():
    """Red's i9 emptied and a piece on h9 (i9-h9, or i9-i8 and yellow's +h9), yellow's
    press, red's block on c9. Once i9-h9 is known, yellow's press says yellow made its one
    silent step (e5-e6, onto its own block): red's +c9 is not yellow's block (17000024:
    yellow's silent b1-c1, pressed, lost and red's +k10 committed as yellow's)."""
    p = plays("yellow:e5:23:e5,e6 red:i9:24:i8 red")
    readings = Readings().read(p, [Change("i9", False), Change("h9", True),
                                   Press("yellow"), Change("c9", True)])
    assert readings.decided() is None  # (i9-i8 and yellow's +h9 fit as well)
    after, rest = readings.since(p, (p.at(()).state.parse_move("i9-h9"),))
    assert rest.text((after.decided(),)) == "e5-e6"
    assert ("e5-e6", "+c9") in texts(rest, after)


def test_an_answer_drops_the_readings_it_contradicts():
    """Red's press with two silent steps possible, answered ``none``: no reading keeps
    either step at that press."""
    p = plays("yellow:a1:25: red:i8:22:i8,i7,j8 red")
    pressed = Readings().read(p, [Press("red")])
    assert {"i8-i7", "i8-j8"} <= {p.text(r.turns) for r in pressed.readings if r.turns}
    answered = pressed.after(p, Answer(("i8-i7", "i8-j8", "none"), "none"))
    assert answered.readings and not any(r.turns for r in answered.readings)
