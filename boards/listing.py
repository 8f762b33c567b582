"""Listing the turns of a position: every legal turn with its physical effect, listed once
a turn (or ahead of time, in an idle scan), narrowed to an expected turn.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from typing import NamedTuple

import rules

from . import decisions
from .decisions import Turn
from .turns import Candidate, Observe, effect, sight, unseen


class Listing(NamedTuple):
    """A position's turns listed ahead of time (:meth:`Tracker.prepare`), with what each
    cell holds and what its sensor shows when that position's turn begins."""

    candidates: list[Candidate]
    pieces: dict[str, tuple[str, ...]]
    shows: dict[str, Hashable]
    # The candidates that let each cell differ (None: indexed when first needed).
    by_cell: dict[str, list[Candidate]] | None = None


class Listings:
    """The tracker's lists of turns (a mixin of :class:`boards.tracker.Tracker`)."""

    def _list_turn(self, listing: Listing | None) -> None:
        """The turn begins with the turns of ``listing`` (None: listed when first needed)."""
        # The position's turns as listed, before an expectation (:meth:`expect`) narrows
        # them: the decisions made when they were listed, the list.
        self._unfiltered = None if listing is None else (len(self.state.move_stack),
                                                         listing.candidates)
        self._candidates = None if listing is None else self._only_expected(listing.candidates)
        self._listed_at = len(self.state.move_stack)  # the decisions made when they were
        # The next position's turns after a turn waiting or unseen, listed by an idle scan
        # (:meth:`prepare`): its decisions from the turn's start -> the candidates; and
        # the turns (:meth:`_way`) whose next position is listed.
        self._listed: dict[tuple, Listing] = {}
        self._listed_after: set[tuple] = set()
        # The ways of a turn being asked whose end has been looked at (:meth:`prepare`),
        # and the ways asked once all have been.
        self._ways_tried: set[tuple] = set()
        self._ways_listed: list[Turn] | None = None
        self._silent: tuple[list | None, list[Candidate]] = (None, [])  # candidates -> silent
        # The candidates, and for each cell those of them that let it differ from the
        # turn's start (:meth:`_allowing`; indexed when listed ahead of time).
        self._by_cell: tuple[list | None, dict[str, list[Candidate]]] = (None, {}) \
            if listing is None or listing.by_cell is None else (listing.candidates,
                                                               listing.by_cell)

    @property
    def candidates(self) -> list[Candidate]:
        """Every legal turn of the position with its physical effect (computed once a turn)."""
        if self._candidates is None:
            if self.state.outcome() or self._expected_rest() == ():
                self._candidates = []  # (nothing may be done: no need to list)
            else:
                self._unfiltered = (len(self.state.move_stack), self._expand())
                self._candidates = self._only_expected(self._unfiltered[1])
            self._listed_at = len(self.state.move_stack)
        return self._candidates

    @property
    def prepared(self) -> bool:
        """The turns of the position are listed, and so are the next player's after each
        turn the board may show done before the next player begins (:meth:`prepare`
        does it ahead of time)."""
        return (self._candidates is not None and not self._spent and not self._unlisted()
                and not self._unlisted_ways())

    def prepare(self) -> None:
        """List now (in an idle scan) what the next event would otherwise list: the
        position's turns, or else the next player's after one turn that the next
        player's first move may show done: a complete turn that waits, or a turn the
        sensors do not see (a Telec pyramid stacked from the stash onto one's own), or,
        while a decision of the turn is asked, after each way the answer may end the turn
        with. One position a call, so that an idle scan stays short."""
        if self._spent:
            self._spent.clear()
        elif self._candidates is None:
            self._allowing(self.candidates)  # listed, and indexed for the first event
        elif unlisted := self._unlisted():
            self._list(self._made(unlisted[0]))
            self._listed_after.add(self._way(unlisted[0]))
        elif ways := self._unlisted_ways():
            state = self.state.clone()
            decisions.push(state, ways[0])
            self._ways_tried.add(tuple(state.move_stack[self.turn_start:]))
            if not decisions.in_turn(state, self.player):  # (else more is asked)
                self._list(state)

    def _allowing(self, cands: list[Candidate]) -> list[Candidate]:
        """Those of ``cands`` that may change a cell that differs from the turn's start
        (of those cells, the one the fewest of them may change): a candidate that may not
        is never consistent. The index is built once for a list of candidates."""
        if self._by_cell[0] is not cands:
            self._by_cell = (cands, _by_cell(cands))
        index, fewest = self._by_cell[1], None
        for cell in self.differing:  # (a loop: min's key and default cost more than this)
            allowing = index.get(cell, ())
            if fewest is None or len(allowing) < len(fewest):
                fewest = allowing
        return cands if fewest is None else fewest or []

    def _list(self, state: rules.GameState) -> None:
        """List the turns of ``state``, a position this turn may lead to."""
        nxt = self._tracker_from(state, self.current)
        self._listed[tuple(state.move_stack[self.turn_start:])] = Listing(
            nxt.candidates, nxt.before_pieces, nxt.before, _by_cell(nxt.candidates))

    def _unlisted(self) -> list[Candidate]:
        """The turns waiting or unseen whose next position's turns are not listed yet
        (none while the decisions of a turn being made are asked)."""
        if len(self.state.move_stack) != self._listed_at:
            return []
        turns = [*self.pending, *self._silent_of(self._candidates)]
        return [c for c in turns if self._way(c) not in self._listed_after] if turns else []

    def _silent_of(self, cands: list[Candidate] | None) -> list[Candidate]:
        """Those of ``cands`` the sensors cannot see (kept for one list of candidates)."""
        if self._silent[0] is not cands:
            self._silent = (cands, [c for c in cands or () if c.silent])
        return self._silent[1]

    def _unlisted_ways(self) -> list[Turn]:
        """While a decision of the turn is asked: the ways left whose end is not listed
        yet (the position once the turn is made that way: the answer then finds the next
        turn's candidates listed)."""
        if self.deciding is None or self._ways_listed is self.deciding:
            return []
        done = tuple(self.state.move_stack[self.turn_start:])
        left = [w for w in self.deciding if (*done, *w) not in self._ways_tried]
        if not left:
            self._ways_listed = self.deciding
        return left

    def _expand(self) -> list[Candidate]:
        """The position's candidates: one per move, or for turns of several decisions one
        per way the sensors can tell apart, each with its ways (boards.decisions)."""
        state = self.state
        before = frozenset(state.physical().items())

        def make(move: Hashable) -> Candidate:
            return effect(state, move, before, self.before_pieces, self.before, self.observe,
                          self.blind)

        out = []
        mid_turn = len(state.move_stack) > self.turn_start
        for cand, ways in decisions.expand(state, self.player, make,
                                           lambda c: sight(c, self.observe), mid_turn,
                                           self._visible):
            if ways:
                cand.ways = ways
                if len(ways) > 1 and self.blind:  # ways alike to the sensors may differ there
                    cand.unseen = tuple(sorted({c for w in ways
                                                for c in unseen(state, w, self.blind)}))
                prefix = decisions.common_prefix(ways)
                cand.text = decisions.text(state, Turn(prefix)) if prefix else cand.text
            out.append(cand)
        return out

    def _visible(self, before: dict, after: dict) -> bool:
        """Whether the sensors can tell two physical positions apart."""
        observe = self.observe
        return any(observe(before.get(c, ())) != observe(after.get(c, ()))
                   for c in before.keys() | after.keys() if c not in self.blind)

    def expect(self, turn: tuple | None, since: int | None = None) -> None:
        """Only ``turn`` (its decisions from the position after ``since`` decisions,
        default: as it stands) may be made by the player to move: an opponent's turn lit
        on the LEDs. ``()``: none yet (whatever is done is an error naming the cells to
        put back); None: any legal turn."""
        since = len(self.state.move_stack) if since is None else since
        expected = None if turn is None else (since, self.player, Turn(turn))
        if expected != self.expected:
            self.expected = expected
            listed = self._unfiltered
            fresh = listed is not None and listed[0] == len(self.state.move_stack)
            self._candidates = self._only_expected(listed[1]) if fresh else None

    def _expected_rest(self) -> Turn | None:
        """The expected turn's decisions still to come, or None where none is expected
        of the position as it stands."""
        if self.expected is None:
            return None
        base, player, turn = self.expected
        done = tuple(self.state.move_stack[base:])
        if player != self.player or len(self.state.move_stack) < base \
                or turn[:len(done)] != done:
            return None
        return Turn(turn[len(done):])

    def _only_expected(self, cands: list[Candidate]) -> list[Candidate]:
        """The candidates (and of each, the ways) that make the expected turn."""
        if self.expected is None:
            return cands  # (no turn expected: every turn's start, in a game with no opponent)
        rest = self._expected_rest()
        if rest is None:
            return cands
        out = []
        for cand in cands:
            ways = tuple(w for w in cand.ways if tuple(w) == rest[:len(w)])
            if ways:
                out.append(copy.copy(cand))
                out[-1].ways = ways
            elif not cand.ways and rest[:1] == (cand.move,):
                out.append(cand)
        return out

    def _expected_next(self, moves: list) -> list:
        """Of the decisions offered next, the expected one (all where none is)."""
        rest = self._expected_rest()
        return moves if not rest else [m for m in moves if m == rest[0]]


def _by_cell(cands: list[Candidate]) -> dict[str, list[Candidate]]:
    """For each cell, those of ``cands`` that let it differ from the turn's start."""
    index: dict[str, list[Candidate]] = {}
    for cand in cands:
        for cell in cand.allowed:
            index.setdefault(cell, []).append(cand)
    return index


def start_of(state: rules.GameState, cells: tuple[str, ...], observe: Observe,
             phys: dict[str, tuple[str, ...]] | None = None,
             ) -> tuple[dict[str, tuple[str, ...]], dict[str, Hashable]]:
    """Each cell's pieces in ``state`` and what its sensor shows, in board order (the
    sensors asked only about occupied cells: the empty ones all show the same);
    ``phys``: ``state.physical()``, where the caller has it (never changed here)."""
    if phys is None:
        phys = state.physical()
    pieces: dict[str, tuple[str, ...]] = dict.fromkeys(cells, ())
    pieces.update(phys)
    shows = dict.fromkeys(cells, observe(()))
    shows.update(zip(phys, map(observe, phys.values()), strict=True))  # (in C: a call less)
    return pieces, shows
