"""Evidence: what the sensors have shown this turn, as a value, and pure predicates of it
about one candidate turn (:class:`boards.turns.Candidate`): whether it is in progress
(:func:`consistent`), done (:func:`complete`), a piece replaced rather than touched
(:func:`replaced`), more pieces arrived than left (:func:`excess`), which cells keep it
from being in progress (:func:`mismatch`), its first stage not yet carried out
(:func:`stage`).

The tracker keeps the evidence up to date (:attr:`boards.tracker.Tracker.evidence`); these
functions only read it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from .turns import Candidate, Observe, common_prefix, prefixes


class Evidence(NamedTuple):
    """What the sensors showed this turn: the board when it began (``before_pieces``, and
    what the sensors showed then, ``before``), now (``current``), what each cell has shown
    (``seen``) and in which batch of changes, numbered from 1 (``history``: cell -> (batch,
    observation) in order, 0 for what it showed when the turn began), the cells that
    differ from the start (``differing``) and those the last batch changed
    (``batch_cells``)."""

    observe: Observe
    before_pieces: dict[str, tuple[str, ...]]
    before: dict[str, Hashable]
    current: dict[str, Hashable]
    seen: dict[str, set]
    history: dict[str, list[tuple[int, Hashable]]]
    differing: set[str]
    batch_cells: list[str]


def describe(pieces: tuple[str, ...]) -> str:
    """What a cell should show, for error messages: "empty" or the pieces bottom to top."""
    return "+".join(pieces) if pieces else "empty"


class Seen(dict):
    """What each cell has shown this turn: a cell nobody has touched showed only what it
    showed when the turn began (filled in when first asked, not for every cell at once)."""

    def __init__(self, before: dict[str, Hashable], touched: dict[str, set]) -> None:
        super().__init__(touched)
        self.before = before

    def __missing__(self, cell: str) -> set:
        shown = self[cell] = {self.before[cell]}
        return shown


def begun(before: dict[str, Hashable], current: dict[str, Hashable], differing: set[str],
          ) -> tuple[Seen, dict[str, list[tuple[int, Hashable]]]]:
    """What each cell has shown, and in which batch, as a turn begins from ``before`` with
    the sensors showing ``current`` (``differing``: the cells where the two differ)."""
    touched: dict[str, set] = {}
    history: dict[str, list[tuple[int, Hashable]]] = {}
    for cell in differing:  # (one loop: each comprehension is a call of its own)
        touched[cell] = {before[cell], current[cell]}
        history[cell] = [(0, current[cell])]
    return Seen(before, touched), history


def taken(ev: Evidence, cell: str, value: Hashable) -> bool:
    """Whether ``cell`` changing to ``value`` takes a piece up (rather than puts one
    down): it shows a shorter part of its start stack than it did."""
    shown = list(map(ev.observe, prefixes(ev.before_pieces[cell])))
    was = ev.current[cell]
    if value not in shown:
        return False
    return was not in shown or shown.index(value) < shown.index(was)


def in_hand(ev: Evidence, cell: str) -> frozenset:
    """What ``cell``'s sensor shows while some of its start pieces are in hand."""
    return frozenset(map(ev.observe, prefixes(ev.before_pieces[cell])))


def consistent(ev: Evidence, cand: Candidate) -> bool:
    """``cand`` explains every cell that differs from the start of the turn.

    A turn that would first need an unrelated piece put back is not in progress:
    that piece is out of place, and after ``error_delay`` it is an error.
    """
    allowed, current = cand.allowed, ev.current
    for cell in ev.differing:
        ok = allowed.get(cell)
        if ok is None or current[cell] not in ok:
            return False
    if cand.first_step and not in_order(ev, cand):
        return False
    # No piece has arrived that neither left a cell of ``cand`` nor came from the stock:
    # a Teblo pawn cannot land on b1 before it has left a1.
    return excess(ev, cand)[0] <= 0


def shows_done(ev: Evidence, cand: Candidate) -> bool:
    """``cand`` is in progress and the board shows it done."""
    return consistent(ev, cand) and complete(ev, cand)


def done_of(ev: Evidence, cands: list[Candidate]) -> list[Candidate]:
    """The visible turns among ``cands`` (those in progress) that the board shows complete
    (a silent turn is never complete by itself: only a press or an answer says it was
    made)."""
    done = []
    for cand in cands:  # (a loop: a comprehension is a call of its own)
        if not cand.silent and complete(ev, cand):
            done.append(cand)
    return done


def in_order(ev: Evidence, cand: Candidate) -> bool:
    """No cell shows work of a stage whose earlier stages are not done (a Tulaga reap
    does not begin before the stone is placed and the Tulaga claimed)."""
    done = stage(ev, cand)[0]
    first = cand.first_step
    return all(first.get(cell, 0) <= done for cell in ev.differing)


