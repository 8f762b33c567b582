"""Which Telec entry sizes the turns after them decide, in the truth streams.

Run by hand: .venv/bin/python bench/telec_sizes.py [--first SEED] [--streams N] [--plies P]
For every entry of every stream (``bench/truth.py --unanswered``'s), each other size the entry
could have had is tried: it is *excluded* when no choice of the later entries' sizes (the
same tiles, any legal size) lets the true later turns be played after it. An entry is
*decided* when every other size is excluded, *narrowed* when some are; *unknown* when the
search gave up (``--budget`` positions per size). What the readings of a question nobody
answers could learn at best, if every reading were followed to the end of the stream.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import rules  # noqa: E402
from tests.boards.truth import Mix, run_stream  # noqa: E402

SIZES = "123456"


class GaveUp(Exception):
    """The search met more positions than it may."""


def _play(state: rules.GameState, text: str) -> rules.GameState | None:
    """``state`` after the turn ``text``, each decision legal in turn (None: not legal)."""
    state = state.clone()
    try:
        for move in state.parse_turn(text):
            chance = [o for o, _ in state.chance_outcomes()]
            if move not in (chance or state.legal_moves()):
                return None
            state.push(move)
    except rules.RulesError:
        return None
    return state


def _entry(text: str) -> list[str] | None:
    words = text.split(" ")
    return words if words[0] == "roll" and len(words) == 3 and words[2] in SIZES else None


def _fits(state: rules.GameState, later: list[str], budget: list[int]) -> bool:
    """Can the turns ``later`` be played from ``state``, each entry with any legal size?"""
    budget[0] -= 1
    if budget[0] < 0:
        raise GaveUp
    if not later:
        return True
    words = _entry(later[0])
    texts = [f"roll {words[1]} {s}" for s in SIZES] if words else [later[0]]
    nexts = [s for s in (_play(state, text) for text in texts) if s is not None]
    return any(_fits(s, later[1:], budget) for s in nexts)


def _verdict(state: rules.GameState, words: list[str], later: list[str], budget: int) -> str:
    others = [s for s in (_play(state, f"roll {words[1]} {size}") for size in SIZES
                          if size != words[2]) if s is not None]
    try:
        out = sum(not _fits(s, later, [budget]) for s in others)
    except GaveUp:
        return "unknown"
    return "decided" if others and out == len(others) else "narrowed" if out else "open"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=69_500_000)
    ap.add_argument("--streams", type=int, default=50)
    ap.add_argument("--plies", type=int, default=24)
    ap.add_argument("--budget", type=int, default=5000)
    args = ap.parse_args()
    counts = {"decided": 0, "narrowed": 0, "open": 0, "unknown": 0}
    for seed in range(args.first, args.first + args.streams):
        mix = Mix.random(random.Random(seed))
        mix.answer = False  # (the streams of ``bench/truth.py --unanswered``)
        truth = run_stream("telec", "telec", seed, plies=args.plies, mix=mix).truth
        state = rules.new_game("telec")
        for k, text in enumerate(truth):
            words = _entry(text)
            if words:
                counts[_verdict(state, words, truth[k + 1:], args.budget)] += 1
            state = _play(state, text)
    print(f"seeds {args.first}.., {args.streams} streams of {args.plies} plies: "
          f"{sum(counts.values())} entries; " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
