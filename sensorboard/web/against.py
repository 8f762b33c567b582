"""The page's "play against" menu and the opponent's panel: who plays the other side (the
engine at a level, a person on this page, nobody), the opponent's turn to carry out, the
engine's thinking (its turn and its win estimate, or a hint's), and for a person on the page the
decisions they may pick next, each with the cells it lifts from and puts on.

>>> [item["value"] for item in MENU][:3]
['', 'engine:1', 'engine:2']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import LEVELS
from sensorboard.opponent import (
    Choice,
    ChoiceError,
    EngineOpponent,
    PageOpponent,
    TurnError,
    local_opponent,
    parse_choice,
)
from sensorboard.remote import PairingError, RemoteOpponent, open_remote
from sensorboard.service import BoardService

if TYPE_CHECKING:
    from sensorboard.board import Board

#: The menu's entries: the value ``POST /api/against`` takes, and its words.
MENU = [{"value": "", "label": "nobody: both sides play at the board"},
        *({"value": f"engine:{level}", "label": f"the engine, level {level}"}
          for level in LEVELS),
        {"value": "page", "label": "a person on this page"},
        {"value": "board:", "label": "another board (its name; docs/remote.md)"}]


def opponent_json(service: BoardService) -> dict | None:
    """The opponent's panel, or None where both sides play at the board."""
    seat = service.seat
    if seat is None:
        return None
    opponent = seat.opponent
    proposal = seat.shown(service)
    out: dict = {
        "value": _value(opponent),
        "label": opponent.label,
        "side": opponent.side,
        "thinking": seat.thinking(service),
        "proposed": None if proposal is None else {"move": proposal.text,
                                                   "words": proposal.hint.words,
                                                   "silent": seat.silent},
    }
    if isinstance(opponent, PageOpponent):
        state = service.view.state
        out["picked"] = opponent.picked(state)
        out["options"] = _options(opponent, state)
    if isinstance(opponent, RemoteOpponent):  # the code both boards show, the last news
        out["code"], out["game"] = opponent.code, opponent.pairing.number
        out["news"] = opponent.said[-1] if opponent.said else None
    return out


def thinking_json(service: BoardService) -> dict | None:
    """The engine's thinking, for the page to show on request: the engine opponent's
    turn and its win estimate for its side, else the last hint's (``hint`` asks)."""
    seat = service.seat
    opponent = seat.opponent if seat is not None else None
    if isinstance(opponent, EngineOpponent) and opponent.thoughts is not None:
        turn, win = opponent.thoughts
        return {"by": opponent.label, "side": opponent.side, "move": turn,
                "win": round(win, 3)}
    tip = service.suggester.hint if service.suggester is not None else None
    if tip is None:
        return None
    return {"by": "hint", "side": service.view.state.to_move, "move": tip.notation,
            "win": round(tip.win, 3)}


def _value(opponent) -> str:
    """The menu's value for ``opponent`` (its label where the menu has no entry)."""
    if isinstance(opponent, EngineOpponent):
        return f"engine:{opponent.level}"
    return "page" if isinstance(opponent, PageOpponent) else opponent.label


_CACHE: dict[tuple, list[dict]] = {}


def _options(opponent: PageOpponent, state) -> list[dict]:
    """The page's options at ``state`` (worked out once per position and picks)."""
    key = (id(opponent), state.position_str(), tuple(opponent.picked(state)),
           opponent.poll(state))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = opponent.options(state)
    return _CACHE[key]


def choose(service: BoardService, value: object, side: object = None, *,
           board: Board | None = None, pair: object = None) -> Choice | None:
    """The menu's choice: ``value`` as ``--opponent`` takes it (``""``: nobody), playing
    ``side`` (None: the game's second player), from now on; another board is paired on
    ``board``'s link and journal (``pair``: the code it shows, None: this board makes
    one). Raises :class:`ChoiceError` naming what is wrong; nothing changes then."""
    if not all(v is None or isinstance(v, str) for v in (value, side, pair)) or value is None:
        raise ChoiceError('against: give the opponent and the side as text, e.g. '
                          '{"opponent": "engine:2", "side": "dark"}')
    if not value:
        service.set_opponent(None)
        return None
    choice = parse_choice(value, side or None)
    state = service.view.state
    choice.side_in(state)
    dice = "electronic" if "roll" in service.view.buttons else "physical"
    if choice.kind == "board" and dice == "electronic":
        raise ChoiceError(f"board:{choice.name}: each board's electronic die would roll its "
                          "own; start the game with dice=physical")
    if choice.kind == "board":
        service.set_opponent(_remote(board, choice, choice.side_in(state), pair or None))
        return choice
    if pair:
        raise ChoiceError("against: a pairing code goes with another board (board:NAME)")
    service.set_opponent(local_opponent(choice, state, seed=service.config.seed or 0,
                                        dice=dice))
    return choice


def pick(service: BoardService, move: object) -> None:
    """A decision picked on the page for the side a person there plays (None: pick the
    turn again). Raises :class:`TurnError` naming what is wrong."""
    opponent = service.seat.opponent if service.seat is not None else None
    if not isinstance(opponent, PageOpponent):
        raise TurnError("nobody plays from this page: choose 'a person on this page' "
                        "under Play against")
    if move is None:
        opponent.restart()
    elif not isinstance(move, str):
        raise TurnError(f"turn: a decision is text, got {type(move).__name__}")
    else:
        opponent.pick(service.view.state, move)


def _remote(board: Board | None, choice: Choice, side: str, pair: str | None):
    """Board ``choice.name`` as the opponent, on ``board``'s link and journal."""
    if board is None or board.link is None or board.writer is None:
        raise ChoiceError(f"board:{choice.name}: this board reaches no broker; start it "
                          "with --mqtt URL (docs/remote.md)")
    try:
        return open_remote(choice.name, side, board.writer, board.link, pair=pair,
                           note=lambda text: print(f"sensorboard: {text}", flush=True))
    except PairingError as e:
        raise ChoiceError(str(e)) from None