def excess(ev: Evidence, cand: Candidate) -> tuple[int, list[str]]:
    """How many more pieces have arrived on cells of ``cand`` (a Dodger's corner
    included) than have left its cells or come from the stock, and the cells where
    they arrived."""
    current, before = ev.current, ev.before
    takes, passing, waypoints = cand.takes, cand.passing, cand.waypoints
    arrived = []
    for cell in ev.differing:  # (a piece arrives only where the cell differs)
        shows = current[cell]
        if shows in takes.get(cell, ()):
            arrived.append(cell)
        if passing and shows in passing.get(cell, ()):
            arrived.append(cell)
        if cell in waypoints:
            arrived.append(cell)
    if len(arrived) <= cand.stock:
        return len(arrived) - cand.stock, arrived
    departed = sum(1 for cell, visible in cand.gives
                   if not visible or current[cell] != before[cell]
                   or cell in cand.lift and cand.lift[cell] in ev.seen[cell])
    return len(arrived) - departed - cand.stock, arrived


def complete(ev: Evidence, cand: Candidate) -> bool:
    """The board shows ``cand`` done: every cell as it leaves it, each piece it replaces
    lifted before another came (:func:`replaced`), each stage it passes shown."""
    for cell, value in cand.final.items():
        if ev.current[cell] != value:
            return False
    for cell, value in cand.lift.items():  # (loops: each generator is a call of its own)
        if not replaced(ev, cand, cell, value):
            return False
    seen = ev.seen
    for cell, shows in cand.passing.items():
        if not shows <= seen[cell]:
            return False
    return True


def replaced(ev: Evidence, cand: Candidate, cell: str, lifted: Hashable) -> bool:
    """The piece on ``cell`` was taken away and another put there, in that order: the
    cell showed ``lifted``, then its last change came, and (unless the new piece comes
    from the stock) no earlier than the other pieces of ``cand`` left their cells. A
    piece lifted and put back before the capturing piece left is a touch."""
    hist = ev.history.get(cell)
    if not hist:
        return False
    arrival = hist[-1][0]
    if not any(n < arrival for n, v in hist if v == lifted):
        return False
    if cand.stock:
        return True
    return all(departure(ev, other) <= arrival
               for other, visible in cand.gives if visible and other != cell)


def departure(ev: Evidence, cell: str) -> float:
    """When a piece last left ``cell`` this turn (its batch number), if one has: the
    start of the last time the cell showed a piece in hand (a touch earlier in the
    turn, lifted and put back, does not count)."""
    held = in_hand(ev, cell)
    before = ev.before[cell]
    start = float("inf")
    for n, value in reversed(ev.history.get(cell, ())):
        if value != before and value in held:
            start = n
        elif start != float("inf"):
            break
    return start


def mismatch(ev: Evidence, cand: Candidate) -> dict[str, str]:
    """The cells that keep ``cand`` from being in progress, and what they should show.

    Besides cells ``cand`` cannot explain, a piece that has arrived where ``cand`` puts
    one, while no piece has left where ``cand`` takes one from (nor come from the
    player's stock), is out of place too.
    """
    wrong = {
        cell: describe(ev.before_pieces[cell])
        for cell in ev.differing
        if ev.current[cell] not in cand.allowed.get(cell, ())
    }
    extra, arrived = excess(ev, cand)
    for cell in sorted(arrived)[:max(extra, 0)]:
        wrong[cell] = describe(ev.before_pieces[cell])
    return wrong


def cleared(ev: Evidence, complete: list[Candidate]) -> bool:
    """The last scan only took away pieces put down this turn where no ``complete``
    turn leaves one: a stray put right, a piece leaving by the Center Zone's pad."""
    empty = ev.observe(())
    return all(ev.before[cell] == empty == ev.current[cell]
               and all(c.final.get(cell, empty) == empty for c in complete)
               for cell in ev.batch_cells)


def stages_shown(ev: Evidence, complete: list[Candidate]) -> set[str]:
    """The cells where the board has shown a stage of one of the ``complete`` turns (a
    piece put on the Center Zone's pad and taken away)."""
    return {cell for c in complete for cell in c.passing if len(ev.seen[cell]) > 1
            and _passed_after(ev, c, cell)}


def _passed_after(ev: Evidence, cand: Candidate, cell: str) -> bool:
    """The pad showed a piece after one of ``cand``'s pieces left its cell."""
    left = min((departure(ev, other) for other, visible in cand.gives
                if visible and other != cell), default=0)
    return any(n >= left and v != ev.before[cell] for n, v in ev.history.get(cell, ()))


