"""What every game's state offers, in the shape the rest of the project relies on.

A game module defines ``NAME``, ``PLAYERS``, ``GEOMETRY`` (a :class:`rules.geometry.Geometry`),
``PIECES`` (the piece names ``physical()`` may return), ``new_game(**options)`` and
``from_position(text)``; its state class derives from :class:`GameState`, which keeps the
history, the copies and the legal moves' cache: the game says how its position lists its
moves (``_generate``), changes and changes back (``_play``, ``_unplay``) and is copied
(``_copy``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import ClassVar, NamedTuple

from .errors import IllegalMoveError, SetupError
from .geometry import Geometry

#: ``state.to_move`` at a chance node (a die roll): its moves are ``chance_outcomes()``.
CHANCE = "chance"


class Outcome(NamedTuple):
    """How a game ended: ``winner`` is a player name, or ``None`` for a tie."""

    winner: str | None
    reason: str


class GameState(ABC):
    """One position of one game, with its history, so moves can be undone.

    >>> import rules
    >>> state = rules.new_game("tessella")
    >>> move = state.parse_move("e4-e5")
    >>> state.is_legal(move)
    True
    >>> state.push(move); state.to_move
    'dark'
    >>> state.pop() == move
    True
    """

    NAME: ClassVar[str]
    PLAYERS: ClassVar[tuple[str, ...]]
    GEOMETRY: ClassVar[Geometry]
    #: The game has chance nodes (dice): ``to_move`` is then :data:`CHANCE`.
    HAS_CHANCE: ClassVar[bool] = False
    #: The most decisions one turn takes (chance outcomes included): 1 where every
    #: decision ends the turn.
    TURN_DECISIONS: ClassVar[int] = 1
    #: A cell holds one figure whose pieces move together (a Tesulda base with the pieces
    #: on its rod): a hand lifts and sets down a cell's whole stack at once.
    FIGURES: ClassVar[bool] = False
    #: The game's words for where ``stock()`` pieces wait ("3 x blue-2 in the stash") and
    #: what ``home()`` counts ("2 in the Center Zone").
    STOCK_WORDS: ClassVar[str] = "in hand"
    HOME_WORDS: ClassVar[str] = "home"

    # States keep ``_turn`` (1 + the index of the player to move in PLAYERS); a game that
    # keeps it otherwise overrides ``to_move``. ``GameState`` keeps the history: ``_stack``
    # (the moves pushed), ``_undo`` (what the last push needs to be undone, paired with the
    # ``_undo`` from before it: never mutated, so a clone shares it) and ``_legal`` (the
    # legal moves of this position, worked out once, dropped by push and pop, never
    # mutated and so shared by clones too).
    _turn: int
    _undo: tuple = ()
    _legal: list | None = None

    def __init__(self) -> None:
        self._stack: list = []

    @property
    def to_move(self) -> str:
        """The player whose turn it is."""
        return self.PLAYERS[self._turn - 1]

    def legal_moves(self) -> list:
        """Every legal move now (a decision each), sorted, without duplicates."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def push(self, move: Hashable) -> None:
        """Play ``move``; legality is not re-checked (use :meth:`is_legal`)."""
        self._undo = (self._play(move), self._undo)
        self._stack.append(move)
        self._legal = None

    def pop(self) -> Hashable:
        """Undo the last pushed move and return it."""
        move = self._stack.pop()
        undo, self._undo = self._undo
        self._unplay(move, undo)
        self._legal = None
        return move

    def clone(self) -> GameState:
        """An independent copy, history included."""
        other = self._copy()
        other._stack = list(self._stack)
        other._undo = self._undo
        other._legal = self._legal
        return other

    # --- what each game does itself ----------------------------------------------------

    @abstractmethod
    def _generate(self) -> list:
        """The legal moves of this position, sorted, without duplicates (uncached)."""

    @abstractmethod
    def _play(self, move: Hashable) -> object:
        """Change the position by ``move``; returns what :meth:`_unplay` needs to undo it."""

    @abstractmethod
    def _unplay(self, move: Hashable, undo: object) -> None:
        """Put back the position from before ``move``, given what its :meth:`_play` returned."""

    @abstractmethod
    def _copy(self) -> GameState:
        """A new state of this position (the history and legal moves are added by
        :meth:`clone`)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game runs, else who won and why."""

    @abstractmethod
    def move_str(self, move: Hashable) -> str:
        """The move's notation; it does not depend on the position."""

    @abstractmethod
    def parse_move(self, text: str) -> Hashable:
        """Read a move's notation. Raises :class:`MoveSyntaxError` on bad text."""

    @abstractmethod
    def position_str(self) -> str:
        """The position as text; ``rules.from_position(game, text)`` reads it back."""

    @abstractmethod
    def physical(self) -> dict[str, tuple[str, ...]]:
        """What stands on the board: ``{cell: (piece, ...)}`` bottom to top, occupied cells only."""

    # --- hooks a game may offer; the defaults say "nothing of the kind" ----------------

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        """At a chance node (``to_move == rules.CHANCE``) each outcome with its probability
        (they sum to 1); elsewhere ``[]``. An outcome is pushed like a move."""
        return []

    def sample_chance(self, rng: random.Random) -> Hashable:
        """An outcome of the chance node this state is at, drawn with its probability
        (an electronic die, a playout). Raises ``ValueError`` elsewhere."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ValueError("no chance node: nothing to roll")
        return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]

    def stages(self, move: Hashable) -> list[dict[str, tuple[str, ...]]]:
        """The physical positions a turn passes through between before and after, for a
        turn the hand carries out in stages (a Tulaga stone placed, then lifted with its
        row); ``[]`` where a move goes straight from before to after."""
        return []

    def stock_piece(self) -> str:
        """The piece the side to move puts down from its hand where a move adds one."""
        return self.to_move

    def stock(self) -> dict[str, dict[str, int]]:
        """The pieces each player holds off the board, ready to be put down:
        ``{player: {piece: count}}`` with piece names from ``PIECES`` (Tulaga's piles,
        Teblo's blocks in hand); ``{}`` where every piece starts on the board."""
        return {}

    def captured(self) -> dict[str, int]:
        """How many enemy pieces each player has taken, where the game counts captures
        toward winning (Tessella); ``{}`` where it does not."""
        return {}

    def hint_cells(self) -> list[str]:
        """Cells the ``hint`` button lights for the side to move (Teblo: squares where a
        block would cut a path); ``[]`` where the game has no such hint."""
        return []

    def waypoints(self, move: Hashable) -> list[str]:
        """Empty cells where the piece ``move`` carries may be set down partway and lifted
        again (a Tesulda Dodger between its two legs); ``[]`` where there are none."""
        return []

    def detour(self, move: Hashable) -> bool:
        """Whether ``move`` gets where it goes only by turning partway (a Tesulda Dodger's
        second leg): the LEDs show such a target in a role of its own."""
        return False

    def danger_cells(self) -> list[str]:
        """The pieces threatening one the rules protect, for the side to move (Tesulda:
        the enemy figures that could take the mover's Prime); the LEDs show them."""
        return []

    def exposed_by(self, frm: str, to: str) -> list[str]:
        """A piece moved from ``frm`` to ``to`` as the pieces move, but leaving a piece the
        rules protect open to capture (Tesulda's Prime, D-9): the cells of the pieces that
        could then take it; ``[]`` where that is not why the move is not legal, or the
        game has no such rule."""
        return []

    def set_up(self, text: str) -> GameState:
        """The start position with the setup ``text`` entered (Tesulda: each side's
        figures, checked), before the first move; raises :class:`SetupError`. A game that
        starts from its fixed position takes none."""
        raise SetupError(f"{self.NAME} starts from its fixed position and takes no setup")

    def pool(self) -> list[str] | None:
        """The pieces out of play that either player may take back into it (Tesulda's
        removed pool, D-7), by name; ``None`` where the game has no such pool."""
        return None

    def question(self) -> str:
        """What the board asks when the decisions offered now cannot be seen on it (a
        Tesulda attack choice); a question between whole turns asks which move the side to
        move made.

        >>> import rules
        >>> rules.new_game("teblo").question()
        'Which move did yellow make?'
        """
        return f"Which move did {self.to_move} make?"

    def decision_words(self, move: Hashable) -> tuple[str, tuple[str, ...]]:
        """``move``, a decision the position offers, in words for a player (a question's
        button) and the pieces it takes or gives, drawn beside them; the notation and no
        pieces where the game has nothing clearer."""
        return self.move_str(move), ()

    def turn_words(self, turn: Sequence[Hashable]) -> tuple[str, tuple[str, ...]]:
        """``turn``, decisions played one after another from this position (a question
        between whole turns, or the rest of one), in words for a player and the pieces it
        takes or gives: by default each decision's :meth:`decision_words` in its own
        position, joined by "; then " (each but the first begun in lower case). ``turn``
        must be legal in order.

        >>> import rules
        >>> state = rules.new_game("telec")
        >>> state.turn_words(state.parse_turn("roll 4 6"))
        ('Roll the die; then 4: enter on a1; then size 6 pyramid', ('blue-6',))
        """
        state, texts, pieces = self.clone(), [], []
        for decision in turn:
            text, shown = state.decision_words(decision)
            texts.append(text)
            pieces += shown
            state.push(decision)
        return "; then ".join([*texts[:1], *(t[:1].lower() + t[1:] for t in texts[1:])]), \
            tuple(pieces)

    def setup_text(self) -> str | None:
        """The position written as the setup text :meth:`set_up` takes, for a game that
        takes one; ``None`` where the game has none."""
        return None

    def home(self) -> dict[str, int]:
        """How many pieces each player has brought out of play toward winning (Telec:
        pyramids in the Center Zone); ``{}`` where the game has no such count."""
        return {}

    @property
    def move_stack(self) -> list:
        """The moves pushed so far, oldest first."""
        return list(self._stack)

    def is_legal(self, move: Hashable) -> bool:
        return self.outcome() is None and move in self.legal_moves()

    def push_str(self, text: str) -> Hashable:
        """Parse, check and play a move; raises :class:`IllegalMoveError` if not legal."""
        move = self.parse_move(text)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move for {self.to_move}: {text!r}")
        self.push(move)
        return move

    def parse_turn(self, text: str) -> list[Hashable]:
        """Read a turn written as its decisions' notations joined by single spaces, each
        legal one after another from this position (which is left as it is). Raises
        :class:`MoveSyntaxError` on bad text, :class:`IllegalMoveError` if not legal.

        >>> import rules
        >>> state = rules.new_game("telec")
        >>> [str(m) for m in state.parse_turn("roll ace")]
        ['roll', 'ace']
        """
        after = self.clone()
        return [after.push_str(word) for word in text.split(" ")]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState) or other.NAME != self.NAME:
            return NotImplemented
        return self.position_str() == other.position_str()

    def __hash__(self) -> int:
        return hash((self.NAME, self.position_str()))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position_str()!r}>"
