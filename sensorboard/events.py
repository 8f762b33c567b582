"""Every event of a board as a typed value: what the service hands its listeners, what
replay prints and what the journal stores (its JSON form is the journal's schema, see
docs/records.md).

Each kind is a dataclass with slots named for what happened, with ``to_json()`` and the
module's :func:`from_json`, the one place a ``"type"`` string is read. An event is a value:
nothing changes one once made (not frozen, because a frozen dataclass costs three times as
much to make, and the service makes one for every journal line). Fields a later
version adds are kept in ``extra`` and written back, so an older reader round-trips a
newer journal; a kind it does not know comes back as :class:`Unknown`. The tracker's
events (:mod:`boards.events`) become these by :func:`from_tracker` (:func:`tracker_json`:
the journal line of one).

>>> item = {"type": "move", "t": 1.5, "ply": 1, "player": "clear", "move": "e2-e3"}
>>> event = from_json(item)
>>> event
Move(t=1.5, ply=1, player='clear', move='e2-e3', extra={})
>>> event.to_json() == item
True
>>> from_json({"type": "press", "t": 2.0, "button": "clock"}).player is None
True
>>> from_json({"type": "flag", "t": 3}).kind
'flag'
>>> try:
...     from_json({"t": 3})
... except EventError as error:
...     print(error)
an event needs a "type"; got keys t
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from boards import events as tracker


class EventError(ValueError):
    """An item that is not an event (no type, or a field of the wrong shape)."""


@dataclass(slots=True)
class Event:
    """The fields every event has: when it happened (seconds on the board's clock)."""

    KIND: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()  # what ``to_json`` writes, in order (not extra)
    OPTIONAL: ClassVar[tuple[str, ...]] = ()  # those left out when None
    t: float | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"type": self.KIND}
        for name in self.FIELDS:
            out[name] = getattr(self, name)
        for name in self.OPTIONAL:
            if out[name] is None:
                del out[name]  # left out, as the journal always wrote it
        extra = self.extra
        if extra:
            out.update(extra)
        return out


def _kind(name: str):
    def register(cls):
        cls.KIND = name
        cls.FIELDS = tuple(f.name for f in dataclasses.fields(cls) if f.name != "extra")
        cls.OPTIONAL = tuple(f.name for f in dataclasses.fields(cls) if f.default is None)
        KINDS[name] = cls
        return cls
    return register


KINDS: dict[str, type[Event]] = {}


@_kind("start")
@dataclass(slots=True)
class Start(Event):
    """The first entry of a game: what rebuilds it (game, options, position, players)."""

    game: str = ""
    uid: str | None = None
    extra: dict = field(default_factory=dict)


@_kind("move")
@dataclass(slots=True)
class Move(Event):
    """A committed turn: its decisions' notations, separated by spaces."""

    ply: int = 0
    player: str = ""
    move: str = ""
    extra: dict = field(default_factory=dict)


@_kind("takeback")
@dataclass(slots=True)
class Takeback(Event):
    ply: int = 0
    player: str = ""
    move: str = ""
    extra: dict = field(default_factory=dict)


@_kind("error")
@dataclass(slots=True)
class Error(Event):
    """No legal turn fits the board: the cells to put right, and what each should show."""

    cells: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@_kind("prompt")
@dataclass(slots=True)
class Prompt(Event):
    """A question: the options offered (``none`` where declining is legal)."""

    options: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


@_kind("settled")
@dataclass(slots=True)
class Settled(Event):
    """A question closed by itself: later changes on the board showed ``answer``."""

    options: list = field(default_factory=list)
    answer: str = ""
    extra: dict = field(default_factory=dict)


@_kind("rejected")
@dataclass(slots=True)
class Rejected(Event):
    """Something a player or an arbiter asked that the board did not do, and why."""

    reason: str = ""
    extra: dict = field(default_factory=dict)


@_kind("roll")
@dataclass(slots=True)
class Roll(Event):
    player: str = ""
    value: str = ""
    extra: dict = field(default_factory=dict)


@_kind("press")
@dataclass(slots=True)
class Press(Event):
    """A button: ``player`` names the side of a per-player clock, None a shared button."""

    button: str = ""
    player: str | None = None
    extra: dict = field(default_factory=dict)


@_kind("answer")
@dataclass(slots=True)
class Answer(Event):
    value: str = ""
    extra: dict = field(default_factory=dict)


@_kind("setup")
@dataclass(slots=True)
class Setup(Event):
    """A setup entered before the first move, and the position it makes."""

    setup: str = ""
    position: str = ""
    extra: dict = field(default_factory=dict)


@_kind("correction")
@dataclass(slots=True)
class Correction(Event):
    """An arbiter's correction (``action``: takeback, position, result) and who made it;
    its arguments (turns, position, result, reason) are in ``extra``."""

    action: str = ""
    by: str = "arbiter"
    extra: dict = field(default_factory=dict)


@_kind("end")
@dataclass(slots=True)
class End(Event):
    """The game is over: the rules' ``outcome``, or a ``result`` with its ``reason``."""

    result: str | None = None
    reason: str | None = None
    outcome: dict | None = None
    by: str | None = None
    extra: dict = field(default_factory=dict)


@_kind("clock")
@dataclass(slots=True)
class Clock(Event):
    """The game clock's new value (``sensorboard.clocks``): ``why`` it changed (start,
    turn, takeback, correction, flag, end), seconds ``left`` per player, whose ``side``
    runs; the time control, phase and the rest in ``extra``."""

    why: str = ""
    left: dict = field(default_factory=dict)
    side: str | None = None
    extra: dict = field(default_factory=dict)


