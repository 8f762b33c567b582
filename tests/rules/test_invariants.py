"""Invariants every state of every game keeps, checked on seeded random games (OpenSpiel style).

Every module registered in ``rules.GAMES`` runs through these tests without changes here.
"""

import random

import pytest

import rules

# Seeded random games per game; Tessella's count is the foundation issue's.
GAMES_PER_RUN = {"tessella": 1000, "teblo": 60}
DEFAULT_GAMES = 200
MAX_PLIES = 400


def _check_state(state, game):
    module = rules.GAMES[game]
    moves = state.legal_moves()
    assert moves == sorted(moves), "legal moves must be sorted"
    assert len(set(moves)) == len(moves), "legal moves must be unique"
    text = state.position_str()
    again = rules.from_position(game, text)
    assert again.position_str() == text
    assert again.to_move == state.to_move
    assert sorted(again.legal_moves()) == moves
    assert again.physical() == state.physical()
    names = set(module.GEOMETRY.names)
    for cell, pieces in state.physical().items():
        assert cell in names
        assert pieces and all(p in module.PIECES for p in pieces)
    for move in moves:
        notation = state.move_str(move)
        assert state.parse_move(notation) == move, notation
        assert hash(move) == hash(state.parse_move(notation))
    clone = state.clone()
    assert clone == state and clone.move_stack == state.move_stack
    return moves


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_random_games_keep_invariants(game):
    ended = 0
    for seed in range(GAMES_PER_RUN.get(game, DEFAULT_GAMES)):
        rng = random.Random(seed)
        state = rules.new_game(game)
        for _ply in range(MAX_PLIES):
            moves = _check_state(state, game)
            outcome = state.outcome()
            if outcome is not None:
                assert outcome.winner in (*state.PLAYERS, None)
                ended += 1
                break
            assert moves, "a running game offers a legal move"
            before = state.position_str()
            move = rng.choice(moves)
            assert state.is_legal(move)
            state.push(move)
            assert state.move_stack[-1] == move
            assert state.pop() == move
            assert state.position_str() == before
            state.push(move)
    assert ended > 0


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_clone_is_independent(game):
    state = rules.new_game(game)
    clone = state.clone()
    clone.push(clone.legal_moves()[0])
    assert state.move_stack == []
    assert state.position_str() == rules.new_game(game).position_str()


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_bad_texts_raise_the_right_errors(game):
    state = rules.new_game(game)
    with pytest.raises(rules.MoveSyntaxError):
        state.parse_move("zz99-??")
    with pytest.raises(rules.PositionError):
        rules.from_position(game, "not a position")


def test_unknown_game_lists_the_valid_ones():
    with pytest.raises(rules.UnknownGameError) as err:
        rules.new_game("chess")
    assert "tessella" in str(err.value)
