"""What the board tells a player in words: the page and the terminal show the same sentences.

Everything here is read from the turn's read model (:class:`boards.view.TurnView`) and the
service's last take-back; nothing here decides a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import rules
from boards.constants import NONE
from boards.view import Phase, TurnView

if TYPE_CHECKING:
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


def in_hand(view: TurnView) -> str:
    """The "in hand" line: only what is surely off the board, else how many and from where.

    When a cell that lost its piece holds one again (a capture: the enemy lifted, the
    shooter put there) the sensors cannot tell which piece is the one in hand, so the
    line says how many pieces are off the board and where they came from.
    """
    if not view.reading or view.restore:  # after a take-back the steps say it
        return ""
    figures = view.state.FIGURES  # a figure is lifted whole: counted and named as one
    say = figure_words if figures else pieces_words
    if view.after_visible:  # only the questions are left
        held = [(cell, view.shown(cell)[1]) for cell in view.differing]
        words = [f"{say(p).removeprefix('the ')} from {cell}" for cell, p in sorted(held) if p]
        return "In hand: " + ", ".join(words) if words else ""
    count = (lambda p: 1 if p else 0) if figures else len
    off = held_count = 0
    certain: list[str] = []
    sources: list[str] = []
    unsure = False
    for cell, on_board, held, _ in view.reading:
        off += count(view.before(cell)) - count(on_board)
        held_count += count(held)
        if held:
            certain.append(f"{say(held).removeprefix('the ')} from {cell}")
        unsure |= "?" in on_board
    for cell in view.state.GEOMETRY.names:
        if cell in view.touched and view.before(cell):
            sources.append(cell)
            unsure |= not view.pieces(cell)[1] or "?" in view.pieces(cell)[0]
    if off <= 0:
        return ""
    if not unsure and off == held_count:
        return "In hand: " + ", ".join(certain)
    kind = "figure" if figures else "piece"
    n = f"1 {kind}" if off == 1 else f"{off} {kind}s"
    return f"In hand: {n}, lifted from {', '.join(sources)}"


def not_your_turn(view: TurnView) -> str | None:
    """A piece of the side not to move is off its cell and no turn explains it."""
    if not view.stray:
        return None
    where = ", ".join(f"the {piece} piece on {cell}" for cell, piece in view.stray)
    return f"Not your turn: {view.state.to_move} is to move. Put back {where}."


def held_words(view: TurnView) -> str | None:
    """A complete turn that waits because it may still go on: the turn in the game's
    words, and what ends it."""
    if not view.waiting:
        return None
    turns = " or ".join(_turn_words(view.state, text) for text in view.waiting)
    return (f"Held: press the clock to end the turn ({view.player}'s clock). {turns}: "
            "complete, but it may still go on.")


def _turn_words(state: rules.GameState, text: str) -> str:
    """A turn in the game's words where it is one decision the rules can say
    (``Clear piece from e4 captures the dark piece on e5``), else its notation."""
    try:
        move = state.parse_move(text)
        return state.decision_words(move)[0] if move in state.legal_moves() else text
    except rules.RulesError:
        return text


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
    view = service.view
    if (not view.restore or view.state.move_stack or service.taken_back is not None
            or service.positioned is not None):
        return None
    words = figure_words if view.state.FIGURES else pieces_words
    missing, extra = [], []
    for cell, should in view.restore:
        if should == "empty":
            extra.append(f"{cell} (lit red: take it off)")
        else:
            missing.append(f"{words(tuple(should.split('+')))} on {cell} (lit blue)")
    parts = [f"missing {'; '.join(missing)}" if missing else "",
             f"extra figure on {', '.join(extra)}" if extra and view.state.FIGURES
             else f"extra piece on {', '.join(extra)}" if extra else ""]
    return ("The board is not set up as the game starts: "
            + "; ".join(p for p in parts if p) + ".")


def error_words(view: TurnView) -> str | None:
    if view.error is None:
        return None
    return ("No move leaves the board like this. To put it right: "
            f"{fix_words(dict(view.error), view.state.FIGURES)}.{belongs_words(view)}")


def belongs_words(view: TurnView) -> str:
    """After the board's die has rolled, where the turn goes on (an entry put on another
    tile is an error): `` Rolled 5: the turn goes on at d1.``"""
    if view.rolled is None:
        return ""
    state = view.state.clone()
    before = state.physical()
    cells: set[str] = set()
    for move in state.legal_moves():
        state.push(move)
        after = state.physical()
        state.pop()
        cells |= {c for c in before.keys() | after.keys() if before.get(c) != after.get(c)}
    return f" Rolled {view.rolled}: the turn goes on at {' or '.join(sorted(cells))}." \
        if cells else ""


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


def asked(view: TurnView) -> dict:
    """The open question in words (see :func:`question`): its ``none`` says no turn was
    made where the tracker takes it so (a question between turns, or one a touch may have
    raised), else it is the position's decision (decline a swap, forfeit a Telec entry).
    ``offered``: the option the board's ``hint`` button has on offer (None: none yet), and
    ``on_board``: that in words, with whose clock confirms it."""
    asked = view.question
    if asked is None:
        return {**question(view.state, None), "offered": None, "on_board": None}
    words = question(view.state, list(asked.values), no_turn=asked.no_turn)
    offer = asked.on_offer
    if offer is None:
        return {**words, "offered": None, "on_board": None}
    text = words["options"][asked.offered]["text"]
    return {**words, "offered": offer.value,
            "on_board": f"On the board: \u201c{text}\u201d is on offer; {asked.player}'s "
                        "clock confirms it, Hint offers the next."}


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
    view = service.view
    if taken is None:
        return None
    from sensorboard.numbering import move_label

    label = f"{move_label(taken['ply'], len(view.state.PLAYERS))} {taken['move']}"
    if not view.restore:
        return f"Taken back: {label}. {view.state.to_move} to move."
    steps = restore_steps(view.state, taken["move"])
    numbered = " ".join(f"{i}) {s};" for i, s in enumerate(steps, start=1)).rstrip(";")
    return (f"Taken back: {label}. Put the board back as it was, in this order: {numbered}. "
            "The lit cells still differ (red: lift, blue: put a piece).")


def position_words(service: BoardService) -> str | None:
    """After an arbiter set a position: who did, how the game stands, what to put right."""
    item = service.positioned
    if item is None:
        return None
    state = service.view.state
    stands = "the game is over" if state.outcome() is not None else f"{state.to_move} to move"
    text = f"Arbiter {item['by']} set the position: {stands}."
    if service.view.restore:
        text += " Put the board as the LEDs show (red: lift, blue: put a piece)."
    return text


def advice(service: BoardService) -> dict | None:
    """The one message the board shows now, most urgent first: ``{"kind", "text"}``."""
    view = service.view
    for kind, text in (("position", position_words(service)),
                       ("setup", setup_words(service)),
                       ("takeback", takeback_words(service) if view.restore else None),
                       ("turn", not_your_turn(view)),  # what the error is about
                       ("opponent", opponent_words(service)),
                       ("error", error_words(view)),
                       ("held", held_words(view)),
                       ("takeback", takeback_words(service)),
                       ("hint", hint_words(service))):
        if text:
            return {"kind": kind, "text": text}
    return None


THINKING = "Hint: the engine is thinking…"


SILENT = ("Carry it out on the board, then press the clock: the sensors cannot see this "
          "turn.")


def opponent_words(service: BoardService) -> str | None:
    """An opponent's turn to carry out, what is left of it to do by hand once the sensors
    have seen the rest, or (while it has given none) that it is to move, with what to put
    right if a piece was moved meanwhile."""
    seat = service.seat
    if seat is not None and seat.left is not None and service.view.phase is Phase.IDLE:
        return (f"{seat.opponent.label} ({seat.side}): now by hand, as lit: {seat.left.words} "
                "(no sensor sees it).")
    if seat is None or seat.side != service.view.player or service.view.phase is Phase.OVER:
        return None
    label, proposal = seat.opponent.label, seat.shown(service)
    if proposal is not None:
        if service.view.phase is not Phase.IDLE:
            return None
        return (f"{label} ({seat.side}) plays {proposal.text}: {proposal.hint.words}. "
                + (SILENT if seat.silent else "Carry it out on the board."))
    wrong = error_words(service.view)
    return f"{label} plays {seat.side}: wait for its turn. {wrong}" if wrong else None


def hint_words(service: BoardService) -> str | None:
    """The engine's suggested turn while it shows, or that it is being worked out."""
    suggester = service.suggester
    if suggester is None or service.view.phase is not Phase.IDLE:
        return None
    if suggester.thinking:
        return THINKING
    tip = suggester.hint
    if tip is None:
        return None
    return (f"Hint: {tip.notation}: {tip.words} (the engine gives {service.view.state.to_move} "
            f"{tip.win:.0%} from there).")


