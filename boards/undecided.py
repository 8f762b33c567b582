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
followed (at most :data:`boards.readings.LEAVES`; while they are full, a reading asked once
more makes room by letting go those that took more answers for granted, :func:`crowded`,
or else waits, as it fits; a question that lost readings so settles by itself only on
the answer they all began with).

A decision ``none`` may decline (a Tesulda swap, take or draw) is declined once the next
player begins, as the replay contract says (``docs/architecture.md``); it is not forked.
Except a question whether an unseen turn was made where, had it been made, what came
since may be the next turns: asked because a piece came down that no turn of the player
to move puts there (:meth:`boards.handover.Handover._unseen_then_next`), or open when
such a piece came down (:meth:`boards.deciding.Deciding._next_began`), or about a turn
like a touch (:meth:`boards.deciding.Deciding._followed_if`). What looks like the asked
player's own turn after it does not decline it; each answer is followed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import rules

from . import decisions
from .constants import NONE, pressed_by
from .events import Event, recorded


class Undecided:
    """Following the board past a decision nobody answers (a mixin of
    :class:`boards.tracker.Tracker`)."""

    silenced: object = None  # the question the next turn went on past, unanswered
    # The last clock presses: (the batch of changes before it, time, player), to read
    # again after a late answer.
    pressed: tuple = ()
    # Each player's last turn, whether a press of theirs (or the shared button) ended or
    # confirmed it: whether they are using the clock (replaced, never changed in place).
    clock_used: dict = {}

    def _heard_press(self, button: str, t: float, player: str | None) -> None:
        """A press from outside (one the tracker makes again within the same input, a
        held press, is heard once)."""
        entry = (self.batch, t, player)
        if button == "clock" and (not self.pressed or self.pressed[-1] != entry):
            self.pressed = (*self.pressed[-63:], entry)
            if player is not None and player != self.player:  # (confirming their turn)
                self.clock_used = {**self.clock_used, player: True}

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
        later, presses = self._since(self.asked_batch)
        self.silenced, self.held = None, []  # (the presses held are read again, in order)
        events = self._answer(value, t) + self._reread(later, presses, t)
        if self._prompt is not None and self.questioned is not None:
            self.questioned = self.batch  # (what came before it was no touch while open)
        return events

    def _answer_done_before(self, value: str, t: float) -> list[Event] | None:
        """An answer naming a turn done before the changes that raised the question (a
        Telec stack step onto its own stack, then the opponent's step onto theirs and an
        entry on the cell it left): taken as of the scan that did it, then the changes and
        presses since are read again, in order and at their times; carried over by the
        tracker alone, they would all be one touch of the next player (None: not so, or
        the turn asks more, which what came since must not decline)."""
        try:
            move = self.state.parse_move(value)
        except rules.RulesError:
            return None
        chosen = [c for c in self.asked if any(w and w[0] == move for w in c.ways)]
        if len(self.asked) < 2 or len(chosen) != 1 or self.asked_at != len(
                self.state.move_stack) or any(len(w) > 1 for w in chosen[0].ways):
            return None  # (a decision asked after it is not declined by what came since)
        after = self.state.clone()
        after.push(move)
        if decisions.in_turn(after, self.player):
            return None
        cand = chosen[0]
        done = max(self.done_again.get(cand.text) or [self.done_at.get(cand.text, -1)])
        own = cand.before.keys() | cand.final.keys()
        if done < 0 or not any(n > done and any(c not in own for c, _ in changes)
                                   for n, _, changes, _ in self.batches):
            return None
        later, presses = self._since(done)
        self.silenced, self.held = None, []
        return self._answer(value, t) + self._reread(later, presses)

    def _replayed(self, value: str, t: float) -> list[Event] | None:
        """An answer no reading left can take (room let the answer's go): taken as if given
        when the question was put, then the changes and presses since are read again, in
        order and at their times; what that commits is reported, and the question it
        leaves open (None: not a turn asked about)."""
        chosen = [c for c in self.pending if c.text == value]
        if value != NONE and not chosen or self.deciding is not None:
            return None
        since = self._prompt.t
        later, presses = self._since(self.prompt_batch)
        self.readings, self.told, self.read_for, self.cut = {}, {}, None, frozenset()
        self.silenced, self.held, self.unshown = None, [], None
        events = self._choose(value, since) + self._reread(later, presses)
        kept = recorded(events)
        return kept + ([self._prompt] if self.prompt is not None else [])

    def _since(self, asked: int) -> tuple[list, list]:
        """The tracker put back as it was after batch ``asked``, the question open; the
        scans' changes since (batch, time, changes) and the clock presses since (batch,
        time, player), oldest first (read again, they are heard again)."""
        since = self._prompt.t
        presses = [(n, when, player) for n, when, player in self.pressed
                   if n > asked or n == asked and when > since]
        self.pressed = tuple(p for p in self.pressed if p not in presses)  # (heard again)
        return self._undo_since(asked), presses

    def _reread(self, later: list, presses: list, t: float | None = None) -> list[Event]:
        """Read again the changes ``later`` and the presses ``presses`` made since a
        question answered late, in order, at ``t`` (None: each at its own time)."""
        events: list[Event] = []
        for n, when, changes in later:
            events += self._presses_after(presses, n - 1, t)
            events += self.changes(changes, when if t is None else t)
        return events + self._presses_after(presses, math.inf, t)

    def _presses_after(self, presses: list, batch: float, t: float | None) -> list[Event]:
        """Press again the presses in ``presses`` made before the batch after ``batch``."""
        out: list[Event] = []
        while presses and presses[0][0] <= batch:
            _, when, player = presses.pop(0)
            out += self.press("clock", when if t is None else t, player)
        return out

    def _undo_since(self, batch: int) -> list[tuple[int, float, list[tuple[str, Hashable]]]]:
        """Put the tracker back as it was after ``batch`` (the board, what the cells showed
        this turn); returns the scans' changes since with their batch numbers and times,
        oldest first."""
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
        return [(n, when, changes) for n, when, changes, _ in later]





