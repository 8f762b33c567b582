"""Telec with physical dice tells the truth: seeded games played by hand (touches, bumps
begun with either piece, the Center Zone with and without its drop sensor, clock presses
by side or shared, late answers) and run through ``sensorboard replay --option
dice=physical``; the committed turns and the ``roll`` lines must be the true ones (see
``truth_telec.py``; ``bench/truth.py --replay`` runs thousands). Then one case per way the
board once went wrong, each found by those streams."""

import json
import random
import subprocess
import sys

import pytest

import rules
from boards.tracker import Committed, Prompt, Tracker
from tests.service.helpers import ev, moves, run

from .truth_telec import LAYOUTS, Mix, run_stream


def check(results):
    bad = [r for r in results if not r.ok]
    detail = "\n".join(f"{r.layout} seed {r.seed}: {r.off or r.stalled or f'{r.illegal} illegal'}"
                       "\n  " + "\n  ".join(r.log[-12:]) for r in bad[:3])
    assert not bad, f"{len(bad)} of {len(results)} streams left the truth:\n{detail}"
    assert all(r.committed == r.truth and r.rolled == r.rolls for r in results)


@pytest.mark.parametrize("chunk", range(2))
def test_streams_with_ordinary_handling_commit_the_true_turns_and_rolls(chunk):
    check([run_stream("telec", seed, turns=30) for seed in range(chunk * 12, chunk * 12 + 12)])


@pytest.mark.parametrize("chunk", range(2))
def test_streams_with_random_handling_habits_commit_the_true_turns_and_rolls(chunk):
    """Each stream draws its own habits: shared or per-player clock buttons, how often it
    touches, presses and answers late, how fast it plays, and on the board without a drop
    sensor whether a piece entering the Center Zone is put in the hole first."""
    seeds = range(10_000 + chunk * 12, 10_000 + chunk * 12 + 12)
    check([run_stream("telec", seed, turns=30, mix=Mix.random(random.Random(seed)))
           for seed in seeds])


def test_streams_cover_both_layouts_bumps_stacks_forfeits_and_the_center_zone():
    results = [run_stream("telec", seed, turns=30) for seed in range(24, 30)]
    turns = [t for r in results for t in r.truth]
    assert {r.layout for r in results} == set(LAYOUTS)
    assert any(t.endswith("-cz") for t in turns) and any(t.endswith(" none") for t in turns)
    assert sum(r.questions for r in results) > 0 and all(r.ok for r in results)


def test_a_stream_through_the_command_line(tmp_path):
    """The lines a stream wrote, run by ``sensorboard replay --game telec --option
    dice=physical`` itself, print the true turns and rolls."""
    for seed in (3, 4):  # one stream on each layout
        result = run_stream("telec", seed, turns=20)
        path = tmp_path / f"{seed}.jsonl"
        path.write_text(result.jsonl())
        proc = subprocess.run(
            [sys.executable, "-m", "sensorboard", "replay", "--game", "telec", "--option",
             "dice=physical", "--layout", result.layout, str(path)],
            capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        lines = [json.loads(x) for x in proc.stdout.splitlines()]
        assert [x["move"] for x in lines if x["type"] == "move"] == result.truth
        assert [(x["player"], x["value"]) for x in lines if x["type"] == "roll"] == result.rolls


def test_a_stream_that_leaves_the_truth_is_caught():
    """The check can fail: a tracker that never asks the size of a pyramid (it takes the
    first size offered) goes off the truth."""
    original = Tracker._answer

    def careless(self, value, t):
        return original(self, self.prompt.options[0], t)

    Tracker._answer = careless
    try:
        results = [run_stream("telec", seed, turns=12) for seed in range(4)]
    finally:
        Tracker._answer = original
    assert any(not r.ok for r in results)


# --- one case per way the board once went wrong ---------------------------------------------

START = [ev(1.0, "place", "a1"), {"t": 2.0, "op": "choose", "value": "6"},   # blue 4: a1
         ev(3.0, "place", "a5"), {"t": 4.0, "op": "choose", "value": "3"}]   # red 5: a5


def choose(t, value):
    return {"t": t, "op": "choose", "value": value}


def press(t):
    return {"t": t, "op": "press", "button": "clock"}


def test_a_piece_touched_while_its_size_is_asked_enters_once():
    """It once committed ``roll 5 roll 5 1``: the touch was read as a second entry."""
    out, final = run("telec", [ev(1.0, "place", "a1"), ev(2.0, "lift", "a1"),
                               ev(2.5, "place", "a1"), choose(3.0, "6")])
    assert moves(out) == ["roll 4 6"]
    assert [x["value"] for x in out if x["type"] == "roll"] == ["4"]


def test_touching_an_enemy_single_on_an_own_entry_tile_is_asked_not_taken_for_a_bump():
    """Lifting red's single on a4 (blue's tile for a 2) and putting it back looks like an
    entry bumping it: it was committed as ``roll 2 ..``; now it is asked, with ``none``."""
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"),   # blue a1-a2
                      ev(6.0, "lift", "a5"), ev(6.5, "place", "a4"),   # red a5-a4
                      ev(7.0, "lift", "a4"), ev(7.3, "place", "a4"),   # blue touches a4
                      choose(8.0, "none"), ev(9.0, "lift", "a2"), ev(9.5, "place", "a1")]
    out, final = run("telec", events)
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == ["4", "5", "6", "none"]
    assert moves(out)[2:] == ["a1-a2", "a5-a4", "a2-a1"]
    assert [x["value"] for x in out if x["type"] == "roll"] == ["4", "5"]  # none for a touch
    assert final["position"]["a4"] == ["red-3"]


