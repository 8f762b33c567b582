"""Tesulda (Return to Abator): figures built of a base and pieces, a Prime that may not be exposed.

Rulings implemented (the project's own statement is ``docs/rules/tesulda.md``):

- D-1 Board 10x10, ``a1``..``j10``; ``light`` starts on ranks 1-2, ``dark`` on 9-10.
- D-2 A figure is a base (circle, square, triangle) carrying pieces (crown, star, circle,
  square, diamond, trapezoid, hexagon). Setups are checked by :mod:`rules.tesulda_setup`.
- D-3 Piece count: the crown counts 2; cap 5 per figure. No figure holds crown and star.
- D-4 Ratings: straight = (1 if square base) + k*(squares + 3*stars); diagonal = (1 if
  circle base) + k*(circles + 3*stars); k = 2 with a hexagon (Boost), else 1.
- D-5 / D-5a A move goes 1..rating squares in one direction; the path may not pass
  occupied squares (Jumper: diamond, ignores this and moves exactly its full rating);
  Dodger (trapezoid) may add one leg of the other kind; traits are those at the start.
- D-6 Minion (triangle base carrying at most 2): the final row is strictly nearer to the
  enemy starting zone.
- D-7 Ending on an enemy captures it; the attacker then takes up to 2 of its pieces.
- D-8 Then Swap and Resource, in either order, each optional.
- D-9 A turn may not end with an enemy figure able to move onto the mover's Prime.
- D-10 A side without a crown loses; a side with no legal turn loses if its Prime is
  attacked, else the game is a tie.
- D-11 The default setup (see :mod:`rules.tesulda_setup`).

A turn is several decisions, one ``push`` each, and ``to_move`` stays the mover until the
turn ends: the move ``e2-e4`` / ``e2xe5``; after a capture the attack choice ``take:cs``
(or ``none``); then, in either order, a swap ``swap:h:e5>f6`` and a resource draw
``draw:cs``, and ``none`` to end the turn without the rest. A decision is offered only
when the turn can still end legally (D-9); when nothing but ``none`` would remain the
turn ends by itself.

Piece letters: ``k`` crown, ``r`` star, ``c`` circle, ``s`` square, ``d`` diamond,
``z`` trapezoid, ``h`` hexagon. Base letters: ``C`` circle, ``S`` square, ``T`` triangle.
A figure is written base then pieces, e.g. ``Skh`` (square base, crown, hexagon).

>>> state = new_game()
>>> state.push_str("b2-b3")
Move(kind='move', frm='b2', to='b3', capture=False, pieces='')
>>> state.to_move
'light'
>>> [state.move_str(m) for m in state.legal_moves()][:3]
['none', 'swap:s:a2>b3', 'swap:ss:a2>b3']
>>> state.move_str(state.push_str("none")), state.to_move
('none', 'dark')
>>> state.physical()["b3"]
('light-triangle', 'circle', 'square')
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Sequence
from typing import NamedTuple

from .base import GameState, Outcome
from .errors import MoveSyntaxError, PositionError, SetupError
from .geometry import grid
from .tesulda_reach import BIT, DIRS, NEAR, RAYS, Guards, Kind, Traits, leg, squares, zone_distance

NAME = "tesulda"
PLAYERS = ("light", "dark")
SIZE = 10
FILES = "abcdefghij"
BASES = ("circle", "square", "triangle")
BASE_LETTERS = "CST"
# Piece kinds in their canonical order (position text, notation and physical() bottom->top).
PIECE_KINDS = ("crown", "star", "circle", "square", "diamond", "trapezoid", "hexagon")
PIECE_LETTERS = "krcsdzh"
CROWN, STAR, CIRCLE, SQUARE, DIAMOND, TRAPEZOID, HEXAGON = range(7)
CIRCLE_BASE, SQUARE_BASE, TRIANGLE_BASE = range(3)
PIECES = tuple(f"{p}-{b}" for p in PLAYERS for b in BASES) + PIECE_KINDS
CAP = 5  # D-3, the crown counting 2
SWAP_MIN, SWAP_MAX = 1, 4  # D-8, crowns and stars not counted

GEOMETRY = grid(SIZE, SIZE)
CELLS = GEOMETRY.names
_INDEX = {n: i for i, n in enumerate(CELLS)}
_N = SIZE * SIZE
_DIRS, _RAYS, _NEAR, _zone_distance = DIRS, RAYS, NEAR, zone_distance
_ZONE_ROWS = {1: (0, 1), 2: (8, 9)}  # starting zone rows (0-based) of side 1 / 2


class Figure(NamedTuple):
    """A base with its pieces: ``owner`` 1 light / 2 dark, ``base`` an index into BASES,
    ``counts`` how many of each of PIECE_KINDS it carries."""

    owner: int
    base: int
    counts: tuple[int, ...]

    def __str__(self) -> str:
        return BASE_LETTERS[self.base] + pieces_str(self.counts)

    @property
    def size(self) -> int:
        """D-3's piece count: every piece, the crown counting 2."""
        return sum(self.counts) + self.counts[CROWN]

    @property
    def plain(self) -> int:
        """D-8's count for a swap: pieces other than crowns and stars."""
        return sum(self.counts) - self.counts[CROWN] - self.counts[STAR]


def figure_words(fig: Figure) -> str:
    """``Skh`` of dark -> "dark square base with crown, hexagon"."""
    names = [PIECE_KINDS[k] for k, n in enumerate(fig.counts) for _ in range(n)]
    return (f"{PLAYERS[fig.owner - 1]} {BASES[fig.base]} base"
            + (f" with {', '.join(names)}" if names else ""))


_TWO = {"circle": "circles", "square": "squares", "diamond": "diamonds", "star": "stars",
        "trapezoid": "trapezoids", "hexagon": "hexagons", "crown": "crowns"}


def _names_words(names: tuple[str, ...]) -> str:
    """("circle", "circle") -> "two circles"; ("circle", "square") -> "circle and square"."""
    if len(names) == 2 and names[0] == names[1]:
        return f"two {_TWO[names[0]]}"
    return " and ".join(names)


def pieces_str(counts: tuple[int, ...]) -> str:
    return "".join(PIECE_LETTERS[k] * n for k, n in enumerate(counts))


