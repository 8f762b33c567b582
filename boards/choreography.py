"""How a turn is carried out by hand: the lifts and places that take a board from one
position to the next. Used to script demo games and to test the tracker with every legal
order of events.

``state.stages(move)`` gives the physical positions a turn passes through between before
and after (a Tulaga stone placed, then lifted with its row); most turns have none.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import rules

from . import decisions


def stages(state: rules.GameState, move: Hashable) -> list[dict[str, tuple[str, ...]]]:
    """The physical positions of a turn (one move, or a :class:`decisions.Turn`): before,
    any intermediate stages, after."""
    before = state.physical()
    middle = decisions.stages(state, move)
    decisions.push(state, move)
    after = state.physical()
    decisions.pop(state, move)
    return [before, *middle, after]


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def _figure(pieces: tuple[str, ...]) -> tuple[str, ...]:
    """A figure as one thing in hand: its pieces' names joined, bottom to top."""
    return ("+".join(pieces),) if pieces else ()


def turn_ops(state: rules.GameState, move: Hashable, rng: random.Random,
             detour: bool = False) -> list[tuple[str, str]]:
    """``[("lift", cell), ("place", cell), ...]`` for ``move``: at each stage every lift in a
    random order (a capture may start with either piece), then every place in a random order.
    With ``detour`` a piece that may be set down partway (a Tesulda Dodger at the corner of
    its path) is, on a random one of those cells, and lifted again."""
    ops = [(op, cell) for op, cell, _ in turn_pieces(state, move, rng)]
    stops = state.waypoints(decisions.decisions(move)[0]) if detour else []
    if stops:
        last = max(k for k, (op, _) in enumerate(ops) if op == "lift")
        stop = rng.choice(stops)
        ops[last + 1:last + 1] = [("place", stop), ("lift", stop)]
    return ops


def turn_pieces(state: rules.GameState, move: Hashable,
                rng: random.Random) -> list[tuple[str, str, str]]:
    """:func:`turn_ops` with the piece each op moves: the piece lifted (the top one), or
    the piece that belongs on the cell once it is put down (the shooter on the captured
    enemy's cell)."""
    ops: list[tuple[str, str, str]] = []
    seq = stages(state, move)
    whole = state.FIGURES
    for a, b in zip(seq, seq[1:], strict=False):
        lifts, places = [], []
        off: dict[str, list[str]] = {}
        on: dict[str, list[str]] = {}
        for cell in sorted(set(a) | set(b)):
            pa, pb = a.get(cell, ()), b.get(cell, ())
            keep = _common(pa, pb)
            if whole:  # a figure is lifted and set down whole; pieces on its rod unseen
                pa, pb = _figure(pa), _figure(pa if keep else pb)
                keep = len(pa) if keep else 0
            off[cell], on[cell] = list(reversed(pa[keep:])), list(pb[keep:])
            lifts += [("lift", cell)] * (len(pa) - keep)
            places += [("place", cell)] * (len(pb) - keep)
        rng.shuffle(lifts)
        rng.shuffle(places)
        ops += [(op, cell, off[cell].pop(0)) for op, cell in lifts]
        ops += [(op, cell, on[cell].pop(0)) for op, cell in places]
    return ops


def game_events(state: rules.GameState, moves: list[Hashable], rng: random.Random,
                start: float = 0.5, step: float = 0.4, pause: float = 1.0,
                answer: bool = False) -> list[dict]:
    """Replay input lines for ``moves`` played from ``state`` (which is left unchanged).
    With ``answer`` each turn is followed by its notation as the answer to a question the
    board may ask (one it does not ask is a warning)."""
    state = state.clone()
    t = start
    events = []
    for move in moves:
        for op, cell in turn_ops(state, move, rng):
            events.append({"t": round(t, 3), "op": op, "cell": cell})
            t += step
        if answer:
            events.append({"t": round(t, 3), "op": "choose",
                           "value": decisions.text(state, move)})
        decisions.push(state, move)
        t += pause
    return events