def test_a_shared_press_with_no_turn_made_is_answered_none_and_prints_no_roll():
    """A shared clock pressed after red's turn asks whether blue made an unseen turn (a
    stack on a1); ``none``: nothing is committed, no roll printed, blue's step follows."""
    events = START + [press(5.0), choose(6.0, "none"), ev(7.0, "lift", "a1"),
                      ev(7.5, "place", "a2")]
    out, _ = run("telec", events)
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == ["4", "none"]
    assert moves(out)[2:] == ["a1-a2"] and len([x for x in out if x["type"] == "roll"]) == 2


def test_a_question_open_when_the_next_turn_starts_is_declined():
    """The contract: a question still open when the next turn's first piece is put down
    counts as ``none`` where declining is legal. Red said it rolled a 5 (onto its own 3 on
    a5) and left the size open; blue's step a2-a3 makes it a forfeit, then is committed."""
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"), press(7.0),
                      choose(8.0, "5"), ev(9.0, "lift", "a2"), ev(9.5, "place", "a3")]
    out, final = run("telec", events)
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == ["1", "2", "none"]
    assert moves(out)[2:] == ["a1-a2", "roll 5 none", "a2-a3"]
    assert final["position"] == {"a3": ["blue-6"], "a5": ["red-3"]}


def test_a_visible_turn_after_a_shared_press_declines_the_unseen_one():
    """Asked after a shared press whether red made an unseen turn, red steps a5-a4
    instead: no unseen turn was made, the step is committed."""
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"), press(7.0),
                      ev(9.0, "lift", "a5"), ev(9.5, "place", "a4")]
    out, _ = run("telec", events)
    assert moves(out)[2:] == ["a1-a2", "a5-a4"]


def test_a_forfeit_answered_none_is_not_taken_for_no_turn():
    """After a shared press ``none`` could mean a forfeit or no turn at all: the face is
    asked first (``none`` there: no turn), then ``none`` is the forfeit."""
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"), press(7.0),
                      choose(8.0, "3"), choose(9.0, "none")]
    out, _ = run("telec", events)
    assert moves(out)[2:] == ["a1-a2", "roll 3 none"]


def tracker(position, layout_blind=False):
    blind = frozenset({"cz"}) if layout_blind else frozenset()
    return Tracker(rules.from_position("telec", position), blind=blind)


def feed(tr, changes):
    out = []
    for k, (cell, on) in enumerate(changes):
        out += tr.change(cell, on, 1.0 + k)
    return out


def test_a_bump_begun_after_a_turn_that_was_complete_is_not_cut_short():
    """Blue lifted b5 (b5-c5 onto its own 5 would be complete), then red's 1 on a5: that
    is no proof red's turn began, blue may be bumping it. It was committed as b5-c5."""
    tr = tracker("d2=b5,a5=r1,b5=b2,c5=b5 blue:112334466:0 red:12233445566:0 blue turn")
    assert feed(tr, [("b5", False), ("a5", False)]) == []
    assert not any(isinstance(e, Committed) for e in tr.change("a5", True, 5.0))
    assert {c.text for c in tr.pending} == {"b5-c5", "b5-a5"}