def parse_pieces(text: str) -> tuple[int, ...]:
    """Piece letters (any order) to counts; raises ValueError naming a bad letter."""
    counts = [0] * 7
    for ch in text:
        k = PIECE_LETTERS.find(ch)
        if k < 0:
            raise ValueError(
                f"unknown piece letter {ch!r} (pieces: "
                + ", ".join(f"{ltr} {n}" for ltr, n in zip(PIECE_LETTERS, PIECE_KINDS,
                                                             strict=True)) + ")"
            )
        counts[k] += 1
    return tuple(counts)


_counts = functools.cache(parse_pieces)  # a decision's pieces, read once per text


def parse_figure(text: str, owner: int) -> Figure:
    """``Skh`` -> Figure; raises ValueError with a one-line reason."""
    if not text or text[0] not in BASE_LETTERS:
        raise ValueError(
            f"figure {text!r} must start with its base: C circle, S square, T triangle"
        )
    return Figure(owner, BASE_LETTERS.index(text[0]), parse_pieces(text[1:]))


def figure_fault(fig: Figure) -> str | None:
    """What makes a figure impossible at any time (D-3), or None."""
    if fig.size > CAP:
        return f"{fig} holds {fig.size} pieces (the crown counting 2); the cap is {CAP}"
    if fig.counts[CROWN] and fig.counts[STAR]:
        return f"{fig} holds a crown and a star; no figure may hold both"
    return None


_TRAITS: dict[tuple[int, tuple[int, ...]], Traits] = {}


def traits(fig: Figure) -> Traits:
    """D-4 ratings and the traits of a figure as it stands (D-5a)."""
    key = (fig.base, fig.counts)
    t = _TRAITS.get(key)
    if t is None:
        c = fig.counts
        k = 2 if c[HEXAGON] else 1
        t = Traits(
            (fig.base == SQUARE_BASE) + k * (c[SQUARE] + 3 * c[STAR]),
            (fig.base == CIRCLE_BASE) + k * (c[CIRCLE] + 3 * c[STAR]),
            c[DIAMOND] > 0,
            c[TRAPEZOID] > 0,
            fig.base == TRIANGLE_BASE and fig.size <= 2,
        )
        _TRAITS[key] = t
    return t


_KINDS: dict[Figure, Kind] = {}


def kind(fig: Figure) -> Kind:
    """The figure's kind of mover, whose ends (D-5, D-5a, D-6) are remembered per square
    and occupancy (:mod:`rules.tesulda_reach`)."""
    found = _KINDS.get(fig)
    if found is None:
        found = _KINDS[fig] = Kind.of(traits(fig), fig.owner)
    return found


def occupancy(board: Sequence[Figure | None]) -> tuple[int, int, int]:
    """``(0, light's squares, dark's squares)`` as bitmasks, indexed by side."""
    sides = [0, 0, 0]
    for i, f in enumerate(board):
        if f is not None:
            sides[f.owner] |= BIT[i]
    return sides[0], sides[1], sides[2]


def primes(board: Sequence[Figure | None]) -> tuple[int, int, int]:
    """``(0, light's Primes, dark's Primes)``: the squares of the figures carrying a crown,
    as bitmasks indexed by side."""
    return occupancy([f if f is not None and f.counts[CROWN] else None for f in board])


def _moved(sides: tuple[int, int, int], frm: int, to: int) -> tuple[int, int, int]:
    """The occupancy after the figure on ``frm`` moves onto ``to`` (taking what stood
    there)."""
    bf, bt = BIT[frm], BIT[to]
    if sides[1] & bf:
        return 0, (sides[1] ^ bf) | bt, sides[2] & ~bt
    return 0, sides[1] & ~bt, (sides[2] ^ bf) | bt


def _clear(board: list, frm: int, d: int, n: int) -> bool:
    """The first ``n - 1`` squares from ``frm`` in direction ``d`` are empty."""
    return all(board[sq] is None for sq in _RAYS[frm][d][:n - 1])


def _turns(board: list, frm: int, target: int, ratings: tuple[int, int], jumper: bool):
    """The corners of a Dodger's two-leg paths from ``frm`` to ``target`` (D-5): first leg
    a*(ux, uy) of one kind, then the rest as one leg of the other kind."""
    fx, fy, tx, ty = frm % SIZE, frm // SIZE, target % SIZE, target // SIZE
    for (ux, uy), kind in _FIRST_LEGS:
        for a in ((ratings[kind],) if jumper else range(1, ratings[kind] + 1)):
            cx, cy = fx + a * ux, fy + a * uy
            if not (0 <= cx < SIZE and 0 <= cy < SIZE):
                break
            corner = cy * SIZE + cx
            if not jumper and board[corner] is not None:
                break  # the path would pass an occupied square
            rest = leg(tx - cx, ty - cy)
            if rest is not None and rest[2] != kind:
                d2, n2, _ = rest
                if jumper:
                    if n2 == ratings[1 - kind]:
                        yield corner
                elif n2 <= ratings[1 - kind] and _clear(board, corner, d2, n2):
                    yield corner


def _one_leg(board: list, frm: int, fig: Figure, target: int) -> bool:
    """Whether ``target`` is one leg away from ``frm`` for the figure (D-5; D-6 not
    applied)."""
    straight, diagonal, jumper, _, _ = traits(fig)
    one = leg(target % SIZE - frm % SIZE, target // SIZE - frm // SIZE)
    if one is None:
        return False
    d, n, kind = one
    r = (straight, diagonal)[kind]
    return (n == r if jumper else n <= r) and (jumper or _clear(board, frm, d, n))


def corners(board: list, frm: int, fig: Figure, target: int) -> list[int]:
    """The empty squares where a Dodger's path from ``frm`` to ``target`` turns from its
    first leg to its second (D-5, D-5a): where the figure may be set down on the way."""
    straight, diagonal, jumper, dodger, _ = traits(fig)
    if not dodger or not straight or not diagonal:
        return []
    return [c for c in _turns(board, frm, target, (straight, diagonal), jumper)
            if board[c] is None]


_FIRST_LEGS = tuple((d, 0 if i < 4 else 1) for i, d in enumerate(_DIRS))


#: ``_ONE_PIECE[k]``: one piece of kind ``k`` as counts and letters; ``_TWO_PIECES[k][j]``:
#: a piece of kind ``k`` and one of kind ``j``.
_ONE_PIECE = tuple((tuple(int(i == k) for i in range(7)), PIECE_LETTERS[k]) for k in range(7))
_TWO_PIECES = tuple(tuple((tuple(int(i == k) + int(i == j) for i in range(7)),
                    PIECE_LETTERS[k] + PIECE_LETTERS[j]) for j in range(7)) for k in range(7))


@functools.cache
def _parts(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], str], ...]:
    """Every distinct multiset of 1 or 2 pieces out of ``counts``, each with its letters,
    in the order of the piece kinds."""
    kinds = [k for k in range(7) if counts[k]]
    out = []
    for a, k in enumerate(kinds):
        out.append(_ONE_PIECE[k])
        out += [_TWO_PIECES[k][j] for j in kinds[a:] if j != k or counts[k] >= 2]
    return tuple(out)


