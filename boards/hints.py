"""The hint planner: what each cell's LED shows, from the turn's read model (TurnView).

A frame is ``{cell: role}``; :data:`PALETTE` gives each role its colour (or
:data:`COLOUR_BLIND`, or a board's own, see :func:`palette`), and the role name is the
colour's text alternative (the web page and the terminal show it).
"""

from __future__ import annotations

from collections.abc import Iterable

from .constants import NONE
from .view import Phase, Question, TurnView

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {
    "lifted": (60, 60, 60),      # a piece in hand came from here
    "move": (0, 90, 0),          # a lifted piece may go here
    "capture": (150, 40, 0),     # a piece here may be taken / replaced
    "lift": (90, 70, 0),         # a piece here may still leave as part of the turn
    "wrong": (170, 0, 0),        # error: this cell should be empty
    "missing": (0, 40, 170),     # error: a piece belongs here
    "last": (0, 0, 70),          # the move just committed
    "held": (40, 90, 140),       # a complete turn waits: the mover's clock ends it
    "choice": (120, 100, 0),     # a prompt: one of the candidate cells (blinks)
    "offer": (0, 120, 120),      # a question: the option on offer (hint: next, clock: confirm)
    "decline": (80, 20, 20),     # a question: "none" is on offer
    "winner": (120, 0, 120),     # the game is over: the winner's pieces
    "cut": (90, 0, 60),          # on request: a placement here would cut a path (Teblo B-4)
    "roll": (0, 80, 90),         # the board's die has rolled: the turn goes on here
    "attacker": (200, 0, 90),    # a piece that could take a protected one (Tesulda's Prime)
    "dodge": (0, 60, 60),        # a lifted piece may go here only by a Dodger's second leg
    "hint-from": (90, 90, 90),   # hint: the engine's turn takes a piece from here
    "hint-to": (0, 130, 70),     # hint: ... and puts it here
    "opponent-from": (110, 0, 90),  # the opponent's turn: take a piece from here
    "opponent-to": (140, 90, 0),    # ... and put it here
}
# For colour-blind players: the Okabe-Ito colours, chosen so that the roles that light
# together (a turn: lifted, move, capture, lift, dodge; an error: wrong, missing, attacker)
# stay far apart for protan, deutan and tritan vision (tests/boards/test_palette.py simulates them).
COLOUR_BLIND: dict[str, RGB] = {
    "lifted": (200, 200, 200),   # white
    "move": (0, 79, 124),        # blue
    "capture": (85, 37, 0),      # vermillion, dim
    "lift": (230, 159, 0),       # orange
    "wrong": (112, 66, 91),      # reddish purple, dim
    "missing": (86, 180, 233),   # sky blue
    "last": (0, 114, 178),       # blue
    "held": (0, 255, 221),       # bright turquoise (lights with a turn's roles, not lifted)
    "choice": (240, 228, 66),    # yellow
    "offer": (0, 158, 115),      # bluish green
    "decline": (213, 94, 0),     # vermillion
    "winner": (204, 121, 167),   # reddish purple
    "cut": (181, 79, 0),         # vermillion
    "roll": (0, 158, 115),       # bluish green
    "attacker": (240, 228, 66),  # yellow
    "dodge": (153, 0, 255),      # violet
    "hint-from": (200, 200, 200),  # white
    "hint-to": (0, 114, 178),    # blue
    "opponent-from": (213, 94, 0),  # vermillion
    "opponent-to": (0, 114, 178),  # blue
}
PALETTES: dict[str, dict[str, RGB]] = {"standard": PALETTE, "colour-blind": COLOUR_BLIND}
OFF: RGB = (0, 0, 0)
LAST_MOVE_SECONDS = 2.0
BLINK_HZ = 2.0
HALF_BLINK = 1.0 / (BLINK_HZ * 2)
PULSE_GAP = 4  # dark half-blinks between one option's pulses and the next


