"""Tessella in the truth-checked streams (see ``truth.py``): every move checked by the naive
move list of ``tests/rules/test_tessella.py``."""

from __future__ import annotations

import rules

from .truth import Adapter


def legal(state: rules.GameState, text: str) -> bool:
    from tests.rules.test_tessella import naive_moves

    board = {c: p[0] for c, p in state.physical().items()}
    return text in naive_moves(board, state.to_move)


ADAPTER = Adapter(layouts=("tessella",), legal=legal, streams=50)
