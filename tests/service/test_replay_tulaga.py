"""Tulaga through the whole pipeline: long turns of many lifts and places."""

import random

import pytest

import rules
from boards.choreography import game_events

from .helpers import ev, moves, random_state, run, with_turn


def claim_game(seed, plies=40):
    """A seeded game that claims (and reaps) whenever it can."""
    rng = random.Random(seed)
    state = rules.new_game("tulaga")
    line = []
    while state.outcome() is None and len(line) < plies:
        legal = state.legal_moves()
        claims = [m for m in legal if m.stones]
        reaps = [m for m in claims if m.reap]
        pool = reaps if reaps and rng.random() < 0.6 else claims or legal
        move = rng.choice(pool)
        line.append(move)
        state.push(move)
    return line, state


@pytest.mark.parametrize("seed", range(8))
def test_games_with_claims_and_reaps_are_tracked_exactly(seed):
    line, state = claim_game(seed)
    assert any(m.stones for m in line)
    events = game_events(rules.new_game("tulaga"), line, random.Random(seed), step=0.25,
                         answer=True)
    out, final = run("tulaga", events, seed=seed)
    assert moves(out) == [str(m) for m in line]
    assert not [x for x in out if x["type"] == "error"]
    # An enemy rank stone replaced looks like one touched: only then the board asks.
    for prompt in (x for x in out if x["type"] == "prompt"):
        assert len(prompt["options"]) == 3 and prompt["options"][2] == "none"
    assert final["position"] == {c: list(p) for c, p in sorted(state.physical().items())}
    assert final["to_move"] == state.to_move


def test_uniform_random_games_are_tracked_exactly():
    rng = random.Random(5)
    state = random_state("tulaga", rng, 60)
    line = state.move_stack
    events = game_events(rules.new_game("tulaga"), line, rng, step=0.2)
    out, final = run("tulaga", events)
    assert moves(out) == [str(m) for m in line]


def first_tulaga():
    """A line ending with black's placement that makes a row Tulaga."""
    state = rules.new_game("tulaga")
    line = ["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9"]
    for m in line:
        state.push_str(m)
    return state, line


def test_declined_tulaga_committed_when_the_opponent_places():
    state, line = first_tulaga()
    assert any(m.stones for m in state.legal_moves() if m.point == "e1")
    events = game_events(rules.new_game("tulaga"), [state.parse_move(m) for m in line],
                         random.Random(0), step=0.3)
    t = events[-1]["t"] + 1
    events += [ev(t, "place", "e1"), ev(t + 2.0, "place", "e9")]
    out, final = run("tulaga", events)
    assert moves(out) == line + ["e1", "e9"]
    decline = [x for x in out if x["type"] == "move"][-2]
    assert t + 2.0 < decline["t"] < t + 2.1  # held until the opponent's stone came down
    assert final["to_move"] == "black"


def test_claimed_tulaga_with_rank_stone_and_reap():
    state, line = first_tulaga()
    claim = state.parse_move("e1*a1b1c1d1e1@c1")
    assert state.is_legal(claim)
    events, t = with_turn("tulaga", line, state, claim, random.Random(2))
    out, final = run("tulaga", events)
    assert moves(out) == line + [str(claim)]
    assert final["position"]["c1"] == ["black-rank"]
    assert "a1" not in final["position"] and "e1" not in final["position"]


def test_reap_lifting_an_own_stone_is_an_error_and_nothing_is_committed():
    state, line = first_tulaga()
    line += ["c3"]  # black's stone north of c1 ...
    state.push_str("c3")
    line += ["c5"]  # ... and white's beyond it
    state.push_str("c5")
    line += ["b2", "h8", "d2", "h7", "a2", "h6", "c2", "g6"]  # black's row a2..d2
    for m in line[-8:]:
        state.push_str(m)
    claim = state.parse_move("e2*a2b2c2d2e2@c2")
    assert state.is_legal(claim)
    events, t = with_turn("tulaga", line, state, claim, random.Random(2))
    events += [ev(t + 0.3, "lift", "c3")]  # reaping north lifts black's own c3
    out, final = run("tulaga", events)
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[-1]["cells"] == {"c3": "black"}
    assert moves(out) == line  # the claim waits while the board is wrong
    # put right, then white plays: the claim is committed, then white's move
    events += [ev(t + 3.0, "place", "c3"), ev(t + 4.0, "place", "i9")]
    out, final = run("tulaga", events)
    assert moves(out) == line + [str(claim), "i9"]


def test_rank_stone_on_a_point_not_allowed_is_an_error_then_put_right():
    state, line = first_tulaga()
    events = game_events(rules.new_game("tulaga"), [state.parse_move(m) for m in line],
                         random.Random(0), step=0.3)
    t = events[-1]["t"] + 1
    events += [ev(t, "place", "e1")]
    for k, cell in enumerate(["a1", "b1", "c1", "d1", "e1"]):
        events.append(ev(round(t + 0.5 + 0.3 * k, 3), "lift", cell))
    t += 2.5
    events += [ev(t, "place", "f5")]            # the rank stone must go on a1..e1
    events += [ev(t + 2.0, "lift", "f5"), ev(t + 2.5, "place", "b1")]
    out, final = run("tulaga", events)
    errors = [x for x in out if x["type"] == "error"]
    assert errors and errors[0]["cells"] == {"f5": "empty"}
    assert moves(out) == line + ["e1*a1b1c1d1e1@b1"]
    assert final["position"]["b1"] == ["black-rank"]
