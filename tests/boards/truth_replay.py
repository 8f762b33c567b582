"""The truth-checked streams of ``truth.py`` through ``sensorboard replay``: the same seeded
games and the same simulated player, on the whole pipeline instead of the tracker alone.

The player carries out each lift, place, clock press and answer on a :class:`ServiceBoard`:
the simulated magnets of a ``BoardService`` scanned on a virtual clock (contact bounce,
debouncing, scans of changes that came together), exactly as :func:`sensorboard.replay.replay`
carries out a replay input line, and every action is written down as that line. Once the
stream is played, its lines are run through ``replay`` (the code behind ``sensorboard
replay --game GAME``, the default setup), and the stream passes when the replay's ``move``
lines are exactly the true turns, each legal by the game's naive implementation, and
nothing was left waiting. The input ends as in ``truth.py`` (a turn complete and waiting
is committed, questions the mover may decline are declined), but a question its end asks
cannot be answered in a replay file: such a stream is stalled.

The player's simulated hand puts down what the true turn puts down; the simulated board
puts down the piece lifted last. Both are the same to a presence sensor (a reed switch
under a figure's base), so this runs boards that sense presence only (Tesulda's).

>>> result = run_stream("tesulda", "tesulda", seed=1, plies=4)
>>> result.ok, result.committed == result.truth
(True, True)
"""

from __future__ import annotations

import json
from dataclasses import replace

import rules
from boards.layout import load_layout, shipped_layouts
from boards.tracker import Committed, Error, Prompt
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock
from sensorboard.board import BoardOptions, open_board
from sensorboard.replay import VirtualRun, parse_events, replay
from sensorboard.service import ACTIONS

from . import truth

#: Scans after a lift or place before the player goes on: the change is read by then
#: (debounce and bounce take ~15 ms), and the player's next action is >= 50 ms later.
SETTLE = 0.03


def _event(item: dict) -> Committed | Error | Prompt | None:
    """The tracker event an output line stands for (the ones the player heeds)."""
    kind = item["type"]
    if kind == "move":
        return Committed(item["t"], item["ply"], item["player"], item["move"])
    if kind == "error":
        return Error(item["t"], item["cells"], tuple(item.get("attackers", ())))
    if kind == "prompt":
        return Prompt(item["t"], item["options"])
    return None


def replayable(layout_name: str) -> bool:
    """Whether the streams can run on ``layout_name`` through replay: its sensors see
    presence only."""
    return load_layout(shipped_layouts()[layout_name]).sensor == "binary"


class ServiceBoard:
    """A board for ``truth.Player``: the whole pipeline on simulated magnets, each action
    written down as a replay input line (:attr:`lines`)."""

    def __init__(self, state: rules.GameState, layout_name: str) -> None:
        if not replayable(layout_name):
            raise ValueError(f"{layout_name}: the replay streams need a presence sensor")
        self.layout = load_layout(shipped_layouts()[layout_name])
        self.clock = VirtualClock()
        self.service = open_board(BoardOptions(
            state.NAME, layout=self.layout, clock=self.clock, state=state,
            hardware=HardwareConfig(bounce=0.003, seed=0), engine_hints=False)).service
        self.observe = self.service.observe
        self.out: list[dict] = []
        self.run = VirtualRun(self.service, self.clock, self.out.append)
        self.lines: list[dict] = []
        self.ended: int | None = None

    @property
    def tracker(self):
        return self.service.tracker

    @property
    def prompt(self) -> Prompt | None:
        return self.service.tracker.prompt

    def _line(self, line: dict) -> list:
        """Carry out one input line as ``replay`` does; the events it (and the scans
        before it) caused."""
        self.run.scan_until(line["t"])
        self.lines.append(line)
        op = line["op"]
        if op in ("press", "choose"):
            self.run.catch_up()
        self.out += self.service.act(op, line[ACTIONS[op]], line.get("player"))
        if op in ("lift", "place"):
            self.run.scan_until(line["t"] + SETTLE)
        items, self.out[:] = list(self.out), []
        return [e for e in map(_event, items) if e is not None]

    def change(self, cell: str, pieces: tuple[str, ...], t: float) -> list:
        op = "lift" if len(pieces) < self.service.sim_pieces(cell) else "place"
        return self._line({"t": t, "op": op, "cell": cell})

    def press(self, player: str | None, t: float) -> list:
        line = {"t": t, "op": "press", "button": "clock"}
        return self._line(line if player is None else {**line, "player": player})

    def choose(self, value: str, t: float, asked: str | None = None) -> list:
        """An answer line, not naming its question (``asked`` is not written): this board
        scans on past a place to let it settle and replay does not, so a question put
        just after one may be put a few milliseconds apart on the two, and a key written
        here could miss its own question there."""
        return self._line({"t": t, "op": "choose", "value": value})

    def finish(self, t: float) -> list:
        """The input ends here (the first time): as at the end of a replay, the board
        settles and the tracker is flushed. Lines written after it (answers to what the
        end asked) are not part of the input (:attr:`ended`: how many lines are)."""
        if self.ended is not None:
            return []
        self.ended = len(self.lines)
        self.run.scan_until(t)
        self.run.settle()
        self.out += self.service.flush()
        items, self.out[:] = list(self.out), []
        return [e for e in map(_event, items) if e is not None]

    def jsonl(self) -> str:
        """The replay input: the lines up to the end of the input."""
        return "".join(json.dumps(line) + "\n" for line in self.lines[:self.ended])


def run_stream(game: str, layout: str, seed: int, plies: int = 16,
               mix: truth.Mix | None = None) -> truth.Result:
    """Play one seeded stream on the pipeline, then run its lines through ``replay``: the
    result is the replay's (its ``move`` lines checked against the true turns)."""
    mix = mix or truth.Mix()
    board = ServiceBoard(rules.new_game(game), layout)
    played = truth.run_stream(game, layout, seed, plies=plies, mix=mix, board=board)
    return check_replay(played, board)


def check_replay(played: truth.Result, board: ServiceBoard) -> truth.Result:
    """Run the lines ``board`` wrote down through ``replay``; the stream's result as the
    replay gives it (``played``: as the player saw it on the board)."""
    game, seed = played.game, played.seed
    result = replace(played, committed=[], illegal=0, off="", stalled="")
    if played.off:
        result.off = f"played on the board: {played.off}"
    state = rules.new_game(game)
    lines = board.jsonl().splitlines()
    lines_end = json.loads(lines[-1])["t"] if lines else 0.0
    events = parse_events(lines, f"stream {seed}", state.GEOMETRY.names, state.PLAYERS)
    out: list[dict] = []
    final = replay(state, board.layout, events, f"stream {seed}", out.append)
    check = truth.check_moves(result, out, game)
    if result.off or result.stalled:
        return result
    if any(item["type"] == "prompt" and item["t"] > lines_end for item in out):
        result.stalled = "the end of the replay input asked a question"
    elif final["position"] != {c: list(p) for c, p in sorted(check.physical().items())}:
        result.off = "the replay's final position is not the game's"
    return result
