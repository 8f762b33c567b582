"""An arbiter's corrections, as values: what the page's arbiter form, MQTT's correction
topic and the tests send (``{"action": ..., "by": ..., ...}``), checked here before the
board carries them out (:meth:`sensorboard.service.BoardService.correct`).

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
