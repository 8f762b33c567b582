"""Teblo on reed switches with nobody answering: the readings fill, and room is made by
letting go those that took the most answers for granted, never the last of an answer."""

import pytest

import rules
from boards.events import Committed
from boards.tracker import Tracker
from boards.undecided import crowded

# A game of 20 turns as the reed switches report it (``True``: a piece put down, ``False``:
# taken up; one shared clock press), nobody answering a question (seed 65000004 of the
# truth bench's unanswered random mix). Red's k11-k10 at 3.64-3.76 looks like red's
# k11-j11 (a pawn onto its own block, which the switches do not see) and yellow's +k10;
# the readings of that question fill with red's and yellow's silent steps, again and again.
GAME = [
    ("a2", True, 0.603), ("l12", False, 0.781), ("k12", True, 0.867), ("k5", True, 1.116),
    ("j12", True, 1.341), ("a10", True, 1.463), ("k12", False, 1.683), ("k11", True, 1.961),
    ("k12", True, 2.034), ("j11", True, 2.325), ("j12", False, 2.613), ("j12", True, 2.708),
    ("a1", False, 2.961), ("k11", False, 3.217), ("k11", True, 3.315), ("k11", False, 3.636),
    ("k10", True, 3.76), ("j12", False, 3.84), ("j12", True, 4.113), ("k11", True, 4.402),
    ("l10", True, 4.566), ("a10", False, 4.792), ("a10", True, 5.032), ("a3", True, 5.297),
    ("l10", False, 5.376), ("l10", True, 5.631), ("c6", True, 5.922), ("a10", False, 6.044),
    ("a10", True, 6.266), ("k5", False, 6.406), ("k5", True, 6.634), ("clock", None, 7.363),
    ("k10", False, 7.525), ("a2", False, 8.079), ("a2", True, 8.314), ("k10", True, 8.571),
    ("l11", True, 9.115), ("a4", True, 9.569), ("l11", False, 9.658), ("l12", True, 9.867),
    ("k10", False, 10.0), ("k10", True, 10.219),
]
PLAYED = ["+a2", "l12-k12", "+k5", "+j12", "+a10", "k12-k11", "+k12", "+j11", "a1-a2",
          "k11-k10", "+k11", "+l10", "+a3", "+c6", "a2-a3", "k10-l10", "+k10", "l10-l11",
          "a3-a4", "l11-l12"]


def test_a_reading_left_no_room_does_not_let_a_wrong_one_settle_the_question():
    tracker = Tracker(rules.new_game("teblo"))
    events = []
    for cell, value, t in GAME:
        if cell == "clock":
            events += tracker.press("clock", t, value)
        else:
            events += tracker.change(cell, value, t)
    events += tracker.flush(12.0)
    committed = [e.move for e in events if isinstance(e, Committed)]
    # what is committed was played, in order (not red's k11-j11 and yellow's +k10)
    assert committed == PLAYED[:len(committed)]
    assert len(committed) >= 9 and tracker.turns() == committed
    assert tracker.prompt is not None or committed[9:10] == ["k11-k10"]


def test_room_is_made_from_the_readings_with_the_most_answers_taken_for_granted():
    paths = [("a",), ("b",), ("b", "x"), ("b", "y"), ("b", "z"), ("b", "y", "p"),
             ("b", "y", "q"), ("b", "y", "q", "r"), ("b", "y", "q", "s"), ("c",)]
    below_y = {("b", "y"), ("b", "y", "p"), ("b", "y", "q"), ("b", "y", "q", "r"),
               ("b", "y", "q", "s")}
    # room for one more (``a`` forks in two): the deepest, ``b y q r``, goes with what its
    # questions would otherwise keep one answer of (``b y q``, ``b y``), up to ``b``,
    # which keeps two answers, x and z
    assert crowded(paths, 1, ("a",)) == below_y
    assert crowded(paths, 3, ("a",)) == below_y
    # no more than that: never the last answers of a question, nor a reading that took
    # as few answers for granted as the new ones, nor the reading that forks
    assert crowded(paths, 4, ("a",)) == set()
    assert crowded(paths, 1, ("b", "x")) == set()
    assert crowded(paths, 1, ("b", "y", "q", "r")) == set()
    assert crowded([("a",), ("b",), ("b", "x"), ("b", "y")], 1, ("a",)) == set()


