"""Ordinary handling the truth-checked streams found wrong, one hand-made case each: an enemy
piece touched while the mover holds their own, a touch that the next player's turn could
also explain, a capture begun with the shooter, the input ending while the next turn may
have begun, a Tesulda enemy figure touched while the mover holds their own."""

import rules
from boards.hints import plan
from boards.tracker import Committed, Prompt, Tracker

from .test_clock import moves

# Clear to move; the shooter on c3 may capture a3 or ab45, or step to b3, c2, ...
TESSELLA = ["e4-de45", "a4-ab45", "de45-e4", "d5-cd45", "b1-a1", "c5-d5", "d1-d2", "a2-ab23",
            "c1-c2", "a3-b3", "d2-cd23", "b5-c5", "c2-c3", "b3-bc23", "e3-d3", "ab23-a3"]


def shooter_position():
    state = rules.new_game("tessella")
    for m in TESSELLA:
        state.push_str(m)
    return state


def feed(tracker, changes, t=0.0):
    out = []
    for k, (cell, value) in enumerate(changes):
        out += tracker.change(cell, value, t + k)
    return out


def test_enemy_touched_while_holding_the_shooter_then_a_plain_move_is_the_plain_move():
    tracker = Tracker(shooter_position())
    assert feed(tracker, [("c3", False), ("a3", False), ("a3", True)]) == []
    assert moves(tracker.change("b3", True, 5.0)) == ["c3-b3"]


def test_enemy_touched_then_another_captured_is_asked_never_the_first_committed():
    """c3 lifted, a3 touched, ab45 lifted and the shooter put there: exactly what c3xa3
    followed by dark touching ab45 would show. Nothing is committed at ab45's lift (the
    first capture used to be), and the question offers both."""
    tracker = Tracker(shooter_position())
    out = feed(tracker, [("c3", False), ("a3", False), ("a3", True), ("ab45", False),
                         ("ab45", True)])
    assert not moves(out)
    assert tracker.press("clock", 9.0, "clear") == [
        Prompt(9.0, ["c3xa3", "c3xab45", "none"])]
    assert moves(tracker.choose("c3xab45", 10.0)) == ["c3xab45"]


def test_capture_begun_with_the_shooter_waits_and_commits_before_the_next_turn():
    """Shooter c3 lifted, a3 lifted, a piece put on a3: the capture, or the shooter still in
    hand after a3 was touched. It waits, held (the LEDs show c3 in the held role, no
    error); dark's next move commits it first, then dark's move; nothing is lost."""
    tracker = Tracker(shooter_position())
    assert feed(tracker, [("c3", False), ("a3", False), ("a3", True)]) == []
    assert [c.text for c in tracker.pending] == ["c3xa3"]
    frame = plan(tracker.view(), 3.0)
    assert frame["c3"] == "held" and "wrong" not in frame.values()
    assert tracker.tick(9.0) == []  # no error: a turn is under way
    out = feed(tracker, [("d5", False), ("e5", True)], 10.0)
    assert [(e.player, e.move) for e in out if isinstance(e, Committed)] == [
        ("clear", "c3xa3"), ("dark", "d5-e5")]


def teblo_pawns():
    """Yellow's pawn on a2 beside its own block b2; red's pawn on l11 beside its own block
    k11. On reed switches a step onto an own block shows only the lift."""
    state = rules.new_game("teblo")
    for m in ["+b2", "+k11", "a1-a2", "l12-l11"]:
        state.push_str(m)
    return state


def test_enemy_pawn_touched_while_holding_ones_own_asks_then_a_touch_changes_nothing():
    """Yellow lifts a2 (a2-b2 would now be complete) and touches red's pawn: exactly what
    a2-b2, then red's l11-k11, then yellow's block on l11 would show. Not asked while the
    board is still (yellow still holds its pawn: the next piece put down may tell); yellow's
    pawn put on a3 fits both (yellow's a2-a3, or red's block after yellow's block), so it
    asks then, and ``none`` (it was a touch) commits a2-a3."""
    tracker = Tracker(teblo_pawns())
    assert feed(tracker, [("a2", False), ("l11", False)]) == []
    assert tracker.tick(5.0) == []  # red's pawn in hand is no error: its turn may be under way
    assert tracker.change("l11", True, 6.0) == [] and tracker.prompt is None
    assert tracker.tick(7.0) == [] and tracker.prompt is None
    assert tracker.change("a3", True, 8.0) == [Prompt(6.0, ["a2-b2", "none"])]
    assert moves(tracker.choose("none", 8.5)) == ["a2-a3"]


