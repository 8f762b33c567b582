"""A suggested turn as the board shows it: each decision's cells, and words for the rest.

A hint is the turn a search expects the player to take (``Result.line``), one
:class:`Step` per decision in order: the cells it lifts pieces from and the cells it puts
pieces on or changes, read from ``physical()`` before and after it. A decision that
changes nothing on the board (a roll, a Telec size chosen before the pyramid is set
down, a Tesulda ``none``) has no cells, and is said in words only.

>>> import rules
>>> state = rules.from_position("tessella", "clear:cd45,d1,d3,e5 dark:a4,a5,ab23,b4,c2 dark")
>>> tip = hint(state, playouts=20, seed=1)
>>> tip.notation, tip.steps[0].lifted, tip.steps[0].placed, tip.win
('c2xd1', ('c2',), ('d1',), 1.0)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

import rules

from .search import Result, search


class Step(NamedTuple):
    """One decision of a suggested turn and the cells it touches on the board."""

    decision: Hashable
    notation: str
    lifted: tuple[str, ...]   # cells that lose pieces (the from of a step)
    placed: tuple[str, ...]   # cells that gain or change pieces (the to, a capture)

    @property
    def visible(self) -> bool:
        """The decision shows on the board (otherwise it is said in words only)."""
        return bool(self.lifted or self.placed)


class Hint(NamedTuple):
    """A suggested turn: its steps in order, its record line, its words for a player, and
    the engine's expected score for the player after it (0 lost .. 1 won)."""

    steps: tuple[Step, ...]
    notation: str
    words: str
    win: float


def step_cells(before: dict, after: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cells a change of ``physical()`` lifts from and places on, each in name order."""
    lifted, placed = [], []
    for cell in sorted(before.keys() | after.keys()):
        was, now = before.get(cell, ()), after.get(cell, ())
        if was != now:
            (lifted if len(now) < len(was) else placed).append(cell)
    return tuple(lifted), tuple(placed)


def explain(state: rules.GameState, result: Result) -> Hint:
    """The :class:`Hint` of a search's ``result`` at ``state`` (left as it is)."""
    work, steps = state.clone(), []
    for decision in result.line:
        before = work.physical()
        notation = work.move_str(decision)
        work.push(decision)
        steps.append(Step(decision, notation, *step_cells(before, work.physical())))
    words, _ = state.turn_words(result.line)
    return Hint(tuple(steps), " ".join(s.notation for s in steps), words, result.win)


def hint(state: rules.GameState, **budget) -> Hint:
    """Search ``state`` (``budget`` as :func:`engine.search` takes it) and explain the
    turn found."""
    return explain(state, search(state, **budget))
