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

>>> import rules
>>> tracker = Tracker(rules.new_game("tessella"))
>>> tracker.change("e4", False, 0.0)
[]
>>> tracker.change("e5", True, 0.5)
[Committed(t=0.5, ply=1, player='clear', move='e4-e5')]
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from typing import NamedTuple, Protocol

import rules

from . import decisions
from .constants import BUTTONS, HINT_SECONDS, NONE, presence, quote
from .decisions import Turn
from .readings import Readings, Settled
from .turns import Candidate, Observe, common_prefix, effect, prefixes, sight, unseen
from .view import TurnView, view_of


class Committed(NamedTuple):
    t: float
    ply: int
    player: str
    move: str


class Error(NamedTuple):
    t: float
    cells: dict[str, str]  # cell -> what it should show: "empty" or the pieces, e.g. "clear"
    # A move the pieces may make but that would expose a protected piece (Tesulda's Prime,
    # D-9): the cells of the pieces that could then take it.
    attackers: tuple[str, ...] = ()


class Prompt(NamedTuple):
    t: float
    options: list[str]


class Rejected(NamedTuple):
    t: float
    reason: str


class TakenBack(NamedTuple):
    t: float
    ply: int  # the ply that was taken back
    player: str
    move: str


class Rolled(NamedTuple):
    """A die was rolled (by the board's electronic die, or read from the board)."""

    t: float
    player: str
    value: str


Event = Committed | Error | Prompt | Rejected | TakenBack | Rolled | Settled


class Dice(Protocol):
    """The board's electronic die: gives the outcome of the chance node ``state`` is at."""

    def roll(self, state: rules.GameState) -> Hashable: ...


def describe(pieces: tuple[str, ...]) -> str:
    """What a cell should show, for error messages: "empty" or the pieces bottom to top."""
    return "+".join(pieces) if pieces else "empty"


class Listing(NamedTuple):
    """A position's turns listed ahead of time (:meth:`Tracker.prepare`), with what each
    cell holds and what its sensor shows when that position's turn begins."""

    candidates: list[Candidate]
    pieces: dict[str, tuple[str, ...]]
    shows: dict[str, Hashable]


class Seen(dict):
    """What each cell has shown this turn: a cell nobody has touched showed only what it
    showed when the turn began (filled in when first asked, not for every cell at once)."""

    def __init__(self, before: dict[str, Hashable], touched: dict[str, set]) -> None:
        super().__init__(touched)
        self.before = before

    def __missing__(self, cell: str) -> set:
        shown = self[cell] = {self.before[cell]}
        return shown


