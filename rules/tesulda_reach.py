"""Where a Tesulda figure can move, as bitmasks over the 100 squares, worked out once per
kind of mover, square and the occupancy that matters to it.

A square is its index in ``rules.tesulda.CELLS`` (``a1`` 0, ``b1`` 1, ``a2`` 10); its bit
in a mask is ``BIT[square]``, in the order of the squares' names (``a1``, ``a10``, ``a2``,
..., ``j9``), so that :func:`squares` lists a mask's squares in the order moves sort in.

Rulings: D-4 (ratings, given as :class:`Traits`), D-5 (1..rating squares in one
direction, the path not passing occupied squares; a Jumper moves exactly its rating over
anything; a Dodger may add one leg of the other kind), D-6 (a Minion ends strictly nearer
the enemy's starting zone). A move's end may hold any figure; the caller leaves out its own.

A mover's ends depend only on which squares of its possible paths are occupied (its
``relevant`` mask), so ``Kind.ends(frm, occupied)`` is remembered per
``occupied & relevant``: a search meets the same local picture again and again.

>>> t = Traits(straight=2, diagonal=0, jumper=False, dodger=False, minion=False)
>>> kind = Kind.of(t, 1)
>>> squares(kind.ends(0, 0))  # a1 on an empty board: a2, a3, b1, c1
(10, 20, 1, 2)
>>> squares(kind.ends(0, BIT[1]))  # b1 occupied: it may be taken, c1 not reached
(10, 20, 1)
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from typing import NamedTuple

SIZE = 10
N = SIZE * SIZE
# Directions 0-3 straight, 4-7 diagonal; (dx, dy) with x the file and y the rank.
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
STRAIGHT, DIAGONAL = (0, 1, 2, 3), (4, 5, 6, 7)


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for i in range(N):
        x, y = i % SIZE, i // SIZE
        per = []
        for dx, dy in DIRS:
            ray, cx, cy = [], x + dx, y + dy
            while 0 <= cx < SIZE and 0 <= cy < SIZE:
                ray.append(cy * SIZE + cx)
                cx, cy = cx + dx, cy + dy
            per.append(tuple(ray))
        out.append(tuple(per))
    return tuple(out)


#: The most ends (and lists of squares) remembered before they are all forgotten.
REMEMBERED = 300_000
#: The squares in the order of their names: a1, a10, a2, ..., a9, b1, ...
NAME_ORDER = tuple(sorted(range(N), key=lambda i: (i % SIZE, str(i // SIZE + 1))))
#: ``BIT[square]``: the square's bit in a mask.
BIT = tuple(1 << NAME_ORDER.index(i) for i in range(N))
#: Every square.
ALL = (1 << N) - 1

#: ``RAYS[square][direction]``: the squares from ``square`` outwards, nearest first.
RAYS = _rays()
#: ``PREFIX[square][direction][n]``: the mask of the first ``n`` squares of the ray.
PREFIX = tuple(tuple(tuple(sum(BIT[c] for c in ray[:n])
                           for n in range(len(ray) + 1)) for ray in per) for per in RAYS)
#: The 8-adjacent squares of each square.
NEAR = tuple(tuple(sorted(r[0] for r in RAYS[i] if r)) for i in range(N))
#: The mask of :data:`NEAR`'s squares.
NEAR_BITS = tuple(sum(BIT[u] for u in near) for near in NEAR)


def zone_distance(side: int, row: int) -> int:
    """Row distance from ``row`` to the starting zone of ``side``'s enemy (D-6)."""
    return max(0, 8 - row) if side == 1 else max(0, row - 1)


