"""What the board tells a player in words: the page and the terminal show the same sentences.

Everything here is read from the tracker's public state (and the service's last take-back);
nothing here decides a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import rules
from boards.tracker import NONE

if TYPE_CHECKING:
    from boards.tracker import Tracker
    from sensorboard.service import BoardService


def owner(piece: str, players: tuple[str, ...]) -> str | None:
    """The player a piece belongs to (piece names begin with it: ``black-rank``)."""
    side = piece.split("-")[0]
    return side if side in players else None


def pieces_words(pieces: tuple[str, ...] | list[str]) -> str:
    """``("clear",)`` -> "the clear piece"; a stack -> "the red-block+red stack"."""
    if not pieces:
        return "nothing"
    if len(pieces) == 1:
        return "a piece" if pieces[0] == "?" else f"the {pieces[0]} piece"
    return f"the {'+'.join(pieces)} stack"


def in_hand(tracker: Tracker) -> str:
    """The "in hand" line: only what is surely off the board, else how many and from where.

    When a cell that lost its piece holds one again (a capture: the enemy lifted, the
    shooter put there) the sensors cannot tell which piece is the one in hand, so the
    line says how many pieces are off the board and where they came from.
    """
    if not tracker.differing or tracker.restoring:  # after a take-back the steps say it
        return ""
    figures = tracker.state.FIGURES  # a figure is lifted whole: counted and named as one
    say = figure_words if figures else pieces_words
    count = (lambda p: 1 if p else 0) if figures else len
    now = decided(tracker)
    if now is not None and tracker.after_visible:  # only the questions are left
        held = [(cell, pieces_shown(tracker, cell, now)[1]) for cell in tracker.differing]
        words = [f"{say(p).removeprefix('the ')} from {cell}"
                 for cell, p in sorted(held) if p]
        return "In hand: " + ", ".join(words) if words else ""
    start = now = 0
    certain: list[str] = []
    held_count = 0
    sources: list[str] = []
    unsure = False
    for cell in tracker.cells:
        before = tracker.before_pieces[cell]
        on_board, held = tracker.pieces_now(cell)
        start += count(before)
        now += count(on_board)
        held_count += count(held)
        if held:
            certain.append(f"{say(held).removeprefix('the ')} from {cell}")
        if before and len(tracker.seen[cell]) > 1:
            sources.append(cell)
            unsure |= not held or "?" in on_board
        unsure |= "?" in on_board
    off = start - now
    if off <= 0:
        return ""
    if not unsure and off == held_count:
        return "In hand: " + ", ".join(certain)
    kind = "figure" if figures else "piece"
    n = f"1 {kind}" if off == 1 else f"{off} {kind}s"
    return f"In hand: {n}, lifted from {', '.join(sources)}"


def decided(tracker: Tracker) -> dict[str, tuple[str, ...]] | None:
    """The position the decisions of the turn in progress lead to (a Tesulda figure that
    has taken pieces), while some are made; else None."""
    state = tracker.state
    return state.physical() if len(state.move_stack) > tracker.turn_start else None


def pieces_shown(tracker: Tracker, cell: str, now: dict[str, tuple[str, ...]] | None
                 ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a view shows on ``cell``, and what of it is in hand: the position ``now``
    (:func:`decided`) where the sensor agrees with it, else the tracker's reading."""
    if now is not None:
        pieces = now.get(cell, ())
        if tracker.observe(pieces) == tracker.current[cell]:
            return pieces, ()
    return tracker.pieces_now(cell)


def not_your_turn(tracker: Tracker) -> str | None:
    """A piece of the side not to move is off its cell and no turn explains it."""
    state = tracker.state
    if state.outcome() is not None or tracker.prompt or tracker.restoring:
        return None
    wrong = []
    for cell in sorted(tracker.differing):
        _, held = tracker.pieces_now(cell)
        for piece in held:
            side = owner(piece, state.PLAYERS)
            if side is not None and side != state.to_move:
                wrong.append((cell, piece))
    if not wrong or tracker.alive():
        return None
    where = ", ".join(f"the {piece} piece on {cell}" for cell, piece in wrong)
    return f"Not your turn: {state.to_move} is to move. Put back {where}."


