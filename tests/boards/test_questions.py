"""An answer given to a question about which turn was made is never lost (issue 22), on
the tracker and through the service on a Teblo board on reed switches."""

import rules
from boards.layout import load_layout, shipped_layouts
from boards.sensing import observer
from boards.tracker import Committed, Tracker
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock
from sensorboard.board import BoardOptions, open_board
from sensorboard.replay import VirtualRun

#: Red's pawn on its own block at k11, red's blocks beside it on j11 and k10: on reed
#: switches red's block on l8 looks the same as a silent step onto one of those blocks
#: followed by yellow's block on l8.
WALLED = "yellow:c3:24:c4 red:k11:22:k11,j11,k10 red"


def reed(position: str) -> Tracker:
    state = rules.from_position("teblo", position)
    return Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))


def moves(events) -> list[str]:
    return [e.move for e in events if isinstance(e, Committed)]


def test_an_answer_after_later_moves_commits_them_too():
    """Red's pawn steps off its block at k11 onto l11, or red puts a block on l11: equally
    ordinary, so yellow's next block (c5) leaves both and the question is shown then;
    answered only after it, the answer commits the turn asked about and the turns since
    (its readings followed them)."""
    tracker = reed(WALLED)
    assert tracker.change("l11", True, 1.0) == [] and tracker.prompt is None
    assert [e.options for e in tracker.change("c5", True, 1.5)] == [
        ["+l11", "k11-j11", "k11-k10", "k11-l11", "none"]]
    events = tracker.choose("k11-l11", 4.0)
    assert moves(events) == ["k11-l11", "+c5"]
    assert [type(e).__name__ for e in events] == ["Committed", "Committed"]  # not settled
    assert tracker.prompt is None and tracker.turns() == ["k11-l11", "+c5"]


def test_the_movers_press_settles_a_question_not_shown_yet():
    """Red's block on l8, or a silent step onto red's own block and yellow's block on l8:
    red then presses its clock. Every reading of a silent step takes an unpressed unseen
    step for granted, so red's press commits ``+l8`` and nothing is ever shown; yellow's
    press instead (or a press of the other side) would leave the question, and it is
    shown at once."""
    tracker = reed(WALLED)
    assert tracker.change("l8", True, 1.0) == []
    assert tracker.view().phase.name == "HELD"  # the LEDs and page: press the clock
    assert moves(tracker.press("clock", 1.5, "red")) == ["+l8"]
    assert tracker.prompt is None and tracker.turns() == ["+l8"]
    other = reed(WALLED)
    other.change("l8", True, 1.0)
    shown = other.press("clock", 1.5, "yellow")
    assert [e.options for e in shown if hasattr(e, "options")] == [
        ["+l8", "k11-j11", "k11-k10", "none"]] and other.turns() == []


def test_the_movers_own_press_settles_a_step_the_next_turn_may_have_followed():
    """Yellow's pawn leaves a1 and a piece appears on b1: a1-b1, or a1-a2 onto yellow's own
    block and red's block on b1. Equally ordinary as far as the sensors go; but yellow then
    presses its own side of the clock, which in the second reading would come after red
    had begun (one unusual action more), so a1-b1 is committed and nothing is shown. On a
    shared button the press may be red's, and the question is shown."""
    for button, asked in (("yellow", []), (None, [["a1-a2", "a1-b1", "none"]])):
        tracker = reed("yellow:a1:24:a2 red:k12:25: yellow")
        assert tracker.change("a1", False, 1.0) == []
        assert tracker.change("b1", True, 1.5) == [] and tracker.prompt is None
        events = tracker.press("clock", 2.0, button)
        assert [e.options for e in events if hasattr(e, "options")] == asked
        assert tracker.turns() == (["a1-b1"] if button else [])


def test_the_movers_own_press_settles_a_step_though_a_later_unseen_step_would_fit_it():
    """Yellow's pawn leaves c2 and a piece appears on d2, then yellow presses its own side:
    c2-d2; or c2-c1 onto yellow's own block, red's block on d2 and yellow's unseen c1-d1
    onto its block there, ended by the press. That reading has red begin before yellow's
    c2-c1 was ended (one unusual action more), so c2-d2 is committed and nothing is shown
    (clean stream 0 with presses asked it)."""
    tracker = reed("yellow:c2:23:c1,d1 red:k12:25: yellow")
    assert tracker.change("c2", False, 1.0) == []
    assert tracker.change("d2", True, 1.5) == [] and tracker.prompt is None
    events = tracker.press("clock", 2.0, "yellow")
    assert not [e for e in events if hasattr(e, "options")]
    assert tracker.turns() == ["c2-d2"] and tracker.prompt is None


def test_hint_shows_a_question_not_shown_yet():
    tracker = reed(WALLED)
    tracker.change("l8", True, 1.0)
    assert [e.options for e in tracker.press("hint", 1.3)] == [
        ["+l8", "k11-j11", "k11-k10", "none"]]
    assert tracker.prompt is not None and tracker.view().question is not None


def test_an_answer_given_before_the_question_is_shown_is_taken():
    """The question is there before it is shown: an answer naming one of its options (a
    replay's line, a player who knows the board will ask) is taken."""
    tracker = reed(WALLED)
    tracker.change("l8", True, 1.0)
    assert moves(tracker.choose("+l8", 1.2)) == ["+l8"] and tracker.prompt is None


