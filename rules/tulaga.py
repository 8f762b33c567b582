"""Tulaga: five in a row or four around a point earns a rank stone; place all of them to win.

Rulings implemented (how the project reads the original text; ``docs/rules/tulaga.md``):

- U-1 Board: the 9x9 = 81 points ``a1``..``i9`` (files a..i, ranks 1..9). ``black``
  moves first, then ``white``. Directions: N = towards rank 9, E = towards file i.
- U-2 Piles: 12 simple and 6 rank stones each; ``new_game(rank_stones=4|5|6)``.
- U-3 A turn places one own simple stone on an empty point. A player who begins a
  turn with no simple stone in the pile has lost (``outcome()``, reason
  ``"no simple stone"``).
- U-4 Row Tulaga: 5 consecutive own simple stones on a rank, file or diagonal,
  one of them the stone just placed; rank stones and enemy stones break a row. In a
  longer run every window of 5 consecutive stones holding the new stone is a
  separate choice.
- U-5 Perimeter Tulaga: an inner point P (files b..h, ranks 2..8), empty, with at
  least 4 own simple stones among its 8 neighbours, the new stone one of them.
  With more than 4, every choice of 4 that includes the new stone is a separate
  choice.
- U-6 Claim or decline. Claiming returns the 5 (row) or 4 (perimeter) stones to
  the pile, then places a rank stone on one of the 5 row points or on P.
- U-7 Optional reap N, E, S or W from the rank stone to the edge, worked outward:
  enemy simple stones return to their owner's pile; each enemy rank stone is
  replaced by one of the player's rank stones and returns to its owner's pile.
  A direction with no enemy stone is "no reap" and not a move of its own. If a
  replacement empties the player's rank pile the player has won and the rest of
  the line stays.
- U-8 One placement making several Tulagas: at most one is claimed, so every
  Tulaga (and every choice inside it) is its own move.
- U-9 A player whose rank pile becomes empty wins at once (``"all rank stones
  placed"``); when the claim's own rank stone empties it, no reap follows. Only
  Tulagas that contain the stone just placed are offered, so a declined Tulaga
  comes back only when a later placement makes it again.

A :class:`Move` is a whole turn. Notation (position independent)::

    move   = point [ "*" stones "@" point [ ">" dir ] ]
    stones = 5 points (row) or 4 points (perimeter), written without separator
             in name order (any order is read)
    dir    = "N" | "E" | "S" | "W"

``e5`` places on e5 (and declines any Tulaga); ``e5*a1b2c3d4e5@c3`` claims the
row a1..e5 with the rank stone on c3; ``e5*a1b2c3d4e5@c3>N`` also reaps north;
``d4*c4c6d4e5@d5>W`` claims the perimeter of d5 (rank stone on d5) and reaps west.

Position text (see :func:`from_position`)::

    black:e5,f5 white:c3 black-rank:d4 white-rank: piles:10+5,11+6 rank-stones:6 white

Gaps decided here (not in the rulings):

- A row claim with the same 5 stones but a different rank point, and a perimeter
  claim of the same 4 stones around a different P, are different moves (the board
  differs afterwards).
- Stones are conserved: a position text whose board plus pile is not 12 simple and
  ``rank-stones`` rank stones per colour is rejected, and so is one where the
  player to move has an empty rank pile (the game ended on that player's turn).
- If the player to move has no simple stone, ``legal_moves()`` is empty and
  ``outcome()`` says the other player won (U-3); an emptied rank pile (U-9) is
  reported first, as it happened earlier.

>>> state = new_game()
>>> state.push_str("e5")
Move(point='e5', stones=(), rank='', reap='')
>>> state.move_str(state.pop())
'e5'
"""

from __future__ import annotations

import re
from itertools import combinations, compress
from operator import itemgetter, not_
from typing import NamedTuple

from .base import GameState, Outcome
from .errors import MoveSyntaxError, PositionError
from .geometry import Cell, Geometry
from .geometry import rays as geometry_rays

NAME = "tulaga"
PLAYERS = ("black", "white")
PIECES = ("black", "white", "black-rank", "white-rank")
SIMPLE_STONES = 12
RANK_OPTIONS = (4, 5, 6)
DEFAULT_RANK_STONES = 6
ROW = 5
PERIMETER = 4
SIZE = 9
_FILES = "abcdefghi"

# Directions in order N NE E SE S SW W NW (dx = file, dy = rank); d and d ^ 4 are opposite.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
REAPS = ("N", "E", "S", "W")
_REAP_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
_REAP_DIR = {"N": 0, "E": 2, "S": 4, "W": 6}


