"""The board's electronic die: the outcome of a chance node, from a seeded source.

The tracker asks it when the player presses ``roll``; every roll is reported as a
:class:`boards.events.Rolled` event, so the journal records it and a replay with the same
seed rolls the same faces.

>>> import rules
>>> state = rules.new_game("telec")
>>> state.push_str("roll")
Move(frm='', to='roll')
>>> die = ElectronicDice(seed=7)
>>> state.move_str(die.roll(state)) in ("null", "ace", "2", "3", "4", "5")
True
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import rules

#: How the dice of a game with chance are thrown: the board's own, or the players'.
DICE = ("physical", "electronic")


class ElectronicDice:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def roll(self, state: rules.GameState) -> Hashable:
        """An outcome of the chance node ``state`` is at, drawn with its probability."""
        return state.sample_chance(self.rng)
