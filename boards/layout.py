"""Board layouts: which sensor address and which LED belong to each cell of a game.

A layout is a TOML file (``boards/layouts/<name>.toml``)::

    game = "tessella"
    name = "Tessella reference board"
    sensor = "binary"          # reed switches / digital Hall sensors; or "analog"
    diodes = true              # one diode per switch: no ghosting

    [matrix]
    rows = 7
    cols = 6
    row_pins = [5, 6, 13, 19, 26, 16, 20]   # BCM numbers, driven one at a time
    col_pins = [17, 27, 22, 23, 24, 25]     # BCM numbers, inputs with pull-downs

    [leds]
    count = 41
    pin = "D18"

    [buttons]
    clock = 21                 # one shared clock button; or one per player:
    # clock = { clear = 21, dark = 12 }   (each presses their own side when done)

    [cells]
    a1 = { sensor = [0, 0], led = 0 }
    cz = { led = 18 }          # a zone (Telec's Center Zone) may have no sensor

An ``analog`` layout (linear Hall sensors) also gives ``[thresholds]`` (class name = the
lowest reading of that class; the lowest class, from 0.0, is an empty cell) and
``[magnets]`` (each piece's field at its sensor; a stack reads the sum).

Loading checks everything and raises :class:`LayoutError` naming the file, the key
and the fault.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import rules

from .constants import BUTTONS

SENSOR_KINDS = ("binary", "analog")
MAX_LEDS = 4096  # far more than any board's cells; the strip's buffer is allocated up front


class LayoutError(ValueError):
    """A layout file that cannot be used; the message names file, key and fault."""


@dataclass(frozen=True)
class Layout:
    path: str
    game: str
    name: str
    sensor: str
    diodes: bool
    rows: int
    cols: int
    row_pins: tuple[int, ...]
    col_pins: tuple[int, ...]
    led_count: int
    led_pin: str
    cell_sensor: dict[str, tuple[int, int]]
    cell_led: dict[str, int]
    buttons: dict[str, int] = field(default_factory=dict)  # shared buttons: name -> GPIO
    # One clock button per player (``[buttons.clock]`` with a GPIO per player), as on a
    # chess clock; empty when the clock is one shared button (``buttons["clock"]``).
    clock_sides: dict[str, int] = field(default_factory=dict)
    thresholds: dict[str, float] = field(default_factory=dict)  # analog: class -> lowest reading
    magnets: dict[str, float] = field(default_factory=dict)  # analog: piece -> field strength

    @property
    def sensor_cell(self) -> dict[tuple[int, int], str]:
        return {addr: cell for cell, addr in self.cell_sensor.items()}


def shipped_layouts() -> dict[str, Path]:
    """The layouts that ship with the project, by name."""
    folder = Path(__file__).parent / "layouts"
    return {p.stem: p for p in sorted(folder.glob("*.toml"))}


def layout_for_game(game: str) -> Layout:
    """The shipped layout of ``game`` (the file named after the game)."""
    rules.game_module(game)
    layouts = shipped_layouts()
    if game not in layouts:
        raise LayoutError(f"no shipped layout for {game}; shipped: {', '.join(sorted(layouts))}")
    return load_layout(layouts[game])


def read_toml(path: str, error: type[ValueError]) -> dict:
    """The tables of a TOML file; a file that cannot be read raises ``error`` naming it."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except RecursionError:
        raise error(f"{path}: not valid TOML: nested too deeply") from None


def load_layout(path: str | Path) -> Layout:
    path = str(path)
    return parse_layout(read_toml(path, LayoutError), path)


def parse_layout(data: dict, path: str = "<layout>") -> Layout:
    read = _Reader(data, path)
    game = read.get(data, "game", str, "game")
    if game not in rules.GAMES:
        raise read.fail("game", f"unknown game {game!r}; valid games: "
                                f"{', '.join(sorted(rules.GAMES))}")
    sensor = data.get("sensor", "binary")
    if sensor not in SENSOR_KINDS:
        raise read.fail("sensor", f"must be one of {', '.join(SENSOR_KINDS)}, got {sensor!r}")
    diodes = data.get("diodes", True)
    if not isinstance(diodes, bool):
        raise read.fail("diodes", f"must be true or false, got {diodes!r}")
    rows, cols, pins = read.matrix()
    led_count, led_pin = read.leds()
    buttons, clock_sides = read.buttons(game, pins["row_pins"] + pins["col_pins"])
    thresholds, magnets = read.numbers("thresholds"), read.numbers("magnets")
    if sensor == "analog":
        read.analog(game, thresholds, magnets)
    cell_sensor, cell_led = read.cells(game, rows, cols, led_count)
    return Layout(
        path=path, game=game, name=str(data.get("name", game)), sensor=sensor, diodes=diodes,
        rows=rows, cols=cols, row_pins=pins["row_pins"], col_pins=pins["col_pins"],
        led_count=led_count, led_pin=led_pin, cell_sensor=cell_sensor, cell_led=cell_led,
        buttons=dict(buttons), clock_sides=dict(clock_sides), thresholds=thresholds,
        magnets=magnets,
    )