def _build():
    coords = [(x, y) for y in range(SIZE) for x in range(SIZE)]  # a1 b1 .. i1 a2 .. i9
    names = tuple(f"{_FILES[x]}{y + 1}" for x, y in coords)
    rays = geometry_rays(coords, DIRECTIONS)
    nbrs = tuple(
        tuple(sorted((r[0] for r in rays[i] if r), key=lambda j: names[j]))
        for i in range(len(coords))
    )
    inner = tuple(len(n) == 8 for n in nbrs)
    centres = tuple(tuple(c for c in nbrs[i] if inner[c]) for i in range(len(coords)))
    cells = tuple(Cell(n, float(x), float(y), "point") for n, (x, y) in zip(names, coords,
                                                                           strict=True))
    geometry = Geometry(cells, {names[i]: tuple(names[j] for j in a) for i, a in enumerate(nbrs)})
    return names, rays, nbrs, inner, centres, geometry


POINTS, _RAYS, _NBRS, _INNER, _CENTRES, GEOMETRY = _build()
_INDEX = {n: i for i, n in enumerate(POINTS)}
_BY_NAME = tuple(sorted(range(len(POINTS)), key=lambda i: POINTS[i]))  # index order of names
_GET_BY_NAME = itemgetter(*_BY_NAME)
_RANGE = range(len(POINTS))


class Move(NamedTuple):
    """One whole turn: the placement, and optionally the claimed Tulaga and the reap.

    ``stones`` are the Tulaga's simple stones in name order (``()`` when nothing is
    claimed), ``rank`` is where the rank stone goes (``""`` when nothing is claimed),
    ``reap`` is ``"N"``, ``"E"``, ``"S"``, ``"W"`` or ``""``.
    """

    point: str
    stones: tuple[str, ...] = ()
    rank: str = ""
    reap: str = ""

    def __str__(self) -> str:
        if not self.stones:
            return self.point
        text = f"{self.point}*{''.join(self.stones)}@{self.rank}"
        return f"{text}>{self.reap}" if self.reap else text


_PLACE = tuple(Move(n) for n in POINTS)
_PLACE_BY_NAME = tuple(_PLACE[i] for i in _BY_NAME)
_CLAIMS: dict[tuple, Move] = {}  # (point, stones, rank, reap) as indices -> cached Move


def _claim_move(p: int, stones: tuple[int, ...], r: int, reap: str) -> Move:
    key = (p, stones, r, reap)
    move = _CLAIMS.get(key)
    if move is None:
        names = tuple(sorted(POINTS[s] for s in stones))
        move = _CLAIMS[key] = Move(POINTS[p], names, POINTS[r], reap)
    return move


_MOVE_RE = re.compile(r"^([a-i][1-9])(?:\*((?:[a-i][1-9])+)@([a-i][1-9])(?:>([nesw]))?)?$")


def _row_shape(stones: list[int]) -> bool:
    """True if the 5 points are consecutive on one line."""
    want = set(stones)
    return any(
        len(_RAYS[s][d]) >= ROW - 1 and want == {s, *_RAYS[s][d][: ROW - 1]}
        for s in stones for d in range(4)
    )


