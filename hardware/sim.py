"""The simulated board: magnets, reed contacts that bounce, and an electrical model of the
switch matrix behind fake-rpi's RPi.GPIO API, so the real scanner code runs unchanged in tests.

Electrical model (what SimGPIO.input() returns for a pin of the matrix):

* A closed contact joins its row and column. With diodes (anode at the row) current only
  flows row -> column; without diodes a contact conducts both ways and a row configured as
  input (high-Z) passes current on, so three closed corners of a rectangle light the fourth
  (ghosting).
* A net that holds an output driven LOW reads LOW even if it also holds an output driven HIGH
  (on hardware that is a short between two pins; the model lets LOW win).
* A net with no output on it reads its pull resistors: HIGH if it has a pull-up and no
  pull-down, otherwise LOW. Pulls are weak and never fight a driven pin. With diodes each pin
  is judged alone (a column never reaches a row's pull through a diode). A floating input
  (PUD_OFF, undriven) reads LOW here; on hardware it is undefined.
* Numbering modes (BCM/BOARD) are accepted but channels are taken as given.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import types
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from hardware.backends import Hardware, HardwareConfig
from hardware.base import Address, Clock
from hardware.buttons import Buttons, button_pins
from hardware.leds import MemoryStrip
from hardware.matrix import GpioMatrixScanner
from hardware.pins import check_pins

with contextlib.redirect_stdout(io.StringIO()):  # fake_rpi prints a banner when imported
    import fake_rpi.RPi
    from fake_rpi.wrappers import toggle_print

toggle_print(False)  # fake_rpi otherwise prints every GPIO call it handles itself

_Pin = int
_NetKey = tuple[Any, ...]
_GPIO = fake_rpi.RPi._GPIO
_IN, _OUT, _HIGH, _LOW = _GPIO.IN, _GPIO.OUT, _GPIO.HIGH, _GPIO.LOW
_PUD_OFF, _PUD_UP, _PUD_DOWN = _GPIO.PUD_OFF, _GPIO.PUD_UP, _GPIO.PUD_DOWN
_PULLS = (_PUD_OFF, _PUD_UP, _PUD_DOWN)


class SimBoard:
    """Magnets on a rows x cols sensor matrix and the reed contacts they close.

    A cell may hold several magnets (a stack); its contact is closed while it holds any.
    When a contact changes it bounces: it takes the new state at once, then toggles an even
    number of times at seeded-random instants within `bounce` seconds and stays put.
    The clock must not run backwards while contacts are bouncing.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        clock: Clock,
        diodes: bool = True,
        bounce: float = 0.003,
        seed: int = 0,
    ) -> None:
        if rows < 1 or cols < 1:
            raise ValueError(f"matrix must be at least 1x1, got {rows}x{cols}")
        if bounce < 0:
            raise ValueError(f"bounce must be >= 0 seconds, got {bounce}")
        self.rows = rows
        self.cols = cols
        self.clock = clock
        self.diodes = diodes
        self.bounce = bounce
        self._rng = random.Random(seed)
        self._count: dict[Address, int] = {}
        self._fields: dict[Address, list[float]] = {}
        self._closed: set[Address] = set()  # settled state of every contact (stuck ones excluded)
        # contact -> (new state, instants after the change at which it toggles)
        self._bouncing: dict[Address, tuple[bool, tuple[float, ...]]] = {}
        self._stuck: dict[Address, bool] = {}
        self._quiet = 0.0
        self._cached: frozenset[Address] = frozenset()
        self._cache_from = 0.0
        self._cache_until = -1.0  # empty validity interval: nothing cached yet

    # -- magnets -------------------------------------------------------------------------
    def place(self, addr: Address, strength: float = 1.0) -> None:
        """Put a magnet on `addr` now; `strength` is its field at an analog Hall sensor."""
        addr = self._check(addr)
        n = self._count.get(addr, 0)
        self._count[addr] = n + 1
        self._fields.setdefault(addr, []).append(strength)
        if n == 0:
            self._change(addr, True)
        else:  # the contact stays closed, but the field (an analog reading) changed now
            self._quiet = max(self._quiet, self.clock.now())

    def lift(self, addr: Address) -> None:
        """Take a magnet off `addr` now."""
        addr = self._check(addr)
        n = self._count.get(addr, 0)
        if n == 0:
            raise ValueError(f"no magnet to lift at {addr}")
        self._fields[addr].pop()
        if n == 1:
            del self._count[addr]
            del self._fields[addr]
            self._change(addr, False)
        else:
            self._count[addr] = n - 1
            self._quiet = max(self._quiet, self.clock.now())

    def fields(self) -> dict[Address, float]:
        """The magnetic field at every address holding magnets (the top one lifts first)."""
        return {addr: sum(f) for addr, f in self._fields.items()}

    def magnets(self) -> frozenset[Address]:
        """The addresses holding at least one magnet."""
        return frozenset(self._count)

    def stuck(self, addr: Address, closed: bool | None) -> None:
        """Break a switch: it reads `closed` whatever the magnets do; None repairs it."""
        addr = self._check(addr)
        if closed is None:
            self._stuck.pop(addr, None)
        else:
            self._stuck[addr] = bool(closed)
        self._cache_until = -1.0

    # -- contacts ------------------------------------------------------------------------
    def contacts(self) -> frozenset[Address]:
        """The switches electrically closed at clock.now(), bounce included.

        Returns the same object while nothing changes, so callers can cache on identity.
        """
        now = self.clock.now()
        if self._cache_from <= now < self._cache_until:
            return self._cached
        closed = set(self._closed)
        until = float("inf")
        for addr, (state, toggles) in list(self._bouncing.items()):
            k = bisect_right(toggles, now)
            if k == len(toggles):
                del self._bouncing[addr]  # settled; its state is already in _closed
                continue
            until = min(until, toggles[k])
            if k % 2:
                if state:
                    closed.discard(addr)
                else:
                    closed.add(addr)
        for addr, state in self._stuck.items():
            if state:
                closed.add(addr)
            else:
                closed.discard(addr)
        result = frozenset(closed)
        if result != self._cached:
            self._cached = result
        self._cache_from, self._cache_until = now, until
        return self._cached

    def quiet_after(self) -> float:
        """The time from which no contact bounces any more (until the next place/lift)."""
        return self._quiet

    # -- internals -----------------------------------------------------------------------
    def _check(self, addr: Address) -> Address:
        r, c = addr
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(f"address {addr} outside the {self.rows}x{self.cols} matrix")
        return (r, c)

    def _change(self, addr: Address, state: bool) -> None:
        now = self.clock.now()
        if state:
            self._closed.add(addr)
        else:
            self._closed.discard(addr)
        self._bouncing.pop(addr, None)
        if self.bounce > 0:
            k = 2 * self._rng.randint(1, 3)
            # uniform in (now, now + bounce]
            offsets = sorted(self.bounce * (1.0 - self._rng.random()) for _ in range(k))
            toggles = tuple(now + dt for dt in offsets)
            self._bouncing[addr] = (state, toggles)
            self._quiet = max(self._quiet, toggles[-1])
        else:
            self._quiet = max(self._quiet, now)
        self._cache_until = -1.0


