"""Readings as plain values: what the sensors showed since the last commit, read as turns.

A :class:`Reading` is the turns made since the last commit (the last one possibly in
progress: :attr:`Reading.needs` names the cells it still has to change), the cells that
show what none of its turns put there (:attr:`Reading.astray`: a piece taken up and not
yet put back, or put down where no turn puts it), and the unusual actions it needs
(:attr:`Reading.unusual`, one name each; :attr:`Reading.cost` counts them):

- ``touch``: a piece taken up that no turn takes up (put back, it costs nothing more);
- ``stray``: a piece put down where no turn puts it;
- ``silent turn``: a turn no sensor sees that the mover's press did not end;
- ``press``: a clock press that ends nothing;
- ``refill``: a turn that puts a piece where the turn before only took one up (it looks
  like that piece put back);
- ``back``: a piece put back where its player's last turn took it up (it looks like a
  touch).

:func:`advance` reads one input (a :class:`Change` or a :class:`Press`) into every way a
reading may go on, each a new value; :class:`Readings` keeps the cheapest of them
(:data:`ROOM`, none costlier than the cheapest by more than :data:`MARGIN`) and says which
first turn they decide (:meth:`Readings.decided`): the cheapest reading's, where every
reading that leads to another turn (or to none yet) costs more.

The turns of each position a reading reaches are listed once (:class:`Plays`). Only games
whose every turn is one move are read (Teblo, the advisor's only game so far).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace

import rules

from . import decisions
from .constants import NONE

ROOM = 64  # the most readings kept
MARGIN = 1  # readings costlier than the cheapest by more than this are let go

Effect = tuple[str, Hashable]  # a cell and what its sensor shows once the turn is made


@dataclass(frozen=True)
class Change:
    """A cell's sensor now shows ``shows``."""

    cell: str
    shows: Hashable


@dataclass(frozen=True)
class Press:
    """A clock press: ``player``'s button, or the shared one (``None``)."""

    player: str | None


@dataclass(frozen=True)
class Answer:
    """The players' answer ``value`` to a question about the turn ``at`` (0: the first),
    offering ``options`` (``none``: none of them)."""

    options: tuple[str, ...]
    value: str
    at: int = 0


Input = Change | Press | Answer


@dataclass(frozen=True)
class Reading:
    """One way to read the inputs since the last commit (see the module)."""

    turns: tuple[Hashable, ...] = ()
    needs: frozenset[Effect] = frozenset()
    astray: frozenset[str] = frozenset()
    unusual: tuple[str, ...] = ()
    pressed: bool = False  # its last complete turn's mover pressed since

    @property
    def cost(self) -> int:
        return len(self.unusual)

    @property
    def first(self) -> Hashable | None:
        """The first turn, once it is made (complete, or followed by another)."""
        if not self.turns or len(self.turns) == 1 and self.needs:
            return None
        return self.turns[0]

    @property
    def followed(self) -> bool:
        """Whether the evidence after the first turn has arrived: the next turn begun, or
        the first turn's mover pressed."""
        return len(self.turns) > 1 or (len(self.turns) == 1 and not self.needs
                                       and self.pressed)

    def unusually(self, name: str, **changes) -> Reading:
        return replace(self, unusual=(*self.unusual, name), **changes)


@dataclass
class Position:
    """A position a reading reaches: who moves, what each cell shows, and the turns from it
    by what they show (a turn no sensor sees under ``()``)."""

    state: rules.GameState
    shows: dict[str, Hashable]
    by_effect: dict[Effect, list[tuple[Hashable, frozenset[Effect]]]] = field(
        default_factory=dict)
    silent: list[Hashable] = field(default_factory=list)
    listed: bool = False


