"""What time passing tells the tracker (a mixin of :class:`boards.tracker.Tracker`): a
board that stays wrong for ``error_delay`` becomes an error (or, the opponent's pieces only
taken up, their turn after an unseen one), and while readings follow a question, a second
of stillness lets those go that do not fit and may show the question
(:meth:`boards.readings.Readings._settle`)."""

from __future__ import annotations

from .events import Error, Event


class Stillness:
    """The tracker's timers (a mixin of :class:`boards.tracker.Tracker`)."""

    def tick(self, now: float) -> list[Event]:
        """Time passes: a board that stays wrong for ``error_delay`` becomes an error."""
        was = self.phase
        if self.readings:
            self._feed(lambda reading: reading.tick(now))
            due = self.still_from
            still = due is not None and now >= due + self.error_delay
            if still:
                self.still_from = None  # (once: until the next change or press)
            return self._entered(was, self._tick(now, self._own_timer())
                                 + self._settle(now, still=still))
        due = self._own_timer()
        if due is None or now < due:
            return []  # (a tick that says nothing changes nothing: at every idle scan)
        return self._entered(was, self._tick(now, due))

    def _tick(self, now: float, due: float | None) -> list[Event]:
        if due is None or now < due:
            return []
        # Only the opponent's pieces taken up, and left so, none of them as a visible turn
        # of the player to move would (an entry bumping it, another touched meanwhile):
        # their turn, after an unseen one of the player to move (a step onto an own piece
        # shows a lift only).
        if not self._turn_begun():
            asked = self._unseen_then_next(now)
            if asked:
                return asked
        self.error = Error(now, self._error_cells(), self._attackers())
        return [self.error]

    def next_timer(self) -> float | None:
        """When :meth:`tick` will next have something to say, if nothing else happens."""
        own = self._own_timer()
        if self.readings and self.still_from is not None:
            still = self.still_from + self.error_delay
            return still if own is None else min(own, still)
        return own

    def _own_timer(self) -> float | None:
        """When the board, wrong since its last change, becomes an error."""
        if (self.error is None and self.differing and not self._prompt and not self._alive
                and not self.restoring and not self.either):
            return self.last_change + self.error_delay
        return None
