"""A round's pairings, read from the pairing program's CSV, and the standings.

The pairing file has a header line and one line per board of a round::

    round,board,white,black
    3,1,"Lee, Ann","Tran, Bo"
    3,2,Cy Ng,Di Oh

``white`` plays the first colour of the game (clear in Tessella, black in Tulaga, yellow
in Teblo, blue in Telec, light in Tesulda: the first of the game's players), ``black`` the
second, as the record's two player tags. Columns may come in any order; others are
ignored.

>>> pairings = parse_pairings("round,board,white,black\\n3,1,Ann,Bo\\n3,2,Cy,Di\\n")
>>> pairings[0]
Pairing(round='3', board='1', white='Ann', black='Bo')
>>> standings([Game("Ann", "Bo", "1-0"), Game("Cy", "Di", "1/2-1/2"), Game("Ann", "Cy", "*")])
[Standing(name='Ann', points=1.0, games=1), Standing(name='Cy', points=0.5, games=1), \
Standing(name='Di', points=0.5, games=1), Standing(name='Bo', points=0.0, games=1)]
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

COLUMNS = ("round", "board", "white", "black")
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


class PairingError(ValueError):
    """A pairing file that cannot be read; the message names the line and the column."""


@dataclass(frozen=True)
class Pairing:
    round: str
    board: str
    white: str  # the player of the first colour
    black: str  # the player of the second colour


def parse_pairings(text: str, where: str = "pairings") -> tuple[Pairing, ...]:
    """The pairings of a CSV text; raises :class:`PairingError` naming ``where`` and the
    line."""
    rows = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(rows, [])]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise PairingError(f"{where}:1: the header needs the columns {', '.join(COLUMNS)}; "
                           f"missing {', '.join(missing)}")
    index = {c: header.index(c) for c in COLUMNS}
    out: list[Pairing] = []
    seen: dict[tuple[str, str], int] = {}
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {}
        for column, i in index.items():
            value = row[i].strip() if i < len(row) else ""
            if not value:
                raise PairingError(f"{where}:{line}: column {column} is empty")
            values[column] = value
        key = (values["round"], values["board"])
        if key in seen:
            raise PairingError(f"{where}:{line}: round {key[0]} board {key[1]} is paired "
                               f"already on line {seen[key]}")
        seen[key] = line
        out.append(Pairing(**values))
    return tuple(out)


def read_pairings(path: str) -> tuple[Pairing, ...]:
    """The pairings of the CSV file ``path``; raises :class:`PairingError`."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as e:
        raise PairingError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise PairingError(f"{path}: not UTF-8 text ({e.reason})") from None
    return parse_pairings(text, path)


def round_order(name: str) -> tuple:
    """Rounds and boards sort by number, then by name."""
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


@dataclass(frozen=True)
class Game:
    white: str
    black: str
    result: str  # 1-0, 0-1, 1/2-1/2 or * (still playing: not counted)


@dataclass(frozen=True)
class Standing:
    name: str
    points: float
    games: int  # finished games


def standings(games: Iterable[Game]) -> list[Standing]:
    """Points per player over the finished games (a win 1, a draw 1/2), best first, then
    by name."""
    points: dict[str, float] = {}
    played: dict[str, int] = {}
    for g in games:
        if g.result not in POINTS:
            continue
        for name, score in zip((g.white, g.black), POINTS[g.result], strict=True):
            points[name] = points.get(name, 0.0) + score
            played[name] = played.get(name, 0) + 1
    return sorted((Standing(n, points[n], played[n]) for n in points),
                  key=lambda s: (-s.points, s.name))
