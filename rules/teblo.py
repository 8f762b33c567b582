"""Teblo (Ton Custers, 1985-2015): race your pawn to the enemy base through a growing maze.

Rulings implemented (how the project reads the original text; ``docs/rules/teblo.md``):

- B-1 Board: 12x12 squares ``a1``..``l12`` (file ``a``..``l``, rank 1..12), orthogonal
  adjacency. Four coloured boxes: ``a1`` (yellow's base), ``l12`` (red's base), and the
  neutral boxes ``a12`` and ``l1``; the other 140 squares are white.
- B-2 ``yellow`` moves first; each side has a pawn on its own base and 25 blocking
  pieces ("stelstukken") in hand.
- B-3 A move is either a placement of an own block on an empty white square (no block,
  no pawn; never on a box), or a step of the own pawn to an orthogonal neighbour that is
  an empty white square, an own block or a coloured box -- never an enemy block, never
  the square of the other pawn except the opponent's base (the defender's pawn on its
  own base does not stop the attacker). A side without blocks in hand can only step.
- B-4 After a move each pawn must still reach both bases ``a1`` and ``l12`` through
  squares passable *for that pawn*: empty white squares, its own blocks and the boxes;
  pawns are ignored. A move that breaks this for either pawn is illegal.
- B-5 Entering the opponent's base wins at once; a side to move without a legal move
  loses.

Decisions on gaps (also in ``docs/rules/teblo.md``):

- A pawn may step back onto its own base (it is a coloured box, B-3). "Not allowed to
  defend the own base" in the original means only that standing there does not keep the
  attacker out (B-3 exception); it does not forbid the square.
- The game is over as soon as a pawn stands on the opponent's base: ``legal_moves()`` is
  then empty and ``outcome()`` names the pawn's owner.
- Both pawns on one base (attacker on the defender's base, the final position):
  ``physical()`` lists the base owner's pawn first (bottom, it was there first) and the
  attacker on top, e.g. ``{"l12": ("red", "yellow")}``. A pawn on its own block is
  ``("yellow-block", "yellow")``.
- ``from_position`` rejects positions that no game can reach: a pawn cut off from a
  base (B-4), blocks on boxes, a pawn on an enemy block, blocks on board + in hand
  other than 25, both pawns on a square other than a base, both sides having won, or
  the winner being the side to move.

How reachability is checked fast (B-4):

- A placement by side X on square s turns an empty square into an X block. For X's own
  pawn s stays passable, so X's graph does not change; only the opponent Y's graph
  (empty white + Y's blocks + boxes) loses s. So a placement is illegal exactly when s
  separates Y's pawn from ``a1`` or from ``l12`` in Y's graph.
- Those squares are found with one iterative depth-first search (Hopcroft-Tarjan
  low-points) rooted at Y's pawn: a vertex v on the tree path from the root to a base t
  separates them iff its child c on that path has ``low[c] >= disc[v]``. One search per
  position replaces a breadth-first search per candidate square.
- Pawn steps never change any graph (pawns are ignored; a step only moves the own pawn
  inside its own graph, onto a square of that graph), so a step allowed by B-3 is always
  B-4-safe. The tests check this claim against a naive search per move.

Notation (position independent): ``+f6`` places the mover's block on f6; ``f6-f7`` steps
the mover's pawn from f6 to f7 (orthogonal neighbours only).

Position text: ``yellow:PAWN:HAND:BLOCKS red:PAWN:HAND:BLOCKS TO_MOVE`` where BLOCKS is a
comma-separated list of squares (possibly empty), e.g. the start is
``yellow:a1:25: red:l12:25: yellow``.

>>> state = new_game()
>>> state.push_str("+f6")
Move(frm='', to='f6')
>>> state.push_str("l12-l11")
Move(frm='l12', to='l11')
>>> state.position_str()
'yellow:a1:24:f6 red:l11:25: yellow'
>>> state.move_str(state.pop())
'l12-l11'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .base import GameState, Outcome
from .errors import MoveSyntaxError, PositionError
from .geometry import Cell, Geometry, grid

NAME = "teblo"
PLAYERS = ("yellow", "red")
PIECES = ("yellow", "red", "yellow-block", "red-block")
SIZE = 12
BLOCKS_PER_SIDE = 25
BASES = {"yellow": "a1", "red": "l12"}
NEUTRAL_BOXES = ("a12", "l1")


def _build():
    plain = grid(SIZE, SIZE)
    labels = {BASES["yellow"]: "yellow", BASES["red"]: "red"}
    labels.update({n: "neutral" for n in NEUTRAL_BOXES})
    cells = tuple(
        Cell(c.name, c.x, c.y, "box", label=labels[c.name]) if c.name in labels else c
        for c in plain.cells
    )
    geometry = Geometry(cells, plain.adjacency)
    names = geometry.names
    index = {n: i for i, n in enumerate(names)}
    adj = tuple(tuple(index[m] for m in geometry.adjacency[n]) for n in names)
    return names, index, adj, geometry


CELLS, _INDEX, _ADJ, GEOMETRY = _build()
_N = len(CELLS)
_BASE = (None, _INDEX[BASES["yellow"]], _INDEX[BASES["red"]])  # by side 1 / 2
_A1, _L12 = _BASE[1], _BASE[2]
_IS_BOX = tuple(c.shape == "box" for c in GEOMETRY.cells)
_WHITE = tuple(i for i in range(_N) if not _IS_BOX[i])


class Move(NamedTuple):
    """``frm`` is ``""`` for a placement (``+to``), else the pawn's square (``frm-to``)."""

    frm: str
    to: str

    @property
    def is_placement(self) -> bool:
        return not self.frm

    def __str__(self) -> str:
        return f"{self.frm}-{self.to}" if self.frm else f"+{self.to}"