def test_silent_steps_nobody_pressed_are_not_followed_beside_a_reading_without_them():
    """Clean handling, nobody answering (seed 0, 30 plies): red's pawn walks between its
    own blocks on j11 and i11 and i12, and each question about a step it made is also a
    silent step nobody pressed for, then the opponent's turn. Readings that take two more
    such steps for granted than the cheapest that fits are not followed, so the 64 fill no
    more with chains of them (before: 15 of the 30 turns committed, the true reading
    left no room), and every turn is committed as played once the input ends."""
    from tests.boards.truth import Mix, run_stream

    clean = Mix(touch=0, touch_last=0, touch_mid=0, touch_after=0, touch_enemy=0, press=0,
                late=0, garbage=0, answer=False)
    result = run_stream("teblo", "teblo", 0, plies=30, mix=clean)
    assert result.committed == result.truth and len(result.truth) == 30


def test_a_reading_pays_for_a_silent_turn_only_where_no_press_ended_it():
    from types import SimpleNamespace

    from boards.readings import _price

    step = SimpleNamespace(text="j11-i11", silent=True)   # between two own blocks
    block = SimpleNamespace(text="+i12", silent=False)

    def asked(at_press=False, pressed=()):
        # red to move since yellow's turn ended at 10.0; presses: (batch, time, player)
        return SimpleNamespace(pending=[step, block], asked_at_press=at_press, player="red",
                               last_commit=(None, 10.0), pressed=pressed)

    options = ("j11-i11", "+i12", "none")
    assert [_price(asked(), o) for o in options] == [1, 0, 0]
    assert [_price(asked(at_press=True), o) for o in options] == [0, 0, 0]
    # red's side pressed (or a shared button) after yellow's turn ended, before the put-down
    # that raised the question: that press may have ended the step
    assert [_price(asked(pressed=((7, 11.5, "red"),)), o) for o in options] == [0, 0, 0]
    assert [_price(asked(pressed=((7, 11.5, None),)), o) for o in options] == [0, 0, 0]
    # yellow's side, or a press before yellow's turn ended, ends no turn of red's
    assert [_price(asked(pressed=((7, 11.5, "yellow"),)), o) for o in options] == [1, 0, 0]
    assert [_price(asked(pressed=((5, 9.0, "red"),)), o) for o in options] == [1, 0, 0]


@pytest.mark.parametrize("seed", [65000015, 66000025, 66000001])
def test_questions_answered_only_once_the_game_ended_commit_every_turn_played(seed):
    """Nobody answers while the game is played (the random mix, 24 plies); an arbiter
    answers every question once it has ended. In 65000015 the first question's readings
    filled after three turns and let every reading of the true answer go for room.
    Before, the answer went to the tracker alone, which took the 19 turns since for
    pieces no turn puts there: an error on 12 cells, 5 of the 24 turns committed. Now the
    readings of ``none`` that made that turn after all take it, and where no reading is
    left, the changes and presses since are read again after the answer, at their times.
    In 66000025 the reading that took the answer had asked a question of its own meanwhile
    and so had not heard the clock presses since; read again without them, the last two
    turns were not (22 of 24, an error on l11). A reading that asked hears them now.
    In 66000001 the last question answered had no readings (its reading had waited for
    room), and the tracker alone took it: red's last turn, a pawn step between two own
    blocks that only red's press shows, came after yellow's turn, but that press had been
    taken for the question's turn. 23 of 24 were committed, with no question left; the
    changes and presses since are now read again in order after such an answer."""
    import random

    from tests.boards.truth import Mix, run_stream

    mix = Mix.random(random.Random(seed))
    mix.answer, mix.answer_at_end = False, True
    result = run_stream("teblo", "teblo", seed, plies=24, mix=mix)
    assert not result.off and not result.illegal
    assert result.committed == result.truth and len(result.truth) == 24


