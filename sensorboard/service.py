"""One board, wired: scanner -> debouncer -> tracker -> hint planner -> LEDs, and the recorder.

The service is driven by :meth:`BoardService.step`, one matrix scan at a time, on a
real or a virtual clock; it does not know which.
"""

from __future__ import annotations

from collections.abc import Callable

import rules
from boards import hints
from boards.layout import Layout
from boards.tracker import Committed, Error, Event, Prompt, Rejected, Tracker
from hardware.base import Clock, LedStrip, SensorMatrix
from hardware.debounce import Debouncer
from hardware.leds import MemoryStrip

SCAN_PERIOD = 0.002
DEBOUNCE = 0.010
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
        self.scanner: SensorMatrix = self._scanner(backend, state, bounce, seed)
        self.strip: LedStrip = strip or MemoryStrip(layout.led_count)
        self.debouncer = Debouncer(DEBOUNCE)
        self.tracker = Tracker(state, error_delay=error_delay)
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
            for cell, pieces in state.physical().items():
                for _ in pieces:
                    self.sim.place(layout.cell_sensor[cell])
            self.sim.bounce = bounce
            return sim_scanner(self.sim, layout.row_pins, layout.col_pins)
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
            self.debouncer.update(self.scanner.read(), now)
            if self.debouncer.settled() and now - start >= DEBOUNCE:
                break
            now += SCAN_PERIOD
        seen = self.debouncer.state()
        for addr, cell in self.addr_cell.items():
            closed = addr in seen
            if self.tracker.current[cell] != closed:
                self._emit(self.tracker.change(cell, closed, self.clock.now()))
        self._show(self.clock.now())

    # --- one scan ---------------------------------------------------------------------

    def step(self) -> list[dict]:
        now = self.clock.now()
        out: list[dict] = []
        for change in self.debouncer.update(self.scanner.read(), now):
            cell = self.addr_cell.get(change.addr)
            if cell is None:
                continue  # an address with no cell (or a ghost on a diode-less matrix)
            self.record({"type": change.closed and "place" or "lift", "t": round(now, 3),
                         "cell": cell})
            out += self._emit(self.tracker.change(cell, change.closed, now))
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
        self._sim().lift(self.layout.cell_sensor[cell])

    def sim_place(self, cell: str) -> None:
        self._sim().place(self.layout.cell_sensor[cell])

    def sim_pieces(self, cell: str) -> int:
        return self._sim()._count.get(self.layout.cell_sensor[cell], 0)

    def _sim(self):
        if self.sim is None:
            raise ServiceError(f"the {self.backend} backend has no simulated magnets")
        return self.sim

    def settled(self) -> bool:
        now = self.clock.now()
        return (self.debouncer.settled() and (self.sim is None or self.sim.quiet_after() <= now)
                and self.tracker.next_timer() is None)

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