def idle_press(view: TurnView, button: str) -> str:
    """Why a press changed nothing (the tracker returned no event)."""
    state = view.state
    if button == "takeback":
        return "Take back: there is no move to take back yet."
    if state.outcome() is not None:
        return f"{button.capitalize()}: the game is over."
    if button == "hint" and view.question is not None:
        return ""  # the next option is on offer: the question says which
    if button == "hint":
        if view.reading:
            return "Hint: shown between turns; finish or undo the move on the board first."
        if not state.hint_cells():
            return f"Hint: nothing to show; no cell is marked for {state.to_move} now."
        return ""
    if view.question:
        return ("Clock: answer the question first (Hint puts an answer on offer, the clock "
                "then confirms it).")
    if view.restore:
        return "Clock: put the board back first (the lit cells)."
    if not view.reading:
        return f"Clock: no turn to end; {state.to_move} has not moved a piece."
    return "Clock: the move on the board is not a complete legal turn yet."


def press(service: BoardService, button: str,
          player: str | None = None) -> tuple[list[dict], str]:
    """Press ``button`` on ``service`` (for the clock, ``player`` is whose side; None: a
    shared button): its events, and why nothing happened if nothing did."""
    events = service.act("press", button, player)
    if button == "hint" and service.suggester is not None and service.suggester.thinking:
        return events, THINKING
    return events, "" if events else idle_press(service.view, button)