def test_a_piece_put_where_no_turn_puts_it_is_not_explained_away_by_two_unseen_turns():
    """Seed 100038 of the unanswered random mix. Yellow puts a block on d12 and presses the
    shared button; the board asks whether red also stepped its pawn l11-l10 (between two
    own blocks, which the switches do not see). Red then lifts yellow's pawn off a4, puts
    it on l6 for over a second and back on a4, and puts a block on k3. Read as red's
    l11-l10, yellow's a4-a5 onto its own block and red's +l6, the lift and put-down fit
    with nothing put wrong; read as no step, l6 is a piece put where no turn puts it, to
    be put right. Every reading that fits made two turns or more beyond it, so a second
    of stillness does not let it go, and l11-l10 (never played) is not committed."""
    state = rules.new_game("teblo")
    for move in ("a1-a2", "+k6", "a2-a3", "+a2", "a3-a4", "+l10", "+j9", "+l11", "+b4",
                 "+g9", "+a5", "l12-l11"):
        state.push_str(move)
    tracker = Tracker(state)
    events = tracker.change("l11", False, 11.54) + tracker.change("l11", True, 11.82)
    events += tracker.change("d12", True, 11.91) + tracker.press("clock", 12.19, None)
    events += tracker.change("a4", False, 12.41) + tracker.change("l6", True, 12.70)
    for t in (13.2, 13.7, 14.0):
        events += tracker.tick(t)
    events += tracker.change("l6", False, 14.05) + tracker.change("a4", True, 14.23)
    events += tracker.change("k3", True, 14.9) + tracker.tick(16.0)
    committed = [e.move for e in events if isinstance(e, Committed)]
    assert committed == ["+d12", "+k3"][:len(committed)]


def _unanswered(seed: int):
    import random

    from tests.boards.truth import Mix, TrackerBoard, run_stream

    mix = Mix.random(random.Random(seed))
    mix.answer = False
    board = TrackerBoard(rules.new_game("teblo"), "teblo")
    return board.tracker, run_stream("teblo", "teblo", seed, plies=24, mix=mix, board=board)


def test_twin_readings_go_before_any_reading_is_let_go_for_room():
    """Seed 100040 of the unanswered random mix: the board asks whether red stepped
    l11-k11, l11-l10 or not at all; the readings of l11-k11 fill with red's pawn walking
    between its blocks, and many are twins (a step taken at its own question, and the
    same step taken at the next one after ``none``). Before, room was made by letting
    readings go, so the question could never settle by itself: 17 of the 24 turns were
    committed, and it stayed open. Twins now go first, nothing is lost, later events
    settle every question, and every turn played is committed."""
    tracker, result = _unanswered(100040)
    assert not result.off and not result.illegal
    assert result.committed == result.truth and tracker.prompt is None


def test_a_question_settles_on_the_answer_every_reading_let_go_began_with():
    """Room let readings go, all of one answer: later events that leave only that
    answer's readings settle the question on it (the readings let go could only have been
    more of its); where one let go began with another answer, they do not. Seed 100042
    of the unanswered random mix commits 11 turns, all played (9 before)."""
    tracker = Tracker(rules.new_game("teblo"))
    tracker.cut = frozenset({(), ("a2-a3",), ("a2-a3", "none"), ("a2-a3", "none", "+b4")})
    assert tracker._whole("a2-a3") and not tracker._whole("none")
    tracker.cut |= {("none",)}
    assert not tracker._whole("a2-a3")
    tracker, result = _unanswered(100042)
    assert not result.off and not result.illegal
    assert result.committed == result.truth[:len(result.committed)]
    assert len(result.committed) >= 11


def _position_after(turns: list[str]) -> str:
    state = rules.new_game("teblo")
    for text in turns:
        state.push_str(text)
    return state.position_str()


def test_readings_that_end_alike_go_first_and_the_board_keeps_the_position():
    """Seed 98000031 of the unanswered random mix: red's pawn steps between its own
    blocks, unseen and unpressed, and the readings fill with orders of steps that end on
    the same squares. Room is made first by letting go one of two readings that show the
    same position and the same turn in hand (what the board shows is the same, and which
    order was played only an answer could tell); before, the readings of the most answers
    went, the true position among them, and after turn 23 no reading knew where the
    pieces stood."""
    tracker, result = _unanswered(98000031)
    assert not result.off and not result.illegal
    shown = {_position_after(r.turns()) for r in [tracker, *tracker.readings.values()]}
    assert _position_after(result.truth) in shown