class _Reader:
    """Reads one layout table section by section; each check fails with the key's path."""

    def __init__(self, data: dict, path: str) -> None:
        self.data, self.path = data, path

    def fail(self, key: str, what: str) -> LayoutError:
        return LayoutError(f"{self.path}: {key}: {what}")

    def get(self, table: dict, key: str, kind: type, where: str):
        if key not in table:
            raise self.fail(where, "missing")
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(where, f"must be an integer, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(where, f"must be {kind.__name__}, got {value!r}")
        return value

    def matrix(self) -> tuple[int, int, dict[str, tuple[int, ...]]]:
        fail, get = self.fail, self.get
        matrix = get(self.data, "matrix", dict, "matrix")
        rows = get(matrix, "rows", int, "matrix.rows")
        cols = get(matrix, "cols", int, "matrix.cols")
        for key, value in (("matrix.rows", rows), ("matrix.cols", cols)):
            if not 1 <= value <= 64:
                raise fail(key, f"must be 1..64, got {value}")
        pins = {}
        for key, count in (("row_pins", rows), ("col_pins", cols)):
            value = get(matrix, key, list, f"matrix.{key}")
            if len(value) != count or not all(isinstance(p, int) and 0 <= p <= 53 for p in value):
                raise fail(f"matrix.{key}",
                           f"must list {count} GPIO numbers (0..53), got {value!r}")
            pins[key] = tuple(value)
        used = pins["row_pins"] + pins["col_pins"]
        if len(set(used)) != len(used):
            twice = sorted({p for p in used if used.count(p) > 1})
            raise fail("matrix", f"GPIO pins used twice: {twice}")
        return rows, cols, pins

    def leds(self) -> tuple[int, str]:
        leds = self.get(self.data, "leds", dict, "leds")
        led_count = self.get(leds, "count", int, "leds.count")
        if not 1 <= led_count <= MAX_LEDS:
            raise self.fail("leds.count", f"must be 1..{MAX_LEDS}, got {led_count}")
        led_pin = leds.get("pin", "D18")
        if not isinstance(led_pin, str):
            raise self.fail("leds.pin", f"must be a pin name like 'D18', got {led_pin!r}")
        return led_count, led_pin

    def buttons(self, game: str, used: tuple[int, ...]) -> tuple[dict, dict[str, int]]:
        fail, data = self.fail, self.data
        buttons = dict(data.get("buttons", {})) if isinstance(data.get("buttons", {}), dict) \
            else None
        if buttons is None:
            raise fail("buttons", "must be a table of name = GPIO number")
        clock_sides: dict[str, int] = {}
        if isinstance(buttons.get("clock"), dict):  # one clock button per player
            players = rules.GAMES[game].PLAYERS
            clock_sides = buttons.pop("clock")
            if sorted(clock_sides) != sorted(players):
                raise fail("buttons.clock", f"one button per player needs exactly the players "
                           f"{', '.join(players)}, got {', '.join(clock_sides) or 'none'}")
        keyed = [(f"buttons.{name}", name, pin) for name, pin in buttons.items()]
        keyed += [(f"buttons.clock.{player}", "clock", pin) for player, pin in clock_sides.items()]
        for key, name, pin in keyed:
            if name not in BUTTONS:
                raise fail(key, f"unknown button; buttons: {', '.join(BUTTONS)}")
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 53:
                raise fail(key, f"must be a GPIO number 0..53, got {pin!r}")
            if pin in used:
                raise fail(key, f"GPIO {pin} is already a matrix pin")
        if len({pin for _, _, pin in keyed}) != len(keyed):
            raise fail("buttons", "two buttons on one GPIO pin")
        return buttons, clock_sides

    def numbers(self, key: str) -> dict[str, float]:
        table = self.data.get(key, {})
        if not isinstance(table, dict):
            raise self.fail(key, "must be a table of name = number")
        for name, v in table.items():
            if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
                raise self.fail(f"{key}.{name}", f"must be a number >= 0, got {v!r}")
        return {k: float(v) for k, v in table.items()}

    def analog(self, game: str, thresholds: dict[str, float], magnets: dict[str, float]) -> None:
        fail = self.fail
        if len(thresholds) < 2:
            raise fail("thresholds", "an analog layout needs at least two classes, "
                       "e.g. empty = 0.0 and piece = 0.5")
        if min(thresholds.values()) > 0:
            raise fail("thresholds", "the lowest class must start at 0.0 (an empty cell)")
        pieces = rules.GAMES[game].PIECES
        missing = [p for p in pieces if p not in magnets]
        if missing:
            raise fail("magnets", f"an analog layout needs the magnet of every piece; "
                       f"missing: {', '.join(missing)}")
        unknown = [p for p in magnets if p not in pieces]
        if unknown:
            raise fail(f"magnets.{unknown[0]}", f"not a piece of {game}; pieces: "
                       f"{', '.join(pieces)}")

    def cells(self, game: str, rows: int, cols: int, led_count: int,
              ) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
        game_cells = rules.GAMES[game].GEOMETRY.names
        cells = self.get(self.data, "cells", dict, "cells")
        strangers = [c for c in cells if c not in game_cells]
        if strangers:
            made_for = [g for g, m in rules.GAMES.items()
                        if g != game and set(cells) <= set(m.GEOMETRY.names)]
            if made_for:
                raise self.fail("cells", f"these are the cells of {made_for[0]}: the layout is "
                                         f"made for {made_for[0]}, not {game}")
        cell_sensor: dict[str, tuple[int, int]] = {}
        cell_led: dict[str, int] = {}
        for cell, entry in cells.items():
            addr = self.cell(game, cell, entry, (rows, cols), cell_sensor)
            led = self.get(entry, "led", int, f"cells.{cell}.led")
            if not 0 <= led < led_count:
                raise self.fail(f"cells.{cell}.led", f"{led} is out of range 0..{led_count - 1}")
            if led in cell_led.values():
                owner = next(c for c, n in cell_led.items() if n == led)
                raise self.fail(f"cells.{cell}.led", f"LED {led} is already the LED of {owner}")
            unknown = set(entry) - {"sensor", "led"}
            if unknown:
                raise self.fail(f"cells.{cell}", f"unknown keys {sorted(unknown)}")
            cell_led[cell] = led
            if addr is not None:
                cell_sensor[cell] = addr
        missing = [c for c in game_cells if c not in cell_led]
        if missing:
            raise self.fail("cells", f"cells of {game} missing: {', '.join(missing)}")
        return cell_sensor, cell_led

    def cell(self, game: str, cell: str, entry: object, size: tuple[int, int],
             cell_sensor: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
        """The sensor of ``cell`` (None: a zone without one), checked."""
        geometry, key = rules.GAMES[game].GEOMETRY, f"cells.{cell}"
        if cell not in geometry.names:
            raise self.fail(key, f"not a cell of {game}; valid cells: {', '.join(geometry.names)}")
        if not isinstance(entry, dict):
            raise self.fail(key, "must be a table like { sensor = [row, col], led = index }")
        addr = entry.get("sensor")
        # A zone pieces leave the game through (Telec's Center Zone) may have no sensor.
        optional = addr is None and geometry.cell(cell).shape == "zone"
        if not optional and (not isinstance(addr, list) or len(addr) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in addr)):
            raise self.fail(f"{key}.sensor", f"must be [row, col], got {addr!r}")
        if addr is None:
            return None
        r, c = addr
        rows, cols = size
        if not (0 <= r < rows and 0 <= c < cols):
            raise self.fail(f"{key}.sensor", f"[{r}, {c}] is outside the {rows}x{cols} matrix")
        if (r, c) in cell_sensor.values():
            owner = next(name for name, at in cell_sensor.items() if at == (r, c))
            raise self.fail(f"{key}.sensor", f"[{r}, {c}] is already the sensor of {owner}")
        return r, c
