"""Telec (Michael Schoessow, 2002): a race of piecepack pyramids into the Center Zone.

Rulings implemented (section Telec of the project's rulings, L-1..L-10):

- L-1 Board: 18 tiles, columns ``a``..``d`` from Red's left, rows ``1``..``5`` from Red's
  side; b3 and c3 are the hole, the Center Zone ``cz``, not tiles.
- L-2 Orthogonal steps, never across the hole; a5-d1 and d5-a1 are neighbours as well.
  ``cz`` is entered only from a3 or d3 and nothing leaves it.
- L-3 ``blue`` moves first; each side has 12 pyramids in its stash, two of each size 1
  (smallest) .. 6 (largest), and its own die.
- L-4 A die face indicates the roller's own tile of that value (``FACE_TILE``).
- L-5 A turn is a roll (then one entry or a forfeit) or one step of a piece on the
  board. Rolling is allowed whenever the stash is not empty; a player's first turn is a
  roll; with an empty stash the player steps; with no legal turn the player passes.
- L-6 Entering: a vacant tile takes any size (it must be entered); on an own piece a
  pyramid smaller than its top may be stacked; an enemy single may be bumped by a
  strictly bigger pyramid; otherwise (and by choice where there is one) the turn is
  forfeit (``none``).
- L-7 Power: any stack beats any single, stacks compare by count, singles by size.
  Stepping onto an enemy piece of equal or lesser power bumps it back to its owner's
  stash, unstacked.
- L-8 Stepping onto an own piece stacks the mover on top, only if every mover pyramid
  is smaller than the target's top; stacks never split, so at most 6 high. A piece
  stepping into ``cz`` leaves the game.
- L-9 All 12 own pyramids in the Center Zone win.
- L-10 Dice are a setting of the board, not of the rules: a roll is a chance node here.

A turn is several decisions (the OpenSpiel model, one ``push`` each): ``roll``, then
the die (``to_move == rules.CHANCE``, ``chance_outcomes()``: ``null``, ``ace``,
``2``..``5``), then the size entered (``1``..``6``) or ``none``; or one step
(``a3-a2``, ``d3-cz``); or ``pass``. A record writes a turn as its decisions joined by
spaces: ``roll 4 6``, ``roll null none``, ``d3-cz``.

>>> state = new_game()
>>> [state.move_str(m) for m in state.legal_moves()]
['roll']
>>> state.push_str("roll")
Move(frm='', to='roll')
>>> state.to_move
'chance'
>>> [(state.move_str(m), p) for m, p in state.chance_outcomes()][:2]
[('null', 0.16666666666666666), ('ace', 0.16666666666666666)]
>>> for text in ("4", "6"):
...     _ = state.push_str(text)
>>> state.to_move, state.physical()
('red', {'a1': ('blue-6',)})
>>> state.position_str()
'a1=b6 blue:11223344556:0 red:112233445566:0 red turn first'
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .base import CHANCE, GameState, Outcome
from .errors import MoveSyntaxError, PositionError
from .geometry import Cell, Geometry

NAME = "telec"
PLAYERS = ("blue", "red")
SIZES = (1, 2, 3, 4, 5, 6)
PER_SIZE = 2
PYRAMIDS = len(SIZES) * PER_SIZE
PIECES = tuple(f"{p}-{s}" for p in ("red", "blue") for s in SIZES)
FACES = ("null", "ace", "2", "3", "4", "5")
CENTER = "cz"
ENTRANCES = ("a3", "d3")
#: L-4: the tile each face of each player's die indicates.
FACE_TILE = {
    "red": {"null": "c1", "ace": "b1", "2": "d2", "3": "a2", "4": "d5", "5": "a5"},
    "blue": {"null": "b5", "ace": "c5", "2": "a4", "3": "d4", "4": "a1", "5": "d1"},
}
# L-1: (tile, label) row by row from Red's side, left to right; None is the hole.
_ROWS = (
    ("blue 4", "red ace", "red null", "blue 5"),
    ("red 3", "black 5", "black null", "red 2"),
    ("black 2", None, None, "black 3"),
    ("blue 2", "black ace", "black 4", "blue 3"),
    ("red 5", "blue null", "blue ace", "red 4"),
)
_CORNER_LINKS = (("a5", "d1"), ("d5", "a1"))


def _build() -> tuple[tuple[str, ...], Geometry]:
    cells, adjacency = [], {}
    names = [
        f"{'abcd'[x]}{y + 1}" for y, row in enumerate(_ROWS) for x, label in enumerate(row)
        if label is not None
    ]
    for y, row in enumerate(_ROWS):
        for x, label in enumerate(row):
            if label is None:
                continue
            name = f"{'abcd'[x]}{y + 1}"
            cells.append(Cell(name, float(x), float(y), "tile", label=label))
            near = [f"{'abcd'[x + dx]}{y + 1 + dy}"
                    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    if 0 <= x + dx < 4 and 0 <= y + dy < 5 and _ROWS[y + dy][x + dx]]
            near += [b for a, b in _CORNER_LINKS if a == name]
            near += [a for a, b in _CORNER_LINKS if b == name]
            if name in ENTRANCES:
                near.append(CENTER)
            adjacency[name] = tuple(sorted(near))
    cells.append(Cell(CENTER, 1.5, 2.0, "zone", 1.0, "center zone"))
    adjacency[CENTER] = ()
    hole = {"hole": {"cells": ["b3", "c3"], "x": 1.0, "y": 2.0, "width": 2.0, "height": 1.0,
                     "zone": CENTER, "entrances": list(ENTRANCES)}}
    assert names == [c.name for c in cells[:-1]]
    return tuple(c.name for c in cells), Geometry(tuple(cells), adjacency, hole)


CELLS, GEOMETRY = _build()
TILES = CELLS[:-1]
_INDEX = {n: i for i, n in enumerate(CELLS)}
_CZ = _INDEX[CENTER]
_ADJ = tuple(tuple(_INDEX[m] for m in GEOMETRY.adjacency[n]) for n in TILES)
_FACE_INDEX = {side: {f: _INDEX[t] for f, t in FACE_TILE[p].items()}
               for side, p in ((1, "blue"), (2, "red"))}
_COLOUR = ("", "blue", "red")
_LETTER = ("", "b", "r")


class Move(NamedTuple):
    """One decision. ``frm`` is the tile a piece steps from (``a3-cz``); otherwise ``frm``
    is ``""`` and ``to`` is a word: ``roll``, ``pass``, ``none``, a die face (``null``,
    ``ace``, ``2``..``5``) or a pyramid size (``1``..``6``). The same word ``2`` is a face
    at the die and a size after it: a decision is read in the position it is made in."""

    frm: str
    to: str

    def __str__(self) -> str:
        return f"{self.frm}-{self.to}" if self.frm else self.to


ROLL, PASS, NONE = Move("", "roll"), Move("", "pass"), Move("", "none")
_WORD = {w: Move("", w) for w in ("roll", "pass", "none", *FACES, *(str(s) for s in SIZES))}
_FACE_MOVE = tuple(_WORD[f] for f in FACES)
_SIZE_MOVE = (None, *(_WORD[str(s)] for s in SIZES))
_STEP = {(i, j): Move(TILES[i], CELLS[j]) for i in range(len(TILES)) for j in _ADJ[i]}
_BY_TEXT = {str(m): m for m in (*_WORD.values(), *_STEP.values())}
_STEP_RE = re.compile(r"^([a-d][1-5]|cz)-([a-d][1-5]|cz)$")


def power(stack: tuple[int, ...]) -> tuple[int, int]:
    """L-7: a piece's power; any stack (by count) beats any single (by size)."""
    return (1, len(stack)) if len(stack) > 1 else (0, stack[0])


