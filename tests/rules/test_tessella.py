"""Tessella: a naive second implementation, seeded games, and one position per ruling."""

import random

import pytest

import rules
from rules.tessella import CELLS, Move

from .helpers import perft

# --- a deliberately naive second implementation: doubled coordinates, dicts, no tables ---

FILES = "abcde"


def naive_coord(name):
    if len(name) == 2:
        return 2 * FILES.index(name[0]), 2 * (int(name[1]) - 1)
    return 2 * FILES.index(name[0]) + 1, 2 * (int(name[2]) - 1) + 1


def naive_name(x, y):
    if not (0 <= x <= 8 and 0 <= y <= 8):
        return None
    if x % 2 == 0 and y % 2 == 0:
        return FILES[x // 2] + str(y // 2 + 1)
    if x % 2 == 1 and y % 2 == 1:
        return FILES[x // 2] + FILES[x // 2 + 1] + str(y // 2 + 1) + str(y // 2 + 2)
    return None


def naive_moves(board, me):
    """board: {cell: player}; every legal move as a string."""
    enemy = "dark" if me == "clear" else "clear"
    if min(sum(1 for v in board.values() if v == p) for p in (me, enemy)) <= 3:
        return []
    out = set()
    for cell, owner in board.items():
        if owner != me:
            continue
        x, y = naive_coord(cell)
        is_oct = x % 2 == 0
        steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        if is_oct:
            steps += [(2, 0), (-2, 0), (0, 2), (0, -2)]
        for dx, dy in steps:
            n = naive_name(x + dx, y + dy)
            if n and n not in board:
                out.add(f"{cell}-{n}")
        for dx, dy in [(0, 2), (2, 0), (0, -2), (-2, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            ahead, behind = naive_first(board, x, y, dx, dy), naive_first(board, x, y, -dx, -dy)
            if ahead and behind and board[ahead] == enemy and board[behind] == me:
                out.add(f"{cell}x{ahead}")
    return sorted(out)


def naive_first(board, x, y, dx, dy):
    k = 1
    while True:
        n = naive_name(x + dx * k, y + dy * k)
        if n is None or n in board:
            return n
        k += 1


def naive_apply(board, move):
    board = dict(board)
    frm, to = move.replace("x", "-").split("-")
    board[to] = board.pop(frm)
    return board


def naive_perft(board, me, depth):
    if depth == 0:
        return 1
    other = "dark" if me == "clear" else "clear"
    return sum(naive_perft(naive_apply(board, m), other, depth - 1) for m in naive_moves(board, me))


def start_board():
    board = {}
    for player, cells in rules.GAMES["tessella"].START.items():
        for cell in cells:
            board[cell] = player
    return board


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_move_counts_match_naive_implementation(depth):
    assert perft(rules.new_game("tessella"), depth) == naive_perft(start_board(), "clear", depth)


def test_random_positions_match_naive_implementation():
    for seed in range(300):
        rng = random.Random(seed)
        state = rules.new_game("tessella")
        for _ in range(rng.randrange(1, 60)):
            moves = state.legal_moves()
            if not moves:
                break
            state.push(rng.choice(moves))
        board = {c: p[0] for c, p in state.physical().items()}
        expected = naive_moves(board, state.to_move)
        got = sorted(state.move_str(m) for m in state.legal_moves())
        assert got == expected, state.position_str()


def test_games_end_exactly_at_fourth_capture_or_no_move():
    for seed in range(300):
        rng = random.Random(seed)
        state = rules.new_game("tessella")
        while state.outcome() is None:
            assert min(state.captures(p) for p in state.PLAYERS) < 4
            assert max(state.captures(p) for p in state.PLAYERS) < 4
            assert state.legal_moves()
            state.push(rng.choice(state.legal_moves()))
            if len(state.move_stack) > 1000:
                break
        outcome = state.outcome()
        if outcome is not None:
            assert outcome.reason in ("fourth capture", "no legal move")
            if outcome.reason == "fourth capture":
                assert state.captures(outcome.winner) == 4


def pos(text):
    return rules.from_position("tessella", text)


def moves_of(state, cell):
    return sorted(state.move_str(m) for m in state.legal_moves() if m.frm == cell)


def test_S1_board_has_41_named_spaces():
    assert len(CELLS) == 41
    assert "ab12" in CELLS and "de45" in CELLS and "e5" in CELLS
    assert sum(1 for c in CELLS if len(c) == 4) == 16


def test_S2_movement_adjacency_octagon_and_square():
    state = pos("clear:c3,a1,b1,e1 dark:e5,e4,a5,b5 clear")
    assert [m for m in moves_of(state, "c3") if "-" in m] == [
        "c3-b3", "c3-bc23", "c3-bc34", "c3-c2", "c3-c4", "c3-cd23", "c3-cd34", "c3-d3",
    ]
    state = pos("clear:bc23,a1,a3,e1 dark:e5,e4,a5,b5 clear")
    assert [m for m in moves_of(state, "bc23") if "-" in m] == [
        "bc23-b2", "bc23-b3", "bc23-c2", "bc23-c3",
    ]


def test_S3_start_position_and_clear_moves_first():
    state = rules.new_game("tessella")
    assert state.to_move == "clear"
    assert sorted(c for c, p in state.physical().items() if p == ("clear",)) == sorted(
        ["e1", "d1", "c1", "b1", "e2", "e3", "e4"])
    assert sorted(c for c, p in state.physical().items() if p == ("dark",)) == sorted(
        ["a5", "a4", "a3", "a2", "b5", "c5", "d5"])


def test_S4_square_to_square_capture_line():
    # orthogonal lines from a square run square to square: bc12 backs bc34 shooting at bc45
    state = pos("clear:bc12,bc34,a1,e1 dark:bc45,e5,e4,a5 clear")
    assert "bc34xbc45" in moves_of(state, "bc34")
    # diagonal line from a square alternates octagon and square
    state = pos("clear:b2,bc23,a1,e1 dark:cd34,e5,a5,a4 clear")
    assert "bc23xcd34" in moves_of(state, "bc23")


def test_S5_capture_needs_own_piece_behind_at_any_distance_and_enemy_ahead():
    state = pos("clear:a1,a3,e1,e2 dark:a5,e5,e4,d5 clear")
    assert "a3xa5" in moves_of(state, "a3")  # a1 backs at distance 2, a5 at distance 2
    blocked = pos("clear:a1,a3,e1,e2 dark:a2,a5,e5,e4 clear")
    assert "a3xa5" not in moves_of(blocked, "a3")  # an enemy between shooter and backer
    # an enemy with backup can still be captured
    backed = pos("clear:a1,a2,e1,e2 dark:a3,a4,e5,e4 clear")
    assert "a2xa3" in moves_of(backed, "a2")
    state = backed.clone()
    state.push_str("a2xa3")
    assert state.physical()["a3"] == ("clear",) and "a2" not in state.physical()
    assert state.captures("clear") == 4  # 7 - 3 dark pieces left


def test_S6_fourth_capture_ends_the_game_at_once():
    state = pos("clear:a1,a2,e1,e2 dark:a3,a4,e5,e4 clear")
    assert state.outcome() is None
    assert state.captured() == {"clear": 3, "dark": 3}
    state.push_str("a2xa3")
    assert state.captured() == {"clear": 4, "dark": 3}
    assert state.outcome() == rules.Outcome("clear", "fourth capture")
    assert state.legal_moves() == []


def test_S6_no_legal_turn_loses(monkeypatch):
    # A hill-climbing search over positions with at least four pieces a side found none
    # where the side to move is stuck, so the stuck side is simulated here.
    state = pos("clear:a1,b1,ab12,e1 dark:a2,b2,c1,bc12 clear")
    monkeypatch.setattr(type(state), "_generate", lambda self: [])
    monkeypatch.setattr(type(state), "_can_step", lambda self: False)
    assert state.outcome() == rules.Outcome("dark", "no legal move")


def test_notation_rejects_bad_text_and_separates_illegal_moves():
    state = rules.new_game("tessella")
    for bad in ["", "e4", "e4-f5", "ab13-a1", "e4--e5", "e4xe5x"]:
        with pytest.raises(rules.MoveSyntaxError):
            state.parse_move(bad)
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("e4-c3")
    assert state.parse_move(" E4-E5 ") == Move("e4", "e5", False)


@pytest.mark.parametrize("text", [
    "clear:a1 dark:a2 clear",
    "clear:a1,a1,b1 dark:a2,a3,a4 clear",
    "clear:a1,b1,z9 dark:a2,a3,a4 clear",
    "clear:a1,b1,c1 dark:a2,a3,a4 blue",
    "dark:a1,b1,c1 clear:a2,a3,a4 clear",
])
def test_bad_positions_name_the_fault(text):
    with pytest.raises(rules.PositionError):
        pos(text)
