"""hint asks the engine for a turn: it shows on the LEDs in its own roles, step by step,
is said in words, journaled, and goes away when the board moves on; scans never wait."""

from __future__ import annotations

import time

import rules
from hardware.clock import VirtualClock
from sensorboard import guidance, suggest
from sensorboard.board import BoardOptions, open_board

# dark to move; taking d1 with c2 wins at once (Tessella: a fourth capture).
WIN_IN_ONE = "clear:cd45,d1,d3,e5 dark:a4,a5,ab23,b4,c2 dark"


def board_at(position: str, game: str = "tessella"):
    clock = VirtualClock()
    board = open_board(BoardOptions(game, clock=clock,
                                    state=rules.from_position(game, position)))
    board.service.suggester.budget = {"playouts": 200}
    return board, clock


def scan_until_hint(service, clock, limit: float = 60.0) -> list[dict]:
    """Scan (the virtual clock ticking) until the engine's answer comes, in real time."""
    out: list[dict] = []
    end = time.monotonic() + limit
    while not any(e["type"] == "hint" for e in out) and time.monotonic() < end:
        clock.advance(0.002)
        out += service.step()
        time.sleep(0.002)
    return out


def test_hint_lights_the_engines_turn_and_says_it():
    board, clock = board_at(WIN_IN_ONE)
    service = board.service
    try:
        events, why = guidance.press(service, "hint")
        assert events == [] and why == "Hint: the engine is thinking…"
        assert guidance.advice(service)["text"] == "Hint: the engine is thinking…"
        out = scan_until_hint(service, clock)
        [item] = [e for e in out if e["type"] == "hint"]
        assert item["move"] == "c2xd1" and item["win"] == 1.0
        service.step()
        assert service.frame == {"c2": "hint-from", "d1": "hint-to"}
        assert service.strip.shown()[service.layout.cell_led["d1"]] == service.palette["hint-to"]
        assert guidance.advice(service)["text"] == (
            "Hint: c2xd1: Dark piece from c2 captures the clear piece on d1 (the engine "
            "gives dark 100% from there).")
        service.sim_lift("c2")  # the player goes on: the suggestion is let go
        for _ in range(50):
            clock.advance(0.002)
            service.step()
        assert service.suggester.hint is None and "hint-to" not in service.frame.values()
    finally:
        board.close()


def test_a_turn_of_several_steps_shows_each_step_in_turn():
    from engine import Hint, Step

    tip = Hint((Step("a", "a1-a2", ("a1",), ("a2",)), Step("b", "5", (), ()),
                Step("c", "a2-a3", ("a2",), ("a3",))), "a1-a2 5 a2-a3", "words", 0.5)
    assert suggest.frame(tip, 0.2) == {"a1": "hint-from", "a2": "hint-to"}
    assert suggest.frame(tip, 1.2) == {"a2": "hint-from", "a3": "hint-to"}
    assert suggest.next_change(tip, 0.2) == suggest.STEP_SECONDS


def test_teblo_keeps_its_cutting_squares_on_the_first_press():
    cutting = ("yellow:a1:11:d1,a3,b3,f4,l4,k5,f7,e8,i8,a10,d10,j10,l10,e12 "
               "red:l12:11:h2,a4,b4,d4,i5,a6,a7,c7,j8,l8,k10,k11,c12,i12 yellow")
    board, clock = board_at(cutting, "teblo")
    service = board.service
    try:
        service.act("press", "hint")
        assert service.view.hint_cells == ("c2",)  # the first press: Teblo's own hint
        assert not service.suggester.thinking
        service.act("press", "hint")
        assert service.suggester.thinking  # the second: the engine
    finally:
        board.close()
