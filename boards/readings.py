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
left begins with the same answer (or makes the turn one answer names: a reading of
``none`` may find it made after all), the question closes itself: that answer's turns are
committed as the answer would have committed them, and :class:`Settled` says which
answer later events gave. An answer given meanwhile is taken by the tracker as before;
the readings go with the question. The tracker itself keeps following the board as it did
with a question open, but a question about an unseen turn that its readings follow is
no longer declined by what looks like the mover's visible turn: that may be the next
player's, after the unseen turn (the readings of ``none`` tell).

A question one of whose answers is a turn no sensor sees waits unshown
(:meth:`Readings._quiet_question`): the press of the clock of the player asked, or the
next piece put down, settles it by the readings' costs where one answer is the cheapest,
and otherwise shows it, as does any other input but a piece taken up, and a second of
stillness once a piece was put down or the clock pressed since it (before that, the
board is still because the next player is thinking, and their move may settle it;
docs/architecture.md, "When a question is shown"). An answer to a question shown after
a piece was put down takes that answer's readings, which followed the turns since, and
so does one the tracker alone would not make sense of (a lift since read as the next
turn begun). An answer to a question some of whose readings room let go, however late,
is taken by the readings that fit it (:meth:`Readings._answered_cut`); where none is
left, the changes and presses since are read again after it
(:meth:`boards.undecided.Undecided._replayed`). Later events settle such a question only
on the answer every reading let go began with (:meth:`Readings._whole`); before any is let
go for room, readings that are twins are (:meth:`Readings._merge_twins`), and then
readings that end alike, by another order of turns (:meth:`Readings._let_go_transposed`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .constants import NONE
from .events import Prompt, Settled, recorded
from .undecided import crowded, pressed_since

LEAVES = 64  # the most readings followed at once
STRIKES = 2  # a reading is let go after this many changes in a row that it cannot explain
SLACK = 1  # a reading that takes more than this many unusual actions more than one that
#            fits is let go


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
    # The questions some of whose readings were let go, or not forked, for want of room:
    # later events cannot settle them (the reading left out may have been the true one).
    cut: frozenset = frozenset()
    still_from: float | None = None  # the last input while the readings are followed
    # The unusual actions the answers on this reading's path take for granted (:meth:`_price`).
    cost: int = 0
    pressing: bool = False  # the input being read is a clock press
    downs: int = 0  # the put-downs read since the question was put (or taken from a reading)
    read_on: float | None = None  # when the readings last read a piece put down or a press
    asked_at_press: bool = False  # the question open was raised by a clock press
    unshown: object = None  # the question open, while it is not shown yet

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
        twin.cut = frozenset()
        twin.depth, twin.misfits = self.depth + 1, 0
        return twin

    def _read_each(self, t: float) -> None:
        """The question just asked: fork one reading per answer it offers (a reading's
        question is forked by the tracker at the root, which counts the readings)."""
        self.readings, self.told, self.read_for = {}, {}, self._prompt
        self.cut = frozenset()
        self.asked_at_press, self.downs = self.pressing, 0
        if self.depth:
            self.fork_me = self._prompt
            return
        self._branch((), self, t)
        self.still_from = t

    def _branch(self, path: Path, node, t: float) -> None:
        """Fork ``node`` (the reading at ``path``) once per answer to its question; a fork
        that the answer leaves asking again is forked at once, room allowing. An answer
        that would make a reading dearer than :data:`SLACK` over the cheapest that fits is
        not followed (a reading all of whose answers are is let go)."""
        node.fork_me = None
        dearest = min((self.readings[p].cost for p in self._leaves() if p != path
                       and self.readings[p].fits()), default=node.cost) + SLACK
        options = [o for o in node._prompt.options if node.cost + _price(node, o) <= dearest]
        if path and not options:
            self._keep([p for p in self._leaves() if p != path])
            return
        for option in options:
            twin = node.fork()
            twin.depth, twin.cost = 1, node.cost + _price(node, option)
            twin._prompt = node._prompt
            self.readings[(*path, option)] = twin
            self.told[(*path, option)] = twin.choose(option, t)
        for option in options:  # (one may have gone as another's twin, making room)
            twin = self.readings.get((*path, option))
            if twin is not None and twin.fork_me is not None \
                    and self._may_fork(twin, (*path, option)):
                self._branch((*path, option), twin, t)
        for option in options:  # (forked at a press, they took it; later inputs are not it)
            if (twin := self.readings.get((*path, option))) is not None:
                twin.pressing = False

    def _may_fork(self, node, path: Path) -> bool:
        """Whether ``node`` (the reading at ``path``), asking its question, forks now. One
        that asks again, at the same input, what a reading on its way asked, seeing the
        same (``none`` to a claim at i3 asks for one at i4, whose ``none`` asks for i3
        again), is let go: the answers above it already read each turn it could offer
        (asked again at a later input, it asks about what came since: a second touch).
        Otherwise, room allowing."""
        if node.fork_me is not node._prompt:
            return False
        above = [self.readings[path[:k]] if k else self for k in range(len(path))]
        asked_with = [r for r in above if r._prompt is not None and r._prompt.t == node._prompt.t]
        made = self.turns_made()
        if asked_with and _likeness(node, made) in [_likeness(r, made) for r in asked_with]:
            self._keep([p for p in self._leaves() if p != path])
            return False
        return self._room(node, path)

    def _room(self, node, path: Path) -> bool:
        """Whether ``node`` (the reading at ``path``) may fork: room is made by letting go
        readings that took more answers for granted (:func:`boards.undecided.crowded`)."""
        def need() -> int:
            return len(self._leaves()) + len(node._prompt.options) - 1 - LEAVES

        if need() > 0:
            self._merge_twins(path)
        if need() > 0:
            self._let_go_transposed(path, need())
        if (short := need()) <= 0:
            return True
        gone = crowded(list(self.readings), short, path)
        if gone:
            self._keep([p for p in self._leaves() if p not in gone])
        self.cut |= {p[:k] for p in gone or [(*path, "")] for k in range(len(p) + 1)}
        return bool(gone)

    def _merge_twins(self, forking: Path) -> None:
        """Let go each reading that has a twin under the same first answer: the same
        turns made since the question, the same turn in hand, seen the same since it
        began, and the same question open, at the same cost (two orders of answers that
        led to one reading: a turn found at its own question, or at the next one after
        ``none``). The twin on the shorter path of answers stays; nothing is lost, so the
        question is not cut."""
        made = self.turns_made()
        gone = self._alike(forking, lambda p: (p[0], _likeness(self.readings[p], made)))
        if gone:
            self._keep([p for p in self._leaves() if p not in gone])

    def _let_go_transposed(self, forking: Path, need: int) -> None:
        """Let go up to ``need`` readings that show what another shows (:func:`_placing`:
        the same position, whatever order of turns led there, and the same turn in hand),
        those of the longest paths first: the board is still followed by the one kept, and
        only an answer could tell which order was played (read again then, as the question
        is cut: :meth:`_answered_cut`). Before any reading that shows something else."""
        made = self.turns_made()
        gone = self._alike(forking, lambda p: _placing(self.readings[p], made))
        gone = sorted(gone, key=lambda p: (-len(p), p))[:need]
        if gone:
            self._keep([p for p in self._leaves() if p not in gone])
            self.cut |= {p[:k] for p in gone for k in range(len(p) + 1)}

    def _alike(self, forking: Path, key: Callable[[Path], tuple]) -> list[Path]:
        """The readings that show, by ``key``, what a reading before them shows (the one
        at ``forking`` first, then those of the shorter paths of answers)."""
        kept: dict[tuple, Path] = {}
        return [path for path in sorted(self._leaves(), key=lambda p: (p != forking, len(p), p))
                if kept.setdefault(key(path), path) != path]

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
            node = self.readings.get(path)  # (None: let go to make room for another)
            if node is None or node.fork_me is None:
                continue
            if self._may_fork(node, path):
                self._branch(path, node, node._prompt.t)
            node.fork_me = None  # (no room: it waits for the answer, as it fits)

    def fits(self) -> bool:
        """Whether the board shows something this tracker's turns explain (in progress,
        done, waiting, asked about, or being put right)."""
        return (not self.differing or bool(self._alive) or self.either or self.restoring
                or self._prompt is not None)

    def _drop_misfits(self, still: bool, ended: bool = False) -> None:
        """Count, for each reading, the changes in a row after which it does not fit (the
        next change may still make sense of one); while another fits, let those go that
        missed :data:`STRIKES` times, or do not fit now where the input has ended
        (``ended``) or the board has been still for ``error_delay`` (``still``). At a
        second of stillness, one that does not fit stays where every reading that fits
        made two turns or more beyond it: a piece out of place for a second is likelier
        put right than explained by turns nobody saw (yellow's pawn moved by red to l6
        and back, against red's unseen l11-l10, yellow's a4-a5 onto its own block and
        red's +l6)."""
        leaves = [self.readings[p] for p in self._leaves()]
        for reading in leaves:
            reading.misfits = 0 if reading.fits() else reading.misfits + (not still or ended)
        fitting = [r for r in leaves if r.misfits == 0]
        if not fitting:
            return
        dearest = min(r.cost for r in fitting) + SLACK
        least = min(r.turns_made() for r in fitting)  # (the fitting reading of fewest turns)

        def kept(reading: Readings) -> bool:
            if reading.misfits and (ended or still and least <= reading.turns_made() + 1):
                return False
            return reading.misfits < STRIKES and reading.cost <= dearest

        self._keep([p for p in self._leaves() if kept(self.readings[p])])

    def _settle(self, t: float, moved: bool = False, still: bool = False,
                ended: bool = False, pressed: bool | None = None, own: bool = False) -> list:
        """After an input: the readings that no longer fit are let go (while one does);
        answers every reading left agrees on are taken, and so is an answer all of whose
        readings are cheaper than every other's once :data:`STRIKES` put-downs came after
        the question (the next player's action, and one more, fit it), or, for a question
        not shown yet, at the press of the clock of the player asked about (``pressed``:
        True; False for a press of the other side) or the next piece put down. A question
        not shown yet that is still open is shown then, or at any other input but a piece
        taken up, or a second of stillness after one of those (:meth:`_quiet_question`).
        ``own``: the press was of the asked player's own side of the clock (not a shared
        button): a reading has the unusual actions :meth:`_late` counts added."""
        unshown = self.hidden
        put = moved and not self.lifting
        if (put or pressed is not None) and self.readings:
            self.read_on = t
        out = self._settled(t, moved, still, ended, (bool(pressed) or put) and unshown, own)
        if self.hidden and self._prompt.t < t \
                and (put or still and self._read_since() or ended or pressed is not None
                     or not self.readings):
            self.unshown = None
            out.append(self._prompt)
        if unshown:  # (nobody saw the question its readings settled)
            out = [e for e in out if not isinstance(e, Settled)]
        return out

    def _read_since(self) -> bool:
        """Whether a piece was put down or the clock pressed since the question was put
        (the next player's chance to settle it came)."""
        return self.read_on is not None and self.read_on > self._prompt.t

    @property
    def hidden(self) -> bool:
        """Whether the question open is not shown yet."""
        return self._prompt is not None and self._prompt is self.unshown

    def _answered(self, value: str, t: float) -> list | None:
        """An answer to a question after which a piece was put down or the clock pressed,
        or one the tracker alone would not make sense of (pieces taken up since, the next
        turn begun): the readings of that answer are taken (they followed the turns
        since): those that fit, or, with only pieces taken up since, every one (a piece
        taken up may still be put back). Where room let readings go, see
        :meth:`_answered_cut`; where the question has none, :meth:`_lost`."""
        if not self.readings or self._prompt is not self.read_for:
            return self._lost(value, t)
        if () in self.cut:
            return self._answered_cut(value, t)
        leaves = [p for p in self._leaves() if p[0] == value]
        again = self._asked_again(value, t)
        if again:  # (the one question the player saw: its answer is the same)
            leaves = [p for p in leaves if p[1:2] in ((), (value,))]
        if self._read_since():
            leaves = [p for p in leaves if self.readings[p].fits()] or (leaves if again else [])
        elif leaves and self._fits_answered(value, t):
            return None
        if not leaves:
            return None
        self._keep(leaves)  # (the answer closed it: no Settled said)
        return [e for e in self._settled(t, False, False, False, False)
                if not isinstance(e, Settled)
                and not (again and isinstance(e, Prompt) and e is not self._prompt)]

    def _asked_again(self, value: str, t: float) -> bool:
        """Whether the reading of ``value`` asks the question open again before the answer
        came: the same options about the same turn (a Telec forfeit asked at a lift, the
        piece put down elsewhere as garbage, then lifted again there before the answer)."""
        reading, asked = self.readings.get((value,)), self._prompt
        again = reading is not None and reading._prompt is not None
        return again and reading._prompt.options == asked.options and reading._prompt.t <= t \
            and reading.turns_made() == self.turns_made()

    def _answered_cut(self, value: str, t: float) -> list | None:
        """An answer to a question some of whose readings room let go (often one nobody
        answered for long): the readings that fit it take it: its own, or those of
        ``none`` that made its turn after all or whose next question offers it (the turn
        first read as a touch). Of those, the ones that read the most turns (a reading
        that waited for room read fewer), then the cheapest; what room let go stays
        unsettled."""
        made = self.turns_made()
        declined = self.readings.get((NONE,))  # (asked again about the same turn)
        again = declined is not None and declined.turns_made() == made

        def read(p: Path) -> int | None:
            r = self.readings[p]
            if not r.fits() or p[0] != value and (p[0] != NONE or value == NONE):
                return None
            if p[0] == value or r.turns(made)[:1] == [value]:
                return r.turns_made()
            return r.turns_made() + 1 if p[1:2] == (value,) and again else None

        scores = {p: n for p in self._leaves() if (n := read(p)) is not None}
        if not scores:
            return self._replayed(value, t)
        best = min(scores, key=lambda p: (-scores[p], self.readings[p].cost, p[0] != value))
        self._keep([p for p in scores if p[0] == best[0]])
        out = self._adopt(best[0], t)
        if best[0] != value and self.turns(made)[:1] != [value] \
                and self._prompt is not None and value in self._prompt.options:
            out = [e for e in out if not isinstance(e, Prompt)] + self.choose(value, t)
        return out + [e for e in self._settled(t, False, False, False, False)
                      if not isinstance(e, Settled)]

    def _lost(self, value: str, t: float) -> list | None:
        """An answer to a question without readings (a reading that waited for room):
        where anything was read since the question, the changes and presses since are
        read again after it, in order (:meth:`_replayed`). The tracker alone may seem to
        make sense of them, yet it took each press meanwhile for the question's turn
        (a Teblo pawn's step between two own blocks, ended by its press after the
        opponent's turn, would be lost)."""
        if self.deciding is not None or self.batch <= self.prompt_batch:
            return None
        return self._replayed(value, t)

    def _fits_answered(self, value: str, t: float) -> bool:
        """Whether the tracker alone, so answered, explains the board."""
        twin = self.fork()
        twin.readings, twin.told, twin.read_for = {}, {}, None
        twin._choose(value, t)
        return twin.fits()

    def _quiet_question(self) -> bool:
        """Whether the question just asked waits unshown: a question of which turn was
        made, raised by a change, one of whose answers is a turn no sensor sees, or one
        of whose readings has the next player already begun (the mover's press, expected
        after such a turn, or the next piece put down may settle it by the readings'
        costs)."""
        made = self.turns_made() + 1
        return bool(self.readings) and not self.asked_at_press and (
            any(c.silent for c in self.pending)
            or any(r.turns_made() > made for r in self.readings.values()))

    def _settled(self, t: float, moved: bool, still: bool, ended: bool,
                 pressed: bool, own: bool = False) -> list:
        if not self.readings:
            return []
        if self._prompt is not self.read_for:  # the tracker's own reading closed it meanwhile
            self.readings, self.told, self.read_for = {}, {}, None
            return []
        if (moved or still) and not self.lifting or ended:
            self._drop_misfits(still, ended)
        self.downs += moved and not self.lifting
        if self.readings and (self.downs >= STRIKES or pressed):
            self._cheapest(fitting=pressed, own=own and pressed)
        out: list = []
        while self.readings and (answer := self._agreed()) is not None:
            out += [Settled(t, list(self._prompt.options), answer), *self._adopt(answer, t)]
        return out

    def _agreed(self) -> str | None:
        """The answer every reading left agrees on: all begin with it, or all made the same
        turns since, the first the one it names (a reading of ``none`` that found that turn
        made after all); its readings are kept. None while they differ (agreeing on the
        first turn alone is not enough: a step read at its first lift, the pawn then put
        back and the opponent's block read there, is that step made later in another)."""
        firsts = {p[0] for p in self.readings}
        if len(firsts) == 1:
            return next(iter(firsts)) if self._whole(*firsts) else None
        if () in self.cut:
            return None
        made = self.turns_made()
        leaves = self._leaves()
        since = {tuple(self.readings[p].turns(made)) for p in leaves}
        if len(since) != 1 or not (turn := next(iter(since))) or turn[0] not in firsts:
            return None
        self._keep([p for p in leaves if p[0] == turn[0]])
        return turn[0]

    def _cheapest(self, fitting: bool = False, own: bool = False) -> None:
        """Where the readings no dearer than the cheapest that fits all begin with one
        answer, only that answer's are kept (every other answer's readings take an unusual
        action more for granted). A reading that does not fit just now never makes a
        dearer one that does go; ``fitting`` (at the press of the clock of the player
        asked about, the turn declared done): nor does it keep an answer open; ``own``
        (that press made on their own side): a reading counts the unusual actions
        :meth:`_late` finds too."""
        leaves = self._leaves()
        made = self.turns_made() + 1
        cost = {p: self.readings[p].cost + (own and self._late(p, made)) for p in leaves}
        fit = {p for p in leaves if self.readings[p].misfits == 0 and self.readings[p].fits()}
        low = min((cost[p] for p in fit), default=None)
        if low is None:
            return
        first = {p[0] for p in (fit if fitting else leaves) if cost[p] <= low}
        if len(first) == 1 and self._whole(*first):
            self._keep([p for p in leaves if p[0] in first])

    def _whole(self, answer: str) -> bool:
        """Whether every reading room let go, or kept from forking, began with ``answer``:
        those of every other answer are all still followed, so later events may settle the
        question on ``answer`` (a reading let go could only have been another of its)."""
        return all(c[:1] == (answer,) for c in self.cut if c)

    def _late(self, path: Path, made: int) -> int:
        """The unusual actions the reading at ``path`` takes for granted once the asked
        player pressed their own side of the clock: the next player began before that
        press, and the press ended no turn of theirs the sensors saw since (they are to
        move again, or it ended an unseen one: the turn asked about was not yet ended;
        where they made a turn the sensors saw since, the press ended that one), where
        they are using the clock (a press of theirs ended or confirmed their last turn:
        a player who presses only after unseen turns may well leave a turn unpressed), or
        (``none``) the piece taken up was only touched."""
        reading = self.readings[path]
        late = reading.turns_made() > made and self.clock_used.get(self.player, True) \
            and (reading.player == self.player or _unseen_last(reading))
        return late + (path[0] == NONE)

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
        cut = frozenset(c[1:] for c in self.cut if c[:1] == (answer,))
        read_on = self.read_on
        self.__dict__.update(vars(self.readings[(answer,)]))
        self.readings, self.told, self.depth, self.cut = below, said, 0, cut
        self.read_for = self._prompt if below else None
        self.fork_me, self.still_from, self.downs, self.read_on = None, t, 0, read_on
        out = recorded(told)
        if self._prompt is not None and self._prompt in told:
            if self._prompt.t >= self.last_change and self._quiet_question():  # (no change since)
                self.unshown = self._prompt
            else:
                out.append(self._prompt)
        return out


def _likeness(reading, made: int) -> tuple:
    """What a reading shows, were its path of answers forgotten: the turns it made since
    turn ``made``, the decisions of the turn in hand, what the sensors showed since that
    turn began (a turn found later begins later), the turns it finds complete, the
    question it asks, its cost and whether it fits."""
    prompt = reading._prompt
    seen = tuple(sorted((cell, tuple(h)) for cell, h in reading.history.items()))
    return (tuple(reading.turns(made)), tuple(map(repr, reading.state.move_stack[
        reading.turn_start:])), seen, tuple(sorted(reading.differing)),
        tuple(sorted(c.text for c in reading.pending)), prompt and tuple(prompt.options),
        reading.cost, reading.fits(), reading.misfits)


def _placing(reading, made: int) -> tuple:
    """What a reading shows, were the order of its turns since turn ``made`` forgotten:
    the position they lead to and how many they are, and its :func:`_likeness` without
    the turns."""
    return (reading.state.position_str(), reading.turns_made() - made,
            _likeness(reading, made)[1:], tuple(reading.held), reading.restoring,
            reading.lifting, reading.either)


def _physical(reading, decisions: int) -> dict:
    """The pieces of the reading's game after its first ``decisions``."""
    state = reading.state.clone()
    while len(state.move_stack) > decisions:
        state.pop()
    return state.physical()


def _unseen_last(reading) -> bool:
    """Whether the reading's last turn left the sensors showing what they showed before
    it (a Teblo pawn stepping onto its own block beside it)."""
    marks = reading.turn_marks
    return bool(marks) and not reading._visible(_physical(reading, marks[-1]),
                                                _physical(reading, reading.turn_start))


def _price(node, option: str) -> int:
    """The unusual actions ``option``, an answer to ``node``'s question, takes for granted:
    one for a turn the sensors cannot see at all that no clock press ended (a Teblo pawn
    stepping between two own blocks on reed switches, with nobody pressing). ``none`` is
    free: a piece touched and put back is as ordinary as a step onto an own block and the
    opponent's block where the pawn stood, and a press of a shared clock button may be the
    last mover's, confirming their turn; a piece no turn explains is let go as a misfit."""
    if option == NONE:
        return 0
    silent = any(c.silent for c in node.pending if c.text == option)
    return int(silent and not node.asked_at_press and not pressed_since(node))