def test_an_early_touch_of_a_piece_does_not_make_a_later_put_back_a_bump():
    """Red touched its 3 on d2, then blue's 5 left d3, then d2 was lifted and put back:
    blue into the Center Zone and red's touch, or blue bumping d2. It was committed as the
    bump (the first touch was taken for the lift of a capture)."""
    tr = tracker("c1=r6,d2=r3,d3=b5 blue:11223344566:0 red:1122344556:0 blue turn",
                 layout_blind=True)
    events = feed(tr, [("d2", False), ("d2", True), ("d3", False), ("d2", False), ("d2", True)])
    assert not any(isinstance(e, Committed) for e in events)
    assert {c.text for c in tr.pending} == {"d3-cz", "d3-d2"}


def test_the_mover_touching_an_own_piece_does_not_end_a_step_still_in_hand():
    """On the board without a drop sensor red's stack left a3 (into the Center Zone, or
    still in hand); red then touched its own d5: that is not blue's turn beginning."""
    tr = tracker("d1=r1,a3=r42,d3=b3,c4=r4,c5=b63,d5=r3 blue:112244556:0 red:125566:1 red turn",
                 layout_blind=True)
    events = feed(tr, [("a3", False), ("d5", False), ("d5", True), ("a2", True)])
    assert [e.move for e in events if isinstance(e, Committed)] == ["a3-a2"]
    assert not any(isinstance(e, Prompt) for e in events)


def test_an_entry_bump_made_while_the_last_step_still_waited_is_asked_after_it():
    """Blue's 4 stepped a5-d1 onto its own 6 (only a5 is seen to change, so it waits: the
    piece might still be in hand); red then lifted blue's 4 on b1 (red's tile for an ace)
    and put its own there. Red's press commits blue's step, and red's bump is asked: it
    was committed as a forfeit (the lift on b1 was forgotten with blue's turn)."""
    tr = tracker("b1=b4,d1=b6,a4=b2,d4=r62,a5=b4 blue:11233556:0 red:1123344556:0 blue turn",
                 layout_blind=True)
    assert feed(tr, [("a5", False), ("b1", False), ("b1", True)]) == []
    events = tr.press("clock", 5.0, "red")
    assert [e.move for e in events if isinstance(e, Committed)] == ["a5-d1"]
    assert tr.prompt.options == ["5", "6", "none"]
    assert [e.move for e in tr.choose("6", 6.0) if isinstance(e, Committed)] == ["roll ace 6"]


def test_a_touch_put_back_while_a_step_waits_and_a_bump_is_under_way_commits_neither():
    """Red's stack left a5: a5-a4 onto its own 6 (unseen) is complete, and blue's 3 on d1
    lifted may be red bumping it (a5-d1) or blue's next turn. Red then touched d5 and put
    it back: that was taken for the next turn going on and a5-a4 was committed. Now both
    wait; red's stack put on d1 leaves the two the sensors cannot tell apart (blue may
    have touched d1), asked at red's press."""
    tr = tracker("d1=b3,a4=r6,d4=b6,a5=r31,d5=r5 blue:112234455:1 red:1234456:1 red turn")
    events = feed(tr, [("a5", False), ("d1", False), ("d5", False), ("d5", True),
                       ("d1", True)])
    assert not any(isinstance(e, Committed) for e in events)
    assert {c.text for c in tr.pending} == {"a5-a4", "a5-d1"}
    assert tr.press("clock", 9.0, "red")[-1].options == ["a5-a4", "a5-d1"]
    assert [e.move for e in tr.choose("a5-d1", 10.0) if isinstance(e, Committed)] == ["a5-d1"]


def test_a_step_waiting_then_an_unseen_step_then_the_next_turn_are_all_committed():
    """Blue's 5 bumped red's 4 on d2 and d2 was touched; red's 3 then left c1 onto its own
    stack on b1 (unseen), and blue lifted d2 again and put it on d3. Two turns after the
    one waiting: the board fitted no turn and stalled. Read in order since d1-d2 was done,
    the changes are red's step and blue's."""
    tr = tracker("b1=r64,c1=r3,d1=b5,d2=r4,d4=r31,a5=r6,b5=b1 blue:1223344566:0 red:12255:0 "
                 "blue turn")
    events = feed(tr, [("d1", False), ("d2", False), ("d2", True), ("d2", False),
                       ("d2", True), ("c1", False), ("d2", False), ("d3", True)])
    assert [e.move for e in events if isinstance(e, Committed)] == ["d1-d2", "c1-b1", "d2-d3"]