class TelecState(GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY
    HAS_CHANCE = True
    TURN_DECISIONS = 3  # roll, the die, the size entered
    STOCK_WORDS = "in the stash"  # L-1
    HOME_WORDS = "in the Center Zone"

    def __init__(self) -> None:
        super().__init__()
        n = len(TILES)
        self._owner = [0] * n  # 0 vacant, 1 blue, 2 red
        self._tile: list[tuple[int, ...]] = [()] * n  # sizes bottom to top
        self._stash = [[], [0, *[PER_SIZE] * 6], [0, *[PER_SIZE] * 6]]  # per side, per size
        self._center = [0, 0, 0]  # pyramids in the Center Zone per side
        self._turn = 1
        self._phase = "turn"  # "turn" (roll or step), "roll" (the die), or the face rolled
        self._first = True  # the mover's first turn (blue's is the game's first)

    # -- queries ---------------------------------------------------------------------------

    @property
    def to_move(self) -> str:
        return CHANCE if self._phase == "roll" else PLAYERS[self._turn - 1]

    @property
    def player(self) -> str:
        """The player whose turn it is, also while their die rolls."""
        return PLAYERS[self._turn - 1]

    def stash(self, player: str) -> dict[int, int]:
        """How many pyramids of each size ``player`` has off the board (not in ``cz``)."""
        counts = self._stash[PLAYERS.index(player) + 1]
        return {s: counts[s] for s in SIZES if counts[s]}

    def center(self, player: str) -> int:
        """How many of ``player``'s pyramids are in the Center Zone."""
        return self._center[PLAYERS.index(player) + 1]

    def stock(self) -> dict[str, dict[str, int]]:
        """Each player's stash by pyramid (``{"blue": {"blue-6": 2, ..}}``)."""
        return {p: {f"{p}-{s}": n for s, n in self.stash(p).items()} for p in PLAYERS}

    def home(self) -> dict[str, int]:
        """Each player's pyramids in the Center Zone."""
        return {p: self.center(p) for p in PLAYERS}

    @property
    def rolled(self) -> str | None:
        """The face rolled this turn, while the entry is still to be decided."""
        return self._phase if self._phase in FACES else None

    def indicated(self) -> str | None:
        """The tile the face rolled this turn indicates (L-4), while the entry is open."""
        face = self.rolled
        return FACE_TILE[self.player][face] if face else None

    def stock_piece(self) -> str:
        """A pyramid from the mover's stash: the largest one left (the size is asked)."""
        counts = self._stash[self._turn]
        size = max((s for s in SIZES if counts[s]), default=SIZES[-1])
        return f"{self.player}-{size}"

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self._phase != "roll":
            return []
        return [(m, 1 / len(FACES)) for m in _FACE_MOVE]

    def _generate(self) -> list[Move]:
        if self._winner():
            return []
        phase, me = self._phase, self._turn
        if phase == "roll":
            return sorted(_FACE_MOVE)
        stash = self._stash[me]
        if phase != "turn":
            return self._entries(_FACE_INDEX[me][phase], stash)
        moves = [ROLL] if any(stash) else []
        if not self._first:
            moves += self._steps()
        return sorted(moves) or [PASS]

    def _entries(self, i: int, stash: list[int]) -> list[Move]:
        """L-6: the sizes that may enter on tile ``i``, and ``none`` where declining is legal."""
        owner, stack, me = self._owner[i], self._tile[i], self._turn
        if not owner:
            return [_SIZE_MOVE[s] for s in SIZES if stash[s]]
        if owner == me:
            sizes = [s for s in SIZES if stash[s] and s < stack[-1]]
        elif len(stack) == 1:
            sizes = [s for s in SIZES if stash[s] and s > stack[0]]
        else:
            sizes = []
        return [*(_SIZE_MOVE[s] for s in sizes), NONE]

    def _steps(self) -> list[Move]:
        me, owner, tile = self._turn, self._owner, self._tile
        out = []
        for i in range(len(TILES)):
            if owner[i] != me:
                continue
            mover = tile[i]
            for j in _ADJ[i]:
                if j == _CZ or not owner[j]:
                    out.append(_STEP[i, j])
                elif owner[j] == me:
                    if mover[0] < tile[j][-1]:
                        out.append(_STEP[i, j])
                elif power(mover) >= power(tile[j]):
                    out.append(_STEP[i, j])
        return out

    def _winner(self) -> int:
        for side in (1, 2):
            if self._center[side] == PYRAMIDS:
                return side
        return 0

    def outcome(self) -> Outcome | None:
        won = self._winner()
        if won:
            return Outcome(PLAYERS[won - 1], "all twelve pyramids in the Center Zone")
        return None

    # -- moves -----------------------------------------------------------------------------

    def _play(self, move: Move) -> tuple:
        me, phase = self._turn, self._phase
        changed: list[tuple[int, int, tuple[int, ...]]] = []
        stash_before = (list(self._stash[1]), list(self._stash[2]))
        undo = (phase, self._first, me, tuple(self._center), stash_before, changed)
        end = True
        if move.frm:
            i, j = _INDEX[move.frm], _INDEX[move.to]
            mover = self._tile[i]
            changed.append((i, me, mover))
            self._owner[i], self._tile[i] = 0, ()
            if j == _CZ:
                self._center[me] += len(mover)
            else:
                changed.append((j, self._owner[j], self._tile[j]))
                if self._owner[j] == me:
                    self._tile[j] = self._tile[j] + mover
                else:
                    self._bump(j)
                    self._owner[j], self._tile[j] = me, mover
        elif move.to == "roll":
            self._phase, end = "roll", False
        elif phase == "roll":
            self._phase, end = move.to, False
        elif move.to not in ("none", "pass"):
            i, size = _FACE_INDEX[me][phase], int(move.to)
            changed.append((i, self._owner[i], self._tile[i]))
            self._stash[me][size] -= 1
            if self._owner[i] == me:
                self._tile[i] = self._tile[i] + (size,)
            else:
                self._bump(i)
                self._owner[i], self._tile[i] = me, (size,)
        if end:
            self._first = self._first and me == 1
            self._turn, self._phase = 3 - me, "turn"
        return undo

    def _bump(self, i: int) -> None:
        """L-7: the pyramids on tile ``i`` go back, unstacked, to their owner's stash."""
        owner = self._owner[i]
        for size in self._tile[i]:
            self._stash[owner][size] += 1

    def _unplay(self, move: Move, undo: tuple) -> None:
        phase, first, turn, center, stash, changed = undo
        self._phase, self._first, self._turn = phase, first, turn
        self._center = list(center)
        self._stash = [[], list(stash[0]), list(stash[1])]
        for i, owner, tile in reversed(changed):
            self._owner[i], self._tile[i] = owner, tile

    def _copy(self) -> TelecState:
        other = TelecState()
        other._owner, other._tile = list(self._owner), list(self._tile)
        other._stash = [[], list(self._stash[1]), list(self._stash[2])]
        other._center = list(self._center)
        other._turn, other._phase, other._first = self._turn, self._phase, self._first
        return other

    def question(self) -> str:
        """What the board asks at the die and at the entry, which the sensors may not see.

        >>> state = new_game(); _ = state.push_str("roll"); print(state.question())
        Which face did blue's die show?
        >>> _ = state.push_str("4"); print(state.question())
        Blue rolled 4: which pyramid was entered on a1?
        """
        if self._phase == "roll":
            return f"Which face did {self.player}'s die show?"
        if self.rolled:
            return (f"{self.player.capitalize()} rolled {self.rolled}: which pyramid was "
                    f"entered on {self.indicated()}?")
        return f"Which move did {self.player} make?"

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A decision in words and the pyramids it puts down or moves.

        >>> state = from_position("a1=b4 blue:11223345566:0 red:112233445566:0 blue roll")
        >>> state.decision_words(state.parse_move("ace"))
        ('Ace: enter on c5', ())
        >>> _ = state.push_str("4"); state.decision_words(state.parse_move("2"))
        ('Size 2 pyramid, stacked on the blue 4', ('blue-2',))
        >>> state.decision_words(NONE)
        ('None: the turn is forfeit', ())
        """
        me = self.player
        if move.frm:
            i, j = _INDEX[move.frm], _INDEX[move.to]
            stack = self._tile[i]
            text = f"{self._piece_words(i).capitalize()} from {move.frm} " + (
                "into the Center Zone" if j == _CZ else f"to {move.to}")
            if j != _CZ and self._owner[j]:
                text += (f", stacked on the {self._piece_words(j)}"
                         if self._owner[j] == self._turn else
                         f", bumping the {self._piece_words(j)}")
            return text, tuple(f"{me}-{s}" for s in stack)
        word = move.to
        if word == "roll":
            return "Roll the die", ()
        if word == "pass":
            return "Pass (no move is possible)", ()
        if self._phase == "roll":
            return f"{word.capitalize()}: enter on {FACE_TILE[me][word]}", ()
        if word == "none":
            return "None: the turn is forfeit", ()
        i = _FACE_INDEX[self._turn][self._phase]
        text = f"Size {word} pyramid"
        if self._owner[i]:
            text += (f", stacked on the {self._piece_words(i)}"
                     if self._owner[i] == self._turn else f", bumping the {self._piece_words(i)}")
        return text, (f"{me}-{word}",)

    def _piece_words(self, i: int) -> str:
        """The piece on tile ``i``: ``blue 4`` or ``red stack of 3``."""
        colour, stack = _COLOUR[self._owner[i]], self._tile[i]
        return f"{colour} {stack[0]}" if len(stack) == 1 else f"{colour} stack of {len(stack)}"

    def move_str(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise MoveSyntaxError(f"not a Telec move: {text!r} (expected a string)")
        move = _BY_TEXT.get(text) or _BY_TEXT.get(text.strip().lower())
        if move is not None:
            return move
        m = _STEP_RE.match(text.strip().lower())
        if m and m[1] in _INDEX and m[2] in _INDEX:
            why = f"{m[1]} and {m[2]} are not neighbours (L-2)"
        elif m:
            why = "b3 and c3 are the Center Zone 'cz', not tiles (L-1)"
        else:
            why = ("expected a step 'a3-a2' or 'd3-cz', 'roll', a face (null, ace, 2..5), "
                   "a size (1..6), 'none' or 'pass'")
        raise MoveSyntaxError(f"not a Telec move: {text!r}: {why}")

    def stages(self, move: Move) -> list[dict[str, tuple[str, ...]]]:
        """A piece stepping into the Center Zone passes over ``cz`` (a drop sensor there
        sees it go by)."""
        if move.to != CENTER or not move.frm:
            return []
        phys = self.physical()
        return [{**{c: p for c, p in phys.items() if c != move.frm}, CENTER: phys[move.frm]}]

    # -- text and pieces -------------------------------------------------------------------

    def position_str(self) -> str:
        tiles = ",".join(
            f"{TILES[i]}={_LETTER[o]}{''.join(map(str, self._tile[i]))}"
            for i, o in enumerate(self._owner) if o
        ) or "-"
        sides = " ".join(
            f"{PLAYERS[s - 1]}:{''.join(str(k) * self._stash[s][k] for k in SIZES)}:"
            f"{self._center[s]}" for s in (1, 2)
        )
        first = " first" if self._first else ""
        return f"{tiles} {sides} {self.player} {self._phase}{first}"

    def physical(self) -> dict[str, tuple[str, ...]]:
        tile = self._tile
        return {TILES[i]: _pieces(o, tile[i]) for i, o in enumerate(self._owner) if o}


@functools.lru_cache(maxsize=4096)
def _pieces(owner: int, stack: tuple[int, ...]) -> tuple[str, ...]:
    """The pieces of ``owner``'s ``stack`` of sizes, bottom to top (the board's few stacks
    come again and again: :meth:`TelecState.physical` runs at every listed turn)."""
    colour = _COLOUR[owner]
    return tuple(f"{colour}-{s}" for s in stack)


def new_game() -> TelecState:
    """The empty board, twelve pyramids in each stash, blue to roll (L-3, L-5)."""
    return TelecState()


_POSITION_HELP = ("Telec position must be 'TILES blue:STASH:CZ red:STASH:CZ PLAYER STEP "
                  "[first]', e.g. '- blue:112233445566:0 red:112233445566:0 blue turn first'")


def from_position(text: str) -> TelecState:
    """Read a position written by :meth:`TelecState.position_str`."""
    parts = text.split() if isinstance(text, str) else []
    first = parts[5:] == ["first"]
    if len(parts) not in (5, 6) or len(parts) == 6 and not first:
        raise PositionError(f"{_POSITION_HELP}; got {text!r}")
    tiles_text, blue, red, player, phase = parts[:5]
    if player not in PLAYERS:
        raise PositionError(f"Telec player must be blue or red, got {player!r}")
    if phase not in ("turn", "roll", *FACES):
        raise PositionError(
            f"Telec step must be 'turn', 'roll' or a face ({', '.join(FACES)}), got {phase!r}")
    state = TelecState()
    state._turn, state._phase, state._first = PLAYERS.index(player) + 1, phase, first
    if tiles_text != "-":
        for item in tiles_text.split(","):
            m = re.fullmatch(r"([a-d][1-5])=([br])([1-6]+)", item)
            if not m or m[1] not in _INDEX or m[1] == CENTER:
                raise PositionError(
                    f"bad Telec tile {item!r}: expected TILE=bSIZES or TILE=rSIZES, e.g. a1=b64 "
                    "(sizes bottom to top; b3 and c3 are the hole)")
            i = _INDEX[m[1]]
            if state._owner[i]:
                raise PositionError(f"tile {m[1]} is given twice")
            sizes = tuple(int(c) for c in m[3])
            if any(a <= b for a, b in zip(sizes, sizes[1:], strict=False)):
                raise PositionError(
                    f"stack on {m[1]} must have each pyramid smaller than the one below (L-8)")
            state._owner[i], state._tile[i] = _LETTER.index(m[2]), sizes
    for side, part in ((1, blue), (2, red)):
        name = PLAYERS[side - 1]
        m = re.fullmatch(rf"{name}:([1-6]*):(\d+)", part)
        if not m:
            raise PositionError(f"expected '{name}:STASH:CZ' (e.g. {name}:112233:4), got {part!r}")
        counts = [0] * 7
        for c in m[1]:
            counts[int(c)] += 1
        on_board = [0] * 7
        for i, o in enumerate(state._owner):
            if o == side:
                for s in state._tile[i]:
                    on_board[s] += 1
        for s in SIZES:
            if counts[s] + on_board[s] > PER_SIZE:
                raise PositionError(f"{name} has more than {PER_SIZE} pyramids of size {s} (L-3)")
        total = sum(counts) + sum(on_board) + int(m[2])
        if total != PYRAMIDS:
            raise PositionError(
                f"{name} has {total} pyramids (stash + board + Center Zone); a side has "
                f"{PYRAMIDS} (L-3)")
        state._stash[side], state._center[side] = counts, int(m[2])
    won = state._winner()
    if state._center[1] == state._center[2] == PYRAMIDS:
        raise PositionError("both sides have all their pyramids in the Center Zone")
    if won and (state._phase != "turn" or won == state._turn):
        raise PositionError(f"{PLAYERS[won - 1]} has already won; the other side is to move")
    if first and (state._turn == 1 and any(state._owner) or state._turn == 2 and (
            sum(state._owner) > 1 or state._center[1] or state._center[2])):
        raise PositionError("a first turn comes at the start: blue's on the empty board, red's "
                            "after one blue pyramid entered (L-5)")
    if phase != "turn" and not any(state._stash[state._turn]):
        raise PositionError(f"{player} has rolled with an empty stash (L-5)")
    return state
