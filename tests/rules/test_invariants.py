"""Invariants every state of every game keeps, checked on seeded random games (OpenSpiel style).

Every module registered in ``rules.GAMES`` runs through these tests without changes here.
A turn is every decision of one player until ``to_move`` changes (chance nodes inside it
included); a chance node's outcomes are sampled with their probabilities.
"""

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import rules

# Seeded random games per game; Tessella's count is the foundation issue's.
GAMES_PER_RUN = {"tessella": 1000, "teblo": 60, "telec": 60, "tesulda": 12}
DEFAULT_GAMES = 200
MAX_PLIES = 400
# Whole-turn checks (every reachable turn from a position ends) on the first games only;
# a Tesulda turn has thousands of ways to go on, so only its first plies are checked.
TURN_CHECK_GAMES = 3
TURN_CHECK_PLIES = {"tesulda": 30}


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
    for player, pieces in state.stock().items():
        assert player in state.PLAYERS
        assert all(p in module.PIECES and n >= 0 for p, n in pieces.items())
    for player, n in state.captured().items():
        assert player in state.PLAYERS and n >= 0
    for move in moves:
        notation = state.move_str(move)
        assert state.parse_move(notation) == move, notation
        assert hash(move) == hash(state.parse_move(notation))
        assert notation and " " not in notation, "a turn joins its decisions with spaces"
    outcomes = state.chance_outcomes()
    if state.to_move == rules.CHANCE:
        assert outcomes, "a chance node lists its outcomes"
        assert sorted(m for m, _ in outcomes) == moves, "the outcomes are the legal moves"
        assert all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, "probabilities sum to 1"
    else:
        assert outcomes == []
        assert state.to_move in state.PLAYERS
    clone = state.clone()
    assert clone == state and clone.move_stack == state.move_stack
    return moves


def _choose(state, moves, rng):
    """A random decision; at a chance node an outcome drawn with its probability."""
    if state.to_move == rules.CHANCE:
        return state.sample_chance(rng)
    return rng.choice(moves)


def _turn_ends(state, player, depth=0):
    """Every way the turn of ``player`` can go on from ``state`` ends: ``to_move`` becomes
    another player (or the game ends) within the decisions the game declares
    (``TURN_DECISIONS``), and pops restore it."""
    if state.outcome() is not None or state.to_move not in (player, rules.CHANCE):
        return 1
    assert depth < state.TURN_DECISIONS, f"a turn of {player} takes more decisions"
    moves = state.legal_moves()
    assert moves, "a turn in progress always offers a decision"
    ways = 0
    for move in moves:
        before = state.position_str()
        state.push(move)
        ways += _turn_ends(state, player, depth + 1)
        assert state.pop() == move
        assert state.position_str() == before
    return ways


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_random_games_keep_invariants(game):
    ended = 0
    for seed in range(GAMES_PER_RUN.get(game, DEFAULT_GAMES)):
        rng = random.Random(seed)
        state = rules.new_game(game)
        turn_start, turn_player, turn = state.position_str(), state.to_move, []
        for ply in range(MAX_PLIES):
            moves = _check_state(state, game)
            outcome = state.outcome()
            # Found without the moves listed (a shortcut) or with them, the outcome is one.
            assert rules.from_position(game, state.position_str()).outcome() == outcome
            if outcome is not None:
                assert outcome.winner in (*state.PLAYERS, None)
                ended += 1
                break
            assert moves, "a running game offers a legal move"
            if not turn and seed < TURN_CHECK_GAMES and ply < TURN_CHECK_PLIES.get(game, MAX_PLIES):
                assert _turn_ends(state, turn_player) >= 1
            before = state.position_str()
            move = _choose(state, moves, rng)
            assert state.is_legal(move)
            state.push(move)
            assert state.move_stack[-1] == move
            assert state.pop() == move
            assert state.position_str() == before
            state.push(move)
            turn.append(move)
            if state.to_move in (turn_player, rules.CHANCE) and state.outcome() is None:
                continue
            # The turn is over: undo it whole, check the start comes back, play it again.
            after = state.position_str()
            assert [state.pop() for _ in turn] == turn[::-1]
            assert state.position_str() == turn_start
            assert state.to_move == turn_player
            for decision in turn:
                state.push(decision)
            assert state.position_str() == after
            text = " ".join(state.move_str(m) for m in turn)
            assert [state.parse_move(w) for w in text.split(" ")] == turn
            turn_start, turn_player, turn = after, state.to_move, []
    assert ended > 0


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_clone_is_independent(game):
    state = rules.new_game(game)
    clone = state.clone()
    while clone.move_stack == [] or clone.to_move == rules.CHANCE:
        clone.push(clone.legal_moves()[0])
    assert state.move_stack == []
    assert state.position_str() == rules.new_game(game).position_str()


def _random_game_moves(states: list) -> list[list[str]]:
    """Each state's seeded random game, up to 30 plies: the legal moves at every ply."""
    out = []
    for state in states:
        rng = random.Random(f"pickle/{state.NAME}")
        for _ in range(30):
            if state.outcome() is not None:
                break
            moves = state.legal_moves()
            out.append([state.move_str(m) for m in moves])
            state.push(rng.choice(moves))
    return out


def test_a_state_sent_to_another_process_is_the_same_game():
    """The engine's worker gets its positions pickled: there, a game goes on with the same
    moves as here (a Tesulda state once listed others: its movers' shared memo, known by
    identity, was copied, so the squares not looked at before it was sent shared one)."""
    states = [rules.new_game(game) for game in sorted(rules.GAMES)]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        there = pool.submit(_random_game_moves, [s.clone() for s in states]).result(120)
    assert there == _random_game_moves(states)


WORDED_GAMES, WORDED_PLIES = 3, 60  # seeded games whose decisions are all said in words


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_every_decision_is_said_in_words(game):
    """What a question's button says for each decision (``turn_words`` of it alone, as the
    page and the terminal ask): words begun as a sentence, never the bare notation, and
    only pieces of the game, which the page can draw beside them."""
    module = rules.GAMES[game]
    for seed in range(WORDED_GAMES):
        rng = random.Random(seed)
        state = rules.new_game(game)
        for _ in range(WORDED_PLIES):
            moves = state.legal_moves()
            if state.outcome() is not None:
                break
            for move in moves:
                text, pieces = state.turn_words([move])
                assert text and not text[0].islower(), (move, text)
                assert text != state.move_str(move), (move, text)
                assert all(p in module.PIECES for p in pieces), (move, pieces)
            state.push(_choose(state, moves, rng))


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
