"""Each game of the rules contract as an OpenSpiel Python game, for bench/engine.py only.

OpenSpiel's MCTSBot is the reference opponent the engine is measured against; it needs a
``pyspiel.Game``. Moves become action numbers in the order they are first met (one table
per game, shared by its states); a die is an explicit chance node with its probabilities.
Never imported by the service.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import rules

#: The most distinct decisions a game is declared to have (the action table grows to it).
_ACTIONS = 1 << 20


class RulesGame(pyspiel.Game):
    """``game`` of ``rules.GAMES`` in OpenSpiel's shape."""

    def __init__(self, game: str) -> None:
        start = rules.new_game(game)
        kind = pyspiel.GameType(
            short_name=f"sensorboard_{game}", long_name=f"sensorboard {game}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if start.HAS_CHANCE
                         else pyspiel.GameType.ChanceMode.DETERMINISTIC),
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2, min_num_players=2,
            provides_information_state_string=False, provides_information_state_tensor=False,
            provides_observation_string=False, provides_observation_tensor=False,
            parameter_specification={})
        info = pyspiel.GameInfo(
            num_distinct_actions=_ACTIONS, max_chance_outcomes=_ACTIONS if start.HAS_CHANCE
            else 0, num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=100_000)
        super().__init__(kind, info, {})
        self.game = game
        self.actions: dict = {}   # move -> action number
        self.moves: list = []     # action number -> move

    def action(self, move) -> int:
        number = self.actions.get(move)
        if number is None:
            number = self.actions[move] = len(self.moves)
            self.moves.append(move)
        return number

    def new_initial_state(self) -> RulesState:
        return RulesState(self, rules.new_game(self.game))

    def wrap(self, state: rules.GameState) -> RulesState:
        return RulesState(self, state.clone())


class RulesState(pyspiel.State):
    """A rules state seen through OpenSpiel's API. Whose turn it is (or that the game is
    over) is worked out once per position: OpenSpiel asks it several times a decision, and
    the rules' ``outcome()`` is not free, so the wrapper does not slow MCTSBot down more
    than it must."""

    def __init__(self, game: RulesGame, state: rules.GameState) -> None:
        super().__init__(game)
        self.table = game
        self.state = state
        self.player = self._player()

    def _player(self) -> int:
        if self.state.outcome() is not None:
            return pyspiel.PlayerId.TERMINAL
        if self.state.to_move == rules.CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self.state.PLAYERS.index(self.state.to_move)

    def current_player(self) -> int:
        return self.player

    def _legal_actions(self, player: int) -> list[int]:
        moves = self.state.legal_moves()
        try:  # the moves met before, as nearly all are after the first few simulations
            return sorted(map(self.table.actions.__getitem__, moves))
        except KeyError:
            return sorted(map(self.table.action, moves))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((self.table.action(m), p) for m, p in self.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self.state.push(self.table.moves[action])
        self.player = self._player()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.state.move_str(self.table.moves[action])

    def is_terminal(self) -> bool:
        return self.player == pyspiel.PlayerId.TERMINAL

    def is_chance_node(self) -> bool:
        return self.player == pyspiel.PlayerId.CHANCE

    def returns(self) -> list[float]:
        outcome = self.state.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        won = self.state.PLAYERS.index(outcome.winner)
        return [1.0 if won == 0 else -1.0, 1.0 if won == 1 else -1.0]

    def __deepcopy__(self, memo) -> RulesState:
        return RulesState(self.table, self.state.clone())

    def clone(self) -> RulesState:
        return RulesState(self.table, self.state.clone())

    def __str__(self) -> str:
        return self.state.position_str()


def mcts_bot(table: RulesGame, simulations: int, seed: int, rollout_cap: int = 1000,
             kind: type[mcts.MCTSBot] = mcts.MCTSBot) -> mcts.MCTSBot:
    """OpenSpiel's MCTSBot as its examples set it up: UCT with c = 2, one random rollout
    per leaf (at most ``rollout_cap`` decisions), solving proven wins."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng,
                                            max_length=rollout_cap)
    return kind(table, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                random_state=rng, solve=True)


class _TimeUp(Exception):
    """Raised inside MCTSBot's search loop when its CPU time is spent."""


class _CappedBot(mcts.MCTSBot):
    """MCTSBot whose search stops at a CPU-time deadline: its tree policy, entered once
    per simulation, keeps the root and raises :class:`_TimeUp` once ``deadline`` (process
    CPU time) is past and the root has been expanded (two simulations)."""

    deadline = float("inf")
    root = None

    def _apply_tree_policy(self, root, state):
        self.root = root
        if root.explore_count >= 2 and time.process_time() >= self.deadline:
            raise _TimeUp
        return super()._apply_tree_policy(root, state)


class TimedBot:
    """MCTSBot given ``seconds`` of process CPU time per decision: it simulates until the
    time is spent (the simulation under way finishes; two at least, as one leaves its
    root without children), then takes what its own search would (the root's best child).
    A forced decision is taken at once, as the engine does. ``spent``, ``decisions`` and
    ``simulations`` add up what it did on the decisions it searched."""

    def __init__(self, table: RulesGame, seconds: float, rollout_cap: int = 1000) -> None:
        self.table, self.seconds, self.rollout_cap = table, seconds, rollout_cap
        self.spent, self.decisions, self.simulations = 0.0, 0, 0

    def __call__(self, state: rules.GameState, seed: int):
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        bot = mcts_bot(self.table, 1 << 40, seed, self.rollout_cap, _CappedBot)
        wrapped = self.table.wrap(state)
        began = time.process_time()
        bot.deadline = began + self.seconds
        try:
            root = bot.mcts_search(wrapped)
        except _TimeUp:
            root = bot.root
        self.spent += time.process_time() - began
        self.decisions += 1
        self.simulations += root.explore_count
        return self.table.moves[root.best_child().action]


def random_plies(table: RulesGame, seed: int, cap: int = 1000) -> int:
    """One random game through the wrapper as MCTSBot's rollouts play it (``numpy``
    choices, at most ``cap`` decisions); the decisions it made."""
    state, rng, plies = table.new_initial_state(), np.random.RandomState(seed), 0
    while not state.is_terminal() and plies < cap:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions, probs = [a for a, _ in outcomes], [p for _, p in outcomes]
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return plies