def test_an_unseen_step_then_an_entry_on_the_cell_it_left_is_asked_not_taken_for_a_step():
    """Blue bumped red's 4 on a5 from d1; red's 1 left c1 (onto its own 2 on b1, unseen),
    then a pyramid was put on d1 (blue's tile for a 5). That is red c1-b1 and blue's entry,
    or red c1-d1: the sensors cannot tell, so it is asked. It was committed as c1-d1."""
    tr = tracker("b1=r2,c1=r1,d1=b6,b2=r2,d2=r5,d4=b6,a5=r4 blue:1122334455:0 red:1334566:0 "
                 "blue turn")
    events = feed(tr, [("d1", False), ("a5", False), ("a5", True), ("c1", False),
                       ("d1", True)])
    assert [e.move for e in events if isinstance(e, Committed)] == ["d1-a5"]
    assert tr.prompt.options == ["c1-b1", "c1-d1"]
    assert [e.move for e in tr.choose("c1-b1", 9.0) if isinstance(e, Committed)] == ["c1-b1"]
    assert tr.prompt.options == ["1", "2", "3", "4", "5"]  # blue's entry on d1: its size


def test_a_touch_of_the_next_turns_piece_while_an_unseen_entry_is_asked_leaves_it_open():
    """Red stepped a1-a2 while blue's turn was not seen: blue is asked what it rolled
    (null: a stack on its own 4 on b5), then the size. Touching red's pyramid on a2
    meanwhile was taken for red's turn going on and the size declined: ``roll null none``."""
    tr = tracker("a1=r3,d3=b3,b5=b4 blue:1122345566:0 red:1122445566:1 blue turn",
                 layout_blind=True)
    assert feed(tr, [("a1", False), ("a2", True)])[-1].options == ["null", "4", "none"]
    assert tr.choose("null", 5.0)[-1].options == ["1", "2", "3", "none"]
    assert feed(tr, [("a2", False), ("a2", True)]) == []
    assert [e.move for e in tr.choose("3", 9.0) if isinstance(e, Committed)] == [
        "roll null 3", "a1-a2"]


def test_the_bumping_piece_lifted_again_is_not_taken_for_the_next_turn_beginning():
    """Red's 4 bumped blue's 2 on d3 (d2-c2, onto its own 6 unseen, also fits), then d3 was
    lifted again: red still holding it, or blue taking up its own 2 after d2-c2. It was
    committed as d2-c2; it waits, and once d3 is back and blue's 1 has gone from a3 into
    the Center Zone, the two are asked."""
    tr = tracker("a1=b6,d1=b5,a2=r4,c2=r6,d2=r4,a3=b1,d3=b2,a4=b3,d5=r1 blue:1234456:0 "
                 "red:12233556:0 red turn")
    events = feed(tr, [("d2", False), ("d3", False), ("d3", True), ("d3", False),
                       ("d3", True), ("a3", False), ("cz", True)])
    assert not any(isinstance(e, Committed) for e in events)
    assert tr.prompt.options == ["d2-c2", "d2-d3"]
    assert [e.move for e in tr.choose("d2-d3", 9.0) if isinstance(e, Committed)] == ["d2-d3"]


def test_an_enemy_touched_while_the_mover_holds_their_own_is_not_the_next_turn():
    """Red's 4 left b1 (b1-c1, onto its own 5 unseen, is complete); red then touched blue's
    5 on d5 while holding its own, and put the 4 on b2. The touch was taken for blue's turn
    beginning and b1-c1 committed. Now the waiting turn is kept while both may be under
    way; the touch put back could still be blue stacking d5-c5 and red entering on d5
    (its tile for a 4), so it is asked, with ``none``; the step to b2 declines it."""
    tr = tracker("b1=r4,c1=r5,a4=b5,a5=r6,c5=b6,d5=b5 blue:112233446:0 red:112233456:0 "
                 "red turn")
    assert feed(tr, [("b1", False), ("d5", False)]) == []
    assert tr.change("d5", True, 5.0)[-1].options == ["b1-c1", "none"]
    assert [e.move for e in tr.change("b2", True, 6.0) if isinstance(e, Committed)] == [
        "b1-b2"]


