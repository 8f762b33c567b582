"""``sensorboard replay``: the whole pipeline on simulated magnets and a virtual clock.

Input: JSON lines ``{"t": 0.0, "op": "lift"|"place", "cell": "c1"}``,
``{"t": .., "op": "choose", "value": ".."}`` (optionally ``"asked": "T|OPTION|..."``, the key
of the question it answers: the ``t`` of its prompt line to the millisecond and its options,
so an answer meant for a question that later events replaced is refused, not taken for the
new one), ``{"t": .., "op": "press", "button": "clock"}``,
and before all of those ``{"t": 0, "op": "setup", "text": ".."}`` (a setup entered, as the
terminal's ``setup`` command and ``POST /api/setup`` take it).
Output: one JSON line per move, error and prompt, then a ``final`` line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import rules
from boards.constants import quote
from boards.layout import Layout
from hardware.backends import HardwareConfig
from hardware.clock import VirtualClock
from sensorboard import demo as demos
from sensorboard import events as events_module
from sensorboard.board import BoardOptions, open_board
from sensorboard.options import known_buttons
from sensorboard.service import ACTIONS, SCAN_PERIOD, BoardService

SETTLE_LIMIT = 30.0  # virtual seconds the clock may run on after the last input line


MAX_TIME = 7 * 24 * 3600.0  # seconds: a week of play is the longest input replay accepts


class InputError(ValueError):
    """Malformed input; the message names the file and line."""


@dataclass(frozen=True)
class InputEvent:
    line: int
    t: float
    op: str
    arg: str
    player: str | None = None  # a press: whose side of the clock (None: a shared button)
    asked: str | None = None  # an answer: the key of the question it is for (None: the open one)


def parse_events(lines: Iterable[str], where: str, cells: Iterable[str],
                 players: Iterable[str] = ()) -> list[InputEvent]:
    """The input lines, checked; ``players`` are the names a press's ``player`` may give."""
    cells = set(cells)
    players = tuple(players)
    events: list[InputEvent] = []
    last_t = 0.0
    begun: InputEvent | None = None  # the first line acting on the board
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        here = f"{where}:{n}"
        try:
            item = json.loads(raw)
        except json.JSONDecodeError as e:
            raise InputError(f"{here}: not valid JSON ({e.msg})") from None
        except RecursionError:
            raise InputError(f"{here}: JSON nested too deeply") from None
        if not isinstance(item, dict):
            raise InputError(f"{here}: expected a JSON object, got {type(item).__name__}")
        t = item.get("t")
        if (isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t)
                or not 0 <= t <= MAX_TIME):
            raise InputError(f"{here}: 't' must be a number of seconds from 0 to "
                             f"{MAX_TIME:.0f}, got {quote(t)}")
        if t < last_t:
            raise InputError(f"{here}: 't' goes back in time ({t} after {last_t})")
        op = item.get("op")
        if op not in ACTIONS:
            raise InputError(f"{here}: 'op' must be one of {', '.join(ACTIONS)}, got {quote(op)}")
        key = ACTIONS[op]
        arg = item.get(key)
        if not isinstance(arg, str) or not arg:
            raise InputError(f"{here}: {op} needs '{key}' as a string, got {quote(arg)}")
        if key == "cell" and arg not in cells:
            valid = ", ".join(sorted(cells))
            raise InputError(f"{here}: unknown cell {quote(arg)}; valid cells: {valid}")
        player = item.get("player")
        if op == "press" and "player" in item and (
                not isinstance(player, str) or players and player not in players):
            raise InputError(f"{here}: press: 'player' must be one of {', '.join(players)}, "
                             f"got {quote(player)}")
        asked = item.get("asked")
        if op == "choose" and "asked" in item and not isinstance(asked, str):
            raise InputError(f"{here}: choose: 'asked' must be a question's key as a string "
                             f"(\"T|OPTION|...\"), got {quote(asked)}")
        extra = set(item) - {"t", "op", key} - (
            {"player"} if op == "press" else {"asked"} if op == "choose" else set())
        if extra:
            raise InputError(f"{here}: unexpected keys {quote(sorted(extra))}")
        if op == "setup" and begun is not None:
            raise InputError(f"{here}: setup: a setup is entered before the game begins; "
                             f"line {begun.line} already does {begun.op} {begun.arg}")
        events.append(InputEvent(n, float(t), op, arg, player, asked))
        begun = begun or (events[-1] if op != "setup" else None)
        last_t = t
    return events


