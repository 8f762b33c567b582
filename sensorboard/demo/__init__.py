"""Bundled demo games: ``python -m sensorboard.demo GAME`` writes one as replay input lines.

A demo is a seeded random game carried out by hand (boards.choreography) on the simulated
board, with one slip in it where the game allows one (a piece put where it may not go,
left there until the board lights the error, then put right). The game is played through
the real pipeline while it is scripted, so wherever the board asks (a Teblo pawn stepping
off its block looks like a placement on reed switches) the script presses the clock
and answers, as a player would.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING

import rules
from boards import decisions
from boards.choreography import turn_ops
from boards.constants import NONE
from boards.decisions import Turn
from boards.layout import Layout, layout_for_game

if TYPE_CHECKING:
    from sensorboard.service import BoardService

FOLDER = Path(__file__).parent
_Act = Callable[[str, str, str, float], None]  # script's at(op, key, value, wait)


def pick_line(game: str, seed: int, max_plies: int) -> list[Hashable]:
    """A seeded random game that shows the long turns (captures, claims, reaps) often.
    For a game whose turns take several decisions each turn is a random :class:`Turn`
    (chance outcomes drawn with their probabilities)."""
    rng = random.Random(seed)
    state = rules.new_game(game)
    if state.HAS_CHANCE or state.TURN_DECISIONS > 1:
        turns: list[Hashable] = []
        while state.outcome() is None and len(turns) < max_plies:
            turns.append(random_turn(state, rng))
            decisions.push(state, turns[-1])
        return turns
    while state.outcome() is None and len(state.move_stack) < max_plies:
        moves = state.legal_moves()
        size = {m: len(turn_ops(state, m, random.Random(0))) for m in moves}
        longest = [m for m in moves if size[m] == max(size.values())]
        state.push(rng.choice(longest if rng.random() < 0.7 else moves))
    return state.move_stack


def random_turn(state: rules.GameState, rng: random.Random) -> Turn:
    """A random turn (or the rest of one) for the player to move, decision by decision,
    chance outcomes drawn with their probabilities. ``state`` is left unchanged."""
    player, turn = state.to_move, []
    while decisions.in_turn(state, player):
        if state.to_move == rules.CHANCE:
            move = state.sample_chance(rng)
        else:
            move = rng.choice(state.legal_moves())
        state.push(move)
        turn.append(move)
    decisions.pop(state, Turn(turn))
    return Turn(turn)


def _rolls(state: rules.GameState, turn: Hashable) -> bool:
    """Whether ``turn`` begins with a decision that leads to a chance node (a roll)."""
    first = decisions.decisions(turn)[0]
    state.push(first)
    chance = state.to_move == rules.CHANCE
    state.pop()
    return chance


def script(game: str, line: list[Hashable] | None, layout: Layout, rng: random.Random,
           step: float = 0.7, pause: float = 1.2, slip: bool = True, dice: str = "physical",
           seed: int = 0, turns: int = 40, vary: bool = False) -> list[dict]:
    """Replay input lines that carry out ``line`` and answer the board's questions.

    With ``vary`` a turn whose open questions the player declines (answers ``none``)
    ends at random in one of the ways a player may end it: answering, pressing the
    clock, or the opponent starting to move; and half the time a piece that may be set
    down partway (a Tesulda Dodger between its legs) is.

    With ``dice="electronic"`` the board's die (seeded by ``seed``) decides the rolls, so
    ``line`` is ``None`` and ``turns`` random turns are played, each roll asked for with
    the ``roll`` button as a player would.
    """
    from hardware.backends import HardwareConfig
    from hardware.clock import VirtualClock
    from sensorboard.board import BoardOptions, open_board
    from sensorboard.replay import VirtualRun

    clock = VirtualClock()
    chance = rules.new_game(game).HAS_CHANCE
    service = open_board(BoardOptions(
        game, layout=layout, clock=clock, hardware=HardwareConfig(seed=seed),
        options=(f"dice={dice}",) if chance else ())).service
    run = VirtualRun(service, clock, lambda item: None)
    shadow = rules.new_game(game)
    events: list[dict] = []

    def at(op: str, key: str, value: str, wait: float) -> None:
        run.scan_until(clock.now() + wait)
        events.append({"t": round(clock.now(), 3), "op": op, key: value})
        service.act(op, value)

    run.scan_until(1.0)
    planned = iter(line) if line is not None else None
    count = len(line) if line is not None else turns
    for k in range(count):
        if shadow.outcome() is not None:
            break
        move = next(planned) if planned is not None else random_turn(shadow, rng)
        if planned is None and _rolls(shadow, move):
            move = _roll(at, service, shadow, rng, step)
        ops = turn_ops(shadow, move, rng, detour=vary and rng.random() < 0.5)
        slips = _slip_cells(shadow, ops, slip)
        for n, (op, cell) in enumerate(ops):
            if slips and n == 1:
                wrong = rng.choice(slips)
                at("place", "cell", wrong, step)
                at("lift", "cell", wrong, 2.5)  # long enough for the error to light
                slip = False
            at(op, "cell", cell, step)
        decisions.push(shadow, move)
        run.scan_until(clock.now() + 0.3)
        _answer(at, service, shadow, rng, step, vary, last=k == count - 1)
        run.scan_until(clock.now() + pause)
    return events


def _roll(at: _Act, service: BoardService, shadow: rules.GameState, rng: random.Random,
          step: float) -> Turn:
    """Press the roll button: the turn that begins with the board's roll, the rest random."""
    at("press", "button", "roll", step)
    first, face = service.view.state.move_stack[-2:]
    shadow.push(first)
    shadow.push(face)
    move = Turn((first, face, *random_turn(shadow, rng)))
    shadow.pop()
    shadow.pop()
    return move


