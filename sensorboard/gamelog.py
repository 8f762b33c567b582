"""A game as its journal tells it: the entries replayed through the rules, one by one.

Resuming a game, writing its record, the recorder's overview and the state published
over MQTT all read a journal through :class:`GameLog`, so they agree on what was played.

>>> log = GameLog({"type": "start", "game": "tessella", "options": {},
...                "players": ["clear", "dark"], "tags": {"Round": "1"}})
>>> log.apply({"type": "move", "t": 1.0, "ply": 1, "player": "clear", "move": "e4-e5"})
>>> [t.text for t in log.turns], log.state.to_move
(['e4-e5'], 'dark')
"""

from __future__ import annotations

from dataclasses import dataclass, field

import rules
from sensorboard import events

# What closes an open question or error on the board.
CLOSES = (events.Answer, events.Move, events.Takeback, events.Correction, events.Setup,
          events.End)


class GameLogError(ValueError):
    """A journal that does not describe a game the rules accept."""


@dataclass
class Commit:
    """A turn the board committed, as the journal tells it: who made it, its decisions'
    notations joined by spaces, when, and what followed it."""

    player: str
    text: str
    at: float | None = None  # wall-clock time of the commit
    t: float | None = None  # service time of the commit
    notes: list[str] = field(default_factory=list)  # what happened after it, for the record
    clock: float | None = None  # the mover's time left after it, by the board's clock


def result_tag(winner: str | None, players: list[str]) -> str:
    """``1-0`` (first player won), ``0-1``, ``1/2-1/2`` (a tie)."""
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == players[0] else "0-1"


