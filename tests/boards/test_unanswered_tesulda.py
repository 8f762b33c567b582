"""Tesulda with nobody answering: a swap made and never told is declined when the next
player begins (the replay contract: the board cannot see a swap, so a player who never
tells it has, for the board, not swapped). The truth harness counts such a stream apart
from one that goes off the truth."""

import random

from .truth import Mix, run_stream, untold


def test_a_swap_nobody_told_is_committed_declined_and_counted_so():
    mix = Mix.random(random.Random(69500001))
    mix.answer = False
    result = run_stream("tesulda", "tesulda", 69500001, plies=2, mix=mix)
    # the move was followed; its swap, which no sensor sees, was declined
    assert result.truth[0] == "h2-i3 swap:zh:j2>i3" and result.committed[0] == "h2-i3 none"
    assert result.declined == result.off and result.off.startswith("ply 1:")
    assert not result.illegal


def test_only_decisions_after_the_visible_part_declined_count_as_untold():
    assert untold("c9-d8 none", "c9-d8 swap:s:e9>d8")
    assert untold("a1xb2 none none", "a1xb2 take:c swap:s:b2>b3")
    assert not untold("c9-d8 none", "c9-d8 none")  # the truth itself
    assert not untold("c9-d7 none", "c9-d8 swap:s:e9>d8")  # another move
    assert not untold("roll 4 1", "roll 4 3")  # a size is not declined: another turn
    assert not untold("a1xb2 take:c none", "a1xb2 take:z none")
