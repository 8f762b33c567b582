"""Tulaga in the truth-checked streams (see ``truth.py``): every move checked by the naive
claims of ``tests/rules/test_tulaga.py``; the streams favour claims, reaps and stones placed
beside own stones."""

from __future__ import annotations

import random
from collections.abc import Hashable

import rules

from .truth import Adapter


def legal(state: rules.GameState, text: str) -> bool:
    """Only the claims at the move's point are listed naively."""
    from tests.rules.test_tulaga import (
        naive_claims,
        naive_from_state,
        naive_outcome,
        naive_ray,
        other,
    )

    g = naive_from_state(state)
    point = text[:2]
    if naive_outcome(g) is not None or point in g["board"]:
        return False
    me, board = g["to_move"], g["board"]
    enemy = other(me)
    texts = {point}
    for stones, r in naive_claims(board, me, point):
        claim = f"{point}*{''.join(stones)}@{r}"
        texts.add(claim)
        if g["rank"][me] - 1 > 0:
            texts.update(f"{claim}>{d}" for d in "NESW" if any(
                board.get(q) in (enemy, enemy + "-rank") for q in naive_ray(r, d)))
    return text in texts


def pick(state: rules.GameState, rng: random.Random) -> list[Hashable]:
    legal_moves = state.legal_moves()
    claims = [m for m in legal_moves if m.stones]
    near = [m for m in legal_moves if not m.stones and any(
        state.physical().get(n, ("",))[0] == state.to_move
        for n in state.GEOMETRY.adjacency[m.point])]
    if claims and rng.random() < 0.8:
        reaps = [m for m in claims if m.reap]
        return reaps if reaps and rng.random() < 0.5 else claims
    if near and rng.random() < 0.7:
        return near
    return legal_moves


ADAPTER = Adapter(layouts=("tulaga",), legal=legal, pick=pick)