class GameLog:
    """The game a journal's entries describe. Feed it with :meth:`apply` in order."""

    def __init__(self, start: dict, at: float | None = None) -> None:
        if not isinstance(events.of(start), events.Start):
            raise GameLogError("a game's journal begins with its start entry")
        self.start = start
        self.started_at = at
        self.game = start.get("game")
        if self.game not in rules.GAMES:
            raise GameLogError(f"unknown game {self.game!r}")
        self.state = rules.new_game(self.game, **start.get("options", {}))
        position = start.get("position")
        if position and position != self.state.position_str():
            self.state = rules.from_position(self.game, position)
        self.setup = position if position != rules.new_game(self.game).position_str() else None
        self.players = list(start.get("players") or self.state.PLAYERS)
        self.tags: dict[str, str] = dict(start.get("tags", {}))
        self.turns: list[Commit] = []
        self.preamble: list[str] = []  # notes before the first turn
        self.result = "*"
        self.termination = ""
        self.ended = False
        self.last_at: float | None = None
        self.clock: dict | None = None  # the last ``clock`` entry (sensorboard.clocks)
        self.open: str | None = None  # "question" or "error" while the board shows one
        self._answered: str | None = None  # what was open before the answer just read
        self.clock_at: float | None = None  # its wall-clock time

    def note(self, text: str) -> None:
        (self.turns[-1].notes if self.turns else self.preamble).append(text)

    def apply(self, item: dict, at: float | None = None) -> None:
        """Replay one entry (its JSON item; ``at`` its wall-clock time). Kinds that do
        not change the game (sensor changes, presses, questions) are passed over."""
        self.last_at = at
        try:
            event = events.from_json(item)
        except events.EventError:
            return
        self._follow_open(event)
        match event:
            case events.Move():
                self._move(event, at)
            case events.Takeback():
                self._take_back()
            case events.Error(cells=cells):
                shown = ", ".join(f"{c} {w}" for c, w in sorted(cells.items()))
                self.note(f"not a legal move; should be: {shown}")
            case events.Rejected(reason=reason):
                self.note(f"rejected: {reason}")
            case events.Correction():
                self._correction(event)
            case events.Clock():
                self._clock(event, at)
            case events.Setup(position=position):  # a setup entered before the first move
                self._set_up(position)
            case events.End():
                self._end(event)

    def _move(self, event: events.Move, at: float | None) -> None:
        text = event.move
        pushed = 0
        try:
            for decision in text.split(" "):
                self.state.push_str(decision)
                pushed += 1
        except rules.RulesError as e:
            for _ in range(pushed):  # a turn is applied whole or not at all
                self.state.pop()
            raise GameLogError(f"turn {len(self.turns) + 1} {text!r}: {e}") from None
        self.turns.append(Commit(event.player, text, at, event.t))

    def _follow_open(self, event: events.Event) -> None:
        """A question is open from its prompt until an answer, a turn or a correction; an
        error until the board changes again. An answer the board refused (the line after
        it says so) left its question open."""
        refused, self._answered = self._answered, None
        if isinstance(event, events.Rejected) and refused is not None:
            self.open = refused
        elif isinstance(event, events.Answer):
            self._answered, self.open = self.open, None
        elif isinstance(event, events.Prompt | events.Error):
            self.open = "question" if isinstance(event, events.Prompt) else "error"
        elif isinstance(event, CLOSES) or (isinstance(event, events.Sensor)
                                            and self.open == "error"):
            self.open = None

    def _clock(self, event: events.Clock, at: float | None) -> None:
        left = event.left
        if not isinstance(left, dict) or not left or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in left.values()):
            return  # not a clock this log can show (a board's fault, or a forgery)
        self.clock, self.clock_at = event.to_json(), at
        if event.why == "turn" and self.turns:
            mover = self.turns[-1].player
            if mover in left:
                self.turns[-1].clock = float(left[mover])
        elif event.why == "flag":
            self.note(f"flag: {event.side} out of time")

    def _take_back(self) -> None:
        if not self.turns:
            return
        turn = self.turns.pop()
        for _ in turn.text.split(" "):
            self.state.pop()
        for note in turn.notes:  # what was said about it stays in the record
            self.note(note)
        self.note(f"taken back: {turn.text}")

    def _set_up(self, position: str) -> None:
        try:
            self.state = rules.from_position(self.game, position)
        except rules.RulesError as e:
            raise GameLogError(f"setup: {e}") from None
        default = rules.new_game(self.game).position_str()
        self.setup = position if position != default else None

    def _end(self, event: events.End) -> None:
        self.ended = True
        if self.result != "*":
            return
        if event.outcome:
            self.result = result_tag(event.outcome.get("winner"), self.players)
            self.termination = event.outcome.get("reason", "")
        else:
            self.result = event.result or "*"
            self.termination = event.reason or ""

    def _correction(self, event: events.Correction) -> None:
        by, args = event.by or "arbiter", event.extra
        if event.action == "takeback":
            self.note(f"arbiter {by}: take back {args.get('turns', 1)} turn(s)")
        elif event.action == "position":
            try:
                self.state = rules.from_position(self.game, args["position"])
            except (KeyError, rules.RulesError) as e:
                raise GameLogError(f"correction: position: {e}") from None
            self.note(f"arbiter {by}: position set [%setup \"{args['position']}\"]")
        elif event.action == "time":
            self.note(f"arbiter {by}: {args.get('player')} {args.get('seconds', 0):+d} s")
        elif event.action == "result":
            self.result = args.get("result", "*")
            self.termination = args.get("reason") or "adjudication"
            self.note(f"arbiter {by}: result {self.result} ({self.termination})")
        else:
            self.note(f"arbiter {by}: {event.action}")

    @property
    def to_move(self) -> str:
        return self.state.to_move

    @classmethod
    def from_entries(cls, entries: list) -> GameLog:
        """The game of a journal's entries (:class:`sensorboard.journal.Entry`), in order."""
        if not entries:
            raise GameLogError("a game without entries")
        log = cls(entries[0].item, entries[0].at)
        for entry in entries[1:]:
            log.apply(entry.item, entry.at)
        return log
