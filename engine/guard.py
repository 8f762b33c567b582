"""The root guard: whether a decision leaves the opponent a win in its next turn.

A search finds a win at once by trying each decision of a node, but a win built over two
decisions of one turn (a Tesulda move, then a swap onto the moved figure that mates) it
sees only once the node after the first is in its tree, which widening adds by chance.
The guard checks the decision a search is about to return: it is *doomed* when no way
of ending the mover's turn after it keeps the opponent from a turn that wins within
``depth`` decisions. Positions are explored with ``push``/``pop`` on the given state,
which is left as it was. The opponent's winning line last found is tried first, as it
often wins against the next decision too.

Clear to move in Tessella, dark a capture from its fourth: only d1-c1 stops every one.

>>> import rules
>>> state = rules.from_position("tessella", "clear:cd45,d1,d3,e5 dark:a4,a5,ab23,b4,c2 clear")
>>> guard = Guard(depth=1)
>>> guard.doomed(state, state.parse_move("d3-e3")), list(map(state.move_str, guard.threat))
(True, ['c2xd1'])
>>> guard.doomed(state, state.parse_move("d1-c1"))
False
"""

from __future__ import annotations

from collections.abc import Hashable

import rules


class Guard:
    """Checks decisions against the opponent's wins within ``depth`` decisions of its turn;
    ``threat`` is the last winning line found."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.threat: tuple[Hashable, ...] = ()

    def doomed(self, state: rules.GameState, move: Hashable) -> bool:
        """Whether every end of the mover's turn after ``move`` (legal at ``state``, a
        player's decision) leaves the opponent a win within ``depth`` decisions."""
        mover = state.to_move
        state.push(move)
        safe = self._ends_safely(state, mover)
        state.pop()
        return not safe

    def _ends_safely(self, state: rules.GameState, mover: str) -> bool:
        """Whether ``mover``, whose turn may still be running, can end it without leaving
        the opponent such a win (a turn ending at a die roll counts as safe: the guard
        does not look past chance)."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner in (mover, None)
        if state.to_move == rules.CHANCE:
            return True
        if state.to_move != mover:
            return self._winning_line(state, self.depth, ()) is None
        for move in state.legal_moves():
            state.push(move)
            safe = self._ends_safely(state, mover)
            state.pop()
            if safe:
                return True
        return False

    def _winning_line(self, state: rules.GameState, depth: int,
                      played: tuple[Hashable, ...]) -> tuple[Hashable, ...] | None:
        """A line of the player to move's decisions, at most ``depth`` of its turn, that
        wins; ``None`` if there is none. The last threat's next decision is tried first."""
        player, moves = state.to_move, state.legal_moves()
        threat = self.threat
        if len(played) < len(threat) and threat[:len(played)] == played:
            moves.sort(key=lambda m: m != threat[len(played)])
        for move in moves:
            line = (*played, move)
            state.push(move)
            outcome = state.outcome()
            if outcome is not None:
                found = line if outcome.winner == player else None
            elif depth > 1 and state.to_move == player:
                found = self._winning_line(state, depth - 1, line)
            else:
                found = None
            state.pop()
            if found is not None:
                self.threat = found
                return found
        return None
