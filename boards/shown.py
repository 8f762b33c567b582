"""What the LEDs and views need of the turn in progress: pieces in hand, targets, cells to
put right, the pieces threatening a protected one.
"""

from __future__ import annotations

from . import evidence
from .evidence import describe
from .turns import common_prefix


class Shown:
    """What the tracker shows (a mixin of :class:`boards.tracker.Tracker`)."""

    def restore_cells(self) -> dict[str, str]:
        """While the board is put right: each cell that differs and what it should show."""
        return {c: describe(self.before_pieces[c]) for c in sorted(self.differing)}

    def _attackers(self) -> tuple[str, ...]:
        """Where the board shows one piece moved (its cell emptied, another filled or its
        piece replaced) as the pieces move but exposing a piece the rules protect: the
        cells of the pieces that could then take it (``GameState.exposed_by``)."""
        empty = self.observe(())
        left = [c for c in self.differing if self.before_pieces[c] and self.current[c] == empty]
        came = [c for c in self.cells if self.current[c] != empty and (
            c in self.differing if not self.before_pieces[c]
            else c not in self.differing and empty in self.seen[c])]
        if len(left) != 1 or len(came) != 1:
            return ()
        return tuple(self.state.exposed_by(left[0], came[0]))

    def _error_cells(self) -> dict[str, str]:
        # The fewest wrong cells; on a tie, blame a piece put down over a piece in hand.
        ev = self.evidence
        best: dict[str, str] | None = None
        best_key = None
        # A turn that was complete and waiting is what the player most likely meant.
        for cand in self.pending or [c for c in self.candidates if c.text not in self.declined]:
            wrong = evidence.mismatch(ev, cand)
            key = (len(wrong), sum(1 for v in wrong.values() if v != "empty"))
            if best_key is None or key < best_key:
                best, best_key = wrong, key
        if best is None:  # the game is over: the board should stay as it ended
            best = {c: describe(self.before_pieces[c]) for c in self.differing}
        return dict(sorted(best.items()))

    def occupied(self, cell: str) -> bool:
        """Whether the sensor of ``cell`` shows anything there now."""
        return self.current[cell] != self.observe(())

    def pieces_now(self, cell: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What stands on ``cell`` as far as the tracker can tell, and what of its pieces is
        in hand: the longest part of the turn's start stack the sensor agrees with; a piece
        put down where none was is ``("?",)`` until a move says what it is."""
        before = self.before_pieces[cell]
        for k in range(len(before), -1, -1):
            if self.observe(before[:k]) == self.current[cell]:
                return before[:k], before[k:]
        return (*before, "?"), ()

    def danger(self) -> list[str]:
        """The pieces threatening one the side to move must protect (a Tesulda Prime in
        danger), worked out once a turn."""
        if self._danger is None:  # (the game's outcome asked only where there are some)
            cells = self.state.danger_cells()
            self._danger = cells if cells and not self.state.outcome() else []
        return self._danger

    def lifted(self) -> list[str]:
        """Cells whose pieces (some of them) are in hand."""
        ev = self.evidence
        return sorted(c for c in self.differing if self.current[c] in evidence.in_hand(ev, c))

    def targets(self, lifted: list[str] | None = None) -> dict[str, str]:
        """What the turn in progress still needs: cell -> "move" (a piece may go there),
        "capture" (a piece there may be replaced) or "lift" (a piece there may leave).
        ``lifted``: :meth:`lifted`, where the caller has it already."""
        ev = self.evidence
        if not self.differing:
            return {}
        rank = {"lift": 0, "dodge": 1, "move": 2, "capture": 3}
        out: dict[str, str] = {}
        alive, in_hand = self._alive, bool(self.lifted() if lifted is None else lifted)
        for cand in [c for c in alive if evidence.forward(ev, c)] or alive:
            for cell, (b, a) in evidence.next_step(ev, cand).items():
                common = common_prefix(b, a)
                replaced = len(common) < len(b) and self.observe(common) not in self.seen[cell]
                kind = "capture" if a and replaced else "move" if a else "lift"
                if kind == "move" and cand.detour:
                    kind = "dodge"  # only by a Dodger's second leg
                if rank[kind] >= rank.get(out.get(cell, "lift"), 0):
                    out[cell] = kind
            if in_hand:
                # While a piece is in hand, also where it may go unseen: onto a piece the
                # sensor already sees there (a stack), or where there is no sensor.
                on_top = [c for c, a in cand.after.items() if len(a) > len(cand.before[c])
                          and a[:len(cand.before[c])] == cand.before[c]
                          and cand.final[c] == self.before[c]]
                for cell in (*on_top, *cand.unseen):
                    out.setdefault(cell, "move")
        return out

    def roll_cells(self) -> list[str]:
        """After the board's die has rolled: the cells where the turn may now go on."""
        if self.rolled is None or self.differing:
            return []
        return sorted({cell for cand in self.candidates for cell in cand.final})
