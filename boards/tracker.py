"""The tracker: debounced cell changes (and button presses, prompt answers) -> committed moves.

It never decides a move from the order of events. Each legal turn of the position
(one ``Move`` each, however many lifts and places it takes) has a physical effect:
a before and an after content for every cell. While a turn is in progress every
cell must show its before state, its after state, or an intermediate one (pieces
in hand). The tracker keeps the turns that agree with what the sensors show now
(and, for a cell whose piece is replaced, with a lift seen since the turn began)
and:

- commits when exactly one agrees, the board shows its after state, and no longer
  turn could still continue; otherwise as soon as the next event can only belong
  to the next turn, or at a clock press;
- asks (a prompt) when the complete turns differ only in what sensors cannot see;
- reports an error when none agrees and the board has been still for
  ``error_delay`` seconds, naming the wrong cells and what they should show.

Its parts: the events it returns (:mod:`boards.events`), the predicates it reads the
board with (:mod:`boards.evidence`), its phase (:mod:`boards.phases`), and the mixins
:mod:`boards.listing` (the turns of a position), :mod:`boards.handover` (a turn waiting
while the next may have begun), :mod:`boards.deciding` (questions, commits, turns of
several decisions), :mod:`boards.clockpress` (what a clock press ends),
:mod:`boards.shown` (what the LEDs and views need), :mod:`boards.stillness` (what time
passing tells) and :mod:`boards.readings`.

>>> import rules
>>> tracker = Tracker(rules.new_game("tessella"))
>>> tracker.change("e4", False, 0.0)
[]
>>> tracker.change("e5", True, 0.5)
[Committed(t=0.5, ply=1, player='clear', move='e4-e5')]
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

import rules

from . import decisions, evidence, phases
from .clockpress import ClockPress
from .constants import BUTTONS, HINT_SECONDS, NONE, presence, pressed_by, quote
from .deciding import Deciding
from .decisions import Turn
from .events import (
    Committed,
    Error,
    Event,
    Prompt,
    Rejected,
    Rolled,
    Settled,
    TakenBack,
    no_longer_open,
)
from .evidence import Evidence
from .handover import Handover
from .listing import Listing, Listings, start_of
from .phases import Phase
from .readings import Readings
from .shown import Shown
from .stillness import Stillness
from .turns import Candidate, Observe
from .view import TurnView, view_of

__all__ = ["Committed", "Dice", "Error", "Event", "Prompt", "Rejected", "Rolled", "Settled",
           "TakenBack", "Tracker", "presence"]


class Dice(Protocol):
    """The board's electronic die: gives the outcome of the chance node ``state`` is at."""

    def roll(self, state: rules.GameState) -> Hashable: ...