def test_a_waiting_step_asked_after_a_touch_like_entry_keeps_the_entry_for_the_next_turn():
    """Blue's 3 bumped red's 2 on a5; red then lifted blue's 3 there and put its own 4 on
    a5 (its tile for a 5). Blue's step or a touch of a5 by blue: asked, answered a4-a5;
    red's entry was then forgotten, and its press asked only for a forfeit. Now red's
    lift and place are red's turn: its size is asked."""
    tr = tracker("b1=b3,d3=r4,a4=b3,a5=r2 blue:1122445566:0 red:1123345566:0 blue turn")
    assert feed(tr, [("a4", False), ("a5", False), ("a5", True), ("a5", False)]) == []
    assert tr.change("a5", True, 6.0)[-1].options == ["a4-a5", "none"]
    events = tr.choose("a4-a5", 7.0)
    assert [e.move for e in events if isinstance(e, Committed)] == ["a4-a5"]
    assert tr.prompt.options == ["4", "5", "6", "none"]  # red's 4 bumping blue's 3, or none
    assert [e.move for e in tr.choose("4", 8.0) if isinstance(e, Committed)] == ["roll 5 4"]


def test_the_next_player_taking_up_their_own_piece_after_an_unseen_turn_is_asked():
    """Red forfeited (unseen), and blue lifted its stack on b5 and red's 2 on a5 and put
    the stack there: no turn of red's explains blue's piece taken up, but the forfeit and
    blue's bump do. It was an error until a press that never came; now the forfeit is
    asked, and blue's bump (its lifts kept) waits as blue's turn."""
    tr = tracker("b1=r31,d1=r53,b4=b61,c4=b5,a5=r2,b5=b52 blue:1233446:0 red:1244566:0 "
                 "red turn", layout_blind=True)
    assert feed(tr, [("b5", False), ("a5", False), ("a5", True)])[-1].options == [
        "ace", "5", "none"]
    assert [e.move for e in tr.choose("ace", 9.0) if isinstance(e, Committed)] == [
        "roll ace none"]
    assert [c.text for c in tr.pending] == ["b5-a5"]


def test_a_shared_press_after_an_unseen_turn_and_the_opponents_bump_asks_the_unseen_turn():
    """Blue forfeited (unseen); red's 4 then bumped blue's 1 from b5 to c5 and a shared
    clock was pressed. Blue's entry on b5 (its tile for a null, red's single lifted) was
    still in progress, so the press did nothing and the board stalled. The press now asks
    whether blue made an unseen turn; red's bump follows."""
    tr = tracker("a1=b6,c1=b4,a2=r6,d4=b1,b5=r4,c5=b1 blue:22334556:0 red:122334556:1 "
                 "blue turn", layout_blind=True)
    assert feed(tr, [("b5", False), ("c5", False), ("c5", True)]) == []
    assert tr.press("clock", 8.0)[-1].options == ["null", "ace", "3", "4", "none"]
    assert [e.move for e in tr.choose("ace", 9.0) if isinstance(e, Committed)] == [
        "roll ace none"]
    assert [c.text for c in tr.pending] == ["b5-c5"]


def test_an_entry_bump_made_before_the_last_step_is_asked_keeps_its_lift_for_its_size():
    """Red's 1 left b1 (onto its own 3 on a1 or its own 5 on c1, unseen either way); blue
    then lifted red's 1 on d4 (its tile for a 3) and put its own there, and pressed. Red's
    step is asked first; blue's lift on d4 was then forgotten (it came before a question
    was asked, not while one was open), and its press asked only for a forfeit: it was
    committed as ``roll 3 none``. Now the size is asked."""
    tr = tracker("a1=r3,b1=r1,c1=r5,b4=b5,d4=r1 blue:1122344566:1 red:22344566:0 red turn",
                 layout_blind=True)
    assert feed(tr, [("b1", False), ("d4", False), ("d4", True)]) == []
    assert tr.press("clock", 7.0, "blue")[-1].options == ["b1-a1", "b1-c1"]
    events = tr.choose("b1-c1", 8.0)
    assert [e.move for e in events if isinstance(e, Committed)] == ["b1-c1"]
    assert tr.prompt.options == ["2", "3", "4", "5", "6", "none"]
    assert [e.move for e in tr.choose("4", 9.0) if isinstance(e, Committed)] == ["roll 3 4"]