class Tracker(Readings):
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

    # --- the turn in progress ---------------------------------------------------

    def _start_turn(self, listing: Listing | None = None) -> None:
        """Begin the turn of the position as it stands (``listing``: its turns and start,
        listed ahead of time)."""
        if listing is None:
            phys = self.state.physical()
            self.before_pieces = {c: phys.get(c, ()) for c in self.cells}
            self.before = {c: self.observe(p) for c, p in self.before_pieces.items()}
        else:
            self.before_pieces, self.before = listing.pieces, listing.shows
        before, current = self.before, self.current
        self.differing = {c for c in self.cells if current[c] != before[c]}
        self.seen = Seen(before, {c: {before[c], current[c]} for c in self.differing})
        # What each cell showed this turn, in order: (batch number, observation); batches
        # are the scans' changes, numbered from 1 (0: already so when the turn began).
        self.history: dict[str, list[tuple[int, Hashable]]] = {
            c: [(0, self.current[c])] for c in self.differing}
        self.declined: set[str] = set()
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
        self.pending: list[Candidate] = []
        self._prompt = None
        self.error = None
        self.readings, self.told, self.read_for = {}, {}, None
        self.restoring = False
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
        self.asked_board: dict[str, Hashable] = {}  # what the sensors showed when it was
        # The turn's visible part is done; the decisions asked now are the position's.
        self.after_visible = False
        self._after_declining: tuple[int, Tracker | None] | None = None
        # The batch of changes before the first question this turn (None: none asked yet).
        self.questioned: int | None = None
        self.pending_since = 0  # the scan after which the turn waiting was done
        self.done_at: dict[str, int] = {}  # the scan after which each turn was first done
        self._danger: list[str] | None = None
        self.asked_at = len(self.state.move_stack)  # the decisions made when it was asked
        self.held_rolls: list[Rolled] = []  # dice read, reported once a turn is sure
        # The next turn began after this batch of changes, if this one ends as asked.
        self.carry_from: int | None = None

    @property
    def prompt(self) -> Prompt | None:
        """The question put to the players, if one is open (its readings may still close
        it, :mod:`boards.readings`)."""
        return self._prompt

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
            self.candidates  # noqa: B018
        elif unlisted := self._unlisted():
            self._list(self._made(unlisted[0]))
            self._listed_after.add(self._way(unlisted[0]))
        elif ways := self._unlisted_ways():
            state = self.state.clone()
            decisions.push(state, ways[0])
            self._ways_tried.add(tuple(state.move_stack[self.turn_start:]))
            if not decisions.in_turn(state, self.player):  # (else more is asked)
                self._list(state)

    def _list(self, state: rules.GameState) -> None:
        """List the turns of ``state``, a position this turn may lead to."""
        nxt = self._tracker_from(state, self.current)
        self._listed[tuple(state.move_stack[self.turn_start:])] = Listing(
            nxt.candidates, nxt.before_pieces, nxt.before)

    def _unlisted(self) -> list[Candidate]:
        """The turns waiting or unseen whose next position's turns are not listed yet
        (none while the decisions of a turn being made are asked)."""
        if len(self.state.move_stack) != self._listed_at:
            return []
        if self._silent[0] is not self._candidates:
            self._silent = (self._candidates, [c for c in self._candidates or () if c.silent])
        turns = [*self.pending, *self._silent[1]]
        return [c for c in turns if self._way(c) not in self._listed_after] if turns else []

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

    def _taken(self, cell: str, value: Hashable) -> bool:
        """Whether ``cell`` changing to ``value`` takes a piece up (rather than puts one
        down): it shows a shorter part of its start stack than it did."""
        shown = [self.observe(p) for p in prefixes(self.before_pieces[cell])]
        was = self.current[cell]
        if value not in shown:
            return False
        return was not in shown or shown.index(value) < shown.index(was)

    def _in_hand_allowed(self, cell: str) -> frozenset:
        return frozenset(self.observe(p) for p in prefixes(self.before_pieces[cell]))

    def consistent(self, cand: Candidate) -> bool:
        """``cand`` explains every cell that differs from the start of the turn.

        A turn that would first need an unrelated piece put back is not in progress:
        that piece is out of place, and after ``error_delay`` it is an error.
        """
        allowed, current = cand.allowed, self.current
        for cell in self.differing:
            ok = allowed.get(cell)
            if ok is None or current[cell] not in ok:
                return False
        if cand.first_step and not self._in_order(cand):
            return False
        return self._pieces_balance(cand)

    def _in_order(self, cand: Candidate) -> bool:
        """No cell shows work of a stage whose earlier stages are not done (a Tulaga reap
        does not begin before the stone is placed and the Tulaga claimed)."""
        stage = self._stage(cand)[0]
        first = cand.first_step
        return all(first.get(cell, 0) <= stage for cell in self.differing)

    def _pieces_balance(self, cand: Candidate) -> bool:
        """No piece has arrived that neither left a cell of ``cand`` nor came from the
        stock: a Teblo pawn cannot land on b1 before it has left a1."""
        return self._excess(cand)[0] <= 0

    def _excess(self, cand: Candidate) -> tuple[int, list[str]]:
        """How many more pieces have arrived on cells of ``cand`` (a Dodger's corner
        included) than have left its cells or come from the stock, and the cells where
        they arrived."""
        current, before = self.current, self.before
        arrived = [cell for cell, shows in [*cand.takes.items(), *cand.passing.items()]
                   if current[cell] in shows and current[cell] != before[cell]]
        arrived += [cell for cell in cand.waypoints if current[cell] != before[cell]]
        if len(arrived) <= cand.stock:
            return len(arrived) - cand.stock, arrived
        departed = sum(1 for cell, visible in cand.gives
                       if not visible or current[cell] != before[cell]
                       or cell in cand.lift and cand.lift[cell] in self.seen[cell])
        return len(arrived) - departed - cand.stock, arrived

    def complete(self, cand: Candidate) -> bool:
        for cell, value in cand.final.items():
            if self.current[cell] != value:
                return False
        seen = self.seen
        return all(self._replaced(cand, cell, value) for cell, value in cand.lift.items()) \
            and all(shows <= seen[cell] for cell, shows in cand.passing.items())

    def _replaced(self, cand: Candidate, cell: str, lifted: Hashable) -> bool:
        """The piece on ``cell`` was taken away and another put there, in that order: the
        cell showed ``lifted``, then its last change came, and (unless the new piece comes
        from the stock) no earlier than the other pieces of ``cand`` left their cells. A
        piece lifted and put back before the capturing piece left is a touch."""
        hist = self.history.get(cell)
        if not hist:
            return False
        arrival = hist[-1][0]
        if not any(n < arrival for n, v in hist if v == lifted):
            return False
        if cand.stock:
            return True
        return all(self._departure(other) <= arrival
                   for other, visible in cand.gives if visible and other != cell)

    def _departure(self, cell: str) -> float:
        """When a piece last left ``cell`` this turn (its batch number), if one has: the
        start of the last time the cell showed a piece in hand (a touch earlier in the
        turn, lifted and put back, does not count)."""
        held = self._in_hand_allowed(cell)
        before = self.before[cell]
        start = float("inf")
        for n, value in reversed(self.history.get(cell, ())):
            if value != before and value in held:
                start = n
            elif start != float("inf"):
                break
        return start

    def alive(self) -> list[Candidate]:
        return [c for c in self.candidates if self.consistent(c)]

    def mismatch(self, cand: Candidate) -> dict[str, str]:
        """The cells that keep ``cand`` from being in progress, and what they should show.

        Besides cells ``cand`` cannot explain, a piece that has arrived where ``cand`` puts
        one, while no piece has left where ``cand`` takes one from (nor come from the
        player's stock), is out of place too.
        """
        wrong = {
            cell: describe(self.before_pieces[cell])
            for cell in self.differing
            if self.current[cell] not in cand.allowed.get(cell, ())
        }
        excess, arrived = self._excess(cand)
        for cell in sorted(arrived)[:max(excess, 0)]:
            wrong[cell] = describe(self.before_pieces[cell])
        return wrong

    # --- inputs -------------------------------------------------------------------

    def change(self, cell: str, value: Hashable, t: float) -> list[Event]:
        """A debounced sensor change on ``cell`` (``value`` is what its sensor now shows)."""
        return self.changes([(cell, value)], t)

    def changes(self, changes: list[tuple[str, Hashable]], t: float) -> list[Event]:
        """Changes the same scan confirmed: they happened together, in no known order
        (a pawn lifted and put down within one scan is a step, not a block placed)."""
        if self.readings:  # each reading follows the change too, then may settle it
            self.still_from = t
            self._feed(lambda reading: reading.changes(list(changes), t),
                       lambda reading: reading._record(changes, t))
            return self._changes(changes, t) + self._settle(t, moved=True)
        return self._changes(changes, t)

    def _changes(self, changes: list[tuple[str, Hashable]], t: float) -> list[Event]:
        self._record(changes, t)
        if self.deciding is not None:
            return self._while_deciding(t)
        asked_silent = self.pending and all(c.silent for c in self.pending)
        if self._prompt and asked_silent and any(
                not c.silent and self.consistent(c) and self.complete(c)
                for c in self.candidates):
            # Asked whether an unseen turn was made, the player to move made a visible one
            # instead: none was (a question still open when the next turn is made is
            # declined). A piece only touched meanwhile leaves the question open.
            self._decline(t)
            self.held = []  # presses meant for the question's turn
        if self.deciding is not None:
            return self._while_deciding(t)
        return self._evaluate(t)

    def _record(self, changes: list[tuple[str, Hashable]], t: float) -> None:
        """Keep track of what the cells show (and showed this turn, in which batch)."""
        self.batch += 1
        self.declined = set()
        # Only pieces taken up: they may still be in hand, whatever turn they complete.
        self.lifting = all(self._taken(cell, value) for cell, value in changes)
        self.batch_cells = [cell for cell, _ in changes]
        self._batch = (list(changes), {cell: self.current[cell] for cell, _ in changes})
        self.batches.append((self.batch, t, *self._batch))
        if self.held_board is not None:
            self.since_held.append((list(changes), t))
        for cell, value in changes:
            self.current[cell] = value
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
        if button == "clock" and self.readings:
            self.still_from = t
            self._feed(lambda reading: reading.press(button, t, player))
            return self._press(button, t, player) + self._settle(t)
        return self._press(button, t, player)

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
        if self.deciding is not None and self.after_visible and player in (None, self.player):
            # The mover's clock ends the turn: what is still open after its visible part
            # counts as declined (a question that cannot be declined stays).
            events = self._decline_rest(t)
            if events:
                return events
        if self.either and not self._prompt:
            # The waiting turn and the piece in hand: the press says the turn was done.
            if len(self.pending) > 1:
                self.held.append(player)
                return self._ask(self.pending, t)
            return self._commit_held(t) + self.press(button, t, player)
        if self._prompt:
            if player is None or player != self.player:
                self.held.append(player)  # it counts once the question is answered
            return []
        if player is not None and player != self.state.to_move:
            # The presser has moved: a complete turn of the opponent still waiting ends
            # here, then the press counts for the presser's own turn.
            pending = [c for c in self.pending if c in self._alive]
            if len(pending) > 1:
                # Which of the opponent's turns the sensors cannot tell: asked, and the
                # press counts for the presser's own (maybe silent) turn after the answer.
                self.held.append(player)
                return self._ask(pending, t)
            if not pending:
                return []  # the player who has just moved ends their turn: nothing to ask
            events = self._commit(pending[0], t)
            if self._prompt or self.state.to_move != player:
                return events
            return events + self.press(button, t, player)
        pending = [c for c in self.pending if c in self._alive]  # and the board shows it
        if self.lifting and not any(self.complete(c) for c in pending):
            # A piece taken up since: the next player's, where a waiting turn leaves the
            # board fitting their turn (a step onto an own piece shows only that lift), not
            # one turn's piece put down and lifted again, which the press would not end.
            pending = [c for c in self.pending if self._next_turn_fits(c)] or pending
        if pending and all(self._like_a_touch(c) for c in pending):
            # A piece lifted and put back: an entry bumping it, or a touch and an unseen turn.
            return self._ask([*pending, *(c for c in self.candidates if c.silent)], t)
        if len(pending) == 1:
            events = self._commit(pending[0], t)
            if self.deciding is not None and self.after_visible:
                events += self._decline_rest(t)
            elif player is None and self._unseen_next():
                # One shared button: the press that ended a waiting turn may be the next
                # player's, ending an unseen turn (a forfeit, a stack from the stash).
                events += self._press(button, t, player)
            return events
        if pending:
            if player is None and self._unseen_after(pending):
                self.held.append(player)  # and then it may end the next player's unseen turn
            return self._ask(pending, t)
        if self.differing:
            # Nothing of the mover's is done, but their unseen turn (a Telec forfeit) and
            # the opponent's turn since, read from the start, would be.
            silent = [c for c in self.candidates if c.silent and c.ways
                      and c.text not in self.declined and self._next_turn_done(c)]
            if silent:
                self.carry_from = 0
                return self._ask(silent, t, declinable=True)
        if not self.differing:
            silent = [c for c in self.candidates if c.silent]
            if len(silent) == 1 and (player is not None or self._expected_rest()):
                # (an opponent's turn lit, carried out here: the press says it is done)
                return self._commit(silent[0], t)
            if silent:
                # (a turn begun, an electronic die rolled, is no longer "none")
                begun = len(self.state.move_stack) > self.turn_start
                return self._ask(silent, t, declinable=player is None and not begun)
        return []

    def _unseen_after(self, turns: list[Candidate]) -> bool:
        """The next player has unseen turns of several decisions after one of ``turns``."""
        return any(c.silent and c.ways for turn in turns
                   for c in self._tracker_from(self._made(turn), self.current).candidates)

    def _unseen_next(self) -> bool:
        """Nothing is asked or shown yet of the turn just begun, and the player to move
        has unseen turns of several decisions."""
        return (not self._prompt and self.deciding is None and not self.differing
                and any(c.silent and c.ways for c in self.candidates))

    def choose(self, value: str, t: float) -> list[Event]:
        """An answer to the open prompt: one of its options, or the same move written
        another way the notation allows (e.g. a Tulaga's stones in another order)."""
        if self._prompt is None:
            return [Rejected(t, f"no question is open; {quote(value)} ignored")]
        events = self._choose(value, t)
        while self.held and self._prompt is None:
            events += self.press("clock", t, self.held.pop(0))
        return events + self._settle(t)  # (the readings of the question answered go)

    def _choose(self, value: str, t: float) -> list[Event]:
        if self.deciding is not None:
            return self._answer(value, t)
        if value == NONE:
            return self._decline(t)
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
        while len(self.state.move_stack) > self.turn_start:  # a turn begun (a roll) goes too
            self.state.pop()
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

    def put_right(self, state: rules.GameState | None = None,
                  shown: dict[str, Hashable] | None = None) -> None:
        """Play goes on from ``state`` (default: the game as it is) once the board shows
        it; until then the LEDs name each cell to put right, as after a takeback. For a
        game resumed from its journal (``shown``: what the sensors show now) and a
        position an arbiter set."""
        if state is not None:
            self.state = state
            self.turn_marks = _turn_marks(state)
        if shown is not None:
            self.current.update(shown)
        self._start_turn()
        self.restoring = bool(self.differing)
        self.last_commit = None
        self.held = []

    def restore_cells(self) -> dict[str, str]:
        """While the board is put right: each cell that differs and what it should show."""
        return {c: describe(self.before_pieces[c]) for c in sorted(self.differing)}

    def tick(self, now: float) -> list[Event]:
        """Time passes: a board that stays wrong for ``error_delay`` becomes an error."""
        if self.readings:
            self._feed(lambda reading: reading.tick(now))
            due = self.still_from
            still = due is not None and now >= due + self.error_delay
            if still:
                self.still_from = None  # (once: until the next change or press)
            return self._tick(now) + self._settle(now, still=still)
        return self._tick(now)

    def _tick(self, now: float) -> list[Event]:
        due = self._own_timer()
        if due is not None and now >= due:
            # Only the opponent's pieces taken up, and left so, none of them as a visible
            # turn of the player to move would (an entry bumping it, another touched
            # meanwhile): their turn, after an unseen one of the player to move (a step
            # onto an own piece shows a lift only).
            if not self._turn_begun():
                asked = self._unseen_then_next(now)
                if asked:
                    return asked
            self.error = Error(now, self._error_cells(), self._attackers())
            return [self.error]
        return []

    def _attackers(self) -> tuple[str, ...]:
        """Where the board shows one piece moved (its cell emptied, another filled or its
        piece replaced) as the pieces move but exposing a piece the rules protect: the
        cells of the pieces that could then take it (``GameState.exposed_by``)."""
        empty = self.observe(())
        left = [c for c in self.differing if self.before_pieces[c] and self.current[c] == empty]
        came = [c for c in self.cells if self.current[c] != empty and (
            c in self.differing if not self.before_pieces[c]
            else c not in self.differing and empty in self.seen[c])]
        if len(left) != 1 or len(came) != 1:
            return ()
        return tuple(self.state.exposed_by(left[0], came[0]))

    def next_timer(self) -> float | None:
        """When :meth:`tick` will next have something to say, if nothing else happens."""
        own = self._own_timer()
        if self.readings and self.still_from is not None:
            still = self.still_from + self.error_delay
            return still if own is None else min(own, still)
        return own

    def _own_timer(self) -> float | None:
        if (self.error is None and self.differing and not self._prompt and not self._alive
                and not self.restoring and not self.either):
            return self.last_change + self.error_delay
        return None

    def flush(self, t: float) -> list[Event]:
        """Nothing more will happen (the input has ended): commit a turn that is complete.
        A turn waiting while the next may have begun is committed first, then the next
        turn is read from the changes since and ended the same way (a Teblo pawn onto its
        own block, then the opponent's pawn onto theirs). Decisions still asked after a
        turn's visible part (a Tesulda swap or draw) count as declined, as at the next turn
        or the mover's clock; a question that cannot be declined (which of two moves, a
        decision ``none`` does not answer, whether a turn was made at all) stays open."""
        if self.readings:
            self._feed(lambda reading: reading.flush(t))
            return self._flush(t) + self._settle(t)
        return self._flush(t)

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
        if self._prompt or not pending:
            return []
        return self._commit(pending[0], t) if len(pending) == 1 else self._ask(pending, t)

    # --- decisions ------------------------------------------------------------------

    def _evaluate(self, t: float) -> list[Event]:
        if self._prompt:
            return []  # the question stays open; the answer commits, then the board is read
        if self.restoring:
            self.restoring = bool(self.differing)  # play goes on once the board is put back
            return []
        self.either = False
        alive = self._alive = [c for c in self.alive() if c.text not in self.declined]
        # Silent turns are never complete by themselves: only a clock press (or a question)
        # says one was made.
        complete = [c for c in alive if not c.silent and self.complete(c)]
        for cand in complete:
            self.done_at.setdefault(cand.text, self.batch)
        if self.lifting and complete and self._cleared(complete):
            self.lifting = False  # nothing of a turn in hand: a stray, the pad emptied
        waiting = [c for c in self.pending if c not in complete]
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
            nexts = {c.text: self._next_turn(c) for c in waiting}
            fits = [c for c in waiting if nexts[c.text] is not None]
            if fits and (complete or not self.differing):
                # Two histories the sensors cannot tell apart: this turn went on (or a
                # piece was put back), or it was done and the next one began.
                if self.held_board is None and len(fits[0].ways) == 1:
                    # Made, all that came since it was done is the next turns', in order
                    # (also what comes while it is asked: the next turn may go on).
                    self.held_board, self.since_held = self._since_pending()
                    self.held_for = {c.text for c in fits}
                return self._ask([*fits, *complete], t, declinable=not complete)
            if fits and self.lifting and (any(c not in fits for c in alive) or (
                    not any(c.takes or c.lift for c in waiting) and self._own_taken())):
                # A piece taken up: a longer turn may be under way (a bump), or the turn
                # waiting shows nothing put down, and the mover, whose pieces may still be
                # in hand, touched one of their own.
                return []
            if fits and self._put_back(waiting) and any(c not in fits for c in alive):
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
                return self._commit(fits[0], t) if len(fits) == 1 else self._ask(fits, t)
            if not alive and not self.lifting and len(waiting) == 1 and \
                    len(waiting[0].ways) == 1 and self._later_turns_made(waiting[0]):
                # The board fits no turn begun from the waiting one as it shows now, but
                # the changes since it was done, read in order, are the next player's
                # turn and the one after (the next turn done unseen: a step onto an own
                # piece, no clock pressed): the waiting turn was done. (Not while a piece
                # is only taken up: a longer turn may be under way, the piece touched.)
                return self._commit_since(waiting[0], t)
        if not alive:
            if not self.lifting and not self._prompt:
                asked = self._unseen_then_next(t)
                if asked:
                    return asked
            # Belongs to no turn (an own stone lifted after a claim): the complete turn
            # waits while the board is wrong, and the error timer runs.
            return []
        if len(complete) > 1:
            # A piece held while another left, then a piece put on its cell, is a piece
            # replaced, not one put back: prefer the turns that account for it.
            replaced = self._swapped()
            complete = [c for c in complete if replaced <= c.final.keys()] or complete
            staged = self._staged(complete)
            complete = [c for c in complete if staged <= c.lift.keys()] or complete
            shown = self._stages_shown(complete)  # (the pad: a3-cz, not a3-a2 and a stray)
            complete = [c for c in complete if shown <= c.allowed.keys()] or complete
        if complete and not self.lifting and not self._continuations(alive, complete):
            # (A silent turn of several decisions, a Telec forfeit, is ended by the clock.)
            silent = [c for c in self.candidates if c.silent and not c.ways
                      and c.text not in self.declined and self._next_turn_fits(c)]
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

    def _unseen_then_next(self, t: float) -> list[Event]:
        """A piece put down, or one of the opponent's taken up, that no turn of the player
        to move explains: maybe they made an unseen turn (a Telec forfeit, a stack from the
        stash onto their own) and the opponent's turn has begun. Asked (``none``: no turn
        was made) where the board fits the opponent's turn once one is made."""
        if not any(self.current[c] not in self._in_hand_allowed(c)
                   or self.state.TURN_DECISIONS > 1 and self._owner(c) not in (None, self.player)
                   for c in self.differing):
            return []
        silent = [c for c in self.candidates if c.silent
                  and c.text not in self.declined and self._next_turn_fits(c)]
        if not silent:
            return []
        self.carry_from = 0  # made, what the board showed since is the next's
        return self._ask(silent, t, declinable=True)

    def _turn_begun(self) -> bool:
        """Some cell shows what a visible turn of the player to move has it show midway or
        at its end (a piece it takes up, or puts down)."""
        current = self.current
        return any(current[cell] in c.allowed.get(cell, ()) for c in self.candidates
                   if not c.silent for cell in self.differing)

    def _put_back(self, waiting: list[Candidate]) -> bool:
        """The last scan only put pieces back where the ``waiting`` turns change nothing:
        each cell it changed shows what it showed when the turn began."""
        return all(self.current[c] == self.before[c] and
                   not any(c in w.final for w in waiting) for c in self.batch_cells)

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

    def _hold_from_done(self, text: str) -> None:
        """The turn ``text``, one the board is held for, is made: if it was done before the
        board was held (a step onto an own piece, then the next turns, partly unseen, one
        of them looking like a longer turn of the mover's), the board is held from then
        instead: all that came since is the next turns'."""
        done = self.done_at.get(text)
        if done is not None and done <= self.batch - len(self.since_held):
            self.pending_since = done
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
        nxt = self._tracker_from(self._made(cand), board)
        events: list[Event] = []
        for _, when, changes, _ in self.batches:
            events += nxt.changes(changes, when)
        return bool(nxt.complete_turns()) or any(isinstance(e, Committed) for e in events)

    def _since_pending(self) -> tuple[dict[str, Hashable], list[tuple[list, float]]]:
        """The board when the waiting turn was done, and the scans' changes since."""
        board = dict(self.current)
        since = [(n, t, changes, prev) for n, t, changes, prev in self.batches
                 if n > self.pending_since]
        for _, _, _, prev in reversed(since):
            board.update(prev)
        return board, [(changes, t) for _, t, changes, _ in since]

    def _later_turns_made(self, cand: Candidate) -> bool:
        """Once ``cand`` is made, would the changes since it was done, read in order from
        the board then, leave the following turns consistent (a turn in progress, done,
        or asked about) where they left this one with none?"""
        board, since = self._since_pending()
        if not since:
            return False
        nxt = self._tracker_from(self._made(cand), board)
        for changes, t in since:
            nxt.changes(changes, t)
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
        replaced = self._swapped()
        shown = self._stages_shown(complete)
        return any(replaced <= cand.final.keys() and shown <= cand.allowed.keys()
                   and self._may_arrive(cand, replaced)
                   for cand in alive if cand not in complete)

    def _cleared(self, complete: list[Candidate]) -> bool:
        """The last scan only took away pieces put down this turn where no ``complete``
        turn leaves one: a stray put right, a piece leaving by the Center Zone's pad."""
        empty = self.observe(())
        return all(self.before[cell] == empty == self.current[cell]
                   and all(c.final.get(cell, empty) == empty for c in complete)
                   for cell in self.batch_cells)

    def _stages_shown(self, complete: list[Candidate]) -> set[str]:
        """The cells where the board has shown a stage of one of the ``complete`` turns (a
        piece put on the Center Zone's pad and taken away)."""
        return {cell for c in complete for cell in c.passing if len(self.seen[cell]) > 1}

    def _may_arrive(self, cand: Candidate, replaced: set[str]) -> bool:
        """The piece now on each ``replaced`` cell may be ``cand``'s: it comes from the
        stock, or a piece of ``cand`` left its cell before it was put there."""
        if cand.stock:
            return True
        for cell in replaced & cand.lift.keys():
            arrival = self.history[cell][-1][0]
            if not any(self._departure(other) <= arrival
                       for other, visible in cand.gives if visible and other != cell):
                return False
        return True

    def _swapped(self) -> set[str]:
        """Cells showing their start again whose piece was lifted before the piece that
        would replace it left its own cell, and a piece put there after: held across that,
        it is not the same piece put back (an enemy taken, then the shooter moved onto its
        cell). A piece lifted and put back otherwise may be a touch."""
        out = set()
        for cand in self._alive:
            for cell in cand.lift:
                hist = self.history.get(cell, ())
                if cell in self.differing or len(hist) < 2:
                    continue
                back = hist[-1][0]
                held, before = self._in_hand_allowed(cell), self.before[cell]
                # the last time the piece left before it came back (not an earlier touch)
                first = max((n for n, v in hist if n < back and v != before and v in held),
                            default=float("inf"))
                if any(first < self._departure(other) <= back
                       for other, visible in cand.gives if visible and other != cell):
                    out.add(cell)
                elif cand.ways and cand.stock:
                    # A turn of several decisions entering a piece from the stash onto an
                    # enemy it bumps (Telec): the piece put there is the entering one.
                    out.add(cell)
        return out

    def _staged(self, complete: list[Candidate]) -> set[str]:
        """Cells whose piece was lifted and one put there again once the earlier stages of
        a complete turn were done: that turn's later stage (a Tulaga reap replacing a rank
        stone), not a touch. A lift before then is a touch."""
        out = set()
        for cand in complete:
            for cell, stage in cand.first_step.items():
                hist = self.history.get(cell, ())
                if cell not in cand.lift or cell in self.differing or len(hist) < 2:
                    continue
                left = max((n for n, v in hist if v != self.before[cell]), default=0)
                earlier = [n for c in cand.final if cand.first_step.get(c, 0) < stage
                           for n, _ in self.history.get(c, ())]
                if left and all(n < left for n in earlier):
                    out.add(cell)
        return out

    def _forward(self, cand: Candidate) -> bool:
        """``cand`` needs no cell undone: no piece it takes away was lifted and put back
        (the Tulaga rank stone just placed on c1 rules out the claims that put it on a1)."""
        before, current, seen, final = self.before, self.current, self.seen, cand.final
        return not any(
            final[cell] != before[cell] and current[cell] == before[cell] and len(seen[cell]) > 1
            for cell, _ in cand.gives if cand.before.get(cell)
        )

    def _next_turn_made(self, cand: Candidate, board: dict[str, Hashable] | None = None,
                        since: list[tuple[list, float]] | None = None) -> bool:
        """Once ``cand`` is made, would the changes since the board was held (or since
        ``board``) make (or ask about) a turn of the next player's, rather than be a
        touch?"""
        nxt = self._tracker_from(self._made(cand), board or self.held_board or self.current)
        events: list[Event] = []
        for changes, t in self.since_held if since is None else since:
            events += nxt.changes(changes, t)
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

    def _next_turn(self, cand: Candidate) -> Tracker | None:
        """The next player's turn once ``cand`` is made, begun from what the board shows
        now, if the board fits it."""
        return self._fits(self._made(cand))

    def _made(self, cand: Candidate, decline: bool = True) -> rules.GameState:
        """The position once ``cand`` is made: its first way, for a turn of several, and
        the decisions after it that have only one option, or (``decline``) that ``none``
        answers, as when the next player starts (while one cannot be declined, it is
        still the mover's turn)."""
        state = self.state.clone()
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
        return Tracker(state, self.observe, self.error_delay, self.blind, board=board,
                       turn_marks=[*self.turn_marks, self.turn_start],
                       listing=self._listed.get(tuple(state.move_stack[self.turn_start:])))

    def _fits(self, state: rules.GameState) -> bool:
        """Would what the board shows now be a turn in progress from ``state``?"""
        nxt = self._tracker_from(state, self.current)
        nxt._alive = nxt.alive()
        return nxt if nxt._alive else None

    def complete_turns(self) -> list[Candidate]:
        """The visible turns in progress that the board shows complete."""
        return [c for c in self._alive if not c.silent and self.complete(c)]

    def _ask(self, options: list[Candidate], t: float, declinable: bool = False,
             ) -> list[Event]:
        """A question: which of ``options`` was made; ``none`` declines them all. Turns of
        several decisions are asked one decision at a time (``declinable``: the first of
        those questions offers ``none`` too, for no turn made at all)."""
        if all(c.ways for c in options):
            self.last_commit, self.asked = (options[0], t), options
            self.asked_at = len(self.state.move_stack)
            self.no_turn = declinable or any(self._like_a_touch(c) for c in options)
            self.asked_batch = self.batch
            return self._advance([w for c in options for w in c.ways], t)
        self.pending = options
        self._prompt = Prompt(t, [*sorted({c.text for c in options}), NONE])
        self.questioned = self.batch if self.questioned is None else self.questioned
        self._read_each(t)
        return [self._prompt]

    def _commit(self, cand: Candidate, t: float) -> list[Event]:
        self.last_commit, self.asked = (cand, t), [cand]
        self.asked_at = len(self.state.move_stack)
        self.no_turn = self._like_a_touch(cand)
        self.asked_batch = self.batch
        return self._advance(list(cand.ways) or [Turn((cand.move,))], t)

    def _error_cells(self) -> dict[str, str]:
        # The fewest wrong cells; on a tie, blame a piece put down over a piece in hand.
        best: dict[str, str] | None = None
        best_key = None
        # A turn that was complete and waiting is what the player most likely meant.
        for cand in self.pending or [c for c in self.candidates if c.text not in self.declined]:
            wrong = self.mismatch(cand)
            key = (len(wrong), sum(1 for v in wrong.values() if v != "empty"))
            if best_key is None or key < best_key:
                best, best_key = wrong, key
        if best is None:  # the game is over: the board should stay as it ended
            best = {c: describe(self.before_pieces[c]) for c in self.differing}
        return dict(sorted(best.items()))

    # --- what the LEDs and views need ---------------------------------------------------

    def occupied(self, cell: str) -> bool:
        """Whether the sensor of ``cell`` shows anything there now."""
        return self.current[cell] != self.observe(())

    def pieces_now(self, cell: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What stands on ``cell`` as far as the tracker can tell, and what of its pieces is
        in hand: the longest part of the turn's start stack the sensor agrees with; a piece
        put down where none was is ``("?",)`` until a move says what it is."""
        before = self.before_pieces[cell]
        for k in range(len(before), -1, -1):
            if self.observe(before[:k]) == self.current[cell]:
                return before[:k], before[k:]
        return (*before, "?"), ()

    def danger(self) -> list[str]:
        """The pieces threatening one the side to move must protect (a Tesulda Prime in
        danger), worked out once a turn."""
        if self._danger is None:
            self._danger = [] if self.state.outcome() else self.state.danger_cells()
        return self._danger

    def lifted(self) -> list[str]:
        """Cells whose pieces (some of them) are in hand."""
        return sorted(c for c in self.differing if self.current[c] in self._in_hand_allowed(c))

    def targets(self) -> dict[str, str]:
        """What the turn in progress still needs: cell -> "move" (a piece may go there),
        "capture" (a piece there may be replaced) or "lift" (a piece there may leave)."""
        if not self.differing:
            return {}
        rank = {"lift": 0, "dodge": 1, "move": 2, "capture": 3}
        out: dict[str, str] = {}
        alive, in_hand = self._alive, bool(self.lifted())
        for cand in [c for c in alive if self._forward(c)] or alive:
            for cell, (b, a) in self._next_step(cand).items():
                common = common_prefix(b, a)
                replaced = len(common) < len(b) and self.observe(common) not in self.seen[cell]
                kind = "capture" if a and replaced else "move" if a else "lift"
                if kind == "move" and cand.detour:
                    kind = "dodge"  # only by a Dodger's second leg
                if rank[kind] >= rank.get(out.get(cell, "lift"), 0):
                    out[cell] = kind
            if in_hand:
                # While a piece is in hand, also where it may go unseen: onto a piece the
                # sensor already sees there (a stack), or where there is no sensor.
                on_top = [c for c, a in cand.after.items() if len(a) > len(cand.before[c])
                          and a[:len(cand.before[c])] == cand.before[c]
                          and cand.final[c] == self.before[c]]
                for cell in (*on_top, *cand.unseen):
                    out.setdefault(cell, "move")
        return out

    def _next_step(self, cand: Candidate) -> dict[str, tuple[tuple, tuple]]:
        """The cells of the first stage of ``cand`` not yet carried out, with their pieces
        before and after that stage (a Tulaga claim: its stones and the rank point first,
        the reap after)."""
        return self._stage(cand)[1]

    def _stage(self, cand: Candidate) -> tuple[int, dict[str, tuple[tuple, tuple]]]:
        """The index of the first stage of ``cand`` not yet carried out, and its cells."""
        observe, current, seen = self.observe, self.current, self.seen
        prev = cand.before
        steps = cand.steps
        for k, step in enumerate(steps):
            todo = {}
            for cell, pieces in step.items():
                was = prev.get(cell, self.before_pieces[cell])
                if pieces == was:
                    continue
                value = observe(pieces)
                common = common_prefix(was, pieces)
                lifted = len(common) in (len(was), len(pieces)) or observe(common) in seen[cell]
                later = set()
                for a, b in zip(steps[k:], steps[k + 1:], strict=False):
                    later |= {observe(common_prefix(a[cell], b[cell])), observe(b[cell])}
                later.discard(value)
                done = current[cell] == value or value in seen[cell] and current[cell] in later
                if not (lifted and done):
                    todo[cell] = (was, pieces)
            if todo:
                return k, todo
            prev = {**prev, **step}
        return len(steps), {}

    # --- turns of several decisions -------------------------------------------------------

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
            nxt = {w[0] for w in ways}
            # (``none`` to a later question could be a decision, not "no turn": ask now)
            if len(nxt) == 1 and not (self.no_turn and (len(ways[0]) == 1 or any(
                    len(w) > 1 and self.state.move_str(w[1]) == NONE for w in ways))):
                out += self._push_decision(ways[0][0], t)
                ways = [Turn(w[1:]) for w in ways]
                continue
            self.deciding = ways
            order = self._next_decisions()
            options = [self.state.move_str(m) for m in sorted(nxt, key=order.index)]
            if self.no_turn and NONE not in options:
                options.append(NONE)
            self._prompt = Prompt(t, options)
            self.questioned = self.batch if self.questioned is None else self.questioned
            self.asked_board = dict(self.current)
            return [*out, self._prompt]

    def _answer(self, value: str, t: float) -> list[Event]:
        """An answer to a decision's prompt: the decision's notation."""
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
        return bool(cand.ways) and not cand.silent and all(
            value == self.before[cell] for cell, value in cand.final.items())

    def _no_turn(self, t: float) -> list[Event]:
        """``none`` to the first question about unseen turns: none was made. The decisions
        the question took for granted are undone; the board is read again."""
        while len(self.state.move_stack) > self.asked_at:
            self.state.pop()
        self._prompt, self.deciding, self.no_turn, self.held_rolls = None, None, False, []
        self.pending, self.carry_from = [], None
        self.declined = {c.text for c in self.asked}
        self._forget_done(self.declined)
        # What was lifted and put back was touched: where the turns asked were like a
        # touch (an entry bumping a single), only there (a bump elsewhere still stands).
        touched = {c for a in self.asked if self._like_a_touch(a) for c in a.final}
        for cell in self.cells:
            if cell not in self.differing and (not touched or cell in touched):
                self.history.pop(cell, None)
                self.seen[cell] = {self.current[cell]}
        self.last_change = t
        return self._evaluate(t)

    def _while_deciding(self, t: float) -> list[Event]:
        """A change while a decision of the turn is asked. A piece touched (lifted, put
        back) leaves the question open; a piece put down that the turn does not explain,
        where ``none`` is offered, declines: if the board shows a visible turn of the
        player asked instead of the unseen one they were asked about, or the next turn
        begun once the question is declined (it is then read as part of that turn). After
        the visible part of the turn, see :meth:`_while_choosing`."""
        if self._prompt is not None and self.current == self.asked_board:
            # A piece touched since it was asked, put back: it stays open (unless that
            # was another turn of the mover's done, :meth:`_another_done`).
            return self._another_done(t) if self.after_visible else []
        if self.after_visible:
            return self._while_choosing(t)
        if self._prompt is None or NONE not in self._prompt.options or not any(
                self.current[c] not in self._in_hand_allowed(c) for c in self.differing):
            return []
        visible = any(not c.silent and self.consistent(c) for c in self.candidates)
        if self.no_turn:
            if not visible:
                return []
            self.held = []  # presses meant for the unseen turn
            return self._answer(NONE, t)
        state = self.state.clone()
        state.push(state.parse_move(NONE))
        if visible or decisions.in_turn(state, self.player) or not self._fits(state):
            return []
        return self.choose(NONE, t)

    def _next_decisions(self) -> list:
        """The decisions the position offers now, in their order (a chance node's outcomes)."""
        return [m for m, _ in self.state.chance_outcomes()] or self.state.legal_moves()

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
        if self.lifting or any(self.consistent(c) and self.complete(c) for c in self.asked):
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
                       and c not in self.asked and not c.silent and self.complete(c)]
        nxt = self._declined_tracker()
        next_turn = nxt is not None and bool(nxt.alive())
        if next_turn and not goes_on:
            return [] if self._touched_meanwhile(nxt) else self._decline_rest(t)
        if goes_on and not next_turn:
            while len(self.state.move_stack) > self.turn_start:
                self.state.pop()
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
        if self.lifting or self.no_turn:
            return []
        others = [c for c in self.alive() if c not in self.asked and not c.silent
                  and c.text not in self.declined and self.complete(c)]
        if not others:
            return []
        asked = [c for c in self.asked if self.consistent(c) and self.complete(c)]
        while len(self.state.move_stack) > self.turn_start:
            self.state.pop()
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
                nxt = Tracker(state, self.observe, self.error_delay, self.blind)
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

    def _end_turn(self, t: float, since: int | None = None) -> list[Event]:
        """Commit the turn; the next one begins. ``since``: the next turn began after that
        batch of changes (the opponent started while a question was open), so what the
        cells showed since belongs to it (a piece lifted to be taken)."""
        state = self.state
        turn = Turn(state.move_stack[self.turn_start:])
        if since is None:
            since = self.carry_from
        self.turn_marks.append(self.turn_start)
        text = decisions.text(state, turn)
        events = [*self.held_rolls, Committed(t, len(self.turn_marks), self.player, text)]
        history = self.history
        held = [h for h in self.held_for if text == h or text.startswith(h + " ")]
        if self.held_board is not None and held:
            # Asked while the board was held for it (the piece put back may have been the
            # next turn's): done as of that board, the changes since are the next turn's.
            self._hold_from_done(held[0])
            board, replay = self.held_board, self.since_held
            self.current = dict(board)
            self._next_position(turn)
            self.last_change = t
            return events + self._replay(replay, t)
        carried = {} if since is not None else self._carried(turn)
        self._next_position(turn)
        if since is not None:
            for cell, hist in history.items():
                later = [(n, v) for n, v in hist if n > since]
                if later:
                    self.history[cell] = [(0, self.before[cell]), *later]
                    self.seen[cell].update(v for _, v in later)
        for cell, hist in carried.items():
            self.history[cell] = hist
            self.seen[cell] |= {value for _, value in hist}
        self.last_change = t
        return [*events, *self._evaluate(t)] if self.differing or carried else events

    def _carried(self, turn: Turn) -> dict[str, list[tuple[int, Hashable]]]:
        """What cells showed after ``turn`` was done, before anything was asked: the next
        turn's (a piece lifted there and put back: an entry bumping it, the start of a
        capture); not a touch while a question was open. Where the turn changes a cell,
        only what came after it was done there (a Telec turn of several decisions: after
        the way made, not the others asked with it)."""
        after = self.state.physical()
        changed = {c for c in self.cells if after.get(c, ()) != self.before_pieces[c]}
        made = [c for c in self.asked if turn in c.ways or Turn((c.move,)) == turn]

        def done(cands: list[Candidate]) -> int:
            return min((self.done_at[c.text] for c in cands if c.text in self.done_at),
                       default=self.pending_since or self.batch)

        since_any, since_made = done(self.asked), done(made)
        several = self.state.TURN_DECISIONS > 1
        asked = self.questioned if self.questioned is not None else self.batch
        out = {}
        for cell, hist in self.history.items():
            if cell in changed and not several:
                continue
            start = since_made if cell in changed else since_any
            later = [(n, v) for n, v in hist if start < n <= asked]
            if len(later) > 1:
                out[cell] = later
        return out

    def _next_position(self, turn: Turn) -> None:
        """The next turn begins, after ``turn``; with its turns listed if an idle scan
        listed them while ``turn`` waited. The lists of the turn that ended (its own, the
        next positions of its other ways) are let go in the next idle scan
        (:meth:`prepare`), not at this event: freeing them takes about as long as the
        rest of the event."""
        listing = self._listed.get(tuple(turn))
        self._spent.append((self._candidates, self._listed, self._silent))
        self._start_turn(listing)

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

    # --- an opponent's turn, expected ---------------------------------------------------

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

    def turns(self) -> list[str]:
        """The committed turns' notations, oldest first (a turn of several decisions is
        one entry: ``roll 4 6``)."""
        stack = self.state.move_stack[:self.turn_start]
        ends = [*self.turn_marks[1:], len(stack)] if self.turn_marks else []
        return [decisions.text(self.state, Turn(stack[a:b]))
                for a, b in zip(self.turn_marks, ends, strict=True)]

    def buttons(self) -> list[str]:
        """The buttons this board offers: ``roll`` only with an electronic die."""
        return [b for b in BUTTONS if b != "roll" or self.dice is not None]

    def roll_cells(self) -> list[str]:
        """After the board's die has rolled: the cells where the turn may now go on."""
        if self.rolled is None or self.differing:
            return []
        return sorted({cell for cand in self.candidates for cell in cand.final})

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
