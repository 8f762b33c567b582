"""Two simulated boards play Tesulda through a real mosquitto, each ``sensorboard run`` in
a process of its own: the decisions no sensor sees (an attack's take, a swap, a draw
from the pool, or ``none``) are answered on the board where the turn is made, and cross
with the turn: the other board lights it, its player carries out the visible part and
the board commits the whole turn without asking anything. One board is killed
(SIGKILL) with the other's turn lit and started again. Both journals hold every turn
once, its decisions with it."""

from __future__ import annotations

import random
import re

import rules
from tests.recording import remote_runs as runs
from tests.recording.remote_runs import journal_turns

GAME = "tesulda"
SEED, TURNS = 130, 8  # swaps, a capture with `none` and a draw, one with a take and a swap
KILLED_AT = 4  # board A is killed once B's turn of this ply (a move and a swap) is lit


def planned_game(seed: int) -> list[tuple[str, str]]:
    """``(player, turn)`` of a random Tesulda game: a capture wherever one is legal, and
    mostly a swap, take or draw where one is offered."""
    rng = random.Random(seed)
    state, turns = rules.new_game(GAME), []
    while len(turns) < TURNS:
        player, words = state.to_move, []
        while not words or (state.to_move == player and state.outcome() is None):
            moves = state.legal_moves()
            captures = [m for m in moves if not words and "x" in state.move_str(m)]
            named = [m for m in moves if state.move_str(m) != "none"]
            pick = captures or (named if words and named and rng.random() < 0.7 else moves)
            words.append(state.move_str(rng.choice(pick)))
            state.push_str(words[-1])
        turns.append((player, " ".join(words)))
    return turns


def test_tesulda_decisions_no_sensor_sees_cross_between_two_boards(tmp_path, broker):
    game, rng = planned_game(SEED), random.Random(SEED)
    turns = " ".join(m for _, m in game)
    assert all(f" {word}" in turns for word in ("take:", "swap:", "draw:", "none"))
    pair = runs.start_pair(tmp_path, broker.port, GAME, ("light", "dark"))
    boards = {name: run for name, (run, _) in pair.items()}
    asked: list[str] = []
    try:
        for ply, (_, move) in enumerate(game, 1):
            mover, other = (boards[n] for n in (("A", "B") if ply % 2 else ("B", "A")))
            played = [m for _, m in game[:ply - 1]]
            asked += runs.make_turn(mover, played, move, rng)
            other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            if ply == KILLED_AT:  # its swap lit, not carried out
                other = boards[other.name] = runs.restarted(other, pair[other.name][1],
                                                            tmp_path, broker.port, played)
                other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            assert runs.make_turn(other, played, move, rng) == []  # nothing asked there
    finally:
        for board in boards.values():
            if board.proc.poll() is None:
                board.quit()
    assert len(asked) >= 4  # the mover's board asked the decisions it cannot see
    expected = [(ply, player, move) for ply, (player, move) in enumerate(game, 1)]
    for folder in (tmp_path / "A", tmp_path / "B"):
        assert journal_turns(folder) == expected
