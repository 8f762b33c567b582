"""A turn done and waiting while the next player may have begun: whether what came since
is the next turn's, read again in order on the next position.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, NamedTuple

import rules

from . import decisions, evidence
from .constants import NONE
from .events import Committed, Event, Prompt
from .evidence import Evidence
from .listing import Listing
from .turns import Candidate, Observe

if TYPE_CHECKING:
    from .tracker import Tracker


class Handover:
    """The tracker's waiting turns (a mixin of :class:`boards.tracker.Tracker`)."""

    # The question followed per answer, not declined by the asked player's next visible
    # turn: one :meth:`_unseen_then_next` put, one about a turn like a touch
    # (:meth:`boards.deciding.Deciding._followed_if`), or one open when the next player's
    # piece came down (:meth:`boards.deciding.Deciding._next_began`).
    followed_question: object = None

    def _unseen_after(self, turns: list[Candidate]) -> bool:
        """The next player has unseen turns of several decisions after one of ``turns``."""
        return any(c.silent and c.ways for turn in turns
                   for c in self._tracker_from(self._made(turn), self.current).candidates)

    def _unseen_next(self) -> bool:
        """Nothing is asked or shown yet of the turn just begun, and the player to move
        has unseen turns of several decisions."""
        return (not self._prompt and self.deciding is None and not self.differing
                and any(c.silent and c.ways for c in self.candidates))

    def _unseen_then_next(self, t: float) -> list[Event]:
        """A piece put down, or one of the opponent's taken up, that no turn of the player
        to move explains: maybe they made an unseen turn (a Telec forfeit, a stack from the
        stash onto their own) and the opponent's turn has begun. Asked (``none``: no turn
        was made) where the board fits the opponent's turn once one is made; nobody
        answering, what looks like the mover's visible turn next does not decline it
        (:meth:`boards.deciding.Deciding._while_deciding`)."""
        ev = self.evidence
        if not any(self.current[c] not in evidence.in_hand(ev, c)
                   or self.state.TURN_DECISIONS > 1 and self._owner(c) not in (None, self.player)
                   for c in self.differing):
            return []
        silent = [c for c in self.candidates if c.silent
                  and c.text not in self.declined and self._next_turn_fits(c)]
        if not silent:
            return []
        self.carry_from = 0  # made, what the board showed since is the next's
        events = self._ask(silent, t, declinable=True)
        self.followed_question = self._prompt
        return events

    def _turn_begun(self) -> bool:
        """Some cell shows what a visible turn of the player to move has it show midway or
        at its end (a piece it takes up, or puts down)."""
        current = self.current
        return any(current[cell] in c.allowed.get(cell, ()) for c in self.candidates
                   if not c.silent for cell in self.differing)

    def _owner(self, cell: str) -> str | None:
        """Whose piece stood on top of ``cell`` when the turn began (piece names begin
        with their owner's name: ``red-3``, ``yellow-block``); None for an empty cell."""
        top = self.before_pieces[cell][-1:]
        return top[0].split("-")[0] if top else None

    def _own_taken(self) -> bool:
        """The pieces the last scan took up are the mover's own (piece names begin with
        their owner's name: ``red-3``, ``yellow-block``; a figure is its base's,
        ``light-square``, whatever its rod carries)."""
        whole = self.state.FIGURES
        tops = [self.before_pieces[c][:1] if whole else self.before_pieces[c][-1:]
                for c in self.batch_cells]
        return all(top and top[0].split("-")[0] == self.player for top in tops)

    def _asks_more(self, cand: Candidate) -> bool:
        """Whether decisions are asked after ``cand``'s visible part (a Tesulda swap); a
        decision that is the only one possible is taken, not asked (a capture whose
        attack choice can only be ``none`` then waits like a move of one decision)."""
        if len(cand.ways) != 1:
            return False
        return decisions.in_turn(self._made(cand, decline=False), self.player)

    def _forget_done(self, texts: set[str]) -> None:
        """Turns answered ``none`` were not done then: if one is made later, it is done
        when the board shows it again."""
        for text in texts:
            self.done_at.pop(text, None)
            self.done_again.pop(text, None)
        self.done_last -= texts

    def _mark_done(self, complete: list[Candidate]) -> None:
        """The turns ``complete`` are done as of this scan: note when each was first done,
        and when again by this scan's changes on its own cells alone, after something
        undid it (its piece put back, then moved again)."""
        for cand in complete:
            if cand.text not in self.done_last:
                self.done_at.setdefault(cand.text, self.batch)
                again = self.done_again.setdefault(cand.text, [])
                if not again or {cell for cell, _ in self._batch[0]} <= cand.before.keys():
                    again.append(self.batch)
        self.done_last = {c.text for c in complete} if complete else set()

    def _hold_from_done(self, text: str) -> None:
        """The turn ``text``, one the board is held for, is made: if it was done before the
        board was held (a step onto an own piece, then the next turns, partly unseen, one
        of them looking like a longer turn of the mover's), the board is held from then
        instead: all that came since is the next turns'. From the last time it was done
        before the board was held: a piece put back and moved again was touched first."""
        held = self.batch - len(self.since_held)
        done = [n for n in self.done_again.get(text, ()) if n <= held]
        if done:
            self.pending_since = done[-1]
            self.held_board, self.since_held = self._since_pending()

    def _commit_held(self, t: float, cand: Candidate | None = None) -> list[Event]:
        """Commit the waiting turn (``cand``, or the one waiting) as of the board when the
        next turn may have begun, then read the changes since as that turn's."""
        cand, board, since = cand or self.pending[0], self.held_board, self.since_held
        self.held_board, self.since_held = None, []
        self.current = dict(board)
        first = self.batch - len(since) + 1  # the changes since are the next turn's alone
        for cell, hist in list(self.history.items()):
            self.history[cell] = [(n, v) for n, v in hist if n < first]
        return self._commit(cand, t) + self._replay(since, t)

    def _replay(self, since: list[tuple[list, float]], t: float) -> list[Event]:
        """Read the scans' changes ``since`` again, in order, as the next turn's. A question
        they raise is put to the players after the last of them: what came before it is
        no touch while it was open (an entry's size asked, then the bump of it)."""
        events: list[Event] = []
        for changes, _ in since:
            events += self.changes(changes, t)
        if self._prompt is not None and self.questioned is not None:
            self.questioned = self.batch
        return events

    def _next_turn_done(self, cand: Candidate) -> bool:
        """Once ``cand`` is made, would the changes of this turn, read in order from its
        start, have made (or left complete) the next player's turn?"""
        board = dict(self.current)
        for _, _, _, prev in reversed(self.batches):
            board.update(prev)
        since = [(changes, when) for _, when, changes, _ in self.batches]
        nxt, events = self._read_after(cand, board, since)
        return bool(nxt.complete_turns()) or any(isinstance(e, Committed) for e in events)

    def _read_after(self, cand: Candidate, board: dict[str, Hashable],
                    since: list[tuple[list, float]]) -> tuple[Tracker, list[Event]]:
        """The next player's tracker once ``cand`` is made, begun with the sensors showing
        ``board``, after the scans' changes ``since`` read in order; and what it said."""
        nxt = self._tracker_from(self._made(cand), board)
        events: list[Event] = []
        for changes, t in since:
            events += nxt.changes(changes, t)
        return nxt, events

    def _since_pending(self) -> tuple[dict[str, Hashable], list[tuple[list, float]]]:
        """The board when the waiting turn was done, and the scans' changes since."""
        board = dict(self.current)
        since = [(n, t, changes, prev) for n, t, changes, prev in self.batches
                 if n > self.pending_since]
        for _, _, _, prev in reversed(since):
            board.update(prev)
        return board, [(changes, t) for _, t, changes, _ in since]

    def _hold_since_done(self, fits: list[Candidate]) -> None:
        """Hold the board for ``fits`` as it was when the waiting turn was done: the
        scans' changes since are read again, in order, on the next turn once it is made."""
        self.held_board, self.since_held = self._since_pending()
        self.held_for = {c.text for c in fits}

    def _later_turns_made(self, cand: Candidate) -> bool:
        """Once ``cand`` is made, would the changes since it was done, read in order from
        the board then, leave the following turns consistent (a turn in progress, done,
        or asked about) where they left this one with none?"""
        board, since = self._since_pending()
        if not since:
            return False
        nxt, _ = self._read_after(cand, board, since)
        return bool(nxt._prompt or nxt._alive or nxt.either or not nxt.differing)

    def _commit_since(self, cand: Candidate, t: float) -> list[Event]:
        """Commit the waiting ``cand`` as of the board when it was done, then read the
        changes since as the following turns'."""
        board, since = self._since_pending()
        for cell, hist in list(self.history.items()):
            self.history[cell] = [(n, v) for n, v in hist if n <= self.pending_since]
        self.held_board, self.since_held = board, since
        return self._commit_held(t, cand)

    def _continuations(self, alive: list[Candidate], complete: list[Candidate]) -> bool:
        """Could an unfinished turn still grow out of what has been done so far?

        It must account for every piece replaced this turn; one that needs such a piece
        to have been put back (the player lifted the enemy, then the shooter, then put a
        piece on the enemy's cell) is not a continuation. A piece lifted and put back
        with nothing else leaving meanwhile is a touch, and may be. Nor is one that leaves
        out a stage the board has shown (a piece put on the Center Zone's pad and taken
        away), or whose own pieces cannot have come to a cell replaced (a step onto the
        enemy single an entry bumped, its piece still on its own cell).
        """
        if len(complete) == len(alive):
            return False  # (``complete`` is a part of ``alive``: all done, the usual commit)
        growing = [cand for cand in alive if cand not in complete]
        ev = self.evidence
        replaced = evidence.swapped(ev, self._alive)
        shown = evidence.stages_shown(ev, complete)
        return any(replaced <= cand.final.keys() and shown <= cand.allowed.keys()
                   and evidence.may_arrive(ev, cand, replaced) for cand in growing)

    def _next_turn_made(self, cand: Candidate, board: dict[str, Hashable] | None = None,
                        since: list[tuple[list, float]] | None = None) -> bool:
        """Once ``cand`` is made, would the changes since the board was held (or since
        ``board``) make (or ask about) a turn of the next player's, rather than be a
        touch?"""
        nxt, events = self._read_after(cand, board or self.held_board or self.current,
                                       self.since_held if since is None else since)
        return bool(nxt.pending) or any(isinstance(e, (Committed, Prompt)) for e in events)

    def _next_turn_held(self, cand: Candidate) -> bool:
        """Once ``cand`` is made, do the changes since the board was held (or else since
        ``cand`` was done: the next player's figure lifted, then the enemy it takes, as a
        Tesulda Dodger's goes on from its corner), read in order, make (or ask about) a
        turn of the next player's?"""
        if self.held_board is not None:
            return self._next_turn_made(cand)
        board, since = self._since_pending()
        return bool(since) and self._next_turn_made(cand, board, since)

    def _next_turn_fits(self, cand: Candidate) -> bool:
        """Would what the board shows now be a turn in progress once ``cand`` is made?"""
        return self._next_turn(cand) is not None

    def _next_turn(self, cand: Candidate) -> NextTurn | None:
        """The next player's turn once ``cand`` is made, begun from what the board shows
        now, if the board fits it."""
        return self._fits(self._made(cand))

    def _to_turn_start(self, state: rules.GameState) -> rules.GameState:
        """``state`` with the decisions taken since the turn began undone (in place)."""
        while len(state.move_stack) > self.turn_start:
            state.pop()
        return state

    def _made(self, cand: Candidate, decline: bool = True) -> rules.GameState:
        """The position once ``cand`` is made: its first way, for a turn of several, and
        the decisions after it that have only one option, or (``decline``) that ``none``
        answers, as when the next player starts (while one cannot be declined, it is
        still the mover's turn). From the turn's start: decisions a question open took
        for granted are undone first (``cand``'s ways begin there)."""
        state = self._to_turn_start(self.state.clone())
        decisions.push(state, cand.ways[0] if cand.ways else cand.move)
        while state.to_move == self.player and state.outcome() is None:
            legal = state.legal_moves()
            nones = [m for m in legal if decline and state.move_str(m) == NONE]
            if not nones and len(legal) != 1:
                break
            state.push(nones[0] if nones else legal[0])  # not asked, or declined
        return state

    def _way(self, cand: Candidate) -> tuple:
        """The decisions from the turn's start to ``cand`` made (its first way)."""
        return (*self.state.move_stack[self.turn_start:],
                *decisions.decisions(cand.ways[0] if cand.ways else cand.move))

    def _tracker_from(self, state: rules.GameState, board: dict[str, Hashable]) -> Tracker:
        """A tracker of the turn from ``state`` (this turn's start position with decisions
        pushed), begun with the sensors showing ``board``; it starts with the turns an
        idle scan listed for that position, if one did."""
        return type(self)(state, self.observe, self.error_delay, self.blind, board=board,
                       turn_marks=[*self.turn_marks, self.turn_start],
                       listing=self._listed.get(tuple(state.move_stack[self.turn_start:])))

    def _fits(self, state: rules.GameState) -> NextTurn | None:
        """The turn from ``state`` as a tracker begun there would find it, if what the board
        shows now is one in progress: read from the idle scan's listing of ``state``, where
        one listed it (no tracker needed)."""
        listing = self._listed.get(tuple(state.move_stack[self.turn_start:]))
        if listing is not None and listing.by_cell is not None:
            return _in_progress(listing, dict(self.current), self.observe)
        nxt = self._tracker_from(state, self.current)
        alive = nxt.alive()
        return NextTurn(alive, nxt.evidence) if alive else None

    def _either_turn(self, t: float, waiting: list[Candidate], fits: list[Candidate],
                     nexts: dict, alive: list[Candidate], complete: list[Candidate],
                     ) -> list[Event] | None:
        """A waiting turn broken by this event, the board fitting the next player's turn
        after it (``fits``): where this turn and the next may both still be under way,
        what is asked or held (None: neither)."""
        if fits and (complete or not self.differing):
            # Two histories the sensors cannot tell apart: this turn went on (or a
            # piece was put back), or it was done and the next one began.
            if self.held_board is None and len(fits[0].ways) == 1:
                # Made, all that came since it was done is the next turns', in order
                # (also what comes while it is asked: the next turn may go on).
                self._hold_since_done(fits)
            return self._ask([*fits, *complete], t, declinable=not complete)
        if fits and self.lifting and (any(c not in fits for c in alive) or (
                not any(c.takes or c.lift for c in waiting) and self._own_taken())):
            # A piece taken up: a longer turn may be under way (a bump), or the turn
            # waiting shows nothing put down, and the mover, whose pieces may still be
            # in hand, touched one of their own.
            return []
        if fits and evidence.put_back(self.evidence, waiting) and any(
                c not in fits for c in alive) and not self._replaced_next(fits):
            # A piece touched meanwhile put back: the longer turn and the next one are
            # both still under way, as before it was lifted.
            return []
        if fits and (alive or self.lifting) and (self.lifting or not any(
                nexts[c.text].complete_turns() or self._next_turn_held(c)
                for c in fits)):
            # Both may still be under way: this turn (an enemy piece touched while the
            # shooter is in hand, now another enemy lifted; or any piece lifted, to be
            # put back, while the mover holds theirs or may lift it again, a Tesulda
            # Dodger set down at its corner) or the next one. The event that
            # completes one of them tells (the next turn read in order since the
            # board was held: a capture of the figure just moved); the waiting turn is
            # kept meanwhile, and the pieces in hand are no error.
            self.either = True
            if self.held_board is None:
                changes, prev = self._batch
                self.held_board = {**self.current, **prev}
                self.since_held = [(changes, t)]
                self.held_for = {c.text for c in waiting}
            return []
        return None

    def _replaced_next(self, fits: list[Candidate]) -> bool:
        """The last scan put a piece where a turn of the next player's, read in order
        since the board was held (after one of ``fits``), replaced one (a bump): it is
        done with that piece, not one touched and put back."""
        board, since = (self.held_board, self.since_held) if self.held_board is not None \
            else self._since_pending()
        for cand in fits if since else ():
            nxt, _ = self._read_after(cand, board, since[:-1])
            lifts = {c.text: c.lift for c in nxt.alive()}
            events = nxt.changes(*since[-1])
            done = {e.move for e in events if isinstance(e, Committed)} | {
                c.text for c in nxt.complete_turns()}
            if any(cell in lifts.get(text, ()) for text in done for cell in self.batch_cells):
                return True
        return False

    def _flush_waiting(self, t: float) -> list[Event]:
        """The input has ended with a turn waiting and the board fitting the next
        player's turn after it (a step onto an own piece, then a piece of theirs taken
        up), where only a longer turn of the mover's, still missing a piece put down,
        fits otherwise: none will be put down, so the waiting turn was done and the
        changes since are the next turn's, ended the same way."""
        fits = [c for c in self.pending if self._next_turn_fits(c)]
        if len(fits) > 1:
            return self._ask(fits, t)
        if not fits:
            return []
        return self._commit_since(fits[0], t) + self._flush(t)

    def _waiting_done(self, t: float, waiting: list[Candidate], fits: list[Candidate],
                      alive: list[Candidate]) -> list[Event] | None:
        """A waiting turn broken by this event, not going on: it was done (committed, or
        which one asked), and what came since is the next turn's (None: nothing tells)."""
        if self.held_board is not None:
            # Neither the piece put back nor this turn going on: the waiting turn was
            # done (which one, the sensors may not tell), and what came since is the
            # next turn's.
            return self._commit_held(t) if len(waiting) == 1 else self._ask(waiting, t)
        self.held_board = None
        if len(fits) == 1 and len(fits[0].ways) == 1 and not self._asks_more(fits[0]):
            # A turn of several decisions done: the changes since are read again, in
            # order, as the next turn's (one done meanwhile unseen, a Telec step onto
            # an own piece, then waits in turn, or is asked about).
            return self._commit_since(fits[0], t)
        if fits:
            self.pending = []
            if any(self._asks_more(c) for c in fits):
                # Its questions come now (a Tesulda capture that waited while an enemy
                # touched may have been the one taken); once they are answered, what
                # the cells showed since it was done is the next turn's.
                self.carry_from = self.pending_since
            if len(fits) == 1:
                return self._commit(fits[0], t)
            if self.held_board is None and all(len(c.ways) == 1 for c in fits):
                # Whichever is answered, what came since it was done is the next turns',
                # read again in order (a step onto an own piece, then a piece put down:
                # the next player's entry, or another step of theirs).
                self._hold_since_done(fits)
            # (a longer turn still under way, a bump with the enemy lifted, is ``none``)
            return self._ask(fits, t, declinable=any(c not in fits for c in alive))
        made = [c for c in waiting if len(c.ways) == 1 and self._later_turns_made(c)] \
            if not alive and not self.lifting else []
        if len(made) == 1:
            # The board fits no turn begun from a waiting one as it shows now, but
            # the changes since it was done, read in order, are the next player's
            # turn and the one after (the next turn done unseen: a step onto an own
            # piece, no clock pressed) for one of them: that one was done. (Not while a
            # piece is only taken up: a longer turn may be under way, the piece touched.)
            return self._commit_since(made[0], t)
        return None