class SimGPIO(fake_rpi.RPi._GPIO):
    """fake-rpi's RPi.GPIO, wired to a SimBoard: inputs read what the real matrix would give.

    Rows and columns are the BCM channels `row_pins[i]` / `col_pins[j]`. Pins outside the
    matrix read their own output level, a value forced with set_input(), or their pull.
    """

    def __init__(self, board: SimBoard, row_pins: Sequence[int], col_pins: Sequence[int]) -> None:
        # fake_rpi's __init__ only prints a banner and sizes a 40-pin table; not called.
        if len(row_pins) != board.rows or len(col_pins) != board.cols:
            raise ValueError(
                f"{len(row_pins)} row pins and {len(col_pins)} column pins given "
                f"for a {board.rows}x{board.cols} board"
            )
        pins = list(row_pins) + list(col_pins)
        if len(set(pins)) != len(pins):
            raise ValueError(f"a pin is used twice in rows {row_pins} / columns {col_pins}")
        self.board = board
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self._matrix_pins = frozenset(pins)
        self._numbering: int | None = None
        self._dir: dict[_Pin, int] = {}
        self._level: dict[_Pin, int] = {}
        self._pull: dict[_Pin, int] = {}
        self._forced: dict[_Pin, int] = {}
        self._slot = {pin: i for i, pin in enumerate(pins)}
        self._codes = [0] * len(pins)
        self._pins_key: _NetKey | None = ()  # None: to be made from _codes when needed
        self._pins_version = 0
        # the contacts and pin settings _levels was solved for
        self._seen_contacts: frozenset[Address] | None = None
        self._seen_version = -1
        self._levels: dict[_Pin, int] = {}
        self._nets: dict[tuple[frozenset[Address], _NetKey], dict[_Pin, int]] = {}
        self._pins_changed()

    # -- RPi.GPIO API --------------------------------------------------------------------
    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        if self._numbering is not None and self._numbering != mode:
            raise ValueError("A different mode has already been set!")
        self._numbering = mode

    def getmode(self) -> int | None:
        return self._numbering

    def setup(
        self,
        channel: int | Iterable[int],
        direction: int,
        pull_up_down: int = 20,  # PUD_OFF
        initial: int = -1,
    ) -> None:
        if self._numbering is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )
        # The usual call (a row driven, or let go) is checked in one test; anything else is
        # checked in RPi.GPIO's order, for its error (_check_setup).
        if not ((direction == _OUT and pull_up_down == _PUD_OFF)
                or (direction == _IN and initial == -1 and pull_up_down in _PULLS)):
            _check_setup(direction, pull_up_down, initial)
        slot, codes = self._slot, self._codes
        for pin in (channel,) if type(channel) is int else _channels(channel):
            self._dir[pin] = direction
            if direction == _OUT:
                self._pull.pop(pin, None)
                if initial == -1:  # no initial level: the pin keeps its last one
                    level = self._level[pin] = self._level.get(pin, _LOW)
                else:
                    level = self._level[pin] = _HIGH if initial else _LOW
                code = _OUT_CODE + level * 1000  # (as _code makes it)
            else:
                self._pull[pin] = pull_up_down
                self._level.pop(pin, None)
                code = _IN_CODE + pull_up_down
            i = slot.get(pin)
            if i is not None:  # a matrix pin: its settings' code changes
                codes[i] = code
        self._pins_key = None
        self._pins_version += 1

    def output(self, channel: int | Iterable[int], value: int | Iterable[int]) -> None:
        pins = _channels(channel)
        values = list(value) if isinstance(value, list | tuple) else [value] * len(pins)
        if len(values) != len(pins):
            raise RuntimeError("Number of channels != number of values")
        for pin, v in zip(pins, values, strict=True):
            if pin not in self._dir:
                raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
            if self._dir[pin] != self.OUT:
                raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
            self._level[pin] = self.HIGH if v else self.LOW
        self._pins_changed(pins)

    def input(self, channel: int) -> int:
        """Raises RuntimeError for a channel not set up (like RPi.GPIO); an output reads
        back its own driven level (also like RPi.GPIO)."""
        d = self._dir.get(channel)
        if d is None:
            raise RuntimeError("You must setup() the GPIO channel first")
        if d == _OUT:
            return self._level[channel]
        if channel in self._matrix_pins:
            contacts = self.board.contacts()
            if self._seen_contacts is not contacts or self._seen_version != self._pins_version:
                self._levels = self._nets_for(contacts)
                self._seen_contacts, self._seen_version = contacts, self._pins_version
            return self._levels[channel]
        if channel in self._forced:
            return self._forced[channel]
        return _HIGH if self._pull.get(channel) == _PUD_UP else _LOW

    def set_input(self, channel: int, value: int) -> None:
        """fake-rpi's hook: force what a pin outside the matrix reads."""
        self._forced[channel] = value

    def cleanup(self, channel: int | Iterable[int] | None = None) -> None:
        pins = list(self._dir) if channel is None else _channels(channel)
        for pin in pins:
            self._dir.pop(pin, None)
            self._level.pop(pin, None)
            self._pull.pop(pin, None)
        if channel is None:
            self._numbering = None
        self._pins_changed(pins if channel is not None else None)

    def gpio_function(self, channel: int) -> int:
        return self._dir.get(channel, self.IN)

    # -- inspection for tests ------------------------------------------------------------
    def pin_mode(self, channel: int) -> int | None:
        """IN, OUT, or None when the channel is not set up."""
        return self._dir.get(channel)

    def pin_level(self, channel: int) -> int | None:
        """The driven level of an output, None for anything else."""
        return self._level.get(channel)

    def pin_pull(self, channel: int) -> int | None:
        return self._pull.get(channel)

    # -- the electrical model ------------------------------------------------------------
    def _pins_changed(self, pins: Iterable[_Pin] | None = None) -> None:
        """Refresh the codes of the matrix pins' settings (all of them, or just `pins`);
        their key is made when the matrix is next read (:meth:`_nets_for`)."""
        slot, codes = self._slot, self._codes
        for pin in slot if pins is None else pins:
            i = slot.get(pin)
            if i is not None:
                codes[i] = _code(self._dir.get(pin), self._level.get(pin), self._pull.get(pin))
        self._pins_key = None
        self._pins_version += 1

    def _nets_for(self, contacts: frozenset[Address]) -> dict[_Pin, int]:
        if self._pins_key is None:
            self._pins_key = tuple(self._codes)
        key = (contacts, self._pins_key)
        levels = self._nets.get(key)
        if levels is None:
            if len(self._nets) > 4096:
                self._nets.clear()
            levels = self._solve(contacts)
            self._nets[key] = levels
        return levels

    def _weak(self, pulls: Iterable[int | None]) -> int:
        pulls = set(pulls)
        return self.HIGH if self.PUD_UP in pulls and self.PUD_DOWN not in pulls else self.LOW

    def _solve(self, contacts: frozenset[Address]) -> dict[_Pin, int]:
        """The level of every matrix pin for these contacts and pin settings."""
        rows, cols = self.row_pins, self.col_pins
        drive = {p: self._level[p] for p in rows + cols if self._dir.get(p) == self.OUT}
        levels: dict[_Pin, int] = {}
        if self.board.diodes:
            # Current flows row -> column only: a HIGH row lifts its columns, a LOW column
            # sinks its rows; nothing travels further.
            for r, c in contacts:
                rp, cp = rows[r], cols[c]
                if drive.get(rp) == self.HIGH and cp not in drive:
                    levels[cp] = self.HIGH
                if drive.get(cp) == self.LOW and rp not in drive:
                    levels[rp] = self.LOW
            for p in rows + cols:
                if p in drive:
                    levels[p] = drive[p]
                elif p not in levels:
                    levels[p] = self._weak([self._pull.get(p)])
            return levels
        parent = {p: p for p in rows + cols}

        def find(p: _Pin) -> _Pin:
            while parent[p] != p:
                parent[p] = parent[parent[p]]
                p = parent[p]
            return p

        for r, c in contacts:
            a, b = find(rows[r]), find(cols[c])
            if a != b:
                parent[a] = b
        nets: dict[_Pin, list[_Pin]] = {}
        for p in rows + cols:
            nets.setdefault(find(p), []).append(p)
        for members in nets.values():
            driven = {drive[p] for p in members if p in drive}
            if self.LOW in driven:
                level = self.LOW
            elif driven:
                level = self.HIGH
            else:
                level = self._weak(self._pull.get(p) for p in members)
            for p in members:
                levels[p] = level
        return levels


