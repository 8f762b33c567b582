"""Turns of several decisions, as the tracker sees them.

A game whose turn takes several decisions (a Telec roll, the die, then the size entered)
is expanded only as far as the sensors can tell the turns apart: every way to carry out
the turn's visible part from the position is listed (each way ends with the first
decision the sensors see, or where the turn ends), and the ways that look the same to
the sensors (the same cells change in the same way) become one candidate. Once the board
shows one candidate's effect, its remaining decisions are asked one at a time, each
prompt offering only the decisions that some way of that candidate takes next, and after
the visible part the decisions the position offers (a Tesulda attack choice, swap and
draw); a decision all remaining ways share is taken without asking.

A game whose every decision ends the turn (Tessella, Tulaga, Teblo) keeps one candidate
per move, exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import rules

#: ``visible(before, after)``: whether the sensors can tell two physical positions apart.
Visible = Callable[[dict, dict], bool]

#: The most decisions one turn may take beyond what the game declares (a guard against a
#: game that never ends a turn).
MAX_DECISIONS = 12


class Turn(tuple):
    """The decisions of one turn (or the rest of one), in order."""

    __slots__ = ()


def decisions(move: Hashable) -> tuple:
    """The decisions ``move`` stands for: a :class:`Turn`'s items, else the move itself."""
    return tuple(move) if isinstance(move, Turn) else (move,)


def push(state: rules.GameState, move: Hashable) -> None:
    for decision in decisions(move):
        state.push(decision)


def pop(state: rules.GameState, move: Hashable) -> None:
    for _ in decisions(move):
        state.pop()


def text(state: rules.GameState, move: Hashable) -> str:
    """A turn's notation: its decisions' notations joined by single spaces."""
    return " ".join(map(state.move_str, decisions(move)))


def stages(state: rules.GameState, move: Hashable) -> list[dict[str, tuple[str, ...]]]:
    """The physical positions a turn passes through between before and after: each
    decision's own stages and the position after each decision but the last."""
    steps = decisions(move)
    if len(steps) == 1:
        return state.stages(steps[0])
    out: list[dict[str, tuple[str, ...]]] = []
    for k, decision in enumerate(steps):
        out += state.stages(decision)
        state.push(decision)
        if k < len(steps) - 1:
            out.append(state.physical())
    for _ in steps:
        state.pop()
    before = state.physical()
    return [s for s in out if s != before]


def in_turn(state: rules.GameState, player: str) -> bool:
    """Whether ``player``'s turn goes on (the game running, ``player`` or chance to move)."""
    return state.to_move in (player, rules.CHANCE) and state.outcome() is None


def completions(state: rules.GameState, player: str,
                visible: Visible | None = None) -> list[Turn]:
    """Every way ``player``'s turn can be finished from ``state`` (legal decisions only).
    With ``visible`` a way stops after the first decision the sensors can see (the rest
    of the turn is asked decision by decision once the board shows it)."""
    out: list[Turn] = []

    def walk(prefix: tuple) -> None:
        if not in_turn(state, player):
            out.append(Turn(prefix))
            return
        if len(prefix) >= max(MAX_DECISIONS, state.TURN_DECISIONS):
            raise RuntimeError(f"a turn of {player} takes more than {MAX_DECISIONS} decisions")
        before = state.physical() if visible else None
        for move in state.legal_moves():
            state.push(move)
            if visible and in_turn(state, player) and visible(before, state.physical()):
                out.append(Turn((*prefix, move)))
            else:
                walk((*prefix, move))
            state.pop()

    walk(())
    return out


def expand(state: rules.GameState, player: str, effect: Callable[[Hashable], object],
           key: Callable[[object], Hashable], mid_turn: bool = False,
           visible: Visible | None = None) -> list[tuple[object, tuple[Turn, ...]]]:
    """The candidates of ``player``'s turn from ``state``: ``(effect, ways)`` pairs.

    Where every decision ends the turn (and the turn has not begun, ``mid_turn``) each
    move is one candidate with no ``ways``, as in a one-decision game. Otherwise every
    way to finish the turn (with ``visible``: its visible part, see :func:`completions`)
    is listed and the ways are grouped by ``key(effect(way))``, what the sensors can see
    of them; each group is one candidate with its ways, in the order of ``legal_moves()``.
    A way may end before the turn does: the decisions after it are the position's.
    """
    out: list[tuple[object, tuple[Turn, ...]]] = []
    groups: dict[Hashable, list] = {}
    moves = state.legal_moves()
    if state.TURN_DECISIONS == 1 and not mid_turn:
        return [(effect(move), ()) for move in moves]
    tails = []
    before = state.physical() if visible else None
    for move in moves:
        state.push(move)
        if not in_turn(state, player):
            tails.append([])
        elif visible and visible(before, state.physical()):
            tails.append([()])  # the rest of the turn is asked once the board shows this
        else:
            tails.append(completions(state, player, visible))
        state.pop()
    if not mid_turn and not any(tails):
        return [(effect(move), ()) for move in moves]
    for move, rest in zip(moves, tails, strict=True):
        for tail in rest or [()]:
            way = Turn((move, *tail))
            seen = effect(way)
            group = groups.get(key(seen))
            if group is None:
                group = groups[key(seen)] = [seen, []]
                out.append((seen, group[1]))  # the list fills in as ways are added
            group[1].append(way)
    return [(seen, tuple(ways)) for seen, ways in out]


def common_prefix(ways: tuple[Turn, ...]) -> tuple:
    """The decisions every way in ``ways`` begins with."""
    first = ways[0]
    n = 0
    while n < len(first) and all(len(w) > n and w[n] == first[n] for w in ways):
        n += 1
    return tuple(first[:n])