@_kind("hint")
@dataclass(slots=True)
class Suggestion(Event):
    """The engine's suggested turn for the side to move (``hint``), its words and the
    engine's expected score for that side (0 lost .. 1 won)."""

    move: str = ""
    words: str = ""
    win: float = 0.5
    extra: dict = field(default_factory=dict)


@_kind("opponent")
@dataclass(slots=True)
class Proposed(Event):
    """An opponent's turn (``by``: its label, e.g. ``engine level 2``), lit on the board
    for the player there to carry out; its words say the decisions no sensor sees."""

    player: str = ""
    move: str = ""
    words: str = ""
    by: str = ""
    extra: dict = field(default_factory=dict)


@_kind("sensor")
@dataclass(slots=True)
class Sensor(Event):
    """A cell's debounced sensor change (``shows``: present, or an analog class)."""

    cell: str = ""
    shows: Any = None
    extra: dict = field(default_factory=dict)


@_kind("unreadable")
@dataclass(slots=True)
class Unreadable(Event):
    """Cells a matrix without diodes cannot read while others are closed."""

    cells: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


@_kind("resume")
@dataclass(slots=True)
class Resume(Event):
    """A game resumed on a board that differs: the cells to put right first."""

    cells: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(slots=True)
class Unknown(Event):
    """A kind this version does not know (a newer journal's): kept whole."""

    kind: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {"type": self.kind} if self.t is None else {"type": self.kind, "t": self.t}
        out.update(self.extra)
        return out


def outcome_json(state) -> dict | None:
    """The ``outcome`` of an ``end`` event: the rules' outcome of ``state`` (a
    :class:`rules.GameState`), None while the game runs."""
    outcome = state.outcome()
    return None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}


def result_text(state) -> str:
    """The ``result`` of an ``end`` event in words (``dark wins (no move left)``), ``*``
    while the game runs."""
    outcome = state.outcome()
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"{outcome.winner} wins ({outcome.reason})"


def of(item: object) -> Event | None:
    """The event of ``item``, or None where it is not one (an entry read from afar)."""
    try:
        return from_json(item)
    except (EventError, TypeError):
        return None


def from_json(item: dict) -> Event:
    """The event of a JSON item (a journal entry, a replay line); raises
    :class:`EventError` when it is not one."""
    if not isinstance(item, dict) or not isinstance(item.get("type"), str):
        keys = ", ".join(sorted(item)) if isinstance(item, dict) else type(item).__name__
        raise EventError(f'an event needs a "type"; got keys {keys}')
    data = {k: v for k, v in item.items() if k != "type"}
    cls = KINDS.get(item["type"])
    if cls is None:
        t = data.pop("t", None)
        return Unknown(t=t, kind=item["type"], extra=data)
    names = cls.FIELDS
    known = {k: v for k, v in data.items() if k in names}
    return cls(**known, extra={k: v for k, v in data.items() if k not in names})


def from_tracker(event: tracker.Event) -> Event:
    """The board event of a tracker event (:mod:`boards.events`), its time rounded to the
    millisecond as the journal writes it."""
    return from_json(tracker_json(event))


def tracker_json(event: tracker.Event) -> dict:
    """The JSON form of a tracker event, as replay prints it and the journal stores it."""
    line = _LINES.get(type(event))
    if line is None:
        raise TypeError(event)
    return line(event)


def _line(source: type, kind: type[Event]) -> Callable[[tuple], dict]:
    """The journal line of a ``source`` tracker event, written as ``kind`` (no board event
    is made on the way: the service writes one for every event). Their fields have the
    same names in the same order (a ``source`` may have more: an Error's attackers)."""
    fields, name = kind.FIELDS, kind.KIND
    if source._fields[:len(fields)] != fields or fields[0] != "t" \
            or set(kind.OPTIONAL) - {"t"}:
        raise TypeError(f"{source.__name__} is not written field by field as {kind.__name__}")
    # A dict display per number of fields (t first): dict(zip(...)) takes twice as long.
    if len(fields) == 2:
        _, a = fields
        return lambda event: {"type": name, "t": round(event[0], 3), a: event[1]}
    if len(fields) == 3:
        _, a, b = fields
        return lambda event: {"type": name, "t": round(event[0], 3), a: event[1], b: event[2]}
    if len(fields) == 4:
        _, a, b, c = fields
        return lambda event: {"type": name, "t": round(event[0], 3), a: event[1], b: event[2],
                              c: event[3]}
    raise TypeError(f"{kind.__name__}: a journal line of {len(fields)} fields needs its display")


def _error_line(event: tracker.Error) -> dict:
    item = _ERROR(event)  # (an Error's extra, its attackers, only where there are some)
    if event.attackers:
        item["attackers"] = list(event.attackers)
    return item


_ERROR = _line(tracker.Error, Error)
# Each tracker event's journal line: a table, one dictionary look-up per event.
_LINES: dict[type, Callable[[Any], dict]] = {
    tracker.Error: _error_line,
    **{source: _line(source, kind) for source, kind in (
        (tracker.Committed, Move), (tracker.Prompt, Prompt), (tracker.Rejected, Rejected),
        (tracker.Rolled, Roll), (tracker.TakenBack, Takeback), (tracker.Settled, Settled))},
}
