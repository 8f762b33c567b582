"""Moves numbered as players read them: in full moves, one per round of the players.

The record, the page and the terminal all number moves with these functions.

>>> full_moves(["e4-d4", "d5-de45", "b1-a1"])
[(1, ['e4-d4', 'd5-de45']), (2, ['b1-a1'])]
>>> movetext(["e4-d4", "d5-de45", "b1-a1"])
'1. e4-d4 d5-de45 2. b1-a1'
>>> move_label(3), move_label(4)
('2.', '2...')
"""

from __future__ import annotations

from collections.abc import Sequence


def full_moves(moves: Sequence[str], players: int = 2) -> list[tuple[int, list[str]]]:
    """The moves grouped by full move: ``[(number, [first player's, second's, ..]), ..]``."""
    return [(i // players + 1, list(moves[i:i + players]))
            for i in range(0, len(moves), players)]


def movetext(moves: Sequence[str], players: int = 2) -> str:
    """All the moves on one line: ``1. e4-d4 d5-de45 2. b1-a1``."""
    return " ".join(f"{n}. {' '.join(group)}" for n, group in full_moves(moves, players))


def move_label(ply: int, players: int = 2) -> str:
    """The number printed before ply ``ply`` (1-based): ``2.`` for the first player's
    move of full move 2, ``2...`` for a later player's."""
    n, k = divmod(ply - 1, players)
    return f"{n + 1}." if k == 0 else f"{n + 1}..."
