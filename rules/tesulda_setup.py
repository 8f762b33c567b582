"""Tesulda setups: each side's figures entered as text, checked against D-2, and D-11's default.

A setup text has one side per line (a side may take several lines); ``#`` starts a
comment. Each figure is ``CELL=FIGURE`` in the notation of :mod:`rules.tesulda`::

    # light's back rank and second rank
    light a1=Sssh b1=Cccd c1=Sssd d1=Crch e1=Skh f1=Cczh g1=Sszh h1=Ccdh i1=Ssdh j1=Ccch
    light a2=Sssz b2=Tcs c2=Tcs d2=Tcs e2=Tcs f2=Tcs g2=Tcs h2=Tcs i2=Tcs j2=Cczh

A side the text does not mention stands in the default pattern (D-11).

>>> try:
...     start_board("light e1=Skh")
... except SetupError as err:
...     print(err)
setup: light has 1 figures; a side has 20 (6 circle, 6 square, 8 triangle bases) (D-2)
>>> sorted(parse_setup(default_setup_text())) == ["dark", "light"]
True
"""

from __future__ import annotations

import functools

from .errors import SetupError
from .tesulda_pieces import (
    BASES,
    CELLS,
    CROWN,
    PIECE_KINDS,
    PLAYERS,
    SIZE,
    STAR,
    TRIANGLE_BASE,
    Figure,
    parse_figure,
)

BASES_PER_SIDE = {"circle": 6, "square": 6, "triangle": 8}
PIECES_PER_SIDE = {"crown": 1, "star": 1, "circle": 16, "square": 16, "diamond": 4,
                   "trapezoid": 4, "hexagon": 9}
SLOTS = {"circle": 3, "square": 3, "triangle": 2}  # the crown takes 2
ZONE_RANKS = {"light": (1, 2), "dark": (10, 9)}  # back rank first

# D-11, light's side; dark mirrors it (rank 10 as rank 1, rank 9 as rank 2).
DEFAULT_RANKS = (
    "Sssh Cccd Sssd Crch Skh Cczh Sszh Ccdh Ssdh Ccch",
    "Sssz Tcs Tcs Tcs Tcs Tcs Tcs Tcs Tcs Cczh",
)
_INDEX = {n: i for i, n in enumerate(CELLS)}


def default_setup_text() -> str:
    """D-11's pattern written as a setup text."""
    lines = []
    for player in PLAYERS:
        for rank, row in zip(ZONE_RANKS[player], DEFAULT_RANKS, strict=True):
            figs = [f"{'abcdefghij'[i]}{rank}={f}" for i, f in enumerate(row.split())]
            lines.append(f"{player} " + " ".join(figs))
    return "\n".join(lines) + "\n"


