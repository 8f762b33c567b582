"""What the tracker and every view of it share: the board's buttons, the answer that
declines a question, whose a clock press may be, what a presence sensor sees, and how a
given value is quoted back.

Views (the hint planner, the guidance words, the terminal, the page) import these from
here, not from the tracker.
"""

from __future__ import annotations

BUTTONS = ("clock", "hint", "takeback", "roll")
NONE = "none"  # the answer that declines every turn a question offers
HINT_SECONDS = 4.0  # how long ``hint`` lights the cells a placement would cut


def pressed_by(player: str | None, side: str) -> bool:
    """Whether a clock press by ``player`` (None: the one shared button) may be ``side``'s:
    their own side of the clock, or the shared button, which either player may press.

    >>> pressed_by(None, "red"), pressed_by("red", "red"), pressed_by("yellow", "red")
    (True, True, False)
    """
    return player is None or player == side


def presence(pieces: tuple[str, ...]) -> bool:
    """What a reed switch or digital Hall sensor sees: something is there."""
    return bool(pieces)


def quote(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to a short prefix, for messages that quote what was given (a
    20 MB line is not echoed back).

    >>> quote("a" * 100)
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa... (102 characters)"
    """
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
