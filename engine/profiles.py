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
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

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


class _Cells:
    """A geometry's cells as the bits of an int (cell i of ``geometry.cells`` is bit i) and
    its adjacency as shifts: each difference ``d`` of index between a cell and a neighbour,
    with the mask of the cells that have a neighbour ``d`` on. A breadth-first search then
    grows a whole layer by a few operations on ints instead of a step per cell."""

    def __init__(self, geometry) -> None:
        self.names: tuple[str, ...] = geometry.names
        self.bit = {name: 1 << i for i, name in enumerate(self.names)}
        self.bases = {c.label: c.name for c in geometry.cells if c.shape == "box" and c.label}
        index = {name: i for i, name in enumerate(self.names)}
        shifts: dict[int, int] = {}
        for i, name in enumerate(self.names):
            for other in geometry.adjacency[name]:
                shift = index[other] - i
                shifts[shift] = shifts.get(shift, 0) | 1 << i
        self.shifts = tuple(shifts.items())

    def around(self, cells: int) -> int:
        """``cells`` and all their neighbours."""
        out = cells
        for shift, having in self.shifts:
            part = cells & having
            out |= part << shift if shift > 0 else part >> -shift
        return out

    def names_in(self, mask: int) -> list[str]:
        """The names of the cells of ``mask``."""
        found = []
        while mask:
            low = mask & -mask
            found.append(self.names[low.bit_length() - 1])
            mask ^= low
        return found


_CELLS: dict[type, _Cells] = {}


@lru_cache(maxsize=1024)
def _layers(cells: _Cells, start: str, walls: int) -> tuple[int, ...]:
    """The cells by distance from ``start`` not entering ``walls`` (a mask), layer k those
    at distance k. A search meets the same walls and start again and again (a step leaves
    every block where it was), so the last thousand are kept."""
    layer = seen = cells.bit[start]
    out = [layer]
    while layer:
        layer = cells.around(layer) & ~(seen | walls)
        seen |= layer
        out.append(layer)
    return tuple(out[:-1])


def _depth(layers: tuple[int, ...], bit: int, default: int) -> int:
    """The layer holding the cell ``bit``, else ``default``."""
    for k, layer in enumerate(layers):
        if layer & bit:
            return k
    return default


def _teblo_board(state) -> tuple[_Cells, dict[str, str], dict[str, int]]:
    """Teblo's cells, and its pawns and blocks (a mask of cells) by player, from what the
    rules publish."""
    cells = _CELLS.get(type(state))
    if cells is None:
        cells = _CELLS[type(state)] = _Cells(state.GEOMETRY)
    pawns, blocks = {}, dict.fromkeys(state.PLAYERS, 0)
    for cell, pieces in state.physical().items():
        for piece in pieces:
            if piece in blocks:
                pawns[piece] = cell
            else:
                blocks[piece.removesuffix("-block")] |= cells.bit[cell]
    return cells, pawns, blocks


def teblo(state) -> float:
    """The race: each pawn's shortest path to the enemy base through what it may cross
    (everything but enemy blocks), the side to move a half step ahead. Its length is read
    off the distances from the base, which the ordering keeps (neighbours are mutual)."""
    cells, pawns, blocks = _teblo_board(state)
    first, second = state.PLAYERS
    ahead = {}
    for me, them in ((first, second), (second, first)):
        race = _layers(cells, cells.bases[them], blocks[them])
        ahead[me] = _depth(race, cells.bit[pawns[me]], len(cells.names))
    tempo = 0.5 if state.to_move == first else -0.5
    return _squash(0.45 * (ahead[second] - ahead[first] + tempo))


@lru_cache(maxsize=1024)
def _blocking(cells: _Cells, pawn: str, base: str, walls: int) -> dict[str, float]:
    """The squares on some shortest path of the pawn on ``pawn`` to ``base`` through all but
    ``walls``, each ``2 + 3 / n``, n the squares on such paths as far from the pawn.

    Read off the distances from ``base``: at distance k from the pawn the paths hold the
    cells of the base's layer ``length - k`` next to those at k - 1 (neighbours are
    mutual; a pawn always reaches both bases, B-4). Kept like :func:`_layers`: never
    change a returned dict."""
    back = _layers(cells, base, walls)
    length = _depth(back, cells.bit[pawn], len(cells.names))
    worth: dict[str, float] = {}
    on_path = cells.bit[pawn]
    for k in range(length, -1, -1):  # from the pawn's layer to the base
        on_path &= back[k]
        worth.update(dict.fromkeys(cells.names_in(on_path), 2.0 + 3.0 / on_path.bit_count()))
        on_path = cells.around(on_path)
    return worth


def teblo_order(state, moves: list) -> list:
    """Teblo's moves by a glance at the race, the most promising last: a step into the
    enemy base, then a block on a square every shortest path of the opponent crosses,
    a step nearer the enemy base, a block on some shortest path of the opponent (the
    fewer squares share its distance, the better), any other step, any other block."""
    cells, pawns, blocks = _teblo_board(state)
    me = state.to_move
    them = next(p for p in state.PLAYERS if p != me)
    goal, bit = cells.bases[them], cells.bit
    mine = _layers(cells, goal, blocks[them])
    worth = _blocking(cells, pawns[them], cells.bases[me], blocks[me])

    def promise(move) -> float:
        if move.frm:
            if move.to == goal:
                return 9.0
            nearer = _depth(mine, bit[move.to], 0) < _depth(mine, bit[move.frm], 0)
            return 4.0 if nearer else 1.0
        return worth.get(move.to, 0.0)

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
