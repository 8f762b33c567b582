"""The read model of the turn: one frozen :class:`TurnView` per change of the tracker.

The hint planner, the guidance words, the terminal and the page read only this; none of
them reads the tracker. A view is taken with :meth:`boards.tracker.Tracker.view` (built
by :func:`view_of` from the tracker's public state) and never changes afterwards: a
later event gives a new view.

The phase of the turn (the tracker keeps it, :mod:`boards.phases`), in the order it wins
when several hold:

======================  ==========================================================
``Phase.RESTORING``     a move taken back (or a position set): put the board as shown
``Phase.ERROR``         no legal turn explains the board: ``error`` names the cells
``Phase.ASKING``        a question is open: ``question``
``Phase.OVER``          the game has ended and the board shows its end
``Phase.HELD``          a complete turn waits because it may still go on
``Phase.MOVING``        a turn is in progress on the board
``Phase.IDLE``          the player to move has not touched a piece yet
======================  ==========================================================
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import countOf, itemgetter
from typing import TYPE_CHECKING, NamedTuple

import rules

from . import decisions
from .constants import NONE
from .events import question_key
from .phases import Phase

if TYPE_CHECKING:
    from .tracker import Tracker

Pieces = tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """One answer a question offers: its notation, the cells it changes on the board (lit
    while it is on offer) and, where options light the same cells (the sizes of one
    entry), how many times its cells pulse (0: steady)."""

    value: str
    cells: frozenset[str] = frozenset()
    pulses: int = 0


@dataclass(frozen=True)
class Question:
    """The open question. ``player`` is the one asked (their clock confirms the option on
    offer); ``no_turn``: ``none`` says no turn was made (else it declines a decision of
    the position); ``asked_at`` tells one question from the next; ``offered``: the
    option the board's ``hint`` button has put on offer (None until it is pressed).
    ``about``: the cells of the turn asked about. The cells of a decision's options are
    worked out when they are first needed (``placed``: they are), not at the event that
    raised the question; so are those of the turn asked about, where the board made the
    question (:func:`_question`: only the LEDs read them, and only while they are lit)."""

    options: tuple[Option, ...]
    player: str
    no_turn: bool
    asked_at: float
    # (a factory, not a default: no class attribute, so that __getattr__ sees it unset)
    about: frozenset[str] = field(default_factory=frozenset)
    placed: bool = True
    offered: int | None = None

    def __getattr__(self, name: str) -> object:
        # Only ``about`` of a question made by _question: worked out at its first read
        # from what was kept of the view it was made for (``_about``), and kept.
        about = self.__dict__.get("_about") if name == "about" else None
        if about is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = self.__dict__["about"] = about()
        return value

    @cached_property
    def values(self) -> tuple[str, ...]:
        return tuple(o.value for o in self.options)

    @property
    def key(self) -> str:
        """The question's key (:func:`boards.events.question_key`): an answer that names
        it is refused once another question has taken its place."""
        return question_key(self.asked_at, self.values)

    @property
    def on_offer(self) -> Option | None:
        return None if self.offered is None else self.options[self.offered]

    def offering(self, index: int | None) -> Question:
        return replace(self, offered=index)


@dataclass(frozen=True)
class TurnView:
    """The turn as the tracker reads it, for everything that shows it.

    Cells are read with :meth:`pieces` (what stands there, what of it is in hand),
    :meth:`shown` (the same, after decisions the turn has already taken) and
    :meth:`present`. ``state`` is the game as it stands (read it, never push to it).
    """

    state: rules.GameState = field(compare=False, repr=False)
    phase: Phase
    player: str  # whose turn is being read
    differing: frozenset[str]  # the cells whose sensors differ from the turn's start
    # those cells in board order: on the board, in hand, sensed
    reading: tuple[tuple[str, Pieces, Pieces, bool], ...]
    decided: tuple[tuple[str, Pieces], ...]  # cells the turn's decisions changed, as shown
    touched: frozenset[str]  # cells that showed more than one thing this turn
    after_visible: bool  # the turn's visible part is done: only its questions are left
    lifted: tuple[str, ...]
    targets: tuple[tuple[str, str], ...]  # cell -> move / capture / lift / dodge
    danger: tuple[str, ...]  # the pieces that could take the mover's protected piece
    restore: tuple[tuple[str, str], ...]  # while restoring: cell -> what it should show
    error: tuple[tuple[str, str], ...] | None  # cell -> "empty" or the pieces it should hold
    attackers: tuple[str, ...]  # with an error: the pieces that could take the Prime
    question: Question | None
    stray: tuple[tuple[str, str], ...]  # pieces of the side not to move in hand, no turn fits
    waiting: tuple[str, ...]  # held: the complete turns that wait (which one, if several)
    holding: tuple[str, ...]  # held: the cells those turns change, in board order
    last: tuple[frozenset[str], float] | None  # the last turn's cells and when it was made
    hint_until: float
    hint_cells: tuple[str, ...]  # what ``hint`` lights while it shows
    rolled: str | None  # the board's die has rolled this, this turn
    roll_cells: tuple[str, ...]
    buttons: tuple[str, ...]
    turn_bounds: tuple[int, ...]  # where each turn begins in the move stack, then the next
    _turns: tuple = field(compare=False, repr=False)  # the committed turns' decisions
    _at: At = field(compare=False, repr=False)
    _tracker: Tracker | None = field(compare=False, repr=False)  # (see lazy)
    _prev: At | None = field(compare=False, repr=False)  # an earlier view's, if it had one

    def __getattr__(self, name: str) -> object:
        # Only for a field not worked out when the view was made (:data:`_LATER`): it is
        # worked out at its first read, and kept.
        later = _LATER.get(name)
        if later is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = self.__dict__[name] = later(self)
        return value

    @property
    def lazy(self) -> bool:
        """Made with ``lazy`` (for the LEDs, which read only their roles): the other
        fields are worked out from the tracker when first read, right only until it
        changes, so such a view is never handed out."""
        return self.__dict__["_tracker"] is not None

    def complete(self) -> TurnView:
        """This view with every field worked out."""
        if self.lazy:
            for name in _LATER:
                getattr(self, name)
            self.__dict__["_tracker"] = self.__dict__["_prev"] = None
        return self

    @property
    def held(self) -> bool:
        """A complete turn waits because it may still go on (the mover's clock ends it)."""
        return self.phase is Phase.HELD

    @cached_property
    def start(self) -> tuple[tuple[str, Pieces], ...]:
        """The occupied cells when the turn began, in board order (worked out when first
        read: a view after every turn would otherwise go through every cell)."""
        return tuple(filter(itemgetter(1), self._at.before.items()))

    @cached_property
    def _reading(self) -> dict[str, tuple[Pieces, Pieces, bool]]:
        return {cell: rest for cell, *rest in self.reading}

    @cached_property
    def _decided(self) -> dict[str, Pieces]:
        return dict(self.decided)

    def before(self, cell: str) -> Pieces:
        """What stood on ``cell`` when the turn began."""
        return self._at.before.get(cell, ())

    def pieces(self, cell: str) -> tuple[Pieces, Pieces]:
        """What stands on ``cell`` as far as the sensors tell, and what of it is in hand."""
        if cell in self._reading:
            on_board, held, _ = self._reading[cell]
            return on_board, held
        return self.before(cell), ()

    def shown(self, cell: str) -> tuple[Pieces, Pieces]:
        """:meth:`pieces`, but where the turn's decisions changed a cell the sensors agree
        with (a Tesulda figure that has taken pieces), the pieces as decided."""
        decided = self._decided
        return (decided[cell], ()) if cell in decided else self.pieces(cell)

    def present(self, cell: str) -> bool:
        """Whether the sensor of ``cell`` shows anything there now."""
        if cell in self._reading:
            return self._reading[cell][2]
        return bool(self.before(cell))

    @cached_property
    def moves(self) -> tuple[str, ...]:
        """The committed turns' notations, oldest first (``roll 4 6`` is one turn)."""
        stack, bounds = self._turns, self.turn_bounds
        return tuple(decisions.text(self.state, decisions.Turn(stack[a:b]))
                     for a, b in zip(bounds, bounds[1:], strict=False))


def view_of(tracker: Tracker, previous: TurnView | None = None,
            option_cells: bool = False, lazy: bool = False) -> TurnView:
    """The view of ``tracker`` as it stands (``previous``: the view before, whose
    question is kept while the same one stays open; ``option_cells``: work out the
    cells of a decision's options now; ``lazy``: only the fields the LEDs read, the
    others when first read, see :attr:`TurnView.lazy`)."""
    state = tracker.state
    # The At of a view before (kept for its changed cells, see _at_now), and this one's
    # only where a question asks for it now (else in _LATER).
    known = None if previous is None else previous.__dict__.get("_at") or previous._prev
    differing = frozenset(tracker.differing)
    at = question = None
    if tracker.prompt is not None:
        at = _at_now(tracker, known, state.move_stack)
        changed = at.changed  # (none: a roll, a die's face; the about cells are known)
        question = _question(tracker, previous.question if previous else None, option_cells,
                             (lambda: differing | {c for c, _ in changed}) if changed
                             else differing)
    phase = tracker.phase  # kept by the tracker: boards/phases.py
    # The turn's own LED roles, only where the planner shows them (see hints.plan); the
    # phase compared by identity (an enum's hash is a Python call).
    roll_cells = tuple(tracker.roll_cells()) if tracker.rolled is not None else ()
    roles = (phase is Phase.MOVING or phase is Phase.IDLE or phase is Phase.HELD) \
        and not roll_cells
    error, held = tracker.error, phase is Phase.HELD
    hint = tracker.hint_until > tracker.last_change and not differing and not state.outcome()
    lifted = tracker.lifted() if roles and differing else []
    last = tracker.last_commit
    if last is not None:
        before = previous.last if previous else None
        last = before if before is not None and before[1] == last[1] else (
            frozenset(last[0].final), last[1])
    # A dict display, not keywords: see _make. The fields of _LATER are left out.
    view = _make({
        "state": state, "phase": phase, "differing": differing, "lifted": tuple(lifted),
        "targets": tuple(tracker.targets(lifted).items()) if roles and differing else (),
        "danger": tuple(tracker.danger()) if roles else (),
        "restore": tuple(tracker.restore_cells().items()) if tracker.restoring else (),
        "error": None if error is None else tuple(error.cells.items()),
        "attackers": () if error is None else tuple(error.attackers), "question": question,
        "hint_until": tracker.hint_until,
        "holding": _holding(tracker, _order(tracker.cells)) if held else (),
        "last": last, "hint_cells": tuple(state.hint_cells()) if hint else (),
        "rolled": tracker.rolled, "roll_cells": roll_cells,
        "buttons": previous.buttons if previous else tuple(tracker.buttons()),  # (fixed)
        "_prev": known, "_tracker": tracker})
    if at is not None:
        view.__dict__["_at"] = at
    return view if lazy else view.complete()


_NOTHING: frozenset[str] = frozenset()


def _reading(tracker: Tracker, differing: frozenset[str]
             ) -> tuple[tuple[str, Pieces, Pieces, bool], ...]:
    """The cells that differ from the turn's start, in board order: on the board, in hand,
    sensed."""
    order = _order(tracker.cells)
    return tuple((c, *tracker.pieces_now(c), tracker.occupied(c))
                 for c in sorted(differing, key=order.__getitem__))

def _holding(tracker: Tracker, order: dict[str, int]) -> tuple[str, ...]:
    """The cells the complete turns waiting change (each turn's start to its end)."""
    cells = {cell for c in tracker.pending for cell in c.after.keys() | c.before.keys()
             if c.after.get(cell, ()) != c.before.get(cell, ())}
    return tuple(sorted(cells, key=order.__getitem__))


_ORDERS: dict[int, tuple[tuple[str, ...], dict[str, int]]] = {}


def _order(cells: tuple[str, ...]) -> dict[str, int]:
    """Each cell's place in the board's order (kept by the tuple's identity: hashing a
    board's cells at every view would cost more than the rest of the reading)."""
    known = _ORDERS.get(id(cells))
    if known is None or known[0] is not cells:
        known = _ORDERS[id(cells)] = (cells, {cell: k for k, cell in enumerate(cells)})
    return known[1]


def _make(fields: dict[str, object]) -> TurnView:
    # A frozen dataclass's __init__ sets its fields one by one through object.__setattr__,
    # which at one view per event would cost as much as the rest of the view: ``fields``
    # (every field, in a dict of the caller's own) becomes the view's __dict__ instead.
    view = object.__new__(TurnView)
    object.__setattr__(view, "__dict__", fields)
    return view


class At(NamedTuple):
    """What a view keeps of the tracker as it was (the tracker goes on changing): the
    turn's start (each cell's pieces; the tracker makes a new dict for each turn), the
    game's decisions (a copy), where the turn began and where each earlier turn did, the
    decisions taken this turn and the cells they changed (cell, pieces now)."""

    before: dict
    stack: list
    start_at: int
    marks: tuple[int, ...]
    taken: tuple
    changed: tuple[tuple[str, Pieces], ...]


def _at_now(tracker: Tracker, previous: At | None, stack: list) -> At:
    """The :class:`At` of ``tracker`` (``stack``: a copy of the game's decisions), the
    changed cells kept from the view before while the same decisions of the same turn
    stand: only they need the position's pieces."""
    before, start_at = tracker.before_pieces, tracker.turn_start
    taken = tuple(stack[start_at:])
    if not taken:
        changed: tuple = ()
    elif previous is not None and previous.before is before and previous.taken == taken:
        changed = previous.changed
    else:
        changed = _changed(before, tracker.state.physical())
    return At(before, stack, start_at, tuple(tracker.turn_marks), taken, changed)


def _changed(before: dict, phys: dict) -> tuple[tuple[str, Pieces], ...]:
    """The cells whose pieces differ between ``before`` (every cell) and ``phys`` (the
    position's pieces, empty cells left out), in cell order."""
    if phys.items() <= before.items() and len(phys) - countOf(phys.values(), ()) \
            == len(before) - countOf(before.values(), ()):
        # Each occupied cell as it was, and as many occupied: no cell changed (a roll,
        # a die's face). Both counts and the comparison run in C.
        return ()
    now = dict.fromkeys(before, ())  # (every cell: the turn's start names them all)
    now.update(phys)
    return tuple(sorted(now.items() - before.items()))


def _decided(view: TurnView) -> tuple[tuple[str, Pieces], ...]:
    """The cells the turn's decisions changed that the sensors agree with."""
    tracker, changed = view._tracker, view._at.changed
    return tuple((c, p) for c, p in changed
                 if tracker.observe(p) == tracker.current[c]) if changed else ()


def _touched(view: TurnView) -> frozenset[str]:
    tracker = view._tracker
    return frozenset(c for c in tracker.history if len(tracker.seen[c]) > 1) \
        if tracker.history else _NOTHING


#: The fields the LEDs never read: a view made with ``lazy`` works each out when first
#: read (see :attr:`TurnView.lazy`), from the tracker or the view's own values.
_LATER: dict[str, Callable[[TurnView], object]] = {
    "player": lambda view: view._tracker.player,
    "reading": lambda view: _reading(view._tracker, view.differing) if view.differing else (),
    "decided": _decided,
    "touched": _touched,
    "after_visible": lambda view: view._tracker.after_visible and bool(view._at.taken),
    "stray": lambda view: _stray(view._tracker, view.reading) if view.reading else (),
    "waiting": lambda view: tuple(c.text for c in view._tracker.pending) if view.held
    else (),
    "_at": lambda view: _at_now(view._tracker, view._prev, view._tracker.state.move_stack),
    "turn_bounds": lambda view: (*view._at.marks, view._at.start_at),
    "_turns": lambda view: tuple(view._at.stack[:view._at.start_at]),
}


def _stray(tracker: Tracker, reading: tuple) -> tuple[tuple[str, str], ...]:
    """Pieces of the side not to move in hand, where no turn explains the board (an error
    is shown or due: :meth:`Tracker.next_timer`)."""
    state = tracker.state
    if tracker.prompt or tracker.restoring or not reading:
        return ()
    wrong = tuple((cell, piece) for cell, _, held, _ in reading for piece in held
                  if _owner(piece, state.PLAYERS) not in (None, state.to_move))
    if not wrong or state.outcome() is not None:
        return ()
    return wrong if tracker.error is not None or tracker.next_timer() is not None else ()


def _owner(piece: str, players: tuple[str, ...]) -> str | None:
    side = piece.split("-")[0]
    return side if side in players else None


def _question(tracker: Tracker, previous: Question | None, option_cells: bool,
              about: frozenset[str] | Callable[[], frozenset[str]]) -> Question | None:
    prompt = tracker.prompt
    if prompt is None:
        return None
    values = tuple(prompt.options)
    same = previous is not None and previous.asked_at == prompt.t and previous.values == values
    if same and (previous.placed or not option_cells):
        return previous
    placed = tracker.deciding is None or option_cells
    if placed:
        cells = _option_cells(tracker, values)
        options = tuple(Option(v, cells.get(v, _NOTHING), _pulses(v, cells)) for v in values)
    else:
        options = _unplaced(values)
    # Made as _make makes a view (no frozen __init__); ``about`` when first read, where
    # it is to be worked out.
    question = object.__new__(Question)
    object.__setattr__(question, "__dict__", {
        "options": options, "player": tracker.player,
        "no_turn": tracker.deciding is None or tracker.no_turn, "asked_at": prompt.t,
        "placed": placed, "offered": previous.offered if same else None, "values": values,
        "_about" if callable(about) else "about": about})
    return question


@functools.lru_cache(maxsize=64)
def _unplaced(values: tuple[str, ...]) -> tuple[Option, ...]:
    """The options of a decision whose cells are not worked out yet (the same few sets of
    values come again and again: a pyramid's sizes, a roll's faces)."""
    return tuple(Option(v) for v in values)


def _option_cells(tracker: Tracker, values: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """The cells each option changes: for a whole turn, the cells it changes; for a
    decision, the cells the ways it begins change from the position as it stands."""
    if tracker.deciding is None:
        by_text = {c.text: c for c in tracker.pending}
        return {v: frozenset(cell for cell, a in by_text[v].after.items()
                             if a != by_text[v].before.get(cell, ()))
                for v in values if v in by_text}
    state = tracker.state
    now = state.physical()
    after = state.clone()
    out: dict[str, frozenset[str]] = {}
    for way in tracker.deciding:
        decisions.push(after, way)
        then = after.physical()
        decisions.pop(after, way)
        changed = {c for c in now.keys() | then.keys() if now.get(c) != then.get(c)}
        text = state.move_str(way[0])
        out[text] = out.get(text, frozenset()) | changed
    return out


def _pulses(value: str, cells: dict[str, frozenset[str]]) -> int:
    """How often an option's cells pulse while it is on offer: where another option lights
    the same cells, a number is its own value (a pyramid's size), else its place among
    those options; an option alone on its cells is steady."""
    same = [v for v, c in cells.items() if c == cells.get(value) and v != NONE]
    if value == NONE or len(same) < 2:
        return 0
    return int(value) if value.isdigit() and 0 < int(value) < 10 else same.index(value) + 1
