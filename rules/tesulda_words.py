"""A Tesulda position told to a player: its questions and decisions in words, and what
the board lights for them (where a figure may go, who attacks a Prime, a Dodger's
corners). :class:`TesuldaWords` is a part of :class:`rules.tesulda.TesuldaState`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import tesulda_setup
from .errors import SetupError
from .tesulda_moves import _MOVES, ATTACK, EXTRAS, MOVE, Move
from .tesulda_pieces import (
    _INDEX,
    CELLS,
    PIECE_KINDS,
    PIECE_LETTERS,
    SIZE,
    Figure,
    _moved,
    figure_words,
    traits,
)
from .tesulda_reach import BIT, DIRS, RAYS, leg, squares

if TYPE_CHECKING:
    from .tesulda import TesuldaState


_TWO = {"circle": "circles", "square": "squares", "diamond": "diamonds", "star": "stars",
        "trapezoid": "trapezoids", "hexagon": "hexagons", "crown": "crowns"}


def _names_words(names: tuple[str, ...]) -> str:
    """("circle", "circle") -> "two circles"; ("circle", "square") -> "circle and square"."""
    if len(names) == 2 and names[0] == names[1]:
        return f"two {_TWO[names[0]]}"
    return " and ".join(names)


def _clear(board: list, frm: int, d: int, n: int) -> bool:
    """The first ``n - 1`` squares from ``frm`` in direction ``d`` are empty."""
    return all(board[sq] is None for sq in RAYS[frm][d][:n - 1])


def _turns(board: list, frm: int, target: int, ratings: tuple[int, int], jumper: bool):
    """The corners of a Dodger's two-leg paths from ``frm`` to ``target`` (D-5): first leg
    a*(ux, uy) of one kind, then the rest as one leg of the other kind."""
    fx, fy, tx, ty = frm % SIZE, frm // SIZE, target % SIZE, target // SIZE
    for (ux, uy), kind in _FIRST_LEGS:
        for a in ((ratings[kind],) if jumper else range(1, ratings[kind] + 1)):
            cx, cy = fx + a * ux, fy + a * uy
            if not (0 <= cx < SIZE and 0 <= cy < SIZE):
                break
            corner = cy * SIZE + cx
            if not jumper and board[corner] is not None:
                break  # the path would pass an occupied square
            rest = leg(tx - cx, ty - cy)
            if rest is not None and rest[2] != kind:
                d2, n2, _ = rest
                if jumper:
                    if n2 == ratings[1 - kind]:
                        yield corner
                elif n2 <= ratings[1 - kind] and _clear(board, corner, d2, n2):
                    yield corner


def _one_leg(board: list, frm: int, fig: Figure, target: int) -> bool:
    """Whether ``target`` is one leg away from ``frm`` for the figure (D-5; D-6 not
    applied)."""
    straight, diagonal, jumper, _, _ = traits(fig)
    one = leg(target % SIZE - frm % SIZE, target // SIZE - frm // SIZE)
    if one is None:
        return False
    d, n, kind = one
    r = (straight, diagonal)[kind]
    return (n == r if jumper else n <= r) and (jumper or _clear(board, frm, d, n))


def corners(board: list, frm: int, fig: Figure, target: int) -> list[int]:
    """The empty squares where a Dodger's path from ``frm`` to ``target`` turns from its
    first leg to its second (D-5, D-5a): where the figure may be set down on the way."""
    straight, diagonal, jumper, dodger, _ = traits(fig)
    if not dodger or not straight or not diagonal:
        return []
    return [c for c in _turns(board, frm, target, (straight, diagonal), jumper)
            if board[c] is None]


_FIRST_LEGS = tuple((d, 0 if i < 4 else 1) for i, d in enumerate(DIRS))


class TesuldaWords:
    """The words and hints of a :class:`rules.tesulda.TesuldaState`."""

    def set_up(self, text: str) -> TesuldaState:
        """This start position with each side ``text`` names set up anew (D-2; see
        :mod:`rules.tesulda_setup`), the other side as it stands; only before the first
        move.

        >>> from rules.tesulda import new_game
        >>> from rules.tesulda_setup import default_setup_text
        >>> light = default_setup_text().split("dark")[0]  # light's two lines
        >>> swapped = light.replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh")
        >>> state = new_game().set_up(swapped)
        >>> str(state.figure("a1")), str(state.figure("a2")), str(state.figure("e10"))
        ('Sssz', 'Sssh', 'Skh')
        """
        if self._stack:
            raise SetupError("setup: the game has begun; a setup is entered before the first "
                             "move")
        return type(self)(tesulda_setup.set_up_sides(self._board, text), self._turn,
                          self._pool)

    def question(self) -> str:
        """What the board asks at the attack choice and at the swap / draw (D-7, D-8), and
        between moves the sensors cannot tell apart (answered with :meth:`turn_words`).

        >>> from rules.tesulda import from_position
        >>> state = from_position("light:a1=Skh,b2=Sss dark:b4=Ccc,j10=Skh pool: light")
        >>> _ = state.push_str("b2xb4"); print(state.question())  # doctest: +NORMALIZE_WHITESPACE
        Attack: the figure on b4 captured a dark circle base with circle, circle. Which of its
        pieces does it take?
        """
        if self._phase == ATTACK:
            return (f"Attack: the figure on {self.moved} captured a "
                    f"{figure_words(self._captured)}. Which of its pieces does it take?")
        if self._phase == EXTRAS:
            kinds = {m.kind for m in self.legal_moves()}
            if {"swap", "draw"} <= kinds:
                return ("Swap pieces with a neighbour, or draw from the removed pool? "
                        "(The other may follow.)")
            if "swap" in kinds:
                return f"Swap pieces between the figure on {self.moved} and a neighbour?"
            return f"Draw pieces from the removed pool onto the figure on {self.moved}?"
        return f"Which move did {self.to_move} make?"

    def decision_words(self, move: Move) -> tuple[str, tuple[str, ...]]:
        """A decision in words, and its pieces.

        >>> from rules.tesulda import NONE, new_game
        >>> state = new_game()
        >>> state.decision_words(state.parse_move("b2-b3"))
        ('b2 to b3', ())
        >>> _ = state.push_str("b2-b3"); state.decision_words(state.parse_move("swap:ss:a2>b3"))
        ('Swap two squares from a2 to b3', ('square', 'square'))
        >>> state.decision_words(NONE)
        ('No swap: end the turn', ())
        """
        names = tuple(PIECE_KINDS[PIECE_LETTERS.index(ch)] for ch in move.pieces)
        if move.kind == "move":
            return f"{move.frm} {'captures' if move.capture else 'to'} {move.to}", ()
        if move.kind == "take":
            return f"Take {_names_words(names)}", names
        if move.kind == "swap":
            return f"Swap {_names_words(names)} from {move.frm} to {move.to}", names
        if move.kind == "draw":
            return f"Draw {_names_words(names)} from the pool", names
        if self._phase == ATTACK:
            return "Take nothing (its pieces go to the removed pool)", ()
        kinds = {m.kind for m in self.legal_moves()}
        declined = " or ".join(k for k in ("swap", "draw") if k in kinds) or "more"
        return f"No {declined}: end the turn", ()

    def turn_words(self, turn: Sequence[Move]) -> tuple[str, tuple[str, ...]]:
        """A turn (or its move alone) in words: which figure went from where to where and
        what it captured, then each later decision as :meth:`decision_words` says it.

        >>> from rules.tesulda import from_position
        >>> state = from_position("light:a1=Skh,b2=Sss dark:b4=Ccc,j10=Skh pool: light")
        >>> text, pieces = state.turn_words(
        ...     [state.parse_move(w) for w in ("b2xb4", "take:c", "none")])
        >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
        Light square base with square, square from b2 captures the dark circle base with
        circle, circle on b4; then take circle; then no more: end the turn
        >>> pieces
        ('circle',)
        """
        move, rest = turn[0], turn[1:]
        if move.kind != "move":
            return super().turn_words(turn)
        fig, victim = self.figure(move.frm), self.figure(move.to)
        if fig is None:
            return super().turn_words(turn)
        said = figure_words(fig)
        text = f"{said[0].upper()}{said[1:]} from {move.frm} " + (
            f"captures the {figure_words(victim)} on {move.to}" if victim else f"to {move.to}")
        if not rest:
            return text, ()
        after = self.clone()
        after.push(move)
        more, pieces = after.turn_words(rest)
        return f"{text}; then {more[0].lower()}{more[1:]}", pieces

    def setup_text(self) -> str:
        """The figures as a setup text (:mod:`rules.tesulda_setup`), a line per side and rank.

        >>> from rules.tesulda import new_game
        >>> new_game().setup_text().splitlines()[1]
        'light a2=Sssz b2=Tcs c2=Tcs d2=Tcs e2=Tcs f2=Tcs g2=Tcs h2=Tcs i2=Tcs j2=Cczh'
        """
        return tesulda_setup.board_text(self._board)

    def reach(self, cell: str) -> list[str]:
        """Where the figure on ``cell`` could move by the movement rules (D-5, D-5a, D-6),
        whoever is to move, D-9 not applied."""
        i = _INDEX[cell]
        fig = self._board[i]
        if fig is None:
            return []
        sides = self._sides
        ends = self._kinds[i].ends(i, sides[1] | sides[2]) & ~sides[fig.owner]
        return [CELLS[s] for s in squares(ends)]

    def attackers(self, cell: str) -> list[str]:
        """Squares of the figures that could move onto ``cell`` (enemies of its figure)."""
        i = _INDEX[cell]
        fig = self._board[i]
        if fig is None:
            return []
        return [CELLS[j] for j in self._attackers(i, 3 - fig.owner, self._sides)]

    def hint_cells(self) -> list[str]:
        """The attackers of the mover's Prime, when it is in danger."""
        out: set[str] = set()
        for sq in self.primes(self.to_move):
            out.update(self.attackers(sq))
        return sorted(out, key=_INDEX.get)

    def exposed_by(self, frm: str, to: str) -> list[str]:
        """D-9: where the move ``frm``-``to`` is one the figure on ``frm`` may make (D-5, D-5a,
        D-6) but no completion of the turn leaves the mover's Prime safe, the squares of
        the enemy figures that could take it after the move alone; else ``[]``.

        >>> from rules.tesulda import from_position
        >>> state = from_position("light:a1=Skh,a2=Ss dark:a8=Ssssh,j10=Skh pool: light")
        >>> state.exposed_by("a2", "c2")
        ['a8']
        """
        if self._phase != MOVE or frm not in _INDEX or to not in _INDEX:
            return []
        b, i, j, sides = self._board, _INDEX[frm], _INDEX[to], self._sides
        fig = b[i]
        if fig is None or fig.owner != self._turn:
            return []
        if not self._kinds[i].ends(i, sides[1] | sides[2]) & ~sides[fig.owner] & BIT[j]:
            return []
        if _MOVES[i, j, b[j] is not None] in self.legal_moves():
            return []
        victim = b[j]
        b[i], b[j] = None, fig
        try:
            after = _moved(sides, i, j)
            return [CELLS[k] for k in sorted({k for c in self._crowns(self._turn, after)
                                              for k in self._attackers(c, 3 - self._turn,
                                                                       after)})]
        finally:
            b[i], b[j] = fig, victim

    def detour(self, move: Move) -> bool:
        """Whether the move reaches its square only by a Dodger's second leg (D-5)."""
        if move.kind != "move" or self._phase != MOVE:
            return False
        i, j = _INDEX[move.frm], _INDEX[move.to]
        fig = self._board[i]
        return fig is not None and not _one_leg(self._board, i, fig, j)

    def danger_cells(self) -> list[str]:
        """The enemy figures that could take the mover's Prime (D-9), at a turn start."""
        return self.hint_cells() if self._phase == MOVE else []

    def waypoints(self, move: Move) -> list[str]:
        """Where the figure may be set down partway through the move ``move``: the corners
        of a Dodger's paths (D-5)."""
        if move.kind != "move" or self._phase != MOVE:
            return []
        i = _INDEX[move.frm]
        fig = self._board[i]
        if fig is None:
            return []
        return sorted({CELLS[c] for c in corners(self._board, i, fig, _INDEX[move.to])},
                      key=_INDEX.get)
