"""The engine bench's parts that decide its tables: the interval and the OpenSpiel wrapper
(each game as a pyspiel game, for MCTSBot)."""

import importlib.util
import random
import sys
from pathlib import Path

import pytest

import rules

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str):
    sys.path.append(str(BENCH))  # engine_openspiel is imported by its name in the bench
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_wilson_interval():
    wilson = load("engine").wilson
    low, high = wilson(0.5, 200)
    assert (round(low, 3), round(high, 3)) == (0.431, 0.569)
    assert wilson(1.0, 20)[0] > 0.8 and wilson(1.0, 20)[1] == 1.0


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_mctsbot_plays_legal_decisions_through_the_wrapper(game):
    pytest.importorskip("pyspiel")
    wrapper = load("engine_openspiel")
    table = wrapper.RulesGame(game)
    state, rng = rules.new_game(game), random.Random(2)
    for n in range(12):
        if state.outcome() is not None:
            break
        if state.to_move == rules.CHANCE:
            outcomes = table.wrap(state).chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.push(state.sample_chance(rng))
            continue
        action = wrapper.mcts_bot(table, 3, seed=n, rollout_cap=10).step(table.wrap(state))
        assert state.is_legal(table.moves[action])
        state.push(table.moves[action])


def test_both_sides_stop_at_their_cpu_time_and_say_what_they_used():
    pytest.importorskip("pyspiel")
    bench, wrapper = load("engine"), load("engine_openspiel")
    state = rules.new_game("tessella")
    ours, theirs = bench.CpuTimed(0.02), wrapper.TimedBot(wrapper.RulesGame("tessella"), 0.02)
    for player in (ours, theirs):
        assert state.is_legal(player(state, 5))
    assert ours.decisions == theirs.decisions == 1
    assert ours.playouts >= 1 and theirs.simulations >= 2
    assert ours.spent > 0 and theirs.spent > 0


def test_a_forced_decision_is_not_searched_or_counted():
    pytest.importorskip("pyspiel")
    wrapper = load("engine_openspiel")
    state, rng = rules.new_game("telec"), random.Random(1)
    while len(state.legal_moves()) != 1 or state.to_move == rules.CHANCE:
        state.push(state.sample_chance(rng) if state.to_move == rules.CHANCE
                   else rng.choice(state.legal_moves()))
    bot = wrapper.TimedBot(wrapper.RulesGame("telec"), 5.0)
    assert bot(state, 1) == state.legal_moves()[0]
    assert bot.decisions == 0 and bot.spent == 0


def test_random_games_through_the_wrapper_reach_an_end_or_the_cap():
    pytest.importorskip("pyspiel")
    wrapper = load("engine_openspiel")
    for game in ("tessella", "telec"):
        plies = wrapper.random_plies(wrapper.RulesGame(game), seed=1, cap=3000)
        assert 0 < plies < 3000
    assert wrapper.random_plies(wrapper.RulesGame("tesulda"), seed=1, cap=5) == 5


def test_the_guard_bench_positions_hold_the_threats_they_are_named_for():
    from engine.guard import Guard

    bench = load("engine")
    positions = bench.guard_positions("tesulda")
    assert set(bench.THREATS["tesulda"]) < set(positions)
    for name in bench.THREATS["tesulda"]:
        state = positions[name]
        doomed = [Guard(2).doomed(state, move) for move in state.legal_moves()]
        assert any(doomed) and not all(doomed), name
