"""The search tree's nodes and the arithmetic on them: pure values, no game logic.

A node stands for the position after the moves on its path. Values are scores of the
first player (``PLAYERS[0]``): 1 a win, 0 a loss, 0.5 a tie; :func:`score` turns one into
any player's. A decision node's children are chosen by UCT; a chance node's (one per
outcome of ``chance_outcomes()``) are visited in proportion to their probabilities and its
value is their probability-weighted mean, so a die is averaged over its faces.

>>> coin = Node("chance")
>>> coin.probs = {"hit": 0.25, "miss": 0.75}
>>> for face, won in (("hit", 1.0), ("miss", 0.0), ("miss", 0.0)):
...     child = coin.children.setdefault(face, Node("me"))
...     child.visits += 1; child.total += won; coin.visits += 1; coin.total += won
>>> coin.mean(), coin.value()
(0.3333333333333333, 0.25)
>>> stratified_outcome(coin)
'miss'
"""

from __future__ import annotations

import math
from collections.abc import Hashable


class Node:
    """One position of the tree: its statistics and the moves still to be tried."""

    __slots__ = ("player", "untried", "children", "probs", "visits", "total", "proven")

    def __init__(self, player: str | None) -> None:
        self.player = player            # to_move; None until the position is first listed
        self.untried: list[Hashable] | None = None
        self.children: dict[Hashable, Node] = {}
        self.probs: dict[Hashable, float] = {}   # chance nodes: each outcome's probability
        self.visits = 0
        self.total = 0.0
        # The exact value of a solved node (the game's end, or a forced win), else None.
        self.proven: float | None = None

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.5

    def value(self) -> float:
        """The node's value, first player's score: exact once solved, the expectation at
        a chance node, else the mean of its playouts."""
        if self.proven is not None:
            return self.proven
        if self.probs and self.visits:
            return expectation(self)
        return self.mean()


def score(value: float, player: str, first: str) -> float:
    """``value`` (the first player's score) as ``player``'s score."""
    return value if player == first else 1.0 - value


def expectation(node: Node) -> float:
    """A chance node's value: its outcomes' means weighted by their probabilities; an
    outcome not yet visited counts at the node's own mean."""
    fallback = node.mean()
    return sum(p * (node.children[m].value() if m in node.children else fallback)
               for m, p in node.probs.items())


def uct_child(node: Node, first: str, exploration: float) -> Hashable:
    """The child of decision node ``node`` with the highest upper confidence bound for the
    player to move there; a child already proven won for that player is taken at once."""
    log_n = math.log(max(node.visits, 1))
    win = score(1.0, node.player, first)
    best, best_bound = None, -1.0
    for move, child in node.children.items():
        if child.proven == win:
            return move
        q = score(child.value(), node.player, first)
        bound = q + exploration * math.sqrt(log_n / (child.visits + 1))
        if bound > best_bound:
            best, best_bound = move, bound
    return best


def stratified_outcome(node: Node) -> Hashable:
    """The outcome of chance node ``node`` furthest behind its share of the visits
    (deterministic stratified sampling: after n visits each face has had about p·n)."""
    return min(node.probs, key=lambda m: (node.children[m].visits if m in node.children
                                          else 0) / node.probs[m])


def widening_allows(node: Node, widening: tuple[float, float] | None,
                    widest: int | None = None) -> bool:
    """Whether ``node`` may add a child now: always without progressive widening, else
    while it has fewer than ``k * visits ** alpha`` (at least one) and fewer than
    ``widest``."""
    if widening is None:
        return True
    if widest is not None and len(node.children) >= widest:
        return False
    k, alpha = widening
    return len(node.children) < max(1.0, k * (node.visits + 1) ** alpha)


def solve(node: Node, first: str) -> None:
    """Mark ``node`` proven when it is decided: a decision node with a child won for its
    player, or any node whose outcomes or moves are all tried and all proven the same."""
    if node.proven is not None or node.player is None:
        return
    proofs = [c.proven for c in node.children.values()]
    win = score(1.0, node.player, first)
    if not node.probs and win in proofs:
        node.proven = win
    elif not node.untried and len(proofs) >= max(1, len(node.probs)) and \
            proofs[0] is not None and proofs.count(proofs[0]) == len(proofs):
        node.proven = proofs[0]


def best_move(node: Node, first: str) -> Hashable:
    """The move to play from ``node``: a proven win, else the most visited child (its
    value for the player to move breaks ties)."""
    return ranked(node, first)[0]


def ranked(node: Node, first: str) -> list[Hashable]:
    """``node``'s children's moves best first: proven wins for the player to move (in the
    order they were added), then by visits, the value for that player breaking ties."""
    win = score(1.0, node.player, first)

    def key(move: Hashable) -> tuple:
        child = node.children[move]
        if child.proven == win:
            return (True, 0, 0.0)
        return (False, child.visits, score(child.value(), node.player, first))

    return sorted(node.children, key=key, reverse=True)
