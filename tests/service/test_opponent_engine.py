"""The engine as the opponent: its turn found in the worker process, the same under one
seed; with the board's die (Telec) the board rolls for it."""

import subprocess
import sys
import time

import pytest

import rules
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock
from sensorboard.board import BoardOptions, open_board
from sensorboard.opponent import EngineOpponent, parse_choice


def turn_of(opponent, state, timeout=60.0):
    end = time.monotonic() + timeout
    while (turn := opponent.poll(state)) is None and time.monotonic() < end:
        time.sleep(0.01)
    return turn


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_the_engine_gives_a_whole_legal_turn_the_same_under_one_seed(game):
    state = rules.new_game(game)
    side = state.to_move
    turns = []
    for _ in range(2):
        opponent = EngineOpponent(side, 1, seed=5, rolls=True)
        try:
            turns.append(turn_of(opponent, state))
        finally:
            opponent.close()
    assert turns[0] is not None and turns[0] == turns[1]
    work = state.clone()
    for token in turns[0].split():
        work.push(work.parse_move(token))
    assert work.to_move != side or work.outcome() is not None  # the whole turn


def scan_until_proposed(board, clock, timeout=60.0):
    """Scan in real time (the engine thinks in its process) until the opponent's turn is
    given; the events; the board is closed then."""
    out = []
    try:
        end = time.monotonic() + timeout
        while not any(x["type"] == "opponent" for x in out) and time.monotonic() < end:
            clock.advance(0.002)
            out += board.service.step()
            time.sleep(0.002)
    finally:
        board.close()
    return out


def test_with_the_boards_die_the_board_rolls_for_the_engine():
    clock = VirtualClock()
    board = open_board(BoardOptions(
        "telec", clock=clock, options=("dice=electronic",), engine_hints=False,
        hardware=HardwareConfig(bounce=0.0, seed=3),
        opponent=parse_choice("engine:1", "blue")))
    out = scan_until_proposed(board, clock)
    kinds = [x["type"] for x in out if x["type"] in ("press", "roll", "opponent")]
    rolled = [x for x in out if x["type"] == "roll"]
    proposed = [x for x in out if x["type"] == "opponent"]
    if rolled:  # the engine chose to roll: the board's die rolled, then the rest was asked
        assert kinds.index("roll") < kinds.index("opponent")
        assert not proposed[0]["move"].startswith("roll")
    assert proposed and proposed[0]["player"] == "blue" and proposed[0]["by"] == "engine level 1"


def test_run_against_the_engine_says_its_turn_the_same_under_one_seed(tmp_path):
    lines = []
    for k in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "sensorboard", "run", "--game", "tessella", "--opponent",
             "engine:1", "--opponent-side", "clear", "--seed", "3", "--records",
             str(tmp_path / str(k))], capture_output=True, text=True, timeout=120, input="")
        assert proc.returncode == 0, proc.stderr
        lines.append([line for line in proc.stdout.splitlines() if "engine level 1:" in line])
        record = next((tmp_path / str(k)).glob("*tessella*.txt")).read_text()
        assert '[Clear "engine level 1"]' in record  # the record names who played clear
    assert len(lines[0]) == 1 and lines[0] == lines[1]
    assert lines[0][0].endswith("carry it out on the board")


def test_a_search_process_that_dies_is_said_once_and_started_again():
    clock = VirtualClock()
    board = open_board(BoardOptions("tessella", clock=clock, engine_hints=False,
                                    opponent=parse_choice("engine:1", "clear")))
    out = board.service.step()
    board.service.seat.opponent._worker._process.kill()
    out += scan_until_proposed(board, clock)
    said = [x["reason"] for x in out if x["type"] == "rejected"]
    assert said == ["engine level 1: the engine's search process stopped; it starts again"]
    assert [x["player"] for x in out if x["type"] == "opponent"] == ["clear"]
