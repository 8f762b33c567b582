"""Telec streams checked against the truth: seeded games of the rules module played by hand
on the simulated board with physical dice, then run through ``sensorboard replay``.

A stream is a Telec game whose every turn is a legal whole turn by the naive second
implementation in ``tests/rules/test_telec.py``. A simulated player carries it out as
people handle pyramids, with their own die (the board reads the roll from the tile a
pyramid enters and asks only where it cannot tell: a forfeit, a stash pyramid stacked on
an own piece, a pass):

- lifts and places in any order (a bump by a step: either piece lifted first), a piece
  stepping into the Center Zone put on its drop pad and taken away, or (on the board
  without the drop sensor) just taken away;
- touches pieces (lifts one and puts it back) before, during and after a turn;
- now and then, between turns, puts a pyramid on a tile where no turn puts it (garbage)
  and, after a while, back where it was;
- presses the clock after turns (its own side, or one shared button), always after a
  turn the sensors cannot see;
- answers each question with the true decision, sometimes late (after a touch, seconds
  later); a question about a turn nobody made is answered ``none``.

While it plays, every line is written as replay input (``{"t", "op", ...}``); the lines are
then run through :func:`sensorboard.replay.replay`, the code behind ``sensorboard replay
--game telec --option dice=physical``. The stream passes when the replay committed exactly
the true turns, printed a ``roll`` line for exactly the true rolls, committed nothing
illegal and left nothing waiting. ``bench/truth.py --replay`` runs thousands.

>>> result = run_stream("telec", seed=1, turns=8)
>>> result.ok, result.committed == result.truth
(True, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable
from dataclasses import dataclass, field

import rules
from boards import decisions
from boards.choreography import turn_pieces
from boards.decisions import Turn
from boards.layout import load_layout, shipped_layouts
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock
from sensorboard.board import BoardOptions, open_board
from sensorboard.replay import VirtualRun, parse_events, replay
from tests.boards import truth
from tests.rules.test_telec import naive_turns

LAYOUTS = ("telec", "telec-nodrop")


def legal(state: rules.GameState, text: str) -> bool:
    """The naive check: ``text`` is one of the whole turns ``tests/rules/test_telec.py``
    lists for the side to move (a first turn must roll: the position text says ``first``)."""
    return text in naive_turns(state, state.position_str().endswith(" first"))


#: Telec in the tracker-level streams of ``truth.py`` (the streams below go through replay).
ADAPTER = truth.Adapter(layouts=LAYOUTS, legal=legal,
                        pick=lambda state, rng: [pick_turn(state, rng)], streams=8)


# --- the true turns ------------------------------------------------------------------------


def pick_turn(state: rules.GameState, rng: random.Random) -> Turn:
    """A legal whole turn for the side to move, the die rolled with its probabilities;
    biased towards what is hard to follow: bumps, stacks, the Center Zone, forfeits."""
    player, turn = state.to_move, []
    while decisions.in_turn(state, player):
        legal = state.legal_moves()
        if state.to_move == rules.CHANCE:
            move = state.sample_chance(rng)
        elif len(turn) == 0:
            move = _first_decision(state, legal, rng)
        else:
            declines = [m for m in legal if state.move_str(m) == "none"]
            sizes = [m for m in legal if m not in declines]
            move = rng.choice(declines if declines and (not sizes or rng.random() < 0.25)
                              else sizes)
        state.push(move)
        turn.append(move)
    decisions.pop(state, Turn(turn))
    return Turn(turn)


def _first_decision(state: rules.GameState, legal: list, rng: random.Random) -> Hashable:
    phys = state.physical()
    steps = [m for m in legal if getattr(m, "frm", "")]
    rolls = [m for m in legal if m not in steps]
    if not steps or rolls and rng.random() < 0.45:
        return rng.choice(rolls)
    into_cz = [m for m in steps if m.to == "cz"]
    onto = [m for m in steps if m.to in phys]  # a stack built or a bump
    roll = rng.random()
    if into_cz and roll < 0.35:
        return rng.choice(into_cz)
    if onto and roll < 0.75:
        return rng.choice(onto)
    return rng.choice(steps)


def turn_text(state: rules.GameState, turn: Turn) -> str:
    return decisions.text(state, turn)


def faces(state: rules.GameState, turn: Turn) -> list[tuple[str, str]]:
    """The rolls of ``turn`` from ``state``: ``(player, face)``."""
    out = []
    player = state.to_move
    for d in decisions.decisions(turn):
        if state.to_move == rules.CHANCE:
            out.append((player, state.move_str(d)))
        state.push(d)
    decisions.pop(state, turn)
    return out


# --- the player ------------------------------------------------------------------------------


@dataclass
class Mix(truth.Mix):
    """How a stream's player handles the pieces (``tests/boards/truth.py``: touches,
    presses, late answers, garbage put right), and on the board without a drop sensor how
    often a piece entering the Center Zone is put in the hole before it is taken away (no
    sensor sees it either way)."""

    drop_pad: float = 1.0

    @staticmethod
    def random(rng: random.Random) -> Mix:
        """A random mix of handling habits, for held-back streams."""
        return Mix(**vars(truth.Mix.random(rng)), drop_pad=rng.choice([0.0, 0.5, 1.0]))


@dataclass
class Result:
    layout: str
    seed: int
    truth: list[str] = field(default_factory=list)
    rolls: list[tuple[str, str]] = field(default_factory=list)  # the true (player, face)s
    committed: list[str] = field(default_factory=list)
    rolled: list[tuple[str, str]] = field(default_factory=list)
    illegal: int = 0
    off: str = ""        # how the stream left the truth (empty: it did not)
    stalled: str = ""    # what was left waiting at the end
    questions: int = 0
    errors: int = 0
    events: list[dict] = field(default_factory=list)  # the replay input lines
    log: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.off or self.stalled or self.illegal)

    def jsonl(self) -> str:
        return "".join(json.dumps(e) + "\n" for e in self.events)


class Player:
    """Plays the true turns on a service's simulated board, answering its questions with
    the true decisions, and writes down every line as replay input."""

    def __init__(self, layout: str, rng: random.Random, mix: Mix, result: Result) -> None:
        self.layout = load_layout(shipped_layouts()[layout])
        self.drop = "cz" in self.layout.cell_sensor
        self.clock = VirtualClock()
        self.service = open_board(BoardOptions(
            "telec", layout=self.layout, clock=self.clock, options=("dice=physical",),
            hardware=HardwareConfig(bounce=0.003, seed=0), engine_hints=False)).service
        self.service.listeners.append(self._heard)
        self.run = VirtualRun(self.service, self.clock, lambda item: None)
        self.rng, self.mix, self.result = rng, mix, result
        self.t = 0.5
        self.turns: list[tuple[int, Turn]] = []  # each true turn begun: (where, decisions)
        self.decisions = 0  # the true decisions of the turns begun
        self.stacks: dict[str, list[str]] = {}
        self.hand: list[str] = []
        self.answering = False

    @property
    def tracker(self):
        return self.service.tracker

    def _heard(self, item: dict) -> None:
        if item["type"] == "prompt":
            self.result.questions += 1
            self.result.log.append(f"{item['t']:.2f} prompt {item['options']}")
        elif item["type"] == "error":
            self.result.errors += 1
            self.result.log.append(f"{item['t']:.2f} error {item['cells']}")
        elif item["type"] in ("move", "roll"):
            self.result.log.append(f"{item['t']:.2f} {item['type']} {item.get('move') or item}")

    # --- time and lines, exactly as ``replay`` carries them out

    def wait(self, lo: float | None = None, hi: float | None = None) -> None:
        a, b = self.mix.pace
        self.t = round(self.t + self.rng.uniform(lo if lo is not None else a,
                                                 hi if hi is not None else b), 3)

    def _line(self, line: dict) -> list[dict]:
        self.run.scan_until(line["t"])
        self.result.events.append(line)
        self.result.log.append(" ".join(str(v) for v in line.values()))
        op = line["op"]
        if op == "lift":
            self.service.sim_lift(line["cell"])
            return []
        if op == "place":
            self.service.sim_place(line["cell"])
            return []
        self.run.catch_up()
        if op == "choose":
            return self.service.choose(line["value"])
        return self.service.press(line["button"], line.get("player"))

    def act(self, op: str, arg: str, player: str | None = None, piece: str | None = None,
            ) -> None:
        self.wait()
        if not self.answering:
            self.answer()
            if self.result.off:
                return
        key = {"lift": "cell", "place": "cell", "press": "button", "choose": "value"}[op]
        line = {"t": self.t, "op": op, key: arg}
        if player is not None:
            line["player"] = player
        if op == "lift":
            self.hand.append(self.stacks[arg].pop())
        elif op == "place":
            if piece is None:
                piece = self.hand.pop()
            elif piece in self.hand:
                self.hand.reverse()
                self.hand.remove(piece)  # the one lifted last of its kind
                self.hand.reverse()
            self.stacks.setdefault(arg, []).append(piece)
        self._line(line)

    def answer(self) -> None:
        """Answer each question open by now: the true decision it asks for, or ``none``
        when it asks about a turn not made."""
        if self.answering:
            return
        self.answering = True
        try:
            self.run.scan_until(self.t)
            for _ in range(12):
                prompt = self.tracker.prompt
                if prompt is None or self.result.off:
                    return
                want = self._want()
                if want not in prompt.options and "none" in prompt.options:
                    want = "none"  # none of the turns asked about was made
                if want not in prompt.options:
                    self.result.log.append("^^^ off here")
                    self.result.off = (f"turn {len(self.tracker.turns()) + 1}: asked "
                                       f"{prompt.options}, the true decision is {want!r}")
                    return
                if self.rng.random() < self.mix.late:
                    self.wait(2.0, 6.0)
                    self.touch(self._any_cell())
                    self.run.scan_until(self.t)
                    if self.tracker.prompt is not prompt:
                        continue
                self.wait()
                self._line({"t": self.t, "op": "choose", "value": want})
                if self.tracker.prompt is prompt:
                    self.result.off = f"the answer {want!r} to {prompt.options} was refused"
                    return
            self.result.off = "more than 12 questions in a row"
        finally:
            self.answering = False

    def _want(self) -> str:
        """The true decision a question asks for: the next one of the turn the tracker
        follows, if its decisions so far are the true ones, else ``none``."""
        tracker = self.tracker
        start = tracker.turn_start
        asked = tracker.state.move_stack[start:]
        true = next((t for s, t in self.turns if s == start), None)
        if true is None or tuple(asked) != true[:len(asked)] or len(asked) >= len(true):
            return "none"
        return tracker.state.move_str(true[len(asked)])

    def garbage(self, state: rules.GameState) -> None:
        """Put the top pyramid of a piece on another tile where no turn of the side to move
        puts one (nor seems to, half done), wait (the error may show), and put it back."""
        if self.tracker.prompt is not None or len(self.tracker.turns()) < len(self.turns):
            return  # the player waits until the board has taken the last turn
        finals = set()
        for turn in decisions.completions(state, state.to_move):
            decisions.push(state, turn)
            finals.add(self._picture(state.physical()))
            decisions.pop(state, turn)
        tiles = [c for c in state.GEOMETRY.names if c != "cz"]
        for _ in range(20):
            src, dst = self._any_cell(), self.rng.choice(tiles)
            if src is None or dst == src:
                return
            stacks = {c: list(p) for c, p in self.stacks.items() if p}
            piece = stacks[src].pop()
            lifted = self._picture(stacks)
            stacks.setdefault(dst, []).append(piece)
            if lifted in finals or self._picture(stacks) in finals:
                continue
            self.result.log.append("garbage:")
            self.act("lift", src)
            self.act("place", dst)
            self.wait(0.2, 2.5)  # the error may show meanwhile
            self.act("lift", dst)
            self.act("place", src)
            return

    def _picture(self, stacks: dict) -> frozenset:
        """The tiles a presence sensor sees occupied."""
        return frozenset(c for c, p in stacks.items() if p and c in self.layout.cell_sensor)

    def touch(self, cell: str | None) -> None:
        if cell is not None:
            self.act("lift", cell)
            self.act("place", cell)

    def _any_cell(self, among: set[str] | None = None) -> str | None:
        full = sorted(c for c, p in self.stacks.items() if p and c != "cz"
                      and (among is None or c in among))
        return self.rng.choice(full) if full else None

    # --- one turn

    def turn(self, state: rules.GameState, turn: Turn, last: set[str]) -> set[str]:
        """Carry out ``turn`` (the side to move's) from ``state``, which it leaves
        unchanged; returns the cells it changed."""
        mix, rng = self.mix, self.rng
        player = state.to_move
        if rng.random() < mix.garbage:
            self.garbage(state)
        if rng.random() < mix.touch:
            near = sorted(c for c in last if self.stacks.get(c))
            self.touch(rng.choice(near) if near and rng.random() < mix.touch_last
                       else self._any_cell())
        ops = turn_pieces(state, turn, rng)
        if not self.drop and ops and rng.random() >= mix.drop_pad:
            ops = [op for op in ops if op[1] != "cz"]  # just taken away, off the board
        self.wait()
        self.answer()  # what was asked before this turn is answered as it stands
        self.turns.append((self.decisions, turn))  # begun: questions about it are answered
        self.decisions += len(turn)
        mid = rng.randrange(1, len(ops)) if len(ops) > 1 and rng.random() < mix.touch_mid \
            else None
        own = {c for c, p in self.stacks.items() if p and p[-1].startswith(player)}
        before = state.physical()
        cells = {c for _, c, _ in ops}
        for i, (op, cell, piece) in enumerate(ops):
            if self.result.off:
                return cells
            if i == mid:
                self.touch(self._any_cell(own - cells))
            if op == "lift":
                self.act("lift", cell)
            else:
                self.act("place", cell, piece=piece)
        self.hand.clear()  # bumped pyramids go back to the stash, cz's leave the game
        decisions.push(state, turn)
        self.stacks = {c: list(p) for c, p in state.physical().items()}
        silent = not ops or all(
            bool(before.get(c)) == bool(state.physical().get(c)) for _, c, _ in ops
            if c != "cz") and not any(c == "cz" and self.drop for _, c, _ in ops)
        if rng.random() < mix.touch_after:
            self.touch(self._any_cell())
        if silent or rng.random() < mix.press:
            self.act("press", "clock", player if mix.buttons == "player" else None)
        if silent and mix.buttons == "shared":
            # The one press ended the opponent's turn that was still waiting: press again.
            self.run.scan_until(self.t + 0.3)
            if self.tracker.prompt is None and len(self.tracker.turns()) < len(self.turns):
                self.act("press", "clock")
        return cells


def run_stream(game: str = "telec", seed: int = 0, turns: int = 30, mix: Mix | None = None,
               layout: str | None = None) -> Result:
    """Play one seeded stream by hand, replay its lines, and check both against the truth."""
    assert game == "telec"
    rng = random.Random(f"telec-truth/{seed}")
    layout = layout or LAYOUTS[seed % 2]
    mix = mix or Mix()
    result = Result(layout, seed)
    player = Player(layout, rng, mix, result)
    state = rules.new_game("telec")
    first = {p: True for p in state.PLAYERS}
    last: set[str] = set()
    for _ in range(turns):
        if state.outcome() is not None or result.off:
            break
        turn = pick_turn(state, rng)
        text = turn_text(state, turn)
        if text not in naive_turns(state, first[state.to_move]):
            raise AssertionError(f"{text!r} is no legal turn by the naive implementation")
        first[state.to_move] = False
        result.truth.append(text)
        result.rolls += faces(state, turn)
        last = player.turn(state, turn, last)
    player.wait(1.5, 3.0)
    player.answer()
    if not result.off and len(player.tracker.turns()) < len(player.turns):
        # The last turn still waits (a step onto an own piece, unseen): its player presses.
        last = state.PLAYERS[(len(result.truth) - 1) % 2] if mix.buttons == "player" else None
        player.act("press", "clock", last)
        player.answer()
    check_replay(result, layout)
    return result


def check_replay(result: Result, layout: str) -> None:
    """Run the stream's lines through replay and compare what it printed with the truth."""
    state = rules.new_game("telec")
    lines = result.jsonl().splitlines()
    events = parse_events(lines, f"stream {result.seed}", state.GEOMETRY.names, state.PLAYERS)
    out: list[dict] = []
    final = replay(state, load_layout(shipped_layouts()[layout]), events, "stream", out.append,
                   dice="physical")
    result.rolled += [(x["player"], x["value"]) for x in out if x["type"] == "roll"]
    check = truth.check_moves(result, out, "telec")
    if result.off or result.stalled:
        return
    if result.rolled != result.rolls:
        result.off = f"rolls {result.rolled} printed, {result.rolls} rolled"
    elif final["position"] != {c: list(p) for c, p in sorted(check.physical().items())}:
        result.off = f"final position {final['position']} differs"
