"""An arbiter's corrections: what the page's arbiter form, MQTT's correction topic and
the tests send (``{"action": ..., "by": ..., ...}``), read here as values
(:func:`parse`), then carried out on a board (:func:`carry_out`, through
:meth:`sensorboard.service.BoardService.correct`).

>>> parse("takeback", {"turns": 2})
Takeback(turns=2)
>>> parse("result", {"result": "1-0"})
Adjudication(result='1-0', reason='adjudication')
>>> parse("result", {"result": "2-0"})
Traceback (most recent call last):
...
sensorboard.corrections.CorrectionError: result: must be 1-0, 0-1 or 1/2-1/2, got '2-0'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import rules
from sensorboard.events import outcome_json, result_text

if TYPE_CHECKING:
    from sensorboard.service import BoardService

RESULTS = ("1-0", "0-1", "1/2-1/2")


class CorrectionError(ValueError):
    """A correction the board cannot carry out, naming why; nothing was changed."""


@dataclass(frozen=True)
class Takeback:
    """Take back this many turns."""

    turns: int = 1


@dataclass(frozen=True)
class SetPosition:
    """Set the position (position text, checked against the game when carried out)."""

    position: str


@dataclass(frozen=True)
class Adjudication:
    """End the game with this result."""

    result: str
    reason: str = "adjudication"


@dataclass(frozen=True)
class AdjustTime:
    """Add seconds to a player's clock (take them when negative)."""

    player: str
    seconds: int


Correction = Takeback | SetPosition | Adjudication | AdjustTime


def parse(action: str, args: dict) -> Correction:
    """The correction ``action`` with its arguments; raises :class:`CorrectionError`."""
    if action == "takeback":
        turns = args.get("turns", 1)
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
            raise CorrectionError(f"takeback: turns must be a whole number >= 1, got {turns!r}")
        return Takeback(turns)
    if action == "position":
        text = args.get("position")
        if not isinstance(text, str):
            raise CorrectionError("position: give the position text")
        return SetPosition(text)
    if action == "result":
        result = args.get("result")
        if result not in RESULTS:
            raise CorrectionError(f"result: must be 1-0, 0-1 or 1/2-1/2, got {result!r}")
        return Adjudication(result, str(args.get("reason") or "adjudication"))
    if action == "time":
        player, seconds = args.get("player"), args.get("seconds")
        if not isinstance(player, str):
            raise CorrectionError("time: give the player whose clock to correct")
        if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds == 0:
            raise CorrectionError(f"time: seconds must be a whole number, not 0, "
                                  f"got {seconds!r}")
        return AdjustTime(player, seconds)
    raise CorrectionError(f"unknown correction {action!r}; corrections: takeback, position, "
                          "result, time")


def split_command(command: dict) -> tuple[str, str, dict]:
    """``(action, by, arguments)`` of a correction as it arrives (``by`` defaults to
    "arbiter")."""
    args = dict(command)
    action, by = args.pop("action", None), str(args.pop("by", "") or "arbiter")
    return str(action), by, args


def carry_out(service: BoardService, correction: Correction, item: dict) -> list[dict]:
    """Carry ``correction`` out on ``service``'s board, journaled as ``item`` (the
    ``correction`` entry: when, what, by whom) with its values; the events it caused.
    Raises :class:`CorrectionError` naming what is wrong; nothing was changed then."""
    match correction:
        case Takeback(turns):
            return _take_back(service, turns, {**item, "turns": turns})
        case SetPosition(text):
            _set_position(service, text, item)
        case AdjustTime(player, seconds):
            return _adjust_time(service, player, seconds, item)
        case Adjudication(result, reason):
            service.record({**item, "result": result, "reason": reason})
            service.record({"type": "end", "t": item["t"], "result": result, "reason": reason})
            service.adjudicate(item["t"])
    return []


def _take_back(service: BoardService, turns: int, item: dict) -> list[dict]:
    played = len(service.tracker.state.move_stack)
    if turns > played:
        raise CorrectionError(f"takeback: only {played} turns were played")
    service.record(item)
    out: list[dict] = []
    for _ in range(turns):
        out += service.emit(service.tracker.press("takeback", service.clock.now()))
    return out


def _set_position(service: BoardService, text: str, item: dict) -> None:
    try:
        new = rules.from_position(service.tracker.state.NAME, text)
    except rules.RulesError as e:
        raise CorrectionError(f"position: {e}") from None
    item = {**item, "position": new.position_str()}
    service.record(item)
    service.put_position(new, item)
    if new.outcome() is not None:  # a finished position ends the game, as a turn would
        service.record({"type": "end", "t": item["t"], "outcome": outcome_json(new),
                        "result": result_text(new)})
        service.game_clock.stop(item["t"])


def _adjust_time(service: BoardService, player: str, seconds: int, item: dict) -> list[dict]:
    """The arbiter adds ``seconds`` to ``player``'s clock (takes them if negative)."""
    players = service.tracker.state.PLAYERS
    if service.timing is None:
        raise CorrectionError("time: this game has no time control")
    if player not in players:
        raise CorrectionError(f"time: player must be one of {', '.join(players)}, "
                              f"got {player!r}")
    service.record({**item, "player": player, "seconds": seconds})
    return service.game_clock.adjust(player, seconds, service.clock.now())
