"""Answering a question with the board's own buttons.

While a question is open, ``hint`` puts the next option on offer (the first, after the
last ``none`` and around again); the LEDs light the offered option's cells
(:func:`boards.hints.plan`). The clock of the player asked (or a shared clock button)
then confirms it. A clock press before anything is on offer, or the other player's
clock, is not an answer: the tracker takes it as it always does.

>>> from boards.view import Option, Question
>>> q = Question((Option("4"), Option("5"), Option("none")), "red", False, 3.0)
>>> press(q, "hint", None)
Step(offered=0, chosen=None)
>>> press(q.offering(2), "hint", None)
Step(offered=0, chosen=None)
>>> press(q.offering(1), "clock", "red")
Step(offered=1, chosen='5')
>>> press(q.offering(1), "clock", "blue") is None
True
"""

from __future__ import annotations

from typing import NamedTuple

from .constants import pressed_by
from .view import Question


class Step(NamedTuple):
    """What a press does to the open question: the option on offer after it, and the
    answer it gives (None: no answer yet)."""

    offered: int | None
    chosen: str | None


def press(question: Question, button: str, player: str | None) -> Step | None:
    """The press of ``button`` (``player``: whose clock side; None for a shared button)
    while ``question`` is open; None when the press is no answer to it."""
    if button == "hint":
        offered = question.offered
        return Step(0 if offered is None else (offered + 1) % len(question.options), None)
    if button == "clock" and question.offered is not None and pressed_by(player, question.player):
        return Step(question.offered, question.options[question.offered].value)
    return None
