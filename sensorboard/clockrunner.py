"""The game clock on a board: the :class:`clocks.GameClock` value that the board's events
move on, each change handed on as a ``clock`` entry (the journal's, the page's).

:mod:`sensorboard.clocks` holds the value and its pure transitions; this is the one
place that applies them to what happens on a board: the first press or change starts
the clock, a committed turn ends the mover's time, a takeback gives the turn back, the
end of the game stops it, an arbiter adds or takes time, and a flag falls.

>>> out = []
>>> runner = ClockRunner(clocks.for_tags({"TimeControl": "60+1"}, ("clear", "dark"),
...                                      "clear"), out.append)
>>> [item["why"] for item in runner.start(0.0)], runner.timing.running
(['start'], 'clear')
>>> runner.flag_at(), runner.falls_at
(60.0, 60.0)
>>> ClockRunner(None, out.append).falls_at  # no time control: no flag ever falls
inf
"""

from __future__ import annotations

import math
from collections.abc import Callable

import rules
from boards.events import Committed, Event, TakenBack
from sensorboard import clocks


class ClockRunner:
    """The game clock of one board (``timing``: None without a time control). Every
    change is handed to ``changed`` as the ``clock`` entry and returned too. Whether a
    clock runs is its own business: ``start``, ``after`` and ``stop`` do nothing without
    one, and :attr:`falls_at`, what a scan compares its time with, is then never."""

    def __init__(self, timing: clocks.GameClock | None,
                 changed: Callable[[dict], None]) -> None:
        self.timing = timing
        self.changed = changed
        self.flagged: dict | None = None  # the ``end`` entry of a flag fall
        self.falls_at = self._falls_at(timing)

    @staticmethod
    def _falls_at(timing: clocks.GameClock | None) -> float:
        """When the running side's time runs out; never (infinity) while no clock runs."""
        at = None if timing is None else clocks.flag_at(timing)
        return math.inf if at is None else at

    def _set(self, timing: clocks.GameClock, t: float, why: str) -> list[dict]:
        """The clock's new value (``why``: start, turn, takeback, correction, flag, end)."""
        self.timing = timing
        self.falls_at = self._falls_at(timing)
        item = {"type": "clock", "t": round(t, 3), "why": why, **clocks.to_json(timing, t)}
        self.changed(item)
        return [item]

    def ready(self) -> bool:
        """A clock that has not started yet."""
        return self.timing is not None and self.timing.phase is clocks.Phase.READY

    def start(self, t: float) -> list[dict]:
        """The first press or board change of the game starts the clock."""
        if not self.ready():
            return []
        return self._set(clocks.start(self.timing, t), t, "start")

    def stop(self, t: float) -> list[dict]:
        """The game has ended (a result on the board, an arbiter's): the clocks stop."""
        if self.timing is None or self.timing.phase not in (clocks.Phase.RUNNING,
                                                            clocks.Phase.READY):
            return []
        return self._set(clocks.stop(self.timing, t), t, "end")

    def after(self, event: Event, over: bool) -> list[dict]:
        """A committed turn ends the mover's time; a takeback gives the turn back (and
        sets the clock going again when it took back the turn that ended the game, unless
        the game is ``over`` by an arbiter's word or a flag)."""
        timing = self.timing
        if timing is None:
            return []
        again = timing.phase is clocks.Phase.STOPPED and isinstance(event, TakenBack) \
            and not over
        if timing.phase is not clocks.Phase.RUNNING and not again:
            return []
        if isinstance(event, Committed):
            nxt = timing.players[(timing.players.index(event.player) + 1)
                                 % len(timing.players)]
            return self._set(clocks.end_turn(timing, event.t, nxt), event.t, "turn")
        if isinstance(event, TakenBack):
            return self._set(clocks.switch(timing, event.t, event.player), event.t,
                             "takeback")
        return []

    def adjust(self, player: str, seconds: float, t: float) -> list[dict]:
        """An arbiter adds ``seconds`` to ``player``'s time (takes them if negative)."""
        return self._set(clocks.adjust(self.timing, player, seconds, t), t, "correction")

    def flag_at(self) -> float | None:
        """When the running side's time runs out, None while no clock runs."""
        return None if self.falls_at == math.inf else self.falls_at

    def fall(self, state: rules.GameState) -> list[dict]:
        """The running side's time is out: the clock entry, then the game's ``end`` entry
        as the game's ruling says (also kept as :attr:`flagged`)."""
        flagged, at = self.timing.running, clocks.flag_at(self.timing)
        out = self._set(clocks.fall(self.timing), at, "flag")
        winner, reason = clocks.flag_outcome(state, flagged)
        text = f"draw ({reason})" if winner is None else f"{winner} wins ({reason})"
        self.flagged = {"type": "end", "t": round(at, 3),
                        "outcome": {"winner": winner, "reason": reason}, "result": text}
        return out
