"""Truth-checked streams: seeded games played the way people handle pieces, fed to the
tracker, and the committed moves compared with the moves really made.

A stream is a game of legal turns (each checked against the naive second implementation of
its game in ``tests/rules``) carried out by a simulated player who

- touches pieces (lifts one and puts it back: any piece, often the one the opponent just
  moved) before, during and after a turn;
- starts the next turn on a cell the last one emptied (the turns are chosen that way often);
- presses the clock after turns: on a board with one button per player the mover presses
  their own side, on a shared button anyone presses it (a silent turn is always followed by
  a press: the sensors cannot see it otherwise);
- answers questions, sometimes late and after touching a piece meanwhile: the true move if
  it is offered, ``none`` if no move was made;
- now and then puts a piece where no turn puts it (garbage) and, later, puts it right.

The stream passes when the tracker committed exactly the true moves (in order), nothing
illegal, and nothing is left waiting at the end. ``bench/truth.py`` runs thousands.

>>> result = run_stream("tessella", "tessella", seed=1, plies=6)
>>> result.ok, result.committed == result.truth
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import rules
from boards.choreography import turn_ops, turn_pieces
from boards.layout import load_layout, shipped_layouts
from boards.sensing import observer
from boards.tracker import Committed, Error, Prompt, Tracker

# --- the true moves, checked against each game's naive second implementation -------------


def naive_legal(state: rules.GameState, text: str) -> bool:
    """Whether ``text`` is a legal move of ``state`` by the naive implementation in
    ``tests/rules`` (for Tulaga only the claims at the move's point are listed)."""
    if state.NAME == "tessella":
        from tests.rules.test_tessella import naive_moves

        board = {c: p[0] for c, p in state.physical().items()}
        return text in naive_moves(board, state.to_move)
    if state.NAME == "tulaga":
        from tests.rules.test_tulaga import (
            naive_claims,
            naive_from_state,
            naive_outcome,
            naive_ray,
            other,
        )

        g = naive_from_state(state)
        point = text[:2]
        if naive_outcome(g) is not None or point in g["board"]:
            return False
        me, board = g["to_move"], g["board"]
        enemy = other(me)
        texts = {point}
        for stones, r in naive_claims(board, me, point):
            claim = f"{point}*{''.join(stones)}@{r}"
            texts.add(claim)
            if g["rank"][me] - 1 > 0:
                texts.update(f"{claim}>{d}" for d in "NESW" if any(
                    board.get(q) in (enemy, enemy + "-rank") for q in naive_ray(r, d)))
        return text in texts
    if state.NAME == "teblo":
        from tests.rules.test_teblo import (
            BASE,
            BOX,
            INDEX,
            NEIGHBOURS,
            OTHER,
            block_masks,
            everyone_reaches,
            snapshot,
        )

        blocks, pawns, hand, me = snapshot(state)
        enemy = OTHER[me]
        if pawns[me] == BASE[enemy] or pawns[enemy] == BASE[me]:
            return False
        masks = block_masks(blocks)
        if text.startswith("+"):
            sq = text[1:]
            if not hand[me] or sq not in INDEX or sq in BOX or sq in blocks \
                    or sq in pawns.values():
                return False
            masks[me] |= 1 << INDEX[sq]
            return everyone_reaches(masks, pawns)
        frm, _, to = text.partition("-")
        if frm != pawns[me] or to not in NEIGHBOURS[frm] or blocks.get(to) == enemy:
            return False
        if to == pawns[enemy] and to != BASE[enemy]:
            return False
        return everyone_reaches(masks, {**pawns, me: to})
    raise LookupError(f"no naive implementation of {state.NAME} in tests/rules")


def _freed(before: dict, after: dict) -> set[str]:
    return {c for c, p in before.items() if len(after.get(c, ())) < len(p)}


def pick_move(state: rules.GameState, freed: set[str], rng: random.Random) -> Hashable:
    """A legal move, biased towards the interesting ones: the next turn on a cell the last
    one emptied, Tulaga claims and reaps, Teblo pawn walks over own blocks."""
    legal = state.legal_moves()
    pool = legal
    if state.NAME == "tulaga":
        claims = [m for m in legal if m.stones]
        near = [m for m in legal if not m.stones and any(
            state.physical().get(n, ("",))[0] == state.to_move
            for n in state.GEOMETRY.adjacency[m.point])]
        if claims and rng.random() < 0.8:
            reaps = [m for m in claims if m.reap]
            pool = reaps if reaps and rng.random() < 0.5 else claims
        elif near and rng.random() < 0.7:
            pool = near
    elif state.NAME == "teblo":
        me = state.pawn(state.to_move)
        steps = [m for m in legal if m.frm]
        around = [m for m in legal if not m.frm and m.to in state.GEOMETRY.adjacency[me]]
        roll = rng.random()
        if steps and roll < 0.4:
            pool = steps
        elif around and roll < 0.7:
            pool = around
    if freed and rng.random() < 0.6:
        on_freed = [m for m in legal if _cells_of(state, m) & freed]
        if on_freed:
            pool = on_freed
    return rng.choice(pool)


def _cells_of(state: rules.GameState, move: Hashable) -> set[str]:
    ops = turn_ops(state, move, random.Random(0))
    return {cell for _, cell in ops}


# --- a physical board: stacks of pieces and a hand --------------------------------------


class Hands:
    """The pieces on the board and in the player's hand (the last lifted goes down first;
    with an empty hand a piece comes from the mover's stock)."""

    def __init__(self, state: rules.GameState) -> None:
        self.stacks = {c: list(p) for c, p in state.physical().items()}
        self.hand: list[str] = []

    def lift(self, cell: str) -> None:
        self.hand.append(self.stacks[cell].pop())

    def place(self, cell: str, stock: str, piece: str | None = None) -> None:
        """Put down ``piece`` (from the hand if it is there, else from the stock), or the
        piece lifted last, or one from the stock."""
        if piece is not None:
            if piece in self.hand:
                self.hand.reverse()
                self.hand.remove(piece)  # the one lifted last of its kind
                self.hand.reverse()
        else:
            piece = self.hand.pop() if self.hand else stock
        self.stacks.setdefault(cell, []).append(piece)

    def pieces(self, cell: str) -> tuple[str, ...]:
        return tuple(self.stacks.get(cell, ()))


# --- the boards a stream can be played on -------------------------------------------------


class TrackerBoard:
    """The tracker alone, fed with one change per lift or place."""

    def __init__(self, state: rules.GameState, layout_name: str) -> None:
        self.observe = observer(load_layout(shipped_layouts()[layout_name]))
        self.tracker = Tracker(state, observe=self.observe)
        self.now = 0.0

    def advance(self, t: float) -> list:
        out = []
        while True:
            due = self.tracker.next_timer()
            if due is None or due > t:
                break
            out += self.tracker.tick(max(due, self.now))
        self.now = max(self.now, t)
        return out

    def change(self, cell: str, pieces: tuple[str, ...], t: float) -> list:
        out = self.advance(t)
        value = self.observe(pieces)
        if value == self.tracker.current[cell]:
            return out
        return out + self.tracker.change(cell, value, t)

    def press(self, player: str | None, t: float) -> list:
        return self.advance(t) + self.tracker.press("clock", t, player)

    def choose(self, value: str, t: float) -> list:
        return self.advance(t) + self.tracker.choose(value, t)

    def finish(self, t: float) -> list:
        return self.advance(t) + self.tracker.flush(t)

    @property
    def prompt(self) -> Prompt | None:
        return self.tracker.prompt


# --- the player -----------------------------------------------------------------------


@dataclass
class Mix:
    """How a stream's player handles the pieces (probabilities per turn)."""

    touch: float = 0.35          # touch a piece before the turn
    touch_last: float = 0.5      # ... and then it is the piece the opponent just moved
    touch_mid: float = 0.15      # touch an unrelated piece in the middle of the turn
    touch_after: float = 0.2     # touch a piece after the turn, before the clock
    press: float = 0.5           # press the clock after a turn
    buttons: str = "player"      # "player": one button per player; "shared": one button
    late: float = 0.3            # answer a question late (after a touch, seconds later)
    garbage: float = 0.1         # put a piece where no turn puts it, then put it right
    pace: tuple[float, float] = (0.15, 0.8)  # seconds between two actions

    @staticmethod
    def random(rng: random.Random) -> Mix:
        """A random mix of handling habits, for held-back streams."""
        return Mix(touch=rng.uniform(0, 0.6), touch_last=rng.uniform(0, 1),
                   touch_mid=rng.uniform(0, 0.3), touch_after=rng.uniform(0, 0.4),
                   press=rng.choice([0.0, 0.5, 1.0]),
                   buttons=rng.choice(["player", "shared"]),
                   late=rng.uniform(0, 0.6), garbage=rng.uniform(0, 0.25),
                   pace=rng.choice([(0.05, 0.3), (0.15, 0.8), (0.3, 2.0)]))


@dataclass
class Result:
    game: str
    layout: str
    seed: int
    truth: list[str] = field(default_factory=list)
    committed: list[str] = field(default_factory=list)
    illegal: int = 0
    off: str = ""        # how the stream left the truth (empty: it did not)
    stalled: str = ""    # what was left waiting at the end
    questions: int = 0
    errors: int = 0
    log: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.off or self.stalled or self.illegal)


