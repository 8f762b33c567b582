"""A clock press: what it ends. The mover's clock (or the one shared button) commits the
turn the board shows done or waiting, or asks which; the clock of the player who has just
moved ends their turn still waiting. See :meth:`boards.tracker.Tracker.press`.
"""

from __future__ import annotations

from . import evidence
from .constants import pressed_by
from .events import Event


class ClockPress:
    """The tracker's clock presses (a mixin of :class:`boards.tracker.Tracker`)."""

    def _clock(self, t: float, player: str | None) -> list[Event]:
        """The clock of ``player`` (None: the shared button) pressed: what is asked or
        waiting ends first (see :meth:`press`)."""
        if self.deciding is not None and self.after_visible and pressed_by(player, self.player):
            # The mover's clock ends the turn: what is still open after its visible part
            # counts as declined (a question that cannot be declined stays).
            events = self._decline_rest(t)
            if events:
                return events
        if self.either and not self._prompt:
            # The waiting turn and the piece in hand: the press says the turn was done.
            if len(self.pending) > 1:
                self.held.append(player)
                return self._ask(self.pending, t)
            return self._commit_held(t) + self.press("clock", t, player)
        if self._prompt:
            if player is None or player != self.player:
                self.held.append(player)  # it counts once the question is answered
            return []
        if player is not None and player != self.state.to_move:
            # The presser has moved: a complete turn of the opponent still waiting ends
            # here, then the press counts for the presser's own turn.
            pending = [c for c in self.pending if c in self._alive]
            if len(pending) > 1:
                # Which of the opponent's turns the sensors cannot tell: asked, and the
                # press counts for the presser's own (maybe silent) turn after the answer.
                self.held.append(player)
                return self._ask(pending, t)
            if not pending:
                return []  # the player who has just moved ends their turn: nothing to ask
            events = self._commit(pending[0], t)
            if self._prompt:
                # (a touch that looks like an entry bumping the touched piece, asked): the
                # press still counts for the presser's own turn once that is answered
                self.held.append(player)
                return events
            if self.state.to_move != player:
                return events
            return events + self.press("clock", t, player)
        return self._clock_ends(t, player)

    def _clock_ends(self, t: float, player: str | None) -> list[Event]:
        """The mover's clock (or the shared one), nothing asked: the turn waiting, the
        turn the board shows, or an unseen turn, is committed or asked about."""
        pending = [c for c in self.pending if c in self._alive]  # and the board shows it
        ev = self.evidence
        if (self.lifting or not pending) and not any(evidence.complete(ev, c) for c in pending):
            # A piece taken up since (or the next player's turn under way, a bump): the
            # next player's, where a waiting turn leaves the board fitting their turn (a
            # step onto an own piece shows only that lift), not one turn's piece put down
            # and lifted again, which the press would not end.
            pending = [c for c in self.pending if self._next_turn_fits(c)] or pending
        if pending and all(self._like_a_touch(c) for c in pending):
            # A piece lifted and put back: an entry bumping it, or a touch and an unseen turn.
            return self._ask([*pending, *(c for c in self.candidates if c.silent)], t)
        if len(pending) == 1:
            events = self._commit(pending[0], t)
            if self.deciding is not None and self.after_visible:
                events += self._decline_rest(t)
            elif player is None and self._unseen_next():
                # One shared button: the press that ended a waiting turn may be the next
                # player's, ending an unseen turn (a forfeit, a stack from the stash).
                events += self._press("clock", t, player)
            elif player is not None and not self._prompt and self.state.to_move != player:
                # The next player's turn began before the press (the waiting turn ended
                # there): a turn of theirs the board shows done, the press comes after it.
                events += self._clock(t, player)
            return events
        if pending:
            if player is None and self._unseen_after(pending):
                self.held.append(player)  # and then it may end the next player's unseen turn
            return self._ask(pending, t)
        if self.differing:
            # Nothing of the mover's is done, but their unseen turn (a Telec forfeit) and
            # the opponent's turn since, read from the start, would be.
            silent = [c for c in self.candidates if c.silent and c.ways
                      and c.text not in self.declined and self._next_turn_done(c)]
            if silent:
                self.carry_from = 0
                return self._ask(silent, t, declinable=True)
        if not self.differing:
            silent = [c for c in self.candidates if c.silent]
            if len(silent) == 1 and (player is not None or self._expected_rest()):
                # (an opponent's turn lit, carried out here: the press says it is done)
                return self._commit(silent[0], t)
            if silent:
                # (a turn begun, an electronic die rolled, is no longer "none")
                begun = len(self.state.move_stack) > self.turn_start
                return self._ask(silent, t, declinable=player is None and not begun)
        return []
