"""A turn held because it may still go on, on the simulated board: the view's ``held``
phase, its cells in the LED role ``held``, the board's words, and the mover's clock
committing it at once; a turn that cannot go on is committed at its last event."""

import pytest

import rules
from boards.layout import layout_for_game
from boards.view import Phase
from hardware.clock import VirtualClock
from sensorboard import guidance
from sensorboard.replay import VirtualRun
from sensorboard.service import DEBOUNCE, BoardService

AT_ONCE = DEBOUNCE + 0.005  # a turn that cannot go on: committed within this of its event


class Board:
    """A simulated board on a virtual clock, played by hand."""

    def __init__(self, state):
        self.clock = VirtualClock()
        self.service = BoardService(state, layout_for_game(state.NAME), clock=self.clock,
                                    bounce=0.0, engine_hints=False)
        self.out = []
        self.run = VirtualRun(self.service, self.clock, self.out.append)

    def act(self, ops, t=1.0, step=0.4):
        """Lifts and places from ``t`` on, ``step`` apart; returns the last one's time."""
        script = [{"t": round(t + k * step, 3), "op": op, "cell": cell}
                  for k, (op, cell) in enumerate(ops)]
        self.run.play(script)
        return script[-1]["t"]

    def press(self, player, t):
        self.run.scan_until(t)
        self.out += self.service.press("clock", player)
        self.run.settle()

    def moves(self):
        return [(x["move"], x["t"]) for x in self.out if x["type"] == "move"]

    def close(self):
        self.service.close()


@pytest.fixture
def make():
    boards = []

    def board(state):
        boards.append(Board(state))
        return boards[-1]

    yield board
    for b in boards:
        b.close()


def assert_held(board, cells, turn_words):
    view = board.service.view
    assert view.phase is Phase.HELD and board.moves() == []
    assert {c for c, role in board.service.frame.items() if role == "held"} == cells
    advice = guidance.advice(board.service)
    assert advice["kind"] == "held"
    assert advice["text"].startswith("Held: press the clock to end the turn")
    assert turn_words in advice["text"]


@pytest.mark.parametrize("side", ["clear", None])  # the mover's side, the shared button
def test_a_tessella_capture_begun_with_the_shooter_is_held_until_the_movers_clock(make, side):
    state = rules.new_game("tessella")
    for move in ("b1-a1", "d5-e5"):
        state.push_str(move)
    board = make(state)
    # the shooter up first: the piece put on e5 may be the enemy put back, the shooter
    # still in hand (a move of e4 elsewhere)
    board.act([("lift", "e4"), ("lift", "e5"), ("place", "e5")])
    assert_held(board, {"e4", "e5"}, "Clear piece from e4 captures the dark piece on e5")
    board.press(side, 5.0)
    assert board.moves() == [("e4xe5", 5.0)]
    assert board.service.view.phase is not Phase.HELD


@pytest.mark.parametrize("side", ["black", None])
def test_a_tulaga_placement_that_may_become_a_claim_is_held_until_the_movers_clock(make, side):
    state = rules.from_position(
        "tulaga", "black:f8,g8,h8 white:e7 black-rank: white-rank: piles:9+6,11+6 "
                  "rank-stones:6 black")
    board = make(state)
    board.act([("place", "f6")])  # f6 and the row f8-h8 may still claim g7
    assert_held(board, {"f6"}, "f6")
    board.press(side, 4.0)
    assert board.moves() == [("f6", 4.0)]


@pytest.mark.parametrize("game, ops", [
    ("tessella", [("lift", "e4"), ("place", "e5")]),
    ("teblo", [("lift", "a1"), ("place", "b1")]),
])
def test_a_turn_that_cannot_go_on_is_committed_at_its_last_event(make, game, ops):
    board = make(rules.new_game(game))
    last = board.act(ops)
    [(move, t)] = board.moves()
    assert move == f"{ops[0][1]}-{ops[1][1]}"
    assert 0 <= t - last <= AT_ONCE
