"""What the search does differently per game: cheap evaluations and the settings that pay.

An evaluation is a pure function of a position to the first player's expected score in
(0, 1); it cuts a rollout short after ``rollout_depth`` decisions. It reads only what the
rules publish for every game (``physical()``, ``captured()``, ``stock()``, ``home()``, the
geometry), never a game's internals.

>>> import rules
>>> PROFILES["telec"].evaluate(rules.new_game("telec"))
0.5
>>> profile("no such game").evaluate is None
True
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

Evaluation = Callable[[object], float]


@dataclass(frozen=True)
class Profile:
    """How to search one game.

    ``rollout_depth``: decisions a rollout plays before it is scored by ``evaluate`` (or
    counted a tie without one); ``widening``: ``(k, alpha)`` of progressive widening, a node
    with n visits having at most ``k * n ** alpha`` children (``None``: every move at once)
    and never more than ``widest`` (``None``: no bound), so that past it more playouts go
    deeper into the same decisions rather than wider;
    ``transpositions``: positions reached by different orders share one node;
    ``decisive_scan``: below the root, a node with at most this many moves tries each to
    find one that wins at once (the root always does); ``ordered``: every node tries its
    moves best first by ``evaluate`` just after each (winning moves first), so widening
    looks at the promising ones (a push, an evaluation and a pop per move listed);
    ``order``: the game's own cheaper ordering instead, ``order(state, moves)`` giving the
    moves the most promising last, so widening looks at those first; ``guided``: the
    probability that a rollout's decision is the first of ``order`` rather than a uniform
    random one (rollouts that play the game's way see its plans a random one misses);
    ``guard``: the decision a search returns is checked against the opponent's wins within
    this many decisions of its next turn (:mod:`engine.guard`; 0: not checked);
    ``focus``: ``(n, c)``, from a search's n-th playout on its nodes explore with ``c``
    instead of ``exploration`` and add their untried moves best first, as ``ordered``
    does (each node sorts them when it next widens), so that a search past n playouts
    goes deeper into the likely lines and sees replies such as a recapture that random
    order adds late; a search of at most n playouts is unchanged;
    ``focus_widest``: from the same playout on, nodes add at most this many decisions
    instead of ``widest`` (``None``: ``widest`` still), so that a search past n playouts
    also looks at the decisions the bound kept from smaller ones."""

    evaluate: Evaluation | None = None
    rollout_depth: int = 400
    widening: tuple[float, float] | None = None
    widest: int | None = None
    transpositions: bool = False
    exploration: float = 0.8
    decisive_scan: int = 64
    ordered: bool = False
    order: Callable[[object, list], list] | None = None
    guided: float = 0.0
    guard: int = 0
    focus: tuple[int, float] | None = None
    focus_widest: int | None = None


def _squash(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def tessella(state) -> float:
    """Captures made (the fourth wins) and pieces left."""
    first, second = state.PLAYERS
    taken = state.captured()
    return _squash(0.9 * (taken[first] - taken[second]))


def tulaga(state) -> float:
    """Rank stones still to place (none left wins), simple stones in hand (none loses)."""
    first, second = state.PLAYERS
    piles = state.stock()
    rank = piles[second][f"{second}-rank"] - piles[first][f"{first}-rank"]
    simple = piles[first][first] - piles[second][second]
    return _squash(0.8 * rank + 0.08 * simple)


def telec(state) -> float:
    """Pyramids in the Center Zone (twelve win) count double those on the board."""
    first, second = state.PLAYERS
    home, stash = state.home(), state.stock()

    def progress(player: str) -> int:
        on_board = 12 - home[player] - sum(stash[player].values())
        return 2 * home[player] + on_board

    return _squash(0.2 * (progress(first) - progress(second)))


def _goal_distance(adjacency: dict, start: str, goal: str, walls: set[str]) -> int:
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return seen[cell]
        for nxt in adjacency[cell]:
            if nxt not in seen and nxt not in walls:
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
    return len(adjacency)


def _distances(adjacency: dict, start: str, walls: set[str]) -> dict[str, int]:
    """Every cell's distance from ``start`` not crossing ``walls`` (unreachable: absent)."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in adjacency[cell]:
            if nxt not in seen and nxt not in walls:
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
    return seen


def _teblo_board(state) -> tuple[dict, dict, dict]:
    """Teblo's bases, pawns and blocks, each by player, from what the rules publish."""
    cells = state.GEOMETRY.cells
    bases = {c.label: c.name for c in cells if c.shape == "box" and c.label}
    pawns, blocks = {}, {p: set() for p in state.PLAYERS}
    for cell, pieces in state.physical().items():
        for piece in pieces:
            if piece in blocks:
                pawns[piece] = cell
            else:
                blocks[piece.removesuffix("-block")].add(cell)
    return bases, pawns, blocks


def teblo(state) -> float:
    """The race: each pawn's shortest path to the enemy base through what it may cross
    (everything but enemy blocks), the side to move a half step ahead."""
    geometry = state.GEOMETRY
    bases, pawns, blocks = _teblo_board(state)
    first, second = state.PLAYERS
    ahead = {}
    for me, them in ((first, second), (second, first)):
        ahead[me] = _goal_distance(geometry.adjacency, pawns[me], bases[them], blocks[them])
    tempo = 0.5 if state.to_move == first else -0.5
    return _squash(0.45 * (ahead[second] - ahead[first] + tempo))


def teblo_order(state, moves: list) -> list:
    """Teblo's moves by a glance at the race, the most promising last: a step into the
    enemy base, then a block on a square every shortest path of the opponent crosses,
    a step nearer the enemy base, a block on some shortest path of the opponent (the
    fewer squares share its distance, the better), any other step, any other block."""
    adjacency = state.GEOMETRY.adjacency
    bases, pawns, blocks = _teblo_board(state)
    me = state.to_move
    them = next(p for p in state.PLAYERS if p != me)
    mine = _distances(adjacency, bases[them], blocks[them])
    theirs = _distances(adjacency, pawns[them], blocks[me])
    back = _distances(adjacency, bases[me], blocks[me])
    length = theirs.get(bases[me], len(adjacency))
    layers: dict[int, int] = {}
    on_path = {c for c, d in theirs.items() if d + back.get(c, len(adjacency)) == length}
    for cell in on_path:
        layers[theirs[cell]] = layers.get(theirs[cell], 0) + 1

    def promise(move) -> float:
        if move.frm:
            if move.to == bases[them]:
                return 9.0
            return 4.0 if mine.get(move.to, 0) < mine.get(move.frm, 0) else 1.0
        if move.to not in on_path:
            return 0.0
        return 2.0 + 3.0 / layers[theirs[move.to]]

    return sorted(moves, key=promise)


#: Tesulda piece weights: a star rates three, a hexagon doubles a rating.
_TESULDA = {"star": 3.0, "hexagon": 2.0, "crown": 0.0}


def tesulda(state) -> float:
    """Material: each figure's base and the pieces on it, a star and a hexagon dearer."""
    first, _ = state.PLAYERS
    balance = 0.0
    for pieces in state.physical().values():
        worth = 1.0 + sum(_TESULDA.get(piece, 1.0) for piece in pieces[1:])
        balance += worth if pieces[0].startswith(first) else -worth
    return _squash(0.12 * balance)


PROFILES: dict[str, Profile] = {
    "tessella": Profile(tessella, rollout_depth=30),
    "tulaga": Profile(tulaga, rollout_depth=24, widening=(2.0, 0.5), ordered=True),
    "telec": Profile(telec, rollout_depth=40),
    "teblo": Profile(teblo, rollout_depth=8, widening=(2.0, 0.5), widest=23,
                     exploration=0.3, decisive_scan=0, order=teblo_order, guided=0.8,
                     focus=(512, 0.3), focus_widest=45),
    "tesulda": Profile(tesulda, rollout_depth=10, widening=(2.0, 0.5), decisive_scan=100,
                       guard=2, focus=(512, 0.3)),
}


def profile(game: str) -> Profile:
    """The settings for ``game``: its own, or plain UCT with full rollouts."""
    return PROFILES.get(game, Profile())