def crowded(paths: list[tuple[str, ...]], need: int, forking: tuple[str, ...],
            ) -> set[tuple[str, ...]]:
    """The readings to let go so that ``need`` more fit when the reading at ``forking``
    forks (``paths``: every reading's path of answers): those that took the most answers
    for granted, more than the new ones will, each with the readings that lead only to
    such, up to where its question keeps two answers or more (making room narrows a
    question, never settles one); none where that frees too few."""
    children: dict[tuple[str, ...], int] = {}
    for path in paths:
        children[path[:-1]] = children.get(path[:-1], 0) + 1
    leaves = [p for p in paths if p not in children]
    cheap = [p for p in leaves if len(p) <= len(forking) + 1]
    gone: list[tuple[str, ...]] = []

    def going(path: tuple[str, ...]) -> bool:
        return any(path[:len(top)] == top for top in gone)

    for leaf in sorted(set(leaves) - set(cheap), key=lambda p: (-len(p), p)):
        if sum(map(going, leaves)) >= need:
            break
        top = leaf  # the highest reading on the way to ``leaf`` that may go with it
        while len(top) > 1 and children[top[:-1]] < 3:
            top = top[:-1]
        if going(leaf) or children[top[:-1]] < 3 or forking[:len(top)] == top \
                or any(p[:len(top)] == top for p in cheap):
            continue
        children[top[:-1]] -= 1
        gone.append(top)
    return {p for p in paths if going(p)} if sum(map(going, leaves)) >= need else set()


def pressed_since(node) -> bool:
    """Whether the clock of the player to move (or a shared one) was pressed since the
    last turn ended: that press may have ended their unseen turn."""
    since = node.last_commit[1] if node.last_commit is not None else float("-inf")
    return any(pressed_by(player, node.player) and when > since
               for _, when, player in node.pressed)
