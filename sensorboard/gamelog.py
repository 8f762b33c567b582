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


class GameLogError(ValueError):
    """A journal that does not describe a game the rules accept."""


@dataclass
class Turn:
    """A committed turn: its decisions' notations joined by spaces."""

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
        if start.get("type") != "start":
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
        self.turns: list[Turn] = []
        self.preamble: list[str] = []  # notes before the first turn
        self.result = "*"
        self.termination = ""
        self.ended = False
        self.last_at: float | None = None
        self.clock: dict | None = None  # the last ``clock`` entry (sensorboard.clocks)
        self.open: str | None = None  # "question" or "error" while the board shows one
        self.clock_at: float | None = None  # its wall-clock time

    def note(self, text: str) -> None:
        (self.turns[-1].notes if self.turns else self.preamble).append(text)

    def apply(self, item: dict, at: float | None = None) -> None:
        """Replay one entry (its JSON item; ``at`` its wall-clock time)."""
        kind = item.get("type")
        self.last_at = at
        self._follow_open(kind)
        if kind == "move":
            self._move(item, at)
        elif kind == "takeback":
            if self.turns:
                turn = self.turns.pop()
                for _ in turn.text.split(" "):
                    self.state.pop()
                for note in turn.notes:  # what was said about it stays in the record
                    self.note(note)
                self.note(f"taken back: {turn.text}")
        elif kind == "error":
            cells = ", ".join(f"{c} {w}" for c, w in sorted(item.get("cells", {}).items()))
            self.note(f"not a legal move; should be: {cells}")
        elif kind == "rejected":
            self.note(f"rejected: {item.get('reason', '')}")
        elif kind == "correction":
            self._correction(item)
        elif kind == "clock":
            self._clock(item, at)
        elif kind == "setup":  # a setup entered before the first move
            try:
                self.state = rules.from_position(self.game, item["position"])
            except (KeyError, rules.RulesError) as e:
                raise GameLogError(f"setup: {e}") from None
            default = rules.new_game(self.game).position_str()
            self.setup = item["position"] if item["position"] != default else None
        elif kind == "end":
            self.ended = True
            if self.result == "*":
                outcome = item.get("outcome")
                if outcome:
                    self.result = result_tag(outcome.get("winner"), self.players)
                    self.termination = outcome.get("reason", "")
                else:
                    self.result = item.get("result", "*")
                    self.termination = item.get("reason", "")

    def _move(self, item: dict, at: float | None) -> None:
        text = item["move"]
        pushed = 0
        try:
            for decision in text.split(" "):
                self.state.push_str(decision)
                pushed += 1
        except rules.RulesError as e:
            for _ in range(pushed):  # a turn is applied whole or not at all
                self.state.pop()
            raise GameLogError(f"turn {len(self.turns) + 1} {text!r}: {e}") from None
        self.turns.append(Turn(item.get("player", ""), text, at, item.get("t")))

    def _follow_open(self, kind: str | None) -> None:
        """A question is open from its prompt until an answer, a turn or a correction; an
        error until the board changes again."""
        if kind in ("prompt", "error"):
            self.open = "question" if kind == "prompt" else "error"
        elif kind in ("answer", "move", "takeback", "correction", "setup", "end") or (
                kind == "sensor" and self.open == "error"):
            self.open = None

    def _clock(self, item: dict, at: float | None) -> None:
        self.clock, self.clock_at = item, at
        if item.get("why") == "turn" and self.turns:
            mover = self.turns[-1].player
            left = item.get("left", {})
            if isinstance(left.get(mover), int | float):
                self.turns[-1].clock = float(left[mover])
        elif item.get("why") == "flag":
            self.note(f"flag: {item.get('side')} out of time")

    def _correction(self, item: dict) -> None:
        by = item.get("by") or "arbiter"
        action = item.get("action")
        if action == "takeback":
            self.note(f"arbiter {by}: take back {item.get('turns', 1)} turn(s)")
        elif action == "position":
            try:
                self.state = rules.from_position(self.game, item["position"])
            except (KeyError, rules.RulesError) as e:
                raise GameLogError(f"correction: position: {e}") from None
            self.note(f"arbiter {by}: position set [%setup \"{item['position']}\"]")
        elif action == "time":
            self.note(f"arbiter {by}: {item.get('player')} {item.get('seconds', 0):+d} s")
        elif action == "result":
            self.result = item.get("result", "*")
            self.termination = item.get("reason") or "adjudication"
            self.note(f"arbiter {by}: result {self.result} ({self.termination})")
        else:
            self.note(f"arbiter {by}: {action}")

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