class SimHallMatrix:
    """Hall sensors under a :class:`SimBoard`: each reads the summed strength of the
    magnets on its cell, plus seeded noise. Hall sensors do not bounce."""

    def __init__(self, board: SimBoard, noise: float = 0.03, seed: int = 0) -> None:
        self.board = board
        self.rows, self.cols = board.rows, board.cols
        self.noise = noise
        self._rng = random.Random(seed)

    def read(self) -> dict[Address, float]:
        jitter = self._rng.uniform
        return {addr: f + jitter(-self.noise, self.noise)
                for addr, f in self.board.fields().items()}


def _check_setup(direction: int, pull_up_down: int, initial: int) -> None:
    """Raise what RPi.GPIO's setup() raises for these arguments, if anything."""
    if direction not in (_IN, _OUT):
        raise ValueError("An invalid direction was passed to setup()")
    if pull_up_down not in _PULLS:
        raise ValueError("Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP "
                         "or PUD_DOWN")
    if direction == _OUT and pull_up_down != _PUD_OFF:
        raise ValueError("pull_up_down parameter is not valid for outputs")
    if direction == _IN and initial != -1:
        raise ValueError("initial parameter is not valid for inputs")


def _code(direction: int | None, level: int | None, pull: int | None) -> int:
    """A matrix pin's settings as one number (a part of the key of the nets solved)."""
    return ((9 if direction is None else direction) * 10000 + (9 if level is None else level)
            * 1000 + (99 if pull is None else pull))


