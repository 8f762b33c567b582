"""The service's side of an opponent that is not at the board (:mod:`sensorboard.opponent`):
it polls the opponent on its turn, says which turn the tracker is to expect, hands the
opponent every event, and says what the LEDs show of its turn.

The turn given lights step by step in the opponent's roles until the player at the board
has carried it out. Its steps that no sensor sees (a Tesulda swap, take or draw: pieces
moved between figures that stand where they stood) stay lit after the sensors have seen
the rest and the turn is committed, until the player's next change on the board: what is
left to do by hand.

>>> import rules
>>> from boards.layout import layout_for_game
>>> from boards.sensing import observer
>>> state = rules.new_game("tesulda")
>>> turn = propose(state, "a2-a3 swap:s:a3>b2")
>>> left = by_hand(state, turn, observer(layout_for_game("tesulda")))
>>> left.notation, left.words
('swap:s:a3>b2', 'swap square from a3 to b2')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import rules
from engine import Hint
from sensorboard import events, suggest
from sensorboard.opponent import ROLES, Opponent, Proposal, TurnError, frame, propose

if TYPE_CHECKING:
    from sensorboard.service import BoardService

Expectation = tuple[tuple[Hashable, ...] | None, int | None]  # as Tracker.expect takes it


def by_hand(state: rules.GameState, proposal: Proposal,
            observe: Callable[[tuple[str, ...]], Hashable]) -> Hint | None:
    """The steps of ``proposal`` (given at ``state``) after the last one a sensor sees that
    change pieces where no sensor shows a change (``observe``: what a cell's sensor shows
    of its pieces), with their words; None where it has none (a turn no sensor sees at all
    is carried out whole before the clock commits it)."""
    work, hidden, sensed = state.clone(), [], False
    for step in proposal.hint.steps:
        before = work.physical()
        said, _ = work.decision_words(step.decision)
        work.push(step.decision)
        after = work.physical()
        if any(observe(before.get(c, ())) != observe(after.get(c, ()))
               for c in step.lifted + step.placed):
            hidden, sensed = [], True
        elif step.visible:
            hidden.append((step, said[:1].lower() + said[1:]))
    if not sensed or not hidden:
        return None
    steps = tuple(step for step, _ in hidden)
    return Hint(steps, " ".join(s.notation for s in steps),
                "; then ".join(words for _, words in hidden), proposal.hint.win)


class Seat:
    """The service's side of an opponent: polls it on its turn, says which turn the tracker
    is to expect (:meth:`expected`), hands it every event, and lights its turn."""

    def __init__(self, opponent: Opponent) -> None:
        self.opponent = opponent
        self.proposal: Proposal | None = None
        self._hidden: Hint | None = None  # the proposal's steps no sensor sees
        self.left: Hint | None = None  # those steps, lit once the rest is committed
        self._refused: str | None = None  # a turn refused, not reported again
        self._rolled = -1  # the decisions made when the board last rolled for it
        self.silent = False  # the sensors cannot see the turn given: the clock ends it

    @property
    def side(self) -> str:
        return self.opponent.side

    def heard(self, item: dict) -> None:
        """A listener of the service: the events, in order, to the opponent."""
        event = events.of(item)
        if isinstance(event, events.Sensor):
            self.left = None  # the player has gone on: what was left is done
        if event is None or isinstance(event, (events.Sensor, events.Unreadable)):
            return
        if isinstance(event, (events.Move, events.Takeback, events.Correction)):
            done = self.proposal is not None and isinstance(event, events.Move) \
                and event.move == self.proposal.text
            self.left = self._hidden if done else None
            self.proposal, self._rolled = None, -1  # carried out, or the game went back
        self.opponent.observe(event)

    def expected(self, service: BoardService) -> Expectation:
        """What the tracker is to expect of the opponent's side now (as
        :meth:`boards.tracker.Tracker.expect` takes it): its turn once given, nothing
        before; anything (None) while it is the other side's turn."""
        if not self._ours(service):
            return None, None
        if self._current(service):
            return self.proposal.decisions, self.proposal.since
        return (), None

    def scan(self, service: BoardService, now: float) -> list[dict]:
        """One scan: while the opponent is to move and has given nothing, poll it; its
        turn is journaled as an ``opponent`` event (:meth:`expected` from then on). Where it rolls
        first and the board has a die, the board rolls for it."""
        if not self._ours(service) or self._current(service):
            return []
        tracker = service.tracker
        text = None
        try:
            text = self.opponent.poll(tracker.state)
            if text is None or text == self._refused:
                return []
            proposal = propose(tracker.state, text)
        except (TurnError, RuntimeError) as e:  # (the engine's process failed: not fatal)
            if self._refused == (text or str(e)):
                return []
            self._refused = text or str(e)  # said once
            item = events.Rejected(round(now, 3), f"{self.opponent.label}: {e}").to_json()
            service.record(item)
            return [item]
        work = tracker.state.clone()
        for decision in proposal.decisions:
            work.push(decision)
        if work.to_move == rules.CHANCE and tracker.dice is not None:
            # The board's die, as for any turn: once, on a board as it should be.
            at = len(tracker.state.move_stack)
            if tracker.differing or self._rolled == at:
                return []
            self._rolled = at
            return service.act("press", "roll")
        self.proposal = proposal
        self._hidden = by_hand(tracker.state, proposal, service.observe)
        service.follow_seat()  # the tracker expects it: its candidates are the turn's
        cands = tracker.candidates
        self.silent = bool(cands) and all(c.silent for c in cands)
        item = events.Proposed(round(now, 3), proposal.player, proposal.text,
                               proposal.hint.words, self.opponent.label).to_json()
        service.record(item)
        return [item]

    def shown(self, service: BoardService) -> Proposal | None:
        """The opponent's turn lit for the player at the board, if one is."""
        return self.proposal if self._current(service) else None

    def frame(self, service: BoardService, now: float) -> dict[str, str] | None:
        """The LEDs of the opponent's turn while it waits to be carried out, or of what is
        left to do by hand once it is committed (None: none)."""
        if self._current(service):
            return frame(self.proposal, now)
        return None if self.left is None else suggest.frame(self.left, now, ROLES)

    def thinking(self, service: BoardService) -> bool:
        """The opponent is to move and works its turn out by itself (the engine)."""
        return (self._ours(service) and not self._current(service)
                and self.opponent.thinking)

    def next_change(self, now: float) -> float | None:
        shown = self.proposal.hint if self.proposal is not None else self.left
        return None if shown is None else suggest.next_change(shown, now)

    def close(self) -> None:
        self.opponent.close()

    def _ours(self, service: BoardService) -> bool:
        tracker = service.tracker
        return (tracker.player == self.side and tracker.state.outcome() is None
                and not tracker.restoring and not service.adjudicated)

    def _current(self, service: BoardService) -> bool:
        """The proposal is of the turn in progress."""
        proposal, state = self.proposal, service.tracker.state
        if proposal is None or proposal.player != service.tracker.player:
            return False
        done = tuple(state.move_stack[proposal.since:])
        return (len(state.move_stack) >= proposal.since
                and proposal.decisions[:len(done)] == done)
