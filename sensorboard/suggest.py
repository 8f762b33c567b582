"""The engine's hint on the board: a turn suggested by a search in its own process, shown
on the LEDs step by step and said in words on the page and in the terminal.

``hint`` pressed while no question is open asks for one (in Teblo, the first press still
lights the cutting squares and the second asks). The search runs in an
:class:`engine.EngineWorker`, so scans and LEDs never wait for it; the service polls in
its loop. The suggestion shows until the board changes or a turn is committed: each
visible step of the turn for :data:`STEP_SECONDS` in turn, the cells a piece leaves in
``hint-from`` and the cells it goes to in ``hint-to``; the decisions no sensor sees (a
roll, a size, a swap) are in the words.

>>> import rules
>>> from engine import Hint, Step
>>> tip = Hint((Step("m", "c2xd1", ("c2",), ("d1",)),), "c2xd1", "c2xd1", 1.0)
>>> frame(tip, 0.0)
{'c2': 'hint-from', 'd1': 'hint-to'}
"""

from __future__ import annotations

import rules
from engine import EngineWorker, Hint, explain

STEP_SECONDS = 1.0  # each visible step of a suggested turn, in turn
BUDGET = {"seconds": 1.5}  # a search per hint: anytime, a move after 0.2 s
SEED = 0


def frame(hint: Hint, now: float, roles: tuple[str, str] = ("hint-from", "hint-to")
          ) -> dict[str, str]:
    """The cells of the step shown at ``now`` (the visible steps take turns), in
    ``roles``: where a piece leaves, where one goes."""
    steps = [s for s in hint.steps if s.visible]
    if not steps:
        return {}
    step = steps[int(now / STEP_SECONDS) % len(steps)]
    leave, go = roles
    return {cell: leave for cell in step.lifted} | {cell: go for cell in step.placed}


def next_change(hint: Hint, now: float) -> float | None:
    """When :func:`frame` shows the next step, where the turn has several."""
    if sum(s.visible for s in hint.steps) < 2:
        return None
    return (int(now / STEP_SECONDS) + 1) * STEP_SECONDS


class Suggester:
    """Asks the engine for the side to move's turn and holds the answer for the views."""

    def __init__(self, budget: dict | None = None) -> None:
        self.budget = dict(budget or BUDGET)
        self._worker: EngineWorker | None = None
        self.asked: rules.GameState | None = None  # the position asked about, if any
        self.hint: Hint | None = None

    @property
    def thinking(self) -> bool:
        return self.asked is not None and self.hint is None

    def ask(self, state: rules.GameState) -> bool:
        """Start a search of ``state``; False where there is no decision to suggest (the
        game is over, or the die is to be rolled)."""
        if state.outcome() is not None or state.to_move == rules.CHANCE:
            return False
        if self._worker is None:
            self._worker = EngineWorker()
        self.hint = None
        self.asked = state.clone()
        self._worker.ask(state, seed=SEED, **self.budget)
        return True

    def poll(self) -> Hint | None:
        """The suggestion once it has come (at once, never waiting)."""
        if self.asked is None or self.hint is not None or self._worker is None:
            return None
        result = self._worker.poll()
        if result is None:
            return None
        self.hint = explain(self.asked, result)
        return self.hint

    def drop(self) -> None:
        """The board moved on: the suggestion (or the search for it) no longer applies."""
        if self._worker is not None and self.thinking:
            self._worker.cancel()
        self.asked, self.hint = None, None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None