def test_a_bump_begun_while_the_last_bump_waited_is_read_once_as_the_next_turn():
    """Red's 5 bumped blue's 1 on d4; blue then lifted its 2 on a5 and red's 1 on b5 and put
    its 2 there. Red's bump was committed and blue's changes read again as its turn, but
    they were also kept from before (b5 seemed lifted and put back before a5 left): blue
    was asked about a roll instead of its bump. Now it is asked as if it began afresh."""
    tr = tracker("d1=b6,a2=r6,a4=b6,d4=b1,a5=b2,b5=r1,d5=r5 blue:12334455:0 red:122334456:0 "
                 "red turn", layout_blind=True)
    events = feed(tr, [("d5", False), ("d4", False), ("d4", True), ("a5", False),
                       ("b5", False), ("b5", True)])
    assert [e.move for e in events if isinstance(e, Committed)] == ["d5-d4"]
    assert tr.prompt.options == ["a5-a4", "a5-b5", "a5-d1"]
    assert [e.move for e in tr.choose("a5-b5", 9.0) if isinstance(e, Committed)] == ["a5-b5"]


def test_a_touch_before_an_entry_bump_is_not_the_next_players_bump():
    """Blue touched its 1 on d5 (red's tile for a 4), then bumped red's 3 on a1 with a 5.
    Once blue's size was answered, the touch on d5, which came before blue's entry, was
    kept as red's: red was asked the size of a bump nobody made."""
    tr = tracker("a1=r3,d5=b1 blue:12233445566:0 red:11223445566:0 blue turn")
    assert feed(tr, [("d5", False), ("d5", True), ("a1", False)]) == []
    assert tr.change("a1", True, 5.0)[-1].options == ["4", "5", "6", "none"]
    events = tr.choose("5", 6.0)
    assert [e.move for e in events if isinstance(e, Committed)] == ["roll 4 5"]
    assert tr.prompt is None and not tr.pending


def test_an_entry_bump_while_a_step_was_touched_is_kept_for_the_next_turn():
    """Red's 1 left c1 (onto its own 4 on c2 or d1, unseen); blue bumped red's 4 on d1 (its
    tile for a 5), then red's c2 was lifted and put back, and blue pressed. The step came
    back to waiting with the put back, as if it were done only then: blue's bump before it
    was forgotten and its press asked a forfeit (``3``, ``5``) with no size."""
    tr = tracker("c1=r1,d1=r4,c2=r4,a3=b2,c4=b3,d4=b2 blue:113445566:0 red:122335566:0 "
                 "red turn")
    assert feed(tr, [("c1", False), ("d1", False), ("d1", True), ("c2", False),
                     ("c2", True)]) == []
    assert tr.press("clock", 8.0, "blue")[-1].options == ["c1-c2", "c1-d1"]
    assert tr.choose("c1-c2", 9.0)[-1].options == ["5", "6", "none"]
    assert [e.move for e in tr.choose("6", 10.0) if isinstance(e, Committed)] == ["roll 5 6"]


def test_an_entry_bump_on_the_tile_a_bump_just_took_is_kept_for_the_next_turn():
    """Blue's 4 bumped red's 2 on d2 (or went into the Center Zone, unseen on this board);
    red then bumped it back with a 6 (d2 is red's tile for a 2) and pressed. Once blue's
    step was answered, red's lift on d2, a tile blue's turn had changed, was dropped with
    blue's turn and red was asked a forfeit with no size."""
    tr = tracker("a1=r6,c1=r4,a2=r431,d2=r2,d3=b4,a4=b6,c5=b432 blue:1123556:0 red:123556:0 "
                 "blue turn", layout_blind=True)
    assert feed(tr, [("d3", False), ("d2", False), ("d2", True), ("d2", False),
                     ("d2", True)]) == []
    assert tr.press("clock", 8.0, "red")[-1].options == ["d3-cz", "d3-d2"]
    assert tr.choose("d3-d2", 9.0)[-1].options == ["5", "6", "none"]
    assert [e.move for e in tr.choose("6", 10.0) if isinstance(e, Committed)] == ["roll 2 6"]


