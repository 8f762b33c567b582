"""Readings: while a question about which turn was made is open, the board is still
followed, once for each answer it offers.

A *reading* is the tracker as an answer would leave it (the turn it names made, or
``none``: no turn it names made), fed every later change, press and tick. A question a
reading asks in turn forks it again, so the readings are the leaves of a tree whose
paths are answers (at most :data:`LEAVES` of them; a reading asked once more while the
tree is full waits for its answer). A reading *fits* while the board shows a turn in
progress, done, waiting or asked about in it; one that shows pieces no turn of its own
puts there does not.

After each change that puts something down (a piece only lifted may still be put back),
the readings that no longer fit are let go, as long as one still fits. Once every reading
left begins with the same answer, the question closes itself: that answer's turns are
committed as the answer would have committed them, and :class:`Settled` says which
answer later events gave. An answer given meanwhile is taken by the tracker as before;
the readings go with the question. The tracker itself keeps following the board as it did
with a question open (a question about an unseen turn is still declined by the mover's
visible turn).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .constants import NONE, presence
from .events import Committed, Prompt, Rolled, Settled, TakenBack
from .reading import Answer, Change, Input, Plays, Press
from .reading import Readings as Advice

LEAVES = 64  # the most readings followed at once
FOLLOWED = 3  # the turns an advice keeps reading after its question was put
STRIKES = 2  # a reading is let go after this many changes in a row that it cannot explain


Path = tuple[str, ...]


class Readings:
    """The readings of a :class:`~boards.tracker.Tracker`'s open question (a mixin). The
    tracker keeps ``readings``: each path of answers -> the tracker as those answers leave
    it (a path ending where that tracker asked again leads on to its own answers), and
    ``told``: what each has reported since it was forked."""

    readings: dict
    told: dict
    read_for: object = None  # the question the readings answer
    fork_me: object = None  # a reading's question, to be forked by the tracker above it
    depth: int = 0
    misfits: int = 0  # changes in a row this reading could not explain
    still_from: float | None = None  # the last input while the readings are followed
    asked_here: Prompt | None = None  # the last question this tracker (not a reading) asked
    considered: Prompt | None = None  # the last question weighed for putting unshown
    hidden: Prompt | None = None  # the question put unshown until the decisive input
    shown_late: Prompt | None = None  # the question last shown after it was put
    advice: Advice | None = None  # the readings as values of the turn it asks about
    plays: Plays | None = None
    decisive: bool = False  # the input being read is the decisive one
    at_press: bool = False  # the input being read is a clock press
    said: list  # the presses and answers this turn: (the batch of changes before, input)

    def fork(self):
        """A copy of this tracker that goes its own way from here (its game, board and
        history copied; the turns listed are shared, they are never changed)."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if type(value) in (dict, list, set):
                setattr(twin, name, copy.copy(value))
        twin.state = self.state.clone()
        twin.history = {c: list(h) for c, h in self.history.items()}
        twin.seen = type(self.seen)(self.before, {c: set(v) for c, v in self.seen.items()})
        twin._after_declining = None
        twin.readings, twin.told, twin.read_for, twin.fork_me = {}, {}, None, None
        twin.depth, twin.misfits = self.depth + 1, 0
        twin.asked_here = twin.considered = twin.hidden = twin.shown_late = None
        twin.advice = twin.plays = None
        return twin

    def _read_each(self, t: float) -> None:
        """The question just asked: fork one reading per answer it offers (a reading's
        question is forked by the tracker at the root, which counts the readings)."""
        self.readings, self.told, self.read_for = {}, {}, self._prompt
        if self.depth:
            self.fork_me = self._prompt
            return
        self._branch((), self, t)
        self.still_from, self.asked_here = t, self._prompt

    def _branch(self, path: Path, node, t: float) -> None:
        """Fork ``node`` (the reading at ``path``) once per answer to its question; a fork
        that the answer leaves asking again is forked at once, room allowing."""
        node.fork_me = None
        for option in node._prompt.options:
            twin = node.fork()
            twin.depth = 1
            twin._prompt = node._prompt
            self.readings[(*path, option)] = twin
            self.told[(*path, option)] = twin.choose(option, t)
        for option in node._prompt.options:
            twin = self.readings[(*path, option)]
            if twin.fork_me is not None and twin.fork_me is twin._prompt and self._room(twin):
                self._branch((*path, option), twin, t)

    def _room(self, node) -> bool:
        return len(self._leaves()) + len(node._prompt.options) - 1 <= LEAVES

    def _leaves(self) -> list[Path]:
        parents = {p[:-1] for p in self.readings}
        return [p for p in self.readings if p not in parents]

    def _feed(self, act: Callable, record: Callable | None = None) -> None:
        """Every reading takes the input (one whose question its own readings answer only
        keeps track of the board, with ``record``); a question one asks forks it, room
        allowing."""
        parents = {p[:-1] for p in self.readings}
        for path, reading in list(self.readings.items()):
            if path not in parents:
                self.told[path] += act(reading)
            elif record is not None:
                record(reading)
        leaves = self._leaves()
        for path in leaves:
            node = self.readings[path]
            if node.fork_me is None:
                continue
            if node.fork_me is node._prompt and self._room(node):
                self._branch(path, node, node._prompt.t)
            node.fork_me = None  # (no room: it waits for the answer, as it fits)

    def fits(self) -> bool:
        """Whether the board shows something this tracker's turns explain (in progress,
        done, waiting, asked about, or being put right)."""
        return (not self.differing or bool(self._alive) or self.either or self.restoring
                or self._prompt is not None)

    def _drop_misfits(self, still: bool) -> None:
        """Count, for each reading, the changes in a row after which it does not fit (the
        next change may still make sense of one); let those go that missed
        :data:`STRIKES` times while another fits, or (``still``: the board has been still
        for ``error_delay``) that do not fit now."""
        leaves = [self.readings[p] for p in self._leaves()]
        for reading in leaves:
            reading.misfits = 0 if reading.fits() else reading.misfits + (not still)
        limit = 1 if still else STRIKES
        if any(r.misfits == 0 for r in leaves):
            self._keep([p for p in self._leaves() if self.readings[p].misfits < limit])

    def _settle(self, t: float, moved: bool = False, still: bool = False) -> list:
        """After an input: the readings that no longer fit are let go (while one does);
        answers every reading left agrees on are taken."""
        if not self.readings:
            return []
        if self._prompt is not self.read_for:  # the tracker's own reading closed it meanwhile
            self.readings, self.told, self.read_for = {}, {}, None
            return []
        if (moved or still) and not self.lifting:
            self._drop_misfits(still)
        return self._agreed(t)

    def _agreed(self, t: float) -> list:
        """Once every reading left begins with the same answer, that answer's reading is
        adopted (a question never shown closes unseen)."""
        out: list = []
        while self.readings and len({p[0] for p in self.readings}) == 1:
            answer = next(iter(self.readings))[0]
            if self._prompt is not self.hidden:
                out.append(Settled(t, list(self._prompt.options), answer))
            out += self._adopt(answer, t)
        return out

    def _keep(self, leaves: list[Path]) -> None:
        """Only the readings on the way to ``leaves`` are kept."""
        keep = {p[:k] for p in leaves for k in range(1, len(p) + 1)}
        self.readings = {p: r for p, r in self.readings.items() if p in keep}
        self.told = {p: e for p, e in self.told.items() if p in keep}

    def _adopt(self, answer: str, t: float) -> list:
        """This tracker becomes the reading of ``answer``; what that reading reported since
        the question was asked is reported now (its errors and questions of the past
        left out; its question still open put again), and its own readings are kept."""
        told = self.told[(answer,)]
        below = {p[1:]: r for p, r in self.readings.items() if p[0] == answer and len(p) > 1}
        said = {p[1:]: e for p, e in self.told.items() if p[0] == answer and len(p) > 1}
        kept = self.at_press, self.advice, self.plays
        self.__dict__.update(vars(self.readings[(answer,)]))
        self.at_press, self.advice, self.plays = kept
        self.readings, self.told, self.depth = below, said, 0
        self.read_for = self._prompt if below else None
        self.fork_me, self.still_from = None, t
        out = [e for e in told if isinstance(e, Committed | Rolled | TakenBack)]
        if self._prompt is not None and self._prompt in told:
            out.append(self._prompt)
            if self._unseeable_kind():
                self.shown_late = self._prompt  # (put again: its answer goes to its readings)
        return out

    # --- a question put unshown until the input that may decide it ------------------------

    def _hear(self, inputs: list[Input]) -> None:
        """An input arrives (before anything reads it): the advice of a question put
        unshown reads it, and it is decisive if it is the mover's press (or the shared
        button's) or puts a piece down."""
        self.at_press = isinstance(inputs[0], Press)
        if self.at_press:
            self.said.append((self.batch, inputs[0]))
        if self.advice is None:
            return
        if len(self.state.move_stack) > len(self.plays.root.move_stack) + FOLLOWED:
            self.advice = self.plays = None  # (no question for a while: read afresh)
            return
        self.advice = self.advice.read(self.plays, inputs)
        if self._prompt is not self.hidden:
            return
        empty = self.observe(())
        self.decisive = any(i.player in (None, self.player) if isinstance(i, Press)
                            else i.shows != empty for i in inputs)

    def _outward(self, events: list, reveal: bool = False) -> list:
        """What an input tells the players: a Teblo reed question about which turn was
        made is kept unshown until the decisive input; then the turn the advice decides
        is committed, or else the question is shown. ``reveal``: shown now in any case
        (``hint``, the end of the input)."""
        if self.depth:
            return events
        if self._prompt is not None and self._prompt is not self.considered:
            events = [*events, *self._consider()]
        hidden, decisive = self.hidden, self.decisive
        self.decisive = False
        events = [e for e in events if e is not hidden]
        if hidden is None:
            return events
        if self._prompt is not hidden:
            self.hidden = None
            return events
        if decisive and not reveal:
            first = self.advice.decided()
            leaves = self._following(self.plays.text((first,))) if first else []
            if leaves:
                self._keep(self._parting(leaves))
                return [*events, *self._agreed(hidden.t)]
        if decisive or reveal:
            self.hidden, self.shown_late = None, hidden
            return [*events, hidden]
        return events

    def _consider(self) -> list:
        """A question just put: unshown if it asks which turn of a Teblo presence board was
        made, its readings follow the board, and the advice (this turn's inputs read as
        values) offers every turn it names; the readings may close it at once."""
        prompt = self.considered = self._prompt
        if not self._unseeable():
            self.advice = self.plays = None
            return []
        advice = self._advice_since()
        if advice is None:
            self.plays = Plays(self.state, self.observe)
            advice = Advice().read(self.plays, self._inputs_this_turn())
        offered = {self.plays.text(r.turns) for r in advice.readings if r.turns}
        if not set(prompt.options) - {NONE} <= offered:
            return []  # (a turn the advice does not read: asked now)
        self.advice, self.hidden = advice, prompt
        return self._agreed(prompt.t)

    def _advice_since(self) -> Advice | None:
        """The advice of an earlier question, which has read every input since, from the
        position the turns committed since reach (``None``: there is none, or none of its
        readings made those turns)."""
        if self.advice is None:
            return None
        root = len(self.plays.root.move_stack)
        moves = tuple(self.state.move_stack[root:])
        if list(self.state.move_stack[:root]) != list(self.plays.root.move_stack):
            return None
        since = self.advice.since(self.plays, moves)
        if since is None:
            return None
        advice, self.plays = since
        return advice

    def _unseeable_kind(self) -> bool:
        return self.state.NAME == "teblo" and self.observe is presence

    def _unseeable(self) -> bool:
        return (self._unseeable_kind() and self._prompt is self.asked_here
                and self.read_for is self._prompt
                and not self.at_press and self.deciding is None and bool(self.readings)
                and len(self.state.move_stack) == self.turn_start)

    def _inputs_this_turn(self) -> list[Input]:
        """The inputs since the turn began, in order: each scan's changes (what it took up
        before what it put down), then the presses and answers that came after it."""
        empty = self.observe(())
        out = []
        for cell, hist in self.history.items():
            prev = self.before[cell]
            for n, value in hist:
                if value != prev:
                    out.append((n, int(value != empty), 0, Change(cell, value)))
                prev = value
        out += [(n, 2, k, said) for k, (n, said) in enumerate(self.said)]
        return [change for *_, change in sorted(out, key=lambda o: o[:3])]

    def _following(self, answer: str) -> list[Path]:
        """The readings of ``answer`` that have committed what the cheapest reading as a
        value that begins with it makes, in order (none: the tracker's readings part from
        the advice)."""
        options = self._prompt.options
        if answer not in options or not self.advice.readings:
            return []
        mine = [r for r in self.advice.readings if answer == (
            self.plays.text(r.turns) if r.turns and self.plays.text(r.turns) in options
            else NONE)]
        least = min((r.cost for r in mine), default=None)
        ways = [r.turns for r in mine if r.cost == least]
        return [p for p in self._leaves() if p[0] == answer and any(
            _prefix(self.readings[p].state.move_stack[self.turn_start:], w) for w in ways)]

    def _parting(self, leaves: list[Path]) -> list[Path]:
        """``leaves``, and where they part at a question (so it is shown), the readings of
        every answer it offers, so that each answer still has its reading."""
        nodes = {p[:k] for p in leaves for k in range(1, len(p))}
        parting = [q for q in nodes if len({p[len(q)] for p in leaves if p[:len(q)] == q}) > 1]
        return [p for p in self._leaves()
                if p in leaves or any(p[:len(q)] == q for q in parting)]

    def _heard_answer(self, value: str) -> None:
        """An answer to the question open arrives: kept with the turn's inputs."""
        if self._prompt is None or value not in self._prompt.options:
            return
        options = tuple(self._prompt.options)
        self.said.append((self.batch, Answer(options, value)))
        if self.advice is not None and not self.depth:
            at = self.turn_start - len(self.plays.root.move_stack)
            self.advice = self.advice.after(self.plays, Answer(options, value, at))

    def _take_answer(self, value: str, t: float) -> list | None:
        """An answer to a question shown after it was put: the board goes on as the
        reading of that answer has followed it since (``None``: there is none left, the
        tracker takes the answer as asked). One kept unshown is answered the same way (a
        replay's answer, given as the question was once shown at once)."""
        if self._prompt is self.hidden:
            self.hidden, self.shown_late = None, self._prompt
        if self._prompt is not self.shown_late or self._prompt is not self.read_for:
            return None
        if self.advice is not None and self.considered is self._prompt:
            chosen = self._following(value)
        else:  # (a reading's question, put again once its reading was adopted)
            chosen = [p for p in self._leaves() if p[0] == value]
        if not chosen:
            return None
        self._keep(chosen)
        asked = self._prompt
        return [e for e in self._agreed(t) if not (isinstance(e, Settled)
                                                  and e.options == asked.options)]


def _prefix(moves: list, turns: tuple) -> bool:
    return tuple(moves) == turns[:len(moves)]
