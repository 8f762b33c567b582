"""One board, wired: scanner -> debouncer -> tracker -> hint planner -> LEDs, and the recorder.

The service is driven by :meth:`BoardService.step`, one matrix scan at a time, on a
real or a virtual clock; it does not know which.
"""

from __future__ import annotations

from collections.abc import Callable

import rules
from boards import hints
from boards.layout import Layout
from boards.sensing import classify, observer
from boards.tracker import Committed, Error, Event, Prompt, Rejected, TakenBack, Tracker
from hardware.analog import ValueDebouncer
from hardware.base import Clock, LedStrip, SensorMatrix
from hardware.debounce import Debouncer
from hardware.leds import MemoryStrip

SCAN_PERIOD = 0.002
DEBOUNCE = 0.010
HOLD_LIMIT = 5 * DEBOUNCE  # longest wait for a neighbour's change to settle
BACKENDS = ("sim", "gpio", "serial")


class ServiceError(ValueError):
    """A board that cannot be set up as asked (backend, layout, options)."""


def event_json(event: Event) -> dict:
    """The JSON form of a tracker event, as replay prints it and the journal stores it."""
    t = round(event.t, 3)
    if isinstance(event, Committed):
        return {"type": "move", "t": t, "ply": event.ply, "player": event.player,
                "move": event.move}
    if isinstance(event, Error):
        return {"type": "error", "t": t, "cells": event.cells}
    if isinstance(event, Prompt):
        return {"type": "prompt", "t": t, "options": event.options}
    if isinstance(event, Rejected):
        return {"type": "rejected", "t": t, "reason": event.reason}
    if isinstance(event, TakenBack):
        return {"type": "takeback", "t": t, "ply": event.ply, "player": event.player,
                "move": event.move}
    raise TypeError(event)


def outcome_json(state: rules.GameState) -> dict | None:
    outcome = state.outcome()
    return None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}