def _slip_cells(shadow: rules.GameState, ops: list[tuple[str, str]], slip: bool) -> list[str]:
    """The empty cells a slip in the turn ``ops`` carries out may go to ([]: no slip)."""
    empty = [c for c in shadow.GEOMETRY.names if c not in shadow.physical()
             and all(cell != c for _, cell in ops)]
    if slip and empty:  # a slip is a cell no move may go to
        empty = [c for c in empty if c not in _reachable(shadow)]
    if slip and len(shadow.move_stack) >= 4 and [o for o, _ in ops] == ["lift", "place"]:
        return empty
    return []


def _answer(at: _Act, service: BoardService, shadow: rules.GameState, rng: random.Random,
            step: float, vary: bool, last: bool) -> None:
    """Once the turn is carried out on the board: press the clock, then answer each
    question the board still has (with ``vary``, a declined one may end otherwise)."""
    for _ask in range(8):  # the clock, then each question the board still has
        done = len(service.view.state.move_stack)
        if done >= len(shadow.move_stack):
            break
        if vary and service.view.question is not None and _declines(
                service.view.state, shadow.move_stack[done:]):
            way = rng.randrange(3)
            if way == 1 or way == 2 and (shadow.outcome() is not None or last):
                at("press", "button", "clock", step)
                continue
            if way == 2:
                break  # the next turn's first piece taken up declines what is open
        if service.view.question is None:
            at("press", "button", "clock", 0.3)
        done = len(service.view.state.move_stack)
        if service.view.question is not None and done < len(shadow.move_stack):
            # the answer: our turn's next decision
            at("choose", "value", shadow.move_str(shadow.move_stack[done]), step)
        elif service.view.question is not None:  # the next player's unseen turn: none
            at("choose", "value", NONE, step)


def _reachable(state: rules.GameState) -> set[str]:
    """The cells some first decision of the turn puts a piece on."""
    out: set[str] = set()
    for move in state.legal_moves():
        state.push(move)
        out.update(state.physical())
        state.pop()
    return out


def _declines(state: rules.GameState, rest: list) -> bool:
    """Whether ``rest`` (the decisions left of the turn being asked) is what declining
    every open question gives: ``none``, or the one decision the position offers."""
    state = state.clone()
    for move in rest:
        legal = state.legal_moves()
        if move not in legal or len(legal) > 1 and state.move_str(move) != "none":
            return False
        state.push(move)
    return True


def build(game: str, seed: int = 7, max_plies: int = 60) -> list[dict]:
    line = pick_line(game, seed, max_plies)
    return script(game, line, layout_for_game(game), random.Random(seed))


def load(game: str) -> list[dict]:
    path = FOLDER / f"{game}.jsonl"
    if not path.exists():
        return build(game)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def apply(service, event: dict) -> list[dict]:
    """Carry out one script line on a service's simulated board; returns its events."""
    from sensorboard.service import ACTIONS

    op = event["op"]
    return service.act(op, event[ACTIONS[op]], event.get("player"))
