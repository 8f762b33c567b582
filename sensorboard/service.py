"""One board, wired: scanner -> debouncer -> tracker -> hint planner -> LEDs, and the recorder.

The service is driven by :meth:`BoardService.step`, one matrix scan at a time, on a
real or a virtual clock; it does not know which.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import replace

import rules
from boards import answers, hints
from boards.dice import DICE, ElectronicDice
from boards.layout import Layout
from boards.sensing import classify, observer
from boards.tracker import (
    Committed,
    Error,
    Event,
    Prompt,
    Rejected,
    Rolled,
    Settled,
    TakenBack,
    Tracker,
)
from boards.view import Phase, TurnView
from hardware.analog import ValueDebouncer
from hardware.backends import Hardware, HardwareConfig, open_backend
from hardware.base import Clock, LedStrip
from hardware.debounce import Debouncer
from hardware.hand import SimHand
from hardware.matrix import ghost_candidates
from sensorboard import clocks, corrections, events, suggest
from sensorboard.opponent import Opponent, Seat

SCAN_PERIOD = HardwareConfig.scan_period  # the defaults; a board's config may change them
DEBOUNCE = HardwareConfig.debounce
# A player's actions (see BoardService.act), each with the field that names its value in a
# replay line or a demo script (``setup``: the text, as POST /api/setup spells it).
ACTIONS = {"lift": "cell", "place": "cell", "choose": "value", "press": "button",
           "setup": "text"}


class ServiceError(ValueError):
    """A board that cannot be set up as asked (backend, layout, options)."""


def typed(event: Event) -> events.Event:
    """The board event (:mod:`sensorboard.events`) of a tracker event."""
    t = round(event.t, 3)
    match event:
        case Committed(ply=ply, player=player, move=move):
            return events.Move(t, ply, player, move)
        case Error(cells=cells, attackers=attackers):
            return events.Error(t, cells, {"attackers": list(attackers)} if attackers else {})
        case Prompt(options=options):
            return events.Prompt(t, options)
        case Rejected(reason=reason):
            return events.Rejected(t, reason)
        case Rolled(player=player, value=value):
            return events.Roll(t, player, value)
        case TakenBack(ply=ply, player=player, move=move):
            return events.Takeback(t, ply, player, move)
        case Settled(options=options, answer=answer):
            return events.Settled(t, options, answer)
    raise TypeError(event)


def event_json(event: Event) -> dict:
    """The JSON form of a tracker event, as replay prints it and the journal stores it."""
    return typed(event).to_json()


def outcome_json(state: rules.GameState) -> dict | None:
    outcome = state.outcome()
    return None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}


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
        self.timing = timing
        self.flagged: dict | None = None  # the ``end`` entry of a flag fall
        if hardware is None:
            config = config or HardwareConfig()
            tweaks = {k: v for k, v in (("bounce", bounce), ("seed", seed)) if v is not None}
            hardware = open_backend(backend, layout, replace(config, **tweaks), clock)
        self.hardware = hardware
        self.backend = hardware.name
        self.scanner = hardware.matrix
        self.strip: LedStrip = hardware.strip
        self.buttons = hardware.buttons
        self.sim = hardware.magnets
        self.hand: SimHand | None = None  # a player's hand over the simulated magnets
        if self.sim is not None:
            self.hand = SimHand(self.sim, layout.cell_sensor, layout.magnets,
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
        # The electronic die rolls from ``seed``; the journal records every roll.
        die_seed = seed if seed is not None else self.config.seed
        die = ElectronicDice(die_seed or 0) if dice == "electronic" and state.HAS_CHANCE else None
        blind = frozenset(state.GEOMETRY.names) - layout.cell_sensor.keys()
        self.tracker = Tracker(state, observe=self.observe, error_delay=error_delay,
                               blind=blind, dice=die)
        self._held: list = []
        self._held_since = 0.0
        self.addr_cell = layout.sensor_cell
        self.frame: dict[str, str] = {}
        self.unreadable: frozenset[str] = frozenset()  # cells a diode-less matrix cannot read
        self.revision = 0  # counts what a view could show differently; views redraw on change
        self._raw: object = None
        self._last: object = None
        self._read_at = float("-inf")  # the time of the last scan
        self._trusted: object = None
        self._view: TurnView | None = None
        self._dirty = True
        self._frame_due: float | None = None
        self.taken_back: dict | None = None  # the last move taken back, until the next commit
        self.positioned: dict | None = None  # the arbiter's position correction, likewise
        self._setup_due: float | None = None  # when a board still not set up is an error
        self.suggester = suggest.Suggester() if engine_hints else None  # hint: the engine's turn
        self.seat: Seat | None = None  # the opponent's, when one plays from elsewhere
        self._boot()
        self.set_opponent(opponent)

    def close(self) -> None:
        """Darken the LEDs, release the hardware and stop the engine's search."""
        if self.suggester is not None:
            self.suggester.close()
        if self.seat is not None:
            self.seat.close()
        self.hardware.close()

    @property
    def view(self) -> TurnView:
        """The turn's read model as it stands (:class:`boards.view.TurnView`): what the
        LEDs, the page and the terminal show."""
        if self._view_stale or self._view is None:
            self._view = self.tracker.view(self._view)
            self._view_stale = False
        return self._view

    @property
    def _dirty(self) -> bool:
        """The tracker may have changed since the LEDs were last planned."""
        return self._replan

    @_dirty.setter
    def _dirty(self, value: bool) -> None:
        self._replan = value
        if value:
            self._view_stale = True

    def _boot(self) -> None:
        """Read the board until it is stable and take that as what the sensors show now."""
        start = now = self.clock.now()
        for _ in range(1000):
            self.debouncer.update(self._read(now), now)
            if self.debouncer.settled() and now - start >= self.debouncer.window_s:
                break
            now += self.scan_period
        seen = self.debouncer.state()
        rest = self.observe(())
        differ = []
        for addr, cell in self.addr_cell.items():
            value = seen.get(addr, rest) if self.analog else addr in seen
            if self.tracker.current[cell] != value:
                differ.append((cell, value))
        if differ and self.resumed:  # put the board as the journal says, then play on
            self.tracker.put_right(shown=dict(differ))
            self.record({"type": "resume", "t": round(self.clock.now(), 3),
                         "cells": self.tracker.restore_cells()})
        elif differ and self.tracker.state.move_stack:  # a position set, not a new game
            self._emit(self.tracker.changes(differ, self.clock.now()))
        elif differ:  # a new game on a board not set up as it starts
            self.tracker.put_right(shown=dict(differ))
            self._report_setup()
        self._show(self.clock.now())

    def _report_setup(self) -> None:
        """Before the first move, a board that differs from the start position (a figure
        missing from its square, one where none belongs) is put right first: the LEDs
        show each such cell at once, and if the board still differs after the error delay
        (a board whose first reading comes late has caught up by then) an error event
        names them."""
        if self.tracker.restoring:
            self._setup_due = self.clock.now() + self.tracker.error_delay

    def _setup_error(self, now: float) -> list[dict]:
        self._setup_due = None
        tracker = self.tracker
        if (not tracker.restoring or tracker.state.move_stack or self.taken_back is not None
                or self.positioned is not None):
            return []
        return self._emit([Error(now, tracker.restore_cells())])

    def next_timer(self) -> float | None:
        """When :meth:`step` will next have something to say if nothing else happens."""
        due = [t for t in (self._board_timer(), self.timing and clocks.flag_at(self.timing))
               if t is not None]
        return min(due, default=None)

    def _board_timer(self) -> float | None:
        """When the board itself (not the game clock) next has something to say."""
        due = [t for t in (self.tracker.next_timer(), self._setup_due) if t is not None]
        return min(due, default=None)

    def _read(self, now: float):
        """One scan: closed addresses (binary) or each address's class (analog). On a
        matrix without diodes the cells ghosting could be faking keep the state the
        tracker last saw and are reported as unreadable: never turned into pieces."""
        self._read_at = now
        if not self.analog:
            raw = self.scanner.read()
            if self.layout.diodes:
                return raw
            if raw != self._raw:
                self._raw = raw
                ghosts = ghost_candidates(raw) if len(raw) >= 3 else frozenset()
                self._set_unreadable(ghosts, now)
                if ghosts:  # they keep what the tracker last saw there
                    current = self.tracker.current
                    seen = {a for a in ghosts if a in self.addr_cell
                            and current[self.addr_cell[a]]}
                    raw = (raw - ghosts) | seen
                self._trusted = raw
            return self._trusted
        thresholds = self.layout.thresholds
        cells = self.addr_cell
        return {a: classify(v, thresholds) for a, v in self.scanner.read().items() if a in cells}

    # --- one scan ---------------------------------------------------------------------

    def _set_unreadable(self, ghosts: frozenset, now: float) -> None:
        cells = frozenset(self.addr_cell[a] for a in ghosts if a in self.addr_cell)
        if cells != self.unreadable:
            self.unreadable = cells
            self.revision += 1
            self.record({"type": "unreadable", "t": round(now, 3), "cells": sorted(cells)})

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
        elif changes and self.timing is not None and self.timing.phase is clocks.Phase.READY \
                and not self.tracker.restoring:  # setting the board up is no move
            out.append(self._set_clock(clocks.start(self.timing, now), now, "start"))
        if not changes and not self.tracker.prepared:
            self.tracker.prepare()  # between events, so the next one finds the turns listed
            self._dirty = True
        if changes and self.suggester is not None:
            self.suggester.drop()  # the board moves on: a suggestion no longer applies
        if self.suggester is not None and self.suggester.thinking:
            out += self._suggested(now)
        for change in changes:
            cell = self.addr_cell.get(change.addr)
            if cell is None:
                continue  # an address with no cell (or a ghost on a diode-less matrix)
            value = change[1]
            self.record({"type": "sensor", "t": round(now, 3), "cell": cell, "shows": value})
            if not self._held:
                self._held_since = now
            self._held.append((cell, value))
            self.revision += 1
        # Changes still settling on other cells happened at about the same time: hand
        # them to the tracker together (no order is known between them).
        if self._held and (self.debouncer.settled()
                           or now - self._held_since >= self.hold_limit):
            held, self._held = self._held, []
            out += self._emit(self.tracker.changes(held, now))
        if self.buttons is not None:
            for button, player in self.buttons.poll(now):
                out += self.press(button, player)
        ticked = self.tracker.tick(now)
        if ticked:
            out += self._emit(ticked)
        if self._setup_due is not None and now >= self._setup_due:
            out += self._setup_error(now)
        flag = self.timing and not self.adjudicated and clocks.flag_at(self.timing)
        if flag and now >= flag:
            out += self._flag_fall()
        if self.seat is not None:
            out += self._seated(now)
        if self._dirty or (self._frame_due is not None and now >= self._frame_due):
            self._show(now)
        return out

    def act(self, op: str, value: str, player: str | None = None) -> list[dict]:
        """One action of a player, the one place the terminal, the page, the demo and replay
        hand theirs to: ``lift`` or ``place`` on ``value``, a cell of the simulated board;
        ``press`` the button ``value`` (``player``: whose clock side, None for a shared
        button); ``choose`` the answer ``value``; ``setup`` the setup text ``value``
        before the first move (see :meth:`set_up`, whose errors it raises). Returns the
        events it caused at once."""
        if op == "lift":
            self.sim_lift(value)
        elif op == "place":
            self.sim_place(value)
        elif op == "press":
            return self.press(value, player)
        elif op == "choose":
            return self.choose(value)
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
        if button == "clock" and self.timing is not None \
                and self.timing.phase is clocks.Phase.READY and not self.adjudicated:
            return [self._set_clock(clocks.start(self.timing, now), now, "start")]
        question = self.view.question
        if question is not None and not question.placed and button == "hint":
            self._view = self.tracker.view(self._view, option_cells=True)  # first needed now
            question = self._view.question
        step = None if question is None else answers.press(question, button, player)
        if step is not None:  # an answer on the board itself: hint offers, the clock confirms
            if step.chosen is not None:
                return self.choose(step.chosen)
            self._dirty = True
            self._view = replace(self.view, question=question.offering(step.offered))
            self.revision += 1
            return []
        if button == "hint" and question is None and self.suggester is not None:
            return self._hint(now)
        if player is None:
            return self._emit(self.tracker.press(button, now))
        return self._emit(self.tracker.press(button, now, player=player))

    def _hint(self, now: float) -> list[dict]:
        """``hint`` with no question open: the game's own marked cells first (Teblo's
        cutting squares), the engine's suggested turn at the next press (at the first,
        where the game marks none)."""
        before = self.view
        cut_shown = bool(before.hint_cells) and now < before.hint_until
        out = self._emit(self.tracker.press("hint", now))
        if before.phase is Phase.IDLE and (cut_shown or not self.view.hint_cells) \
                and self.suggester.ask(self.tracker.state):
            self.revision += 1
        return out

    def _suggested(self, now: float) -> list[dict]:
        """The engine's answer, once it has come: journaled, shown until the board moves."""
        tip = self.suggester.poll()
        if tip is None:
            return []
        self._dirty = True
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
            self.seat.expect(self)
        self._dirty = True
        self.revision += 1

    def _seated(self, now: float) -> list[dict]:
        """The opponent's turn, once it has come: journaled, lit until carried out."""
        out = self.seat.scan(self, now)
        if out:
            self._dirty = True
            self.revision += 1
        return out

    def choose(self, value: str) -> list[dict]:
        now = self.clock.now()
        self.record({"type": "answer", "t": round(now, 3), "value": value})
        return self._emit(self.tracker.choose(value, now))

    def set_up(self, text: str) -> list[dict]:
        """Enter a setup before the first move (Tesulda: one or both sides' figures, in the
        text of a setup file): the game starts from it, journaled, and the board is checked
        against it (see :meth:`_report_setup`). Raises :class:`rules.SetupError` listing
        every fault, or :class:`ServiceError` when a move is under way; nothing changes then.
        """
        tracker = self.tracker
        if tracker.differing and not tracker.restoring:
            raise ServiceError("setup: a move is under way on the board; put it back first")
        new = tracker.state.set_up(text)
        self.record({"type": "setup", "t": round(self.clock.now(), 3), "setup": text,
                     "position": new.position_str()})
        tracker.put_right(new)
        if self.sim is not None:
            self.hand.relabel(new.physical())
        self._dirty = True
        self.revision += 1
        self._report_setup()
        return []

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
        t = round(self.clock.now(), 3)
        item = {"type": "correction", "t": t, "action": action, "by": by}
        match correction:
            case corrections.Takeback(turns):
                return self._take_back(turns, {**item, "turns": turns})
            case corrections.SetPosition(text):
                self._set_position(text, item)
            case corrections.AdjustTime(player, seconds):
                return self._correct_time(item, player, seconds)
            case corrections.Adjudication(result, reason):
                self.record({**item, "result": result, "reason": reason})
                self.record({"type": "end", "t": t, "result": result, "reason": reason})
                self.adjudicated = True
                self._stop_clock(t)
        self._dirty = True
        self.revision += 1
        return []

    def _take_back(self, turns: int, item: dict) -> list[dict]:
        played = len(self.tracker.state.move_stack)
        if turns > played:
            raise ServiceError(f"takeback: only {played} turns were played")
        self.record(item)
        out: list[dict] = []
        for _ in range(turns):
            out += self._emit(self.tracker.press("takeback", self.clock.now()))
        return out

    def _set_position(self, text: str, item: dict) -> None:
        try:
            new = rules.from_position(self.tracker.state.NAME, text)
        except rules.RulesError as e:
            raise ServiceError(f"position: {e}") from None
        item = {**item, "position": new.position_str()}
        self.record(item)
        self.tracker.put_right(new)
        self.taken_back, self.positioned = None, item
        if new.outcome() is not None:  # a finished position ends the game, as a turn would
            self.record({"type": "end", "t": item["t"], "outcome": outcome_json(new),
                         "result": result_text(new)})
            self._stop_clock(item["t"])

    def _correct_time(self, item: dict, player: str, seconds: int) -> list[dict]:
        """The arbiter adds ``seconds`` to ``player``'s clock (takes them if negative)."""
        players = self.tracker.state.PLAYERS
        if self.timing is None:
            raise ServiceError("time: this game has no time control")
        if player not in players:
            raise ServiceError(f"time: player must be one of {', '.join(players)}, "
                               f"got {player!r}")
        self.record({**item, "player": player, "seconds": seconds})
        now = self.clock.now()
        return [self._set_clock(clocks.adjust(self.timing, player, seconds, now), now,
                                "correction")]

    # --- the game clock -------------------------------------------------------------------

    def _set_clock(self, timing: clocks.GameClock, t: float, why: str) -> dict:
        """The clock's new value, journaled (``why``: start, turn, takeback, correction,
        flag, end)."""
        self.timing = timing
        self.revision += 1
        item = {"type": "clock", "t": round(t, 3), "why": why, **clocks.to_json(timing, t)}
        self.record(item)
        return item

    def _stop_clock(self, t: float) -> list[dict]:
        """The game has ended (a result on the board, an arbiter's): the clocks stop."""
        if self.timing is None or self.timing.phase not in (clocks.Phase.RUNNING,
                                                            clocks.Phase.READY):
            return []
        return [self._set_clock(clocks.stop(self.timing, t), t, "end")]

    def _clock_after(self, event: Event) -> list[dict]:
        """A committed turn ends the mover's time; a takeback gives the turn back (and
        sets the clock going again when it took back the turn that ended the game)."""
        timing = self.timing
        again = timing is not None and timing.phase is clocks.Phase.STOPPED \
            and isinstance(event, TakenBack) and not self.adjudicated
        if timing is None or (timing.phase is not clocks.Phase.RUNNING and not again):
            return []
        if isinstance(event, Committed):
            nxt = timing.players[(timing.players.index(event.player) + 1)
                                 % len(timing.players)]
            return [self._set_clock(clocks.end_turn(timing, event.t, nxt), event.t, "turn")]
        if isinstance(event, TakenBack):
            return [self._set_clock(clocks.switch(timing, event.t, event.player), event.t,
                                    "takeback")]
        return []

    def _flag_fall(self) -> list[dict]:
        """The running side's time is out: the game ends as the game's ruling says."""
        flagged, at = self.timing.running, clocks.flag_at(self.timing)
        out = [self._set_clock(clocks.fall(self.timing), at, "flag")]
        winner, reason = clocks.flag_outcome(self.tracker.state, flagged)
        text = f"draw ({reason})" if winner is None else f"{winner} wins ({reason})"
        end = {"type": "end", "t": round(at, 3), "outcome": {"winner": winner, "reason": reason},
               "result": text}
        self.record(end)
        self.flagged = end
        self.adjudicated = True
        self._dirty = True
        return out

    def flush(self) -> list[dict]:
        return self._emit(self.tracker.flush(self.clock.now()))

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
                and (self.sim is None or self.sim.quiet_after() < self._read_at))

    def settled(self) -> bool:
        return (self.sensed() and self._board_timer() is None and self.tracker.prepared
                and (self.buttons is None or self.buttons.settled())
                and (self.seat is None or not self.seat.thinking(self)))

    # --- outputs ------------------------------------------------------------------------

    def _emit(self, events: list[Event]) -> list[dict]:
        if events and self.suggester is not None:
            self.suggester.drop()
        self._dirty = True
        if events:
            self.revision += 1
        out = []
        for event in events:
            item = event_json(event)
            self.record(item)
            out += [item, *self._clock_after(event)]
            if item["type"] in ("move", "takeback"):
                self.taken_back = item if item["type"] == "takeback" else None
                self.positioned = None
        state = self.tracker.state
        if any(isinstance(e, Committed) for e in events) and state.outcome() is not None:
            end = {"type": "end", "t": out[-1]["t"], "outcome": outcome_json(state),
                   "result": result_text(state)}
            self.record(end)
            out += self._stop_clock(end["t"])
        if self.seat is not None:
            self.seat.expect(self)
        return out

    def record(self, item: dict) -> None:
        for listener in self.listeners:
            listener(item)

    def _show(self, now: float) -> None:
        view = self.view
        self._dirty = False
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
        self.frame = frame
        self.revision += 1
        self.strip.fill(hints.OFF)
        for cell, role in frame.items():
            self.strip.set(self.layout.cell_led[cell], self.palette[role])
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


def result_text(state: rules.GameState) -> str:
    outcome = state.outcome()
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"{outcome.winner} wins ({outcome.reason})"
