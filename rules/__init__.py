"""Pure game logic for the five sensorboard games; imports nothing outside the stdlib.

>>> import rules
>>> "tessella" in rules.GAMES
True
>>> state = rules.new_game("tessella")
>>> state.to_move, len(state.legal_moves()) > 0, state.outcome()
('clear', True, None)
>>> text = state.position_str()
>>> rules.from_position("tessella", text) == state
True
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from .base import CHANCE, GameState, Outcome
from .errors import (
    IllegalMoveError,
    MoveSyntaxError,
    PositionError,
    RulesError,
    SetupError,
    UnknownGameError,
)

__all__ = [
    "CHANCE", "GAMES", "GameState", "Outcome", "new_game", "from_position", "game_module",
    "RulesError", "UnknownGameError", "MoveSyntaxError", "IllegalMoveError", "PositionError",
    "SetupError",
]

# Every game the project knows; a game appears in GAMES once its module exists.
GAME_NAMES = ("tessella", "tulaga", "telec", "teblo", "tesulda")


def _load() -> dict[str, ModuleType]:
    games = {}
    for name in GAME_NAMES:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            games[name] = importlib.import_module(f"{__name__}.{name}")
    return games


GAMES: dict[str, ModuleType] = _load()


def game_module(game: str) -> ModuleType:
    try:
        return GAMES[game]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {game!r}; valid games: {', '.join(sorted(GAMES))}"
        ) from None


def new_game(game: str, **options) -> GameState:
    """The start position of ``game``; options are game specific (e.g. ``rank_stones=5``)."""
    return game_module(game).new_game(**options)


def from_position(game: str, text: str) -> GameState:
    """Read a position written by ``state.position_str()``; raises :class:`PositionError`."""
    return game_module(game).from_position(text)