def test_the_same_touch_answered_as_three_turns_replays_them_in_order():
    tracker = Tracker(teblo_pawns())
    feed(tracker, [("a2", False), ("l11", False), ("l11", True)])
    assert tracker.choose("a2-b2", 7.0) == [Committed(7.0, 5, "yellow", "a2-b2")]
    assert tracker.prompt is None  # red's step or a touch: it waits unshown, as it was,
    assert tracker.tick(8.0) == []  # through red's thinking too, to the next put-down
    assert tracker.change("c5", True, 9.0) == [Prompt(7.0, ["l11-k11", "none"])]
    assert moves(tracker.choose("l11-k11", 9.5)) == ["l11-k11", "+l11", "+c5"]


def test_a_turn_asked_late_replays_the_next_players_turns_after_the_answer():
    """Yellow's pawn leaves a2 (a2-a3 and a2-b2, onto own blocks, look the same), red's pawn
    leaves l11 (onto its own block k11: only the lift shows), then a yellow block on g3.
    Which step yellow made is asked (at red's next block: both steps still fit); after the
    answer red's step and yellow's block follow (found by ``bench/truth.py --first 4000000
    --plies 60``, seed 4000118, where the board stopped following the game)."""
    state = rules.new_game("teblo")
    for m in ["+a3", "+k11", "+b2", "l12-l11", "a1-a2", "+e5"]:
        state.push_str(m)
    tracker = Tracker(state)
    assert feed(tracker, [("a2", False), ("l11", False)]) == []
    assert tracker.change("g3", True, 3.0) == [] and tracker.prompt is None
    assert tracker.tick(4.0) == [] and tracker.prompt is None
    assert tracker.change("c5", True, 5.0) == [Prompt(3.0, ["a2-a3", "a2-b2", "none"])]
    assert moves(tracker.choose("a2-b2", 5.5)) == ["a2-b2", "l11-k11", "+g3", "+c5"]


def test_a_piece_on_the_drop_pad_is_this_turns_not_the_next_before_anything_left():
    """Telec with the drop sensor: red lifts a3 (a3-a2 onto its own pyramid would be
    complete) and the piece appears on the Center Zone's pad. It is a3-cz under way, not
    a3-a2 and blue stepping into cz before its piece left d3: nothing is committed while
    the piece is on the pad, and a3-cz is, as the pad is emptied (found by the generic
    streams, telec seed 10006)."""
    from boards.layout import load_layout, shipped_layouts
    from boards.sensing import observer

    state = rules.from_position(
        "telec", "a2=r3,a3=r2,d3=b4 blue:11223345566:0 red:1124455663:0 red turn")
    layout = load_layout(shipped_layouts()["telec"])
    tracker = Tracker(state, observe=observer(layout),
                      blind=frozenset(state.GEOMETRY.names) - layout.cell_sensor.keys())
    assert feed(tracker, [("a3", False), ("cz", True)]) == []
    assert moves(feed(tracker, [("cz", False)], 3.0)) == ["a3-cz"]


def test_input_ending_while_the_next_turn_may_have_begun_commits_both_turns():
    """Yellow's pawn leaves a2 (onto its own block b2: only the lift shows), then red's pawn
    leaves l11 for its own block k11, and the input ends (a replay file, the game closed):
    yellow's waiting step is committed, then red's, which the board shows complete too.
    The end of input used to commit yellow's step only and leave red's waiting, unasked
    (``bench/truth.py --first 7000000 --mix random``, seeds 7000082 and 7000435)."""
    tracker = Tracker(teblo_pawns())
    assert feed(tracker, [("a2", False), ("l11", False)]) == []
    assert tracker.flush(5.0) == [Committed(5.0, 5, "yellow", "a2-b2"),
                                  Committed(5.0, 6, "red", "l11-k11")]
    assert tracker.flush(6.0) == []