class Player:
    """Carries out the true moves on a board, answering its questions truthfully."""

    def __init__(self, board: TrackerBoard, game: str, rng: random.Random, mix: Mix,
                 result: Result, observe: Callable) -> None:
        self.board, self.rng, self.mix, self.result = board, rng, mix, result
        self.observe = observe
        self.truth_state = rules.new_game(game)
        self.check = rules.new_game(game)  # the committed moves, checked one by one
        self.hands = Hands(self.truth_state)
        self.t = 0.5
        self.done: list[str] = []  # true moves carried out completely
        self.doing: str | None = None  # the true move under way
        self.stock = self.truth_state.stock_piece()
        self.answering = False

    # --- time and events

    def wait(self, lo: float | None = None, hi: float | None = None) -> None:
        a, b = self.mix.pace
        self.t = round(self.t + self.rng.uniform(lo if lo is not None else a,
                                                 hi if hi is not None else b), 3)

    def handle(self, events: list) -> None:
        for e in events:
            if isinstance(e, Committed):
                self._committed(e)
            elif isinstance(e, Error):
                self.result.errors += 1
                self.result.log.append(f"{e.t:.2f} error {e.cells}")
            elif isinstance(e, Prompt):
                self.result.questions += 1
                self.result.log.append(f"{e.t:.2f} prompt {e.options}")
        if self.answering:
            return
        self.answering = True
        try:
            while self.board.prompt is not None and not self.result.off:
                self._answer(self.board.prompt)
        finally:
            self.answering = False

    def _committed(self, e: Committed) -> None:
        r = self.result
        r.log.append(f"{e.t:.2f} commit {e.player} {e.move}")
        try:
            move = self.check.parse_move(e.move)
        except rules.RulesError:
            move = None
        if (move is None or not self.check.is_legal(move)
                or not naive_legal(self.check, e.move)):
            r.illegal += 1
        elif e.player != self.check.to_move:
            r.illegal += 1
        else:
            self.check.push(move)
        r.committed.append(e.move)
        k = len(r.committed) - 1
        made = [*self.done, *([self.doing] if self.doing else [])]
        if not r.off and (k >= len(made) or made[k] != e.move):
            r.off = (f"ply {k + 1}: committed {e.move!r}, played "
                     f"{made[k] if k < len(made) else 'nothing (yet)'!r}")

    def _answer(self, prompt: Prompt) -> None:
        k = len(self.result.committed)
        if k < len(self.done):
            want = self.done[k]
        elif self.doing is not None and self.doing in prompt.options:
            want = self.doing
        else:
            want = "none"
        if want not in prompt.options:
            self.result.off = (f"ply {k + 1}: asked {prompt.options}, played {want!r}")
            return
        if self.rng.random() < self.mix.late:
            self.wait(2.0, 6.0)
            self.touch(self._any_cell())
        else:
            self.wait()
        self.result.log.append(f"{self.t:.2f} choose {want}")
        self.handle(self.board.choose(want, self.t))
        if self.board.prompt is prompt and not self.result.off:
            self.result.off = f"ply {k + 1}: the answer {want!r} to {prompt.options} was refused"

    # --- hands

    def lift(self, cell: str) -> None:
        self.wait()
        self.hands.lift(cell)
        self.result.log.append(f"{self.t:.2f} lift {cell}")
        self.handle(self.board.change(cell, self.hands.pieces(cell), self.t))

    def place(self, cell: str, piece: str | None = None) -> None:
        self.wait()
        self.hands.place(cell, self.stock, piece)
        self.result.log.append(f"{self.t:.2f} place {cell}")
        self.handle(self.board.change(cell, self.hands.pieces(cell), self.t))

    def touch(self, cell: str | None) -> None:
        if cell is None or self.result.off:
            return
        self.lift(cell)
        self.place(cell)

    def press(self, player: str | None) -> None:
        self.wait()
        self.result.log.append(f"{self.t:.2f} press {player or 'shared'}")
        self.handle(self.board.press(player, self.t))

    def _any_cell(self, avoid: set[str] = frozenset()) -> str | None:
        full = sorted(c for c, p in self.hands.stacks.items() if p and c not in avoid)
        return self.rng.choice(full) if full else None

    # --- garbage: a piece put where no turn of the position puts it, later put right

    def garbage(self, state: rules.GameState) -> None:
        if len(self.result.committed) < len(self.done):
            return  # the player waits until the board has taken the last move
        finals = set()
        for move in state.legal_moves():
            seq = state.clone()
            seq.push(move)
            finals.add(self._picture(seq.physical()))
        cells = list(state.GEOMETRY.names)
        for _ in range(20):
            src = self._any_cell()
            dst = self.rng.choice(cells)
            if src is None or dst == src:
                return
            stacks = {c: list(p) for c, p in self.hands.stacks.items()}
            piece = stacks[src].pop()
            lifted = self._picture({c: tuple(p) for c, p in stacks.items() if p})
            stacks.setdefault(dst, []).append(piece)
            if lifted in finals or self._picture(
                    {c: tuple(p) for c, p in stacks.items() if p}) in finals:
                continue
            self.result.log.append("garbage:")
            self.lift(src)
            self.place(dst)
            self.wait(0.2, 2.5)  # the error may show meanwhile
            self.lift(dst)
            self.place(src)
            return

    def _picture(self, phys: dict) -> frozenset:
        return frozenset((c, self.observe(tuple(p))) for c, p in phys.items()
                         if self.observe(tuple(p)) != self.observe(()))

    # --- one turn

    def turn(self, move: Hashable, last_cells: set[str]) -> set[str]:
        """Carry out ``move`` for the side to move; returns the cells it changed."""
        state, mix, rng = self.truth_state, self.mix, self.rng
        text = state.move_str(move)
        player = state.to_move
        self.stock = state.stock_piece()
        if rng.random() < mix.garbage:
            self.garbage(state)
        if rng.random() < mix.touch:
            last = sorted(c for c in last_cells if self.hands.stacks.get(c))
            self.touch(rng.choice(last) if last and rng.random() < mix.touch_last
                       else self._any_cell())
        ops = turn_pieces(state, move, rng)
        cells = {c for _, c, _ in ops}
        mid = rng.randrange(1, len(ops)) if len(ops) > 1 and rng.random() < mix.touch_mid \
            else None
        # While holding a piece, a player straightens only their own pieces (an enemy
        # piece lifted then could as well be a capture).
        own = {c for c, p in self.hands.stacks.items() if p and p[-1].startswith(player)}
        self.doing = text
        for i, (op, cell, piece) in enumerate(ops):
            if self.result.off:
                return cells
            if i == mid:
                self.touch(self._any_cell(avoid=cells | (set(self.hands.stacks) - own)))
            if op == "lift":
                self.lift(cell)
            else:
                self.place(cell, piece)
        self.hands.hand.clear()  # taken pieces and returned stones go off the board
        before = state.physical()
        state.push(move)
        stacks = {c: tuple(p) for c, p in self.hands.stacks.items() if p}
        if not self.result.off and stacks != state.physical():
            raise AssertionError(f"the simulated hands left {stacks}, not {state.physical()}")
        self.done.append(text)
        self.doing = None
        silent = self._picture(before) == self._picture(state.physical())
        if rng.random() < mix.touch_after:
            self.touch(self._any_cell())
        if silent or rng.random() < mix.press:
            self.press(player if mix.buttons == "player" else None)
        return cells


