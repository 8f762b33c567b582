"""The engine over every registered game: legal decisions at every kind of node, the same
answer under the same seed, a win in one found, bad budgets refused."""

import dataclasses
import random

import pytest

import engine
import rules
from engine.profiles import PROFILES
from engine.search import _Search

from .positions import WIN_IN_ONE

GAMES = sorted(rules.GAMES)


def decision_nodes(game: str, seed: int = 5, most: int = 200) -> dict[str, rules.GameState]:
    """Positions of a seeded random game by kind: a turn's first decision, a decision
    after the same player's earlier one (mid-turn), a decision after a die roll."""
    rng, state, found = random.Random(seed), rules.new_game(game), {}
    last = None
    for _ in range(most):
        if state.outcome() is not None:
            break
        mover = state.to_move
        if mover != rules.CHANCE:
            kind = ("after roll" if last == rules.CHANCE else
                    "mid-turn" if last == mover else "turn start")
            found.setdefault(kind, state.clone())
        state.push(state.sample_chance(rng) if mover == rules.CHANCE
                   else rng.choice(state.legal_moves()))
        last = mover
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_legal_decision_at_every_kind_of_node(game):
    nodes = decision_nodes(game)
    if rules.new_game(game).TURN_DECISIONS > 1:
        assert {"mid-turn", "after roll"} & set(nodes)
    for kind, state in nodes.items():
        result = engine.search(state, playouts=30, seed=3)
        assert state.is_legal(result.move), (game, kind, result.move)
        assert 0.0 <= result.win <= 1.0
        after = state.clone()
        for move in result.line:  # the rest of the turn, as the search expects it
            assert after.is_legal(move), (game, kind, result.line)
            assert after.to_move == state.to_move
            after.push(move)


def test_turns_of_several_decisions_and_rolls_are_reached():
    assert "mid-turn" in decision_nodes("tesulda")
    assert "after roll" in decision_nodes("telec")


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_answer(game):
    state = decision_nodes(game)["turn start"]
    first = engine.search(state, playouts=60, seed=11)
    assert engine.search(state.clone(), playouts=60, seed=11) == first


@pytest.mark.parametrize("game", GAMES)
def test_finds_a_win_in_one(game):
    text, winners = WIN_IN_ONE[game]
    state = rules.from_position(game, text)
    result = engine.search(state, playouts=50, seed=1)
    assert state.move_str(result.move) in winners
    assert result.win == 1.0


def test_a_time_budget_returns_a_decision():
    state = rules.new_game("tesulda")
    result = engine.search(state, seconds=0.2, seed=1)
    assert state.is_legal(result.move) and result.playouts >= 1


def test_a_forced_decision_is_returned_without_search():
    state = rules.new_game("telec")
    assert engine.search(state, level=5) == engine.Result(state.legal_moves()[0], 0.5, 0,
                                                          (state.legal_moves()[0],))


@pytest.mark.parametrize("limits, words", [
    ({}, "needs a budget"), ({"playouts": 0}, "positive"), ({"seconds": -1}, "positive"),
    ({"level": 9}, "levels are 1, 2, 3, 4, 5"),
])
def test_bad_budgets_are_refused(limits, words):
    with pytest.raises(ValueError, match=words):
        engine.search(rules.new_game("tessella"), **limits)


def test_no_decision_to_search_is_refused():
    state = rules.new_game("telec")
    state.push_str("roll")
    with pytest.raises(ValueError, match="chance node"):
        engine.search(state, playouts=10)


def test_a_higher_level_makes_more_playouts():
    state = rules.new_game("tessella")
    low, high = (engine.search(state, level=n, seed=2) for n in (1, 2))
    assert (low.playouts, high.playouts) == (engine.LEVELS[1], engine.LEVELS[2])


def test_the_first_move_tried_in_tulaga_is_a_claim_when_there_is_one():
    """Tulaga's nodes try their moves best first by the evaluation, so a Tulaga claim
    (stones back to the pile, a rank stone placed) is looked at before any placement."""
    state, rng = rules.new_game("tulaga"), random.Random(3)
    while not any("*" in state.move_str(m) for m in state.legal_moves()):
        state.push(rng.choice(state.legal_moves()))
    assert any("*" not in state.move_str(m) for m in state.legal_moves())
    for seed in range(3):
        assert "*" in state.move_str(engine.search(state, playouts=1, seed=seed).move)


def test_the_first_move_tried_in_teblo_steps_towards_the_enemy_base():
    """Teblo's nodes try a step nearer the enemy base before the placements of blocks
    that lengthen no path, so even one playout moves the pawn out of its base."""
    state = rules.new_game("teblo")
    for seed in range(3):
        assert engine.search(state, playouts=1, seed=seed).move in {
            state.parse_move("a1-a2"), state.parse_move("a1-b1")}