def test_input_ending_after_the_next_players_silent_step_asks_which_step():
    """As above, but red's pawn on l11 could step onto either of its blocks k11 and l10
    (alike on reed switches): after yellow's step is committed the end of input asks which,
    rather than leave red's turn uncommitted with no question."""
    state = teblo_pawns()
    for m in ["+g3", "+l10"]:
        state.push_str(m)
    tracker = Tracker(state)
    assert feed(tracker, [("a2", False), ("l11", False)]) == []
    assert tracker.flush(5.0) == [Committed(5.0, 7, "yellow", "a2-b2"),
                                  Prompt(5.0, ["l11-k11", "l11-l10", "none"])]
    assert moves(tracker.choose("l11-l10", 6.0)) == ["l11-l10"]


def test_a_tesulda_enemy_touched_while_holding_ones_figure_is_no_capture():
    """Light lifts d4's figure, then lifts dark's d7 and puts it back: exactly what d4xd7
    shows, so the attack choice is asked; light's figure then comes down on d5 (found by
    the Tesulda truth streams). The decisions taken are dropped and d4-d5 is committed;
    nothing is left asked."""
    state = rules.from_position("tesulda", "light:e1=Skh,d4=Sss dark:d7=Ssc,j10=Skh pool: light")
    tracker = Tracker(state)
    out = feed(tracker, [("d4", False), ("d7", False), ("d7", True)])
    assert out == [Prompt(2.0, ["none", "take:c", "take:cs", "take:s"])]
    assert tracker.change("d5", True, 5.0) == [Committed(5.0, 1, "light", "d4-d5")]
    assert tracker.prompt is None and tracker.state.to_move == "dark"


def test_a_tesulda_figure_straightened_while_the_dodger_waits_at_its_corner():
    """Light's Dodger e4 is set down on e5, the corner of its way to f6 (e4-e5 is complete,
    and the Dodger may go on); light then straightens its own a1, which dark's a8 could
    be starting to take. Nothing is committed at that lift (e4-e5 used to be, and the
    Dodger's e4-f6 became an error): the next changes tell, and e4-f6 is committed."""
    text = "light:e1=Skh,e4=Scz,a1=Ss dark:a8=Ssssh,j10=Skh pool: light"
    tracker = Tracker(rules.from_position("tesulda", text))
    out = feed(tracker, [("e4", False), ("e5", True), ("a1", False), ("a1", True),
                         ("e5", False), ("f6", True)])
    assert out == [Committed(5.0, 1, "light", "e4-f6")]
    # Or dark was taking a1: e4-e5 stood, and dark's capture follows it.
    tracker = Tracker(rules.from_position("tesulda", text))
    out = feed(tracker, [("e4", False), ("e5", True), ("a1", False), ("a8", False),
                         ("a1", True)])
    assert out == [Committed(4.0, 1, "light", "e4-e5"), Prompt(4.0, ["none", "take:s"])]
    assert moves(tracker.choose("take:s", 5.0)) == ["a8xa1 take:s"]


def test_a_tesulda_capture_with_nothing_to_ask_waits_while_it_may_be_a_touch():
    """d4's figure is full (five squares): capturing d7 it can take nothing, and nothing
    else follows, so no question would come. Light lifts d4, lifts d7 and puts it back:
    that capture, or a touch while holding d4. Nothing is committed (``d4xd7 none`` used
    to be, at once); the figure set down on d5 commits d4-d5, and a clock press instead
    would have committed the capture."""
    text = "light:e1=Skh,d4=Ssssss dark:d7=Ssc,j10=Skh pool: light"
    tracker = Tracker(rules.from_position("tesulda", text))
    assert feed(tracker, [("d4", False), ("d7", False), ("d7", True)]) == []
    assert moves(tracker.change("d5", True, 5.0)) == ["d4-d5"]
    tracker = Tracker(rules.from_position("tesulda", text))
    assert feed(tracker, [("d4", False), ("d7", False), ("d7", True)]) == []
    assert moves(tracker.press("clock", 5.0, "light")) == ["d4xd7 none"]


