"""Tesulda in the terminal: figures as base letter and piece count, the removed pool, and
each question's answers in words beside what to type."""

import rules
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService
from sensorboard.terminal import render, symbol


def test_symbols_of_figures():
    players = ("light", "dark")
    assert symbol(("light-square", "crown", "hexagon"), True, players) == "S2"
    assert symbol(("dark-triangle", "circle", "square"), True, players) == "t2"
    assert symbol(("?",), True, players) == "?"
    assert symbol((), False, players) == "."


def test_a_capture_asked_in_words_and_the_pool_shown():
    state = rules.from_position("tesulda",
                                "light:a1=Skh,d6=Sss,e8=Sss dark:d9=Ccc,j10=Skh pool: light")
    clock = VirtualClock()
    service = BoardService(state, layout_for_game("tesulda"), clock=clock, backend="sim")
    run = VirtualRun(service, clock, lambda item: None)
    for t, (op, cell) in enumerate((("lift", "d9"), ("lift", "d6"), ("place", "d9"))):
        (service.sim_lift if op == "lift" else service.sim_place)(cell)
        run.scan_until(0.5 * (t + 1))
    run.scan_until(2.0)
    lines = render(service, color=False).splitlines()
    # the attacker stands on d9, lit (blinking) as the cell every answer changes
    assert lines[1] == " 9  .  .  . [S2 .  .  .  .  .  ."
    assert "removed pool: empty" in lines
    assert lines[-4:] == [
        "question: Attack: the figure on d9 captured a dark circle base with circle, circle. "
        "Which of its pieces does it take?",
        "  choose none  (Take nothing (its pieces go to the removed pool))",
        "  choose take:c  (Take circle)",
        "  choose take:cc  (Take two circles)"]
    service.choose("take:c")
    run.scan_until(3.0)
    lines = render(service, color=False).splitlines()
    assert lines[1] == " 9  .  .  . [S3 .  .  .  .  .  ."  # with the circle it took
    assert "removed pool: 1 x circle" in lines
    assert "  choose draw:c  (Draw circle from the pool)" in lines
    assert "  choose none  (No swap or draw: end the turn)" in lines
