"""An opponent that is not at the board: the engine, a person on the page, another board.

An :class:`Opponent` plays one side. The service (through a :class:`Seat`) asks its
:meth:`~Opponent.poll` each scan while it is that side's turn and nothing is expected yet;
the turn it gives lights on the LEDs in its own roles (``opponent-from``, ``opponent-to``:
each step of a turn of several in order, the invisible decisions in words on the page and
in the terminal) until the player at the board carries it out. The tracker then expects
exactly that turn: anything else is an error naming the cells to put right. Every event
the board emits reaches :meth:`~Opponent.observe`, in order: the opponent's turns once
carried out, the board's own, takebacks, rolls.

>>> import rules
>>> state = rules.new_game("tessella")
>>> proposal = propose(state, "c1-c2")
>>> proposal.text, proposal.hint.steps[0].lifted, proposal.hint.steps[0].placed
('c1-c2', ('c1',), ('c2',))
>>> propose(state, "c1-c5")
Traceback (most recent call last):
...
sensorboard.opponent.TurnError: c1-c5: not a legal decision of clear here
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, NamedTuple, Protocol

import rules
from engine import Hint, Result, explain
from sensorboard import events, suggest

if TYPE_CHECKING:
    from sensorboard.service import BoardService

ROLES = ("opponent-from", "opponent-to")


class Opponent(Protocol):
    """One side played from elsewhere."""

    side: str  # the rules' player name it plays
    label: str  # "engine level 3", "page", "board:NAME": shown on the page and terminal

    def observe(self, event: events.Event) -> None:
        """Every event the board emits, in order (turns, takebacks, rolls, the end)."""

    def poll(self, state: rules.GameState) -> str | None:
        """While it is ``side``'s turn: the rest of the turn from ``state`` (decisions'
        notations separated by spaces, as a ``move`` event writes a turn) once ready;
        None while thinking or waiting. Never blocks."""

    def close(self) -> None:
        """Stop thinking or listening."""


class TurnError(ValueError):
    """An opponent's turn that the position does not allow."""


class Proposal(NamedTuple):
    """An opponent's turn, given at a position: the decisions made when it came, the
    player, the turn's decisions from there, and how the board shows it."""

    since: int
    player: str
    decisions: tuple[Hashable, ...]
    hint: Hint

    @property
    def text(self) -> str:
        return self.hint.notation


def propose(state: rules.GameState, text: str) -> Proposal:
    """The :class:`Proposal` of ``text`` at ``state`` (left as it is); raises
    :class:`TurnError` naming the first decision the position does not allow. A turn may
    stop where a die is to be rolled (the board's die rolls it)."""
    work, line = state.clone(), []
    player = state.to_move
    for token in text.split():
        if work.outcome() is not None or work.to_move not in (player, rules.CHANCE):
            raise TurnError(f"{text}: the turn is over before {token}")
        try:
            decision = work.parse_move(token)
        except rules.RulesError as e:
            raise TurnError(f"{token}: {e}") from None
        faces = [face for face, _ in work.chance_outcomes()]
        if decision not in (faces or work.legal_moves()):
            raise TurnError(f"{token}: not a legal decision of {player} here")
        work.push(decision)
        line.append(decision)
    if not line:
        raise TurnError("an empty turn")
    hint = explain(state, Result(line[0], 0.5, 0, tuple(line)))
    return Proposal(len(state.move_stack), player, tuple(line), hint)


def frame(proposal: Proposal, now: float) -> dict[str, str]:
    """The cells of the step shown at ``now`` (the visible steps take turns)."""
    return suggest.frame(proposal.hint, now, ROLES)


class Seat:
    """The service's side of an opponent: polls it on its turn, tells the tracker which
    turn to expect, and hands it every event."""

    def __init__(self, opponent: Opponent) -> None:
        self.opponent = opponent
        self.proposal: Proposal | None = None
        self._refused: str | None = None  # a turn refused, not reported again

    @property
    def side(self) -> str:
        return self.opponent.side

    def heard(self, item: dict) -> None:
        """A listener of the service: the events, in order, to the opponent."""
        event = events.of(item)
        if event is None or isinstance(event, (events.Sensor, events.Unreadable)):
            return
        if isinstance(event, (events.Move, events.Takeback, events.Correction)):
            self.proposal = None  # carried out, or the game went back or elsewhere
        self.opponent.observe(event)

    def expect(self, service: BoardService) -> None:
        """Tell the tracker what the opponent's side may do now: its turn once given,
        nothing before; anything while it is the other side's turn."""
        tracker = service.tracker
        if not self._ours(service):
            tracker.expect(None)
        elif self._current(service):
            tracker.expect(self.proposal.decisions, since=self.proposal.since)
        else:
            tracker.expect(())

    def scan(self, service: BoardService, now: float) -> list[dict]:
        """One scan: while the opponent is to move and has given nothing, poll it; its
        turn is journaled as an ``opponent`` event and expected from then on. Where it
        rolls first and the board has a die, the board rolls for it."""
        if not self._ours(service) or self._current(service):
            return []
        tracker = service.tracker
        text = self.opponent.poll(tracker.state)
        if text is None or text == self._refused:
            return []
        try:
            proposal = propose(tracker.state, text)
        except TurnError as e:
            self._refused = text
            item = events.Rejected(round(now, 3), f"{self.opponent.label}: {e}").to_json()
            service.record(item)
            return [item]
        work = tracker.state.clone()
        for decision in proposal.decisions:
            work.push(decision)
        if work.to_move == rules.CHANCE and tracker.dice is not None:
            return service.press("roll")  # the board's die, as for any turn
        self.proposal = proposal
        self.expect(service)
        item = events.Proposed(round(now, 3), proposal.player, proposal.text,
                               proposal.hint.words, self.opponent.label).to_json()
        service.record(item)
        return [item]

    def frame(self, service: BoardService, now: float) -> dict[str, str] | None:
        """The LEDs of the opponent's turn while it waits to be carried out (None: none)."""
        return frame(self.proposal, now) if self._current(service) else None

    def next_change(self, now: float) -> float | None:
        return None if self.proposal is None else suggest.next_change(self.proposal.hint, now)

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


class PageOpponent:
    """A person on the web page plays ``side`` by clicking: the page hands in the turn
    (:meth:`submit`), decision by decision or whole."""

    label = "page"

    def __init__(self, side: str) -> None:
        self.side = side
        self._turn: tuple[int, str] | None = None  # decisions made when it came, the turn

    def submit(self, state: rules.GameState, text: str) -> Proposal:
        """Hand in ``side``'s turn at ``state``; raises :class:`TurnError` where it is not
        their turn or the turn is not legal there."""
        if state.to_move not in (self.side, rules.CHANCE) or state.outcome() is not None:
            raise TurnError(f"it is not {self.side}'s turn")
        proposal = propose(state, text)
        self._turn = (len(state.move_stack), proposal.text)
        return proposal

    def observe(self, event: events.Event) -> None:
        if isinstance(event, (events.Move, events.Takeback, events.Correction)):
            self._turn = None

    def poll(self, state: rules.GameState) -> str | None:
        if self._turn is None or self._turn[0] != len(state.move_stack):
            return None
        return self._turn[1]

    def close(self) -> None:
        self._turn = None
