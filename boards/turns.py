"""A legal turn's physical effect: what each cell it changes holds before, during and
after it, and what the sensors may show meanwhile. The tracker matches these against
the board."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from operator import attrgetter

import rules

from . import decisions

Observe = Callable[[tuple[str, ...]], Hashable]


@dataclass(eq=False)
class Candidate:
    """One legal turn and what it does to each cell it changes."""

    move: Hashable
    text: str
    before: dict[str, tuple[str, ...]]
    after: dict[str, tuple[str, ...]]
    allowed: dict[str, frozenset]  # cell -> observations it may show mid-turn
    final: dict[str, Hashable]  # cell -> observation once the turn is done
    lift: dict[str, Hashable]  # cell -> observation that must have been seen (piece replaced)
    silent: bool = field(default=False)  # the sensors see no change at all
    # cell -> observations a stage of the turn shows there, each seen once (a stone placed
    # and lifted again within the turn)
    passing: dict[str, frozenset] = field(default_factory=dict)
    # The piece count: cells a piece leaves (and whether the sensor sees it go), cells
    # where the sensor shows a piece arriving, and how many pieces come from the stock.
    gives: tuple[tuple[str, bool], ...] = ()
    takes: dict[str, frozenset] = field(default_factory=dict)
    stock: int = 0
    steps: tuple[dict[str, tuple[str, ...]], ...] = ()  # the pieces of each stage, then after
    first_step: dict[str, int] = field(default_factory=dict)  # cell -> its first stage (>0 only)
    # A turn of several decisions: every way to finish it that looks like this one to the
    # sensors (the rest is asked decision by decision); () for a one-decision move.
    ways: tuple = ()
    # Empty cells the moving piece may be set down on partway (a Dodger's corner).
    waypoints: frozenset = frozenset()
    # Cells without a sensor the turn puts a piece on (a Telec Center Zone without its drop
    # sensor): nothing there can be seen, but the LEDs may still show the way.
    unseen: tuple[str, ...] = ()
    detour: bool = False  # it gets there only by turning partway (a Dodger's second leg)

    def __eq__(self, other: object) -> bool:
        # Every field equal, as a dataclass compares; the text first: lists of candidates
        # are searched at every event, and two different turns differ in their text.
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self.text == other.text and _fields(self) == _fields(other)


_fields = attrgetter(*(f.name for f in fields(Candidate)))


def prefixes(pieces: tuple[str, ...]) -> list[tuple[str, ...]]:
    """``pieces[:k]`` for every k, shortest first (in C: read at every change)."""
    return list(map(pieces.__getitem__, map(slice, range(len(pieces) + 1))))


def common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return a[:n]


def _first_steps(before: dict[str, tuple], steps: list[dict[str, tuple]]) -> dict[str, int]:
    """For a turn of several stages: each cell whose first change comes after stage 0."""
    if len(steps) < 2:
        return {}
    first = {}
    for cell, was in before.items():
        for k, step in enumerate(steps):
            if step[cell] != was:
                if k:
                    first[cell] = k
                break
    return first


def effect(state: rules.GameState, move: Hashable, start: frozenset,
           before_pieces: dict[str, tuple[str, ...]], before_obs: dict[str, Hashable],
           observe: Observe, blind: frozenset = frozenset()) -> Candidate:
    """What ``move`` (one decision, or a :class:`decisions.Turn`) does on the board, cell
    by cell. ``start``: the items of ``state.physical()``; ``before_pieces``/``before_obs``:
    every cell's pieces and what its sensor shows, at the start of the turn; ``blind``:
    cells without a sensor, which the turn cannot be seen to change."""
    # Stages a turn passes through (e.g. a Tulaga stone placed, then lifted with its row).
    middle = decisions.stages(state, move)
    decisions.push(state, move)
    after_phys = state.physical()
    decisions.pop(state, move)
    before, after, allowed, final, lift, passing = {}, {}, {}, {}, {}, {}
    left: Counter[str] = Counter()
    came: Counter[str] = Counter()
    gives: list[tuple[str, bool]] = []
    takes: dict[str, frozenset] = {}
    steps: list[dict[str, tuple[str, ...]]] = [{} for _ in range(len(middle) + 1)]
    changed = {cell for cell, _ in start.symmetric_difference(after_phys.items())}
    for stage in middle:
        changed |= {cell for cell, _ in start.symmetric_difference(stage.items())}
    unseen = tuple(sorted(changed & blind))
    changed -= blind
    for cell in changed:
        b, a = before_pieces[cell], after_phys.get(cell, ())
        passes = [stage.get(cell, ()) for stage in middle]
        if a == b and all(p == b for p in passes):
            continue
        before[cell], after[cell] = b, a
        shown = prefixes(b) + prefixes(a)
        for p in passes:
            shown += prefixes(p)
        allowed[cell] = frozenset(observe(p) for p in shown)
        final[cell] = observe(a)
        common = common_prefix(b, a)
        if common != b and common != a:
            lift[cell] = observe(common)
        ends = (before_obs[cell], final[cell])
        shows = frozenset(v for v in map(observe, passes) if v not in ends)
        if shows:
            passing[cell] = shows
        _count(cell, [b, *passes, a], observe, left, came, gives)
        for k, pieces in enumerate([*passes, a]):
            steps[k][cell] = pieces
        if len(a) > len(common) and final[cell] != before_obs[cell]:
            takes[cell] = shows | {final[cell]}
        elif shows:
            takes[cell] = shows
    stops = _stops(state, move, before, after, observe, blind)
    for cell, shows in stops.items():
        allowed[cell] = frozenset({before_obs[cell], *shows})
        final[cell] = before_obs[cell]
    silent = all(final[c] == before_obs[c] for c in final) and all(
        lift[c] == before_obs[c] for c in lift) and not passing
    stock = sum((came - left).values())
    return Candidate(move, decisions.text(state, move), before, after, allowed, final, lift,
                     silent, passing, tuple(gives), takes, stock, tuple(steps),
                     _first_steps(before, steps), waypoints=frozenset(stops), unseen=unseen,
                     detour=state.detour(decisions.decisions(move)[0]))


def _count(cell: str, seq: list[tuple[str, ...]], observe: Observe, left: Counter[str],
           came: Counter[str], gives: list[tuple[str, bool]]) -> None:
    """Count the pieces leaving and arriving on ``cell``, stage by stage (``seq``: its
    pieces before, at each stage, after), and each leaving (whether its sensor sees it)."""
    for x, y in zip(seq, seq[1:], strict=False):
        k = len(common_prefix(x, y))
        left.update(x[k:])
        came.update(y[k:])
        if len(x) > k:
            gives.append((cell, observe(x) != observe(x[:k])))


def _stops(state: rules.GameState, move: Hashable, before: dict[str, tuple[str, ...]],
           after: dict[str, tuple[str, ...]], observe: Observe, blind: frozenset,
           ) -> dict[str, set]:
    """Empty cells the moving piece may be set down on partway (a Dodger's corner), and
    what their sensors show with it there."""
    carried = {observe(before[c]) for c in before if before[c] and not after[c]}
    return {c: carried for c in state.waypoints(decisions.decisions(move)[0])
            if c not in before and c not in blind and carried}


def unseen(state: rules.GameState, move: Hashable, blind: frozenset) -> tuple[str, ...]:
    """The cells of ``blind`` (no sensor) that ``move`` puts a piece on, in a stage or at
    the end (a step into a Telec Center Zone without its drop sensor)."""
    if not blind:
        return ()
    shown = [*decisions.stages(state, move)]
    decisions.push(state, move)
    shown.append(state.physical())
    decisions.pop(state, move)
    return tuple(sorted(c for c in blind if any(stage.get(c) for stage in shown)))


def sight(cand: Candidate, observe: Observe) -> Hashable:
    """What the sensors can see of a turn: turns with the same sight cannot be told apart
    by the board (a Telec pyramid entered: its size)."""
    return (
        frozenset(cand.allowed.items()), frozenset(cand.final.items()),
        frozenset(cand.lift.items()), frozenset(cand.passing.items()),
        frozenset(cand.takes.items()), cand.stock, cand.silent, tuple(sorted(cand.gives)),
        tuple(sorted((cell, observe(was) != observe(())) for cell, was in cand.before.items())),
        tuple(tuple(sorted((c, observe(p)) for c, p in step.items())) for step in cand.steps),
        frozenset(cand.first_step.items()),
    )
