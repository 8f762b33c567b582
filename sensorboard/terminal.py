"""The board in a terminal: pieces as the sensors see them, on the LED colours."""

from __future__ import annotations

from sensorboard import clocks, guidance
from sensorboard.numbering import move_label
from sensorboard.service import BoardService

RESET = "\x1b[0m"


def _bg(rgb: tuple[int, int, int]) -> str:
    # LED values are dim on purpose; scale them up so the terminal shows the hue.
    m = max(rgb) or 1
    r, g, b = (int(v * 200 / m) if any(rgb) else 0 for v in rgb)
    return f"\x1b[48;2;{r};{g};{b}m"


def symbol(pieces: tuple[str, ...], present: bool, players: tuple[str, ...] = ()) -> str:
    """A cell in two characters. A figure (``players`` given: a game of figures) is its
    base's letter, upper case for the first player, and how many pieces it carries:
    ``S3`` a light square base with three pieces, ``t2`` a dark triangle with two."""
    if not present:
        return "."
    if not pieces:
        return "?"
    if players and pieces[0] != "?":
        owner, _, base = pieces[0].partition("-")
        letter = base[:1].upper() if owner == players[0] else base[:1].lower()
        return f"{letter}{len(pieces) - 1}"
    top = pieces[-1]
    letter = top[0].upper() if not top.endswith(("rank", "block")) else top[0].lower()
    return letter + ("+" if len(pieces) > 1 else "")


def render(service: BoardService, color: bool = True) -> str:
    """The board as text, rank by rank from the top, each cell on its LED colour."""
    view = service.view
    state = view.state
    geometry = state.GEOMETRY
    xs = sorted({c.x for c in geometry.cells})
    ys = sorted({c.y for c in geometry.cells}, reverse=True)
    at = {(c.x, c.y): c.name for c in geometry.cells}
    labels = geometry.coordinates()
    figures = state.PLAYERS if state.FIGURES else ()
    lines = []
    for y in ys:
        row = [f"{labels['ranks'].get(y, ''):>2} "]
        for x in xs:
            name = at.get((x, y))
            if name is None:
                row.append("   ")
                continue
            on_board, _ = view.shown(name)
            text = f" {symbol(on_board, view.present(name), figures):<2}"
            role = service.frame.get(name)
            if color and role:
                text = _bg(service.palette[role]) + text + RESET
            elif role:
                text = f"[{text.strip() or '.'}]".ljust(3)[:3]
            row.append(text)
        lines.append("".join(row).rstrip())
    lines.append("   " + "".join(f" {labels['files'].get(x, ''):<2}" for x in xs).rstrip())
    roles = sorted(set(service.frame.values()))
    legend = ", ".join(f"{_bg(service.palette[r]) if color else ''}{r}{RESET if color else ''}"
                       for r in roles)
    status = service.result() if state.outcome() or service.flagged \
        else f"{view.player} to move"
    if view.rolled:
        status += f", rolled {view.rolled} (enter on {', '.join(view.roll_cells)})"
    moves = view.moves
    last = f"{move_label(len(moves), len(state.PLAYERS))} {moves[-1]}" if moves else "-"
    lines.append(f"{status}; last move: {last}")
    lines.append(f"LEDs: {legend or 'off'}")
    lines += sides(state, service.timing and clocks.to_json(service.timing,
                                                            service.clock.now()))
    hand = guidance.in_hand(view)
    if hand:
        lines.append(hand)
    advice = guidance.advice(service)
    if advice:
        lines.append(advice["text"])
    if view.question:
        lines += question_lines(view)
    return "\n".join(lines)


def question_lines(view) -> list[str]:
    """The open question: its options (in words where they differ from what to type) and,
    once ``hint`` has put one on offer, which one the asked player's clock confirms."""
    asked = guidance.asked(view)
    if all(o["text"] == o["value"] for o in asked["options"]):
        lines = ["question: " + " | ".join(view.question.values)]
    else:  # the answers in words, each with what to type
        lines = [f"question: {asked['question']}"]
        lines += [f"  choose {o['value']}  ({o['text']})" for o in asked["options"]]
    if asked["on_board"]:
        lines.append(asked["on_board"])
    return lines


def sides(state, timing: dict | None = None) -> list[str]:
    """One line per player: the clock (``timing``: the game clock's view, with the time
    left), the pieces in hand, the captures."""
    out = []
    stock, captured, home = state.stock(), state.captured(), state.home()
    running = None if state.outcome() else state.to_move
    for player in state.PLAYERS:
        parts = ["clock running"] if player == running and timing is None else []
        if timing is not None:
            parts.append(clocks.side_text(timing, player))
        parts += [f"{n} x {piece} {state.STOCK_WORDS}"
                  for piece, n in stock.get(player, {}).items()]
        if player in home:
            parts.append(f"{home[player]} {state.HOME_WORDS}")
        if player in captured:
            parts.append(f"captured {captured[player]}")
        if parts:
            out.append(f"{player}: {', '.join(parts)}")
    pool = state.pool()
    if pool is not None:
        counts = {p: pool.count(p) for p in dict.fromkeys(pool)}
        out.append("removed pool: " + (", ".join(f"{n} x {p}" for p, n in counts.items())
                                       or "empty"))
    return out


def move_line(item: dict, players: int = 2) -> str:
    """A committed move as the terminal prints it: ``  1... d5-de45  (dark)``."""
    return f"  {move_label(item['ply'], players)} {item['move']}  ({item['player']})"