class Tracker(Readings, Listings, Handover, Deciding, ClockPress, Shown, Stillness):
    """Follows one game on one board. Feed it with :meth:`change`, :meth:`press`,
    :meth:`choose` and :meth:`tick`; each returns the events it produced."""

    def __init__(
        self,
        state: rules.GameState,
        observe: Observe = presence,
        error_delay: float = 1.0,
        blind: frozenset = frozenset(),
        dice: Dice | None = None,
        *,
        board: dict[str, Hashable] | None = None,
        turn_marks: list[int] | None = None,
        listing: Listing | None = None,
    ) -> None:
        self.state = state
        self.observe = observe
        self.error_delay = error_delay
        self.blind = frozenset(blind)  # cells without a sensor (a Telec Center Zone)
        self.dice = dice  # None: the players roll their own dice (or there are none)
        # where each turn of the game began (worked out from the game unless given)
        self.turn_marks = _turn_marks(state) if turn_marks is None else turn_marks
        cells = state.GEOMETRY.names
        self.cells = cells
        if board is None:  # what the sensors show (default: the position as it stands)
            phys = state.physical()
            board = {c: observe(phys.get(c, ())) for c in cells}
        self.current: dict[str, Hashable] = dict(board)
        self._prompt: Prompt | None = None
        self.error: Error | None = None
        self.last_change = 0.0
        self.last_commit: tuple[Candidate, float] | None = None
        self.hint_until = float("-inf")
        self.batch = 0
        self.lifting = False
        # Clock presses that came while a question was open (or that opened one about the
        # opponent's waiting turn): they count once it is answered. ``None`` is the shared
        # button.
        self.held: list[str | None] = []
        self.batch_cells: list[str] = []  # the cells the last scan changed
        self._spent: list[tuple] = []  # what ended turns listed, to let go when idle
        # An opponent's turn, the only one its player may make (:meth:`expect`): the
        # decisions made when it was given, the player, the turn's decisions from there.
        self.expected: tuple[int, str, Turn] | None = None
        self._start_turn(listing)
        self.phase = phases.of(self)

    # --- the turn in progress ---------------------------------------------------

    def _start_turn(self, listing: Listing | None = None,
                    phys: dict[str, tuple[str, ...]] | None = None) -> None:
        """Begin the turn of the position as it stands (``listing``: its turns and start,
        listed ahead of time; ``phys``: its pieces, where the caller has them)."""
        if listing is None:
            self.before_pieces, self.before = start_of(self.state, self.cells, self.observe,
                                                       phys)
        else:
            self.before_pieces, self.before = listing.pieces, listing.shows
        before, current = self.before, self.current
        self.differing = set(dict(current.items() - before.items()))
        # What each cell showed this turn, in order: (batch number, observation); batches
        # are the scans' changes, numbered from 1 (0: already so when the turn began).
        self.seen, self.history = evidence.begun(before, current, self.differing)
        self.declined: set[str] = set()
        self._evidence: Evidence | None = None  # (its dicts replaced: made again when read)
        self._list_turn(listing)
        self._clear_turn()

    def _clear_turn(self) -> None:
        """Nothing is waiting, asked, held or read yet this turn."""
        self.pending: list[Candidate] = []
        self._prompt = None
        self.error = None
        self.readings, self.told, self.read_for = {}, {}, None
        self.restoring, self.before_held = False, {}
        self.either = False  # the board fits this turn or, after the waiting one, the next
        # While it does: the board when that began and the scans' changes since, to replay
        # on the next turn if the waiting one turns out to be done.
        self.held_board: dict[str, Hashable] | None = None
        self.since_held: list[tuple[list[tuple[str, Hashable]], float]] = []
        self.held_for: set[str] = set()  # the waiting turns that board is held for
        # The scans' changes this turn: (batch number, time, changes, what they replaced).
        self.batches: list[tuple[int, float, list[tuple[str, Hashable]], dict]] = []
        self._alive: list[Candidate] = []
        self.player = self.state.to_move
        self.turn_start = len(self.state.move_stack)
        self.deciding: list[Turn] | None = None  # the ways left of a turn being asked
        self.rolled: str | None = None  # the board's die has rolled this, this turn
        self.no_turn = False  # the question open may be answered: no unseen turn was made
        self.asked: list[Candidate] = []  # the turns the open question is about
        self.asked_batch = 0  # the last batch of changes before it was asked
        self.prompt_batch = 0  # the batch of changes that raised the question open
        self.asked_board: dict[str, Hashable] = {}  # what the sensors showed when it was
        # The turn's visible part is done; the decisions asked now are the position's.
        self.after_visible = False
        self._after_declining: tuple[int, Tracker | None] | None = None
        # The batch of changes before the first question this turn (None: none asked yet).
        self.questioned: int | None = None
        self.pending_since = 0  # the scan after which the turn waiting was done
        self.done_at: dict[str, int] = {}  # the scan after which each turn was first done
        # ... and each time it was done again after something undid it (a piece put back)
        self.done_again: dict[str, list[int]] = {}
        self.done_last: set[str] = set()  # the turns done as of the last scan read
        self._danger: list[str] | None = None
        self.asked_at = len(self.state.move_stack)  # the decisions made when it was asked
        self.held_rolls: list[Rolled] = []  # dice read, reported once a turn is sure
        # The next turn began after this batch of changes, if this one ends as asked.
        self.carry_from: int | None = None
        self.carried: dict[str, list[tuple[int, Hashable]]] = {}  # from the last turn

    def _entered(self, was: Phase, events: list[Event]) -> list[Event]:
        """After an input: the tracker enters the phase its state shows (:mod:`boards.phases`)."""
        now = phases.of(self)
        self.phase = now if now is was else phases.enter(was, now)
        return events

    @property
    def prompt(self) -> Prompt | None:
        """The question put to the players, if one is open and shown (its readings may
        still close it, :mod:`boards.readings`)."""
        return None if self._prompt is self.unshown else self._prompt  # (read every scan)

    @property
    def evidence(self) -> Evidence:
        """What the sensors have shown this turn, as a value (:mod:`boards.evidence`). It
        holds the tracker's own dicts, which each change updates in place, so it is made
        again only where one of them is replaced: at a turn's start, at each change (the
        cells it changed), and where the board is replaced (a copy, a board held)."""
        ev = self._evidence
        if ev is None or ev.current is not self.current:
            ev = self._evidence = Evidence(
                self.observe, self.before_pieces, self.before, self.current, self.seen,
                self.history, self.differing, self.batch_cells)
        return ev

    def alive(self) -> list[Candidate]:
        ev, cands = self.evidence, self.candidates
        if self.differing:  # only the candidates that let one of those cells differ
            cands = self._allowing(cands)
        return [c for c in cands if evidence.consistent(ev, c)]

    # --- inputs -------------------------------------------------------------------

    def change(self, cell: str, value: Hashable, t: float) -> list[Event]:
        """A debounced sensor change on ``cell`` (``value`` is what its sensor now shows)."""
        return self.changes([(cell, value)], t)

    def changes(self, changes: list[tuple[str, Hashable]], t: float) -> list[Event]:
        """Changes the same scan confirmed: they happened together, in no known order
        (a pawn lifted and put down within one scan is a step, not a block placed)."""
        was = self.phase
        if self.readings:  # each reading follows the change too, then may settle it
            self.still_from = t
            self._feed(lambda reading: reading.changes(list(changes), t),
                       lambda reading: reading._record(changes, t))
            return self._entered(was, self._changes(changes, t) + self._settle(t, moved=True))
        return self._entered(was, self._changes(changes, t))

    def _changes(self, changes: list[tuple[str, Hashable]], t: float) -> list[Event]:
        self._record(changes, t)
        ev = self.evidence
        if self.deciding is not None:
            return self._while_deciding(t)
        if self._prompt and self.read_for is not self._prompt and self.pending \
                and all(c.silent for c in self.pending) and any(
                not c.silent and evidence.shows_done(ev, c)
                for c in self.candidates):
            # Asked whether an unseen turn was made, the player to move made a visible one
            # instead: none was (a question still open when the next turn is made is
            # declined; where it is read, the readings tell). A piece only touched meanwhile
            # leaves the question open.
            self._decline(t)
            self.held = []  # presses meant for the question's turn
        if self.deciding is not None:
            return self._while_deciding(t)
        return self._evaluate(t)

    def _record(self, changes: list[tuple[str, Hashable]], t: float) -> None:
        """Keep track of what the cells show (and showed this turn, in which batch)."""
        ev, current = self.evidence, self.current
        self.batch += 1
        self.declined = set()
        # Only pieces taken up: they may still be in hand, whatever turn they complete.
        lifting, cells, prev = True, [], {}
        for cell, value in changes:  # (one loop: each comprehension is a call of its own)
            lifting = lifting and evidence.taken(ev, cell, value)
            cells.append(cell)
            prev[cell] = current[cell]
        self.lifting, self.batch_cells = lifting, cells
        self._evidence = None
        self._batch = (list(changes), prev)
        self.batches.append((self.batch, t, *self._batch))
        if self.held_board is not None:
            self.since_held.append((list(changes), t))
        for cell, value in changes:
            current[cell] = value
            self.seen[cell].add(value)
            self.history.setdefault(cell, []).append((self.batch, value))
            if value != self.before[cell]:
                self.differing.add(cell)
            else:
                self.differing.discard(cell)
        self.last_change = t
        self.error = None

    def press(self, button: str, t: float, player: str | None = None) -> list[Event]:
        """A button press. ``hint`` shows for a while where a placement would be illegal
        because it cuts a path (games that have such a rule); ``takeback`` undoes the last
        move; ``clock`` says a turn is done.

        ``player`` is the side of the clock pressed, on a board with one clock button per
        player (as on a chess clock; the GPIO buttons, the page and replay's ``"player"``
        field give it); ``None`` is a single shared button, which either player may press.

        - The side of the player who has just moved: that turn is confirmed; the opponent
          is asked nothing.
        - The side of the player to move: their complete turn is committed; if the board
          shows no change, their silent turn (a Teblo pawn stepping between two own blocks
          on reed switches) is committed, or asked for when several fit.
        - The shared button: a complete turn the board shows is committed; a silent turn
          is never committed without a question, which offers ``none``.

        >>> import rules
        >>> tracker = Tracker(rules.new_game("tessella"))
        >>> tracker.press("clock", 1.0, "dark")  # not dark's turn: nothing to commit or ask
        []
        """
        was = self.phase
        if button == "hint" and self.hidden:
            self.unshown = None  # a player asking: the question not shown yet is shown
            return self._entered(was, [self._prompt])
        self._heard_press(button, t, player)
        if button == "clock" and self.readings:
            self.still_from = t
            self._feed(lambda reading: reading.press(button, t, player),
                       lambda reading: reading._heard_press(button, t, player))
            asked = pressed_by(player, self.player)  # (a press of the player asked about)
            return self._entered(was, self._pressed(button, t, player)
                                 + self._settle(t, pressed=asked, own=player == self.player))
        return self._entered(was, self._pressed(button, t, player))

    def _pressed(self, button: str, t: float, player: str | None) -> list[Event]:
        self.pressing = True
        try:
            return self._press(button, t, player)
        finally:
            self.pressing = False

    def _press(self, button: str, t: float, player: str | None) -> list[Event]:
        if button == "hint":
            self.hint_until = t + HINT_SECONDS
            return []
        if button == "takeback":
            return self._take_back(t)
        if button == "roll" and self.state.HAS_CHANCE:
            return self._roll(t)
        if button != "clock":
            buttons = ", ".join(self.buttons())
            return [Rejected(t, f"unknown button {quote(button)}; buttons: {buttons}")]
        players = self.state.PLAYERS
        if player is not None and player not in players:
            return [Rejected(t, f"unknown player {quote(player)}; players: {', '.join(players)}")]
        if self.restoring:
            return []
        return self._clock(t, player)

    def choose(self, value: str, t: float, asked: str | None = None) -> list[Event]:
        """An answer to the open prompt: one of its options, or the same move written
        another way the notation allows (e.g. a Tulaga's stones in another order).
        ``asked``: the key of the question it was given for (:attr:`Prompt.key`); if
        another has taken its place since (later events settled it, or changed what is
        asked), the answer is refused, never taken for the question now open."""
        if self._prompt is None:  # (one not shown yet is open: an answer may come first)
            return [Rejected(t, f"no question is open; {quote(value)} ignored")]
        if asked is not None and asked != self._prompt.key:
            return [Rejected(t, no_longer_open(value, self._prompt.options))]
        was = self.phase
        taken = self._answered(value, t)
        if taken is not None:
            return self._entered(was, taken)
        events = self._choose(value, t)
        while self.held and self._prompt is None:
            events += self.press("clock", t, self.held.pop(0))
        # (the readings of the question answered go)
        return self._entered(was, events + self._settle(t))

    def _choose(self, value: str, t: float) -> list[Event]:
        if self.deciding is not None:
            return self._answer(value, t)
        if value == NONE:  # (the board may show another turn done meanwhile: read it)
            return self._decline(t) + self._evaluate(t)
        chosen = [c for c in self.pending if c.text == value]
        if not chosen:
            try:
                move = self.state.parse_move(value)
            except rules.RulesError:
                move = None
            chosen = [c for c in self.pending if c.move == move]
        if not chosen:
            return [Rejected(t, f"{quote(value)} is not offered; options: "
                                f"{', '.join(self._prompt.options)}")]
        if self.held_board is not None and chosen[0].text in self.held_for:
            self._prompt = None
            self._hold_from_done(chosen[0].text)
            return self._commit_held(t, chosen[0])  # what came since is the next turn's
        return self._commit(chosen[0], t)

    def put_right(self, state: rules.GameState | None = None,
                  shown: dict[str, Hashable] | None = None) -> None:
        """Play goes on from ``state`` (default: the game as it is) once the board shows
        it; until then the LEDs name each cell to put right, as after a takeback. For a
        game resumed from its journal (``shown``: what the sensors show now) and a
        position an arbiter set."""
        was = self.phase
        if state is not None:
            self.state = state
            self.turn_marks = _turn_marks(state)
        if shown is not None:
            self.current.update(shown)
        self._start_turn()
        self.restoring = bool(self.differing)
        self.last_commit = None
        self.held = []
        self._entered(was, [])

    def flush(self, t: float) -> list[Event]:
        """Nothing more will happen (the input has ended): commit a turn that is complete.
        A turn waiting while the next may have begun is committed first, then the next
        turn is read from the changes since and ended the same way (a Teblo pawn onto its
        own block, then the opponent's pawn onto theirs). Decisions still asked after a
        turn's visible part (a Tesulda swap or draw) count as declined, as at the next turn
        or the mover's clock; a question that cannot be declined (which of two moves, a
        decision ``none`` does not answer, whether a turn was made at all) stays open."""
        was = self.phase
        if self.readings:
            self._feed(lambda reading: reading.flush(t))
            return self._entered(was, self._flush(t) + self._settle(t, ended=True))
        return self._entered(was, self._flush(t))

    def _flush(self, t: float) -> list[Event]:
        events = self._flush_pending(t)
        if self.deciding is not None and self.after_visible and not self.no_turn:
            declined = self._decline_rest(t)
            if declined:  # the questions just put are answered by the end of the input
                return [e for e in events if not isinstance(e, Prompt)] + declined
        return events

    def _flush_pending(self, t: float) -> list[Event]:
        if self.either and not self._prompt:
            if len(self.pending) != 1:
                return self._ask(self.pending, t)
            events = self._commit_held(t)
            return events + self._flush_pending(t)
        pending = [c for c in self.pending if c in self._alive]
        if self._prompt or not self.pending:
            return []
        if not pending:
            return self._flush_waiting(t)
        return self._commit(pending[0], t) if len(pending) == 1 else self._ask(pending, t)

    # --- reading the board ------------------------------------------------------------

    def _evaluate(self, t: float) -> list[Event]:
        ev = self.evidence
        if self._prompt:
            return []  # the question stays open; the answer commits, then the board is read
        if self.restoring:
            self.restoring = bool(self.differing)  # play goes on once the board is put back
            return []
        self.either = False
        alive = self._alive = self.alive()
        if self.declined:  # (answered ``none`` since the scan's changes came)
            alive = self._alive = [c for c in alive if c.text not in self.declined]
        complete = evidence.done_of(ev, alive)
        self._mark_done(complete)
        if self.lifting and complete and evidence.cleared(ev, complete):
            self.lifting = False  # nothing of a turn in hand: a stray, the pad emptied
        waiting = [c for c in self.pending if c not in complete] if self.pending else []
        if waiting and self.lifting and any(c.waypoints for c in alive if c not in waiting):
            # A piece set down partway lifted again (the mover goes on), or the opponent
            # begins taking it: the next change tells.
            return []
        if not waiting and self.held_board is not None:
            # The piece lifted meanwhile is back: a touch, unless the next player could
            # have made a turn meanwhile (a pawn stepped onto its own block, then a block
            # on the cell it left): then which the sensors cannot tell.
            if self.pending and self._next_turn_made(self.pending[0]):
                # (a turn of several decisions: asked with ``none``, the touch it may be)
                return self._ask(self.pending, t, declinable=True)
            self.held_board = None
        if waiting:
            # A complete turn was waiting, and this event broke it: if the board now fits
            # the next player's turn after it, it was done and the next turn has begun.
            nexts, fits = {}, []
            for c in waiting:  # (one loop: each comprehension is a call of its own)
                nexts[c.text] = self._next_turn(c)
                if nexts[c.text] is not None:
                    fits.append(c)
            out = self._either_turn(t, waiting, fits, nexts, alive, complete)
            if out is None:
                out = self._waiting_done(t, waiting, fits, alive)
            if out is not None:
                return out
        if not alive:
            if not self.lifting and not self._prompt:
                asked = self._unseen_then_next(t)
                if asked:
                    return asked
            # Belongs to no turn (an own stone lifted after a claim): the complete turn
            # waits while the board is wrong, and the error timer runs.
            return []
        if len(complete) > 1:
            complete = self._preferred(complete)
        return self._complete_now(t, alive, complete)

    def _preferred(self, complete: list[Candidate]) -> list[Candidate]:
        """Of several complete turns, those that account for what the board showed."""
        ev = self.evidence
        # A piece held while another left, then a piece put on its cell, is a piece
        # replaced, not one put back: prefer the turns that account for it.
        replaced = evidence.swapped(ev, self._alive)
        complete = [c for c in complete if replaced <= c.final.keys()] or complete
        staged = evidence.staged(ev, complete)
        complete = [c for c in complete if staged <= c.lift.keys()] or complete
        shown = evidence.stages_shown(ev, complete)  # (the pad: a3-cz, not a3-a2 and a stray)
        complete = [c for c in complete if shown <= c.allowed.keys()] or complete
        return complete

    def _complete_now(self, t: float, alive: list[Candidate], complete: list[Candidate],
                      ) -> list[Event]:
        """Commit or ask the ``complete`` turns where no longer turn may grow out of them;
        else they wait (:attr:`pending`)."""
        if complete and not self.lifting and not self._continuations(alive, complete):
            # (A silent turn of several decisions, a Telec forfeit, is ended by the clock.)
            unseen = self._silent_of(self.candidates)
            silent = [c for c in unseen if not c.ways and c.text not in self.declined
                      and self._next_turn_fits(c)] if unseen else []
            if silent:
                # Or the player to move made a silent turn, and this is the opponent's.
                return self._ask([*complete, *silent], t)
            if len(complete) == 1:
                return self._commit(complete[0], t)
            return self._ask(complete, t)
        if len(complete) == 1 and not self.lifting and self._asks_more(complete[0]):
            # A longer turn could still grow out of this one (a Dodger set down between
            # its legs), but this one's own questions come now; if the piece goes on, the
            # answers are undone (see _while_deciding).
            return self._commit(complete[0], t)
        if complete and not self.pending:
            self.pending_since = self.batch  # the turn was done by this scan
        for cand in complete:
            self.done_at.setdefault(cand.text, self.batch)
        self.pending = complete
        return []

    def complete_turns(self) -> list[Candidate]:
        """The visible turns in progress that the board shows complete."""
        return evidence.done_of(self.evidence, self._alive)

    def turns(self, start: int = 0) -> list[str]:
        """The committed turns' notations, oldest first (a turn of several decisions is
        one entry: ``roll 4 6``); ``start``: from that turn on."""
        stack = self.state.move_stack[:self.turn_start]
        ends = [*self.turn_marks[1:], len(stack)] if self.turn_marks else []
        return [decisions.text(self.state, Turn(stack[a:b]))
                for a, b in zip(self.turn_marks[start:], ends[start:], strict=True)]

    def turns_made(self) -> int:
        """How many turns are committed (``len(turns())``, none of them written out)."""
        return len(self.turn_marks)

    def buttons(self) -> list[str]:
        """The buttons this board offers: ``roll`` only with an electronic die."""
        return [b for b in BUTTONS if b != "roll" or self.dice is not None]

    def view(self, previous: TurnView | None = None, option_cells: bool = False
             ) -> TurnView:
        """The read model of the turn as it stands, for the LEDs and every view
        (:mod:`boards.view`); ``previous``: the view before it."""
        return view_of(self, previous, option_cells)


def _turn_marks(state: rules.GameState) -> list[int]:
    """Where each turn of ``state``'s history began (indices into ``move_stack``)."""
    replay = state.clone()
    moves = replay.move_stack
    for _ in moves:
        replay.pop()
    marks: list[int] = []
    player = None
    for k, move in enumerate(moves):
        if replay.to_move != rules.CHANCE and replay.to_move != player:
            marks.append(k)
            player = replay.to_move
        replay.push(move)
    return marks
