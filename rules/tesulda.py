"""Tesulda (Return to Abator): figures built of a base and pieces, a Prime that may not be exposed.

Rulings implemented (the project's own statement is ``docs/rules/tesulda.md``):

- D-1 Board 10x10, ``a1``..``j10``; ``light`` starts on ranks 1-2, ``dark`` on 9-10.
- D-2 A figure is a base (circle, square, triangle) carrying pieces (crown, star, circle,
  square, diamond, trapezoid, hexagon). Setups are checked by :mod:`rules.tesulda_setup`.
- D-3 Piece count: the crown counts 2; cap 5 per figure. No figure holds crown and star.
- D-4 Ratings: straight = (1 if square base) + k*(squares + 3*stars); diagonal = (1 if
  circle base) + k*(circles + 3*stars); k = 2 with a hexagon (Boost), else 1.
- D-5 / D-5a A move goes 1..rating squares in one direction; the path may not pass
  occupied squares (Jumper: diamond, ignores this and moves exactly its full rating);
  Dodger (trapezoid) may add one leg of the other kind; traits are those at the start.
- D-6 Minion (triangle base carrying at most 2): the final row is strictly nearer to the
  enemy starting zone.
- D-7 Ending on an enemy captures it; the attacker then takes up to 2 of its pieces.
- D-8 Then Swap and Resource, in either order, each optional.
- D-9 A turn may not end with an enemy figure able to move onto the mover's Prime.
- D-10 A side without a crown loses; a side with no legal turn loses if its Prime is
  attacked, else the game is a tie.
- D-11 The default setup (see :mod:`rules.tesulda_setup`).

A turn is several decisions, one ``push`` each, and ``to_move`` stays the mover until the
turn ends: the move ``e2-e4`` / ``e2xe5``; after a capture the attack choice ``take:cs``
(or ``none``); then, in either order, a swap ``swap:h:e5>f6`` and a resource draw
``draw:cs``, and ``none`` to end the turn without the rest. A decision is offered only
when the turn can still end legally (D-9); when nothing but ``none`` would remain the
turn ends by itself.

Piece letters: ``k`` crown, ``r`` star, ``c`` circle, ``s`` square, ``d`` diamond,
``z`` trapezoid, ``h`` hexagon. Base letters: ``C`` circle, ``S`` square, ``T`` triangle.
A figure is written base then pieces, e.g. ``Skh`` (square base, crown, hexagon).

>>> state = new_game()
>>> state.push_str("b2-b3")
Move(kind='move', frm='b2', to='b3', capture=False, pieces='')
>>> state.to_move
'light'
>>> [state.move_str(m) for m in state.legal_moves()][:3]
['none', 'swap:s:a2>b3', 'swap:ss:a2>b3']
>>> state.move_str(state.push_str("none")), state.to_move
('none', 'dark')
>>> state.physical()["b3"]
('light-triangle', 'circle', 'square')
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from . import tesulda_position, tesulda_setup
from .base import GameState, Outcome
from .errors import PositionError
from .tesulda_moves import (
    _LISTS,
    _MOVES_FROM,
    ATTACK,
    EXTRAS,
    MOVE,
    NONE,
    Move,
    _choices,
    _hopeless,
    _listed,
    parse_decision,
)
from .tesulda_pieces import (
    _INDEX,
    _N,
    _ZONE_ROWS,
    CELLS,
    CROWN,
    GEOMETRY,
    PIECE_KINDS,
    PIECES,
    PLAYERS,
    SIZE,
    Figure,
    _add,
    _counts,
    _crown_hand,
    _moved,
    _physical,
    _refigure,
    _swap_pieces,
    figure_words,
    kind,
    occupancy,
    parse_figure,
    pieces_str,
    primes,
    traits,
)
from .tesulda_reach import _LISTED, BIT, NEAR, NEAR_BITS, Guards, squares, squares_moved
from .tesulda_words import TesuldaWords

__all__ = ["NAME", "PLAYERS", "PIECES", "GEOMETRY", "CELLS", "Figure", "Move", "NONE",
           "TesuldaState", "figure_words", "from_position", "new_game", "parse_figure",
           "traits"]

NAME = "tesulda"
#: Builds a named tuple (a Move, a Figure) from its values without its ``__new__``, a
#: Python function: the rules build thousands of them.
_new = tuple.__new__


class TesuldaState(TesuldaWords, GameState):
    NAME = NAME
    PLAYERS = PLAYERS
    GEOMETRY = GEOMETRY
    TURN_DECISIONS = 4  # the move, the attack choice, then swap and draw (or none)
    FIGURES = True  # a figure is lifted whole: its base with the pieces on the rod

    def __init__(self, board: list, turn: int = 1, pool: tuple[int, ...] = (0,) * 7) -> None:
        super().__init__()
        self._board: list[Figure | None] = board
        self._sides = occupancy(board)  # the squares of each side, kept with the board
        self._kinds = [None if f is None else kind(f) for f in board]  # each figure's kind
        # The moves the listing found legal only by a later swap of the crown (or by taking
        # the enemy's last crown), and whether the mover's Primes are known safe now (the
        # move was listed and is not one of those, and nothing else followed it yet).
        self._rescued: list[Move] = []
        self._known_safe = False
        self._turn = turn
        self._pool = pool
        self._phase = MOVE
        self._moved = -1  # square of the figure that moved this turn
        self._captured: Figure | None = None  # awaiting the attack choice
        self._open = (True, True)  # swap, draw still unused this turn
        self._opts: list[Move] | None = None  # _options() of this moment
        self._primes = primes(board)  # the squares of each side's Primes, as _sides
        self._lost_side = self._find_lost()  # the side without a crown (D-10), else 0

    # -- what stands where ------------------------------------------------------------------

    def figure(self, cell: str) -> Figure | None:
        """The figure on ``cell`` (None if empty)."""
        return self._board[_INDEX[cell]]

    def pool(self) -> list[str]:
        """The removed pieces (D-7), by name, in canonical order."""
        return [PIECE_KINDS[k] for k, n in enumerate(self._pool) for _ in range(n)]

    def primes(self, player: str) -> list[str]:
        """Squares of ``player``'s figures carrying a crown."""
        side = PLAYERS.index(player) + 1
        return [CELLS[i] for i in self._crowns(side)]

    @property
    def phase(self) -> str:
        """``move``, ``take`` (attack choice open) or ``extras`` (swap/draw/none)."""
        return ("move", "take", "extras")[self._phase]

    @property
    def moved(self) -> str | None:
        """The square of the figure that moved this turn (None before the move)."""
        return CELLS[self._moved] if self._moved >= 0 else None

    def _crowns(self, side: int, sides: tuple[int, int, int] | None = None) -> Sequence[int]:
        if sides is None:
            return squares(self._primes[side])
        b = self._board
        return [i for i in squares(sides[side]) if b[i].counts[CROWN]]

    def _attackers(self, sq: int, by: int, sides: tuple[int, int, int]) -> list[int]:
        """The squares of ``by``'s figures that can move onto ``sq`` (D-5, D-5a, D-6), with
        ``sides`` the occupancy the board has now."""
        kinds, occupied = self._kinds, sides[1] | sides[2]
        return [j for j in squares(sides[by]) if kinds[j].reaches(j, sq, occupied)]

    def _attacked(self, targets: list[int], by: int, sides: tuple[int, int, int]) -> bool:
        """Whether a figure of ``by`` can move onto one of the squares ``targets``."""
        kinds, occupied = self._kinds, sides[1] | sides[2]
        for j in squares(sides[by]):
            reaches = kinds[j].reaches
            for sq in targets:
                if reaches(j, sq, occupied):
                    return True
        return False

    def _safe(self, side: int) -> bool:
        """D-9: no enemy figure can move onto a Prime of ``side``."""
        if self._known_safe and side == self._turn:
            return True
        primes = self._primes[side]
        if not primes:
            return True
        sides, kinds = self._sides, self._kinds
        occupied = sides[1] | sides[2]
        for j in squares(sides[3 - side]):
            k = kinds[j]
            if k.empty[j] & primes and k.ends(j, occupied) & primes:  # -1: not visited yet
                return False
        return True

    # -- decisions --------------------------------------------------------------------------

    def _generate(self) -> list[Move]:
        if self._lost_side:
            return []
        return self._generate_moves() if self._phase == MOVE else self._decisions()

    def _find_lost(self) -> int:
        return 1 if not self._primes[1] else 2 if not self._primes[2] else 0

    def _decisions(self) -> list[Move]:
        if self._phase == MOVE:
            return self._generate_moves()
        safe_now = self._safe(self._turn)
        if safe_now and not self._crown_on_offer():
            out = list(self._options())
        elif safe_now:  # only a decision that moves a crown can expose a Prime
            out = [move for move in self._options()
                   if "k" not in move.pieces or self._completes_after(move)]
        else:
            out = [move for move in self._options()
                   if not _hopeless(move) and self._completes_after(move)]
        if self._phase == EXTRAS and safe_now:
            bisect.insort(out, NONE)  # after the draws, before the swaps
        return out

    def _crown_on_offer(self) -> bool:
        """Whether a decision now may move a crown: the moved figure or a friendly
        neighbour holds one (a swap), the pool (a draw) or the captured figure (a take)."""
        t, captured = self._moved, self._captured
        return bool(self._primes[self._turn] & (NEAR_BITS[t] | BIT[t]) or self._pool[CROWN]
                    or captured is not None and captured.counts[CROWN])

    def _completes_after(self, move: Move) -> bool:
        self.push(move)
        try:
            return self._completable()
        finally:
            self.pop()

    def _completable(self) -> bool:
        """Whether the mover can still end this turn legally (D-9), or the game is over."""
        mover = self._turn
        if self._phase == MOVE:  # the turn has ended: the previous mover is judged
            mover = 3 - mover
            return self._lost_side == 3 - mover or self._safe(mover)
        if self._lost_side:
            return self._lost_side != mover
        if self._phase == EXTRAS and self._safe(mover):
            return True
        return any(self._completes_after(m) for m in self._options() if not _hopeless(m))

    def _generate_moves(self) -> list[Move]:
        """Every legal move (D-5..D-7: where each figure may go; D-9: every Prime safe
        once the move is made, or after a swap that carries the crown; D-10: taking the
        last enemy crown is always legal), sorted: the figures and their ends in the
        order of the squares' names."""
        sides = self._sides
        me, them = self._turn, 3 - self._turn
        own, enemy = sides[me], sides[them]
        occupied, kinds, crowns = own | enemy, self._kinds, self._crowns(me)
        guards = Guards(crowns, _LISTED.get(enemy) or self._enemy_squares(enemy), kinds,
                        occupied)
        # Taking the enemy's last crown ends the game at once (D-10).
        won = self._primes[them]
        if won & won - 1:  # several: taking one does not end the game
            won = 0
        out: list[Move] = []
        self._rescued = []
        # A swap can carry a crown only between neighbours: a figure without one may make
        # a move that leaves a Prime attacked only onto a Prime's neighbour.
        near = 0
        for c in crowns:
            near |= NEAR_BITS[c]
        free, safe = ~own, guards.safe | won
        plain, risky = free & safe, free & near & ~safe
        # The Primes and the figures whose square an enemy's path to a Prime crosses.
        special = squares(guards.crossed | self._primes[me])
        for frm in squares(own):
            k = kinds[frm]
            picture = occupied & k.relevant[frm]  # all of it before k's first visit to frm
            ends = k.memo[frm].get(picture)
            if ends is None:
                ends = k.work_out(frm, occupied, picture)
            if frm in special:
                ends &= free
                legal = ends and self._guarded(crowns, frm, ends, guards, won, near)
            else:
                legal = ends & plain
                if risky and ends & risky:
                    legal |= self._unsafe_legal(crowns, frm, ends & risky, guards)
            if legal:
                caps = legal & enemy
                key = legal | caps << _N if caps else legal
                found = _LISTS[frm].get(key)
                out += _listed(frm, legal, key) if found is None else found
        return out

    def _enemy_squares(self, enemy: int) -> tuple[int, ...]:
        """``squares(enemy)``, worked out from the enemy's squares before its last move."""
        for move in reversed(self._stack):
            if move.kind == "move":
                return squares_moved(enemy, _INDEX[move.frm], _INDEX[move.to])
        return squares(enemy)

    def _guarded(self, crowns: Sequence[int], frm: int, ends: int, guards: Guards, won: int,
                 near: int) -> int:
        """The legal squares among ``ends`` of a Prime, or of a figure on a square an
        enemy's path to a Prime crosses; ``won``: the enemy's only Prime, ``near``: the
        squares next to the mover's Primes."""
        if frm in crowns:
            safe = won | (self._prime_safe(frm, ends, guards) if len(crowns) == 1 else 0)
            unsafe = ends & ~safe
        else:
            safe = guards.safe_from(frm) | won
            unsafe = ends & near & ~safe
        legal = ends & safe
        return legal | self._unsafe_legal(crowns, frm, unsafe, guards) if unsafe else legal

    def _unsafe_legal(self, crowns: Sequence[int], frm: int, unsafe: int,
                      guards: Guards) -> int:
        """The squares of ``unsafe``, where a move from ``frm`` leaves a Prime attacked,
        that are legal all the same: with several crowns the moved Prime is safe after all,
        or a swap rescues the turn (the latter kept in :attr:`_rescued`)."""
        b, row, legal = self._board, _MOVES_FROM[frm], 0
        several = frm in crowns and len(crowns) > 1
        for to in squares(unsafe):
            if several and guards.safe_after(frm, to):
                legal |= BIT[to]
                continue
            move = row[to][b[to] is not None]
            if self._rescued_by_swap(crowns, frm, to, move, guards):
                legal |= BIT[to]
                self._rescued.append(move)
        return legal

    def _prime_safe(self, frm: int, ends: int, guards: Guards) -> int:
        """The squares of ``ends`` where the mover's only Prime, on ``frm``, is safe once it
        has moved there (D-9): no enemy reaches it with ``frm`` empty, the one taken
        there aside (whether a square is reached does not depend on what stands on it)."""
        vacated = guards.occupied & ~BIT[frm]
        each = [(j, k.ends(j, vacated)) for j, k, empty in guards.enemy if empty & ends]
        reached = 0
        for _, e in each:
            reached |= e
        safe = ends & ~reached
        for to in squares(ends & reached & self._sides[3 - self._turn]):
            if not any(e & BIT[to] for j, e in each if j != to):
                safe |= BIT[to]
        return safe

    def _rescued_by_swap(self, crowns: Sequence[int], frm: int, to: int, move: Move,
                         guards: Guards) -> bool:
        """Whether the turn of the move ``frm``-``to``, which leaves a Prime attacked, can
        still end legally (D-8, D-9): worked out here for one Prime and a move that
        neither captures nor ends where a draw is open (then only a swap carrying a crown
        can help), else by playing the turn's decisions out."""
        me = self._turn
        if len(crowns) != 1 or self._board[to] is not None or to // SIZE in _ZONE_ROWS[3 - me]:
            return self._may_rescue(crowns, frm, to) and self._completes_after(move)
        b, c, after = self._board, crowns[0], _moved(self._sides, frm, to)
        if c == frm:  # the moved Prime hands the crown to a neighbour
            give = b[frm].counts
            swaps = [(give, b[u].counts, to, u) for u in squares(NEAR_BITS[to] & after[me])]
        elif c in NEAR[to]:  # a neighbouring Prime hands it to the moved figure
            swaps = [(b[c].counts, b[frm].counts, c, to)]
        else:
            return False
        occupied = after[1] | after[2]
        for give, take, src, dst in swaps:
            hand = _crown_hand(give, take)
            if hand and not guards.reached(BIT[dst] if hand == 1 else BIT[dst] | BIT[src],
                                           occupied):
                return True
        return False

    def _may_rescue(self, crowns: list[int], frm: int, to: int) -> bool:
        """After the move ``frm``-``to``, whether a swap could still carry the crown to a
        square no enemy reaches (D-8, D-9): the moved Prime hands it to a neighbouring
        friend, or a neighbouring Prime hands it to the moved figure. With several crowns
        the full search decides."""
        if len(crowns) != 1:
            return any(c == frm or c in NEAR[to] for c in crowns)
        c, me = crowns[0], self._turn
        after = _moved(self._sides, frm, to)
        if c == frm:
            places = [u for u in NEAR[to] if after[me] & BIT[u]]
        elif c in NEAR[to]:
            places = [to]
        else:
            return False
        # The enemy's squares after the move are the figures standing there now.
        return any(not self._attacked([u], 3 - me, after) for u in places)

    def _options(self) -> list[Move]:
        """The decisions D-7 and D-8 allow now (D-9 not applied)."""
        if self._opts is None:
            self._opts = self._list_options()
        return self._opts

    def _list_options(self) -> list[Move]:
        """:meth:`_options`, sorted: a draw's, then the swaps by their squares' names."""
        b, t = self._board, self._moved
        fig = b[t]
        if self._phase == ATTACK:  # D-7
            return [NONE, *_choices("take", fig.counts, self._captured.counts)]
        swap_open, draw_open = self._open
        out: list[Move] = []
        if draw_open and t // SIZE in _ZONE_ROWS[3 - fig.owner]:  # D-8 Resource
            out += _choices("draw", fig.counts, self._pool)
        if swap_open:  # D-8 Swap
            here, given, later = CELLS[t], [], []
            for u in _NEAR_NAMED[t]:
                other = b[u]
                if other is None or other.owner != fig.owner:
                    continue
                there = CELLS[u]
                onto, back = _swap_pieces(fig.counts, other.counts)
                given += [_new(Move, ("swap", here, there, False, pieces)) for pieces in onto]
                taken = [_new(Move, ("swap", there, here, False, pieces)) for pieces in back]
                if BIT[u] < BIT[t]:  # the bits are in the order of the squares' names
                    out += taken
                else:
                    later += taken
            out += given
            out += later
        return out

    # -- push / pop -------------------------------------------------------------------------

    def _play(self, move: Move) -> tuple:
        b = self._board
        saved = (self._turn, self._phase, self._moved, self._captured, self._open, self._pool,
                 self._lost_side, self._sides, self._known_safe, self._primes)
        mover, listed = self._turn, self._legal
        self._opts = None
        kind_of = move.kind
        if kind_of == "move":
            frm, to = _INDEX[move.frm], _INDEX[move.to]
            changed = self._keep(frm, to)
            victim = b[to]
            b[to], b[frm] = b[frm], None
            self._kinds[to], self._kinds[frm] = self._kinds[frm], None
            self._sides = _moved(self._sides, frm, to)
            if b[to].counts[CROWN] or (victim is not None and victim.counts[CROWN]):
                self._recrown(frm, to)
            self._moved = to
            if victim is not None:
                if victim.counts[CROWN]:
                    self._lost_side = self._find_lost()
                self._captured = victim
                self._phase = ATTACK
            else:
                self._enter_extras()
            # D-9 was judged when the moves were listed: safe unless rescued (or the game
            # is won, whatever stands where).
            self._known_safe = (self._turn == mover and not self._lost_side and listed is not None
                                and _sorted_holds(listed, move) and move not in self._rescued)
            return saved + changed
        self._known_safe = False
        if kind_of == "take" or (kind_of == "none" and self._phase == ATTACK):
            t = self._moved
            taken = _counts(move.pieces)
            changed = self._keep(t)
            self._put(t, _add(b[t].counts, taken))
            self._pool = _add(self._pool, _add(self._captured.counts, taken, -1))
            self._captured = None
            self._enter_extras()
        elif kind_of == "swap":
            frm, to = _INDEX[move.frm], _INDEX[move.to]
            c = _counts(move.pieces)
            changed = self._keep(frm, to)
            self._put(frm, _add(b[frm].counts, c, -1))
            self._put(to, _add(b[to].counts, c))
            self._open = (False, self._open[1])
            self._after_extra()
        elif kind_of == "draw":
            t = self._moved
            c = _counts(move.pieces)
            changed = self._keep(t)
            self._put(t, _add(b[t].counts, c))
            self._pool = _add(self._pool, c, -1)
            self._open = (self._open[0], False)
            self._after_extra()
        else:
            self._end_turn()
            return saved
        return saved + changed

    def _keep(self, sq: int, other: int = -1) -> tuple:
        """What stands on ``sq`` (and ``other``) now, for :meth:`_unplay`: the square, its
        figure and its kind, one flat tuple."""
        b, kinds = self._board, self._kinds
        if other < 0:
            return sq, b[sq], kinds[sq]
        return sq, b[sq], kinds[sq], other, b[other], kinds[other]

    def _put(self, sq: int, counts: tuple[int, ...]) -> None:
        """The figure on ``sq`` now holds ``counts``."""
        fig, self._kinds[sq] = _refigure(self._board[sq], counts)
        self._board[sq] = fig
        if counts[CROWN] or self._primes[fig.owner] & BIT[sq]:
            self._recrown(sq)

    def _recrown(self, *cells: int) -> None:
        """:attr:`_primes` after the figures on ``cells`` changed."""
        crowned = list(self._primes)
        for sq in cells:
            crowned[1] &= ~BIT[sq]
            crowned[2] &= ~BIT[sq]
            fig = self._board[sq]
            if fig is not None and fig.counts[CROWN]:
                crowned[fig.owner] |= BIT[sq]
        self._primes = (0, crowned[1], crowned[2])

    def _enter_extras(self) -> None:
        self._phase = EXTRAS
        self._open = (True, True)
        self._after_extra()

    def _after_extra(self) -> None:
        if self._lost_side or not self._options():
            self._end_turn()

    def _end_turn(self) -> None:
        if self._lost_side:
            self._phase = EXTRAS  # the game is over; the mover stays on move
            return
        self._turn = 3 - self._turn
        self._phase = MOVE
        self._moved = -1
        self._captured = None
        self._open = (True, True)

    def _unplay(self, move: Move, undo: tuple) -> None:
        for i in range(10, len(undo), 3):  # what _keep kept
            self._board[undo[i]], self._kinds[undo[i]] = undo[i + 1], undo[i + 2]
        (self._turn, self._phase, self._moved, self._captured, self._open, self._pool,
         self._lost_side, self._sides, self._known_safe, self._primes) = undo[:10]
        self._opts = None

    def _copy(self) -> TesuldaState:
        other = TesuldaState.__new__(TesuldaState)
        GameState.__init__(other)
        other._board, other._kinds = list(self._board), list(self._kinds)
        other._turn, other._pool, other._sides = self._turn, self._pool, self._sides
        other._opts = None
        other._rescued, other._known_safe = self._rescued, self._known_safe
        other._phase, other._moved, other._captured = self._phase, self._moved, self._captured
        other._open, other._lost_side = self._open, self._lost_side
        other._primes = self._primes
        return other

    def outcome(self) -> Outcome | None:
        lost = self._lost_side
        if lost:
            return Outcome(PLAYERS[2 - lost], "the Prime was captured")
        if self._phase == MOVE and not (self._legal or self.legal_moves()):  # no copy
            if self._safe(self._turn):
                return Outcome(None, "no legal turn, the Prime not attacked")
            return Outcome(PLAYERS[2 - self._turn], "no legal turn with the Prime attacked")
        return None

    # -- notation ---------------------------------------------------------------------------

    def move_str(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return parse_decision(text)

    # -- text and pieces --------------------------------------------------------------------

    def position_str(self) -> str:
        sides = []
        for side, player in enumerate(PLAYERS, start=1):
            figs = [f"{CELLS[i]}={f}" for i, f in enumerate(self._board)
                    if f is not None and f.owner == side]
            sides.append(f"{player}:{','.join(figs)}")
        parts = [*sides, f"pool:{pieces_str(self._pool)}", self.to_move]
        if self._phase != MOVE:
            parts.append(f"moved:{CELLS[self._moved]}")
            if self._phase == ATTACK:
                parts.append(f"taking:{self._captured}")
            else:
                parts.append("open:" + ",".join(
                    n for n, o in zip(("swap", "draw"), self._open, strict=True) if o))
        return " ".join(parts)

    def physical(self) -> dict[str, tuple[str, ...]]:
        return {CELLS[i]: _physical(f) for i, f in enumerate(self._board) if f is not None}


#: Each square's neighbours in the order of their names.
_NEAR_NAMED = tuple(tuple(sorted(near, key=BIT.__getitem__)) for near in NEAR)


def _sorted_holds(moves: list[Move], move: Move) -> bool:
    """Whether the sorted list ``moves`` holds ``move``."""
    i = bisect.bisect_left(moves, move)
    return i < len(moves) and moves[i] == move


def new_game(setup: object = None, first: str = "light") -> TesuldaState:
    """The start position: ``setup`` is a setup text (see :mod:`rules.tesulda_setup`) or
    ``None`` for the default pattern of D-11; ``first`` is who moves first (D-2)."""
    if first not in PLAYERS:
        raise PositionError(f"first must be one of {', '.join(PLAYERS)}, got {first!r}")
    return TesuldaState(tesulda_setup.start_board(setup), PLAYERS.index(first) + 1)


def from_position(text: str) -> TesuldaState:
    """Read a position written by ``position_str()`` (:mod:`rules.tesulda_position`)."""
    return tesulda_position.read(text, TesuldaState)
