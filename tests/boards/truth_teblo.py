"""Teblo in the truth-checked streams (see ``truth.py``), on reed switches and on Hall
sensors: every move checked by the naive reachability of ``tests/rules/test_teblo.py``; the
streams favour pawn steps (over own blocks: silent on reed switches) and blocks beside the
mover's pawn."""

from __future__ import annotations

import random
from collections.abc import Hashable

import rules

from .truth import Adapter


def legal(state: rules.GameState, text: str) -> bool:
    from tests.rules.test_teblo import (
        BASE,
        BOX,
        INDEX,
        NEIGHBOURS,
        OTHER,
        block_masks,
        everyone_reaches,
        snapshot,
    )

    blocks, pawns, hand, me = snapshot(state)
    enemy = OTHER[me]
    if pawns[me] == BASE[enemy] or pawns[enemy] == BASE[me]:
        return False
    masks = block_masks(blocks)
    if text.startswith("+"):
        sq = text[1:]
        if not hand[me] or sq not in INDEX or sq in BOX or sq in blocks \
                or sq in pawns.values():
            return False
        masks[me] |= 1 << INDEX[sq]
        return everyone_reaches(masks, pawns)
    frm, _, to = text.partition("-")
    if frm != pawns[me] or to not in NEIGHBOURS[frm] or blocks.get(to) == enemy:
        return False
    if to == pawns[enemy] and to != BASE[enemy]:
        return False
    return everyone_reaches(masks, {**pawns, me: to})


def pick(state: rules.GameState, rng: random.Random) -> list[Hashable]:
    legal_moves = state.legal_moves()
    me = state.pawn(state.to_move)
    steps = [m for m in legal_moves if m.frm]
    around = [m for m in legal_moves if not m.frm and m.to in state.GEOMETRY.adjacency[me]]
    roll = rng.random()
    if steps and roll < 0.4:
        return steps
    if around and roll < 0.7:
        return around
    return legal_moves


ADAPTER = Adapter(layouts=("teblo", "teblo-hall"), legal=legal, pick=pick)
