"""Tesulda in the truth-checked streams (see ``truth.py``), on the reed-switch board: a
figure is lifted and set down whole (the sensor under its base sees it), a capture lifts
the enemy figure off, and the turn's decisions after the move (the attack choice, the
swap and the draw, D-7, D-8) change only what the rods carry: the sensors see none of
them, so the board asks them one at a time.

Every committed turn is checked decision by decision against the naive second
implementation (``tests/rules/tesulda_naive.py``): the move among the naive reach of the
figure (D-5, D-5a, D-6), each later decision's result among the naive attack choices,
swaps or draws of the position (D-7, D-8), the turn ended only where nothing but ``none``
could end it legally, and the mover's Prime out of every enemy path at the end (D-9)."""

from __future__ import annotations

import random
from collections.abc import Hashable

import rules
from boards import decisions
from boards.decisions import Turn
from tests.rules import tesulda_naive as naive

from .truth import Adapter


def _them(me: str) -> str:
    return naive.SIDES[1 - naive.SIDES.index(me)]


def _safe(board: dict, me: str) -> bool:
    """D-9: no enemy figure can move onto a Prime (a figure carrying the crown) of ``me``."""
    return not any(side == me and p["crown"] and naive.attacked(board, cell, _them(me))
                   for cell, (side, _base, p) in board.items())


def _extras(board: dict, pool, moved: str, open_: set[str]) -> dict[str, list]:
    """The naive results of each D-8 decision still open: ``{kind: [(board, pool)]}``."""
    out = {}
    if "swap" in open_:
        out["swap"] = [(b, pool) for b in naive.swaps(board, moved)]
    if "draw" in open_:
        out["draw"] = naive.draws(board, pool, moved)
    return out


def _may_end(board: dict, pool, moved: str, me: str, open_: set[str]) -> bool:
    """Whether some further D-8 decision could still end the turn legally."""
    for kind, results in _extras(board, pool, moved, open_).items():
        for b, p in results:
            if _safe(b, me) or _may_end(b, p, moved, me, open_ - {kind}):
                return True
    return False


def _attack_choices(after: dict, pool, to: str, victim: tuple) -> list:
    """D-7: the naive results of taking none, one or two of the captured figure's pieces."""
    side, base, mine = after[to]
    return [({**after, to: (side, base, mine + c)}, pool + (victim[2] - c))
            for c in [naive.Counter(), *naive.choices(victim[2])] if naive.fits(mine + c)]


def legal(state: rules.GameState, text: str) -> bool:
    """Whether the turn ``text`` is legal from ``state`` by the naive implementation."""
    me, them = state.to_move, _them(state.to_move)
    board, pool = naive.snapshot(state)
    s = state.clone()

    def push(word: str, results: list) -> bool:
        """Play ``word`` by the rules module; its result must be one of ``results``."""
        try:
            move = s.parse_move(word)
        except rules.RulesError:
            return False
        if not s.is_legal(move):
            return False
        s.push(move)
        got = naive.snapshot(s)
        return any((b, +p) == (got[0], +got[1]) for b, p in results)  # (+: no zero counts)

    words = text.split(" ")
    frm, sep, to = words[0].partition("x" if "x" in words[0] else "-")
    if board.get(frm, ("",))[0] != me or to not in naive.reach(board, frm) \
            or (sep == "x") != (to in board):
        return False
    after = dict(board)
    victim = after.pop(to, None)
    after[to] = after.pop(frm)
    if not push(words[0], [(after, pool)]):
        return False
    rest = words[1:]
    if victim and victim[2]["crown"] and not any(
            f[0] == them and f[2]["crown"] for f in after.values()):
        return not rest and s.outcome() is not None  # the enemy's last crown: it is over
    if victim:
        if not rest or rest[0].split(":")[0] not in ("take", "none") \
                or not push(rest[0], _attack_choices(after, pool, to, victim)):
            return False
        rest = rest[1:]
    open_ = {"swap", "draw"}
    for k, word in enumerate(rest):
        kind = word.split(":")[0]
        if word == "none":
            if k != len(rest) - 1 or not push(word, [naive.snapshot(s)]):
                return False
            break
        if kind not in open_:
            return False
        board, pool = naive.snapshot(s)
        if not push(word, _extras(board, pool, to, {kind})[kind]):
            return False
        open_.discard(kind)
    if s.to_move == me and s.outcome() is None:
        return False  # the turn is not over
    end, left = naive.snapshot(s)
    if not _safe(end, me):
        return False
    # Ended without ``none``: only where nothing but ``none`` was left.
    return rest[-1:] == ["none"] or not _may_end(end, left, to, me, open_)


def pick(state: rules.GameState, rng: random.Random) -> list[Hashable]:
    """A whole turn, drawn decision by decision: often a capture (then often pieces
    taken), a Dodger's two-leg move, or a swap or draw after the move."""
    player, turn = state.to_move, []
    while decisions.in_turn(state, player):
        legal_moves = state.legal_moves()
        if not turn:
            captures = [m for m in legal_moves if m.capture]
            detours = [m for m in legal_moves if state.detour(m)]
            roll = rng.random()
            pool = captures if captures and roll < 0.4 else \
                detours if detours and roll < 0.6 else legal_moves
        else:
            rest = [m for m in legal_moves if m.kind != "none"]
            pool = rest if rest and rng.random() < 0.6 else legal_moves
        move = rng.choice(pool)
        state.push(move)
        turn.append(move)
    decisions.pop(state, Turn(turn))
    return [Turn(turn)]


ADAPTER = Adapter(layouts=("tesulda",), legal=legal, pick=pick, streams=3)
