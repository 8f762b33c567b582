"""What the web page shows, as one JSON-able dict: board, pieces, LEDs, moves, prompt."""

from __future__ import annotations

import rules
from boards import hints
from boards.view import TurnView
from sensorboard import clocks, guidance
from sensorboard.events import outcome_json, result_text
from sensorboard.numbering import full_moves
from sensorboard.service import BoardService
from sensorboard.web.against import opponent_json, thinking_json


def geometry_json(state: rules.GameState) -> dict:
    """The board for the page: ``Geometry.to_json()`` (adjacency kept, renderers draw lines)."""
    return state.GEOMETRY.to_json()


def cell_view(service: BoardService, name: str, shown: list) -> dict:
    """One cell for the page: where the decisions of the turn in progress changed it (a
    Tesulda figure that has taken pieces) and the sensors agree, as decided."""
    turn = service.view
    on_board, in_hand = turn.shown(name)
    role = service.frame.get(name)
    led = list(shown[service.layout.cell_led[name]])
    view = {
        "present": turn.present(name),
        "pieces": list(on_board),
        "in_hand": list(in_hand),
        "led": led,
        "role": role,
    }
    if service.sim is not None:
        view["magnets"] = service.sim_pieces(name)
    return view


def snapshot(service: BoardService, *, board: int = 0, demo: bool = False,
             token_required: bool = False) -> dict:
    """Everything the page draws except the geometry (sent once per board)."""
    view = service.view
    state = view.state
    shown = service.strip.shown()
    cells = {name: cell_view(service, name, shown) for name in state.GEOMETRY.names}
    moves = list(view.moves)
    outcome = outcome_json(state) or (service.flagged or {}).get("outcome")
    return {
        "type": "state",
        "board": board,
        "game": state.NAME,
        "layout": service.layout.name,
        "backend": service.backend,
        "simulated": service.sim is not None,
        "players": list(state.PLAYERS),
        "to_move": state.to_move,
        "outcome": outcome,
        "result": (service.flagged or {}).get("result") or (
            result_text(state) if outcome else None),
        "moves": moves,
        "numbered": full_moves(moves, len(state.PLAYERS)),
        "stock": state.stock(),
        "captured": state.captured(),
        "home": state.home(),
        "words": {"stock": state.STOCK_WORDS, "home": state.HOME_WORDS},
        "clock": state.to_move if not outcome and state.to_move in state.PLAYERS else None,
        "clocks": service.timing and clocks.to_json(service.timing, service.clock.now()),
        "hand": guidance.in_hand(view),
        "advice": guidance.advice(service),
        "cells": cells,
        "in_hand": sorted(c for c, v in cells.items() if v["in_hand"]),
        "prompt": list(view.question.values) if view.question else None,
        "question_key": view.question.key if view.question else None,
        **guidance.asked(view),
        "figures": state.FIGURES,
        "pool": state.pool(),
        "setup": setup_json(view),
        "error": dict(view.error) if view.error is not None else None,
        "demo": demo,
        "token_required": token_required,
        "games": sorted(rules.GAMES),
        "buttons": list(view.buttons),
        "rolled": view.rolled,
        "opponent": opponent_json(service),
        "thinking": thinking_json(service),
    }


def setup_json(view: TurnView) -> str | None:
    """The setup text a player may still change (before the first move, no move under
    way), or None: the page's setup form."""
    state = view.state
    if state.move_stack or (view.reading and not view.restore):
        return None
    return state.setup_text()


def position_json(state: rules.GameState, ply: int, end: int, start: int,
                  palette: dict[str, tuple[int, int, int]] = hints.PALETTE) -> dict:
    """The position after ``ply`` moves (turns) of ``state``'s game, read-only, with the
    LEDs the board showed for that move (``last`` on the cells it changed). The turn is
    ``state.move_stack[start:end]`` (several decisions in a game like Telec)."""
    after = state.clone()
    while len(after.move_stack) > end:
        after.pop()
    cells = after.physical()
    lit: dict[str, str] = {}
    move = None
    if ply:
        before = after.clone()
        turn = [before.pop() for _ in range(end - start)][::-1]
        move = " ".join(after.move_str(m) for m in turn)
        was = before.physical()
        lit = {c: "last" for c in sorted(set(was) | set(cells)) if was.get(c) != cells.get(c)}
    return {
        "ply": ply,
        "move": move,
        "to_move": after.to_move,
        "pieces": {c: list(p) for c, p in cells.items()},
        "leds": {c: {"role": role, "led": list(palette[role])} for c, role in lit.items()},
        "stock": after.stock(),
        "pool": after.pool(),
        "captured": after.captured(),
        "home": after.home(),
    }


# What each LED role means, for the legend (the role name is the colour's text alternative).
ROLE_TEXT = {
    "lifted": "a piece in hand came from here",
    "move": "a lifted piece may go here",
    "capture": "a piece here may be taken",
    "lift": "a piece here may still leave this turn",
    "wrong": "error: this cell should be empty",
    "missing": "error: a piece belongs here",
    "last": "the move just made",
    "held": "held: a complete turn that may still go on; the mover's clock ends it",
    "choice": "question: one of the candidate cells",
    "winner": "the winner's pieces",
    "cut": "a placement here would cut a path",
    "roll": "the die has rolled: the turn goes on here",
    "attacker": "this figure could take the Prime",
    "dodge": "a lifted Dodger may go here by its second leg",
    "offer": "question: the answer on offer (hint: next, clock: confirm)",
    "decline": "question: none is on offer (hint: next, clock: confirm)",
    "hint-from": "hint: the engine's turn takes a piece from here",
    "hint-to": "hint: the engine's turn puts a piece here",
    "opponent-from": "the opponent's turn: take a piece from here",
    "opponent-to": "the opponent's turn: put a piece here",
}


OPPONENT_ROLES = ("opponent-from", "opponent-to")  # only with an opponent (--opponent)
# The roles only some games' boards show; every board may show the others.
GAME_ROLES = {
    "tessella": ("capture",),
    "tulaga": ("capture",),
    "teblo": ("cut",),
    "telec": ("capture", "roll"),
    "tesulda": ("capture", "cut", "attacker", "dodge"),
}
OWN_TEXT = {("tesulda", "cut"): "hint: this figure could take your Prime"}


def legend_json(game: str, palette: dict[str, tuple[int, int, int]] = hints.PALETTE,
                die: bool = False, opponent: bool = False) -> list[dict]:
    """The roles ``game``'s board can show (``roll`` only with the board's ``die``, the
    opponent's only with an ``opponent``), each with its colour and what it means.

    >>> [item["role"] for item in legend_json("teblo")][-4:]
    ['winner', 'cut', 'hint-from', 'hint-to']
    >>> [item["role"] for item in legend_json("teblo", opponent=True)][-2:]
    ['opponent-from', 'opponent-to']
    """
    special = {role for roles in GAME_ROLES.values() for role in roles} | set(OPPONENT_ROLES)
    own = {role for role in GAME_ROLES[game] if role != "roll" or die}
    own |= set(OPPONENT_ROLES) if opponent else set()
    return [{"role": role, "rgb": list(rgb),
             "text": OWN_TEXT.get((game, role), ROLE_TEXT.get(role, role))}
            for role, rgb in palette.items() if role not in special or role in own]