_OUT_CODE = _code(_OUT, 0, None)  # an output's, but for its level's 1000s
_IN_CODE = _code(_IN, None, 0)  # an input's, but for its pull


def _channels(channel: int | Iterable[int]) -> list[int]:
    if isinstance(channel, int):
        return [channel]
    return list(channel)


def default_pins(rows: int, cols: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Consecutive channels from BCM 2: rows first, then columns (fine for the simulation;
    a real board names its pins in its config)."""
    return tuple(range(2, 2 + rows)), tuple(range(2 + rows, 2 + rows + cols))


def sim_scanner(
    board: SimBoard,
    row_pins: Sequence[int] | None = None,
    col_pins: Sequence[int] | None = None,
) -> GpioMatrixScanner:
    """The real scanner on a SimGPIO wired to `board` (default pins: default_pins())."""
    default_rows, default_cols = default_pins(board.rows, board.cols)
    row_pins = default_rows if row_pins is None else row_pins
    col_pins = default_cols if col_pins is None else col_pins
    return GpioMatrixScanner(SimGPIO(board, row_pins, col_pins), row_pins, col_pins)


_saved: list[dict[str, Any]] = []


def install(gpio: fake_rpi.RPi._GPIO) -> None:
    """Make `import RPi.GPIO as GPIO` (and `from RPi import GPIO`) give `gpio`.

    Undo with uninstall(); installs nest.
    """
    pkg = types.ModuleType("RPi")
    pkg.__path__ = []  # a package, so `import RPi.GPIO` resolves through sys.modules
    pkg.GPIO = gpio  # type: ignore[attr-defined]
    _saved.append({name: sys.modules.get(name) for name in ("RPi", "RPi.GPIO")})
    sys.modules["RPi"] = pkg
    sys.modules["RPi.GPIO"] = gpio  # type: ignore[assignment]


def uninstall() -> None:
    """Restore the RPi modules that were there before the last install()."""
    if not _saved:
        return
    for name, module in _saved.pop().items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


def open_sim(layout: Any, config: HardwareConfig, clock: Clock) -> Hardware:
    """The ``sim`` backend: an empty simulated board (``Hardware.magnets``) under the real
    scanner on a simulated RPi.GPIO, an in-memory LED strip, and the layout's buttons on
    the same simulated GPIO."""
    check_pins(layout, config)
    board = SimBoard(layout.rows, layout.cols, clock=clock, diodes=layout.diodes,
                     bounce=config.bounce, seed=config.seed)
    gpio = SimGPIO(board, layout.row_pins, layout.col_pins)
    matrix: Any
    if layout.sensor == "analog":
        matrix = SimHallMatrix(board, seed=config.seed)
    else:
        matrix = GpioMatrixScanner(gpio, layout.row_pins, layout.col_pins)
    buttons = button_pins(layout)
    return Hardware(
        name="sim", matrix=matrix, strip=MemoryStrip(layout.led_count),
        buttons=Buttons(gpio, buttons, config.button_window_s) if buttons else None,
        magnets=board)