def test_an_unseen_stack_then_the_opponent_stepping_onto_their_own_is_asked_once_still():
    """Blue stacked a 2 from its stash on its own 3 on c5 (its tile for an ace; nothing
    changes), and its press was spent on a question about red's step; red then moved its
    stack from c1 onto its own 4 on b1 (only c1 is seen to empty). No turn of blue's
    explains red's piece taken up: it was an error, and the stream stalled two turns later
    (seed 100343). Once the board stays so, blue's unseen turn is asked, then red's step
    waits as red's turn."""
    tr = tracker("b1=r4,c1=r31,c5=b3 blue:11223445566:0 red:122345566:0 blue turn")
    assert tr.change("c1", False, 1.0) == []
    assert tr.tick(2.0)[-1].options == ["ace", "none"]
    assert tr.choose("ace", 3.0)[-1].options == ["1", "2", "none"]
    assert [e.move for e in tr.choose("2", 4.0) if isinstance(e, Committed)] == ["roll ace 2"]
    assert [e.move for e in tr.press("clock", 5.0) if isinstance(e, Committed)] == ["c1-b1"]


def test_the_opponent_holding_their_piece_after_an_unseen_turn_answered_none_is_an_error():
    """The same, but blue made no turn (``none``): red's piece in hand is out of place,
    shown as an error, and not asked again while nothing changes."""
    tr = tracker("b1=r4,c1=r31,c5=b3 blue:11223445566:0 red:122345566:0 blue turn")
    tr.change("c1", False, 1.0)
    assert tr.tick(2.0)[-1].options == ["ace", "none"]
    assert tr.choose("none", 3.0) == []
    assert tr.tick(4.5) == [tr.error] and tr.error.cells == {"c1": "red-3+red-1"}


def test_an_enemy_touched_while_an_entry_bump_is_under_way_is_an_error_not_an_unseen_turn():
    """Blue lifted red's 3 on a1 (its tile for a 4) to bump it, and touched red's 6 on d5
    meanwhile, holding it a while: only red's pieces are taken up, but one as blue's bump
    takes it, so that is no unseen turn of blue's with red's begun (it was asked whether
    blue had made one, and answered 4, blue's roll: ``roll 4 none``; seed 7000846). The
    touch is an error until put back; the bump's size is then asked."""
    tr = tracker("a1=r3,a4=b6,b5=b2,d5=r6 blue:1123344556:0 red:1122344556:0 blue turn")
    assert feed(tr, [("a1", False), ("d5", False)]) == []
    assert tr.tick(3.5) == [tr.error] and tr.error.cells == {"d5": "red-6"}
    assert tr.change("d5", True, 4.0) == []
    assert tr.change("a1", True, 4.5)[-1].options == ["4", "5", "6", "none"]
    assert [e.move for e in tr.choose("6", 5.0) if isinstance(e, Committed)] == ["roll 4 6"]


def test_a_step_onto_an_own_piece_then_three_turns_mostly_unseen_are_all_committed():
    """Blue's 2+1 stepped d5-d4 onto its own 4 (only d5 is seen to empty), red's 1 a1-a2
    onto its own 3 (only a1 empties), blue entered a 3 on a1 (its tile for a 4), and red's
    stack from a2 bumped it. Blue's step also looks like d5-a1, a bump of red's 1, so it
    is asked; answered d5-d4, only the changes since the board was held (red's bump) were
    read as red's turn, and the board stalled (seed 7000969). Now all that came since the
    step was done is read in order as the next turns', each asked where it must be."""
    tr = tracker("a1=r1,d1=r32,a2=r3,d4=b4,a5=r5,d5=b21 blue:12345566:1 red:1244566:0 "
                 "blue turn")
    events = feed(tr, [("d5", False), ("a1", False), ("a1", True), ("a2", False),
                       ("a1", False), ("a1", True)])
    assert events[-1].options == ["d5-a1", "d5-d4"]
    assert tr.choose("d5-d4", 9.0)[-1].options == ["a1-a2", "none"]
    # blue's entry on a1, or none: red's 1 put back, not yet carried over
    assert tr.choose("a1-a2", 10.0)[-1].options == ["1", "2", "3", "4", "5", "6", "none"]
    assert [e.move for e in tr.choose("3", 11.0) if isinstance(e, Committed)] == ["roll 4 3"]
    assert [e.move for e in tr.press("clock", 12.0, "red") if isinstance(e, Committed)] == [
        "a2-a1"]
    assert tr.turns() == ["d5-d4", "a1-a2", "roll 4 3", "a2-a1"]


