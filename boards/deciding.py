"""Questions, commits and turns of several decisions: asking which turn was made, playing
the decisions all ways share, asking the next where they part, and ending the turn.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import itemgetter
from typing import TYPE_CHECKING

import rules

from . import decisions, evidence
from .constants import NONE, quote
from .decisions import Turn
from .events import Committed, Event, Prompt, Rejected, Rolled, TakenBack
from .listing import Listing
from .turns import Candidate
from .undecided import Undecided, pressed_since

if TYPE_CHECKING:
    from .tracker import Tracker

_first = itemgetter(0)  # (a way's first decision, an outcome's move: mapped in C)


class Deciding(Undecided):
    """The tracker's questions and commits (a mixin of :class:`boards.tracker.Tracker`)."""

    def _ask(self, options: list[Candidate], t: float, declinable: bool = False,
             ) -> list[Event]:
        """A question: which of ``options`` was made; ``none`` declines them all. Turns of
        several decisions are asked one decision at a time (``declinable``: the first of
        those questions offers ``none`` too, for no turn made at all)."""
        if all(c.ways for c in options):
            self.last_commit, self.asked = (options[0], t), options
            self.asked_at = len(self.state.move_stack)
            touch = any(self._maybe_put_back(c) for c in options)
            self.no_turn = declinable or touch
            self.asked_batch = self.batch
            return self._followed_if(touch, self._advance(
                [w for c in options for w in c.ways], t))
        self.pending = options
        self._prompt = Prompt(t, [*sorted({c.text for c in options}), NONE])
        self.prompt_batch = self.batch
        self.questioned = self.batch if self.questioned is None else self.questioned
        self._read_each(t)
        if self._quiet_question():
            self.unshown = self._prompt
            return []
        return [self._prompt]

    def _commit(self, cand: Candidate, t: float) -> list[Event]:
        used = self.pressing or pressed_since(self)
        self.clock_used = {**self.clock_used, self.player: used}
        self.last_commit, self.asked = (cand, t), [cand]
        self.asked_at = len(self.state.move_stack)
        self.no_turn = bool(cand.ways) and self._maybe_put_back(cand)
        self.asked_batch = self.batch
        return self._followed_if(self.no_turn, self._advance(
            list(cand.ways) or [Turn((cand.move,))], t))

    def _followed_if(self, touch: bool, events: list[Event]) -> list[Event]:
        """Where the turn asked about is like a touch (:meth:`_maybe_put_back`), the
        question ``events`` put is followed per answer, not declined by the asked player's
        next visible turn (:meth:`_while_deciding`): after the entry, that turn may be the
        one after the next (a forfeit, a stack from the stash, between)."""
        if touch and self._prompt is not None:
            self.followed_question = self._prompt
        return events

    def _end_turn(self, t: float, since: int | None = None) -> list[Event]:
        """Commit the turn; the next one begins. ``since``: the next turn began after that
        batch of changes (the opponent started while a question was open), so what the
        cells showed since belongs to it (a piece lifted to be taken)."""
        state = self.state
        turn = Turn(state.move_stack[self.turn_start:])
        if since is None:
            since = self.carry_from
        self.turn_marks.append(self.turn_start)
        if self.last_commit is not None:  # the last turn's light counts from its commit
            self.last_commit = (self.last_commit[0], t)
        text = decisions.text(state, turn)
        events = [*self.held_rolls, Committed(t, len(self.turn_marks), self.player, text)]
        history = self.history
        held = [h for h in self.held_for if text == h or text.startswith(h + " ")] \
            if self.held_board is not None else []
        if held:
            # Asked while the board was held for it (the piece put back may have been the
            # next turn's): done as of that board, the changes since are the next turn's.
            self._hold_from_done(held[0])
            board, replay = self.held_board, self.since_held
            self.current, before = dict(board), self.before
            self._next_position(turn)
            self.before_held = {c: v for c, v in before.items() if v != self.before[c]}
            self.last_change = t
            return events + self._replay(replay, t)
        # (the position's pieces, once: the turn carried into and the next turn's start)
        after = None if since is not None else self.state.physical()
        # (no cell showed two things this turn: nothing to carry, the usual turn)
        carried = self._carried(turn, after) if after is not None and max(
            map(len, history.values()), default=0) > 1 else {}
        self._next_position(turn, after)
        if since is not None:
            for cell, hist in history.items():
                later = [(n, v) for n, v in hist if n > since]
                if later:
                    self.history[cell] = [(0, self.before[cell]), *later]
                    self.seen[cell].update(v for _, v in later)
        if carried:  # (the turn just begun carries nothing otherwise: _clear_turn)
            self._carry(carried)
        self.last_change = t
        return [*events, *self._evaluate(t)] if self.differing or carried else events

    def _carry(self, carried: dict[str, list[tuple[int, Hashable]]]) -> None:
        """The turn just begun takes what ``carried`` cells showed as its own."""
        self.carried = carried
        for cell, hist in carried.items():
            self.history[cell] = hist
            self.seen[cell] |= {value for _, value in hist}

    def _carried(self, turn: Turn, after: dict[str, tuple[str, ...]]
                 ) -> dict[str, list[tuple[int, Hashable]]]:
        """What cells showed after ``turn`` was done, before anything was asked: the next
        turn's (a piece lifted there and put back: an entry bumping it, the start of a
        capture); not a touch while a question was open. Where the turn changes a cell,
        only what came after it was done there (a Telec turn of several decisions: after
        the way made, not the others asked with it). ``after``: the position's pieces,
        ``turn`` made; only where a cell showed two things this turn."""
        before = self.before_pieces  # (every cell; those that changed, looked at below)
        made = [c for c in self.asked if turn in c.ways or Turn((c.move,)) == turn]

        def done(cands: list[Candidate]) -> int:
            return min((self._done_by(c) for c in cands if c.text in self.done_at),
                       default=self.pending_since or self.batch)

        since_any, since_made = done(self.asked), done(made)
        several = self.state.TURN_DECISIONS > 1
        asked = self.questioned if self.questioned is not None else self.batch
        out = {}
        for cell, hist in self.history.items():
            changed = after.get(cell, ()) != before[cell]
            if changed and not several:
                continue
            start = since_made if changed else since_any
            later = [(n, v) for n, v in hist if start < n <= asked]
            if len(later) > 1:
                out[cell] = later
        return out

    def _done_by(self, cand: Candidate) -> int:
        """The scan after which ``cand`` was first done. A turn read from changes carried
        over from the last turn was read at once: done by the last change on its own
        cells (what the other cells showed after it is the next turn's, a bump entry)."""
        done = self.done_at[cand.text]
        if not self.carried:
            return done
        own = cand.before.keys() | cand.final.keys()
        return min(done, max((h[-1][0] for c, h in self.history.items() if c in own),
                             default=0))

    def _next_position(self, turn: Turn, phys: dict[str, tuple[str, ...]] | None = None
                       ) -> None:
        """The next turn begins, after ``turn``; with its turns listed if an idle scan
        listed them while ``turn`` waited (``phys``: the position's pieces, if known). The
        lists of the turn that ended (its own, the next positions of its other ways) are
        let go in the next idle scan (:meth:`prepare`), not at this event: freeing them
        takes about as long as the rest of the event."""
        listing = self._listed.get(tuple(turn))
        self._spent.append((self._candidates, self._listed, self._silent))
        self._start_turn(listing, phys)

    def _decline(self, t: float) -> list[Event]:
        """``none``: no offered turn was made. The question closes, nothing is committed or
        undone; if the board shows something no other turn explains, the error after
        ``error_delay`` names the cells to put right."""
        self.declined = set(self._prompt.options) if self._prompt else set()
        self._forget_done(self.declined)
        self._prompt = None
        self.pending = []
        self.either = False  # no turn waits any more
        self.held_board = None
        self.last_change = t
        self._alive = [c for c in self.alive() if c.text not in self.declined]
        return []

    def _take_back(self, t: float) -> list[Event]:
        """Undo the last committed move (the players saw it go wrong). The board is then
        put back as it was before that move, guided by the LEDs, before play goes on."""
        self.held = []
        self._to_turn_start(self.state)  # a turn begun (a roll) goes too
        if not self.turn_marks:
            self._start_turn()
            return []
        ply = len(self.turn_marks)
        start = self.turn_marks.pop()
        turn = Turn(self.state.move_stack[start:])
        for _ in turn:
            self.state.pop()
        self.put_right()
        return [TakenBack(t, ply, self.state.to_move, decisions.text(self.state, turn))]

    def _advance(self, ways: list[Turn], t: float) -> list[Event]:
        """Play the decisions all ``ways`` share; ask the next one where they part (only
        the decisions some way takes), or end the turn when one way is left. While it may
        be that no turn was made (:attr:`no_turn`), the last decision is asked even where
        it is the only one, with ``none``. A way that ends before the turn does (its
        visible part is done, :attr:`after_visible`) goes on with the decisions the
        position offers, asked one at a time."""
        out: list[Event] = []
        while True:
            if not ways[0]:
                if not decisions.in_turn(self.state, self.player):
                    return out + self._end_turn(t)
                self.after_visible = True
                ways = [Turn((m,)) for m in self._expected_next(self._next_decisions())]
                if not ways:
                    raise RuntimeError(f"{self.player}'s turn has no legal way to go on")
            nxt = set(map(_first, ways))
            # (``none`` to a later question could be a decision, not "no turn": ask now)
            if len(nxt) == 1 and not (self.no_turn and (len(ways[0]) == 1 or any(
                    len(w) > 1 and self.state.move_str(w[1]) == NONE for w in ways))):
                out += self._push_decision(ways[0][0], t)
                ways = [Turn(w[1:]) for w in ways]
                continue
            self.deciding = ways
            order = self._next_decisions()
            options = list(map(self.state.move_str, sorted(nxt, key=order.index)))
            if self.no_turn and NONE not in options:
                options.append(NONE)
            self._prompt = Prompt(t, options)
            self.questioned = self.batch if self.questioned is None else self.questioned
            self.asked_board = dict(self.current)
            return [*out, self._prompt]

    def _answer(self, value: str, t: float) -> list[Event]:
        """An answer to a decision's prompt: the decision's notation."""
        if self._prompt is not None and self._prompt is self.silenced:
            late = self._answer_late(value, t)  # (the next turn went on past it)
            if late is not None:
                return late
        elif self._prompt is not None and self.deciding is not None:
            redone = self._answer_done_before(value, t)
            if redone is not None:
                return redone
        ways = self.deciding or []
        if value == NONE and self.no_turn:
            return self._no_turn(t)
        try:
            move = self.state.parse_move(value)
        except rules.RulesError:
            move = None
        chosen = [Turn(w[1:]) for w in ways if w[0] == move]
        if not chosen:
            return [Rejected(t, f"{quote(value)} is not offered; options: "
                                f"{', '.join(self._prompt.options if self._prompt else ())}")]
        self._prompt, self.deciding, self.no_turn = None, None, False
        return self._push_decision(move, t) + self._advance(chosen, t)

    def _like_a_touch(self, cand: Candidate) -> bool:
        """A turn of several decisions that ends showing what the board showed before, a
        piece lifted and one put back in its place (a Telec pyramid entering onto an
        enemy single it bumps): a touch of that piece looks the same, so it is asked."""
        return bool(cand.ways) and not cand.silent and cand.final.items() <= self.before.items()

    def _maybe_put_back(self, cand: Candidate) -> bool:
        """Like a touch (:meth:`_like_a_touch`), or a turn of several decisions that shows
        the cells the last turn changed as they were before it, where that turn was
        answered while the board was held for it (a Telec entry on the tile a stack
        stepped off onto its own piece: the stack's last pyramid lifted and put back, not
        yet carried over), so it is asked with ``none``."""
        if self._like_a_touch(cand):
            return True
        before, held = self.before, self.before_held
        return bool(held) and bool(cand.ways) and not cand.silent and all(
            before[c] == v or held.get(c) == v for c, v in cand.final.items())

    def _no_turn(self, t: float) -> list[Event]:
        """``none`` to the first question about unseen turns: none was made. The decisions
        the question took for granted are undone; the board is read again."""
        while len(self.state.move_stack) > self.asked_at:
            self.state.pop()
        self._prompt, self.deciding, self.no_turn, self.held_rolls = None, None, False, []
        self.pending, self.carry_from = [], None
        # Nothing is asked any more: what the cells show from now on may be the next
        # turn's, to carry into it once this one is done (:meth:`_carried`).
        self.questioned = None
        self.declined = {c.text for c in self.asked}
        self._forget_done(self.declined)
        # What was lifted and put back was touched: where the turns asked were like a
        # touch (an entry bumping a single), only there (a bump elsewhere still stands).
        # Not where a turn the board shows done replaced the piece and moved another (a
        # step bumping it, the piece lifted again meanwhile): that turn was made.
        touched = {c for a in self.asked if self._like_a_touch(a) for c in a.final}
        if touched and self.asked_at == self.turn_start:
            touch = set() if touched & self.carried.keys() else self._touch_then_more(touched)
            if touch is not None:
                return self._read_again(touched, touch, t)
        ev = self.evidence
        bumped = {cell for c in self.alive() if not c.silent and c.text not in self.declined
                  and not self._like_a_touch(c) and evidence.complete(ev, c)
                  for cell in c.lift}
        for cell in self.cells:
            if cell not in self.differing | bumped and (not touched or cell in touched):
                self.history.pop(cell, None)
                self.seen[cell] = {self.current[cell]}
        self.last_change = t
        return self._evaluate(t)

    def _touch_then_more(self, touched: set[str]) -> set[int] | None:
        """The batches of this turn's changes that were a plain touch of ``touched`` cells
        before the question was put (lifted and put back, nothing else changed meanwhile:
        not a piece carried to another cell and back), where other cells changed after the
        question; else None."""
        asked, batches = self.asked_batch, self.batches
        hits = [k for k, (n, _, changes, _) in enumerate(batches)
                if n <= asked and any(c in touched for c, _ in changes)]
        if not hits or any(c not in touched for k in range(hits[0], hits[-1] + 1)
                           for c, _ in batches[k][2]):
            return None
        if not any(c not in touched for n, _, changes, _ in batches if n > asked
                   for c, _ in changes):
            return None
        return {batches[k][0] for k in hits}

    def _read_again(self, touched: set[str], touch: set[int], t: float) -> list[Event]:
        """What ``touched`` cells showed until the question was put was a touch (carried
        into this turn from the last, :meth:`_carried`, or this turn's batches ``touch``):
        the turn begins again without it, and its other changes are read again in order (a
        step into the Center Zone, which shows only a lift, then the next turn under way)."""
        carried = self.carried
        board = dict(self.current)
        for _, _, _, prev in reversed(self.batches):
            board.update(prev)
        since = [(changes, when) for n, when, changes, _ in self.batches if n not in touch]
        listing = Listing(self._unfiltered[1], self.before_pieces, self.before) \
            if self._unfiltered is not None else None
        self.current = board
        self._start_turn(listing)
        self._carry({c: h for c, h in carried.items() if c not in touched})
        self.last_change = t
        return self._replay(since, t) if since else self._evaluate(t)

    def _while_deciding(self, t: float) -> list[Event]:
        """A change while a decision of the turn is asked. A piece touched (lifted, put
        back) leaves the question open; a piece put down that the turn does not explain,
        where ``none`` is offered, declines: if the board shows a visible turn of the
        player asked instead of the unseen one they were asked about, or the next turn
        begun once the question is declined (it is then read as part of that turn). Not
        where the question was raised by a piece no turn of the player asked puts down
        (:meth:`boards.handover.Handover._unseen_then_next`), or such a piece came down
        while it was open (:meth:`_next_began`): that piece began the opponent's turn if
        the unseen one was made; nor where the turn asked about is like a touch
        (:meth:`_followed_if`): each answer is followed as a reading, also once a piece put
        down leaves the board no longer as it was when asked though every piece came down
        where the board showed one before, or once the next player began
        (:meth:`_next_began`). After the visible part of the turn, see
        :meth:`_while_choosing`."""
        ev = self.evidence
        if self._prompt is not None and self.current == self.asked_board:
            # A piece touched since it was asked, put back: it stays open (unless that
            # was another turn of the mover's done, :meth:`_another_done`).
            return self._another_done(t) if self.after_visible else []
        if self.after_visible:
            return self._while_choosing(t)
        if self._prompt is not None and NONE not in self._prompt.options:
            # Nobody answers, and the next turn goes on: followed once per answer.
            return self._unanswered(t) if self._goes_on_past() else []
        put_back = self.before_held  # (the piece asked about, put back or entered there)
        if self._prompt is None or not any(
                self.current[c] not in evidence.in_hand(ev, c) for c in self.differing
                if self.current[c] != put_back.get(c)):
            # Every piece came down where the board showed one before; yet the next turns
            # may have gone on past the question (red's step onto its own piece, blue's
            # from the tile entered onto the tile red left), unless the board is as the
            # turn began (a piece taken up when it was asked, put back).
            return self._unanswered(t) \
                if self._followed and self.differing and self._goes_on_past() else []
        visible = any(not c.silent and evidence.consistent(ev, c) for c in self.candidates)
        if self.no_turn:
            if not visible:
                if self._next_began():
                    self.followed_question = self._prompt
                    return self._unanswered(t)
                return []
            if self._followed:
                # (the turn asked about made, what came since may be the next turns')
                return self._unanswered(t)
            self.held = []  # presses meant for the unseen turn
            return self._answer(NONE, t)
        state = self.state.clone()
        state.push(state.parse_move(NONE))
        if visible or decisions.in_turn(state, self.player) or not self._fits(state):
            return []
        return self.choose(NONE, t)

    @property
    def _followed(self) -> bool:
        """Whether the question open is followed per answer (:attr:`followed_question`)."""
        return self._prompt is not None and self._prompt is self.followed_question

    def _next_began(self) -> bool:
        """A piece put down that no turn of the player asked explains, where the board fits
        the next player's turn once an unseen turn asked about is made (where the question
        is followed already, once a turn like a touch is made: red's entry bumping blue's
        single on c1, then blue's step b4-a4)."""
        followed = self._followed
        return not self.lifting and any(
            (self._like_a_touch(c) if followed else c.silent) and c.ways
            and self._next_turn_fits(c) for c in self.candidates)

    def _next_decisions(self) -> list:
        """The decisions the position offers now, in their order (a chance node's outcomes)."""
        return list(map(_first, self.state.chance_outcomes())) or self.state.legal_moves()

    def _while_choosing(self, t: float) -> list[Event]:
        """A change while the mover is asked a decision that follows the visible part of the
        turn. The board still shows that part (a piece touched): the question stays open.
        The opponent's turn has begun: what is open counts as declined, the turn ends and
        the change belongs to the next one. The visible part goes on (a Dodger lifted again
        from where it was set down, and put down elsewhere): the decisions taken are
        undone and the turn is followed from its start. Where both could be (the piece
        just moved is lifted: the mover goes on, or the opponent begins taking it), the
        next change tells. So does any piece taken up: the mover's (its pieces moved by
        hand in a swap, or the opponent beginning to take it), and the opponent's own (a
        touch, put back, leaves the question open; put down elsewhere, the opponent's turn
        has begun)."""
        ev = self.evidence
        if self.lifting or any(evidence.shows_done(ev, c) for c in self.asked):
            return self._another_done(t)
        # Only a piece set down partway (a Dodger at a corner) goes on from where it was.
        empty = self.observe(())
        put = {cell for c in self.asked for cell, v in c.final.items()
               if v != self.before[cell] and v != empty}
        goes_on = [c for c in self.alive() if put and c.text not in self.declined
                   and c not in self.asked and put <= c.waypoints]
        if not goes_on and all(c.lift for c in self.asked):
            # The piece on the enemy's cell was the enemy, touched while the mover held
            # theirs, which has now come down elsewhere: that turn was made instead.
            goes_on = [c for c in self.alive() if c.text not in self.declined
                       and c not in self.asked and not c.silent and evidence.complete(ev, c)]
        nxt = self._declined_tracker()
        next_turn = nxt is not None and bool(nxt.alive())
        if next_turn and not goes_on:
            return [] if self._touched_meanwhile(nxt) else self._decline_rest(t)
        if goes_on and not next_turn:
            self._to_turn_start(self.state)
            self._prompt, self.deciding, self.asked = None, None, []
            self.after_visible, self._after_declining = False, None
            return self._evaluate(t)
        return []

    def _touched_meanwhile(self, nxt: Tracker) -> bool:
        """The last change put pieces back as they were when the question was put, where
        no turn of the next player's under way (``nxt``) ends: a touch, which does not
        begin that turn (the answer given as the mover puts back a piece they touched,
        while the next player holds theirs, still counts)."""
        cells = self.batch_cells
        if any(self.current[c] != self.asked_board.get(c) for c in cells):
            return False
        return not any(c in cand.final for cand in nxt.alive() for c in cells)

    def _another_done(self, t: float) -> list[Event]:
        """Asked the decisions after a capture, the board shows another turn of the mover
        done as well: a second enemy figure lifted and set back (or the mover's figure set
        down on it) since the mover's figure left. One of the two enemies was only touched
        while the mover held their figure, or the opponent touched theirs after the
        capture: the sensors cannot tell, so the decisions taken are undone and which
        turn was made is asked."""
        ev = self.evidence
        if self.lifting or self.no_turn:
            return []
        others = [c for c in self.alive() if c not in self.asked and not c.silent
                  and c.text not in self.declined and evidence.complete(ev, c)]
        if not others:
            return []
        asked = [c for c in self.asked if evidence.shows_done(ev, c)]
        self._to_turn_start(self.state)
        self._prompt, self.deciding = None, None
        self.after_visible, self._after_declining = False, None
        return self._ask([*asked, *others], t)

    def _declined_tracker(self) -> Tracker | None:
        """The next turn's tracker, were everything still open declined now (None where a
        decision left cannot be declined), looking at the board as it is."""
        depth = len(self.state.move_stack)
        if self._after_declining is None or self._after_declining[0] != depth:
            state = self.state.clone()
            nxt = None
            if self._decline_all(state):
                nxt = type(self)(state, self.observe, self.error_delay, self.blind)
            self._after_declining = (depth, nxt)
        nxt = self._after_declining[1]
        if nxt is not None:
            nxt.current = dict(self.current)
            nxt._start_turn()
        return nxt

    def _decline_all(self, state: rules.GameState) -> bool:
        """Push ``none`` (or the only decision left) until the mover's turn ends; False
        where an open decision cannot be declined."""
        while decisions.in_turn(state, self.player):
            legal = state.legal_moves()
            nones = [m for m in legal if state.move_str(m) == NONE]
            if not nones and len(legal) != 1:
                return False
            state.push(nones[0] if nones else legal[0])
        return True

    def _decline_rest(self, t: float) -> list[Event]:
        """End the turn whose decisions are being asked, declining what is still open; the
        question stays where a decision left cannot be declined."""
        if not self._decline_all(self.state.clone()):
            return []
        self._prompt, self.deciding = None, None
        out: list[Event] = []
        while decisions.in_turn(self.state, self.player):
            legal = self.state.legal_moves()
            nones = [m for m in legal if self.state.move_str(m) == NONE]
            out += self._push_decision(nones[0] if nones else legal[0], t)
        return out + self._end_turn(t, self.asked_batch)

    def _push_decision(self, move: Hashable, t: float) -> list[Event]:
        """Play one decision of the turn; a die's outcome is reported, once it is sure
        that a turn was made (:attr:`no_turn`: at the answer)."""
        chance = self.state.to_move == rules.CHANCE
        self.state.push(move)
        if not chance:
            return []
        self.held_rolls.append(Rolled(t, self.player, self.state.move_str(move)))
        if self.no_turn:
            return []
        out, self.held_rolls = self.held_rolls, []
        return out

    def _roll(self, t: float) -> list[Event]:
        """The ``roll`` button: the board's electronic die rolls for the player to move,
        where the player may roll now (nothing moved yet this turn)."""
        state = self.state
        if self.dice is None:
            return [Rejected(t, "this board has no electronic die: roll your own")]
        rolls = []
        if not self.differing and not self._prompt and len(state.move_stack) == self.turn_start:
            for move in state.legal_moves():
                state.push(move)
                if state.to_move == rules.CHANCE:
                    rolls.append(move)
                state.pop()
        if not rolls:
            return [Rejected(t, f"{self.player} cannot roll now")]
        state.push(rolls[0])
        face = self.dice.roll(state)
        out = self._push_decision(face, t)
        self.rolled = state.move_str(face)
        self._candidates = None
        return out
