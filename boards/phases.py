"""The phase of the turn, as the tracker keeps it (:attr:`boards.tracker.Tracker.phase`).

After each input (a change, a clock or other press, an answer, a tick, the end of the
input, a position set) the tracker enters the phase its state shows (:func:`of`), a new
one only through :func:`enter`, which warns (:class:`UnlistedTransition`) of a transition
this table does not name: the test suite turns that warning into a failure, while a board in
play carries on in the phase its state shows rather than stop. A phase may always stay as
it is.

=============  ==============================================================
phase          may be followed by
=============  ==============================================================
``IDLE``       ``MOVING``, ``HELD``, ``ASKING``, ``RESTORING``, ``OVER``
``MOVING``     ``IDLE``, ``HELD``, ``ASKING``, ``ERROR``, ``RESTORING``, ``OVER``
``HELD``       ``IDLE``, ``MOVING``, ``ASKING``, ``ERROR``, ``RESTORING``, ``OVER``
``ASKING``     ``IDLE``, ``MOVING``, ``HELD``, ``ERROR``, ``RESTORING``, ``OVER``
``ERROR``      ``IDLE``, ``MOVING``, ``HELD``, ``ASKING``, ``RESTORING``, ``OVER``
``RESTORING``  ``IDLE``, ``OVER``
``OVER``       ``IDLE``, ``MOVING``, ``RESTORING``
=============  ==============================================================

Why the others cannot happen:

- An error needs the board wrong and still for ``error_delay`` (a tick): never from
  ``IDLE``, where nothing differs, or ``OVER``, where nothing differs either; from
  ``ASKING`` only when the question closes itself on a reading that has one
  (:mod:`boards.readings`).
- While the board is put right (``RESTORING``) no change is read as a turn: it ends once
  the board shows the position (``IDLE``, or ``OVER`` for a position set that has ended).
- Once the game is over no turn is listed: nothing waits or is asked.
- A takeback (or a position set, :meth:`~boards.tracker.Tracker.put_right`) may come in
  any phase: it leads to ``RESTORING`` while the board differs, else straight to ``IDLE``
  or ``OVER``.
"""

from __future__ import annotations

import enum
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tracker import Tracker


class UnlistedTransition(UserWarning):
    """The tracker took a transition the table does not name (a fault in the table or the
    code, never in play)."""


class Phase(enum.Enum):
    IDLE = "idle"
    MOVING = "moving"
    HELD = "held"
    ASKING = "asking"
    ERROR = "error"
    RESTORING = "restoring"
    OVER = "over"

    # Each phase is one object: hashed by identity, in C, not by Enum's Python
    # ``__hash__`` (a phase is looked up in the table at every change of phase).
    __hash__ = object.__hash__


_ALL = frozenset(Phase)
_NOT_BACK = frozenset({Phase.MOVING, Phase.HELD, Phase.ASKING, Phase.ERROR})
TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.IDLE: _ALL - {Phase.IDLE, Phase.ERROR},
    Phase.MOVING: _ALL - {Phase.MOVING},
    Phase.HELD: _ALL - {Phase.HELD},
    Phase.ASKING: _ALL - {Phase.ASKING},
    Phase.ERROR: _ALL - {Phase.ERROR},
    Phase.RESTORING: _ALL - _NOT_BACK - {Phase.RESTORING},
    Phase.OVER: frozenset({Phase.IDLE, Phase.MOVING, Phase.RESTORING}),
}


def of(tracker: Tracker) -> Phase:
    """The phase ``tracker``'s state shows, in the order it wins when several hold (see
    :mod:`boards.view`)."""
    if tracker.restoring:
        return Phase.RESTORING
    if tracker.error is not None:
        return Phase.ERROR
    if tracker.prompt is not None:
        return Phase.ASKING
    if not tracker.differing and tracker.state.outcome() is not None:
        return Phase.OVER
    if tracker.pending:
        return Phase.HELD
    return Phase.MOVING if tracker.differing else Phase.IDLE


def enter(was: Phase, now: Phase) -> Phase:
    """``now``; a warning where the table does not let ``was`` be followed by it."""
    if now is not was and now not in TRANSITIONS[was]:
        warnings.warn(f"the tracker went from {was.name} to {now.name}, which "
                      "boards/phases.py's table does not allow", UnlistedTransition,
                      stacklevel=3)
    return now
