"""The root guard: a search does not return a decision that leaves the opponent a win
built in one turn of two decisions (a Tesulda move, then a swap onto the moved figure)."""

import dataclasses

import engine
import rules
from engine.profiles import PROFILES

# Dark to move, from a game of level 4 (light) against level 5 (seed 1003). Light's d1-f3
# then swap:r:f3>e4 (a star onto the moved circle) mates after most of dark's turns; both
# levels walked into it, as the search's scan for a win at once sees the swap only once
# the node after d1-f3 is in its tree.
BEFORE_THE_MATE = ("h1-e4", "a9-a7", "e2-e3", "none")


def light_mates(state: rules.GameState) -> list[str]:
    """Light's turns of one or two decisions that win from ``state`` (light to move)."""
    wins = []
    for move in state.legal_moves():
        state.push(move)
        seconds = state.legal_moves() if state.outcome() is None else [None]
        for second in seconds:
            if second is not None:
                state.push(second)
            if state.outcome() is not None and state.outcome().winner == "light":
                wins.append(f"{state.move_str(move)} {second or ''}".strip())
            if second is not None:
                state.pop()
        state.pop()
    return wins


def dark_turn(level: int, seed: int) -> rules.GameState:
    state = rules.new_game("tesulda")
    for notation in BEFORE_THE_MATE:
        state.push_str(notation)
    while state.to_move == "dark":
        state.push(engine.search(state, level=level, seed=seed).move)
    return state


def test_without_the_guard_dark_walks_into_the_mate(monkeypatch):
    monkeypatch.setitem(PROFILES, "tesulda", dataclasses.replace(PROFILES["tesulda"], guard=0))
    for seed in (1, 2, 3):
        assert "d1-f3 swap:r:f3>e4" in light_mates(dark_turn(2, seed))


def test_with_the_guard_dark_leaves_light_no_winning_turn():
    for seed in (1, 2, 3):
        assert light_mates(dark_turn(2, seed)) == []
