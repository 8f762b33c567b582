"""Tulaga with nobody answering: a question whose readings all make the same turn is
settled by it, though one of them got there by another answer."""

import random

from .truth import Mix, run_stream


def test_a_claim_every_reading_makes_is_committed_though_nobody_answered():
    """Black claimed d6*b5c5d5d6@c6 while white's b6, on the line its reap west would
    take, was touched: asked whether the claim reaped west, nobody answered. The reading
    of ``none`` (no claim) found the same claim made after all, so every reading agreed on
    it, yet the question stayed open to the end and 18 turns were never committed (seed
    65000025)."""
    mix = Mix.random(random.Random(65000025))
    mix.answer = False
    result = run_stream("tulaga", "tulaga", 65000025, plies=24, mix=mix)
    assert "d6*b5c5d5d6@c6" in result.truth
    assert result.committed == result.truth
