"""A layout's wiring diagram as SVG: the matrix (row and column wires with their pins, a
switch and, if fitted, a diode at every crossing that has a cell) and the board seen
from above with the LED chain drawn in its order. The pins are the Pi's GPIOs, or with
a service config's front end (``[hardware] frontend``) the MCP23017 expanders' pins, or
for MCP3008 ADCs each sensor's chip and channel (no matrix).

``sensorboard wiring-diagram --game tessella [--config board.toml] > tessella.svg``; the
diagrams of the shipped boards, as deploy/config sets them up, are in docs/wiring/ (a
test keeps them equal to what this draws).
"""

from __future__ import annotations

from html import escape

import rules
from boards.layout import Layout
from hardware.backends import HardwareConfig
from rules.geometry import Geometry

CELL = 64  # matrix pitch
MARGIN = 90
BOARD = 46  # board panel pitch


def pin_labels(layout: Layout, config: HardwareConfig | None) -> tuple[list[str], list[str]]:
    """The names of the row and the column pins under the config's front end."""
    frontend = config.frontend if config else "pins"
    if frontend == "mcp23017":
        from hardware.expander import PINS_PER_CHIP, expander_addresses

        chips = expander_addresses(layout.rows, layout.cols, config.expanders)

        def name(k: int) -> str:
            chip, bit = divmod(k, PINS_PER_CHIP)
            return f"{chips[chip]:#04x} GP{'AB'[bit // 8]}{bit % 8}"
        return ([name(r) for r in range(layout.rows)],
                [name(layout.rows + c) for c in range(layout.cols)])
    return [f"GPIO{p}" for p in layout.row_pins], [f"GPIO{p}" for p in layout.col_pins]


def wiring_svg(layout: Layout, config: HardwareConfig | None = None) -> str:
    names = layout.sensor_cell
    adc = config is not None and config.frontend == "mcp3008"
    rows, cols = pin_labels(layout, config)
    mw = MARGIN + layout.cols * CELL + 20
    mh = MARGIN + layout.rows * CELL + 20
    legend = list(config.adc_cs) if config is not None and adc else []
    mh += 16 * len(legend) + (20 if legend else 0)
    geometry = rules.new_game(layout.game).GEOMETRY
    xs = [c.x for c in geometry.cells]
    ys = [c.y for c in geometry.cells]
    bw = (max(xs) - min(xs) + 1) * BOARD + 40
    bh = (max(ys) - min(ys) + 1) * BOARD + 40
    width, height = mw + max(bw, 320) + 20, max(mh, bh + 40) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
           f'height="{height:.0f}" font-family="sans-serif" font-size="10">',
           f'<title>{escape(layout.name)}: wiring</title>',
           '<rect width="100%" height="100%" fill="white"/>',
           _heading(layout, config, adc, rows)]
    for i, cs in enumerate(legend):
        out.append(f'<text x="8" y="{MARGIN + layout.rows * CELL + 30 + 16 * i}">'
                   f'ADC{i + 1}: chip select GPIO{cs}</text>')
    if not adc:
        out += _matrix_wires(rows, cols, mw, mh)
    for (r, c), cell in sorted(names.items()):
        out += _crossing(layout, r, c, cell, adc)
    out += _board_from_above(layout, geometry, mw + 20, 60)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _heading(layout: Layout, config: HardwareConfig | None, adc: bool,
             rows: list[str]) -> str:
    """The diagram's top line: the sensors (matrix or ADCs) and the LEDs' pin."""
    return (f'<text x="10" y="18" font-size="14">{escape(layout.name)} — '
            + (f'{layout.rows * layout.cols} Hall sensors on MCP3008s (sensor k = row × '
               f'{layout.cols} + col: chip k // 8, channel k % 8)' if adc else
               f'matrix {layout.rows}×{layout.cols}, '
               f'{"diodes" if layout.diodes else "NO diodes"}'
               + (" (MCP23017: rows pulled up, columns driven LOW)" if rows[0][:2] == "0x"
                  else ""))
            + f', LEDs on {escape((config.led_pin if config else None) or layout.led_pin)}'
              '</text>')