@functools.cache
def _givable(give: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], str], ...]:
    """:func:`_parts` a figure holding ``give`` may hand over and still swap (D-8); what
    is left of a figure within D-3 is within it too."""
    plain = _load(give)[0]
    return tuple((c, text) for c, text in _parts(give)
                 if SWAP_MIN <= plain - _load(c)[0] <= SWAP_MAX)


def _add(a: tuple[int, ...], b: tuple[int, ...], sign: int = 1) -> tuple[int, ...]:
    return tuple(map(operator.add if sign > 0 else operator.sub, a, b))


def _fits(counts: tuple[int, ...]) -> bool:
    """Within the cap and never a crown with a star (D-3)."""
    return (sum(counts) + counts[CROWN] <= CAP) and not (counts[CROWN] and counts[STAR])


_LOADS: dict[tuple[int, ...], tuple[int, int, bool, bool]] = {}


def _load(counts: tuple[int, ...]) -> tuple[int, int, bool, bool]:
    """What D-3 and D-8 read of a figure's pieces: (plain pieces, size, a crown, a star)."""
    found = _LOADS.get(counts)
    if found is None:
        total = sum(counts)
        found = _LOADS[counts] = (total - counts[CROWN] - counts[STAR], total + counts[CROWN],
                                  counts[CROWN] > 0, counts[STAR] > 0)
    return found


@functools.cache
def _swaps_onto(give: tuple[int, ...], load: tuple[int, int, bool, bool]) -> tuple[str, ...]:
    """:func:`_swap_pieces` onto a neighbour of that :func:`_load`."""
    plain, size, crown, star = load
    out = []
    for c, text in _givable(give):
        c_plain, c_size, c_crown, c_star = _load(c)
        if (SWAP_MIN <= plain + c_plain <= SWAP_MAX and size + c_size <= CAP
                and not ((crown or c_crown) and (star or c_star))):
            out.append(text)
    return tuple(out)


_SWAPS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[str, ...]] = {}


def _swap_pieces(give: tuple[int, ...], take: tuple[int, ...]) -> tuple[str, ...]:
    """The pieces a figure holding ``give`` may hand to a neighbour holding ``take`` (D-8:
    both keep 1-4 plain pieces, within the cap)."""
    found = _SWAPS.get((give, take))
    if found is None:
        found = _SWAPS[give, take] = _swaps_onto(give, _load(take))
    return found


_CHOICES: dict[tuple[str, tuple[int, ...], tuple[int, ...]], tuple[Move, ...]] = {}


def _choices(what: str, holds: tuple[int, ...], source: tuple[int, ...]) -> tuple[Move, ...]:
    """The ``take`` (D-7, from the captured figure) or ``draw`` (D-8, from the pool)
    decisions of a figure holding ``holds``: 1 or 2 pieces of ``source``, within the cap."""
    key = (what, holds, source)
    found = _CHOICES.get(key)
    if found is None:
        found = _CHOICES[key] = tuple(Move(what, pieces=text) for c, text in _parts(source)
                                      if _fits(_add(holds, c)))
    return found


class Move(NamedTuple):
    """One decision of a turn. ``kind`` is ``move`` (``frm``-``to``), ``take`` (pieces
    from the captured figure), ``swap`` (pieces from ``frm`` to ``to``), ``draw`` (pieces
    from the removed pool) or ``none`` (end the turn, declining what is left)."""

    kind: str
    frm: str = ""
    to: str = ""
    capture: bool = False
    pieces: str = ""

    def __str__(self) -> str:
        if self.kind == "move":
            return f"{self.frm}{'x' if self.capture else '-'}{self.to}"
        if self.kind == "swap":
            return f"swap:{self.pieces}:{self.frm}>{self.to}"
        if self.kind == "none":
            return "none"
        return f"{self.kind}:{self.pieces}"


NONE = Move("none")
_MOVES = {
    (a, b, cap): Move("move", CELLS[a], CELLS[b], cap)
    for a in range(_N) for b in range(_N) if a != b for cap in (False, True)
}
#: ``_MOVES_FROM[frm][to]``: the move and the capture from ``frm`` to ``to``.
_MOVES_FROM = tuple(tuple((_MOVES.get((a, b, False)), _MOVES.get((a, b, True)))
                          for b in range(_N)) for a in range(_N))
_CELL = r"([a-j](?:10|[1-9]))"
_PIECES = r"([krcsdzh]{1,2})"
_MOVE_RE = re.compile(rf"^{_CELL}([-x]){_CELL}$")
_SWAP_RE = re.compile(rf"^swap:{_PIECES}:{_CELL}>{_CELL}$")
_TAKE_RE = re.compile(rf"^(take|draw):{_PIECES}$")
_SYNTAX = ("expected 'e2-e4' or 'e2xe5' (move), 'take:cs', 'swap:cs:e5>f6', 'draw:cs' "
           "or 'none'")

# Phases of a turn.
MOVE, ATTACK, EXTRAS = 0, 1, 2