class BoardService:
    def __init__(
        self,
        state: rules.GameState,
        layout: Layout,
        *,
        clock: Clock,
        backend: str = "sim",
        strip: LedStrip | None = None,
        bounce: float = 0.003,
        seed: int = 0,
        error_delay: float = 1.0,
        listeners: list[Callable[[dict], None]] | None = None,
    ) -> None:
        if layout.game != state.NAME:
            raise ServiceError(f"{layout.path}: layout is for {layout.game}, not {state.NAME}")
        self.layout = layout
        self.clock = clock
        self.backend = backend
        self.listeners = list(listeners or [])
        self.sim = None
        self.observe = observer(layout)
        self.analog = layout.sensor == "analog"
        self.scanner: SensorMatrix = self._scanner(backend, state, bounce, seed)
        self.strip: LedStrip = strip or MemoryStrip(layout.led_count)
        if self.analog:
            self.debouncer = ValueDebouncer(DEBOUNCE, rest=self.observe(()))
        else:
            self.debouncer = Debouncer(DEBOUNCE)
        self.tracker = Tracker(state, observe=self.observe, error_delay=error_delay)
        self._held: list = []
        self._held_since = 0.0
        self.buttons = None
        gpio = getattr(self.scanner, "gpio", None)
        if layout.buttons and gpio is not None:
            from hardware.buttons import Buttons

            self.buttons = Buttons(gpio, layout.buttons)
        self.addr_cell = layout.sensor_cell
        self.frame: dict[str, str] = {}
        self._boot()

    def _scanner(self, backend: str, state: rules.GameState, bounce: float, seed: int):
        layout = self.layout
        if backend == "sim":
            from hardware.sim import SimBoard, sim_scanner

            self.sim = SimBoard(layout.rows, layout.cols, clock=self.clock,
                                diodes=layout.diodes, bounce=bounce, seed=seed)
            self.sim.bounce = 0.0  # the set-up position is on the board before time starts
            self._stacks = {cell: list(p) for cell, p in state.physical().items()}
            self._hand: list[str] = []
            for cell, pieces in self._stacks.items():
                for piece in pieces:
                    self.sim.place(layout.cell_sensor[cell], self._strength(piece))
            self.sim.bounce = bounce
            if self.analog:
                from hardware.analog import SimHallMatrix

                return SimHallMatrix(self.sim, seed=seed)
            return sim_scanner(self.sim, layout.row_pins, layout.col_pins)
        if backend == "gpio" and self.analog:
            raise ServiceError(f"{layout.path}: analog Hall sensors need an ADC; on a Pi they "
                               "come through the serial backend (to come); use --backend sim")
        if backend == "gpio":
            from hardware.matrix import GpioMatrixScanner

            try:
                return GpioMatrixScanner.from_rpi(layout.row_pins, layout.col_pins)
            except (ImportError, RuntimeError) as e:
                raise ServiceError(f"gpio backend: cannot open RPi.GPIO ({e}); "
                                   "on a Pi install the 'pi' (or 'pi5') extra") from None
        if backend == "serial":
            raise ServiceError("serial backend: the microcontroller bridge is not built yet; "
                               "use --backend sim or gpio")
        raise ServiceError(f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}")

    def _boot(self) -> None:
        """Read the board until it is stable and take that as what the sensors show now."""
        start = now = self.clock.now()
        for _ in range(1000):
            self.debouncer.update(self._read(), now)
            if self.debouncer.settled() and now - start >= DEBOUNCE:
                break
            now += SCAN_PERIOD
        seen = self.debouncer.state()
        rest = self.observe(())
        differ = []
        for addr, cell in self.addr_cell.items():
            value = seen.get(addr, rest) if self.analog else addr in seen
            if self.tracker.current[cell] != value:
                differ.append((cell, value))
        if differ:  # the board is not set up as the game starts: the tracker says what's wrong
            self._emit(self.tracker.changes(differ, self.clock.now()))
        self._show(self.clock.now())

    def _read(self):
        """One scan: closed addresses (binary) or each address's class (analog)."""
        if not self.analog:
            return self.scanner.read()
        thresholds = self.layout.thresholds
        cells = self.addr_cell
        return {a: classify(v, thresholds) for a, v in self.scanner.read().items() if a in cells}

    # --- one scan ---------------------------------------------------------------------

    def step(self) -> list[dict]:
        now = self.clock.now()
        out: list[dict] = []
        changes = self.debouncer.update(self._read(), now)
        if not changes and not self.tracker.prepared:
            self.tracker.prepare()  # between turns, so the next lift finds the turns listed
        for change in changes:
            cell = self.addr_cell.get(change.addr)
            if cell is None:
                continue  # an address with no cell (or a ghost on a diode-less matrix)
            value = change[1]
            self.record({"type": "sensor", "t": round(now, 3), "cell": cell, "shows": value})
            if not self._held:
                self._held_since = now
            self._held.append((cell, value))
        # Changes still settling on other cells happened at about the same time: hand
        # them to the tracker together (no order is known between them).
        if self._held and (not self.debouncer.pending()
                           or now - self._held_since >= HOLD_LIMIT):
            held, self._held = self._held, []
            out += self._emit(self.tracker.changes(held, now))
        if self.buttons is not None:
            for name in self.buttons.poll(now):
                out += self.press(name)
        out += self._emit(self.tracker.tick(now))
        self._show(now)
        return out

    def press(self, button: str) -> list[dict]:
        return self._emit(self.tracker.press(button, self.clock.now()))

    def choose(self, value: str) -> list[dict]:
        return self._emit(self.tracker.choose(value, self.clock.now()))

    def flush(self) -> list[dict]:
        return self._emit(self.tracker.flush(self.clock.now()))

    # --- the simulated magnets ----------------------------------------------------------

    def sim_lift(self, cell: str) -> None:
        """Take the top piece off ``cell`` into the player's hand."""
        sim = self._sim()
        if not self._stacks.get(cell):
            raise ValueError(f"lift {cell}: there is no piece on {cell}")
        sim.lift(self.layout.cell_sensor[cell])
        self._hand.append(self._stacks[cell].pop())

    def sim_place(self, cell: str) -> None:
        """Put down the piece lifted last, or else a new piece from the mover's stock."""
        sim = self._sim()
        state = self.tracker.state
        piece = self._hand.pop() if self._hand else state.stock_piece()
        sim.place(self.layout.cell_sensor[cell], self._strength(piece))
        self._stacks.setdefault(cell, []).append(piece)

    def sim_pieces(self, cell: str) -> int:
        self._sim()
        return len(self._stacks.get(cell, ()))

    def _strength(self, piece: str) -> float:
        return self.layout.magnets.get(piece, 1.0)

    def _sim(self):
        if self.sim is None:
            raise ServiceError(f"the {self.backend} backend has no simulated magnets")
        return self.sim

    def settled(self) -> bool:
        now = self.clock.now()
        return (self.debouncer.settled() and not self._held
                and (self.sim is None or self.sim.quiet_after() <= now)
                and self.tracker.next_timer() is None and self.tracker.prepared
                and (self.buttons is None or self.buttons.settled()))

    # --- outputs ------------------------------------------------------------------------

    def _emit(self, events: list[Event]) -> list[dict]:
        out = [event_json(e) for e in events]
        for item in out:
            self.record(item)
        state = self.tracker.state
        if any(isinstance(e, Committed) for e in events) and state.outcome() is not None:
            end = {"type": "end", "t": out[-1]["t"], "outcome": outcome_json(state),
                   "result": result_text(state)}
            self.record(end)
        return out

    def record(self, item: dict) -> None:
        for listener in self.listeners:
            listener(item)

    def _show(self, now: float) -> None:
        frame = hints.plan(self.tracker, now)
        if frame == self.frame:
            return
        self.frame = frame
        self.strip.fill(hints.OFF)
        for cell, role in frame.items():
            self.strip.set(self.layout.cell_led[cell], hints.PALETTE[role])
        self.strip.show()

    def final(self) -> dict:
        state = self.tracker.state
        return {"type": "final",
                "position": {c: list(p) for c, p in sorted(state.physical().items())},
                "to_move": state.to_move, "outcome": outcome_json(state)}


def result_text(state: rules.GameState) -> str:
    outcome = state.outcome()
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"{outcome.winner} wins ({outcome.reason})"