def test_a_teblo_defender_behind_in_the_race_walls_off_its_base():
    """Yellow's pawn on k9 is four steps from red's base, red's five from yellow's: red
    walking loses the race. At level 2 red blocks between yellow and its base instead
    (Teblo's rollouts follow its order, so they see the wall a random rollout misses)."""
    state = rules.from_position("teblo", "yellow:k9:25: red:c4:25: red")
    for seed in range(4):
        move = engine.search(state, level=2, seed=seed).move
        assert (move.frm, move.to in {"k10", "k11", "k12", "l9", "l10", "l11"}) == ("", True)


def test_a_tesulda_turn_at_level_2_leaves_no_mate_in_one():
    """Dark's circle on e7 (a circle, a diamond, a hexagon on it) mates by e7-b4 unless light's
    turn stops it. Tesulda's nodes look at every decision for one that wins at once, so
    the search sees the reply; when only nodes of at most 24 decisions looked, light
    walked into it in half of these seeds."""
    start = rules.new_game("tesulda")
    for notation in ("c2-d3", "none", "j9-h7", "a2-a5", "h10-e7"):
        start.push_str(notation)
    for seed in range(6):
        state = start.clone()
        while state.to_move == "light":
            state.push(engine.search(state, level=2, seed=seed).move)
        mates = []
        for reply in state.legal_moves():
            state.push(reply)
            if state.outcome() is not None and state.outcome().winner == "dark":
                mates.append(reply)
            state.pop()
        assert mates == []


def test_teblo_searches_past_level_3_go_deeper_not_wider(monkeypatch):
    """Teblo's nodes stop adding decisions at 23, the most a level-3 root reaches, so
    levels 1 to 3 search as before and level 4's further playouts go into those 23."""
    state = rules.from_position("teblo", "yellow:k9:25: red:c4:25: red")
    tree = _Search(state, 1, PROFILES["teblo"])
    for _ in range(engine.LEVELS[4]):
        tree.playout()
    assert len(tree.root.children) == 23
    bounded = engine.search(state, level=3, seed=2)
    monkeypatch.setitem(PROFILES, "teblo", dataclasses.replace(PROFILES["teblo"], widest=None))
    assert engine.search(state, level=3, seed=2) == bounded



def test_teblo_searches_past_level_4_widen_to_a_level_4_root():
    """Past 512 playouts a Teblo node adds up to 45 decisions (the most a level-4 root
    reaches) instead of 23, and levels 1 to 4 search as before."""
    state = rules.from_position("teblo", "yellow:k9:25: red:c4:25: red")
    tree = _Search(state, 1, PROFILES["teblo"])
    for _ in range(engine.LEVELS[5]):
        tree.playout()
    assert 23 < len(tree.root.children) <= 45
    plain = dataclasses.replace(PROFILES["teblo"], focus=None, focus_widest=None)
    level_4 = _Search(state, 2, PROFILES["teblo"]), _Search(state, 2, plain)
    for tree in level_4:
        for _ in range(engine.LEVELS[4]):
            tree.playout()
    assert level_4[0].result(512) == level_4[1].result(512)

#: Tesulda, light to move: dark's Crh took on i2 (`d7xi2 take:s draw:ss`, level 5 in a
#: game against level 4) and light's j1 takes it back with its star and hexagon.
RECAPTURE = ("light:b1=Cccd,c1=Sssd,d1=Crch,e1=Skh,h1=Sszh,i1=Ssdh,j1=Ccch,a2=Ssshhh,b2=Tcs,"
             "c2=Tcs,d2=Tcs,f2=Tcs,g2=Tcs,j2=Cczh,e3=Tc,i3=Tcs,e4=Ccdh dark:i2=Crhsss,b8=Tccss,"
             "e8=Tccss,c9=Ts,e9=Tc,f9=Tcs,g9=Tcs,h9=Tcs,i9=Tcs,j9=Cczh,b10=Cccd,c10=Sssd,"
             "e10=Skh,f10=Cczh,g10=Sszh,h10=Ccdh,i10=Ssdh,j10=Ccch pool:ccsssszzz light")


def test_tesulda_searches_past_level_4_widen_best_first():
    """Past 512 playouts a Tesulda node adds its decisions best first by the evaluation
    (the recapture before the 40-odd others), and levels 1 to 4 search as before."""
    state = rules.from_position("tesulda", RECAPTURE)
    tree = _Search(state, 1, dataclasses.replace(PROFILES["tesulda"], focus=(0, 0.3)))
    tree.playout()
    assert [state.move_str(move) for move in tree.root.children] == ["j1xi2"]
    plain = dataclasses.replace(PROFILES["tesulda"], focus=None)
    level_4 = _Search(state, 2, PROFILES["tesulda"]), _Search(state, 2, plain)
    for tree in level_4:
        for _ in range(engine.LEVELS[4]):
            tree.playout()
    assert level_4[0].result(512) == level_4[1].result(512)