class TulagaState(GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY

    def __init__(
        self,
        board: list[int] | None = None,
        turn: int = 1,
        simple: tuple[int, int] = (SIMPLE_STONES, SIMPLE_STONES),
        rank: tuple[int, int] | None = None,
        rank_stones: int = DEFAULT_RANK_STONES,
    ) -> None:
        # board[i]: 0 empty, 1 black, 2 white, 3 black rank, 4 white rank; turn: 1 or 2
        super().__init__()
        self._board = board if board is not None else [0] * len(POINTS)
        self._turn = turn
        self.rank_stones = rank_stones
        self._simple = [0, *simple]
        self._rank = [0, *(rank if rank is not None else (rank_stones, rank_stones))]

    # --- contract -------------------------------------------------------------------

    def piles(self, player: str) -> tuple[int, int]:
        """``(simple, rank)`` stones in ``player``'s pile."""
        p = PLAYERS.index(player) + 1
        return self._simple[p], self._rank[p]

    def stock(self) -> dict[str, dict[str, int]]:
        """Each player's pile (U-2): simple and rank stones not on the board."""
        return {player: {player: self._simple[p], f"{player}-rank": self._rank[p]}
                for p, player in enumerate(PLAYERS, start=1)}

    def _rows(self, p: int, a: int) -> list[tuple[tuple[int, ...], int]]:
        b, me = self._board, self._turn
        back = []
        for j in _RAYS[p][a + 4]:
            if b[j] != me:
                break
            back.append(j)
        fwd = []
        for j in _RAYS[p][a]:
            if b[j] != me:
                break
            fwd.append(j)
        run = len(back) + 1 + len(fwd)
        if run < ROW:
            return []
        line = [*reversed(back), p, *fwd]
        k = len(back)
        out = []
        for start in range(max(0, k - ROW + 1), min(k, run - ROW) + 1):
            window = tuple(line[start:start + ROW])
            out.extend((window, r) for r in window)
        return out

    def _generate(self) -> list[Move]:
        if self.outcome() is not None:
            return []
        b, me = self._board, self._turn
        moves = list(compress(_PLACE_BY_NAME, map(not_, _GET_BY_NAME(b))))
        if SIMPLE_STONES - self._simple[me] < PERIMETER - 1:  # own simple stones on the board
            return moves
        own = list(compress(_RANGE, map(me.__eq__, b)))
        found: dict[int, list] = {}
        if len(own) >= ROW - 1:
            # a row holds an own stone next to the new one: look past each own run's ends
            candidates = set()
            for s in own:
                rays = _RAYS[s]
                for d in range(8):
                    ray = rays[d]
                    if not ray or b[ray[0]]:
                        continue
                    p = ray[0]
                    n = 2  # s and p
                    for j in rays[d ^ 4]:
                        if b[j] != me:
                            break
                        n += 1
                    for j in _RAYS[p][d]:
                        if b[j] != me:
                            break
                        n += 1
                    if n >= ROW:
                        candidates.add((p, d & 3))
            for p, a in candidates:
                found.setdefault(p, []).extend(self._rows(p, a))
        count = [0] * len(POINTS)
        hot = []  # centres with PERIMETER - 1 own simple neighbours or more
        for s in own:
            for c in _CENTRES[s]:
                count[c] += 1
                if count[c] == PERIMETER - 1:
                    hot.append(c)
        for c in hot:
            if b[c]:
                continue
            mine = [j for j in _NBRS[c] if b[j] == me]
            trios = list(combinations(mine, PERIMETER - 1))
            for p in _NBRS[c]:
                if not b[p]:
                    found.setdefault(p, []).extend(((*t, p), c) for t in trios)
        if not found:
            return moves
        enemy = 3 - me
        last_rank = self._rank[me] == 1
        reapable: dict[int, list[str]] = {}
        for p, claims in found.items():
            for stones, r in claims:
                moves.append(_claim_move(p, stones, r, ""))
                if last_rank:
                    continue
                dirs = reapable.get(r)
                if dirs is None:
                    dirs = reapable[r] = [
                        reap for reap in REAPS
                        if any(b[j] == enemy or b[j] == enemy + 2
                               for j in _RAYS[r][_REAP_DIR[reap]])
                    ]
                for reap in dirs:
                    moves.append(_claim_move(p, stones, r, reap))
        moves.sort()
        return moves

    def _play(self, move: Move) -> tuple:
        b, me = self._board, self._turn
        piles = (*self._simple, *self._rank)
        p = _INDEX[move.point]
        changes = [(p, b[p])]
        b[p] = me
        simple, rank = self._simple, self._rank
        simple[me] -= 1
        if move.stones:
            for name in move.stones:
                s = _INDEX[name]
                changes.append((s, b[s]))
                b[s] = 0
            simple[me] += len(move.stones)
            r = _INDEX[move.rank]
            changes.append((r, b[r]))
            b[r] = me + 2
            rank[me] -= 1
            if move.reap and rank[me]:
                enemy = 3 - me
                for j in _RAYS[r][_REAP_DIR[move.reap]]:
                    v = b[j]
                    if v == enemy:
                        changes.append((j, v))
                        b[j] = 0
                        simple[enemy] += 1
                    elif v == enemy + 2:
                        changes.append((j, v))
                        b[j] = me + 2
                        rank[enemy] += 1
                        rank[me] -= 1
                        if not rank[me]:
                            break
        self._turn = 3 - me
        return changes, piles

    def _unplay(self, move: Move, undo: tuple) -> None:
        changes, piles = undo
        b = self._board
        for i, v in reversed(changes):
            b[i] = v
        self._simple = list(piles[:3])
        self._rank = list(piles[3:])
        self._turn = 3 - self._turn

    def _copy(self) -> TulagaState:
        return TulagaState(list(self._board), self._turn, tuple(self._simple[1:]),
                           tuple(self._rank[1:]), self.rank_stones)

    def outcome(self) -> Outcome | None:
        for p, player in enumerate(PLAYERS, start=1):
            if not self._rank[p]:
                return Outcome(player, "all rank stones placed")
        if not self._simple[self._turn]:
            return Outcome(PLAYERS[2 - self._turn], "no simple stone")
        return None

    def move_str(self, move: Move) -> str:
        return str(move)

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A turn in words for a question's button, and the stones it puts down.

        >>> state = new_game()
        >>> for text in ("a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9"):
        ...     _ = state.push_str(text)
        >>> state.decision_words(state.parse_move("e1"))
        ('Black stone on e1, Tulaga declined', ('black',))
        >>> state.decision_words(state.parse_move("e1*a1b1c1d1e1@c1"))
        ('Black stone on e1, claims the row a1 to e1, rank stone on c1', ('black', 'black-rank'))
        >>> state = from_position("black:c4,c6,e5 white:d6 black-rank: white-rank:d7 "
        ...                       "piles:9+6,11+5 rank-stones:6 black")
        >>> print(state.decision_words(state.parse_move("d4*c4c6d4e5@d5>N"))[0])
        ... # doctest: +NORMALIZE_WHITESPACE
        Black stone on d4, claims the four around d5, rank stone on d5, reaps north: takes
        white's d6, replaces white's rank stone on d7
        """
        me = PLAYERS[self._turn - 1]
        text = f"{me.capitalize()} stone on {move.point}"
        if not move.stones:
            if any(m.point == move.point and m.stones for m in self.legal_moves()):
                text += ", Tulaga declined"
            return text, (me,)
        text += (f", claims the row {move.stones[0]} to {move.stones[-1]}"
                 if len(move.stones) == ROW else f", claims the four around {move.rank}")
        text += f", rank stone on {move.rank}"
        if move.reap:
            text += f", reaps {_REAP_WORDS[move.reap]}: {self._reap_words(move)}"
        return text, (me, f"{me}-rank")

    def _reap_words(self, move: Move) -> str:
        """What ``move``'s reap takes and replaces, outward from its rank stone (U-7)."""
        enemy = PLAYERS[2 - self._turn]
        after = self.clone()
        after.push(move)
        before, now = self._board, after._board
        line = [POINTS[j] for j in _RAYS[_INDEX[move.rank]][_REAP_DIR[move.reap]]
                if before[j] != now[j]]
        taken = [p for p in line if not now[_INDEX[p]]]
        replaced = [p for p in line if now[_INDEX[p]]]
        words = [f"takes {enemy}'s {', '.join(taken)}"] if taken else []
        if replaced:
            stones = "rank stone" if len(replaced) == 1 else "rank stones"
            words.append(f"replaces {enemy}'s {stones} on {', '.join(replaced)}")
        return ", ".join(words)

    def parse_move(self, text: str) -> Move:
        m = _MOVE_RE.match(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise MoveSyntaxError(
                f"not a Tulaga move: {text!r} (expected e.g. 'e5', 'e5*a1b2c3d4e5@c3' "
                f"or 'e5*a1b2c3d4e5@c3>N')"
            )
        point, stones_text, rank, reap = m.groups()
        if stones_text is None:
            return _PLACE[_INDEX[point]]
        names = [stones_text[i:i + 2] for i in range(0, len(stones_text), 2)]
        where = f"in Tulaga move {text!r}"
        if len(set(names)) != len(names):
            raise MoveSyntaxError(f"a stone is named twice {where}")
        if point not in names:
            raise MoveSyntaxError(
                f"the placed stone {point} must be one of the Tulaga's stones {where}"
            )
        idx = [_INDEX[n] for n in names]
        r = _INDEX[rank]
        if len(names) == ROW:
            if not _row_shape(idx):
                raise MoveSyntaxError(f"the 5 stones are not consecutive on one line {where}")
            if rank not in names:
                raise MoveSyntaxError(f"a row's rank stone goes on one of its 5 points {where}")
        elif len(names) == PERIMETER:
            if not _INNER[r] or not set(idx) <= set(_NBRS[r]):
                raise MoveSyntaxError(
                    f"a perimeter's 4 stones must surround the rank point {rank}, an inner "
                    f"point (b2..h8) {where}"
                )
        else:
            raise MoveSyntaxError(
                f"a Tulaga has 5 (row) or 4 (perimeter) stones, not {len(names)} {where}"
            )
        return Move(point, tuple(sorted(names)), rank, (reap or "").upper())

    def position_str(self) -> str:
        b = self._board
        parts = [
            f"{piece}:{','.join(POINTS[i] for i in _BY_NAME if b[i] == v)}"
            for v, piece in enumerate(PIECES, start=1)
        ]
        parts.append(f"piles:{self._simple[1]}+{self._rank[1]},{self._simple[2]}+{self._rank[2]}")
        parts.append(f"rank-stones:{self.rank_stones}")
        parts.append(self.to_move)
        return " ".join(parts)

    def physical(self) -> dict[str, tuple[str, ...]]:
        return {POINTS[i]: (PIECES[v - 1],) for i, v in enumerate(self._board) if v}

    def stages(self, move: Move) -> list[dict[str, tuple[str, ...]]]:
        """The positions a claimed turn passes through on the board, before its end:
        the simple stone placed (U-3), then the Tulaga's stones back in the pile and the
        rank stone down (U-6); the reap (U-7) ends the turn. A placement alone has none."""
        if not move.stones:
            return []
        player = self.to_move
        placed = self.physical()
        placed[move.point] = (player,)
        claimed = {c: p for c, p in placed.items() if c not in move.stones}
        claimed[move.rank] = (f"{player}-rank",)
        return [placed, claimed] if move.reap else [placed]


def _check_rank_stones(rank_stones: object) -> int:
    if type(rank_stones) is not int or rank_stones not in RANK_OPTIONS:
        raise ValueError(
            f"Tulaga rank_stones must be 4, 5 or 6 (U-2), got {rank_stones!r}"
        )
    return rank_stones


def new_game(rank_stones: int = DEFAULT_RANK_STONES) -> TulagaState:
    """The empty board, 12 simple and ``rank_stones`` (4, 5 or 6) rank stones per pile."""
    n = _check_rank_stones(rank_stones)
    return TulagaState(rank_stones=n)


_FORMAT = ("'black:POINTS white:POINTS black-rank:POINTS white-rank:POINTS "
           "piles:S+R,S+R rank-stones:N PLAYER'")


def from_position(text: str) -> TulagaState:
    """Read a position written by ``position_str()``.

    Seven fields separated by spaces: the points (comma separated, maybe none) of
    black's simple stones, white's, black's rank stones and white's; the piles,
    black then white, each ``simple+rank``; the rank-stone option; the player to
    move. E.g. ``black:e5,f5 white:c3 black-rank:d4 white-rank: piles:10+5,11+6
    rank-stones:6 white``.
    """
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 7:
        raise PositionError(f"Tulaga position must be {_FORMAT}, got {text!r}")
    board = [0] * len(POINTS)
    count = [0] * 5
    for v, (piece, part) in enumerate(zip(PIECES, parts[:4], strict=True), start=1):
        label, sep, points = part.partition(":")
        if label != piece or not sep:
            raise PositionError(f"expected '{piece}:' in Tulaga position, got {part!r}")
        for point in (p for p in points.split(",") if p):
            if point not in _INDEX:
                raise PositionError(
                    f"unknown Tulaga point {point!r} in {piece!r}; points are a1..i9"
                )
            if board[_INDEX[point]]:
                raise PositionError(f"point {point} holds two stones")
            board[_INDEX[point]] = v
            count[v] += 1
    label, _, value = parts[5].partition(":")
    if label != "rank-stones":
        raise PositionError(f"expected 'rank-stones:N' in Tulaga position, got {parts[5]!r}")
    try:
        rank_stones = _check_rank_stones(int(value) if value.isdigit() else value)
    except ValueError as err:
        raise PositionError(str(err)) from None
    m = re.fullmatch(r"piles:(\d+)\+(\d+),(\d+)\+(\d+)", parts[4])
    if not m:
        raise PositionError(
            f"expected 'piles:S+R,S+R' (black, white; simple+rank) in Tulaga position, "
            f"got {parts[4]!r}"
        )
    simple = (int(m[1]), int(m[3]))
    rank = (int(m[2]), int(m[4]))
    for p, player in enumerate(PLAYERS, start=1):
        if count[p] + simple[p - 1] != SIMPLE_STONES:
            raise PositionError(
                f"{player} has {count[p]} simple stones on the board and {simple[p - 1]} in "
                f"the pile; a side has {SIMPLE_STONES}"
            )
        if count[p + 2] + rank[p - 1] != rank_stones:
            raise PositionError(
                f"{player} has {count[p + 2]} rank stones on the board and {rank[p - 1]} in "
                f"the pile; with rank-stones:{rank_stones} a side has {rank_stones}"
            )
    if parts[6] not in PLAYERS:
        raise PositionError(
            f"the player to move must be 'black' or 'white' in Tulaga position, got {parts[6]!r}"
        )
    turn = PLAYERS.index(parts[6]) + 1
    if not rank[turn - 1]:
        raise PositionError(
            f"{parts[6]} is to move with an empty rank pile; the game ended on {parts[6]}'s "
            f"own turn (U-9)"
        )
    return TulagaState(board, turn, simple, rank, rank_stones)
