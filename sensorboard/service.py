"""One board, wired: scanner -> debouncer -> tracker -> hint planner -> LEDs, and its
listeners (the game writer, the terminal, the page).

The service is driven by :meth:`BoardService.step`, one matrix scan at a time, on a real
or a virtual clock (it does not know which); every player's action comes in through
:meth:`BoardService.act`. It composes :mod:`sensorboard.sensors` (scans, boot, ghosts),
:mod:`sensorboard.boardsetup`, :mod:`sensorboard.clockrunner` (the game clock),
:mod:`sensorboard.corrections` and :mod:`sensorboard.suggest` (the engine's hint).
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import replace

import rules
from boards import answers, hints
from boards import view as turn_view
from boards.dice import DICE, ElectronicDice
from boards.events import Event
from boards.layout import Layout
from boards.sensing import observer
from boards.tracker import Tracker
from boards.view import Phase, TurnView
from hardware.analog import ValueDebouncer
from hardware.backends import Hardware, HardwareConfig, open_backend
from hardware.base import Clock, LedStrip
from hardware.debounce import Debouncer
from hardware.hand import SimHand
from sensorboard import clocks, corrections, events, suggest
from sensorboard.boardsetup import BoardSetup
from sensorboard.clockrunner import ClockRunner
from sensorboard.events import outcome_json, result_text, tracker_json
from sensorboard.opponent import Opponent
from sensorboard.seat import Seat
from sensorboard.sensors import Sensors, settle

SCAN_PERIOD = HardwareConfig.scan_period  # the defaults; a board's config may change them
DEBOUNCE = HardwareConfig.debounce
# A player's actions (see BoardService.act), each with the field that names its value in a
# replay line or a demo script (``setup``: the text, as POST /api/setup spells it).
ACTIONS = {"lift": "cell", "place": "cell", "choose": "value", "press": "button",
           "setup": "text"}


class ServiceError(ValueError):
    """A board that cannot be set up as asked (backend, layout, options)."""


def _open_hardware(backend: str, layout: Layout, config: HardwareConfig | None,
                   bounce: float | None, seed: int | None, clock: Clock) -> Hardware:
    """The backend named ``backend``, opened with ``config`` and, where given, the
    simulated contacts' ``bounce`` and ``seed``."""
    tweaks = {k: v for k, v in (("bounce", bounce), ("seed", seed)) if v is not None}
    return open_backend(backend, layout, replace(config or HardwareConfig(), **tweaks), clock)


