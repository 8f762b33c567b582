"""Tulaga truth streams that once left the truth (bench/truth.py, random handling mix),
each kept as the essence of its fault."""

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


def test_none_answered_after_the_board_shows_another_claim_done_reads_that_claim():
    """Black claimed f4*f4g2h2h3@g3 and reaped north (white's g5 taken up) while white's b3
    had been touched: asked, before the reap, whether the claim reaped west or not at all,
    and answering ``none`` only after g5 was taken up, the board no longer read the claim
    it now showed, and every later turn was an error (seed 93000882)."""
    mix = Mix.random(random.Random(93000882))
    result = run_stream("tulaga", "tulaga", 93000882, plies=24, mix=mix)
    assert "f4*f4g2h2h3@g3>N" in result.truth
    assert result.committed == result.truth


def test_two_claims_each_declined_for_the_other_are_read_once():
    """A garbage stone put on i4 and taken off again, then black's claim i3*g3g4h3i3@h4>W:
    asked which claim, the reading of ``none`` asked about the claim at i4, whose own
    ``none`` asked about i3 again, and so on: the readings forked without end and the
    board died of a RecursionError (seed 97000159, ply 11 of 60)."""
    mix = Mix.random(random.Random(97000159))
    result = run_stream("tulaga", "tulaga", 97000159, plies=12, mix=mix)
    assert "i3*g3g4h3i3@h4>W" in result.truth
    assert result.committed == result.truth