def test_a_tesulda_capture_with_nothing_to_ask_then_the_opponent_takes_back():
    """Light's full d4 captures d7 (nothing to ask, so the capture waits: it may have been
    a touch); dark then lifts d9 and takes light's figure on d7. Lifting d9 is dark's turn
    begun, no error; the capture is committed, then dark's, whose attack choice is asked
    (the capture waiting did not fit dark's turn after it, and dark's lift was an error
    until d7 came down: found by the truth streams)."""
    text = "light:e1=Skh,d4=Ssssss dark:d7=Ssc,d9=Sss,j10=Skh pool: light"
    tracker = Tracker(rules.from_position("tesulda", text))
    assert feed(tracker, [("d4", False), ("d7", False), ("d7", True), ("d9", False)]) == []
    assert tracker.tick(10.0) == []  # no error: dark's capture may be under way
    out = feed(tracker, [("d7", False), ("d7", True)], 11.0)
    assert out == [Committed(12.0, 1, "light", "d4xd7 none"),
                   Prompt(12.0, ["none", "take:s", "take:ss"])]


def test_a_tesulda_enemy_touched_while_holding_ones_figure_then_another_captured_is_asked():
    """Dark lifts d8, lifts light's d6 and puts it back: d8xd6 as the sensors see it, so
    its attack choice is asked. Dark then lifts light's f8 and sets a figure down there:
    d8xf8 with d6 only touched, or d8xd6 and f8 touched after it; the sensors cannot
    tell. The attack choice answered so far is undone and which capture is asked (d8xd6
    and its attack choice stood, and ``d8xd6 none`` was committed: found by the truth
    streams, seed 7000032)."""
    text = "light:a1=Skh,d6=Tcs,f8=Tcs dark:d8=Sss,j10=Skh pool: dark"
    tracker = Tracker(rules.from_position("tesulda", text))
    out = feed(tracker, [("d8", False), ("d6", False), ("d6", True)])
    assert out == [Prompt(2.0, ["none", "take:c", "take:cs", "take:s"])]
    assert feed(tracker, [("f8", False), ("f8", True)], 3.0) == [Prompt(4.0, ["d8xd6", "d8xf8"])]
    assert tracker.choose("d8xf8", 5.0) == [Prompt(5.0, ["none", "take:c", "take:cs", "take:s"])]
    assert moves(tracker.choose("take:s", 6.0)) == ["d8xf8 take:s"]


def test_two_tesulda_captures_waiting_then_the_opponents_turn_asks_which_and_its_choice():
    """Light lifts d4, takes dark's d6 and, holding both, touches dark's f4; the figure
    comes down on d6. d4xd6 and d4xf4 both show done, and d4 may still be in hand: both
    wait. Dark then moves j10-j9: one of them was made, and its attack choice was never
    asked. Which capture is asked, then its attack choice, then dark's move is committed
    (the waiting captures were kept while dark's move went unseen, and the stream
    stalled: seed 7000050)."""
    text = "light:e1=Skh,d4=Ss dark:d6=Tc,f4=Tc,j10=Skh pool: light"
    tracker = Tracker(rules.from_position("tesulda", text))
    out = feed(tracker, [("d4", False), ("d6", False), ("f4", False), ("f4", True),
                         ("d6", True), ("j10", False), ("j9", True)])
    assert out == [Prompt(6.0, ["d4xd6", "d4xf4"])]
    assert tracker.choose("d4xd6", 7.0) == [Prompt(7.0, ["none", "take:c"])]
    assert moves(tracker.choose("take:c", 8.0)) == ["d4xd6 take:c", "j10-j9"]


def test_a_tesulda_capture_waiting_then_taken_back_with_its_figure_lifted_first():
    """Light's full d4 captures e5 (nothing to ask: it waits). Dark lifts light's figure on
    e5, then its own d5, and sets it down on e5: dark's capture, read in order since e5
    was lifted (or light, still holding d4, touched e5 and is taking d5: light's figure
    would then come down on d5). Light's capture is committed and dark's attack choice
    asked at once (it was committed only at the end of the input, the choice declined
    unasked: seed 7000063)."""
    text = "light:e1=Skh,d4=Sccsss dark:e5=Tc,d5=Ss,j10=Skh pool: light"
    tracker = Tracker(rules.from_position("tesulda", text))
    out = feed(tracker, [("d4", False), ("e5", False), ("e5", True), ("e5", False),
                         ("d5", False), ("e5", True)])
    assert out == [Committed(5.0, 1, "light", "d4xe5 none"),
                   Prompt(5.0, ["none", "take:c", "take:cc", "take:cs", "take:s", "take:ss"])]
    assert moves(tracker.choose("take:cs", 6.0)) == ["d5xe5 take:cs"]
