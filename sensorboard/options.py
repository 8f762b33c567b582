"""Game options given as ``--option KEY=VALUE``: the rules' own (``rank_stones=5`` for
Tulaga) and the board's (``dice=electronic|physical`` where a game has dice).

>>> split_options("tulaga", ["rank_stones=5"])
({'rank_stones': 5}, {})
>>> split_options("telec", ["dice=electronic"])
({}, {'dice': 'electronic'})
"""

from __future__ import annotations

import inspect
import secrets

import rules
from boards.dice import DICE

BOARD_OPTIONS = {"dice": DICE}


class OptionError(ValueError):
    """An option the game does not have, or a value it does not take."""


def _has_chance(game: str) -> bool:
    return type(rules.new_game(game)).HAS_CHANCE


def split_options(game: str, pairs: list[str]) -> tuple[dict, dict]:
    """``(rules options, board options)`` from ``KEY=VALUE`` texts; raises
    :class:`OptionError` naming the option and what is wrong."""
    params = inspect.signature(rules.game_module(game).new_game).parameters
    game_opts: dict = {}
    board_opts: dict = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise OptionError(f"option {pair!r}: expected KEY=VALUE, e.g. dice=electronic")
        if key in BOARD_OPTIONS and (key != "dice" or _has_chance(game)):
            if value not in BOARD_OPTIONS[key]:
                raise OptionError(f"option {key}: must be one of "
                                  f"{', '.join(BOARD_OPTIONS[key])}, got {value!r}")
            board_opts[key] = value
        elif key in params:
            default = params[key].default
            if isinstance(default, int) and not isinstance(default, bool):
                if not value.lstrip("-").isdigit():
                    raise OptionError(f"option {key}: must be a whole number, got {value!r}")
                game_opts[key] = int(value)
            else:
                game_opts[key] = value
        else:
            valid = sorted([*params, *(k for k in BOARD_OPTIONS
                                       if k != "dice" or _has_chance(game))])
            raise OptionError(f"option {key!r}: {game} has no such option; options: "
                              f"{', '.join(valid) or 'none'}")
    return game_opts, board_opts


def start(game: str, pairs: list[str]) -> tuple[rules.GameState, dict]:
    """The start position of ``game`` with its options, and the board's options."""
    game_opts, board_opts = split_options(game, pairs)
    return new_game(game, game_opts), board_opts


def new_game(game: str, game_opts: dict) -> rules.GameState:
    """A new game with the rules' options, a value the game refuses an :class:`OptionError`."""
    try:
        return rules.new_game(game, **game_opts)
    except ValueError as e:
        raise OptionError(f"option: {e}") from None


def die_seed(seed: int | None) -> int:
    """The electronic die's seed: ``--seed``, else a new one, so games roll differently."""
    return secrets.randbits(32) if seed is None else seed


def takes_setup(game: str) -> bool:
    """Whether ``game`` starts from a setup the players choose (Tesulda), not a fixed one."""
    return "setup" in inspect.signature(rules.game_module(game).new_game).parameters


def known_buttons(view) -> list[str]:
    """The buttons a press may name: the board's (a :class:`boards.view.TurnView`'s), and
    ``roll`` wherever the game has dice (without the board's die such a press is answered:
    roll your own)."""
    own = list(view.buttons)
    return [*own, "roll"] if view.state.HAS_CHANCE and "roll" not in own else own
