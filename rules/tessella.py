"""Tessella (Michael Lefkowitz, 2019): octagons and squares, capture by shooting.

Rulings implemented (how the project reads the original text; ``docs/rules/tessella.md``):

- S-1 Board: 5x5 octagons ``a1``..``e5`` and 16 small squares named by the files
  and ranks they sit between (``ab12`` .. ``de45``): 41 spaces.
- S-2 Movement adjacency: an octagon touches its orthogonal octagons and its
  diagonal squares; a square touches its four octagons.
- S-3 ``clear`` moves first from e1 d1 c1 b1 e2 e3 e4; ``dark`` starts on
  a5 a4 a3 a2 b5 c5 d5.
- S-4 Capture lines: 8 directions from every space. On doubled coordinates
  (octagon ``(2f, 2r)``, square ``(2f+1, 2r+1)``) an orthogonal step is 2 and a
  diagonal step is 1, which gives octagon-octagon and square-square orthogonal
  lines and square/octagon alternating diagonal lines.
- S-5 Capture: looking backward along a line the first piece met is the shooter's
  own, forward the first piece met is an enemy; the shooter lands on the enemy's
  space, which leaves the game.
- S-6 One move or one capture per turn; the fourth capture wins at once; a player
  with no legal turn loses.

Notation (position independent): ``c1-c2`` for a move, ``c1xc3`` for a capture.

>>> state = new_game()
>>> state.push_str("e4-de45")
Move(frm='e4', to='de45', capture=False)
>>> state.move_str(state.pop())
'e4-de45'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .base import GameState, Outcome
from .errors import MoveSyntaxError, PositionError
from .geometry import Cell, Geometry
from .geometry import rays as geometry_rays

NAME = "tessella"
PLAYERS = ("clear", "dark")
PIECES = ("clear", "dark")
START = {
    "clear": ("e1", "d1", "c1", "b1", "e2", "e3", "e4"),
    "dark": ("a5", "a4", "a3", "a2", "b5", "c5", "d5"),
}
PIECES_PER_SIDE = 7
CAPTURES_TO_WIN = 4
_FILES = "abcde"

# Directions on doubled coordinates, in order N NE E SE S SW W NW: d and d ^ 4 are opposite.
DIRECTIONS = ((0, 2), (1, 1), (2, 0), (1, -1), (0, -2), (-1, -1), (-2, 0), (-1, 1))


def _name(x: int, y: int) -> str | None:
    if x % 2 == 0 and y % 2 == 0:
        return f"{_FILES[x // 2]}{y // 2 + 1}"
    if x % 2 == 1 and y % 2 == 1:
        return f"{_FILES[x // 2]}{_FILES[x // 2 + 1]}{y // 2 + 1}{y // 2 + 2}"
    return None


def _build():
    coords = [(x, y) for y in range(9) for x in range(9) if _name(x, y)]
    names = tuple(_name(x, y) for x, y in coords)
    rays = geometry_rays(coords, DIRECTIONS)
    adj = []
    for i, (x, _y) in enumerate(coords):
        octagon = x % 2 == 0
        near = [rays[i][d][0] for d in range(8) if rays[i][d] and (octagon or d % 2 == 1)]
        adj.append(tuple(sorted(near, key=lambda j: names[j])))
    cells = tuple(
        Cell(n, x / 2, y / 2, "octagon" if x % 2 == 0 else "square", 1.0 if x % 2 == 0 else 0.42)
        for n, (x, y) in zip(names, coords, strict=True)
    )
    geometry = Geometry(cells, {names[i]: tuple(names[j] for j in a) for i, a in enumerate(adj)})
    return names, rays, tuple(adj), geometry


CELLS, _RAYS, _ADJ, GEOMETRY = _build()
_INDEX = {n: i for i, n in enumerate(CELLS)}


class Move(NamedTuple):
    frm: str
    to: str
    capture: bool

    def __str__(self) -> str:
        return f"{self.frm}{'x' if self.capture else '-'}{self.to}"


_STEP = {(i, j): Move(CELLS[i], CELLS[j], False) for i in range(len(CELLS)) for j in _ADJ[i]}
_CAPTURE = {
    (i, j): Move(CELLS[i], CELLS[j], True)
    for i in range(len(CELLS)) for ray in _RAYS[i] for j in ray
}
_MOVE_RE = re.compile(r"^([a-e]{1,2}[1-5]{1,2})([-x])([a-e]{1,2}[1-5]{1,2})$")


class TessellaState(GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY

    def __init__(self, board: list[int] | None = None, turn: int = 1) -> None:
        # board[i]: 0 empty, 1 clear, 2 dark; turn: 1 or 2
        super().__init__()
        if board is None:
            board = [0] * len(CELLS)
            for p, player in enumerate(PLAYERS, start=1):
                for cell in START[player]:
                    board[_INDEX[cell]] = p
        self._board = board
        self._turn = turn

    def _generate(self) -> list[Move]:
        b, me = self._board, self._turn
        if min(b.count(1), b.count(2)) <= PIECES_PER_SIDE - CAPTURES_TO_WIN:
            return []  # the fourth capture has ended the game
        moves = []
        for s, owner in enumerate(b):
            if owner != me:
                continue
            for t in _ADJ[s]:
                if not b[t]:
                    moves.append(_STEP[s, t])
            rays = _RAYS[s]
            for d in range(8):
                for t in rays[d]:
                    if b[t]:
                        break
                else:
                    continue
                if b[t] == me:
                    continue
                for u in rays[d ^ 4]:
                    if b[u]:
                        if b[u] == me:
                            moves.append(_CAPTURE[s, t])
                        break
        moves.sort()
        return moves

    def _play(self, move: Move) -> None:
        b = self._board
        b[_INDEX[move.frm]] = 0
        b[_INDEX[move.to]] = self._turn
        self._turn = 3 - self._turn

    def _unplay(self, move: Move, undo: None) -> None:
        self._turn = 3 - self._turn
        b = self._board
        b[_INDEX[move.frm]] = self._turn
        b[_INDEX[move.to]] = 3 - self._turn if move.capture else 0

    def _copy(self) -> TessellaState:
        return TessellaState(list(self._board), self._turn)

    def captures(self, player: str) -> int:
        """How many enemy pieces ``player`` has captured."""
        enemy = 2 - PLAYERS.index(player)
        return PIECES_PER_SIDE - self._board.count(enemy)

    def captured(self) -> dict[str, int]:
        """Captures so far by each player; the fourth wins (S-6)."""
        return {player: self.captures(player) for player in PLAYERS}

    def outcome(self) -> Outcome | None:
        for player in PLAYERS:
            if self.captures(player) >= CAPTURES_TO_WIN:
                return Outcome(player, "fourth capture")
        # A step to an empty neighbour is found without listing every move: after a turn
        # the game's end is known at once, and the moves are listed later (an idle scan).
        if self._legal is None and self._can_step():
            return None
        if not self.legal_moves():
            return Outcome(PLAYERS[2 - self._turn], "no legal move")
        return None

    def _can_step(self) -> bool:
        """Whether a piece of the side to move has an empty neighbour."""
        b, me = self._board, self._turn
        return any(owner == me and not all(b[t] for t in _ADJ[s]) for s, owner in enumerate(b))

    def move_str(self, move: Move) -> str:
        return str(move)

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A turn in words for a question's button, and the piece that moves.

        >>> state = new_game()
        >>> state.decision_words(state.parse_move("e4-de45"))
        ('Clear piece from e4 to de45', ('clear',))
        >>> for text in ("b1-b2", "a3-ab23"): _ = state.push_str(text)
        >>> state.decision_words(state.parse_move("b2xa2"))
        ('Clear piece from b2 captures the dark piece on a2', ('clear',))
        """
        me, enemy = PLAYERS[self._turn - 1], PLAYERS[2 - self._turn]
        text = f"{me.capitalize()} piece from {move.frm} "
        if move.capture:
            return text + f"captures the {enemy} piece on {move.to}", (me,)
        return text + f"to {move.to}", (me,)

    def parse_move(self, text: str) -> Move:
        m = _MOVE_RE.match(text.strip().lower())
        if not m or m[1] not in _INDEX or m[3] not in _INDEX:
            raise MoveSyntaxError(
                f"not a Tessella move: {text!r} (expected e.g. 'c1-c2' or 'c1xc3')"
            )
        return Move(m[1], m[3], m[2] == "x")

    def position_str(self) -> str:
        parts = []
        for p, player in enumerate(PLAYERS, start=1):
            cells = sorted(CELLS[i] for i, v in enumerate(self._board) if v == p)
            parts.append(f"{player}:{','.join(cells)}")
        return " ".join(parts) + f" {self.to_move}"

    def physical(self) -> dict[str, tuple[str, ...]]:
        return {CELLS[i]: (PIECES[v - 1],) for i, v in enumerate(self._board) if v}