def fix_words(cells: dict[str, str], figures: bool = False) -> str:
    """What to do with each wrong cell: ``{cell: "empty" | pieces}`` -> sentences
    (``figures``: the pieces of a cell are one figure, said as its base and pieces)."""
    steps = []
    say = figure_words if figures else pieces_words
    for cell, should in cells.items():
        if should == "empty":
            steps.append(f"lift the {'figure' if figures else 'piece'} off {cell} (lit red)")
        else:
            steps.append(f"put {say(tuple(should.split('+')))} back on {cell} (lit blue)")
    return "; ".join(steps)


def figure_words(pieces: tuple[str, ...]) -> str:
    """A Tesulda figure: ``("light-square", "square", "hexagon")`` -> "the light square
    base with square, hexagon"."""
    base = pieces[0].replace("-", " ")
    return f"the {base} base with {', '.join(pieces[1:])}" if pieces[1:] else f"a {base} base"


def setup_words(service: BoardService) -> str | None:
    """Before the first move, while the board differs from the start position: what is
    missing and what is extra."""
    tracker = service.tracker
    if (not tracker.restoring or tracker.state.move_stack or service.taken_back is not None
            or service.positioned is not None):
        return None
    words = figure_words if tracker.state.FIGURES else pieces_words
    missing, extra = [], []
    for cell, should in tracker.restore_cells().items():
        if should == "empty":
            extra.append(f"{cell} (lit red: take it off)")
        else:
            missing.append(f"{words(tuple(should.split('+')))} on {cell} (lit blue)")
    parts = [f"missing {'; '.join(missing)}" if missing else "",
             f"extra figure on {', '.join(extra)}" if extra and tracker.state.FIGURES
             else f"extra piece on {', '.join(extra)}" if extra else ""]
    return ("The board is not set up as the game starts: "
            + "; ".join(p for p in parts if p) + ".")


def error_words(tracker: Tracker) -> str | None:
    if tracker.error is None:
        return None
    return ("No move leaves the board like this. To put it right: "
            f"{fix_words(tracker.error.cells, tracker.state.FIGURES)}.")


#: ``none`` where it is no decision of the position: the question may have been raised by
#: a piece only touched (or a shared press), and ``none`` says no turn was made.
NO_TURN_WORDS = "None of these: no turn was made"


def decisions_of(state: rules.GameState, value: str) -> list | None:
    """The decisions an option stands for, legal one after another from ``state`` (a
    decision, or a whole turn written as its decisions joined by spaces); None if it is
    not one."""
    try:
        return state.parse_turn(value)
    except rules.RulesError:
        return None


def asked(tracker: Tracker) -> dict:
    """The tracker's open question in words (see :func:`question`): its ``none`` says no
    turn was made where the tracker takes it so (a question between turns, or one a
    touch may have raised), else it is the position's decision (decline a swap, forfeit
    a Telec entry)."""
    prompt = tracker.prompt
    return question(tracker.state, prompt.options if prompt else None,
                    no_turn=tracker.deciding is None or tracker.no_turn)


def question(state: rules.GameState, options: list[str] | None,
             no_turn: bool = False) -> dict:
    """The open question in words: ``question`` (its heading) and ``options``, each
    ``{"value", "text", "pieces"}`` (the answer sent back, its words, the pieces it
    takes or gives, drawn on its button). An option that is a whole turn is said by
    ``state.turn_words``; ``none`` reads "no turn was made" where it is no decision of
    the position or ``no_turn`` says so; an option the position cannot read is shown as
    written."""
    if options is None:
        return {"question": None, "options": None}
    words, whole = [], False
    for value in options:
        moves = None if value == NONE and no_turn else decisions_of(state, value)
        if moves is None and value == NONE:
            words.append({"value": value, "text": NO_TURN_WORDS, "pieces": []})
            continue
        if moves is None:
            return {"question": "Which move?",
                    "options": [{"value": v, "text": v, "pieces": []} for v in options]}
        whole = whole or len(moves) > 1
        text, pieces = state.turn_words(moves)
        words.append({"value": value, "text": text, "pieces": list(pieces)})
    return {"question": "Which turn was played?" if whole else state.question(),
            "options": words}