_PLACE = {i: Move("", CELLS[i]) for i in _WHITE}
_STEP = {(i, j): Move(CELLS[i], CELLS[j]) for i in range(_N) for j in _ADJ[i]}
# Placements in sorted Move order, so generation needs no sort for them.
_PLACE_ORDER = tuple(sorted(_WHITE, key=lambda i: _PLACE[i]))
_BY_TEXT = {str(m): m for m in (*_PLACE.values(), *_STEP.values())}
_SQUARE = r"[a-l](?:1[0-2]|[1-9])"
_MOVE_RE = re.compile(rf"^(?:\+({_SQUARE})|({_SQUARE})-({_SQUARE}))$")


#: A wall's preorder number in :func:`_cut_squares`: above every square's.
_WALL = _N + 1


@lru_cache(maxsize=4096)
def _cut_squares(walls: int, root: int) -> frozenset[int]:
    """Squares whose loss would cut the pawn on ``root`` off a base, in its graph.

    The graph is every square not in ``walls``, a bit mask of the enemy blocks (so empty
    white squares, own blocks and boxes). Iterative Hopcroft-Tarjan: ``disc`` are preorder
    numbers, ``low`` low-points; a wall's number, :data:`_WALL`, makes it neither a square
    to enter nor a back edge. The answer depends on nothing else, and a search meets the
    same blocks and pawn again and again (a pawn step or a block of the pawn's own side
    leaves them), so the last few thousand answers are kept.
    """
    disc = [0] * _N
    while walls:
        square = walls & -walls
        disc[square.bit_length() - 1] = _WALL
        walls ^= square
    low = [0] * _N
    parent = [-1] * _N
    disc[root] = low[root] = 1
    t = 1
    adj = _ADJ
    stack = [(root, iter(adj[root]))]  # (vertex, its neighbours not yet looked at)
    while stack:
        v, todo = stack[-1]
        for w in todo:
            dw = disc[w]
            if not dw:  # tree edge: descend, come back to v's remaining neighbours later
                parent[w] = v
                t += 1
                disc[w] = low[w] = t
                stack.append((w, iter(adj[w])))
                break
            if dw < low[v] and w != parent[v]:  # back edge
                low[v] = dw
        else:  # v finished: hand its low-point to its parent
            stack.pop()
            if stack:
                u = stack[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
    cuts: set[int] = set()
    for target in (_A1, _L12):  # boxes: never walls
        if not disc[target]:
            raise ValueError(f"pawn on {CELLS[root]} cannot reach {CELLS[target]}")
        c, v = target, parent[target]
        while v != -1 and v != root:
            if low[c] >= disc[v]:
                cuts.add(v)
            c, v = v, parent[v]
    return frozenset(cuts)


_ALL = (1 << _N) - 1
_FILE_A = sum(1 << (SIZE * r) for r in range(SIZE))
_NOT_A, _NOT_L = _ALL & ~_FILE_A, _ALL & ~(_FILE_A << (SIZE - 1))
_BOTH_BASES = (1 << _A1) | (1 << _L12)


def _reaches_bases(board: list[int], side: int, start: int) -> bool:
    """Can ``side``'s pawn on ``start`` reach both bases? A flood fill on bit masks."""
    enemy = 3 - side
    passable = _ALL
    for i, v in enumerate(board):
        if v == enemy:
            passable ^= 1 << i
    reach = 1 << start
    while reach & _BOTH_BASES != _BOTH_BASES:
        grown = (reach | ((reach << 1) & _NOT_A) | ((reach >> 1) & _NOT_L)
                 | (reach << SIZE) | (reach >> SIZE)) & passable
        if grown == reach:
            return False
        reach = grown
    return True


class TebloState(GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY

    def __init__(
        self,
        board: list[int] | None = None,
        pawns: tuple[int, int] | None = None,
        hands: tuple[int, int] = (BLOCKS_PER_SIDE, BLOCKS_PER_SIDE),
        turn: int = 1,
        blocks: tuple[int, int] | None = None,
    ) -> None:
        # board[i]: 0 empty (white square or box), 1 yellow block, 2 red block.
        # Lists indexed by side 1 (yellow) / 2 (red); index 0 unused.
        super().__init__()
        self._board = board if board is not None else [0] * _N
        # _blocks[side]: the squares of the side's blocks as a bit mask (bit i: square i),
        # given by a copy or read off the board.
        if blocks is None:
            masks = [0, 0, 0]
            for i, v in enumerate(self._board):
                masks[v] |= 1 << i
            blocks = (masks[1], masks[2])
        self._blocks = [0, *blocks]
        self._pawn = [-1, *(pawns if pawns is not None else (_A1, _L12))]
        self._hand = [0, *hands]
        self._turn = turn
        # Caches of this position besides its legal moves, dropped by push/pop.
        self._cuts: frozenset[int] | None = None
        self._text: str | None = None

    # -- queries ---------------------------------------------------------------------------

    def pawn(self, player: str) -> str:
        """The square of ``player``'s pawn."""
        return CELLS[self._pawn[PLAYERS.index(player) + 1]]

    def hand(self, player: str) -> int:
        """How many blocks ``player`` still has to place."""
        return self._hand[PLAYERS.index(player) + 1]

    def blocks(self, player: str) -> list[str]:
        """The squares holding ``player``'s blocks, in board order (a1, b1, .., l12)."""
        side = PLAYERS.index(player) + 1
        return [CELLS[i] for i, v in enumerate(self._board) if v == side]

    def _winner(self) -> int:
        """The side whose pawn stands on the opponent's base, else 0."""
        if self._pawn[1] == _L12:
            return 1
        if self._pawn[2] == _A1:
            return 2
        return 0

    def _cut_set(self) -> frozenset[int]:
        """Squares a placement by the side to move may not take (B-4), for this position."""
        if self._cuts is None:
            me = self._turn
            self._cuts = _cut_squares(self._blocks[me], self._pawn[3 - me])
        return self._cuts

    def stock(self) -> dict[str, dict[str, int]]:
        """Each side's blocks still in hand (B-2)."""
        return {player: {f"{player}-block": self._hand[p]}
                for p, player in enumerate(PLAYERS, start=1)}

    def stock_piece(self) -> str:
        """The piece the side to move puts down from its hand: a blocking piece."""
        return f"{self.to_move}-block"

    def hint_cells(self) -> list[str]:
        """The ``hint`` button shows the squares where a block would cut a path."""
        return self.cutting_placements()

    def cutting_placements(self) -> list[str]:
        """Empty white squares where a block of the side to move would cut a pawn off (B-4).

        For the LED hints; listed whether or not the side to move still has blocks, sorted
        like the moves. Only the opponent's pawn can be cut off: the mover's own block stays
        passable for the mover's pawn.
        """
        if self._winner():
            return []
        b, pawns, cuts = self._board, self._pawn, self._cut_set()
        return [
            CELLS[i] for i in _PLACE_ORDER
            if i in cuts and not b[i] and i != pawns[1] and i != pawns[2]
        ]

    def _generate(self) -> list[Move]:
        if self._winner():
            return []
        b, me = self._board, self._turn
        enemy = 3 - me
        mine, theirs = self._pawn[me], self._pawn[enemy]
        moves: list[Move] = []
        if self._hand[me]:
            cuts = self._cut_set()
            place = _PLACE
            moves = [
                place[i] for i in _PLACE_ORDER
                if not b[i] and i != mine and i != theirs and i not in cuts
            ]
        moves.extend(sorted(self._steps()))
        return moves

    def _steps(self) -> list[Move]:
        """The pawn steps of the side to move (B-3), unsorted."""
        b, me = self._board, self._turn
        enemy = 3 - me
        mine, theirs = self._pawn[me], self._pawn[enemy]
        return [_STEP[mine, j] for j in _ADJ[mine]
                if b[j] != enemy and (j != theirs or j == _BASE[enemy])]

    def outcome(self) -> Outcome | None:
        won = self._winner()
        if won:
            return Outcome(PLAYERS[won - 1], "reached the opponent's base")
        # A pawn step is found without the cut squares a placement needs: after a turn
        # the game's end is known at once, and the moves are listed later (an idle scan).
        if self._legal is None and self._steps():
            return None
        if not self.legal_moves():
            return Outcome(PLAYERS[2 - self._turn], "no legal move")
        return None

    # -- moves -----------------------------------------------------------------------------

    def _play(self, move: Move) -> None:
        me = self._turn
        if move.frm:
            self._pawn[me] = _INDEX[move.to]
        else:
            square = _INDEX[move.to]
            self._board[square] = me
            self._blocks[me] |= 1 << square
            self._hand[me] -= 1
        self._turn = 3 - me
        self._cuts = self._text = None

    def _unplay(self, move: Move, undo: None) -> None:
        me = self._turn = 3 - self._turn
        if move.frm:
            self._pawn[me] = _INDEX[move.frm]
        else:
            square = _INDEX[move.to]
            self._board[square] = 0
            self._blocks[me] ^= 1 << square
            self._hand[me] += 1
        self._cuts = self._text = None

    def _copy(self) -> TebloState:
        other = TebloState(list(self._board), (self._pawn[1], self._pawn[2]),
                           (self._hand[1], self._hand[2]), self._turn,
                           (self._blocks[1], self._blocks[2]))
        # Caches are never mutated, only replaced, so sharing them is safe.
        other._cuts, other._text = self._cuts, self._text
        return other

    def move_str(self, move: Move) -> str:
        return str(move)

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A turn in words for a question's button, and the piece it puts down or moves.

        >>> state = from_position("yellow:b2:22:b1,b2,c2 red:l12:25: yellow")
        >>> state.decision_words(state.parse_move("+c3"))
        ('Yellow block on c3', ('yellow-block',))
        >>> state.decision_words(state.parse_move("b2-c2"))
        ('Yellow pawn from b2 to c2, onto its own block', ('yellow',))
        """
        me = self._turn
        name = PLAYERS[me - 1]
        if not move.frm:
            return f"{name.capitalize()} block on {move.to}", (f"{name}-block",)
        text = f"{name.capitalize()} pawn from {move.frm} to {move.to}"
        to = _INDEX[move.to]
        if self._board[to] == me:
            text += ", onto its own block"
        elif to == _BASE[3 - me]:
            text += f", onto {PLAYERS[2 - me]}'s base"
        return text, (name,)

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise MoveSyntaxError(f"not a Teblo move: {text!r} (expected a string)")
        move = _BY_TEXT.get(text)
        if move is not None:
            return move
        norm = text.strip().lower()
        move = _BY_TEXT.get(norm)
        if move is not None:
            return move
        m = _MOVE_RE.match(norm)
        if m and m[1]:
            why = f"{m[1]} is a coloured box; blocks go on white squares only"
        elif m:
            why = f"{m[2]} and {m[3]} are not orthogonal neighbours"
        else:
            why = "expected '+f6' (place a block) or 'f6-f7' (step the pawn)"
        raise MoveSyntaxError(f"not a Teblo move: {text!r}: {why}")

    # -- text and pieces -------------------------------------------------------------------

    def position_str(self) -> str:
        if self._text is None:
            blocks: tuple[list[str], list[str], list[str]] = ([], [], [])
            for i, v in enumerate(self._board):
                if v:
                    blocks[v].append(CELLS[i])
            pawn, hand = self._pawn, self._hand
            self._text = (
                f"yellow:{CELLS[pawn[1]]}:{hand[1]}:{','.join(blocks[1])} "
                f"red:{CELLS[pawn[2]]}:{hand[2]}:{','.join(blocks[2])} {self.to_move}"
            )
        return self._text

    def physical(self) -> dict[str, tuple[str, ...]]:
        out = {CELLS[i]: (PIECES[v + 1],) for i, v in enumerate(self._board) if v}
        for side in (1, 2):
            name = CELLS[self._pawn[side]]
            out[name] = (*out.get(name, ()), PIECES[side - 1])
        both = self._pawn[1] == self._pawn[2]
        if both and self._pawn[1] == _A1:  # red attacker on yellow's base: yellow below
            out[CELLS[_A1]] = ("yellow", "red")
        elif both:  # yellow attacker on red's base: red below
            out[CELLS[_L12]] = ("red", "yellow")
        return out


def new_game() -> TebloState:
    return TebloState()


def from_position(text: str) -> TebloState:
    """Read ``yellow:a1:24:f6 red:l11:25: yellow`` (per side pawn:hand:blocks, then mover)."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 3 or parts[2] not in PLAYERS:
        raise PositionError(
            "Teblo position must be 'yellow:PAWN:HAND:BLOCKS red:PAWN:HAND:BLOCKS PLAYER', "
            f"got {text!r}"
        )
    board = [0] * _N
    pawns = [-1, -1, -1]
    hands = [0, 0, 0]

    def square(name: str, what: str) -> int:
        if name not in _INDEX:
            raise PositionError(
                f"unknown Teblo square {name!r} ({what}); squares are a1..l12"
            )
        return _INDEX[name]

    for side, (player, part) in enumerate(zip(PLAYERS, parts[:2], strict=True), start=1):
        fields = part.split(":")
        if len(fields) != 4 or fields[0] != player:
            raise PositionError(
                f"expected '{player}:PAWN:HAND:BLOCKS' in Teblo position, got {part!r}"
            )
        _, pawn, hand, blocks = fields
        pawns[side] = square(pawn, f"{player} pawn")
        if not hand.isdigit():
            raise PositionError(f"{player}'s blocks in hand must be a number, got {hand!r}")
        hands[side] = int(hand)
        names = [c for c in blocks.split(",") if c]
        for name in names:
            i = square(name, f"{player} block")
            if _IS_BOX[i]:
                raise PositionError(f"{player} block on {name}: a coloured box takes no block")
            if board[i]:
                raise PositionError(f"square {name} holds two blocks")
            board[i] = side
        if len(names) + hands[side] != BLOCKS_PER_SIDE:
            much = "too many" if len(names) + hands[side] > BLOCKS_PER_SIDE else "too few"
            raise PositionError(
                f"{much} {player} blocks: {len(names)} on the board + {hands[side]} in hand; "
                f"a side has {BLOCKS_PER_SIDE}"
            )
    for side, player in enumerate(PLAYERS, start=1):
        if board[pawns[side]] == 3 - side:
            raise PositionError(f"{player} pawn on {CELLS[pawns[side]]}, an enemy block")
    if pawns[1] == pawns[2] and pawns[1] not in (_A1, _L12):
        raise PositionError(
            f"both pawns on {CELLS[pawns[1]]}; they share only a base (attacker on it)"
        )
    state = TebloState(board, (pawns[1], pawns[2]), (hands[1], hands[2]),
                       PLAYERS.index(parts[2]) + 1)
    if pawns[1] == _L12 and pawns[2] == _A1:
        raise PositionError("both pawns stand on the opponent's base; only one side can win")
    won = state._winner()
    if won and won == state._turn:
        raise PositionError(f"{PLAYERS[won - 1]} has already won and cannot be to move")
    for side, player in enumerate(PLAYERS, start=1):
        if won:
            ok = _reaches_bases(board, side, pawns[side])
        elif side != state._turn and hands[state._turn]:
            # The cut-square search legal_moves() needs anyway checks B-4 for this pawn.
            try:
                state._cut_set()
                ok = True
            except ValueError:
                ok = False
        else:
            ok = _reaches_bases(board, side, pawns[side])
        if not ok:
            raise PositionError(
                f"{player} pawn on {CELLS[pawns[side]]} cannot reach both bases a1 and l12 "
                "(B-4)"
            )
    return state
