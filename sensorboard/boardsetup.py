"""Before the first move: a setup entered (Tesulda's figures, in the text of a setup
file), and the board checked against the position the game starts from.

A board that differs from its start (a figure missing from its square, one where none
belongs) is put right first: the LEDs show each such cell at once, and if the board
still differs after the error delay (a board whose first reading comes late has caught
up by then) an error event names them.
"""

from __future__ import annotations

import rules
from boards.events import Error
from boards.tracker import Tracker


class BoardSetup:
    """The setup check of one board's ``tracker``: ``due`` is when a board still not
    set up as the game starts is an error."""

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.due: float | None = None

    def watch(self, now: float) -> None:
        """The board was just compared with the start: if it differs, the error is due
        after the error delay."""
        if self.tracker.restoring:
            self.due = now + self.tracker.error_delay

    def enter(self, text: str, t: float) -> tuple[rules.GameState, dict]:
        """The game starts from setup ``text``: the new position and its ``setup``
        journal entry. Raises :class:`rules.SetupError` listing every fault; nothing
        changes then."""
        new = self.tracker.state.set_up(text)
        self.tracker.put_right(new)
        self.watch(t)
        return new, {"type": "setup", "t": round(t, 3), "setup": text,
                     "position": new.position_str()}

    def expire(self, now: float, corrected: bool) -> list[Error]:
        """The error delay is over: the cells still to put right, unless a move was made
        or the position ``corrected`` (taken back, set by an arbiter) meanwhile."""
        self.due = None
        tracker = self.tracker
        if not tracker.restoring or tracker.state.move_stack or corrected:
            return []
        return [Error(now, tracker.restore_cells())]