def board_text(board: list) -> str:
    """The figures of ``board`` written as a setup text: per side, a line per rank."""
    lines = []
    for side, player in enumerate(PLAYERS, start=1):
        ranks: dict[int, list[str]] = {}
        for i, fig in enumerate(board):
            if fig is not None and fig.owner == side:
                ranks.setdefault(i // SIZE, []).append(f"{CELLS[i]}={fig}")
        order = sorted(ranks, reverse=side == 2)
        lines += [f"{player} " + " ".join(ranks[r]) for r in order]
    return "\n".join(lines) + "\n"


def parse_setup(text: str) -> dict[str, dict[str, Figure]]:
    """Read a setup text into ``{side: {cell: Figure}}`` and check each figure on its own;
    raises :class:`SetupError` naming the line and what is wrong (its ``errors``: every
    fault found, one line each, the first of them its message)."""
    sides, errors = _read(text)
    if errors:
        raise SetupError(*errors)
    return sides


def _read(text: object) -> tuple[dict[str, dict[str, Figure]], list[str]]:
    if not isinstance(text, str):
        return {}, [f"setup must be text, got {type(text).__name__}"]
    sides: dict[str, dict[str, Figure]] = {}
    taken: dict[str, str] = {}
    errors: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = f"setup line {number}"
        player = words[0]
        if player not in PLAYERS:
            errors.append(f"{where}: expected 'light' or 'dark' first, got {player!r}")
            continue
        side = PLAYERS.index(player) + 1
        figures = sides.setdefault(player, {})
        for item in words[1:]:
            fault = _item_fault(player, side, item, taken, figures)
            if fault:
                errors.append(f"{where}: {fault}")
    return sides, errors


def _item_fault(player: str, side: int, item: str, taken: dict[str, str],
                figures: dict[str, Figure]) -> str | None:
    """Read one ``CELL=FIGURE`` of ``player`` into ``figures``; what is wrong with it."""
    cell, eq, fig_text = item.partition("=")
    if not eq:
        return f"{item!r} must be CELL=FIGURE, e.g. e1=Skh"
    if cell not in _INDEX:
        return f"{player} {cell!r} is not a square (a1..j10)"
    try:
        fig = parse_figure(fig_text, side)
    except ValueError as err:
        return f"{player} {cell}: {err}"
    fault = _figure_fault(player, cell, fig)
    if fault:
        return f"{player} {cell}={fig_text}: {fault}"
    if cell in taken:
        return f"{cell} already holds a {taken[cell]} figure"
    taken[cell] = player
    figures[cell] = fig
    return None


def _figure_fault(player: str, cell: str, fig: Figure) -> str | None:
    rank = int(cell[1:])
    back, second = ZONE_RANKS[player]
    base = BASES[fig.base]
    if rank not in (back, second):
        return f"outside {player}'s starting zone (ranks {min(back, second)}-" \
               f"{max(back, second)}) (D-2)"
    if fig.base == TRIANGLE_BASE and rank == back:
        return f"a triangle may not start on the back rank (rank {back}) (D-2)"
    if fig.counts[CROWN] and fig.counts[STAR]:
        return "a crown and a star on one figure (D-3)"
    if fig.size != SLOTS[base]:
        return (f"a {base} base has {SLOTS[base]} slots and this fills {fig.size} "
                "(the crown takes 2) (D-2)")
    return None


def check_side(player: str, figures: dict[str, Figure]) -> None:
    """D-2's totals for one side: 20 figures of the right bases and all 51 pieces."""
    errors = side_faults(player, figures)
    if errors:
        raise SetupError(*errors)


def side_faults(player: str, figures: dict[str, Figure]) -> list[str]:
    """What breaks D-2's totals for one side, one line each."""
    errors = []
    if len(figures) != sum(BASES_PER_SIDE.values()):
        errors.append(
            f"setup: {player} has {len(figures)} figures; a side has 20 (6 circle, 6 square, "
            "8 triangle bases) (D-2)"
        )
    for b, base in enumerate(BASES):
        n = sum(1 for f in figures.values() if f.base == b)
        if n != BASES_PER_SIDE[base]:
            errors.append(f"setup: {player} has {n} {base} bases; a side has "
                          f"{BASES_PER_SIDE[base]} (D-2)")
    for k, kind in enumerate(PIECE_KINDS):
        n = sum(f.counts[k] for f in figures.values())
        if n != PIECES_PER_SIDE[kind]:
            errors.append(f"setup: {player} has {n} {kind} pieces; a side has "
                          f"{PIECES_PER_SIDE[kind]} (D-2)")
    return errors


def set_up_sides(board: list, text: str) -> list:
    """``board`` with each side ``text`` names set up anew, checked against D-2 (the
    other side stays as it stands); raises :class:`SetupError` listing every fault."""
    entered = parse_setup(text)
    if not entered:
        raise SetupError("setup: no figures given; a line begins with the side, e.g. "
                         "'light a1=Sssh b1=Cccd ...'")
    errors = [e for player, figures in entered.items() for e in side_faults(player, figures)]
    if errors:
        raise SetupError(*errors)
    new = [None if f is not None and PLAYERS[f.owner - 1] in entered else f for f in board]
    for figures in entered.values():
        for cell, fig in figures.items():
            new[_INDEX[cell]] = fig
    return new


@functools.cache
def _default_board() -> tuple:
    return tuple(_board(None))


def start_board(setup: str | None = None) -> list:
    """The board of a new game: the sides in ``setup`` (checked), the rest by D-11."""
    return list(_default_board()) if setup is None else _board(setup)


def _board(setup: str | None) -> list:
    default = parse_setup(default_setup_text())
    entered = parse_setup(setup) if setup is not None else {}
    board: list = [None] * (SIZE * SIZE)
    for player in PLAYERS:
        figures = entered.get(player) or default[player]
        check_side(player, figures)
        for cell, fig in figures.items():
            board[_INDEX[cell]] = fig
    return board


def read_setup_file(path: str) -> str:
    """The text of a setup file, checked; raises :class:`SetupError` naming the file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        raise SetupError(f"{path}: cannot read the setup file: {err}") from None
    try:
        start_board(text)
    except SetupError as err:
        raise SetupError(f"{path}: {err}") from None
    return text