class NextTurn(NamedTuple):
    """The turns in progress of a position a waiting turn leads to (``alive``: those a
    tracker begun there would keep), and what the sensors show as its turn begins."""

    alive: list[Candidate]
    evidence: Evidence

    def complete_turns(self) -> list[Candidate]:
        """The visible turns in progress that the board shows complete."""
        return evidence.done_of(self.evidence, self.alive)


def _in_progress(listing: Listing, board: dict[str, Hashable], observe: Observe,
                 ) -> NextTurn | None:
    """The turns of ``listing``'s position in progress with the sensors showing ``board``,
    as :meth:`Tracker.alive` of a tracker begun there finds them (only those that may
    change the differing cell fewest of them may change), if there are any."""
    index, shows = listing.by_cell, listing.shows
    differing: set[str] = set()
    fewest = None
    for cell, value in board.items():
        if shows.get(cell) != value:
            allowing = index.get(cell)
            if allowing is None:
                return None  # (no turn of the position changes that cell)
            differing.add(cell)
            if fewest is None or len(allowing) < len(fewest):
                fewest = allowing
    seen, history = evidence.begun(shows, board, differing)
    ev = Evidence(observe, listing.pieces, shows, board, seen, history, differing, [])
    alive = [c for c in (listing.candidates if fewest is None else fewest)
             if evidence.consistent(ev, c)]
    return NextTurn(alive, ev) if alive else None