#: ``NEARER[side][row]``: the squares strictly nearer the enemy's zone than ``row`` (D-6).
NEARER = {side: tuple(sum(BIT[sq] for sq in range(N)
                          if zone_distance(side, sq // SIZE) < zone_distance(side, row))
                      for row in range(SIZE))
          for side in (1, 2)}


DIR_INDEX = {d: i for i, d in enumerate(DIRS)}


def leg(dx: int, dy: int) -> tuple[int, int, int] | None:
    """(direction, length, kind) of a one-direction step (dx, dy); kind 0 straight,
    1 diagonal; None if it is neither."""
    if dx == 0 or dy == 0:
        n = abs(dx) + abs(dy)
        return (DIR_INDEX[(dx // n, dy // n)], n, 0) if n else None
    if abs(dx) == abs(dy):
        n = abs(dx)
        return DIR_INDEX[(dx // n, dy // n)], n, 1
    return None


class Traits(NamedTuple):
    """D-4's ratings and the D-5a traits of a figure as it stands."""

    straight: int
    diagonal: int
    jumper: bool
    dodger: bool
    minion: bool


_BYTES = (N + 7) // 8
#: ``_SQUARES[k * 256 + b]``: the squares of the bits of ``b`` in the mask's ``k``-th byte.
_SQUARES = tuple(tuple(NAME_ORDER[k * 8 + i] for i in range(8) if b >> i & 1
                       and k * 8 + i < N)
                 for k in range(_BYTES) for b in range(256))


#: ``BELOW_LENGTH[n]``: the bits below the highest of a mask whose ``bit_length()`` is n;
#: ``_NAMED_LENGTH[n]``: the square of that highest bit.
BELOW_LENGTH = (0, *((1 << k) - 1 for k in range(N)))
_NAMED_LENGTH = (-1, *NAME_ORDER)

_LISTED: dict[int, tuple[int, ...]] = {}


def squares(mask: int) -> tuple[int, ...]:
    """The squares of a mask, in the order of their names (remembered: a search lists
    the same masks again and again)."""
    found = _LISTED.get(mask)
    if found is None:
        if len(_LISTED) >= REMEMBERED:
            _LISTED.clear()
        out: list[int] = []
        if mask.bit_count() < 6:  # a few bits: found from the highest down
            rest, below = mask, BELOW_LENGTH
            while rest:
                n = rest.bit_length()
                out.append(_NAMED_LENGTH[n])
                rest &= below[n]
            out.reverse()
        else:
            for k, byte in enumerate(mask.to_bytes(_BYTES, "little")):
                if byte:
                    out += _SQUARES[k * 256 + byte]
        found = _LISTED[mask] = tuple(out)
    return found


def squares_moved(mask: int, frm: int, to: int) -> tuple[int, ...]:
    """:func:`squares` of a side's squares ``mask`` after its figure on ``frm`` moved to
    ``to``: worked out from the squares before the move when those are remembered."""
    was = None if mask & BIT[frm] or not mask & BIT[to] else _LISTED.get(
        mask & ~BIT[to] | BIT[frm])
    if was is None:
        return squares(mask)
    out = list(was)
    out.remove(frm)
    out.insert((mask & BIT[to] - 1).bit_count(), to)  # after the squares named before it
    if len(_LISTED) >= REMEMBERED:
        _LISTED.clear()
    found = _LISTED[mask] = tuple(out)
    return found


def _legs(t: Traits):
    """(first-leg directions, rating, second-leg directions, rating or 0) of each kind."""
    second_d = t.diagonal if t.dodger else 0
    second_s = t.straight if t.dodger else 0
    return ((STRAIGHT, t.straight, DIAGONAL, second_d),
            (DIAGONAL, t.diagonal, STRAIGHT, second_s))


def _order(ray: tuple[int, ...]) -> int:
    """1 where a ray's bits rise outwards, -1 where they fall, 0 where they rise but for a
    last square on rank 10, whose bit lies below the others (the squares' name order)."""
    bits = [BIT[sq] for sq in ray]
    if bits == sorted(bits):
        return 1
    if bits == sorted(bits, reverse=True):
        return -1
    assert bits[:-1] == sorted(bits[:-1]) and bits[-1] < bits[0] and ray[-1] // SIZE == SIZE - 1
    return 0


#: ``ORDER[square][direction]``: :func:`_order` of the ray.
ORDER = tuple(tuple(_order(ray) for ray in per) for per in RAYS)


def _fan_index(sq: int, kind: int, rating: int) -> int:
    """A fan's place in the fan tables (kind 0 straight, 1 diagonal; a rating past the
    board's edge is the same as 9)."""
    return (sq * 2 + kind) * SIZE + (rating if rating < SIZE else SIZE - 1)


def _fan_rays(sq: int, kind: int, rating: int) -> tuple[tuple[int, int, int], ...]:
    """A fan's rays that leave the board's edge behind: each as the squares it may reach
    on an empty board, :data:`ORDER`, and the bit of the ray's last square."""
    out = []
    for d in (DIAGONAL if kind else STRAIGHT):
        pre = PREFIX[sq][d]
        if len(pre) > 1:
            out.append((pre[min(rating, len(pre) - 1)], ORDER[sq][d], BIT[RAYS[sq][d][-1]]))
    return tuple(out)


#: ``FAN_RAYS[_fan_index(...)]``: :func:`_fan_rays`; ``FAN_READ[...]``: the squares whose
#: occupancy a fan reads (every square of its paths but the last); ``FAN_EMPTY[...]``: its
#: ends on an empty board.
FAN_RAYS = tuple(_fan_rays(sq, kind, rating)
                 for sq in range(N) for kind in (0, 1) for rating in range(SIZE))
FAN_READ = tuple(functools.reduce(operator.or_, (
    PREFIX[sq][d][max(0, min(rating, len(PREFIX[sq][d]) - 1) - 1)]
    for d in (DIAGONAL if kind else STRAIGHT)))
    for sq in range(N) for kind in (0, 1) for rating in range(SIZE))
FAN_EMPTY = tuple(functools.reduce(operator.or_, (reach for reach, _, _ in rays), 0)
                  for rays in FAN_RAYS)
#: Per fan, its ends per occupancy of the squares it reads.
_FAN_MEMO: tuple[dict[int, int], ...] = tuple({} for _ in FAN_RAYS)


def _fan_ends(index: int, occupied: int) -> int:
    """The ends of a fan (one leg of one kind, D-5, in each of its four directions, of up
    to its rating), each ray stopped by its first occupied square (which it may end on)."""
    ends = 0
    for reach, order, last in FAN_RAYS[index]:
        hit = occupied & reach
        if not hit:
            ends |= reach
            continue
        if order < 0:  # the nearest occupied square has the highest bit
            ends |= reach & -(1 << (hit.bit_length() - 1))
            continue
        if not order:  # rank 10's square, the ray's last, has the lowest bit
            if not hit & ~last:
                ends |= reach
                continue
            hit &= ~last
            reach &= ~last
        ends |= reach & ((hit & -hit) << 1) - 1
    return ends


def _fan(index: int, occupied: int) -> int:
    """The ends of the fan ``index`` (:func:`_fan_index`) with ``occupied`` the occupied
    squares."""
    key = occupied & FAN_READ[index]
    if not key:
        return FAN_EMPTY[index]
    memo = _FAN_MEMO[index]
    found = memo.get(key)
    if found is None:
        found = _fan_ends(index, key)
        if len(memo) >= 4096:
            memo.clear()
        memo[key] = found
    return found


def _walk(t: Traits, frm: int, occupied: int) -> tuple[int, int]:
    """(ends, relevant): the squares the mover on ``frm`` may end on (D-5, D-5a; D-6 not
    applied) with ``occupied`` as the occupancy, and the squares whose occupancy matters
    (with an empty board: every one it may read)."""
    if t.jumper:
        return _jump(t, frm), 0
    ends = relevant = 0
    for kind, rating, other in ((0, t.straight, t.diagonal), (1, t.diagonal, t.straight)):
        if not rating:
            continue
        index = _fan_index(frm, kind, rating)
        reached = _fan(index, occupied)
        ends |= reached
        if not (t.dodger and other):
            relevant |= FAN_READ[index]
            continue
        # D-5 Dodger: a second leg of the other kind from every square entered empty.
        relevant |= FAN_EMPTY[index]
        at = _fan_index(0, 1 - kind, other)  # a square's fan is 2 * SIZE further on
        for sq in squares(reached & ~occupied):
            index = at + sq * 2 * SIZE
            ends |= _fan(index, occupied)
            relevant |= FAN_READ[index]
    return ends, relevant


def _dodge(legs: tuple[tuple[int, int], ...], frm: int, occupied: int) -> int:
    """The ends of a Dodger with both ratings (D-5 Dodger; :func:`_walk`'s ends) on
    ``frm``: ``legs`` holds, per kind of first leg, :func:`_fan_index` of its fan and of
    the other kind's fan on square 0."""
    ends, at, below = 0, frm * 2 * SIZE, BELOW_LENGTH
    for first, second in legs:
        reached = _fan(at + first, occupied)
        ends |= reached
        rest = reached & ~occupied
        while rest:  # each square entered empty, from the highest bit down
            n = rest.bit_length()
            rest &= below[n]
            index = second + _FAN_AT_LENGTH[n]
            key = occupied & FAN_READ[index]
            if not key:
                ends |= FAN_EMPTY[index]
                continue
            found = _FAN_MEMO[index].get(key)
            ends |= _fan(index, occupied) if found is None else found
    return ends


def _dodge_reads(legs: tuple[tuple[int, int], ...], frm: int) -> tuple[int, int]:
    """(ends on an empty board, the squares whose occupancy matters) of :func:`_dodge`'s
    Dodger on ``frm``: every square of its first legs, and what its second legs read."""
    ends = relevant = 0
    at, below = frm * 2 * SIZE, BELOW_LENGTH
    for first, second in legs:
        rest = FAN_EMPTY[at + first]
        ends |= rest
        relevant |= rest
        while rest:
            n = rest.bit_length()
            rest &= below[n]
            index = second + _FAN_AT_LENGTH[n]
            ends |= FAN_EMPTY[index]
            relevant |= FAN_READ[index]
    return ends, relevant


#: ``_FAN_AT_LENGTH[n]``: :func:`_fan_index` of the square of the highest bit of a mask
#: whose ``bit_length()`` is n, less its kind and rating.
_FAN_AT_LENGTH = tuple(sq * 2 * SIZE for sq in _NAMED_LENGTH)


def _jump(t: Traits, frm: int) -> int:
    """D-5a Jumper: exactly its rating in each direction, over anything; a Dodger's second
    leg too, exactly the other rating from each such corner."""
    ends = 0
    for dirs, rating, other_dirs, other in _legs(t):
        if not rating:
            continue
        for d in dirs:
            ray = RAYS[frm][d]
            if len(ray) >= rating:
                corner = ray[rating - 1]
                ends |= BIT[corner]
                for d2 in other_dirs if other else ():
                    if len(RAYS[corner][d2]) >= other:
                        ends |= BIT[RAYS[corner][d2][other - 1]]
    return ends


def _corners_at(d: int, dx: int, dy: int) -> set[int]:
    """How far a first leg in direction ``d`` may go for a second leg of the other kind to
    end (dx, dy) from the start (D-5 Dodger): a straight leg then a diagonal one needs
    |dx - a*ux| = |dy - a*uy|, a diagonal then a straight one leaves dx or dy at 0."""
    ux, uy = DIRS[d]
    if d < 4:
        return {ux * (dx + s * abs(dy)) for s in (-1, 1)} if ux else \
            {uy * (dy + s * abs(dx)) for s in (-1, 1)}
    return {ux * dx, uy * dy}


def paths(t: Traits, owner: int, frm: int, target: int) -> tuple[int, ...]:
    """The ways the mover on ``frm`` may reach ``target`` (D-5, D-5a, D-6), each as the mask
    of the squares it needs empty; ``()`` where none does, ``(0,)`` where nothing can
    block it."""
    if frm == target or (t.minion and zone_distance(owner, target // SIZE)
                         >= zone_distance(owner, frm // SIZE)):
        return ()
    fx, fy, tx, ty = frm % SIZE, frm // SIZE, target % SIZE, target // SIZE
    ratings, out = (t.straight, t.diagonal), set()
    one = leg(tx - fx, ty - fy)
    if not (t.dodger and t.straight and t.diagonal):  # one leg only
        if one is None or not (one[1] == ratings[one[2]] if t.jumper
                               else one[1] <= ratings[one[2]]):
            return ()
        return (0 if t.jumper else PREFIX[frm][one[0]][one[1] - 1],)
    if one is not None:
        d, n, k = one
        if n == ratings[k] if t.jumper else n <= ratings[k]:
            out.add(0 if t.jumper else PREFIX[frm][d][n - 1])
    if t.dodger and t.straight and t.diagonal:
        for d, ray in enumerate(RAYS[frm]):
            k = 0 if d < 4 else 1
            for a in _corners_at(d, tx - fx, ty - fy):
                if not (a == ratings[k] if t.jumper else 1 <= a <= ratings[k]) or a > len(ray):
                    continue
                corner = ray[a - 1]
                rest = leg(tx - corner % SIZE, ty - corner // SIZE)
                if rest is None or rest[2] == k:
                    continue
                d2, n2, _ = rest
                if t.jumper:
                    if n2 == ratings[1 - k]:
                        out.add(0)
                elif n2 <= ratings[1 - k]:
                    out.add(PREFIX[frm][d][a] | PREFIX[corner][d2][n2 - 1])
    return (0,) if 0 in out else tuple(sorted(out))


@functools.cache
def _across(fans: tuple[int, ...], empty: bool = False, minion: int = 0) -> tuple[int, ...]:
    """Per square, the union over the ``fans`` (each :func:`_fan_index` on square 0) of
    :data:`FAN_READ`, or :data:`FAN_EMPTY` within D-6's rows of a ``minion``'s side;
    shared by the kinds of those fans, never changed."""
    table = FAN_EMPTY if empty else FAN_READ
    first, *rest = fans
    out = table[first::2 * SIZE]
    for fan in rest:
        out = map(operator.or_, out, table[fan::2 * SIZE])
    if minion:
        out = map(operator.and_, out, (NEARER[minion][sq // SIZE] for sq in range(N)))
    return tuple(out)


#: :attr:`Kind.memo` of a square not looked up yet.
_UNSEEN: dict[int, int] = {}


class Kind:
    """One kind of mover (its traits; its side matters to a Minion only): per square, the
    squares whose occupancy matters to it and its ends per occupancy of those."""

    __slots__ = ("traits", "owner", "relevant", "empty", "memo", "ways", "fans", "legs",
                 "around")
    _all: dict[tuple[Traits, int], Kind] = {}
    _worked = itertools.count()  # ends worked out since the last forget()

    def __init__(self, t: Traits, owner: int) -> None:
        self.traits, self.owner = t, owner
        # -1 until the square is first asked about (a mover of one leg: every square's
        # from the start, below).
        self.relevant: Sequence[int] = [-1] * N
        self.empty: Sequence[int] = [-1] * N  # the ends on an empty board, -1 as relevant
        # Per square, from its first look-up there: occupied & relevant -> ends (until
        # then one empty dictionary shared by every square, never written to).
        self.memo: list[dict[int, int]] = [_UNSEEN] * N
        self.ways: dict[int, tuple[int, ...]] = {}  # frm * N + target -> paths()
        self.around: dict[int, int] = {}  # frm -> :meth:`near`
        # A mover of one leg: its fans, as :func:`_fan_index` on square 0; else () (see _walk).
        self.fans = () if t.jumper or (t.dodger and t.straight and t.diagonal) else tuple(
            _fan_index(0, kind, rating)
            for kind, rating in ((0, t.straight), (1, t.diagonal)) if rating)
        # A Dodger of both ratings that no Jumper is: see :func:`_dodge`; else ().
        self.legs = () if t.jumper or not (t.dodger and t.straight and t.diagonal) else (
            (_fan_index(0, 0, t.straight), _fan_index(0, 1, t.diagonal)),
            (_fan_index(0, 1, t.diagonal), _fan_index(0, 0, t.straight)))
        if self.fans:  # its fans' tables give every square's at once
            self.relevant = _across(self.fans)
            self.empty = _across(self.fans, True, owner if t.minion else 0)

    def __reduce__(self) -> tuple:
        # Unpickled as this process's own kind: its memo's shared empty dictionary is
        # known by identity, which a copy would lose (every square then sharing one).
        return Kind.of, (self.traits, self.owner)

    @classmethod
    def of(cls, t: Traits, owner: int) -> Kind:
        key = (t, owner if t.minion else 0)
        kind = cls._all.get(key)
        if kind is None:
            kind = cls._all[key] = cls(t, owner)
        return kind

    def ends(self, frm: int, occupied: int) -> int:
        """The squares this mover on ``frm`` may end on (D-5, D-5a, D-6), whatever stands
        there, with ``occupied`` the occupied squares."""
        relevant = self.relevant[frm]
        if relevant < 0:
            relevant = self._visit(frm)
        key = occupied & relevant
        found = self.memo[frm].get(key)
        return self.work_out(frm, occupied, key) if found is None else found

    def work_out(self, frm: int, occupied: int, key: int) -> int:
        """:meth:`ends`, not remembered for ``key`` (``occupied`` & :attr:`relevant`):
        worked out and remembered."""
        if self.relevant[frm] < 0:  # the first visit: key was all of occupied
            return self.ends(frm, occupied)
        found, at = 0, frm * 2 * SIZE
        for fan in self.fans:
            found |= _fan(at + fan, occupied)
        if self.legs:
            found = _dodge(self.legs, frm, occupied)
        elif not self.fans:
            found = _walk(self.traits, frm, key)[0]
        if self.traits.minion:  # D-6
            found &= NEARER[self.owner][frm // SIZE]
        memo = self.memo[frm]
        if memo is _UNSEEN:
            memo = self.memo[frm] = {}
        memo[key] = found
        if next(Kind._worked) >= REMEMBERED:
            Kind.forget()
        return found

    def _visit(self, frm: int) -> int:
        """Work out :attr:`relevant` and :attr:`empty` on ``frm`` (its first visit there)
        and return the former."""
        if self.legs:
            empty, relevant = _dodge_reads(self.legs, frm)
        else:
            empty, relevant = _walk(self.traits, frm, 0)
        if self.traits.minion:  # D-6
            empty &= NEARER[self.owner][frm // SIZE]
        self.relevant[frm] = relevant
        self.empty[frm] = empty
        if not relevant:  # its paths read nothing (a Jumper, ratings of 1): ends known
            self.memo[frm] = {0: empty}
        return relevant

    def anywhere(self, frm: int) -> int:
        """The squares this mover on ``frm`` may end on with the board empty: every
        square it could reach on any board."""
        if self.empty[frm] < 0:
            self._visit(frm)
        return self.empty[frm]

    def near(self, frm: int) -> int:
        """The squares next to or on ``frm`` or a square :meth:`anywhere` gives: where this
        mover, or a neighbour it hands pieces to, could stand after a move (remembered)."""
        found = self.around.get(frm)
        if found is None:
            found = self.around[frm] = functools.reduce(
                operator.or_, (NEAR_BITS[sq] for sq in squares(self.anywhere(frm))),
                NEAR_BITS[frm] | BIT[frm]) | self.anywhere(frm)
        return found

    def paths(self, frm: int, target: int) -> tuple[int, ...]:
        """:func:`paths` of this mover, remembered."""
        key = frm * N + target
        found = self.ways.get(key)
        if found is None:
            found = self.ways[key] = (paths(self.traits, self.owner, frm, target)
                                      if self.anywhere(frm) & BIT[target] else ())
        return found

    def reaches(self, frm: int, target: int, occupied: int) -> bool:
        """Whether this mover on ``frm`` may move onto ``target`` (D-5, D-5a, D-6) with
        ``occupied`` the occupied squares."""
        if not self.anywhere(frm) & BIT[target]:
            return False
        for way in self.paths(frm, target):
            if not way & occupied:
                return True
        return False

    @classmethod
    def forget(cls) -> None:
        """Drop every remembered end (memory stays bounded in a long search)."""
        for kind in cls._all.values():
            for memo in kind.memo:
                memo.clear()
        cls._worked = itertools.count()


class Guards:
    """D-9 at a turn start: for each Prime of the mover, the enemy figures that could
    reach it on some board, with the squares their paths need empty and whether they
    reach it now; a move changes two squares, so only the enemies whose paths cross one
    of them need a second look. ``safe``: where a figure whose square no such path
    crosses may move with every Prime safe after it; ``crossed``: the squares crossed;
    ``enemy``: the square, kind and empty-board ends (-1, every square, where the kind has
    not visited the square yet) of each enemy that could end near a Prime or where a Prime
    could move (:meth:`Kind.near`)."""

    __slots__ = ("crowns", "enemy", "occupied", "safe", "crossed", "_anywhere")

    def __init__(self, crowns: Sequence[int], enemy: Sequence[int], kinds: Sequence[Kind],
                 occupied: int):
        """``enemy``: the enemies' squares; ``kinds``: the kind on each square. Only the
        enemies that could reach a square near a Prime or its moves are kept: D-9 asks
        about no other square."""
        self.occupied = occupied
        zone = 0
        for c in crowns:
            zone |= kinds[c].near(c)
        # -1 where a kind has not visited the square yet: whatever passes is worked out.
        self.enemy = kept = [(j, kinds[j], e) for j in enemy if (e := kinds[j].empty[j]) & zone]
        self._anywhere: int | None = None  # where any of them could end, once asked
        self.crowns, self.safe, self.crossed = [], ALL, 0
        for c in crowns:
            threats, bit = [], BIT[c]
            for j, k, anywhere in kept:
                if not anywhere & bit:
                    continue
                ways = k.paths(j, c)
                if ways:
                    crossed = functools.reduce(operator.or_, ways)
                    hit = k.reaches(j, c, occupied)
                    threats.append((j, ways, crossed, hit))
                    self.crossed |= crossed
                    if hit:  # taken, or every open path blocked by the figure landing
                        self.safe &= BIT[j] | functools.reduce(
                            operator.and_, (w for w in ways if not w & occupied))
            self.crowns.append((c, threats))

    def safe_from(self, frm: int) -> int:
        """The squares a figure without a crown on ``frm`` may move to with every Prime
        safe after it: an enemy that reaches a Prime once ``frm`` is empty must be taken or
        have every open path blocked by the figure landing on it."""
        safe, vacated = ALL, self.occupied & ~BIT[frm]
        for _, threats in self.crowns:
            for j, ways, crossed, hit in threats:
                if crossed & BIT[frm]:
                    open_ways = [w for w in ways if not w & vacated]
                    if open_ways:
                        safe &= BIT[j] | functools.reduce(operator.and_, open_ways)
                elif hit:
                    safe &= BIT[j] | functools.reduce(
                        operator.and_, (w for w in ways if not w & self.occupied))
        return safe

    def _reaching(self, sq: int) -> list[tuple[int, Kind]]:
        """The enemies that could end on ``sq`` on an empty board."""
        if self._anywhere is None:
            self._anywhere = functools.reduce(operator.or_, (e for _, _, e in self.enemy), 0)
        if not self._anywhere & BIT[sq]:
            return []
        return [(j, k) for j, k, e in self.enemy if e & BIT[sq]]

    def reached(self, bits: int, occupied: int) -> bool:
        """Whether an enemy can move onto one of the squares ``bits`` with ``occupied`` the
        occupied squares (the enemies as they stand)."""
        for j, k, empty in self.enemy:
            if empty & bits and k.ends(j, occupied) & bits:
                return True
        return False

    def safe_after(self, frm: int, to: int) -> bool:
        """Whether no enemy can move onto a Prime after the move ``frm``-``to``."""
        changed = BIT[frm] | BIT[to]
        occupied = (self.occupied & ~changed) | BIT[to]
        for c, threats in self.crowns:
            if c == frm:  # the Prime itself moved
                if any(j != to and k.reaches(j, to, occupied) for j, k in self._reaching(to)):
                    return False
                continue
            for j, ways, crossed, hit in threats:
                if j == to:
                    continue  # taken by the move
                if crossed & changed:
                    hit = any(not way & occupied for way in ways)
                if hit:
                    return False
        return True