def check_setups(state: rules.GameState, events: list[InputEvent], where: str) -> None:
    """Each ``setup`` line entered in turn on a copy of the start: raises
    :class:`InputError` naming the line and its first fault (a game that takes no setup
    says so), before anything is run or printed."""
    for ev in events:
        if ev.op == "setup":
            try:
                state = state.set_up(ev.arg)
            except rules.SetupError as e:
                raise InputError(f"{where}:{ev.line}: {e}") from None


class VirtualRun:
    """Scans a service on a virtual clock, skipping the time in which nothing can change."""

    def __init__(self, service: BoardService, clock: VirtualClock,
                 emit: Callable[[dict], None]) -> None:
        self.service, self.clock, self.emit = service, clock, emit
        self.k = math.floor(clock.now() / SCAN_PERIOD) + 1  # index of the next scan
        self.last_scan = clock.now()

    def _quiet(self) -> bool:
        sim = self.service.sim
        return (self.service.debouncer.settled() and sim.quiet_after() <= self.last_scan
                and self.service.tracker.prepared)

    def scan_until(self, target: float) -> None:
        """Every scan strictly before ``target``; the clock then reads ``target``."""
        while self.k * SCAN_PERIOD < target - 1e-9:
            now = self.k * SCAN_PERIOD
            if self._quiet():
                timer = self.service.next_timer()
                nxt = target if timer is None or timer >= target else max(timer, now)
                k = math.ceil(nxt / SCAN_PERIOD - 1e-9)
                if k > self.k:
                    self.k = k
                    continue
            self.clock.set(now)
            for item in self.service.step():
                self.emit(item)
            self.last_scan = now
            self.k += 1
        self.clock.set(max(target, self.clock.now()))

    def catch_up(self, limit: float = 0.1) -> None:
        """Let changes still settling on the board (bounce, debouncing) arrive before a
        button press or an answer, which the player gives to the board they see."""
        end = self.clock.now() + limit
        while not self._quiet() and self.k * SCAN_PERIOD < end:
            self.scan_until(self.k * SCAN_PERIOD + SCAN_PERIOD / 2)

    def play(self, script: Iterable[dict]) -> None:
        """Carry out a demo script's lines (``{"t": .., "op": .., ..}``) each at its time,
        then let the board settle."""
        for line in script:
            self.scan_until(line["t"])
            demos.apply(self.service, line)
        self.settle()

    def settle(self) -> None:
        """Let the clock run on until nothing more can happen by itself."""
        limit = self.clock.now() + SETTLE_LIMIT
        while self.k * SCAN_PERIOD < limit:
            self.scan_until(self.k * SCAN_PERIOD + 0.05)
            if self._quiet() and self.service.next_timer() is None:
                break


def replay(state: rules.GameState, layout: Layout, events: list[InputEvent], where: str,
           emit: Callable[[dict], None], *, bounce: float = 0.003, seed: int = 0,
           warn: Callable[[str], None] = lambda message: None, dice: str = "physical",
           time_control: str | None = None) -> dict:
    """Run ``events`` through the whole pipeline; returns the final line. ``seed`` shapes
    the simulated contacts and, with ``dice="electronic"``, fixes the rolls;
    ``time_control`` (a TimeControl text) runs the game clock on the virtual clock."""
    check_setups(state, events, where)
    clock = VirtualClock()
    service = open_board(BoardOptions(
        state.NAME, layout=layout, clock=clock, state=state, engine_hints=False,
        hardware=HardwareConfig(bounce=bounce, seed=seed),
        options=(f"dice={dice}",) if state.HAS_CHANCE else (),
        tags={"TimeControl": time_control} if time_control else None)).service
    run = VirtualRun(service, clock, emit)
    for ev in events:
        run.scan_until(ev.t)
        here = f"{where}:{ev.line}"
        if ev.op == "lift" and service.sim_pieces(ev.arg) == 0:
            raise InputError(f"{here}: lift {ev.arg}: there is no piece on {ev.arg}")
        buttons = known_buttons(service.view)
        if ev.op == "press" and ev.arg not in buttons:
            raise InputError(f"{here}: press: unknown button {quote(ev.arg)}; buttons: "
                             f"{', '.join(buttons)}")
        if ev.op in ("press", "choose"):
            run.catch_up()
        for item in service.act(ev.op, ev.arg, ev.player, asked=ev.asked):
            if isinstance(slip := events_module.from_json(item), events_module.Rejected):
                # An answer when no question is open (or not one offered) is a player's
                # slip, not malformed input: said on stderr, and the replay goes on.
                warn(f"{here}: {ev.op}: {slip.reason}")
            else:
                emit(item)
    run.settle()
    for item in service.flush():
        emit(item)
    return service.final()