class BoardService:
    """The pipeline on an opened backend (``hardware``), or on the backend named
    ``backend``, opened here with ``config`` (``bounce`` and ``seed`` shape the simulated
    contacts). A backend with simulated magnets gets the game's start position on them."""

    def __init__(
        self,
        state: rules.GameState,
        layout: Layout,
        *,
        clock: Clock,
        backend: str = "sim",
        hardware: Hardware | None = None,
        config: HardwareConfig | None = None,
        bounce: float | None = None,
        seed: int | None = None,
        error_delay: float = 1.0,
        listeners: list[Callable[[dict], None]] | None = None,
        resumed: bool = False,
        pieces: dict[str, tuple[str, ...]] | None = None,
        dice: str = "physical",
        timing: clocks.GameClock | None = None,
        engine_hints: bool = True,
        opponent: Opponent | None = None,
    ) -> None:
        """``resumed``: the game goes on from its journal, so a board that differs is put
        right first (the LEDs guide). ``pieces``: what stands on the simulated board at
        the start (default: the game's position). ``timing``: the game clock
        (:mod:`sensorboard.clocks`), None without a time control. ``engine_hints``:
        ``hint`` asks the engine for a turn (:mod:`sensorboard.suggest`). ``opponent``:
        plays one side from elsewhere (:mod:`sensorboard.opponent`)."""
        if layout.game != state.NAME:
            raise ServiceError(f"{layout.path}: layout is for {layout.game}, not {state.NAME}")
        if dice not in DICE:
            raise ServiceError(f"dice must be one of {', '.join(DICE)}, got {dice!r}")
        self.layout = layout
        self.clock = clock
        self.listeners = list(listeners or [])
        self.observe = observer(layout)
        self.analog = layout.sensor == "analog"
        self.resumed = resumed
        self.corrections: queue.Queue | None = None  # an arbiter's, from afar (MQTT)
        self.adjudicated = False
        self.game_clock = ClockRunner(timing, self._clock_changed)
        if hardware is None:
            hardware = _open_hardware(backend, layout, config, bounce, seed, clock)
        self._wire(hardware, state, pieces)
        blind = frozenset(state.GEOMETRY.names) - layout.cell_sensor.keys()
        self.tracker = Tracker(state, observe=self.observe, error_delay=error_delay,
                               blind=blind, dice=self._die(state, dice, seed))
        self.frame: dict[str, str] = {}
        self.revision = 0  # counts what a view could show differently; views redraw on change
        self._view: TurnView | None = None
        # The tracker may have changed since the LEDs were last planned (_replan) and
        # since the view was made (_view_stale): plain flags, set at every event.
        self._replan = self._view_stale = True
        self._frame_due: float | None = None
        self.taken_back: dict | None = None  # the last move taken back, until the next commit
        self.positioned: dict | None = None  # the arbiter's position correction, likewise
        self.setup = BoardSetup(self.tracker)
        self.suggester = suggest.Suggester() if engine_hints else None  # hint: the engine's turn
        self.seat: Seat | None = None  # the opponent's, when one plays from elsewhere
        self._boot()
        self.set_opponent(opponent)

    def _wire(self, hardware: Hardware, state: rules.GameState,
              pieces: dict[str, tuple[str, ...]] | None) -> None:
        """Take the opened backend's parts: the matrix (and the scans' state), the LEDs,
        the buttons, and a hand over the simulated magnets (set up with ``pieces``, else
        the game's position)."""
        self.hardware = hardware
        self.backend = hardware.name
        self.scanner = hardware.matrix
        self.sensors = Sensors(self.layout, self.scanner)
        self.addr_cell = self.layout.sensor_cell
        self._last: object = None  # the last scan's reading
        self._held: list = []  # changes confirmed, waiting for the others settling with them
        self._held_since = 0.0
        self.strip: LedStrip = hardware.strip
        self.buttons = hardware.buttons
        self.sim = hardware.magnets
        self.hand: SimHand | None = None  # a player's hand over the simulated magnets
        if self.sim is not None:
            self.hand = SimHand(self.sim, self.layout.cell_sensor, self.layout.magnets,
                                whole_stacks=state.FIGURES)
            self.hand.set_up(state.physical() if pieces is None else pieces)
        self.config = hardware.config or HardwareConfig()
        self.palette = hints.palette(self.config.palette, self.config.colours)
        self.scan_period = self.config.scan_period
        debounce = self.config.debounce
        if self.analog:
            self.debouncer = ValueDebouncer(debounce, rest=self.observe(()))
        else:
            self.debouncer = Debouncer(debounce)
        self.hold_limit = 5 * debounce

    def _die(self, state: rules.GameState, dice: str, seed: int | None) -> ElectronicDice | None:
        """The board's electronic die, rolling from ``seed`` (the journal records every
        roll); None where the dice are physical or the game has none."""
        if dice != "electronic" or not state.HAS_CHANCE:
            return None
        return ElectronicDice((seed if seed is not None else self.config.seed) or 0)

    def close(self) -> None:
        """Darken the LEDs, release the hardware and stop the engine's search."""
        if self.suggester is not None:
            self.suggester.close()
        if self.seat is not None:
            self.seat.close()
        self.hardware.close()

    @property
    def timing(self) -> clocks.GameClock | None:
        """The game clock as it stands, None without a time control."""
        return self.game_clock.timing

    @property
    def flagged(self) -> dict | None:
        """The ``end`` entry of a flag fall."""
        return self.game_clock.flagged

    @property
    def unreadable(self) -> frozenset[str]:
        """The cells a diode-less matrix cannot read right now."""
        return self.sensors.unreadable

    @property
    def view(self) -> TurnView:
        """The turn's read model as it stands (:class:`boards.view.TurnView`): what the
        LEDs, the page and the terminal show."""
        if self._view_stale or self._view is None or self._view.lazy:
            self._view = self.tracker.view(self._view)
            self._view_stale = False
        return self._view

    def _view_now(self) -> TurnView:
        """The view for the LEDs, made at most once per change of the tracker: only what
        they read (:attr:`view` hands out a whole one)."""
        if self._view_stale or self._view is None:
            self._view = turn_view.view_of(self.tracker, self._view, lazy=True)
            self._view_stale = False
        return self._view

    def _boot(self) -> None:
        """Read the board until it is stable and take that as what the sensors show now."""
        settle(self._read, self.debouncer, self.clock.now(), self.scan_period)
        differ = self.sensors.differing(self.debouncer.state(), self.tracker.current,
                                        self.observe(()))
        if differ and self.resumed:  # put the board as the journal says, then play on
            self.tracker.put_right(shown=dict(differ))
            self.record({"type": "resume", "t": round(self.clock.now(), 3),
                         "cells": self.tracker.restore_cells()})
        elif differ and self.tracker.state.move_stack:  # a position set, not a new game
            self.emit(self.tracker.changes(differ, self.clock.now()))
        elif differ:  # a new game on a board not set up as it starts
            self.tracker.put_right(shown=dict(differ))
            self.setup.watch(self.clock.now())
        self._show(self.clock.now())

    def next_timer(self) -> float | None:
        """When :meth:`step` will next have something to say if nothing else happens."""
        due = [t for t in (self._board_timer(), self.game_clock.flag_at()) if t is not None]
        return min(due, default=None)

    def _board_timer(self) -> float | None:
        """When the board itself (not the game clock) next has something to say."""
        due = [t for t in (self.tracker.next_timer(), self.setup.due) if t is not None]
        return min(due, default=None)

    def _read(self, now: float):
        """One scan (:meth:`Sensors.read`); cells becoming unreadable or readable again
        are journaled."""
        before = self.sensors.unreadable
        raw = self.sensors.read(now, self.tracker.current)
        if self.sensors.unreadable != before:
            self.revision += 1
            self.record({"type": "unreadable", "t": round(now, 3),
                         "cells": sorted(self.sensors.unreadable)})
        return raw

    # --- one scan ---------------------------------------------------------------------

    def step(self) -> list[dict]:
        """One scan. When nothing changed it costs the scan and a few comparisons: no
        tracker work, no LED frame, no new revision (so views do not redraw)."""
        now = self.clock.now()
        out: list[dict] = []
        if self.corrections is not None and not self.corrections.empty():
            out += self.apply_corrections()
        raw = self._read(now)
        if raw != self._last or not self.debouncer.settled():
            self._last = raw
            changes = self.debouncer.update(raw, now)
        else:
            changes = []
        if self.adjudicated:
            changes = []  # the arbiter (or a flag) has ended the game
        elif changes and self.game_clock.timing is not None and not self.tracker.restoring:
            out += self.game_clock.start(now)  # (setting the board up is no move)
        if not changes and not self.tracker.prepared:
            self.tracker.prepare()  # between events, so the next one finds the turns listed
            self._replan = self._view_stale = True
        if self.suggester is not None and self.suggester.asked is not None:
            if changes:
                self.suggester.drop()  # the board moves on: a suggestion no longer applies
            elif self.suggester.thinking:
                out += self._suggested(now)
        for change in changes:
            cell = self.addr_cell.get(change.addr)
            if cell is None:
                continue  # an address with no cell (or a ghost on a diode-less matrix)
            value = change[1]
            if self.listeners:  # (a journal line rounds its time: not for nobody)
                self.record({"type": "sensor", "t": round(now, 3), "cell": cell,
                             "shows": value})
            if not self._held:
                self._held_since = now
            self._held.append((cell, value))
            self.revision += 1
        # Changes still settling on other cells happened at about the same time: hand
        # them to the tracker together (no order is known between them).
        if self._held and (self.debouncer.settled()
                           or now - self._held_since >= self.hold_limit):
            held, self._held = self._held, []
            out += self.emit(self.tracker.changes(held, now))
        if self.buttons is not None:
            for button, player in self.buttons.poll(now):
                out += self.press(button, player)
        ticked = self.tracker.tick(now)
        if ticked:
            out += self.emit(ticked)
        if self.setup.due is not None and now >= self.setup.due:
            errors = self.setup.expire(now, corrected=self.taken_back is not None
                                       or self.positioned is not None)
            out += self.emit(errors) if errors else []
        if now >= self.game_clock.falls_at and not self.adjudicated:
            out += self._flag_fall()
        if self.seat is not None:
            out += self._seated(now)
        if self._replan or (self._frame_due is not None and now >= self._frame_due):
            self._show(now)
        return out

    def act(self, op: str, value: str, player: str | None = None, *,
            asked: str | None = None) -> list[dict]:
        """One action of a player, the one place the terminal, the page, the demo and replay
        hand theirs to: ``lift`` or ``place`` on ``value``, a cell of the simulated board;
        ``press`` the button ``value`` (``player``: whose clock side, None for a shared
        button); ``choose`` the answer ``value`` (``asked``: the key of the question it
        answers, see :meth:`choose`); ``setup`` the setup text ``value``
        before the first move (see :meth:`set_up`, whose errors it raises). Returns the
        events it caused at once."""
        if op == "lift":
            self.sim_lift(value)
        elif op == "place":
            self.sim_place(value)
        elif op == "press":
            return self.press(value, player)
        elif op == "choose":
            return self.choose(value, asked)
        elif op == "setup":
            return self.set_up(value)
        else:
            raise ValueError(f"unknown action {op!r}; actions: {', '.join(ACTIONS)}")
        return []

    def press(self, button: str, player: str | None = None) -> list[dict]:
        """A button press; ``player`` names the side of a per-player clock button."""
        now = self.clock.now()
        item = {"type": "press", "t": round(now, 3), "button": button}
        self.record(item if player is None else {**item, "player": player})
        if button == "clock" and self.game_clock.ready() and not self.adjudicated:
            return self.game_clock.start(now)
        question = self._view_now().question
        if question is not None and not question.placed and button == "hint":
            self._view = self.tracker.view(self._view, option_cells=True)  # first needed now
            question = self._view.question
        step = None if question is None else answers.press(question, button, player)
        if step is not None:  # an answer on the board itself: hint offers, the clock confirms
            if step.chosen is not None:
                return self.choose(step.chosen, question.key)
            self._replan = self._view_stale = True
            self._view = replace(self.view, question=question.offering(step.offered))
            self.revision += 1
            return []
        if button == "hint" and question is None and self.suggester is not None:
            return self._hint(now)
        if player is None:
            return self.emit(self.tracker.press(button, now))
        return self.emit(self.tracker.press(button, now, player=player))

    def _hint(self, now: float) -> list[dict]:
        """``hint`` with no question open: the game's own marked cells first (Teblo's
        cutting squares), the engine's suggested turn at the next press (at the first,
        where the game marks none)."""
        before = self._view_now()
        cut_shown = bool(before.hint_cells) and now < before.hint_until
        out = self.emit(self.tracker.press("hint", now))
        if before.phase is Phase.IDLE and (cut_shown or not self._view_now().hint_cells) \
                and self.suggester.ask(self.tracker.state):
            self.revision += 1
        return out

    def _suggested(self, now: float) -> list[dict]:
        """The engine's answer, once it has come: journaled, shown until the board moves."""
        tip = self.suggester.poll()
        if tip is None:
            return []
        self._replan = self._view_stale = True
        self.revision += 1
        item = events.Suggestion(round(now, 3), tip.notation, tip.words,
                                 round(tip.win, 3)).to_json()
        self.record(item)
        return [item]

    def set_opponent(self, opponent: Opponent | None) -> None:
        """From now on ``opponent`` plays its side (None: both sides play at the board);
        the one before is closed."""
        if self.seat is not None:
            self.listeners.remove(self.seat.heard)
            self.seat.close()
        self.seat = None if opponent is None else Seat(opponent)
        if self.seat is None:
            self.tracker.expect(None)
        else:
            self.listeners.append(self.seat.heard)
            self.follow_seat()
        self._replan = self._view_stale = True
        self.revision += 1

    def follow_seat(self) -> None:
        """The tracker expects what the opponent's seat says its side may do now."""
        self.tracker.expect(*self.seat.expected(self))

    def _seated(self, now: float) -> list[dict]:
        """The opponent's turn, once it has come: journaled, lit until carried out."""
        out = self.seat.scan(self, now)
        if out:
            self._replan = self._view_stale = True
            self.revision += 1
        return out

    def choose(self, value: str, asked: str | None = None) -> list[dict]:
        """An answer; ``asked``: the key of the question it was given for
        (:attr:`boards.view.Question.key`), refused once another has taken its place."""
        now = self.clock.now()
        item = {"type": "answer", "t": round(now, 3), "value": value}
        self.record(item if asked is None else {**item, "asked": asked})
        return self.emit(self.tracker.choose(value, now, asked))

    def set_up(self, text: str) -> list[dict]:
        """Enter a setup before the first move (Tesulda: one or both sides' figures, in the
        text of a setup file): the game starts from it, journaled, and the board is checked
        against it (:class:`BoardSetup`). Raises :class:`rules.SetupError` listing
        every fault, or :class:`ServiceError` when a move is under way; nothing changes then.
        """
        if self.tracker.differing and not self.tracker.restoring:
            raise ServiceError("setup: a move is under way on the board; put it back first")
        new, item = self.setup.enter(text, self.clock.now())
        self.record(item)
        if self.sim is not None:
            self.hand.relabel(new.physical())
        self._replan = self._view_stale = True
        self.revision += 1
        return []

    def listen(self, corrections: queue.Queue) -> None:
        """Take an arbiter's corrections from afar (MQTT's) as they arrive on
        ``corrections``: each carried out at the next scan."""
        self.corrections = corrections

    def apply_corrections(self) -> list[dict]:
        """Carry out the corrections waiting in :attr:`corrections` (``{"action", "by",
        ...}``, as :meth:`correct` takes them); one the board cannot carry out is journaled
        as rejected, naming why."""
        out: list[dict] = []
        while self.corrections is not None and not self.corrections.empty():
            action, by, args = corrections.split_command(self.corrections.get())
            try:
                out += self.correct(action, by, **args)
            except (ServiceError, TypeError) as e:
                item = {"type": "rejected", "t": round(self.clock.now(), 3),
                        "reason": f"correction by {by}: {e}"}
                self.record(item)
                out.append(item)
        return out

    def correct(self, action: str, by: str, **args) -> list[dict]:
        """An arbiter's correction (see :mod:`sensorboard.corrections`), journaled with
        who made it. Raises :class:`ServiceError` naming what is wrong."""
        if self.adjudicated:
            raise ServiceError("the game has been adjudicated; start a new game")
        try:
            correction = corrections.parse(action, args)
        except corrections.CorrectionError as e:
            raise ServiceError(str(e)) from None
        item = {"type": "correction", "t": round(self.clock.now(), 3), "action": action,
                "by": by}
        try:
            out = corrections.carry_out(self, correction, item)
        except corrections.CorrectionError as e:
            raise ServiceError(str(e)) from None
        self._replan = self._view_stale = True
        self.revision += 1
        return out

    def adjudicate(self, t: float) -> None:
        """The arbiter has ended the game at ``t``: the board follows nothing more and the
        clocks stop."""
        self.adjudicated = True
        self.game_clock.stop(t)

    def put_position(self, state: rules.GameState, item: dict) -> None:
        """The arbiter's position ``state`` (its ``correction`` entry ``item``): the game
        goes on from it once the board shows it (the LEDs guide)."""
        self.tracker.put_right(state)
        self.taken_back, self.positioned = None, item

    # --- the game clock -------------------------------------------------------------------

    def _clock_changed(self, item: dict) -> None:
        """A ``clock`` entry of :attr:`game_clock`: journaled, and views redraw."""
        self.revision += 1
        self.record(item)

    def _flag_fall(self) -> list[dict]:
        """The running side's time is out: the game ends as the game's ruling says."""
        out = self.game_clock.fall(self.tracker.state)
        self.record(self.game_clock.flagged)
        self.adjudicated = True
        self._replan = self._view_stale = True
        return out

    def flush(self) -> list[dict]:
        return self.emit(self.tracker.flush(self.clock.now()))

    # --- the simulated magnets ----------------------------------------------------------

    def sim_lift(self, cell: str) -> None:
        """Take the top piece off ``cell`` into the player's hand (in a game of figures,
        the whole figure)."""
        self._hand().lift(cell)
        self.revision += 1

    def sim_place(self, cell: str) -> None:
        """Put down the piece (or figure) lifted last, or else a new piece from the
        mover's stock."""
        self._hand().place(cell, stock=self.tracker.state.stock_piece())
        self.revision += 1

    def sim_pieces(self, cell: str) -> int:
        return self._hand().count(cell)

    def _hand(self) -> SimHand:
        if self.hand is None:
            raise ServiceError(f"the {self.backend} backend has no simulated magnets")
        return self.hand

    def sensed(self) -> bool:
        """Whether every change made to the board so far has been read by a scan (after
        its contacts stopped bouncing) and passed on."""
        return (self.debouncer.settled() and not self._held
                and (self.sim is None or self.sim.quiet_after() < self.sensors.read_at))

    def settled(self) -> bool:
        return (self.sensed() and self._board_timer() is None and self.tracker.prepared
                and (self.buttons is None or self.buttons.settled())
                and (self.seat is None or not self.seat.thinking(self)))

    # --- outputs ------------------------------------------------------------------------

    def emit(self, events: list[Event]) -> list[dict]:
        """The tracker's ``events`` journaled and handed out, each with what the game clock
        did after it (and the game's end where a turn ended it)."""
        self._replan = self._view_stale = True
        if not events:
            if self.seat is not None:
                self.follow_seat()
            return []
        if self.suggester is not None and self.suggester.asked is not None:
            self.suggester.drop()
        self.revision += 1
        out = []
        committed = False
        timed = self.game_clock.timing is not None
        for event in events:
            item = tracker_json(event)
            if self.listeners:
                self.record(item)
            out.append(item)
            if item["type"] in ("move", "takeback"):  # (the game clock's business, no other)
                if timed:
                    out += self.game_clock.after(event, self.adjudicated)
                self.taken_back = item if item["type"] == "takeback" else None
                self.positioned = None
                committed = committed or item["type"] == "move"
        state = self.tracker.state
        if committed and state.outcome() is not None:
            end = {"type": "end", "t": out[-1]["t"], "outcome": outcome_json(state),
                   "result": result_text(state)}
            self.record(end)
            out += self.game_clock.stop(end["t"])
        if self.seat is not None:
            self.follow_seat()
        return out

    def record(self, item: dict) -> None:
        for listener in self.listeners:
            listener(item)

    def _show(self, now: float) -> None:
        view = self._view_now()
        self._replan = False  # (the view is fresh: _view_now)
        frame = hints.plan(view, now)
        self._frame_due = hints.next_change(view, now)
        tip = self.suggester.hint if self.suggester is not None else None
        if tip is not None and view.phase is Phase.IDLE:
            frame, self._frame_due = suggest.frame(tip, now), suggest.next_change(tip, now)
        theirs = self.seat.frame(self, now) if self.seat is not None else None
        if theirs is not None and view.phase is Phase.IDLE:
            frame, self._frame_due = theirs, self.seat.next_change(now)
        if frame == self.frame:
            return
        before, self.frame = self.frame, frame
        self.revision += 1
        led, colour = self.layout.cell_led, self.palette
        # Only the LEDs that change are set, in one call (each cell has its own LED: the
        # order does not matter, so the sets of the two frames tell them).
        changed = [(led[cell], colour[role]) for cell, role in frame.items() - before.items()]
        gone = before.keys() - frame.keys()
        if gone:
            changed += [(led[cell], hints.OFF) for cell in gone]
        self.strip.set_many(changed)
        self.strip.show()

    def result(self) -> str:
        """The game's result in words (``dark wins (clear out of time)``), ``*`` while it
        runs."""
        return self.flagged["result"] if self.flagged else result_text(self.tracker.state)

    def final(self) -> dict:
        state = self.tracker.state
        return {"type": "final",
                "position": {c: list(p) for c, p in sorted(state.physical().items())},
                "to_move": state.to_move,
                "outcome": outcome_json(state) or (self.flagged or {}).get("outcome"),
                "stock": state.stock(), "captured": state.captured()}

