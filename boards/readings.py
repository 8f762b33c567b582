"""Readings: while a question about which turn was made is open, the board is still
followed, once for each answer it offers.

A *reading* is the tracker as an answer would leave it (the turn it names made, or
``none``: no turn it names made), fed every later change, press and tick. A question a
reading asks in turn forks it again, so the readings are the leaves of a tree whose
paths are answers (at most :data:`LEAVES` of them; a reading asked once more while the
tree is full waits for its answer, and the question is then shown). A reading *fits*
while the board shows a turn in progress, done, waiting or asked about in it (a question
of its own only at the input that raised it); one that shows pieces no turn of its own
puts there does not; one that differs from the board only where pieces were taken up
counts as fitting while they are out (a touch may be under way, and whose hand it is
tells no reading from another).

A reading has a *cost*: the unusual actions its answers need (a silent turn the mover's
press did not end) and the changes after which it did not fit. After each change that
puts something down (a piece only lifted may still be put back) or a clock press, the
readings that no longer fit are let go, as long as one still fits, and once something
has happened since the question, so is every reading dearer than the cheapest (by more
than :data:`MARGIN`), and the cheapest readings' answer is taken where they all agree.
Once every reading left begins with the same answer, the question closes itself: that
answer's turns are committed as the answer would have committed them.

The question is put *unshown* (:attr:`hidden`): it is shown once the board has been still
for ``error_delay`` after something happened since with no piece in hand (the players
would answer about the turn they are making), at a clock press, at ``hint``, at the end
of the input, or when a reading's own question finds no room or is :data:`DEPTH` answers
deep (the question lags too far behind the board); one put at a clock press is shown at
once. :class:`Settled` says which answer later events gave to a question that was shown.
An answer to a question shown late names the turn it was asked about (the one of its
ply): it takes the readings that still fit and make that answer the turn (which have
followed the board since), where some do, else the readings of that answer. One given
before it shows, or to a question shown at once, is taken by the tracker as before, and
the readings go with the question, except that a question put unshown as the one the
players saw closed (:attr:`stands_in`) takes no answer before it shows: the answer was
to the closed one. The tracker itself keeps following the board as it did with a
question open (a question about an unseen turn is still declined at the change that
makes the mover's visible turn while it is shown, unless its readings let ``none`` go
for a change it did not explain).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from . import evidence
from .constants import NONE
from .events import Committed, Prompt, Rolled, Settled, TakenBack

LEAVES = 64  # the most readings followed at once
DEPTH = 2  # a reading this many answers deep asking again shows the question (it lags)
MARGIN = 0  # readings costlier than the cheapest by more than this are let go
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
    hidden: object = None  # the question put but not shown: later changes may settle it
    cost: int = 0  # the unusual actions this reading's answers need (a silent turn unpressed)
    at_press: bool = False  # the input being read is a clock press
    inputs: int = 0  # the inputs read so far (at the root)
    asked_input: int = -1  # the input at which the last question of which turn was asked
    asked_ply: int = 0  # the turns committed when it was asked (the index of its turn)
    revealed: object = None  # the question shown after its readings followed the board
    crowded: bool = False  # a reading's own question found no room, or is DEPTH deep: shown
    read_at: int = 0  # the input at which the readings were forked
    on_show: object = None  # the question the players saw after the last input
    stands_in: object = None  # a question put unshown as the one shown closed unanswered

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
        twin.depth, twin.misfits, twin.hidden = self.depth + 1, 0, None
        return twin

    def _read_each(self, t: float) -> None:
        """The question just asked: fork one reading per answer it offers (a reading's
        question is forked by the tracker at the root, which counts the readings)."""
        self.readings, self.told, self.read_for = {}, {}, self._prompt
        self.asked_input, self.asked_ply = self.inputs, len(self.turns())
        if self.depth:
            self.fork_me = self._prompt
            return
        self._branch((), self, t)
        self.still_from, self.read_at = t, self.inputs
        # (asked at a press, the next decisive chance has come: it is shown at once)
        self.hidden, self.crowded = (None if self.at_press else self._prompt), False

    def _outward(self, events: list, reveal: bool = False) -> list:
        """What an input tells the players (:meth:`_unshown`); a question put unshown as
        the one they saw closed *stands in*: an answer is to the closed one, not to it."""
        seen = self.on_show
        out = self._unshown(events, reveal)
        if not self.depth:
            if self.hidden is not None and seen is not None and seen is not self._prompt:
                self.stands_in = self.hidden
            self.on_show = None if self._prompt is self.hidden else self._prompt
        return out

    def _unshown(self, events: list, reveal: bool) -> list:
        """A question not shown yet is left out while its readings follow the board, and
        shown once ``reveal`` (the board still since, or the input ended) or once nothing
        follows it; a question that closed unseen is not said to have closed."""
        hidden = self.hidden
        if self.depth or hidden is None:
            return events
        if self._prompt is not hidden:
            self.hidden = None
            return [e for e in events if e is not hidden]
        events = [e for e in events if e is not hidden]
        if reveal or not self.readings or self.crowded:
            self.hidden, self.revealed = None, hidden
            return [*events, hidden]
        return events

    def _branch(self, path: Path, node, t: float) -> None:
        """Fork ``node`` (the reading at ``path``) once per answer to its question; a fork
        that the answer leaves asking again is forked at once, room allowing."""
        node.fork_me, node.read_at = None, self.inputs
        for option in node._prompt.options:
            twin = node.fork()
            twin.depth = 1
            twin._prompt = node._prompt
            twin.cost = node.cost + node._price(option)
            self.readings[(*path, option)] = twin
            self.told[(*path, option)] = twin.choose(option, t)
        for option in node._prompt.options:
            twin = self.readings.get((*path, option))
            if twin is not None and twin.fork_me is not None and twin.fork_me is twin._prompt:
                if self._dear((*path, option)):
                    continue
                if self._room(twin):
                    self._branch((*path, option), twin, t)

    def _dear(self, path: Path) -> bool:
        """Let the reading at ``path`` go if it costs more than the cheapest by more than
        :data:`MARGIN` (a chain of silent steps, each unpressed): whether it went."""
        leaves = self._leaves()
        least = min(self.readings[p].cost for p in leaves)
        if self.readings[path].cost <= least + MARGIN:
            return False
        self._keep([p for p in leaves if p != path])
        return True

    def _price(self, option: str) -> int:
        """What answering ``option`` to this tracker's question costs: a silent turn the
        mover's press did not end costs one (``none`` costs nothing: a touch put back looks
        like a turn and the next player's on the cell it left)."""
        silent = any(c.silent and c.text == option for c in self.pending)
        return int(silent and not self.at_press)

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
            if node.fork_me is None or path not in self.readings:
                continue
            if node.fork_me is node._prompt and self._dear(path):
                continue
            if node.fork_me is node._prompt and self._room(node):
                self._branch(path, node, node._prompt.t)
                self.crowded = self.crowded or len(path) >= DEPTH
            elif node.fork_me is node._prompt:
                self.crowded = True  # (it waits for the answer: the question is shown)
            node.fork_me = None

    def fits(self) -> bool:
        """Whether the board shows something this tracker's turns explain (in progress,
        done, waiting, asked about, or being put right)."""
        return (not self.differing or bool(self._alive) or self.either or self.restoring
                or self._prompt is not None and self._following())

    def _following(self) -> bool:
        """A reading's open question still keeps up with the board: a decision of the
        turn, or asked at the last input (a question of which turn, left unforked, has
        stopped following the board since)."""
        return self.deciding is not None or self.asked_input == self.inputs

    def _touched_only(self) -> bool:
        """Whether the board differs from this reading's only where pieces were taken up
        (a touch may be under way, and whose hand it is tells no reading from another; a
        block it put down since the question, lifted again, may be touched or may never
        have been put down: that lets no reading win)."""
        ev = self.evidence
        return all(self.current[c] in evidence.in_hand(ev, c) for c in self.differing)

    def _drop_misfits(self, still: bool) -> None:
        """Count, for each reading, the changes in a row after which it does not fit (the
        next change may still make sense of one); let those go that missed
        :data:`STRIKES` times while another fits, or (``still``: the board has been still
        for ``error_delay``) that do not fit now."""
        leaves = [self.readings[p] for p in self._leaves()]
        for reading in leaves:
            fits = reading.fits() or reading._touched_only()
            reading.misfits = 0 if fits else reading.misfits + (not still)
            reading.cost += not fits
        limit = 1 if still else STRIKES
        if any(r.misfits == 0 for r in leaves):
            self._keep([p for p in self._leaves() if self.readings[p].misfits < limit])

    def _settle(self, t: float, moved: bool = False, still: bool = False,
                pressed: bool = False) -> list:
        """After an input: the readings that no longer fit are let go (while one does);
        answers every reading left agrees on are taken."""
        if not self.readings:
            return []
        if self._prompt is not self.read_for:  # the tracker's own reading closed it meanwhile
            self.readings, self.told, self.read_for = {}, {}, None
            return []
        if pressed or (moved or still) and not self.lifting:
            self._drop_misfits(still)
            if self.inputs > self.read_at:
                self._keep_cheapest()
        out: list = []
        while self.readings and len({p[0] for p in self.readings}) == 1:
            answer = next(iter(self.readings))[0]
            if self._prompt is not self.hidden:
                out.append(Settled(t, list(self._prompt.options), answer))
            out = [e for e in out if not isinstance(e, Prompt)]  # (settled unseen)
            out += self._adopt(answer, t)
        return out

    def _take_answer(self, value: str, t: float) -> list | None:
        """An answer to the question the readings follow: the board goes on as the
        readings that still fit and make the answer the question's turn have followed it
        since (where none does, the pieces have moved on: as that answer's readings
        have; None where there are none: the tracker takes the answer itself)."""
        if self._prompt is not self.read_for or self._prompt is not self.revealed:
            return None  # (a question shown when asked is answered as it was asked)
        asked = self._prompt
        direct = [p for p in self._leaves() if p[0] == value]
        made = [p for p in self._leaves() if self.readings[p].fits()
                and self._gives(p, value, asked.options)]
        if not made and not direct:
            return None
        if made and len({p[0] for p in made}) > 1:
            made = [p for p in made if p[0] == value]
        self._keep(made or direct)
        return [e for e in self._settle(t) if not (isinstance(e, Settled)
                                                    and e.options == asked.options)]

    def _gives(self, path: Path, value: str, options: list) -> bool:
        """Whether the reading at ``path`` makes ``value`` the turn the question is about
        (its ply's: a late answer names that turn, which a reading may have made, or be
        making, only after the question, the pieces being touched when it was asked)."""
        reading = self.readings[path]
        made = reading.turns()[self.asked_ply:self.asked_ply + 1]
        if value == NONE:
            return path[0] == NONE and not set(made) & set(options)
        return path[0] == value or made == [value] or not made and any(
            c.text == value for c in [*reading.alive(), *reading.pending])

    def _ruled_out(self, answer: str) -> bool:
        """Whether the readings of the open question have let ``answer`` go."""
        return (bool(self.readings) and self.read_for is self._prompt
                and all(p[0] != answer for p in self.readings))

    def _keep_cheapest(self) -> None:
        """Once an input came after the question: where the cheapest readings all begin
        with the same answer, only the readings of that answer are kept."""
        leaves = self._leaves()
        least = min(self.readings[p].cost for p in leaves)
        firsts = {p[0] for p in leaves if self.readings[p].cost == least}
        self._keep([p for p in leaves if self.readings[p].cost <= least + MARGIN
                    and (len(firsts) > 1 or p[0] in firsts)])

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
        seen = self.on_show
        self.__dict__.update(vars(self.readings[(answer,)]))
        self.on_show = seen
        self.readings, self.told, self.depth = below, said, 0
        self.read_for = self._prompt if below else None
        self.fork_me, self.still_from, self.crowded = None, t, False
        out = [e for e in told if isinstance(e, Committed | Rolled | TakenBack)]
        if self._prompt is not None and self._prompt in told:
            out.append(self._prompt)
            self.hidden = self._prompt if below else None
        return out
