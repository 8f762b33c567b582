"""Cell graphs: the shapes and neighbours of every board, so nothing else hard-codes one.

A :class:`Geometry` lists the cells in a fixed order (their index is their number
everywhere in the project), where each is drawn (``x``, ``y`` in board units, y up,
and ``shape``), and which cells are adjacent for movement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

_SIMPLE_NAME = re.compile(r"^([a-z])(\d+)$")


@dataclass(frozen=True)
class Cell:
    name: str
    x: float
    y: float
    shape: str  # "octagon", "square", "point", "tile", "box"
    size: float = 1.0
    label: str = ""  # e.g. a tile's value or a box's colour; for renderers


@dataclass(frozen=True)
class Geometry:
    cells: tuple[Cell, ...]
    adjacency: dict[str, tuple[str, ...]] = field(repr=False)
    extra: dict[str, object] = field(default_factory=dict, repr=False)  # e.g. the hole's outline

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The cells' names in order (made once: every tracker, a whole one made to test
        the next turn as well, starts from them)."""
        return tuple(c.name for c in self.cells)

    def index(self) -> dict[str, int]:
        return {c.name: i for i, c in enumerate(self.cells)}

    def cell(self, name: str) -> Cell:
        for c in self.cells:
            if c.name == name:
                return c
        raise KeyError(name)

    def coordinates(self) -> dict[str, dict[float, str]]:
        """The labels along the edges: ``{"files": {x: "a"}, "ranks": {y: "1"}}``, read
        from the cells named file letter + rank number (``a1``); cells named otherwise
        (Tessella's ``ab12``) add none.

        >>> grid(2, 3).coordinates()
        {'files': {0.0: 'a', 1.0: 'b'}, 'ranks': {0.0: '1', 1.0: '2', 2.0: '3'}}
        """
        files: dict[float, str] = {}
        ranks: dict[float, str] = {}
        for c in self.cells:
            m = _SIMPLE_NAME.match(c.name)
            if m:
                files.setdefault(c.x, m[1])
                ranks.setdefault(c.y, m[2])
        return {"files": dict(sorted(files.items())), "ranks": dict(sorted(ranks.items()))}

    def to_json(self) -> dict:
        """A plain description for renderers (the web page draws any board from this)."""
        return {
            "cells": [
                {"name": c.name, "x": c.x, "y": c.y, "shape": c.shape, "size": c.size,
                 "label": c.label}
                for c in self.cells
            ],
            "adjacency": {k: list(v) for k, v in self.adjacency.items()},
            "coordinates": {axis: [[v, label] for v, label in labels.items()]
                            for axis, labels in self.coordinates().items()},
            **self.extra,
        }


def files(n: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[:n]


def grid(width: int, height: int, shape: str = "square") -> Geometry:
    """A plain ``width`` x ``height`` grid named a1.., orthogonal adjacency."""
    cells = []
    adjacency: dict[str, tuple[str, ...]] = {}
    f = files(width)
    for r in range(1, height + 1):
        for i, letter in enumerate(f):
            name = f"{letter}{r}"
            cells.append(Cell(name, float(i), float(r - 1), shape))
            nbrs = []
            for di, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                j, s = i + di, r + dr
                if 0 <= j < width and 1 <= s <= height:
                    nbrs.append(f"{f[j]}{s}")
            adjacency[name] = tuple(nbrs)
    return Geometry(tuple(cells), adjacency)


def rays(
    coords: list[tuple[int, int]], directions: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every cell (by index into ``coords``) and every direction, the indices of the
    cells met walking that way to the edge of the board."""
    index = {c: i for i, c in enumerate(coords)}
    out = []
    for x, y in coords:
        per_dir = []
        for dx, dy in directions:
            ray = []
            cx, cy = x + dx, y + dy
            while (cx, cy) in index:
                ray.append(index[(cx, cy)])
                cx, cy = cx + dx, cy + dy
            per_dir.append(tuple(ray))
        out.append(tuple(per_dir))
    return tuple(out)
