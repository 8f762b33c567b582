"""Reading a Tesulda position written by ``TesuldaState.position_str()``: the figures of
each side, the pool, the player to move, and a turn under way (``moved:CELL`` with
``taking:FIGURE`` or ``open:swap,draw``). Every fault is a :class:`PositionError` naming
the part it is in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import PositionError
from .tesulda_moves import ATTACK, EXTRAS
from .tesulda_pieces import _INDEX, _N, PLAYERS, Figure, figure_fault, parse_figure, parse_pieces

_POSITION_HELP = ("Tesulda position must be 'light:CELL=FIG,... dark:CELL=FIG,... "
                  "pool:PIECES PLAYER [moved:CELL taking:FIG | moved:CELL open:swap,draw]'")


def read(text: str, make: Callable[..., Any]) -> Any:
    """The position ``text`` as ``make(board, turn, pool)`` builds it (a
    :class:`rules.tesulda.TesuldaState`)."""
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
    state = make(board, PLAYERS.index(parts[3]) + 1, pool)
    if len(parts) == 6:
        _read_phase(state, parts[4], parts[5])
    if not state._crowns(1) and not state._crowns(2):
        raise PositionError("neither side has a crown; a side without one has lost (D-10)")
    return state


def _read_phase(state: Any, moved: str, rest: str) -> None:
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
