"""An opponent that is not at the board: the engine, a person on the page, another board.

An :class:`Opponent` plays one side. The service (through a :class:`sensorboard.seat.Seat`)
asks its :meth:`~Opponent.poll` each scan while it is that side's turn and nothing is
expected yet; the turn it gives lights on the LEDs in its own roles (``opponent-from``,
``opponent-to``: each step of a turn of several in order, the invisible decisions in words
on the page and in the terminal) until the player at the board carries it out. The tracker
then expects exactly that turn: anything else is an error naming the cells to put right.
Every event the board emits reaches :meth:`~Opponent.observe`, in order: the opponent's
turns once carried out, the board's own, takebacks, rolls.

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

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import rules
from boards.constants import quote
from engine import LEVELS, EngineWorker, Hint, Result, explain
from engine.hint import step_cells
from sensorboard import events, suggest

ROLES = ("opponent-from", "opponent-to")


class Opponent(Protocol):
    """One side played from elsewhere."""

    side: str  # the rules' player name it plays
    label: str  # "engine level 3", "page", "board:NAME": shown on the page and terminal
    # True while it works its turn out by itself (the engine): the board is not settled
    # yet. False for one that waits for someone elsewhere (the page, another board).
    thinking: bool

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
    work, line, rolled = state.clone(), [], False
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
        rolled = rolled or bool(faces)
        work.push(decision)
        line.append(decision)
    if not line:
        raise TurnError("an empty turn")
    hint = explain(state, Result(line[0], 0.5, 0, tuple(line)))
    if rolled:  # the opponent rolled: the player here carries it out, rolling nothing
        hint = hint._replace(words=said(state, line))
    return Proposal(len(state.move_stack), player, tuple(line), hint)


def said(state: rules.GameState, line: list[Hashable]) -> str:
    """The turn ``line`` in words, each decision's as the rules say it, a roll it holds
    said as made.

    >>> said(rules.new_game("telec"), rules.new_game("telec").parse_turn("roll 4 5"))
    'Blue rolled 4: enter on a1; then size 5 pyramid'
    """
    work, texts, roller = state.clone(), [], state.to_move
    for decision in line:
        text, _ = work.decision_words(decision)
        if work.to_move == rules.CHANCE:
            rolled = f"{roller.capitalize()} rolled {text[:1].lower()}{text[1:]}"
            texts[-1:] = [rolled]  # in place of "Roll the die"
        else:
            roller = work.to_move
            texts.append(text)
        work.push(decision)
    return "; then ".join([*texts[:1], *(t[:1].lower() + t[1:] for t in texts[1:])])


def frame(proposal: Proposal, now: float) -> dict[str, str]:
    """The cells of the step shown at ``now`` (the visible steps take turns)."""
    return suggest.frame(proposal.hint, now, ROLES)


class PageOpponent:
    """A person on the web page plays ``side`` by clicking: the turn's decisions are picked
    one by one (:meth:`pick`; :meth:`options` are those the position offers next, each
    with the cells it lifts from and puts on) or handed in whole (:meth:`submit`). Where
    a die is to be rolled the board's die rolls it (``board_rolls``), or the person
    picks the face their own die shows."""

    label = "page"
    thinking = False  # a person decides

    def __init__(self, side: str, *, board_rolls: bool = False) -> None:
        self.side = side
        self.board_rolls = board_rolls
        self._turn: tuple[int, str] | None = None  # decisions made when it came, the turn
        self._picked: tuple[int, list[str]] = (-1, [])  # likewise, a turn being picked

    def submit(self, state: rules.GameState, text: str) -> Proposal:
        """Hand in ``side``'s turn at ``state``; raises :class:`TurnError` where it is not
        their turn or the turn is not legal there."""
        if state.to_move not in (self.side, rules.CHANCE) or state.outcome() is not None:
            raise TurnError(f"it is not {self.side}'s turn")
        proposal = propose(state, text)
        self._turn = (len(state.move_stack), proposal.text)
        self._picked = (-1, [])
        return proposal

    def picked(self, state: rules.GameState) -> list[str]:
        """The decisions picked so far of the turn at ``state``."""
        at, line = self._picked
        return list(line) if at == len(state.move_stack) else []

    def options(self, state: rules.GameState) -> list[dict]:
        """What may be picked next at ``state`` (empty once the turn is handed in, or
        where it is not ``side``'s turn): each decision's notation, words and cells."""
        if self.poll(state) is not None or state.outcome() is not None \
                or state.to_move not in (self.side, rules.CHANCE):
            return []
        work = state.clone()
        for token in self.picked(state):
            work.push(work.parse_move(token))
        faces = [face for face, _ in work.chance_outcomes()]
        out = []
        for decision in faces or work.legal_moves():
            before = work.physical()
            text = work.move_str(decision)
            words, _ = work.turn_words((decision,))
            work.push(decision)
            lifted, placed = step_cells(before, work.physical())
            work.pop()
            out.append({"move": text, "words": words, "from": list(lifted),
                        "to": list(placed)})
        return out

    def pick(self, state: rules.GameState, text: str) -> Proposal | None:
        """Add the decision ``text`` to the turn being picked at ``state``; the turn is
        handed in once it is whole (or reaches the board's die): its :class:`Proposal`,
        else None. Raises :class:`TurnError`."""
        line = [*self.picked(state), text]
        if state.to_move not in (self.side, rules.CHANCE) or state.outcome() is not None:
            raise TurnError(f"it is not {self.side}'s turn")
        work = state.clone()
        propose(work, " ".join(line))  # each decision legal in turn, else TurnError
        for token in line:
            work.push(work.parse_move(token))
        if work.outcome() is None and work.to_move in (self.side, rules.CHANCE) \
                and not (work.to_move == rules.CHANCE and self.board_rolls):
            self._picked = (len(state.move_stack), line)
            return None
        return self.submit(state, " ".join(line))

    def restart(self) -> None:
        """Forget the decisions picked so far (the turn is picked again)."""
        self._picked = (-1, [])

    def observe(self, event: events.Event) -> None:
        if isinstance(event, (events.Move, events.Takeback, events.Correction)):
            self._turn = None

    def poll(self, state: rules.GameState) -> str | None:
        if self._turn is None or self._turn[0] != len(state.move_stack):
            return None
        return self._turn[1]

    def close(self) -> None:
        self._turn = None


class EngineOpponent:
    """The board's own engine plays ``side``: each decision of its turn searched at
    ``level`` (:data:`engine.LEVELS` playouts) in an :class:`engine.EngineWorker` process,
    so scans never wait; under one ``seed`` the same game gets the same turns. Where its
    turn reaches a die roll it stops there for the board's die (``rolls=False``), or rolls
    its own, seeded (``rolls=True``: with physical dice the board cannot roll for it)."""

    def __init__(self, side: str, level: int = 2, *, seed: int = 0, rolls: bool = False
                 ) -> None:
        if level not in LEVELS:
            raise ValueError(f"engine level {level}: levels are {', '.join(map(str, LEVELS))}")
        self.side, self.level, self.seed, self.rolls = side, level, seed, rolls
        self.label = f"engine level {level}"
        # Started now, so that no scan waits for a process to start (tens of ms).
        self._worker: EngineWorker | None = EngineWorker()
        self._key: tuple | None = None  # the position being answered
        self._work: rules.GameState | None = None  # it, with the turn's decisions so far
        self._line: list[str] = []
        self.thoughts: tuple[str, float] | None = None  # its turn and its win estimate
        self.thinking = True  # until its turn is found

    def observe(self, event: events.Event) -> None:
        if isinstance(event, (events.Takeback, events.Correction)):
            self._cancel()

    def poll(self, state: rules.GameState) -> str | None:
        key = (len(state.move_stack), state.move_stack[-1] if state.move_stack else None)
        if key != self._key:
            self._cancel()
            self._key, self._work, self._line, self.thinking = key, state.clone(), [], True
            self._next()
        elif self.thinking:
            if not self._worker.alive:  # asked again at the next poll, in a new process
                self._worker, self._key = None, None
                raise RuntimeError("the engine's search process stopped; it starts again")
            result = self._worker.poll()
            if result is not None:
                self._take(result.move, result.win)
        return None if self.thinking else " ".join(self._line)

    def _next(self) -> None:
        """Ask for the next decision, roll the engine's own die, or end the turn."""
        work = self._work
        while work.to_move == rules.CHANCE and self.rolls and work.outcome() is None:
            faces, weights = zip(*work.chance_outcomes(), strict=True)
            rng = random.Random(f"{self.seed}:{len(work.move_stack)}")
            self._take(rng.choices(faces, weights)[0], None)
            return
        if work.outcome() is not None or work.to_move != self.side:
            self.thinking = False
            return
        if self._worker is None:
            self._worker = EngineWorker()
        self._worker.ask(work, level=self.level, seed=self.seed + len(work.move_stack))

    def _take(self, decision: Hashable, win: float | None) -> None:
        self._line.append(self._work.move_str(decision))
        self._work.push(decision)
        if win is not None:
            self.thoughts = (" ".join(self._line), win)
        self._next()

    def _cancel(self) -> None:
        self._key = None
        if self._worker is not None:
            self._worker.cancel()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class ChoiceError(ValueError):
    """An ``--opponent`` (or ``--opponent-side``) that names no opponent; its text is one
    line for the player."""


@dataclass(frozen=True)
class Choice:
    """What ``--opponent`` names: ``engine[:LEVEL]``, ``page``, ``board:NAME``; and the
    side it plays (None: the game's second player)."""

    kind: str
    level: int | None = None
    name: str | None = None
    side: str | None = None

    @property
    def label(self) -> str:
        """Who plays, in words: ``engine level 2``, ``page``, ``board:NAME``."""
        if self.kind == "engine":
            return f"engine level {self.level}"
        return f"board:{self.name}" if self.kind == "board" else self.kind

    def side_in(self, state: rules.GameState) -> str:
        """The side it plays in ``state``'s game; raises :class:`ChoiceError` for a side
        the game does not have."""
        side = self.side or state.PLAYERS[1]
        if side not in state.PLAYERS:
            raise ChoiceError(f"--opponent-side {quote(side)}: {state.NAME}'s players are "
                              f"{', '.join(state.PLAYERS)}")
        return side


SPEC = "engine[:LEVEL] (LEVEL 1-5), page or board:NAME"


def parse_choice(text: str, side: str | None = None) -> Choice:
    """The :class:`Choice` of ``--opponent TEXT``; raises :class:`ChoiceError`.

    >>> parse_choice("engine:3")
    Choice(kind='engine', level=3, name=None, side=None)
    >>> parse_choice("engine").label
    'engine level 2'
    >>> parse_choice("engine:9")
    Traceback (most recent call last):
    ...
    sensorboard.opponent.ChoiceError: --opponent 'engine:9': the engine's levels are 1-5
    """
    kind, colon, rest = text.partition(":")
    if kind == "engine":
        levels = "-".join(map(str, (min(LEVELS), max(LEVELS))))
        if not colon:
            return Choice("engine", 2, side=side)
        if not rest.isdigit() or int(rest) not in LEVELS:
            raise ChoiceError(f"--opponent {quote(text)}: the engine's levels are {levels}")
        return Choice("engine", int(rest), side=side)
    if kind == "page" and not colon:
        return Choice("page", side=side)
    if kind == "board" and rest:
        return Choice("board", name=rest, side=side)
    raise ChoiceError(f"--opponent {quote(text)}: expected {SPEC}")


def local_opponent(choice: Choice, state: rules.GameState, *, seed: int = 0,
                   dice: str = "physical") -> Opponent:
    """The opponent ``choice`` names, where it plays on this machine (engine, page);
    raises :class:`ChoiceError` for a side the game does not have."""
    side = choice.side_in(state)
    if choice.kind == "engine":
        return EngineOpponent(side, choice.level or 2, seed=seed,
                              rolls=state.HAS_CHANCE and dice != "electronic")
    if choice.kind == "page":
        return PageOpponent(side, board_rolls=dice == "electronic")
    raise ChoiceError(f"--opponent {choice.kind}:{choice.name}: not a local opponent")