def test_a_touch_that_looks_like_an_entry_answered_none_keeps_a_bump_made_elsewhere():
    """Red's 4 bumped blue's 3 on b2 and then touched its own 5 on a1 (blue's tile for a
    4: a touch there looks like blue's entry bumping it); blue's 6 then bumped red's 3
    from d1 to c1. Once red's bump was answered, the touch on a1 was asked as blue's entry
    (``6``, ``none``); ``none`` forgot every piece put back, c1's lift too, and blue's bump
    was committed as ``d1-a5`` later (seed 7000037, without the drop sensor). Now only
    what was asked is forgotten, and the bump stands."""
    tr = tracker("a1=r5,c1=r3,d1=b6,a2=r4,b2=b3,b5=b3 blue:11224456:1 red:11234566:1 "
                 "red turn", layout_blind=True)
    events = feed(tr, [("a2", False), ("b2", False), ("b2", True), ("a1", False),
                       ("a1", True), ("c1", False), ("d1", False), ("c1", True)])
    assert events[-1].options == ["a2-a1", "a2-b2"]
    assert tr.choose("a2-b2", 10.0)[-1].options == ["6", "none"]
    assert [e.move for e in tr.choose("none", 11.0) if isinstance(e, Committed)] == ["d1-c1"]


def test_an_own_piece_taken_up_during_a_bump_is_not_read_as_two_turns_more():
    """Blue's 6 left c2, red's 1 on d2 was touched, then red's 1 on c1 lifted (blue bumping
    it) and blue took up its own 5 on a4 meanwhile. Read in order, that is also c2-d2 (a
    bump of the touched 1), red's c1-b1 onto its own 3 (only the lift is seen) and blue
    beginning with a4: it was committed as c2-d2 at once (seed 7000907). A piece only
    taken up may be put back: it waits, and the bump completed is asked at the press."""
    tr = tracker("a1=b1,b1=r3,c1=r1,c2=b6,d2=r1,a4=b5,d4=b5 blue:12233446:0 red:223445566:0 "
                 "blue turn")
    events = feed(tr, [("c2", False), ("d2", False), ("d2", True), ("c1", False),
                       ("a4", False), ("a4", True), ("c1", True)])
    assert not any(isinstance(e, Committed) for e in events)
    assert tr.press("clock", 9.0, "blue")[-1].options == ["c2-c1", "c2-d2"]
    assert [e.move for e in tr.choose("c2-c1", 10.0) if isinstance(e, Committed)] == ["c2-c1"]


def test_a_step_answered_none_then_made_later_is_done_when_it_is_made():
    """Blue lifted its stack's top on d5 and put it back (a step onto its own c5 shows only
    the lift): asked, ``none``. Then blue did step d5-c5 and red stepped d2-d3. The step was
    asked again and answered, and the board was read again from when the step was first
    done, the declined touch: red's step was read as an entry on d3 and its size asked
    (seed 100481, without the drop sensor). A turn answered ``none`` was not done then."""
    seed = 100481
    result = run_stream("telec", seed, turns=30, mix=Mix.random(random.Random(seed)),
                        layout="telec-nodrop")
    check([result])


def test_the_player_asked_about_a_turn_after_the_one_under_way_answers_none():
    """The harness's own player (tests/boards/truth.py): red, entering a 5 on b1, answered
    the size; the board then asked blue which pyramid blue had entered on c5 (red's 4
    there touched while a question was open) and the player answered ``5`` from red's
    ``roll ace 5``, a turn blue never made (telec-nodrop seed 57100059: ``roll ace 5``
    committed twice)."""
    from .truth import Mix as TrackerMix
    from .truth import run_stream as run_tracker_stream

    seed = 57100059
    result = run_tracker_stream("telec", "telec-nodrop", seed, plies=24,
                                mix=TrackerMix.random(random.Random(seed)))
    assert result.ok, result.off or result.stalled
    assert result.committed[-2:] == ["b1-a1", "roll ace 5"]
