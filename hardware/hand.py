"""A player's hand over the simulated magnets: what stands on each cell and what is held.

The simulated board (``hardware.sim``) knows magnets on sensor addresses; the hand knows
the pieces. It lifts the top piece (or, in a game of figures, the whole stack) off a cell,
puts down what was lifted last (or a new piece from the stock), and moves the magnets to
match. It knows nothing of any game: the pieces are names, their magnets' strengths and
the cells' sensor addresses come from the layout.

>>> from hardware.clock import VirtualClock
>>> from hardware.sim import SimBoard
>>> magnets = SimBoard(1, 2, clock=VirtualClock(), bounce=0.0)
>>> hand = SimHand(magnets, {"a1": (0, 0), "b1": (0, 1)}, {"dark": 1.0})
>>> hand.set_up({"a1": ("dark",)})
>>> hand.lift("a1"); hand.place("b1", stock="clear"); hand.count("b1")
1
>>> hand.lift("a1")
Traceback (most recent call last):
...
ValueError: lift a1: there is no piece on a1
"""

from __future__ import annotations

from collections.abc import Mapping

Address = tuple[int, int]


class SimHand:
    """Pieces on the simulated magnets, lifted and put down as a player would."""

    def __init__(self, magnets, sensors: Mapping[str, Address], strength: Mapping[str, float],
                 *, whole_stacks: bool = False) -> None:
        """``sensors``: each cell's sensor address (cells without one are the board's
        blind cells); ``strength``: a piece's magnet strength (default 1);
        ``whole_stacks``: a lift takes the whole stack (a figure) instead of the top."""
        self.magnets = magnets
        self.sensors = sensors
        self.strength = strength
        self.whole_stacks = whole_stacks
        self.stacks: dict[str, list[str]] = {}
        self.held: list[list[str]] = []  # what is in hand: a piece, or a whole figure

    def set_up(self, pieces: Mapping[str, tuple[str, ...]]) -> None:
        """Put these pieces on the board at one instant, with no bounce."""
        bounce, self.magnets.bounce = self.magnets.bounce, 0.0
        self.stacks = {cell: list(p) for cell, p in pieces.items()}
        self.held = []
        for cell, stack in self.stacks.items():
            for piece in stack:
                self.magnets.place(self.sensors[cell], self._strength(piece))
        self.magnets.bounce = bounce

    def lift(self, cell: str) -> None:
        stack = self.stacks.get(cell)
        if not stack:
            raise ValueError(f"lift {cell}: there is no piece on {cell}")
        unit = stack[:] if self.whole_stacks else stack[-1:]
        del stack[len(stack) - len(unit):]
        if cell in self.sensors:
            for _ in unit:
                self.magnets.lift(self.sensors[cell])
        self.held.append(unit)

    def place(self, cell: str, stock: str) -> None:
        """Put down what was lifted last, or else the piece ``stock``."""
        unit = self.held.pop() if self.held else [stock]
        if cell in self.sensors:
            for piece in unit:
                self.magnets.place(self.sensors[cell], self._strength(piece))
        self.stacks.setdefault(cell, []).extend(unit)

    def relabel(self, pieces: Mapping[str, tuple[str, ...]]) -> None:
        """The pieces on each occupied cell become the ones ``pieces`` puts there (a setup
        entered: the players build the figures where they stand); where the cell's
        presence would change, the magnets are left to the player's hand."""
        bounce, self.magnets.bounce = self.magnets.bounce, 0.0
        for cell, stack in self.stacks.items():
            new = pieces.get(cell)
            if not stack or not new or cell not in self.sensors:
                continue
            addr = self.sensors[cell]
            for _ in stack:  # at one instant: no scan sees the cell empty
                self.magnets.lift(addr)
            for piece in new:
                self.magnets.place(addr, self._strength(piece))
            stack[:] = list(new)
        self.magnets.bounce = bounce

    def count(self, cell: str) -> int:
        return len(self.stacks.get(cell, ()))

    def _strength(self, piece: str) -> float:
        return self.strength.get(piece, 1.0)