def new_game() -> TessellaState:
    return TessellaState()


def from_position(text: str) -> TessellaState:
    """Read ``clear:b1,c1 dark:a2,a3,a4 clear`` (pieces of each side, then who moves)."""
    parts = text.split()
    if len(parts) != 3 or parts[2] not in PLAYERS:
        raise PositionError(
            f"Tessella position must be 'clear:CELLS dark:CELLS PLAYER', got {text!r}"
        )
    board = [0] * len(CELLS)
    for p, (player, part) in enumerate(zip(PLAYERS, parts[:2], strict=True), start=1):
        label, _, cells = part.partition(":")
        if label != player:
            raise PositionError(f"expected '{player}:' in Tessella position, got {part!r}")
        names = [c for c in cells.split(",") if c]
        for cell in names:
            if cell not in _INDEX:
                raise PositionError(
                    f"unknown Tessella cell {cell!r}; valid cells: {', '.join(CELLS)}"
                )
            if board[_INDEX[cell]]:
                raise PositionError(f"cell {cell} holds two pieces")
            board[_INDEX[cell]] = p
        if not PIECES_PER_SIDE - CAPTURES_TO_WIN <= len(names) <= PIECES_PER_SIDE:
            raise PositionError(
                f"{player} has {len(names)} pieces; a Tessella side has "
                f"{PIECES_PER_SIDE - CAPTURES_TO_WIN} to {PIECES_PER_SIDE}"
            )
    return TessellaState(board, PLAYERS.index(parts[2]) + 1)