def plan(view: TurnView, now: float) -> dict[str, str]:
    """The role of every lit cell at time ``now``; unlit cells are absent."""
    if view.restore:  # a move taken back: put the board as it was before it
        return {cell: "wrong" if should == "empty" else "missing" for cell, should in view.restore}
    if view.error is not None:
        frame = {cell: ("wrong" if should == "empty" else "missing")
                 for cell, should in view.error}
        return frame | dict.fromkeys(view.attackers, "attacker")
    if view.question is not None:
        return _question(view.question, now)
    outcome = view.state.outcome() if view.phase is Phase.OVER else None
    if outcome is not None:
        if outcome.winner is None:
            return {}
        return {cell: "winner" for cell, pieces in view.start
                if any(p.startswith(outcome.winner) for p in pieces)}
    if now < view.hint_until and view.hint_cells:
        return dict.fromkeys(view.hint_cells, "cut")
    if view.roll_cells:
        return dict.fromkeys(view.roll_cells, "roll")
    # The pieces that could take the mover's Prime (Tesulda), while it is in danger.
    # (dict.fromkeys, not a comprehension: a frame is planned at every event.)
    danger = dict.fromkeys(view.danger, "attacker")
    if view.differing:
        # A complete turn that may go on: its cells (and any piece in hand) are held until
        # the mover's clock ends it; where it may go on stays lit.
        lifted = dict.fromkeys(view.lifted, "held" if view.holding else "lifted")
        return danger | lifted | dict(view.targets) | dict.fromkeys(view.holding, "held")
    if view.last is not None:
        cells, t = view.last
        if now - t < LAST_MOVE_SECONDS:
            return danger | dict.fromkeys(cells, "last")
    return danger


def _question(question: Question, now: float) -> dict[str, str]:
    """An open question: until ``hint`` puts an option on offer, every option's cells
    (or, before they are worked out, the cells of the turn asked about) blink; then the
    option on offer lights its cells (``none``: every option's cells in ``decline``),
    pulsing its count where options share their cells."""
    slot = int(now / HALF_BLINK)
    offer = question.on_offer
    if offer is None:
        if slot % 2:
            return {}
        cells = {c for o in question.options for c in o.cells} or question.about
        return dict.fromkeys(cells, "choice")
    if offer.value == NONE:
        return {c: "decline" for o in question.options for c in o.cells}
    if offer.pulses and (slot % (2 * offer.pulses + PULSE_GAP) >= 2 * offer.pulses
                         or slot % 2):
        return {}
    return dict.fromkeys(offer.cells, "offer")


def next_change(view: TurnView, now: float) -> float | None:
    """When :func:`plan` may next give another frame if nothing but time passes (a blink,
    the end of a hint or of the last move's light); None when only an event changes it."""
    due = []
    if view.question is not None:
        due.append((int(now / HALF_BLINK) + 1) * HALF_BLINK)
    if view.hint_until > now:
        due.append(view.hint_until)
    if view.last is not None and view.last[1] + LAST_MOVE_SECONDS > now:
        due.append(view.last[1] + LAST_MOVE_SECONDS)
    return min(due) if due else None


def palette(name: str = "standard", overrides: Iterable[tuple[str, RGB]] = ()
            ) -> dict[str, RGB]:
    """The colour of every role: a palette of :data:`PALETTES` with some roles changed.

    >>> palette("colour-blind", [("move", (0, 0, 255))])["move"]
    (0, 0, 255)
    """
    if name not in PALETTES:
        raise ValueError(f"palette: must be one of {', '.join(PALETTES)}, got {name!r}")
    colours = dict(PALETTES[name])
    for role, rgb in overrides:
        if role not in colours:
            raise ValueError(f"colours.{role}: not an LED role; roles: {', '.join(colours)}")
        colours[role] = rgb
    return colours


def colours(frame: dict[str, str], colours: dict[str, RGB] = PALETTE) -> dict[str, RGB]:
    return {cell: colours[role] for cell, role in frame.items()}