def _matrix_wires(rows: list[str], cols: list[str], mw: float, mh: float) -> list[str]:
    """The row and the column wires, each with its pin."""
    out = []
    for r, pin in enumerate(rows):
        y = MARGIN + r * CELL + CELL / 2
        out.append(f'<line x1="{MARGIN - 10}" y1="{y}" x2="{mw - 10}" y2="{y}" '
                   'stroke="#c00" stroke-width="2"/>')
        out.append(f'<text x="8" y="{y + 4}" fill="#c00">row {r}: {pin}</text>')
    for c, pin in enumerate(cols):
        x = MARGIN + c * CELL + CELL / 2
        out.append(f'<line x1="{x}" y1="{MARGIN - 10}" x2="{x}" y2="{mh - 10}" '
                   'stroke="#00c" stroke-width="2"/>')
        out.append(f'<text x="{x - 14}" y="{MARGIN - 30}" fill="#00c">col {c}</text>')
        out.append(f'<text x="{x - 16}" y="{MARGIN - 18}" fill="#00c">{pin}</text>')
    return out


def _crossing(layout: Layout, r: int, c: int, cell: str, adc: bool) -> list[str]:
    """A cell's sensor where row ``r`` crosses column ``c`` (or its ADC channel)."""
    x = MARGIN + c * CELL + CELL / 2
    y = MARGIN + r * CELL + CELL / 2
    # from the row wire: a diode (anode at the row), the switch, down to the column
    out = [f'<g><title>{escape(cell)}: row {r} × col {c}, LED '
           f'{layout.cell_led[cell]}</title>']
    if adc:
        chip, channel = divmod(r * layout.cols + c, 8)
        out.append(f'<text x="{x - 28}" y="{y + 16}">ADC{chip + 1} CH{channel}</text>')
    elif layout.diodes:
        out.append(f'<path d="M{x + 6},{y - 4} l8,0 l-4,7 z" fill="#333"/>'
                   f'<line x1="{x + 6}" y1="{y + 3}" x2="{x + 14}" y2="{y + 3}" '
                   'stroke="#333"/>')
    if not adc:
        out.append(f'<line x1="{x + 10}" y1="{y + 3}" x2="{x + 2}" y2="{y + 14}" '
                   'stroke="#333" stroke-width="1.5"/>')
    out.append(f'<circle cx="{x}" cy="{y}" r="3" fill="#333"/>')
    out.append(f'<text x="{x - 28}" y="{y - 8}">{escape(cell)}</text></g>')
    return out


def _board_from_above(layout: Layout, geometry: Geometry, ox: float, oy: float) -> list[str]:
    """The board seen from above at (``ox``, ``oy``), cells at their places, the LED chain
    in order."""
    xs = [c.x for c in geometry.cells]
    ys = [c.y for c in geometry.cells]
    pos = {}
    for cell in geometry.cells:
        px = ox + 20 + (cell.x - min(xs)) * BOARD
        py = oy + 20 + (max(ys) - cell.y) * BOARD
        pos[cell.name] = (px, py)
    out = [f'<text x="{ox}" y="{oy - 16}" font-size="12">board from above: LED chain '
           'order (data in at LED 0)</text>']
    chain = sorted(layout.cell_led.items(), key=lambda item: item[1])
    points = " ".join(f"{pos[c][0]:.1f},{pos[c][1]:.1f}" for c, _ in chain)
    out.append(f'<polyline points="{points}" fill="none" stroke="#e80" stroke-width="2"/>')
    for cell, led in chain:
        px, py = pos[cell]
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="13" fill="#fff" stroke="#555"/>'
                   f'<text x="{px - 10:.1f}" y="{py - 1:.1f}">{escape(cell)}</text>'
                   f'<text x="{px - 6:.1f}" y="{py + 10:.1f}" fill="#e80">{led}</text>')
    return out
