"""Tesulda's figures and pieces: what a figure holds (D-2, D-3), how it moves (D-4, D-5a,
as :mod:`rules.tesulda_reach` kinds), and which pieces D-7's and D-8's choices may hand
over, each worked out once per holding.

>>> fig = parse_figure("Skh", 2)
>>> str(fig), fig.size, figure_words(fig)
('Skh', 3, 'dark square base with crown, hexagon')
>>> traits(parse_figure("Ccczh", 1))
Traits(straight=0, diagonal=5, jumper=False, dodger=True, minion=False)
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from typing import NamedTuple

from .geometry import grid
from .tesulda_reach import BIT, Kind, Traits

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


#: ``_ONE_PIECE[k]``: one piece of kind ``k`` as its letter and :func:`_load`;
#: ``_TWO_PIECES[k][j]``: a piece of kind ``k`` and one of kind ``j``.
_ONE_PIECE = tuple((PIECE_LETTERS[k], *_load(tuple(int(i == k) for i in range(7))))
                   for k in range(7))
_TWO_PIECES = tuple(tuple((PIECE_LETTERS[k] + PIECE_LETTERS[j],
                           *_load(tuple(int(i == k) + int(i == j) for i in range(7))))
                          for j in range(7)) for k in range(7))


@functools.cache
def _parts(counts: tuple[int, ...]) -> tuple[tuple[str, int, int, bool, bool], ...]:
    """Every distinct multiset of 1 or 2 pieces out of ``counts``, each as its letters and
    :func:`_load`, in the order of the letters."""
    kinds = [k for k in range(7) if counts[k]]
    out = []
    for a, k in enumerate(kinds):
        out.append(_ONE_PIECE[k])
        out += [_TWO_PIECES[k][j] for j in kinds[a:] if j != k or counts[k] >= 2]
    return tuple(sorted(out))


@functools.cache
def _givable(give: tuple[int, ...]) -> tuple[tuple[str, int, int, bool, bool], ...]:
    """:func:`_parts` a figure holding ``give`` may hand over and still swap (D-8); what
    is left of a figure within D-3 is within it too."""
    plain = _load(give)[0]
    return tuple(part for part in _parts(give) if SWAP_MIN <= plain - part[1] <= SWAP_MAX)


@functools.cache
def _swaps_onto(give: tuple[int, ...], load: tuple[int, int, bool, bool]) -> tuple[str, ...]:
    """:func:`_swap_pieces` onto a neighbour of that :func:`_load`, sorted."""
    plain, size, crown, star = load
    return tuple(text for text, c_plain, c_size, c_crown, c_star in _givable(give)
                 if SWAP_MIN <= plain + c_plain <= SWAP_MAX and size + c_size <= CAP
                 and not ((crown or c_crown) and (star or c_star)))


_SWAPS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[str, ...], ...]] = {}


def _swap_pieces(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """The pieces a figure holding ``a`` may hand to a neighbour holding ``b``, and those
    ``b`` may hand to ``a`` (D-8: both keep 1-4 plain pieces, within the cap), each in the
    order of their letters."""
    found = _SWAPS.get((a, b))
    if found is None:
        found = _SWAPS[a, b] = (_swaps_onto(a, _load(b)), _swaps_onto(b, _load(a)))
    return found


def _crown_hand(give: tuple[int, ...], take: tuple[int, ...]) -> int:
    """How a figure holding ``give`` may hand a crown to a neighbour holding ``take``
    (D-8): 1 by a swap that leaves it without one, else 2 by one that leaves it one (it
    held two), else 0."""
    return _crown_onto(give, _load(take))


@functools.cache
def _crown_onto(give: tuple[int, ...], load: tuple[int, int, bool, bool]) -> int:
    """:func:`_crown_hand` onto a neighbour of that :func:`_load`."""
    hand = 0
    for pieces in _swaps_onto(give, load):
        if "k" in pieces:
            if give[CROWN] <= pieces.count("k"):
                return 1
            hand = 2
    return hand


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


def _holdings() -> list[tuple[int, ...]]:
    """Every holding D-3 allows: the counts of up to 5 pieces, the crown counting 2, never
    a crown with a star."""
    out = []
    for n in range(CAP + 1):
        for pieces in itertools.combinations_with_replacement(range(len(PIECE_KINDS)), n):
            counts = tuple(pieces.count(k) for k in range(len(PIECE_KINDS)))
            if _fits(counts):
                out.append(counts)
    return out


#: ``_FIGURES[owner, base, counts]``: every figure D-3 allows and its kind, built once:
#: a figure whose pieces change is looked up here, not built again.
_FIGURES = {(owner, base, counts): (fig, kind(fig))
            for counts in _holdings() for owner in (1, 2) for base in range(len(BASES))
            for fig in (Figure(owner, base, counts),)}


def _refigure(fig: Figure, counts: tuple[int, ...]) -> tuple[Figure, Kind]:
    """``fig`` holding ``counts`` instead, and its kind."""
    found = _FIGURES.get((fig.owner, fig.base, counts))
    if found is None:  # beyond D-3 (a decision pushed without its legality checked)
        new = Figure(fig.owner, fig.base, counts)
        found = new, kind(new)
    return found
