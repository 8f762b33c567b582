"""The tracker's events: what a sensor change, a button press, an answer or the passing of
time produced (:class:`boards.tracker.Tracker` returns a list of them from each input).
"""

from __future__ import annotations

from typing import NamedTuple

from .constants import quote


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

    @property
    def key(self) -> str:
        """What tells this question from any other, for an answer to name the one it was
        given for (:func:`question_key`)."""
        return question_key(self.t, self.options)


def question_key(t: float, options: list[str] | tuple[str, ...]) -> str:
    """A question's key: when it was asked (to the millisecond, as event lines give it)
    and its options, in order.

    >>> question_key(1.5, ["k11-k10", "none"])
    '1.500|k11-k10|none'
    """
    return f"{t:.3f}|" + "|".join(options)


def no_longer_open(value: object, options: list[str] | tuple[str, ...]) -> str:
    """Why an answer naming a question that another has replaced is refused (``options``:
    the question open now), in the same words wherever it is refused.

    >>> no_longer_open("none", ["b1-b2", "b1-c1", "none"])
    "'none' answered a question no longer open; now asked: b1-b2, b1-c1, none"
    """
    return f"{quote(value)} answered a question no longer open; now asked: " + \
        ", ".join(options)


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


class Settled(NamedTuple):
    """A question closed by itself: the board's later changes showed ``answer``."""

    t: float
    options: list[str]
    answer: str


Event = Committed | Error | Prompt | Rejected | TakenBack | Rolled | Settled


def recorded(events: list[Event]) -> list[Event]:
    """What of ``events`` the game's record keeps (turns, rolls, takebacks): what a reading
    or a replay of the past reports of it, its errors and questions of then left out.

    >>> recorded([Prompt(1.0, ["a", "none"]), Committed(2.0, 1, "red", "a")])
    [Committed(t=2.0, ply=1, player='red', move='a')]
    """
    return [e for e in events if isinstance(e, Committed | Rolled | TakenBack)]