class TesuldaState(GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY
    TURN_DECISIONS = 4  # the move, the attack choice, then swap and draw (or none)
    FIGURES = True  # a figure is lifted whole: its base with the pieces on the rod

    def __init__(self, board: list, turn: int = 1, pool: tuple[int, ...] = (0,) * 7) -> None:
        super().__init__()
        self._board: list[Figure | None] = board
        self._sides = occupancy(board)  # the squares of each side, kept with the board
        self._kinds = [None if f is None else kind(f) for f in board]  # each figure's kind
        # Per side, where its figures can move with the occupancy as key; a side's own
        # decisions (pushed or popped) forget it.
        self._hits: tuple[dict, dict, dict] = ({}, {}, {})
        # The moves the listing found legal only by a later swap of the crown (or by taking
        # the enemy's last crown), and whether the mover's Primes are known safe now (the
        # move was listed and is not one of those, and nothing else followed it yet).
        self._rescued: list[Move] = []
        self._known_safe = False
        self._turn = turn
        self._pool = pool
        self._phase = MOVE
        self._moved = -1  # square of the figure that moved this turn
        self._captured: Figure | None = None  # awaiting the attack choice
        self._open = (True, True)  # swap, draw still unused this turn
        self._opts: list[Move] | None = None  # _options() of this moment
        self._primes = primes(board)  # the squares of each side's Primes, as _sides
        self._lost_side = self._find_lost()

    # -- what stands where ------------------------------------------------------------------

    def figure(self, cell: str) -> Figure | None:
        """The figure on ``cell`` (None if empty)."""
        return self._board[_INDEX[cell]]

    def pool(self) -> list[str]:
        """The removed pieces (D-7), by name, in canonical order."""
        return [PIECE_KINDS[k] for k, n in enumerate(self._pool) for _ in range(n)]

    def primes(self, player: str) -> list[str]:
        """Squares of ``player``'s figures carrying a crown."""
        side = PLAYERS.index(player) + 1
        return [CELLS[i] for i in self._crowns(side)]

    @property
    def phase(self) -> str:
        """``move``, ``take`` (attack choice open) or ``extras`` (swap/draw/none)."""
        return ("move", "take", "extras")[self._phase]

    @property
    def moved(self) -> str | None:
        """The square of the figure that moved this turn (None before the move)."""
        return CELLS[self._moved] if self._moved >= 0 else None

    def set_up(self, text: str) -> TesuldaState:
        """This start position with each side ``text`` names set up anew (D-2; see
        :mod:`rules.tesulda_setup`), the other side as it stands; only before the first
        move.

        >>> from rules.tesulda_setup import default_setup_text
        >>> light = default_setup_text().split("dark")[0]  # light's two lines
        >>> swapped = light.replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh")
        >>> state = new_game().set_up(swapped)
        >>> str(state.figure("a1")), str(state.figure("a2")), str(state.figure("e10"))
        ('Sssz', 'Sssh', 'Skh')
        """
        if self._stack:
            raise SetupError("setup: the game has begun; a setup is entered before the first "
                             "move")
        return TesuldaState(tesulda_setup.set_up_sides(self._board, text), self._turn, self._pool)

    def question(self) -> str:
        """What the board asks at the attack choice and at the swap / draw (D-7, D-8), and
        between moves the sensors cannot tell apart (answered with :meth:`turn_words`).

        >>> state = from_position("light:a1=Skh,b2=Sss dark:b4=Ccc,j10=Skh pool: light")
        >>> _ = state.push_str("b2xb4"); print(state.question())  # doctest: +NORMALIZE_WHITESPACE
        Attack: the figure on b4 captured a dark circle base with circle, circle. Which of its
        pieces does it take?
        """
        if self._phase == ATTACK:
            return (f"Attack: the figure on {self.moved} captured a "
                    f"{figure_words(self._captured)}. Which of its pieces does it take?")
        if self._phase == EXTRAS:
            kinds = {m.kind for m in self.legal_moves()}
            if {"swap", "draw"} <= kinds:
                return ("Swap pieces with a neighbour, or draw from the removed pool? "
                        "(The other may follow.)")
            if "swap" in kinds:
                return f"Swap pieces between the figure on {self.moved} and a neighbour?"
            return f"Draw pieces from the removed pool onto the figure on {self.moved}?"
        return f"Which move did {self.to_move} make?"

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A decision in words, and its pieces.

        >>> state = new_game()
        >>> state.decision_words(state.parse_move("b2-b3"))
        ('b2 to b3', ())
        >>> _ = state.push_str("b2-b3"); state.decision_words(state.parse_move("swap:ss:a2>b3"))
        ('Swap two squares from a2 to b3', ('square', 'square'))
        >>> state.decision_words(NONE)
        ('No swap: end the turn', ())
        """
        names = tuple(PIECE_KINDS[PIECE_LETTERS.index(ch)] for ch in move.pieces)
        if move.kind == "move":
            return f"{move.frm} {'captures' if move.capture else 'to'} {move.to}", ()
        if move.kind == "take":
            return f"Take {_names_words(names)}", names
        if move.kind == "swap":
            return f"Swap {_names_words(names)} from {move.frm} to {move.to}", names
        if move.kind == "draw":
            return f"Draw {_names_words(names)} from the pool", names
        if self._phase == ATTACK:
            return "Take nothing (its pieces go to the removed pool)", ()
        kinds = {m.kind for m in self.legal_moves()}
        declined = " or ".join(k for k in ("swap", "draw") if k in kinds) or "more"
        return f"No {declined}: end the turn", ()

    def turn_words(self, turn: Sequence[Move]) -> tuple[str, tuple[str, ...]]:
        """A turn (or its move alone) in words: which figure went from where to where and
        what it captured, then each later decision as :meth:`decision_words` says it.

        >>> state = from_position("light:a1=Skh,b2=Sss dark:b4=Ccc,j10=Skh pool: light")
        >>> text, pieces = state.turn_words(
        ...     [state.parse_move(w) for w in ("b2xb4", "take:c", "none")])
        >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
        Light square base with square, square from b2 captures the dark circle base with
        circle, circle on b4; then take circle; then no more: end the turn
        >>> pieces
        ('circle',)
        """
        move, rest = turn[0], turn[1:]
        if move.kind != "move":
            return super().turn_words(turn)
        fig, victim = self.figure(move.frm), self.figure(move.to)
        if fig is None:
            return super().turn_words(turn)
        said = figure_words(fig)
        text = f"{said[0].upper()}{said[1:]} from {move.frm} " + (
            f"captures the {figure_words(victim)} on {move.to}" if victim else f"to {move.to}")
        if not rest:
            return text, ()
        after = self.clone()
        after.push(move)
        more, pieces = after.turn_words(rest)
        return f"{text}; then {more[0].lower()}{more[1:]}", pieces

    def setup_text(self) -> str:
        """The figures as a setup text (:mod:`rules.tesulda_setup`), a line per side and rank.

        >>> new_game().setup_text().splitlines()[1]
        'light a2=Sssz b2=Tcs c2=Tcs d2=Tcs e2=Tcs f2=Tcs g2=Tcs h2=Tcs i2=Tcs j2=Cczh'
        """
        return tesulda_setup.board_text(self._board)

    def reach(self, cell: str) -> list[str]:
        """Where the figure on ``cell`` could move by the movement rules (D-5, D-5a, D-6),
        whoever is to move, D-9 not applied."""
        i = _INDEX[cell]
        fig = self._board[i]
        if fig is None:
            return []
        sides = self._sides
        ends = self._kinds[i].ends(i, sides[1] | sides[2]) & ~sides[fig.owner]
        return [CELLS[s] for s in squares(ends)]

    def attackers(self, cell: str) -> list[str]:
        """Squares of the figures that could move onto ``cell`` (enemies of its figure)."""
        i = _INDEX[cell]
        fig = self._board[i]
        if fig is None:
            return []
        return [CELLS[j] for j in self._attackers(i, 3 - fig.owner, self._sides)]

    def hint_cells(self) -> list[str]:
        """The attackers of the mover's Prime, when it is in danger."""
        out: set[str] = set()
        for sq in self.primes(self.to_move):
            out.update(self.attackers(sq))
        return sorted(out, key=_INDEX.get)

    def exposed_by(self, frm: str, to: str) -> list[str]:
        """D-9: where the move ``frm``-``to`` is one the figure on ``frm`` may make (D-5, D-5a,
        D-6) but no completion of the turn leaves the mover's Prime safe, the squares of
        the enemy figures that could take it after the move alone; else ``[]``.

        >>> state = from_position("light:a1=Skh,a2=Ss dark:a8=Ssssh,j10=Skh pool: light")
        >>> state.exposed_by("a2", "c2")
        ['a8']
        """
        if self._phase != MOVE or frm not in _INDEX or to not in _INDEX:
            return []
        b, i, j, sides = self._board, _INDEX[frm], _INDEX[to], self._sides
        fig = b[i]
        if fig is None or fig.owner != self._turn:
            return []
        if not self._kinds[i].ends(i, sides[1] | sides[2]) & ~sides[fig.owner] & BIT[j]:
            return []
        if _MOVES[i, j, b[j] is not None] in self.legal_moves():
            return []
        victim = b[j]
        b[i], b[j] = None, fig
        try:
            after = _moved(sides, i, j)
            return [CELLS[k] for k in sorted({k for c in self._crowns(self._turn, after)
                                              for k in self._attackers(c, 3 - self._turn,
                                                                       after)})]
        finally:
            b[i], b[j] = fig, victim

    def detour(self, move: Move) -> bool:
        """Whether the move reaches its square only by a Dodger's second leg (D-5)."""
        if move.kind != "move" or self._phase != MOVE:
            return False
        i, j = _INDEX[move.frm], _INDEX[move.to]
        fig = self._board[i]
        return fig is not None and not _one_leg(self._board, i, fig, j)

    def danger_cells(self) -> list[str]:
        """The enemy figures that could take the mover's Prime (D-9), at a turn start."""
        return self.hint_cells() if self._phase == MOVE else []

    def waypoints(self, move: Move) -> list[str]:
        """Where the figure may be set down partway through the move ``move``: the corners
        of a Dodger's paths (D-5)."""
        if move.kind != "move" or self._phase != MOVE:
            return []
        i = _INDEX[move.frm]
        fig = self._board[i]
        if fig is None:
            return []
        return sorted({CELLS[c] for c in corners(self._board, i, fig, _INDEX[move.to])},
                      key=_INDEX.get)

    def _crowns(self, side: int, sides: tuple[int, int, int] | None = None) -> Sequence[int]:
        if sides is None:
            return squares(self._primes[side])
        b = self._board
        return [i for i in squares(sides[side]) if b[i].counts[CROWN]]

    def _attackers(self, sq: int, by: int, sides: tuple[int, int, int]) -> list[int]:
        """The squares of ``by``'s figures that can move onto ``sq`` (D-5, D-5a, D-6), with
        ``sides`` the occupancy the board has now."""
        kinds, occupied = self._kinds, sides[1] | sides[2]
        return [j for j in squares(sides[by]) if kinds[j].reaches(j, sq, occupied)]

    def _attacked(self, targets: list[int], by: int, sides: tuple[int, int, int]) -> bool:
        """Whether a figure of ``by`` can move onto one of the squares ``targets``."""
        kinds, occupied = self._kinds, sides[1] | sides[2]
        for j in squares(sides[by]):
            reaches = kinds[j].reaches
            for sq in targets:
                if reaches(j, sq, occupied):
                    return True
        return False

    def _safe(self, side: int) -> bool:
        """D-9: no enemy figure can move onto a Prime of ``side``."""
        if self._known_safe and side == self._turn:
            return True
        primes = self._crowns(side)
        if not primes:
            return True
        sides, hits = self._sides, self._hits[3 - side]
        reach = hits.get(sides)
        if reach is None:
            if len(hits) > 16:
                hits.clear()
            kinds, occupied = self._kinds, sides[1] | sides[2]
            reach = hits[sides] = functools.reduce(
                operator.or_, (kinds[j].ends(j, occupied) for j in squares(sides[3 - side])), 0)
        return not any(reach & BIT[c] for c in primes)

    # -- decisions --------------------------------------------------------------------------

    def _generate(self) -> list[Move]:
        if self._lost():
            return []
        return self._generate_moves() if self._phase == MOVE else sorted(self._decisions())

    def _lost(self) -> int:
        """The side without a crown (D-10), else 0."""
        return self._lost_side

    def _find_lost(self) -> int:
        return 1 if not self._primes[1] else 2 if not self._primes[2] else 0

    def _decisions(self) -> list[Move]:
        if self._phase == MOVE:
            return self._generate_moves()
        out = []
        safe_now = self._safe(self._turn)
        for move in self._options():
            if safe_now and not self._moves_crown(move):
                out.append(move)
            elif (safe_now or not _hopeless(move)) and self._completes_after(move):
                out.append(move)
        if self._phase == EXTRAS and safe_now:
            out.append(NONE)
        return out

    @staticmethod
    def _moves_crown(move: Move) -> bool:
        return "k" in move.pieces

    def _completes_after(self, move: Move) -> bool:
        self.push(move)
        try:
            return self._completable()
        finally:
            self.pop()

    def _completable(self) -> bool:
        """Whether the mover can still end this turn legally (D-9), or the game is over."""
        mover = self._turn
        if self._phase == MOVE:  # the turn has ended: the previous mover is judged
            mover = 3 - mover
            return self._lost() == 3 - mover or self._safe(mover)
        if self._lost():
            return self._lost() != mover
        if self._phase == EXTRAS and self._safe(mover):
            return True
        return any(self._completes_after(m) for m in self._options() if not _hopeless(m))

    def _generate_moves(self) -> list[Move]:
        """Every legal move (D-5..D-7: where each figure may go; D-9: every Prime safe
        once the move is made, or after a swap that carries the crown; D-10: taking the
        last enemy crown is always legal), sorted: the figures and their ends in the
        order of the squares' names."""
        b, sides = self._board, self._sides
        me, them = self._turn, 3 - self._turn
        own, occupied = sides[me], sides[1] | sides[2]
        kinds, crowns = self._kinds, self._crowns(me)
        guards = Guards(crowns, [(j, kinds[j]) for j in squares(sides[them])], occupied)
        # Taking the enemy's last crown ends the game at once (D-10).
        won = self._crowns(them)
        won = BIT[won[0]] if len(won) == 1 else 0
        out: list[Move] = []
        self._rescued = rescued = []
        for frm in squares(own):
            ends = kinds[frm].ends(frm, occupied) & ~own
            if not ends:
                continue
            if frm in crowns:
                safe = won | (self._prime_safe(frm, ends, guards) if len(crowns) == 1 else 0)
            elif guards.crossed & BIT[frm]:
                safe = guards.safe_from(frm) | won
            else:
                safe = guards.safe | won
            if ends & safe == ends and not won & ends:
                out += _listed(frm, ends, sides[them])
                continue
            row = _MOVES_FROM[frm]
            for to in squares(ends):
                move = row[to][b[to] is not None]
                if won & BIT[to]:
                    out.append(move)
                    rescued.append(move)
                elif safe & BIT[to] or (frm in crowns and len(crowns) > 1
                                        and guards.safe_after(frm, to)):
                    out.append(move)
                elif self._rescued_by_swap(crowns, frm, to, move, guards):
                    out.append(move)
                    rescued.append(move)
        return out

    def _prime_safe(self, frm: int, ends: int, guards: Guards) -> int:
        """The squares of ``ends`` where the mover's only Prime, on ``frm``, is safe once it
        has moved there (D-9): no enemy reaches it with ``frm`` empty, the one taken
        there aside (whether a square is reached does not depend on what stands on it)."""
        vacated = guards.occupied & ~BIT[frm]
        each = [(j, k.ends(j, vacated)) for j, k, empty in guards.enemy if empty & ends]
        reached = functools.reduce(operator.or_, (e for _, e in each), 0)
        safe = ends & ~reached
        for to in squares(ends & reached & self._sides[3 - self._turn]):
            if not any(e & BIT[to] for j, e in each if j != to):
                safe |= BIT[to]
        return safe

    def _rescued_by_swap(self, crowns: Sequence[int], frm: int, to: int, move: Move,
                         guards: Guards) -> bool:
        """Whether the turn of the move ``frm``-``to``, which leaves a Prime attacked, can
        still end legally (D-8, D-9): worked out here for one Prime and a move that
        neither captures nor ends where a draw is open (then only a swap carrying a crown
        can help), else by playing the turn's decisions out."""
        me = self._turn
        if len(crowns) != 1 or self._board[to] is not None or to // SIZE in _ZONE_ROWS[3 - me]:
            return self._may_rescue(crowns, frm, to) and self._completes_after(move)
        b, c, after = self._board, crowns[0], _moved(self._sides, frm, to)
        if c == frm:
            swaps = [(b[frm].counts, b[u].counts, to, u) for u in _NEAR[to]
                     if after[me] & BIT[u]]
        elif c in _NEAR[to]:
            swaps = [(b[c].counts, b[frm].counts, c, to)]
        else:
            return False
        for give, take, src, dst in swaps:
            for pieces in _swap_pieces(give, take):
                if "k" in pieces:
                    keeps = give[CROWN] > _counts(pieces)[CROWN]
                    if not guards.reached([dst, src] if keeps else [dst], after[1] | after[2]):
                        return True
        return False

    def _may_rescue(self, crowns: list[int], frm: int, to: int) -> bool:
        """After the move ``frm``-``to``, whether a swap could still carry the crown to a
        square no enemy reaches (D-8, D-9): the moved Prime hands it to a neighbouring
        friend, or a neighbouring Prime hands it to the moved figure. With several crowns
        the full search decides."""
        if len(crowns) != 1:
            return any(c == frm or c in _NEAR[to] for c in crowns)
        c, me = crowns[0], self._turn
        after = _moved(self._sides, frm, to)
        if c == frm:
            places = [u for u in _NEAR[to] if after[me] & BIT[u]]
        elif c in _NEAR[to]:
            places = [to]
        else:
            return False
        # The enemy's squares after the move are the figures standing there now.
        return any(not self._attacked([u], 3 - me, after) for u in places)

    def _options(self) -> list[Move]:
        """The decisions D-7 and D-8 allow now (D-9 not applied)."""
        if self._opts is None:
            self._opts = self._list_options()
        return self._opts

    def _list_options(self) -> list[Move]:
        b, t = self._board, self._moved
        fig = b[t]
        if self._phase == ATTACK:  # D-7
            return [*_choices("take", fig.counts, self._captured.counts), NONE]
        out: list[Move] = []
        swap_open, draw_open = self._open
        if swap_open:  # D-8 Swap
            here = CELLS[t]
            for u in _NEAR[t]:
                other = b[u]
                if other is None or other.owner != fig.owner:
                    continue
                there = CELLS[u]
                out += [Move("swap", here, there, False, pieces)
                        for pieces in _swap_pieces(fig.counts, other.counts)]
                out += [Move("swap", there, here, False, pieces)
                        for pieces in _swap_pieces(other.counts, fig.counts)]
        if draw_open and t // SIZE in _ZONE_ROWS[3 - fig.owner]:  # D-8 Resource
            out += _choices("draw", fig.counts, self._pool)
        return out

    # -- push / pop -------------------------------------------------------------------------

    def _play(self, move: Move) -> tuple:
        b = self._board
        saved = (self._turn, self._phase, self._moved, self._captured, self._open, self._pool,
                 self._lost_side, self._sides, self._known_safe, self._primes)
        mover, listed = self._turn, self._legal
        self._opts = None
        self._hits[self._turn].clear()
        kind_of = move.kind
        if kind_of == "move":
            frm, to = _INDEX[move.frm], _INDEX[move.to]
            changed = self._keep(frm, to)
            victim = b[to]
            b[to], b[frm] = b[frm], None
            self._kinds[to], self._kinds[frm] = self._kinds[frm], None
            self._sides = _moved(self._sides, frm, to)
            if b[to].counts[CROWN] or (victim is not None and victim.counts[CROWN]):
                self._recrown(frm, to)
            self._moved = to
            if victim is not None:
                if victim.counts[CROWN]:
                    self._lost_side = self._find_lost()
                self._captured = victim
                self._phase = ATTACK
            else:
                self._enter_extras()
            # D-9 was judged when the moves were listed: safe unless rescued.
            self._known_safe = (self._turn == mover and listed is not None and move in listed
                                and move not in self._rescued)
            return saved, changed
        self._known_safe = False
        if kind_of == "take" or (kind_of == "none" and self._phase == ATTACK):
            t = self._moved
            taken = _counts(move.pieces)
            changed = self._keep(t)
            self._put(t, _add(b[t].counts, taken))
            self._pool = _add(self._pool, _add(self._captured.counts, taken, -1))
            self._captured = None
            self._enter_extras()
        elif kind_of == "swap":
            frm, to = _INDEX[move.frm], _INDEX[move.to]
            c = _counts(move.pieces)
            changed = self._keep(frm, to)
            self._put(frm, _add(b[frm].counts, c, -1))
            self._put(to, _add(b[to].counts, c))
            self._open = (False, self._open[1])
            self._after_extra()
        elif kind_of == "draw":
            t = self._moved
            c = _counts(move.pieces)
            changed = self._keep(t)
            self._put(t, _add(b[t].counts, c))
            self._pool = _add(self._pool, c, -1)
            self._open = (self._open[0], False)
            self._after_extra()
        else:
            changed = ()
            self._end_turn()
        return saved, changed

    def _keep(self, *cells: int) -> tuple:
        """What stands on ``cells`` now, for :meth:`_unplay`."""
        return tuple((sq, self._board[sq], self._kinds[sq]) for sq in cells)

    def _put(self, sq: int, counts: tuple[int, ...]) -> None:
        """The figure on ``sq`` now holds ``counts``."""
        fig = self._board[sq]
        fig = self._board[sq] = Figure(fig.owner, fig.base, counts)
        self._kinds[sq] = kind(fig)
        if counts[CROWN] or self._primes[fig.owner] & BIT[sq]:
            self._recrown(sq)

    def _recrown(self, *cells: int) -> None:
        """:attr:`_primes` after the figures on ``cells`` changed."""
        crowned = list(self._primes)
        for sq in cells:
            crowned[1] &= ~BIT[sq]
            crowned[2] &= ~BIT[sq]
            fig = self._board[sq]
            if fig is not None and fig.counts[CROWN]:
                crowned[fig.owner] |= BIT[sq]
        self._primes = (0, crowned[1], crowned[2])

    def _enter_extras(self) -> None:
        self._phase = EXTRAS
        self._open = (True, True)
        self._after_extra()

    def _after_extra(self) -> None:
        if self._lost() or not self._options():
            self._end_turn()

    def _end_turn(self) -> None:
        if self._lost():
            self._phase = EXTRAS  # the game is over; the mover stays on move
            return
        self._turn = 3 - self._turn
        self._phase = MOVE
        self._moved = -1
        self._captured = None
        self._open = (True, True)

    def _unplay(self, move: Move, undo: tuple) -> None:
        saved, changed = undo
        for sq, fig, its_kind in changed:
            self._board[sq], self._kinds[sq] = fig, its_kind
        (self._turn, self._phase, self._moved, self._captured, self._open, self._pool,
         self._lost_side, self._sides, self._known_safe, self._primes) = saved
        self._opts = None
        self._hits[self._turn].clear()

    def _copy(self) -> TesuldaState:
        other = TesuldaState.__new__(TesuldaState)
        GameState.__init__(other)
        other._board, other._kinds = list(self._board), list(self._kinds)
        other._turn, other._pool, other._sides = self._turn, self._pool, self._sides
        other._opts, other._hits = None, ({}, {}, {})
        other._rescued, other._known_safe = self._rescued, self._known_safe
        other._phase, other._moved, other._captured = self._phase, self._moved, self._captured
        other._open, other._lost_side = self._open, self._lost_side
        other._primes = self._primes
        return other

    def outcome(self) -> Outcome | None:
        lost = self._lost()
        if lost:
            return Outcome(PLAYERS[2 - lost], "the Prime was captured")
        if self._phase == MOVE and not self.legal_moves():
            if self._safe(self._turn):
                return Outcome(None, "no legal turn, the Prime not attacked")
            return Outcome(PLAYERS[2 - self._turn], "no legal turn with the Prime attacked")
        return None

    # -- notation ---------------------------------------------------------------------------

    def move_str(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise MoveSyntaxError(f"not a Tesulda decision: {text!r} ({_SYNTAX})")
        norm = text.strip()
        if norm.lower() == "none":
            return NONE
        m = _MOVE_RE.match(norm.lower())
        if m:
            if m[1] == m[3]:
                raise MoveSyntaxError(f"not a Tesulda move: {text!r}: a move must leave "
                                      "its square")
            return _MOVES[_INDEX[m[1]], _INDEX[m[3]], m[2] == "x"]
        m = _SWAP_RE.match(norm)
        if m:
            if m[2] == m[3] or _INDEX[m[3]] not in _NEAR[_INDEX[m[2]]]:
                raise MoveSyntaxError(f"not a Tesulda swap: {text!r}: {m[2]} and {m[3]} "
                                      "are not neighbours")
            return Move("swap", m[2], m[3], False, pieces_str(parse_pieces(m[1])))
        m = _TAKE_RE.match(norm)
        if m:
            return Move(m[1], pieces=pieces_str(parse_pieces(m[2])))
        raise MoveSyntaxError(f"not a Tesulda decision: {text!r} ({_SYNTAX})")

    # -- text and pieces --------------------------------------------------------------------

    def position_str(self) -> str:
        sides = []
        for side, player in enumerate(PLAYERS, start=1):
            figs = [f"{CELLS[i]}={f}" for i, f in enumerate(self._board)
                    if f is not None and f.owner == side]
            sides.append(f"{player}:{','.join(figs)}")
        parts = [*sides, f"pool:{pieces_str(self._pool)}", self.to_move]
        if self._phase != MOVE:
            parts.append(f"moved:{CELLS[self._moved]}")
            if self._phase == ATTACK:
                parts.append(f"taking:{self._captured}")
            else:
                parts.append("open:" + ",".join(
                    n for n, o in zip(("swap", "draw"), self._open, strict=True) if o))
        return " ".join(parts)

    def physical(self) -> dict[str, tuple[str, ...]]:
        return {CELLS[i]: _physical(f) for i, f in enumerate(self._board) if f is not None}


def _hopeless(move: Move) -> bool:
    """A decision that cannot end a turn whose Prime is attacked now (D-9): a swap without
    a crown (D-8) leaves every Prime where it is, and the board and the enemy as they are;
    only a draw can follow it, and a draw adds Primes, never takes one away."""
    return move.kind == "swap" and "k" not in move.pieces


_LISTS: dict[tuple[int, int, int], tuple[Move, ...]] = {}


def _listed(frm: int, ends: int, enemy: int) -> tuple[Move, ...]:
    """The moves from ``frm`` onto the squares ``ends`` (captures where ``enemy`` stands),
    sorted; remembered."""
    key = (ends, ends & enemy, frm)
    found = _LISTS.get(key)
    if found is None:
        if len(_LISTS) >= 100_000:
            _LISTS.clear()
        row = _MOVES_FROM[frm]
        found = _LISTS[key] = tuple(row[to][bool(enemy & BIT[to])] for to in squares(ends))
    return found


_PHYSICAL: dict[Figure, tuple[str, ...]] = {}


def _physical(fig: Figure) -> tuple[str, ...]:
    """A figure's piece names bottom to top: its base, then its pieces."""
    names = _PHYSICAL.get(fig)
    if names is None:
        names = _PHYSICAL[fig] = (
            f"{PLAYERS[fig.owner - 1]}-{BASES[fig.base]}",
            *(PIECE_KINDS[k] for k, n in enumerate(fig.counts) for _ in range(n)),
        )
    return names


def new_game(setup: object = None, first: str = "light") -> TesuldaState:
    """The start position: ``setup`` is a setup text (see :mod:`rules.tesulda_setup`) or
    ``None`` for the default pattern of D-11; ``first`` is who moves first (D-2)."""
    if first not in PLAYERS:
        raise PositionError(f"first must be one of {', '.join(PLAYERS)}, got {first!r}")
    return TesuldaState(tesulda_setup.start_board(setup), PLAYERS.index(first) + 1)


_POSITION_HELP = ("Tesulda position must be 'light:CELL=FIG,... dark:CELL=FIG,... "
                  "pool:PIECES PLAYER [moved:CELL taking:FIG | moved:CELL open:swap,draw]'")


def from_position(text: str) -> TesuldaState:
    """Read a position written by ``position_str()``."""
    parts = text.split() if isinstance(text, str) else []
    if not 4 <= len(parts) <= 6 or parts[3] not in PLAYERS or len(parts) == 5:
        raise PositionError(f"{_POSITION_HELP}, got {text!r}")
    board: list[Figure | None] = [None] * _N
    for side, (player, part) in enumerate(zip(PLAYERS, parts[:2], strict=True), start=1):
        label, colon, figs = part.partition(":")
        if label != player or not colon:
            raise PositionError(f"expected '{player}:' in Tesulda position, got {part!r}")
        for item in filter(None, figs.split(",")):
            cell, eq, fig_text = item.partition("=")
            if cell not in _INDEX or not eq:
                raise PositionError(f"{player}: {item!r} must be CELL=FIGURE with a cell "
                                    "a1..j10")
            try:
                fig = parse_figure(fig_text, side)
            except ValueError as err:
                raise PositionError(f"{player} {cell}: {err}") from None
            fault = figure_fault(fig)
            if fault:
                raise PositionError(f"{player} {cell}: {fault}")
            if board[_INDEX[cell]] is not None:
                raise PositionError(f"square {cell} holds two figures")
            board[_INDEX[cell]] = fig
    label, colon, pool_text = parts[2].partition(":")
    if label != "pool" or not colon:
        raise PositionError(f"expected 'pool:PIECES' in Tesulda position, got {parts[2]!r}")
    try:
        pool = parse_pieces(pool_text)
    except ValueError as err:
        raise PositionError(f"pool: {err}") from None
    state = TesuldaState(board, PLAYERS.index(parts[3]) + 1, pool)
    if len(parts) == 6:
        _read_phase(state, parts[4], parts[5])
    if not state._crowns(1) and not state._crowns(2):
        raise PositionError("neither side has a crown; a side without one has lost (D-10)")
    return state


def _read_phase(state: TesuldaState, moved: str, rest: str) -> None:
    label, _, cell = moved.partition(":")
    if label != "moved" or cell not in _INDEX:
        raise PositionError(f"expected 'moved:CELL' in Tesulda position, got {moved!r}")
    t = _INDEX[cell]
    fig = state._board[t]
    if fig is None or fig.owner != state._turn:
        raise PositionError(f"moved:{cell} must hold a figure of {state.to_move}")
    state._moved = t
    key, _, value = rest.partition(":")
    if key == "taking":
        try:
            captured = parse_figure(value, 3 - state._turn)
        except ValueError as err:
            raise PositionError(f"taking: {err}") from None
        state._phase, state._captured = ATTACK, captured
    elif key == "open" and value and set(value.split(",")) <= {"swap", "draw"}:
        opened = value.split(",")
        state._phase, state._open = EXTRAS, ("swap" in opened, "draw" in opened)
    else:
        raise PositionError(f"expected 'taking:FIGURE' or 'open:swap,draw' in Tesulda "
                            f"position, got {rest!r}")


# The setups read this module's figures; imported last, with the rules, not by the first
# new_game().
from . import tesulda_setup  # noqa: E402