def may_arrive(ev: Evidence, cand: Candidate, replaced: set[str]) -> bool:
    """The piece now on each ``replaced`` cell may be ``cand``'s: it comes from the
    stock, or a piece of ``cand`` left its cell before it was put there."""
    if cand.stock:
        return True
    for cell in replaced & cand.lift.keys():
        arrival = ev.history[cell][-1][0]
        if not any(departure(ev, other) <= arrival
                   for other, visible in cand.gives if visible and other != cell):
            return False
    return True


def swapped(ev: Evidence, alive: list[Candidate]) -> set[str]:
    """Cells showing their start again whose piece was lifted before the piece that
    would replace it left its own cell, and a piece put there after: held across that,
    it is not the same piece put back (an enemy taken, then the shooter moved onto its
    cell). A piece lifted and put back otherwise may be a touch."""
    out = set()
    for cand in alive:
        for cell in cand.lift:
            hist = ev.history.get(cell, ())
            if cell in ev.differing or len(hist) < 2:
                continue
            back = hist[-1][0]
            held, before = in_hand(ev, cell), ev.before[cell]
            # the last time the piece left before it came back (not an earlier touch)
            first = max((n for n, v in hist if n < back and v != before and v in held),
                        default=float("inf"))
            if any(first < departure(ev, other) <= back
                   for other, visible in cand.gives if visible and other != cell):
                out.add(cell)
            elif cand.ways and cand.stock:
                # A turn of several decisions entering a piece from the stash onto an
                # enemy it bumps (Telec): the piece put there is the entering one.
                out.add(cell)
    return out


def staged(ev: Evidence, complete: list[Candidate]) -> set[str]:
    """Cells whose piece was lifted and one put there again once the earlier stages of
    a complete turn were done: that turn's later stage (a Tulaga reap replacing a rank
    stone), not a touch. A lift before then is a touch."""
    out = set()
    for cand in complete:
        for cell, stage in cand.first_step.items():
            hist = ev.history.get(cell, ())
            if cell not in cand.lift or cell in ev.differing or len(hist) < 2:
                continue
            left = max((n for n, v in hist if v != ev.before[cell]), default=0)
            earlier = [n for c in cand.final if cand.first_step.get(c, 0) < stage
                       for n, _ in ev.history.get(c, ())]
            if left and all(n < left for n in earlier):
                out.add(cell)
    return out


def forward(ev: Evidence, cand: Candidate) -> bool:
    """``cand`` needs no cell undone: no piece it takes away was lifted and put back
    (the Tulaga rank stone just placed on c1 rules out the claims that put it on a1)."""
    before, current, seen, final = ev.before, ev.current, ev.seen, cand.final
    return not any(
        final[cell] != before[cell] and current[cell] == before[cell] and len(seen[cell]) > 1
        for cell, _ in cand.gives if cand.before.get(cell)
    )


def put_back(ev: Evidence, waiting: list[Candidate]) -> bool:
    """The last scan only put pieces back where the ``waiting`` turns change nothing
    the sensors see and replace no piece (a Telec stack onto an own piece): each cell it
    changed shows what it showed when the turn began."""
    return all(ev.current[c] == ev.before[c] and not any(
        c in w.lift or w.final.get(c, ev.before[c]) != ev.before[c] for w in waiting)
        for c in ev.batch_cells)


def next_step(ev: Evidence, cand: Candidate) -> dict[str, tuple[tuple, tuple]]:
    """The cells of the first stage of ``cand`` not yet carried out, with their pieces
    before and after that stage (a Tulaga claim: its stones and the rank point first,
    the reap after)."""
    return stage(ev, cand)[1]


def stage(ev: Evidence, cand: Candidate) -> tuple[int, dict[str, tuple[tuple, tuple]]]:
    """The index of the first stage of ``cand`` not yet carried out, and its cells."""
    observe, current, seen = ev.observe, ev.current, ev.seen
    prev = cand.before
    steps = cand.steps
    for k, step in enumerate(steps):
        todo = {}
        for cell, pieces in step.items():
            was = prev.get(cell, ev.before_pieces[cell])
            if pieces == was:
                continue
            value = observe(pieces)
            common = common_prefix(was, pieces)
            lifted = len(common) in (len(was), len(pieces)) or observe(common) in seen[cell]
            if not (lifted and (current[cell] == value or value in seen[cell]
                                and current[cell] in _later(observe, steps, k, cell, value))):
                todo[cell] = (was, pieces)
        if todo:
            return k, todo
        prev = {**prev, **step}
    return len(steps), {}


def _later(observe: Observe, steps: tuple, k: int, cell: str, value: Hashable) -> set:
    """What ``cell`` may show after stage ``k`` of ``steps`` other than ``value``: a
    later stage's pieces there, or what is left of them while one is in hand."""
    later = set()
    for a, b in zip(steps[k:], steps[k + 1:], strict=False):
        later |= {observe(common_prefix(a[cell], b[cell])), observe(b[cell])}
    later.discard(value)
    return later
