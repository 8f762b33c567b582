"""Monte Carlo tree search over any game of the rules contract.

One tree level per decision: a turn of several decisions is several levels of the same
player, and a die roll is a chance node whose value is the probability-weighted mean of
its faces (see :mod:`engine.tree`). Each playout walks down by UCT, adds one node, and
scores it by a random rollout, cut short by the game's evaluation (:mod:`engine.profiles`).
A node whose player has a move that ends the game in their favour is solved at once.

>>> import rules
>>> state = rules.new_game("tessella")
>>> result = search(state, playouts=40, seed=1)
>>> state.is_legal(result.move), result.playouts
(True, 40)
>>> search(state, playouts=40, seed=1) == result
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import NamedTuple

import rules

from .guard import Guard
from .profiles import Profile, profile
from .tree import (
    Node,
    best_move,
    ranked,
    score,
    solve,
    stratified_outcome,
    uct_child,
    widening_allows,
)

#: Playouts per decision of each strength level.
LEVELS: dict[int, int] = {1: 8, 2: 32, 3: 128, 4: 512, 5: 2048}
#: Decisions a rollout plays at most when a game has no evaluation to cut it.
_ROLLOUT_CAP = 2000


class Result(NamedTuple):
    """What a search found: the decision to take, its expected score for the player to
    move (0 lost .. 1 won; 0.5 for a forced decision, which is not searched), the playouts
    made, and the turn the search expects the same player to take, the move first."""

    move: Hashable
    win: float
    playouts: int
    line: tuple[Hashable, ...]


class _Search:
    """One search's tree, working position and random stream."""

    def __init__(self, state: rules.GameState, seed: int, settings: Profile) -> None:
        self.work = state.clone()
        self.first = state.PLAYERS[0]
        self.rng = random.Random(seed)
        self.settings = settings
        self.table: dict[str, Node] | None = {} if settings.transpositions else None
        self.root = self.open(scan=len(state.legal_moves()))
        self.made = 0
        self.exploration = settings.exploration
        self.widest = settings.widest
        #: Once the profile's focus began: the nodes whose untried moves are sorted.
        self.sorted: set[Node] | None = None

    def result_score(self, outcome: rules.Outcome) -> float:
        if outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == self.first else 0.0

    def open(self, scan: int | None = None) -> Node:
        """A node for the working position, its moves listed or its value settled if the
        game is over. With at most ``scan`` moves (the profile's limit by default) those
        that win at once are found and tried first."""
        work = self.work
        node = Node(work.to_move)
        outcome = work.outcome()
        if outcome is not None:
            node.proven, node.untried = self.result_score(outcome), []
        elif node.player == rules.CHANCE:
            node.probs, node.untried = dict(work.chance_outcomes()), []
        else:
            moves = work.legal_moves()
            self.rng.shuffle(moves)
            if self.settings.order is not None:
                moves = self.settings.order(work, moves)
            elif self.settings.ordered:
                moves.sort(key=self.promise)  # the most promising last: popped first
            elif len(moves) <= (self.settings.decisive_scan if scan is None else scan):
                moves.sort(key=self.wins_at_once)  # winners last: popped first
            node.untried = moves
        return node

    def wins_at_once(self, move: Hashable) -> bool:
        work = self.work
        player = work.to_move
        work.push(move)
        outcome = work.outcome()
        work.pop()
        return outcome is not None and outcome.winner == player

    def promise(self, move: Hashable) -> float:
        """The mover's score just after ``move`` by the game's evaluation: 2 for a move
        that wins at once, -1 for one that loses."""
        work = self.work
        player = work.to_move
        work.push(move)
        outcome = work.outcome()
        if outcome is not None:
            value = 2.0 if outcome.winner == player else -1.0 if outcome.winner else 0.5
        else:
            value = score(self.settings.evaluate(work), player, self.first)
        work.pop()
        return value

    def child(self, node: Node, move: Hashable, path: list[Node]) -> Node:
        """The node after ``move`` (already pushed): a new one, or with transpositions
        the node of the same position reached by another order (never one on ``path``)."""
        if self.table is None:
            made = self.open()
        else:
            key = self.work.position_str()
            made = self.table.get(key)
            if made is None or made in path:
                made = self.open()
                self.table.setdefault(key, made)
        node.children[move] = made
        return made

    def rollout(self) -> float:
        work, rng, settings = self.work, self.rng, self.settings
        depth = settings.rollout_depth if settings.evaluate else _ROLLOUT_CAP
        played, value = 0, None
        while value is None:
            outcome = work.outcome()
            if outcome is not None:
                value = self.result_score(outcome)
            elif played >= depth:
                value = settings.evaluate(work) if settings.evaluate else 0.5
            else:
                work.push(work.sample_chance(rng) if work.to_move == rules.CHANCE
                          else self.rollout_move())
                played += 1
        for _ in range(played):
            work.pop()
        return value

    def rollout_move(self) -> Hashable:
        """A rollout's decision: uniform random, or with the profile's ``guided``
        probability the first of its ``order``."""
        moves, settings = self.work.legal_moves(), self.settings
        if settings.order is None or self.rng.random() >= settings.guided:
            return self.rng.choice(moves)
        self.rng.shuffle(moves)
        return settings.order(self.work, moves)[-1]

    def select(self, node: Node) -> Hashable:
        if node.probs:
            return stratified_outcome(node)
        settings = self.settings
        if node.untried and widening_allows(node, settings.widening, self.widest):
            if self.sorted is not None and node not in self.sorted:
                self.sorted.add(node)
                node.untried.sort(key=self.promise)  # the most promising last
            return node.untried.pop()
        return uct_child(node, self.first, self.exploration)

    def focus(self) -> None:
        """From the profile's ``focus`` playout on, explore with its constant, widen best
        first and to at most its ``focus_widest`` decisions a node."""
        focus = self.settings.focus
        if focus is not None and self.made == focus[0]:
            self.exploration = focus[1]
            if self.settings.focus_widest is not None:
                self.widest = self.settings.focus_widest
            if self.settings.order is None and not self.settings.ordered:
                self.sorted = set()

    def playout(self) -> None:
        self.focus()
        self.made += 1
        node, path, value = self.root, [self.root], None
        while value is None:
            if node.proven is not None:
                value = node.proven
                break
            move = self.select(node)
            self.work.push(move)
            nxt = node.children.get(move)
            if nxt is None:
                nxt = self.child(node, move, path)
                value = nxt.proven if nxt.proven is not None else self.rollout()
            elif nxt in path:  # a cycle through a transposition: score it from here
                value = self.rollout()
            path.append(nxt)
            node = nxt
        for _ in range(len(path) - 1):
            self.work.pop()
        for step in path:
            step.visits += 1
            step.total += value
        for step in reversed(path):
            solve(step, self.first)

    def result(self, playouts: int) -> Result:
        root, first = self.root, self.first
        if not root.children:
            return Result(root.untried[-1], 0.5, playouts, (root.untried[-1],))
        line = [self.guarded(ranked(root, first))]
        node = root.children.get(line[0], Node(None))
        chosen = node
        while node.children and node.player == root.player:
            move = best_move(node, first)
            line.append(move)
            node = node.children[move]
        return Result(line[0], score(chosen.value(), root.player, first), playouts,
                      tuple(line))

    def guarded(self, moves: list[Hashable]) -> Hashable:
        """The first of ``moves`` (the root's children, best first) that does not leave the
        opponent a win within the profile's ``guard`` decisions of its next turn, else the
        first decision not yet tried that does not; ``moves[0]`` when all do, the root is
        solved or the profile has no guard."""
        depth = self.settings.guard
        if not depth or self.root.proven is not None:
            return moves[0]
        guard = Guard(depth)
        for move in (*moves, *reversed(self.root.untried)):
            if not guard.doomed(self.work, move):
                return move
        return moves[0]


