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
  it is offered (for a turn of several decisions asked one at a time, its next decision,
  if the decisions taken so far are the true turn's), ``none`` if no move offered was
  made; asked a later decision of a turn they are not making while
  a piece is in hand (a capture's attack choice after touching the enemy), the player
  first carries on with the turn;
- now and then puts a piece where no turn puts it (garbage) and, later, puts it right.

The stream passes when the tracker committed exactly the true moves (in order), nothing
illegal, and nothing is left waiting at the end. ``bench/truth.py`` runs thousands.

**Every registered game plugs in** with an adapter: a module ``tests/boards/truth_<game>.py``
defining ``ADAPTER = Adapter(...)`` (:func:`adapter` finds it; ``test_truth_streams.py``
fails for a game in ``rules.GAMES`` without one, and runs every adapter's layouts):

- ``layouts``: the shipped layouts (``boards/layouts/<name>.toml``) the streams run on;
- ``legal(state, text) -> bool``: the naive second implementation: whether the turn written
  ``text`` (decisions joined by spaces, as ``Committed.move``) is legal from ``state``;
- ``pick(state, rng) -> list of turns`` (optional): the turns a stream draws the next true
  turn from, to favour the interesting ones; a turn is a move, or a
  ``boards.decisions.Turn`` of all its decisions (chance outcomes included). The default is
  every turn (``legal_moves()``, or ``decisions.completions`` for games of several
  decisions). The harness then prefers turns on cells the last turn emptied;
- ``streams`` (optional): streams per layout and chunk in ``make test`` (keep it modest).

Everything else (the tracker on the layout's sensors, cells without a sensor, the physical
lifts and places of a turn from ``state.stages``, figures lifted whole where the game says
``FIGURES``) comes from the game's rules and layout.
New optional fields get defaults, so adapters written earlier keep working.

>>> result = run_stream("tessella", "tessella", seed=1, plies=6)
>>> result.ok, result.committed == result.truth
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace

import rules
from boards import decisions
from boards.choreography import turn_ops, turn_pieces
from boards.decisions import Turn
from boards.layout import load_layout, shipped_layouts
from boards.sensing import observer
from boards.tracker import Committed, Error, Prompt, Tracker

# --- the games: one adapter each ------------------------------------------------------------


def every_turn(state: rules.GameState, rng: random.Random) -> Sequence[Hashable]:
    """Every legal turn of the side to move (each turn of several decisions whole)."""
    if state.TURN_DECISIONS == 1:
        return state.legal_moves()
    return decisions.completions(state, state.to_move)


@dataclass(frozen=True)
class Adapter:
    """How one game plugs into the truth-checked streams (see the module docstring)."""

    layouts: tuple[str, ...]
    legal: Callable[[rules.GameState, str], bool]
    pick: Callable[[rules.GameState, random.Random], Sequence[Hashable]] = every_turn
    streams: int = 30


def adapter(game: str) -> Adapter:
    """The adapter of ``game`` (``tests/boards/truth_<game>.py``); LookupError if none."""
    name = f"{__package__}.truth_{game}"
    if importlib.util.find_spec(name) is None:
        raise LookupError(f"no truth adapter for {game}: add tests/boards/truth_{game}.py")
    return importlib.import_module(name).ADAPTER


def adapters() -> dict[str, Adapter]:
    """The adapters of the registered games that have one."""
    out = {}
    for game in rules.GAMES:
        try:
            out[game] = adapter(game)
        except LookupError:
            pass
    return out


def boards() -> list[tuple[str, str]]:
    """Every (game, layout) the streams run on."""
    return [(game, layout) for game, a in adapters().items() for layout in a.layouts]


def naive_legal(state: rules.GameState, text: str) -> bool:
    """Whether the turn ``text`` is legal from ``state`` by the game's naive implementation."""
    return adapter(state.NAME).legal(state, text)


def check_moves(result: Result, out: list[dict], game: str) -> rules.GameState:
    """Check the ``move`` lines of a replay's output ``out`` against ``result.truth``
    (filling in ``result.committed``): each must be legal for the side to move by the
    naive implementation (else one more ``illegal``, and the check stops there), and
    they must be the true turns in order (else ``off``, at the first that differs or at
    a turn not played, unless it is already off; ``stalled`` if fewer were committed).
    Returns the game the legal lines make, for the final position."""
    check = rules.new_game(game)
    for item in out:
        if item["type"] != "move":
            continue
        text = item["move"]
        result.committed.append(text)
        if item["player"] != check.to_move or not naive_legal(check, text):
            result.illegal += 1
            break
        for move in check.parse_turn(text):
            check.push(move)
    if result.off:
        return check
    committed, truth = result.committed, result.truth
    k = next((i for i, (a, b) in enumerate(zip(committed, truth, strict=False)) if a != b),
             None)
    if k is not None:
        result.off = f"replay ply {k + 1}: committed {committed[k]!r}, played {truth[k]!r}"
    elif len(committed) > len(truth):
        result.off = f"replay committed {committed[len(truth)]!r}, a turn not played"
    elif len(committed) < len(truth):
        result.stalled = f"replay committed {len(committed)} of {len(truth)} turns"
    return check


def untold(committed: str, played: str) -> bool:
    """Whether ``committed`` is the turn ``played`` with its decisions from one after the
    first on declined (``none``): what the board commits of a turn whose decisions after
    its visible part nobody told it."""
    said, made = committed.split(" "), played.split(" ")
    same = next((k for k, (a, b) in enumerate(zip(said, made, strict=False)) if a != b),
                min(len(said), len(made)))
    return 0 < same < len(said) and said != made and all(w == "none" for w in said[same:])


def _freed(before: dict, after: dict) -> set[str]:
    return {c for c, p in before.items() if len(after.get(c, ())) < len(p)}


def pick_move(state: rules.GameState, freed: set[str], rng: random.Random) -> Hashable:
    """A true turn from the adapter's pool, often the next turn on a cell the last one
    emptied."""
    pool = list(adapter(state.NAME).pick(state, rng))
    if freed and rng.random() < 0.6:
        on_freed = [m for m in every_turn(state, rng) if _cells_of(state, m) & freed]
        if on_freed:
            pool = on_freed
    return rng.choice(pool)


def _cells_of(state: rules.GameState, move: Hashable) -> set[str]:
    ops = turn_ops(state, move, random.Random(0))
    return {cell for _, cell in ops}


# --- a physical board: stacks of pieces and a hand --------------------------------------


class Hands:
    """The pieces on the board and in the player's hand (the last lifted goes down first;
    with an empty hand a piece comes from the mover's stock). In a game of figures
    (``FIGURES``: a base with the pieces on its rod) a figure is lifted and put down whole,
    and what it carries may change in hand unseen."""

    def __init__(self, state: rules.GameState) -> None:
        self.stacks = {c: list(p) for c, p in state.physical().items()}
        self.whole = state.FIGURES
        self.hand: list[tuple[str, ...]] = []  # what each lift took up, in order

    def unit(self, cell: str) -> tuple[str, ...]:
        """What a lift on ``cell`` takes up: its top piece, or its whole figure."""
        stack = self.stacks[cell]
        return tuple(stack) if self.whole else tuple(stack[-1:])

    def owner(self, cell: str) -> str:
        """The piece that tells whose ``cell`` is (piece names begin with their owner's
        name): the top piece, or a figure's base."""
        stack = self.stacks.get(cell) or [""]
        return stack[0] if self.whole else stack[-1]

    def stays(self, cell: str, pieces: tuple[str, ...]) -> bool:
        """Whether what is on top of ``cell`` (its figure) is still there in ``pieces``."""
        unit = self.unit(cell)
        return pieces[len(pieces) - len(unit):] == unit

    def lift(self, cell: str) -> None:
        unit = self.unit(cell)
        del self.stacks[cell][len(self.stacks[cell]) - len(unit):]
        self.hand.append(unit)

    def place(self, cell: str, stock: str, piece: str | None = None) -> None:
        """Put down ``piece`` (from the hand if it is there, else from the stock; a figure
        is its pieces joined by ``+``, ``turn_pieces``), or what was lifted last, or a
        piece from the stock."""
        if piece is not None:
            unit = tuple(piece.split("+")) if self.whole else (piece,)
            # the one lifted last of its kind (a figure: of its base)
            for k in range(len(self.hand) - 1, -1, -1):
                if self.hand[k][:1] == unit[:1]:
                    del self.hand[k]
                    break
        else:
            unit = self.hand.pop() if self.hand else (stock,)
        self.stacks.setdefault(cell, []).extend(unit)

    def settle(self, after: dict[str, tuple[str, ...]]) -> None:
        """A game of figures: pieces moved between rods unseen (a swap, a draw) are
        where the turn put them."""
        if self.whole:
            for cell, stack in self.stacks.items():
                if stack and after.get(cell):
                    stack[:] = after[cell]

    def pieces(self, cell: str) -> tuple[str, ...]:
        return tuple(self.stacks.get(cell, ()))


# --- the boards a stream can be played on -------------------------------------------------


class TrackerBoard:
    """The tracker alone, fed with one change per lift or place; between two, what the
    board's idle scans list ahead of time is listed (:meth:`Tracker.prepare`)."""

    def __init__(self, state: rules.GameState, layout_name: str) -> None:
        layout = load_layout(shipped_layouts()[layout_name])
        self.observe = observer(layout)
        self.blind = frozenset(state.GEOMETRY.names) - layout.cell_sensor.keys()
        self.tracker = Tracker(state, observe=self.observe, blind=self.blind)
        self.now = 0.0

    def advance(self, t: float) -> list:
        out = []
        while True:
            due = self.tracker.next_timer()
            if due is None or due > t:
                break
            out += self.tracker.tick(max(due, self.now))
        self.now = max(self.now, t)
        while not self.tracker.prepared:  # the idle scans before the player acts
            self.tracker.prepare()
        return out

    def change(self, cell: str, pieces: tuple[str, ...], t: float) -> list:
        out = self.advance(t)
        value = self.observe(pieces)
        if cell in self.blind or value == self.tracker.current[cell]:
            return out
        return out + self.tracker.change(cell, value, t)

    def press(self, player: str | None, t: float) -> list:
        return self.advance(t) + self.tracker.press("clock", t, player)

    def choose(self, value: str, t: float, asked: str | None = None) -> list:
        return self.advance(t) + self.tracker.choose(value, t, asked)

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
    touch_enemy: float = 0.1     # touch an enemy piece while holding one's own (often one
    #                              another turn would take)
    press: float = 0.5           # press the clock after a turn
    buttons: str = "player"      # "player": one button per player; "shared": one button
    late: float = 0.3            # answer a question late (after a touch, seconds later)
    garbage: float = 0.1         # put a piece where no turn puts it, then put it right
    pace: tuple[float, float] = (0.15, 0.8)  # seconds between two actions
    answer: bool = True          # False: nobody answers a question (the board goes on alone)
    answer_at_end: bool = False  # with answer False: every question is answered once the
    #                              game's input has ended (an arbiter answering late)

    @staticmethod
    def random(rng: random.Random) -> Mix:
        """A random mix of handling habits, for held-back streams."""
        return Mix(touch=rng.uniform(0, 0.6), touch_last=rng.uniform(0, 1),
                   touch_mid=rng.uniform(0, 0.3), touch_after=rng.uniform(0, 0.4),
                   press=rng.choice([0.0, 0.5, 1.0]),
                   buttons=rng.choice(["player", "shared"]),
                   late=rng.uniform(0, 0.6), garbage=rng.uniform(0, 0.25),
                   pace=rng.choice([(0.05, 0.3), (0.15, 0.8), (0.3, 2.0)]),
                   touch_enemy=rng.uniform(0, 0.3))


@dataclass
class Result:
    game: str
    layout: str
    seed: int
    truth: list[str] = field(default_factory=list)
    committed: list[str] = field(default_factory=list)
    illegal: int = 0
    off: str = ""        # how the stream left the truth (empty: it did not)
    # Nobody answering: the stream left the truth only where a decision nobody told the
    # board (a Tesulda swap, take or draw) was declined, as the replay contract has it
    # once the next player begins (``off`` says where; the stream ends there too).
    declined: str = ""
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
                 result: Result, observe: Callable, enemy_rng: random.Random) -> None:
        self.board, self.rng, self.mix, self.result = board, rng, mix, result
        self.enemy_rng = enemy_rng  # its own draws: streams without enemy touches stay as they were
        self.observe = observe
        self.truth_state = rules.new_game(game)
        self.check = rules.new_game(game)  # the committed moves, checked one by one
        self.hands = Hands(self.truth_state)
        self.t = 0.5
        self.done: list[str] = []  # true moves carried out completely
        self.doing: str | None = None  # the true move under way
        self.stock = self.truth_state.stock_piece()
        self.answering = False
        self.goes_on: set[str] = set()  # where the last turn may go on (:meth:`_goes_on`)

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
        if self.answering or not self.mix.answer:
            return
        self.answering = True
        try:
            while self.board.prompt is not None and not self.result.off:
                if not self._answer(self.board.prompt):
                    break
        finally:
            self.answering = False

    def _committed(self, e: Committed) -> None:
        r = self.result
        r.log.append(f"{e.t:.2f} commit {e.player} {e.move}")
        turn = self._parse(e.move)
        if turn is None or not naive_legal(self.check, e.move) \
                or e.player != self.check.to_move:
            r.illegal += 1
        else:
            decisions.push(self.check, turn)
        r.committed.append(e.move)
        k = len(r.committed) - 1
        made = [*self.done, *([self.doing] if self.doing else [])]
        if not r.off and (k >= len(made) or made[k] != e.move):
            r.off = (f"ply {k + 1}: committed {e.move!r}, played "
                     f"{made[k] if k < len(made) else 'nothing (yet)'!r}")
            if (not self.mix.answer or self.mix.answer_at_end) and k < len(made) \
                    and untold(e.move, made[k]):
                r.declined = r.off

    def _parse(self, text: str) -> decisions.Turn | None:
        """The decisions of the turn written ``text``, if each is legal in turn."""
        try:
            return decisions.Turn(self.check.parse_turn(text))
        except rules.RulesError:
            return None

    def _answer(self, prompt: Prompt) -> bool:
        """Answer ``prompt``; False when the player carries on with the turn in hand first
        (asked a later decision of a turn they are not making: a capture's attack choice
        after touching the enemy while holding their own piece)."""
        k = len(self.result.committed)
        # (a question about a turn after the one under way: no such turn is made yet)
        true = self.done[k] if k < len(self.done) else self.doing if k == len(self.done) \
            else None
        want = true if k < len(self.done) else "none"
        if true is not None:
            # A turn of several decisions is asked one decision at a time: the next one,
            # if the decisions taken so far are the true turn's (else it asks about a turn
            # not made: a touch looks like an entry bumping the piece touched).
            tracker = self.board.tracker
            made = len(tracker.state.move_stack) - tracker.turn_start
            words = true.split(" ")
            asked = decisions.text(tracker.state, Turn(tracker.state.move_stack[
                tracker.turn_start:])).split(" ") if made else []
            if true in prompt.options:
                want = true
            elif asked != words[:len(asked)]:
                want = "none"
            elif len(words) > 1 and made < len(words) and words[made] in prompt.options:
                want = words[made]
            if self.hands.hand and not tracker.no_turn and asked \
                    and asked != words[:len(asked)]:
                return False
        if want not in prompt.options and "none" in prompt.options:
            want = "none"  # none of the turns asked about was made
        if want not in prompt.options:
            self.result.off = (f"ply {k + 1}: asked {prompt.options}, played {want!r}")
            return
        if self.rng.random() < self.mix.late:
            self.wait(2.0, 6.0)
            self.touch(self._any_cell())
        else:
            self.wait()
        self.result.log.append(f"{self.t:.2f} choose {want}")
        # The answer is for the question read: one that took its place meanwhile (the
        # touch above changed what is asked) refuses it, and is read and answered anew.
        self.handle(self.board.choose(want, self.t, prompt.key))
        if self.board.prompt is prompt and not self.result.off:
            self.result.off = f"ply {k + 1}: the answer {want!r} to {prompt.options} was refused"
        return True

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

    def _enemy_cell(self, state: rules.GameState, player: str, avoid: set[str]) -> str | None:
        """An enemy piece to touch, most often one another turn of ``player`` would take
        (the touch then looks like the start of that turn)."""
        rng = self.enemy_rng
        enemy = sorted(c for c, p in self.hands.stacks.items()
                       if p and not self.hands.owner(c).startswith(player) and c not in avoid)
        if not enemy:
            return None
        if rng.random() < 0.7:
            taken = set()
            for turn in every_turn(state, rng):
                seq = state.clone()
                decisions.push(seq, turn)
                after = seq.physical()
                taken |= {c for c in enemy if not self.hands.stays(c, after.get(c, ()))}
            if taken:
                return rng.choice(sorted(taken))
        return rng.choice(enemy)

    def _goes_on(self, start: rules.GameState, after: dict) -> set[str]:
        """Cells where another turn from ``start`` goes on from the one made (``after``)
        by replacing a piece (a Tulaga reap of a rank stone): a piece lifted and put back
        there once the turn is done is that part of the turn, so a player's touch after
        the turn leaves them alone."""
        out: set[str] = set()
        if start.TURN_DECISIONS > 1:
            return out
        for turn in every_turn(start, self.rng):
            seq = start.clone()
            decisions.push(seq, turn)
            other = seq.physical()
            diff = {c for c in other.keys() | after.keys() if other.get(c) != after.get(c)}
            if all(other.get(c) and after.get(c) for c in diff):
                out |= diff
        return out

    def _any_cell(self, avoid: set[str] = frozenset()) -> str | None:
        full = sorted(c for c, p in self.hands.stacks.items() if p and c not in avoid)
        return self.rng.choice(full) if full else None

    # --- garbage: a piece put where no turn of the position puts it, later put right

    def garbage(self, state: rules.GameState) -> None:
        if len(self.result.committed) < len(self.done):
            return  # the player waits until the board has taken the last move
        finals = set()
        for move in every_turn(state, self.rng):
            seq = state.clone()
            decisions.push(seq, move)
            finals.add(self._picture(seq.physical()))
        cells = list(state.GEOMETRY.names)
        for _ in range(20):
            src = self._any_cell()
            dst = self.rng.choice(cells)
            if src is None or dst == src:
                return
            if self.hands.whole and self.hands.stacks.get(dst):
                continue  # a figure does not stand on another
            stacks = {c: list(p) for c, p in self.hands.stacks.items()}
            unit = self.hands.unit(src)
            del stacks[src][len(stacks[src]) - len(unit):]
            lifted = self._picture({c: tuple(p) for c, p in stacks.items() if p})
            stacks.setdefault(dst, []).extend(unit)
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
        text = decisions.text(state, move)
        player = state.to_move
        self.stock = state.stock_piece()
        if rng.random() < mix.garbage:
            self.garbage(state)
        if rng.random() < mix.touch:
            last = sorted(c for c in last_cells if self.hands.stacks.get(c)
                          and c not in self.goes_on)
            self.touch(rng.choice(last) if last and rng.random() < mix.touch_last
                       else self._any_cell(avoid=self.goes_on))
        ops = turn_pieces(state, move, rng)
        cells = {c for _, c, _ in ops}
        mid = rng.randrange(1, len(ops)) if len(ops) > 1 and rng.random() < mix.touch_mid \
            else None
        # While holding a piece, a player straightens only their own pieces (an enemy
        # piece lifted then could as well be a capture).
        own = {c for c, p in self.hands.stacks.items() if p
               and self.hands.owner(c).startswith(player)}
        erng = self.enemy_rng
        enemy_at = erng.randrange(1, len(ops)) \
            if len(ops) > 1 and erng.random() < mix.touch_enemy else None
        self.doing = text
        for i, (op, cell, piece) in enumerate(ops):
            if self.result.off:
                return cells
            if i == mid:
                self.touch(self._any_cell(avoid=cells | (set(self.hands.stacks) - own)))
            if i == enemy_at and self.hands.hand:
                self.touch(self._enemy_cell(state, player, own | cells))
            if op == "lift":
                self.lift(cell)
            else:
                self.place(cell, piece)
        before = state.physical()
        start = state.clone()
        decisions.push(state, move)
        after = state.physical()
        self.hands.settle(after)
        for cell in sorted(self.hands.stacks):
            # A piece that leaves the game (onto a Telec drop pad) is taken off the board.
            while not self.result.off and \
                    len(self.hands.stacks[cell]) > len(after.get(cell, ())):
                self.lift(cell)
        self.hands.hand.clear()  # taken pieces and returned stones go off the board
        self.handle([])  # a question left until the turn was carried out
        stacks = {c: tuple(p) for c, p in self.hands.stacks.items() if p}
        if not self.result.off and stacks != state.physical():
            raise AssertionError(f"the simulated hands left {stacks}, not {state.physical()}")
        self.done.append(text)
        self.doing = None
        silent = self._picture(before) == self._picture(state.physical())
        self.goes_on = self._goes_on(start, after)
        if rng.random() < mix.touch_after:
            self.touch(self._any_cell(avoid=self.goes_on))
        if silent or rng.random() < mix.press:
            self.press(player if mix.buttons == "player" else None)
        if silent and mix.buttons == "shared" and self.board.prompt is None \
                and len(self.result.committed) < len(self.done):
            self.press(None)  # the press ended the opponent's waiting turn: press again
        return cells


def run_stream(game: str, layout: str, seed: int, plies: int = 16,
               mix: Mix | None = None, board: TrackerBoard | None = None) -> Result:
    """Play one seeded stream on the tracker and check it against the truth. ``board``:
    what the player plays on, if not the tracker alone (``truth_replay.ServiceBoard``:
    the whole pipeline, written down as replay input)."""
    rng = random.Random(f"{game}/{layout}/{seed}")
    mix = mix or Mix()
    result = Result(game, layout, seed)
    board = board or TrackerBoard(rules.new_game(game), layout)
    player = Player(board, game, rng, mix, result, board.observe,
                    random.Random(f"{game}/{layout}/{seed}/enemy"))
    state = player.truth_state
    last: set[str] = set()
    freed: set[str] = set()
    for _ in range(plies):
        if state.outcome() is not None or result.off:
            break
        move = pick_move(state, freed, rng)
        text = decisions.text(state, move)
        if not naive_legal(state, text):
            raise AssertionError(f"{game}: {text} is not legal by the naive implementation")
        result.truth.append(text)
        before = state.physical()
        last = player.turn(move, last)
        freed = _freed(before, state.physical())
    if not result.off:
        if mix.answer_at_end:  # (the player's own copy: the caller's mix is left as given)
            player.mix = replace(mix, answer=True)
            player.handle([])
        for _ in range(plies):
            # The input ends; a question it asks is answered, and the input ends again
            # (the answer may leave the next turn complete and waiting).
            player.wait(1.5, 3.0)
            done = len(result.committed)
            player.handle(board.finish(player.t))
            if result.off or len(result.committed) == done or board.prompt is not None:
                break
        if result.committed != result.truth and not result.off:
            result.stalled = (f"committed {len(result.committed)} of {len(result.truth)} "
                              f"moves; waiting: {board.tracker.prompt or 'no question'}")
        elif board.prompt is not None:
            result.stalled = f"a question left open: {board.prompt.options}"
    return result