class Plays:
    """The positions readings reach from ``state`` (the last commit's), each listed once."""

    def __init__(self, state: rules.GameState, observe: Callable[[tuple], Hashable]) -> None:
        self.root = state.clone()
        self.observe = observe
        self.cells = state.GEOMETRY.names
        self._at: dict[tuple, Position] = {}

    def after(self, moves: tuple) -> Plays:
        """The positions readings reach once ``moves`` are committed."""
        if not moves:
            return self
        out = Plays(self.at(moves, listed=False).state, self.observe)
        k = len(moves)
        out._at = {turns[k:]: pos for turns, pos in self._at.items() if turns[:k] == moves}
        return out

    def at(self, turns: tuple, listed: bool = True) -> Position:
        pos = self._at.get(turns)
        if pos is None:
            state = self.root.clone()
            for move in turns:
                state.push(move)
            phys = state.physical()
            pos = self._at[turns] = Position(
                state, {c: self.observe(phys.get(c, ())) for c in self.cells})
        if listed and not pos.listed:
            self._list(pos)
        return pos

    def _list(self, pos: Position) -> None:
        state, shows = pos.state, pos.shows
        pos.listed = True
        if state.outcome() is not None:
            return
        for move in state.legal_moves():
            state.push(move)
            phys = state.physical()
            state.pop()
            effects = frozenset((c, v) for c, v in (
                (c, self.observe(phys.get(c, ()))) for c in self.cells) if v != shows[c])
            if not effects:
                pos.silent.append(move)
            for effect in effects:
                pos.by_effect.setdefault(effect, []).append((move, effects))

    def mover(self, turns: tuple) -> str:
        return self.at(turns, listed=False).state.to_move

    def moved(self, turns: tuple) -> str | None:
        """Who made the last of ``turns`` (before any: the last turn committed, if one
        was; its mover may still press)."""
        if turns:
            return self.mover(turns[:-1])
        if not self.root.move_stack:
            return None
        return next(p for p in self.root.PLAYERS if p != self.root.to_move)

    def expected(self, reading: Reading, cell: str) -> Hashable:
        """What ``cell`` shows with the reading's turns made (the last as far as it is)."""
        if any(c == cell for c, _ in reading.needs):
            return self.at(reading.turns[:-1], listed=False).shows[cell]
        return self.at(reading.turns, listed=False).shows[cell]

    def text(self, turns: tuple, k: int = 0) -> str:
        """The notation of the ``k``-th of ``turns``."""
        return decisions.text(self.at(turns[:k], listed=False).state, turns[k])


def advance(plays: Plays, reading: Reading, event: Input) -> list[Reading]:
    """Every way ``reading`` goes on after ``event`` (none: it cannot)."""
    if isinstance(event, Press):
        return _pressed(plays, reading, event.player)
    if isinstance(event, Answer):
        return [] if _contradicts(plays, reading, event) else [reading]
    return _changed(plays, reading, event.cell, event.shows)


def _changed(plays: Plays, r: Reading, cell: str, shows: Hashable) -> list[Reading]:
    expected = plays.expected(r, cell)
    if cell in r.astray:  # put right (or still astray)
        return [replace(r, astray=r.astray - {cell}) if shows == expected else r]
    out = []
    effect = (cell, shows)
    empty = plays.observe(())

    def in_order(rest: frozenset[Effect]) -> bool:
        # (the one piece a turn moves is put down only after it was taken up)
        return shows == empty or all(v != empty for _, v in rest)

    if effect in r.needs and in_order(r.needs - {effect}):
        out.append(replace(r, needs=r.needs - {effect}))
    if r.needs and shows != empty and (cell, empty) in _left(plays, r.turns) - r.needs:
        # The piece the turn in progress took up, put back: the turn was not made.
        return [*out, Reading(r.turns[:-1], frozenset(), r.astray, (*r.unusual, "touch"))]
    if not r.needs:
        pos = plays.at(r.turns)
        # A piece put where the last turn only took one up looks like that piece put back.
        unusual = (*r.unusual, "refill") if _left(plays, r.turns) == {(cell, not shows)} \
            else r.unusual
        # A piece put back where its player's last turn took it up looks like a touch.
        if shows and len(r.turns) > 1 and (cell, False) in _left(plays, r.turns[:-1]):
            unusual = (*unusual, "back")
        out += [Reading((*r.turns, move), effects - {effect}, r.astray, unusual)
                for move, effects in pos.by_effect.get(effect, ())
                if in_order(effects - {effect})]
        for silent in pos.silent:  # a turn no sensor saw, unpressed, then the next one
            after = plays.at((*r.turns, silent))
            out += [Reading((*r.turns, silent, move), effects - {effect}, r.astray,
                            (*r.unusual, "silent turn"))
                    for move, effects in after.by_effect.get(effect, ())
                    if in_order(effects - {effect})]
    taken = shows == empty
    out.append(r.unusually("touch" if taken else "stray", astray=r.astray | {cell}))
    return out


