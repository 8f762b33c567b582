"""What a cell's sensor reports for the pieces standing on it, per sensor kind.

``binary`` (reed switches, digital Hall sensors): whether anything is there.
``analog`` (linear Hall sensors): a class found by thresholds from the summed field of
the magnets, so a block, a pawn and a pawn on a block read differently.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from .constants import presence
from .layout import Layout


def classify(value: float, thresholds: dict[str, float]) -> str:
    """The class whose threshold is the largest one not above ``value``.

    >>> classify(1.1, {"empty": 0.0, "block": 0.5, "pawn": 1.75})
    'block'
    """
    best, level = min(thresholds, key=thresholds.__getitem__), float("-inf")
    for name, t in thresholds.items():
        if level < t <= value:
            best, level = name, t
    return best


def observer(layout: Layout) -> Callable[[tuple[str, ...]], Hashable]:
    """The tracker's view of a cell's pieces for this layout's sensors."""
    if layout.sensor == "binary":
        return presence
    thresholds, magnets = layout.thresholds, layout.magnets
    cache: dict[tuple[str, ...], str] = {}

    def observe(pieces: tuple[str, ...]) -> str:
        if pieces not in cache:
            cache[pieces] = classify(sum(magnets[p] for p in pieces), thresholds)
        return cache[pieces]

    return observe
