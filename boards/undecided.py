"""Decisions nobody answers: a decision no sensor sees, which ``none`` cannot answer (a Telec
entry's size, the face of a roll no tile shows), still open when the next player goes on.

Nobody answered, yet the next turn is under way on the board. The question stays open (its
turn is never committed with a guess), and the board is still followed: the tracker forks
one *reading* per option (:mod:`boards.readings`), each the tracker as that answer, given
when the question was put, would have left it, with the changes since read again in order
as the next turns'. Every later change, press and tick goes to each reading; a reading
whose turns no longer explain the board is let go (a single bumped by a step only if it
was no bigger than the stepping piece), and once every reading left agrees on the answer,
the question closes by itself and its turn, and those after it that every reading agrees
on, are committed. Where nothing later decides it, it stays open and every reading is
followed (at most :data:`boards.readings.LEAVES`; a reading asked once more while they are
full waits, as it fits).

A decision ``none`` may decline (a Tesulda swap, take or draw) is declined once the next
player begins, as the replay contract says (``docs/architecture.md``); it is not forked.
"""

from __future__ import annotations

from collections.abc import Hashable

import rules

from .events import Event


class Undecided:
    """Following the board past a decision nobody answers (a mixin of
    :class:`boards.tracker.Tracker`)."""

    silenced: object = None  # the question the next turn went on past, unanswered

    def _goes_on_past(self) -> bool:
        """Whether the board shows more than the turn asked about: the last change put a
        piece down, and the board differs from what it showed when the question was put
        (a piece only touched, lifted and put back, does not)."""
        return not self.lifting and self.current != self.asked_board

    def _unanswered(self, t: float) -> list[Event]:
        """The next turn is under way while the decision asked is open: fork one reading per
        option (a reading's question is forked by the tracker above it, room allowing);
        the question stays open. Once forked, the readings follow the board."""
        if self.readings and self.read_for is self._prompt:
            return []  # (its readings are followed: :meth:`boards.tracker.Tracker.changes`)
        self.silenced = self._prompt
        self._read_each(t)
        return []

    def _answer_late(self, value: str, t: float) -> list[Event] | None:
        """An answer to a question the next turn went on past: taken as if given when the
        question was put, then the changes since are read again, in order (None: not an
        option, for :meth:`_answer` to refuse)."""
        try:
            move = self.state.parse_move(value)
        except rules.RulesError:
            return None
        if not any(way[0] == move for way in self.deciding or ()):
            return None
        later = self._undo_since(self.asked_batch)
        # A clock press while it was open came before the next turn went on: the mover's,
        # ending the turn this answer ends.
        self.silenced, self.held = None, []
        events = self._answer(value, t)
        return events + self._replay(later, t)

    def _undo_since(self, batch: int) -> list[tuple[list[tuple[str, Hashable]], float]]:
        """Put the tracker back as it was after ``batch`` (the board, what the cells showed
        this turn); returns the scans' changes since, oldest first."""
        later = [b for b in self.batches if b[0] > batch]
        for _, _, _, prev in reversed(later):
            self.current.update(prev)
        self.batches = self.batches[:len(self.batches) - len(later)]
        kept = {c: [(n, v) for n, v in h if n <= batch] for c, h in self.history.items()}
        self.history = {c: h for c, h in kept.items() if h}
        before = self.before
        self.differing = {c for c, v in self.current.items() if v != before[c]}
        self.seen = type(self.seen)(before, {c: {before[c], *(v for _, v in h)}
                                             for c, h in self.history.items()})
        self.lifting, self._evidence = False, None
        return [(changes, when) for _, when, changes, _ in later]