def _contradicts(plays: Plays, r: Reading, answer: Answer) -> bool:
    """Whether ``r``'s turn asked about (made or begun) is not what ``answer`` says."""
    if len(r.turns) <= answer.at:
        return answer.value != NONE
    made = plays.text(r.turns, answer.at)
    return made != answer.value if answer.value != NONE else made in answer.options


def _left(plays: Plays, turns: tuple) -> set[Effect]:
    """What the last of ``turns`` changed (nothing: no turn yet)."""
    if not turns:
        return set()
    before, after = plays.at(turns[:-1], listed=False), plays.at(turns, listed=False)
    return {(c, v) for c, v in after.shows.items() if before.shows[c] != v}


def _pressed(plays: Plays, r: Reading, player: str | None) -> list[Reading]:
    out = [r.unusually("press")]
    if r.needs:
        return out
    to_move = plays.mover(r.turns)
    moved = plays.moved(r.turns)
    if not r.pressed and player in (None, moved) and moved is not None:
        out.append(replace(r, pressed=True))
    if player in (None, to_move):
        out += [Reading((*r.turns, silent), frozenset(), r.astray, r.unusual, True)
                for silent in plays.at(r.turns).silent]
    return out


@dataclass(frozen=True)
class Readings:
    """The readings kept after some inputs (the cheapest first), and the least cost of any
    let go (``None``: none was)."""

    readings: tuple[Reading, ...] = (Reading(),)
    dropped: int | None = None

    def after(self, plays: Plays, event: Input) -> Readings:
        """The readings once ``event`` is read: every way each goes on, the same reading
        reached twice kept at its lower cost, the dearest let go (see the module)."""
        best: dict[tuple, Reading] = {}
        for reading in self.readings:
            for nxt in advance(plays, reading, event):
                key = (nxt.turns, nxt.needs, nxt.astray, nxt.pressed)
                if key not in best or nxt.cost < best[key].cost:
                    best[key] = nxt
        ordered = sorted(best.values(), key=lambda r: (r.cost, len(r.turns), repr(r.turns)))
        kept = _cheapest(ordered)
        gone = [r.cost for r in ordered[len(kept):]]
        dropped = min([*gone, *([self.dropped] if self.dropped is not None else [])],
                      default=None)
        return Readings(kept, dropped)

    def read(self, plays: Plays, events: Iterable[Input]) -> Readings:
        out = self
        for event in events:
            out = out.after(plays, event)
        return out

    def since(self, plays: Plays, moves: tuple) -> tuple[Readings, Plays] | None:
        """These readings once ``moves`` are committed: those that begin with them, read
        from the position they reach (``None``: none does)."""
        n = len(moves)
        kept = tuple(replace(r, turns=r.turns[n:]) for r in self.readings
                     if r.turns[:n] == moves and (len(r.turns) > n or not r.needs))
        if not kept:
            return None
        return Readings(kept, self.dropped), plays.after(moves)

    def firsts(self) -> set[Hashable | None]:
        return {r.first for r in self.readings}

    def decided(self) -> Hashable | None:
        """The first turn these readings decide: the cheapest reading's, where every
        reading that leads to another (or to none yet) costs more, and so did every
        reading let go."""
        if not self.readings:
            return None
        cheapest = self.readings[0]
        first = cheapest.first
        if first is None or self.dropped is not None and self.dropped <= cheapest.cost:
            return None
        if any(r.first != first and r.cost <= cheapest.cost for r in self.readings):
            return None
        return first


def _cheapest(ordered: list[Reading]) -> tuple[Reading, ...]:
    """Of ``ordered`` (cheapest first), those kept: at most :data:`ROOM`, none costlier
    than the cheapest by more than :data:`MARGIN`."""
    if not ordered:
        return ()
    least = ordered[0].cost
    return tuple(r for r in ordered[:ROOM] if r.cost <= least + MARGIN)
