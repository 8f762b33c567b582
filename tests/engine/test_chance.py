"""Chance nodes are averaged over their outcomes with their probabilities, never taken as
known before the decision that precedes them."""

from collections import Counter

import engine
import rules
from engine.profiles import Profile
from engine.search import _Search


class Bet(rules.GameState):
    """A hand-made game of one bet: ``me`` settles for a tie, or calls ``hit`` or
    ``miss`` before a lopsided coin falls (hit 1/4, miss 3/4) and wins if it was right.

    Calling ``miss`` is worth 3/4, ``hit`` 1/4 and settling 1/2; a search that saw the
    coin before calling would think either call wins, and one that averaged the two
    faces unweighted would value both calls like settling."""

    NAME = "bet"
    PLAYERS = ("me", "you")
    HAS_CHANCE = True

    def __init__(self) -> None:
        super().__init__()
        self._turn = 1

    @property
    def to_move(self) -> str:
        return rules.CHANCE if len(self._stack) == 1 and self._stack[0] != "settle" \
            else "me"

    def _generate(self):
        return [] if self._stack else ["hit", "miss", "settle"]

    def chance_outcomes(self):
        return [("fell hit", 0.25), ("fell miss", 0.75)] if self.to_move == rules.CHANCE \
            else []

    def outcome(self):
        if self._stack == ["settle"]:
            return rules.Outcome(None, "settled")
        if len(self._stack) == 2:
            won = self._stack[1] == f"fell {self._stack[0]}"
            return rules.Outcome("me" if won else "you", "the coin fell")
        return None

    def _play(self, move):
        return None

    def _unplay(self, move, undo):
        pass

    def _copy(self):
        return Bet()

    def move_str(self, move):
        return move

    def parse_move(self, text):
        return text

    def position_str(self):
        return " ".join(self._stack) or "start"

    def physical(self):
        return {}


def test_a_call_before_the_coin_is_worth_its_expectation():
    result = engine.search(Bet(), playouts=400, seed=4)
    assert result.move == "miss"
    assert abs(result.win - 0.75) < 0.01


def test_the_coin_is_visited_in_proportion_to_its_probabilities():
    tree = _Search(Bet(), seed=0, settings=Profile())
    for _ in range(200):
        tree.playout()
    coin = tree.root.children["miss"]
    visits = {face: child.visits for face, child in coin.children.items()}
    assert abs(visits["fell hit"] / coin.visits - 0.25) < 0.02
    assert coin.value() == 0.75  # the first player's score: exactly the expectation


def test_telec_die_faces_are_visited_evenly():
    state = rules.new_game("telec")
    tree = _Search(state, seed=0, settings=engine.PROFILES["telec"])
    for _ in range(121):
        tree.playout()
    roll = tree.root.children[state.legal_moves()[0]]
    faces = Counter({face: child.visits for face, child in roll.children.items()})
    assert len(faces) == 6 and max(faces.values()) - min(faces.values()) <= 1
