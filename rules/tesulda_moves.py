"""Tesulda's decisions: the Move values of a turn, their notation, and the lists of them
the rules hand out again and again (a figure's moves onto a set of squares, the take and
draw choices of a holding).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import MoveSyntaxError
from .tesulda_pieces import (
    _INDEX,
    _N,
    CAP,
    CELLS,
    _load,
    _parts,
    parse_pieces,
    pieces_str,
)
from .tesulda_reach import BELOW_LENGTH, NAME_ORDER, NEAR

# Phases of a turn.
MOVE, ATTACK, EXTRAS = 0, 1, 2


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
    (a, b, cap): tuple.__new__(Move, ("move", CELLS[a], CELLS[b], cap, ""))
    for a in range(_N) for b in range(_N) if a != b for cap in (False, True)
}
#: ``_MOVES_FROM[frm][to]``: the move and the capture from ``frm`` to ``to``.
_MOVES_FROM = tuple(tuple((_MOVES.get((a, b, False)), _MOVES.get((a, b, True)))
                          for b in range(_N)) for a in range(_N))
#: ``_MOVES_AT[frm][k]``: :data:`_MOVES_FROM` ``[frm]`` of the square whose bit is ``1 << k``.
_MOVES_AT = tuple(tuple(row[sq] for sq in NAME_ORDER) for row in _MOVES_FROM)
_CELL = r"([a-j](?:10|[1-9]))"
_PIECES = r"([krcsdzh]{1,2})"
_MOVE_RE = re.compile(rf"^{_CELL}([-x]){_CELL}$")
_SWAP_RE = re.compile(rf"^swap:{_PIECES}:{_CELL}>{_CELL}$")
_TAKE_RE = re.compile(rf"^(take|draw):{_PIECES}$")
_SYNTAX = ("expected 'e2-e4' or 'e2xe5' (move), 'take:cs', 'swap:cs:e5>f6', 'draw:cs' "
           "or 'none'")


def parse_decision(text: str) -> Move:
    """A decision from its notation; raises MoveSyntaxError naming what is wrong.

    >>> parse_decision("e2xe5"), str(parse_decision("swap:sc:e5>f6"))
    (Move(kind='move', frm='e2', to='e5', capture=True, pieces=''), 'swap:cs:e5>f6')
    """
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
        if m[2] == m[3] or _INDEX[m[3]] not in NEAR[_INDEX[m[2]]]:
            raise MoveSyntaxError(f"not a Tesulda swap: {text!r}: {m[2]} and {m[3]} "
                                  "are not neighbours")
        return Move("swap", m[2], m[3], False, pieces_str(parse_pieces(m[1])))
    m = _TAKE_RE.match(norm)
    if m:
        return Move(m[1], pieces=pieces_str(parse_pieces(m[2])))
    raise MoveSyntaxError(f"not a Tesulda decision: {text!r} ({_SYNTAX})")


_CHOICES: dict[tuple[str, tuple[int, ...], tuple[int, ...]], tuple[Move, ...]] = {}


def _choices(what: str, holds: tuple[int, ...], source: tuple[int, ...]) -> tuple[Move, ...]:
    """The ``take`` (D-7, from the captured figure) or ``draw`` (D-8, from the pool)
    decisions of a figure holding ``holds``: 1 or 2 pieces of ``source``, within the cap;
    sorted."""
    key = (what, holds, source)
    found = _CHOICES.get(key)
    if found is None:
        _, size, crown, star = _load(holds)
        found = _CHOICES[key] = tuple(
            tuple.__new__(Move, (what, "", "", False, text))
            for text, _, c_size, c_crown, c_star in _parts(source)
            if size + c_size <= CAP and not ((crown or c_crown) and (star or c_star)))
    return found


def _hopeless(move: Move) -> bool:
    """A decision that cannot end a turn whose Prime is attacked now (D-9): a swap without
    a crown (D-8) leaves every Prime where it is, and the board and the enemy as they are;
    only a draw can follow it, and a draw adds Primes, never takes one away."""
    return move.kind == "swap" and "k" not in move.pieces


#: Per square, its figure's moves per key of :func:`_listed` (an int: no tuple for the
#: collector to visit).
_LISTS: tuple[dict[int, tuple[Move, ...]], ...] = tuple({} for _ in range(_N))
#: ``_QUIET_LENGTH[frm][n]``: the move from ``frm`` onto the square of the mask whose
#: ``bit_length()`` is ``n`` (:data:`_MOVES_AT` ``[frm][n - 1]``); ``_CAPTURE_LENGTH``: the
#: capture.
_QUIET_LENGTH = tuple((None, *(pair[0] for pair in row)) for row in _MOVES_AT)
_CAPTURE_LENGTH = tuple((None, *(pair[1] for pair in row)) for row in _MOVES_AT)


def _listed(frm: int, ends: int, key: int) -> tuple[Move, ...]:
    """The moves from ``frm`` onto the squares ``ends``, sorted, worked out and remembered
    in :data:`_LISTS` under ``key``: the ends, and above them the captures (``ends |
    (ends & enemy) << _N``), which the caller did not find there."""
    memo = _LISTS[frm]
    if len(memo) >= 1_000:
        memo.clear()
    out, rest, below, quiet = [], ends, BELOW_LENGTH, _QUIET_LENGTH[frm]
    while rest:  # from the highest bit down
        n = rest.bit_length()
        out.append(quiet[n])
        rest &= below[n]
    out.reverse()
    caps, row = key >> _N, _CAPTURE_LENGTH[frm]
    while caps:  # a capture's place: the ends below it
        n = caps.bit_length()
        caps &= below[n]
        out[(ends & below[n]).bit_count()] = row[n]
    found = memo[key] = tuple(out)
    return found