def restore_steps(state: rules.GameState, move_text: str) -> list[str]:
    """How to put the board back after ``move_text`` was taken back (``state`` is the
    position before it): pieces off first, then pieces swapped, then pieces put back."""
    try:
        after = state.clone()
        after.push(after.parse_move(move_text))
    except rules.RulesError:
        return []
    was, now = state.physical(), after.physical()
    off, swap, back = [], [], []
    for cell in sorted(set(was) | set(now)):
        b, a = was.get(cell, ()), now.get(cell, ())
        if a == b:
            continue
        if not b:
            off.append(f"lift {pieces_words(a)} off {cell}")
        elif a:
            swap.append(f"on {cell} replace {pieces_words(a)} by {pieces_words(b)}")
        else:
            back.append(f"put {pieces_words(b)} back on {cell}")
    return off + swap + back


def takeback_words(service: BoardService) -> str | None:
    taken = service.taken_back
    tracker = service.tracker
    if taken is None:
        return None
    from sensorboard.numbering import move_label

    label = f"{move_label(taken['ply'], len(tracker.state.PLAYERS))} {taken['move']}"
    if not tracker.restoring:
        return f"Taken back: {label}. {tracker.state.to_move} to move."
    steps = restore_steps(tracker.state, taken["move"])
    numbered = " ".join(f"{i}) {s};" for i, s in enumerate(steps, start=1)).rstrip(";")
    return (f"Taken back: {label}. Put the board back as it was, in this order: {numbered}. "
            "The lit cells still differ (red: lift, blue: put a piece).")


def position_words(service: BoardService) -> str | None:
    """After an arbiter set a position: who did, how the game stands, what to put right."""
    item = service.positioned
    if item is None:
        return None
    state = service.tracker.state
    stands = "the game is over" if state.outcome() is not None else f"{state.to_move} to move"
    text = f"Arbiter {item['by']} set the position: {stands}."
    if service.tracker.restoring:
        text += " Put the board as the LEDs show (red: lift, blue: put a piece)."
    return text


def advice(service: BoardService) -> dict | None:
    """The one message the board shows now, most urgent first: ``{"kind", "text"}``."""
    tracker = service.tracker
    for kind, text in (("position", position_words(service)),
                       ("setup", setup_words(service)),
                       ("takeback", takeback_words(service) if tracker.restoring else None),
                       ("error", error_words(tracker)),
                       ("turn", not_your_turn(tracker)),
                       ("takeback", takeback_words(service))):
        if text:
            return {"kind": kind, "text": text}
    return None


def idle_press(tracker: Tracker, button: str) -> str:
    """Why a press changed nothing (the tracker returned no event)."""
    state = tracker.state
    if button == "takeback":
        return "Take back: there is no move to take back yet."
    if state.outcome() is not None:
        return f"{button.capitalize()}: the game is over."
    if button == "hint":
        if tracker.differing:
            return "Hint: shown between turns; finish or undo the move on the board first."
        if not state.hint_cells():
            return f"Hint: nothing to show; no cell is marked for {state.to_move} now."
        return ""
    if tracker.prompt:
        return "Clock: answer the question first."
    if tracker.restoring:
        return "Clock: put the board back first (the lit cells)."
    if not tracker.differing:
        return f"Clock: no turn to end; {state.to_move} has not moved a piece."
    return "Clock: the move on the board is not a complete legal turn yet."


def press(service: BoardService, button: str,
          player: str | None = None) -> tuple[list[dict], str]:
    """Press ``button`` on ``service`` (for the clock, ``player`` is whose side; None: a
    shared button): its events, and why nothing happened if nothing did."""
    events = service.act("press", button, player)
    return events, "" if events else idle_press(service.tracker, button)
