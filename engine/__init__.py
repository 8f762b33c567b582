"""A search for hints and opponents over any game of the rules contract.

>>> import rules, engine
>>> state = rules.new_game("tulaga")
>>> result = engine.search(state, level=1, seed=7)
>>> state.is_legal(result.move), 0.0 <= result.win <= 1.0
(True, True)
"""

from .hint import Hint, Step, explain, hint
from .profiles import PROFILES, Profile
from .search import LEVELS, Result, search
from .worker import EngineWorker

__all__ = ["LEVELS", "PROFILES", "EngineWorker", "Hint", "Profile", "Result", "Step", "explain",
           "hint", "search"]