class Board:
    """A Teblo board on reed switches, the whole pipeline on a virtual clock."""

    def __init__(self, position: str) -> None:
        self.clock = VirtualClock()
        self.service = open_board(BoardOptions(
            "teblo", clock=self.clock, state=rules.from_position("teblo", position),
            hardware=HardwareConfig(bounce=0.003, seed=0), engine_hints=False)).service
        self.out: list[dict] = []
        self.run = VirtualRun(self.service, self.clock, self.out.append)

    def act(self, t: float, op: str, value: str, player: str | None = None) -> None:
        self.run.scan_until(t)
        self.out += self.service.act(op, value, player)
        self.run.scan_until(t + 0.03)

    def answer_when_asked(self, until: float, value: str, delay: float = 0.02) -> int:
        """Scan to ``until``; a question put meanwhile is answered ``delay`` after it
        appears. How many were answered."""
        answered = 0
        while self.clock.now() < until:
            self.run.scan_until(self.clock.now() + 0.01)
            if self.service.view.question is not None:
                self.act(self.clock.now() + delay, "choose", value)
                answered += 1
        return answered


def test_an_answer_given_20_ms_after_the_question_is_taken_through_the_service():
    """The issue's case: red's block on l8 (or a silent step and yellow's block there),
    answered ``+l8`` 20 ms after the question appears on the page's view: the answer is
    taken, no question stays open, nothing else is committed later (the issue's board
    committed ``k11-k10`` 22 s later), and every turn after it is committed without an
    error. The board itself does not ask while yellow is thinking (yellow's move may
    settle it); ``hint`` brings the question up."""
    board = Board(WALLED)
    board.act(1.0, "place", "l8")
    assert board.answer_when_asked(2.5, "+l8") == 0  # the next player thinking: not asked
    board.act(2.6, "press", "hint")
    assert board.answer_when_asked(2.9, "+l8") == 1
    board.act(3.0, "press", "clock", "red")
    board.act(4.0, "place", "c5")
    board.act(5.0, "place", "e9")  # red's block again, or a silent step and yellow's block
    board.act(5.5, "press", "hint")
    assert board.answer_when_asked(6.5, "+e9") == 1
    board.act(7.0, "place", "c6")
    board.run.scan_until(30.0)  # 22 s and more: nothing else is committed
    moved = [item["move"] for item in board.out if item["type"] == "move"]
    assert moved == ["+l8", "+c5", "+e9", "+c6"]
    assert not [item for item in board.out if item["type"] in ("error", "rejected")]
    assert board.service.tracker.prompt is None


def test_an_answer_meant_for_a_question_replaced_meanwhile_is_refused():
    """Yellow's pawn on b1 touched (lifted, put back) is asked about (brought up with
    ``hint``: the board itself waits for red's move): a touch, or b1-b2 onto its own block
    and red's block on b1. Yellow then steps b1-c1; once the board is still, later events
    settle the first question (``none``) and the step is asked (``hint`` again). A
    ``none`` meant for the first question is refused, not taken for the second, where it
    would say that yellow made no step at all."""
    state = rules.new_game("teblo")
    for move in ("a1-b1", "+c5", "+b2", "+c6"):
        state.push_str(move)
    tracker = Tracker(state, observe=observer(load_layout(shipped_layouts()["teblo"])))
    tracker.change("b1", False, 1.0)
    tracker.change("b1", True, 1.5)
    assert tracker.tick(2.5) == [] and tracker.prompt is None
    tracker.press("hint", 2.6)
    first = tracker.prompt
    assert first.options == ["b1-b2", "none"]
    tracker.change("b1", False, 3.0)
    tracker.change("c1", True, 3.5)
    tracker.tick(5.0)
    tracker.press("hint", 5.1)
    second = tracker.prompt
    assert second.options == ["b1-b2", "b1-c1", "none"]
    refused = tracker.choose("none", 5.2, asked=first.key)
    assert [type(e).__name__ for e in refused] == ["Rejected"]
    assert "no longer open; now asked: b1-b2, b1-c1, none" in refused[0].reason
    assert tracker.prompt == second and tracker.turns()[-1] == "+c6"
    assert moves(tracker.choose("b1-c1", 6.0, asked=second.key)) == ["b1-c1"]


def test_an_answer_whose_readings_are_all_cheaper_settles_at_the_next_put_down():
    """Red's block on l8, or a step onto red's own block that nobody pressed for and
    yellow's block on l8: nobody presses, and yellow's c5 fits both. Every reading of
    ``+l8`` takes nothing unusual for granted, every other an unpressed unseen step, so
    the question, never shown, settles as ``+l8`` at yellow's put-down (and the next
    question, red's d5, waits the same way, through yellow's thinking too)."""
    tracker = reed(WALLED)
    assert tracker.change("l8", True, 1.0) == []
    assert moves(tracker.change("c5", True, 2.0)) == ["+l8", "+c5"]
    assert tracker.change("d5", True, 3.0) == [] and tracker.prompt is None
    assert tracker.tick(4.0) == [] and tracker.prompt is None
    assert moves(tracker.change("c6", True, 9.0)) == ["+d5", "+c6"]


def test_an_answer_two_turns_late_takes_the_readings_that_followed_them():
    """As above, but the answer comes after red's next block too: the answer's readings
    followed the turns since, so yellow's c5 is committed with it (the tracker's own
    reading, stopped at the question, would have lost it), and red's e5 (a block, or an
    unseen step and yellow's block) waits unshown as any such question does, until red's
    press commits it."""
    tracker = reed(WALLED)
    tracker.change("l11", True, 1.0)
    tracker.change("c5", True, 1.5)
    tracker.change("e5", True, 2.0)
    assert moves(tracker.choose("+l11", 2.5)) == ["+l11", "+c5"]
    assert tracker.prompt is None
    assert moves(tracker.press("clock", 3.0, "red")) == ["+e5"]
    assert tracker.prompt is None and tracker.turns() == ["+l11", "+c5", "+e5"]