def budget(seconds: float | None, playouts: int | None, level: int | None) -> tuple:
    """``(seconds, playouts)`` of a search; raises ``ValueError`` for a bad or missing one."""
    if level is not None:
        if level not in LEVELS:
            raise ValueError(f"level {level!r}: levels are {', '.join(map(str, LEVELS))}")
        playouts = LEVELS[level] if playouts is None else playouts
    if seconds is None and playouts is None:
        raise ValueError("search needs a budget: seconds, playouts or level")
    if (seconds is not None and seconds <= 0) or (playouts is not None and playouts < 1):
        raise ValueError("search budget must be positive")
    return seconds, playouts


def search(state: rules.GameState, *, seconds: float | None = None,
           playouts: int | None = None, level: int | None = None, seed: int = 0,
           stop: Callable[[], bool] | None = None) -> Result:
    """The decision to take at ``state`` (a player's decision node of a running game).

    Stops at whichever budget comes first: ``seconds`` of wall time, ``playouts`` (or the
    playouts of strength ``level``), ``stop()`` turning true, or the position being
    solved. At least one playout is made. Under a playouts budget the result depends only
    on the position and ``seed``. A decision with one option is returned at once."""
    seconds, playouts = budget(seconds, playouts, level)
    if state.outcome() is not None or state.to_move == rules.CHANCE:
        raise ValueError(f"{state.NAME}: no decision to search at {state.position_str()!r}"
                         " (game over or chance node)")
    moves = state.legal_moves()
    if len(moves) == 1:
        return Result(moves[0], 0.5, 0, (moves[0],))
    tree = _Search(state, seed, profile(state.NAME))
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while done == 0 or not (
            (playouts is not None and done >= playouts)
            or (deadline is not None and time.perf_counter() >= deadline)
            or tree.root.proven is not None or (stop is not None and stop())):
        tree.playout()
        done += 1
    return tree.result(done)
