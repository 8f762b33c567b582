"""A starting layout for a new board: every cell on a sensor matrix in reading order and
the LED chain as a serpentine (first row of cells left to right, the next right to left).

``sensorboard layout-template --game tulaga`` prints one; a board builder then edits the
pins and, if the wiring differs, the addresses.
"""

from __future__ import annotations

import math

import rules

# BCM pins free of I2C (2, 3), UART (14, 15) and the NeoPixel pin (18), in header order.
FREE_PINS = (4, 17, 27, 22, 5, 6, 13, 19, 26, 23, 24, 25, 12, 16, 20, 21, 7, 8, 9, 10, 11)
# Taken only when a large matrix needs them: they give up I2C and the serial console.
SHARED_PINS = (2, 3, 14, 15)


def template(game: str, name: str | None = None, sensor: str = "binary",
             thresholds: dict[str, float] | None = None,
             magnets: dict[str, float] | None = None) -> str:
    name = name or f"{game.capitalize()} reference board"
    geometry = rules.game_module(game).GEOMETRY
    cells = geometry.cells
    cols = math.ceil(math.sqrt(len(cells)))
    rows = math.ceil(len(cells) / cols)
    pins = FREE_PINS if rows + cols + 1 <= len(FREE_PINS) else FREE_PINS + SHARED_PINS
    if rows + cols + 1 > len(pins):
        raise ValueError(f"{game}: a {rows}x{cols} matrix needs more GPIO pins than a Pi has;"
                         " use the serial backend")
    row_pins = pins[:rows]
    col_pins = pins[rows:rows + cols]
    clock_pin = pins[rows + cols]
    led = {}
    for k, y in enumerate(sorted({c.y for c in cells})):
        row = sorted((c for c in cells if c.y == y), key=lambda c: c.x, reverse=k % 2 == 1)
        for c in row:
            led[c.name] = len(led)
    lines = [
        f"# {name}: {len(cells)} sensors on a {rows}x{cols} matrix, one LED per",
        "# cell, the LED chain running as a serpentine row by row.",
        *(["# The matrix takes GPIO 2, 3, 14 and 15 too: no I2C and no serial console."]
          if pins is not FREE_PINS else []),
        f'game = "{game}"',
        f'name = "{name}"',
        f'sensor = "{sensor}"',
        "diodes = true",
        "",
        "[matrix]",
        f"rows = {rows}",
        f"cols = {cols}",
        f"row_pins = {list(row_pins)}",
        f"col_pins = {list(col_pins)}",
        "",
        "[leds]",
        f"count = {len(cells)}",
        'pin = "D18"',
        "",
        "[buttons]",
        f"clock = {clock_pin}",
        "",
    ]
    if thresholds:
        lines += ["[thresholds]  # class = the lowest reading of that class",
                  *(f'"{k}" = {v}' for k, v in thresholds.items()), ""]
    if magnets:
        lines += ["[magnets]  # each piece's field at its sensor; a stack reads the sum",
                  *(f'"{k}" = {v}' for k, v in magnets.items()), ""]
    lines.append("[cells]")
    for i, c in enumerate(cells):
        lines.append(f"{c.name} = {{ sensor = [{i // cols}, {i % cols}], led = {led[c.name]} }}")
    return "\n".join(lines) + "\n"
