"""A naive second implementation of Tesulda, sharing no code with ``rules.tesulda``.

It reads a state through its public API only (``physical()``, ``pool()``, ``to_move``)
and works on plain dicts: every path a figure could take is written out square by square
and checked (D-5, D-5a, D-6), and every complete turn is enumerated as move, attack
choice, then swap and draw in both orders (D-7, D-8), keeping those that leave the
mover's Prime out of every enemy path (D-9).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement

FILES = "abcdefghij"
SIDES = ("light", "dark")
ORTHOGONAL = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


NAMES = {(x, y): f"{FILES[x]}{y + 1}" for x in range(10) for y in range(10)}
XY = {name: xy for xy, name in NAMES.items()}


def square(x: int, y: int) -> str | None:
    return NAMES.get((x, y))


def xy(cell: str) -> tuple[int, int]:
    return XY[cell]


def snapshot(state) -> tuple[dict, Counter]:
    """({cell: (side, base, Counter of pieces)}, pool Counter)."""
    board = {}
    for cell, (base, *pieces) in state.physical().items():
        side, kind = base.split("-")
        board[cell] = (side, kind, Counter(pieces))
    return board, Counter(state.pool())


def weight(pieces: Counter) -> int:
    """Pieces counted the D-3 way: the crown is two."""
    return sum(pieces.values()) + pieces["crown"]


def ratings(base: str, pieces: Counter) -> tuple[int, int]:
    boost = 2 if pieces["hexagon"] > 0 else 1
    straight = diagonal = 0
    if base == "square":
        straight += 1
    if base == "circle":
        diagonal += 1
    straight += boost * pieces["square"] + boost * 3 * pieces["star"]
    diagonal += boost * pieces["circle"] + boost * 3 * pieces["star"]
    return straight, diagonal


def enemy_zone_distance(side: str, cell: str) -> int:
    rank = int(cell[1:])
    if side == "light":
        return 0 if rank >= 9 else 9 - rank
    return 0 if rank <= 2 else rank - 2


def paths(cell: str, base: str, pieces: Counter) -> tuple[tuple[str, ...], ...]:
    """Every path (the squares after the start) the movement rules could allow, before
    looking at what stands on the board."""
    straight, diagonal = ratings(base, pieces)
    return paths_on_empty_board(cell, straight, diagonal, pieces["diamond"] > 0,
                                pieces["trapezoid"] > 0)


@cache
def paths_on_empty_board(cell: str, straight: int, diagonal: int, jumper: bool,
                         dodger: bool) -> tuple[tuple[str, ...], ...]:
    """``paths`` by ratings and traits (they depend on nothing else, so each is worked out
    once)."""
    out = []
    x, y = xy(cell)
    legs = [(ORTHOGONAL, straight, DIAGONALS, diagonal),
            (DIAGONALS, diagonal, ORTHOGONAL, straight)]
    for first_dirs, first_rating, second_dirs, second_rating in legs:
        lengths = [first_rating] if jumper else range(1, first_rating + 1)
        for dx, dy in first_dirs:
            for a in lengths:
                if a == 0:
                    continue
                leg = tuple(square(x + dx * k, y + dy * k) for k in range(1, a + 1))
                if None in leg:
                    continue
                out.append(leg)
                if not dodger:
                    continue
                cx, cy = xy(leg[-1])
                seconds = [second_rating] if jumper else range(1, second_rating + 1)
                for ex, ey in second_dirs:
                    for b in seconds:
                        if b == 0:
                            continue
                        leg2 = tuple(square(cx + ex * k, cy + ey * k) for k in range(1, b + 1))
                        if None not in leg2:
                            out.append(leg + leg2)
    return tuple(out)


def allowed(board: dict, cell: str, path: tuple[str, ...]) -> bool:
    """Whether the figure on ``cell`` may move along ``path`` (D-5, D-5a, D-6)."""
    side, base, pieces = board[cell]
    end = path[-1]
    if end == cell:
        return False
    if not pieces["diamond"] and any(sq in board and sq != cell for sq in path[:-1]):
        return False
    if end in board and board[end][0] == side:
        return False
    minion = base == "triangle" and weight(pieces) <= 2
    return not (minion
                and enemy_zone_distance(side, end) >= enemy_zone_distance(side, cell))


def reach(board: dict, cell: str) -> set[str]:
    """Where the figure on ``cell`` may end a move."""
    _side, base, pieces = board[cell]
    return {path[-1] for path in paths(cell, base, pieces) if allowed(board, cell, path)}


def attacked(board: dict, target: str, by: str) -> bool:
    tx, ty = xy(target)
    for cell, (side, base, pieces) in board.items():
        if side != by:
            continue
        x, y = xy(cell)
        straight, diagonal = ratings(base, pieces)
        if max(abs(x - tx), abs(y - ty)) > straight + diagonal:
            continue  # no path is longer than both ratings together
        if any(path[-1] == target and allowed(board, cell, path)
               for path in paths(cell, base, pieces)):
            return True
    return False


def fits(pieces: Counter) -> bool:
    return weight(pieces) <= 5 and not (pieces["crown"] and pieces["star"])


def plain(pieces: Counter) -> int:
    return sum(pieces.values()) - pieces["crown"] - pieces["star"]


def choices(pieces: Counter) -> list[Counter]:
    """Every distinct set of 1 or 2 physical pieces out of ``pieces``."""
    names = sorted(pieces.elements())
    seen, out = set(), []
    for n in (1, 2):
        for combo in combinations_with_replacement(sorted(set(names)), n):
            c = Counter(combo)
            if all(pieces[k] >= v for k, v in c.items()) and combo not in seen:
                seen.add(combo)
                out.append(c)
    return out


def swaps(board: dict, moved: str) -> list[dict]:
    side = board[moved][0]
    x, y = xy(moved)
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = square(x + dx, y + dy)
            if other in (None, moved) or other not in board or board[other][0] != side:
                continue
            for giver, taker in ((moved, other), (other, moved)):
                for c in choices(board[giver][2]):
                    g, t = board[giver][2] - c, board[taker][2] + c
                    if all(1 <= plain(p) <= 4 and fits(p) for p in (g, t)):
                        after = dict(board)
                        after[giver] = (side, board[giver][1], g)
                        after[taker] = (side, board[taker][1], t)
                        out.append(after)
    return out


def draws(board: dict, pool: Counter, moved: str) -> list[tuple[dict, Counter]]:
    side, base, pieces = board[moved]
    rank = int(moved[1:])
    if (side == "light" and rank < 9) or (side == "dark" and rank > 2):
        return []
    out = []
    for c in choices(pool):
        p = pieces + c
        if fits(p):
            after = dict(board)
            after[moved] = (side, base, p)
            out.append((after, pool - c))
    return out


def key(board: dict, pool: Counter, start: dict):
    """A turn's end as what differs from the turn's ``start``: each cell whose figure
    changed with what it holds now (None when emptied), and the pool. Two ends of turns
    from the same start are the same position exactly when their keys are equal."""
    changed = frozenset(
        (cell, None if board.get(cell) is None else
         (f"{board[cell][0]}-{board[cell][1]}", tuple(sorted(board[cell][2].elements()))))
        for cell in board.keys() | start.keys() if board.get(cell) != start.get(cell))
    return changed, tuple(sorted(pool.elements()))


def physical_key(physical: dict, pool: list, start: dict):
    """``key`` read straight from ``physical()`` and ``pool()``, against the turn's start
    ``start`` (its ``physical()``)."""
    changed = frozenset(
        (cell, None if physical.get(cell) is None else
         (physical[cell][0], tuple(sorted(physical[cell][1:]))))
        for cell in physical.keys() | start.keys() if physical.get(cell) != start.get(cell))
    return changed, tuple(sorted(pool))


def turn_results(state) -> set:
    """Every distinct position a complete legal turn of the side to move can leave."""
    board, pool = snapshot(state)
    me = state.to_move
    them = SIDES[1 - SIDES.index(me)]
    results = set()
    for frm in [c for c, f in board.items() if f[0] == me]:
        for to in reach(board, frm):
            after = dict(board)
            victim = after.pop(to, None)
            after[to] = after.pop(frm)
            if victim and victim[2]["crown"] and not any(
                    f[0] == them and f[2]["crown"] for f in after.values()):
                results.add(key(after, pool, board))  # the enemy's last crown: the game is over
                continue
            starts = [(after, pool)]
            if victim:
                starts = []
                for c in [Counter()] + choices(victim[2]):
                    mine = after[to][2] + c
                    if fits(mine):
                        b = dict(after)
                        b[to] = (me, after[to][1], mine)
                        starts.append((b, pool + (victim[2] - c)))
            safe: dict[str, bool] = {}

            def prime_safe(b, safe=safe):
                for cell, (side, _base, p) in b.items():
                    if side == me and p["crown"]:
                        if cell not in safe:
                            safe[cell] = not attacked(b, cell, them)
                        if not safe[cell]:
                            return False
                return True

            for b0, p0 in starts:
                ends = [(b0, p0)]
                for b1 in swaps(b0, to):
                    ends.append((b1, p0))
                    ends.extend(draws(b1, p0, to))
                for b1, p1 in draws(b0, p0, to):
                    ends.append((b1, p1))
                    ends.extend((b2, p1) for b2 in swaps(b1, to))
                for b, p in ends:
                    if prime_safe(b):
                        results.add(key(b, p, board))
    return results


def fast_turn_results(state) -> set:
    """The same set from the rules module: every decision sequence until the turn ends."""
    me = state.to_move
    start = state.physical()
    out = set()

    def walk():
        moves = state.legal_moves() if state.to_move == me else []
        if not moves:
            out.add(physical_key(state.physical(), state.pool(), start))
            return
        for m in moves:
            state.push(m)
            walk()
            state.pop()

    walk()
    return out