def run_stream(game: str, layout: str, seed: int, plies: int = 16,
               mix: Mix | None = None) -> Result:
    """Play one seeded stream on the tracker and check it against the truth."""
    rng = random.Random(f"{game}/{layout}/{seed}")
    mix = mix or Mix()
    result = Result(game, layout, seed)
    board = TrackerBoard(rules.new_game(game), layout)
    player = Player(board, game, rng, mix, result, board.observe)
    state = player.truth_state
    last: set[str] = set()
    freed: set[str] = set()
    for _ in range(plies):
        if state.outcome() is not None or result.off:
            break
        move = pick_move(state, freed, rng)
        text = state.move_str(move)
        if not naive_legal(state, text):
            raise AssertionError(f"{game}: {text} is not legal by the naive implementation")
        result.truth.append(text)
        before = state.physical()
        last = player.turn(move, last)
        freed = _freed(before, state.physical())
    if not result.off:
        player.wait(1.5, 3.0)
        player.handle(board.finish(player.t))
        if result.committed != result.truth and not result.off:
            result.stalled = (f"committed {len(result.committed)} of {len(result.truth)} "
                              f"moves; waiting: {board.tracker.prompt or 'no question'}")
        elif board.prompt is not None:
            result.stalled = f"a question left open: {board.prompt.options}"
    return result
