"""What the LEDs show for Tesulda: a lifted figure's destinations (captures, and squares
only a Dodger's second leg reaches, each in their own colour), and the figures that could
take the Prime while it is in danger."""

import rules
from boards import hints
from boards.tracker import Tracker


def tesulda(text):
    return Tracker(rules.from_position("tesulda", text))


def roles(frame, role):
    return {cell for cell, r in frame.items() if r == role}


def test_a_lifted_dodger_lights_one_leg_squares_captures_and_second_leg_squares():
    # e4: square base, circle, trapezoid: straight 1, diagonal 1, Dodger (D-5)
    tracker = tesulda("light:a1=Skh,e4=Scz dark:j10=Skh,f5=Tcs pool: light")
    tracker.change("e4", False, 0.0)
    frame = hints.plan(tracker.view(), 0.1)
    assert frame["e4"] == "lifted"
    assert roles(frame, "capture") == {"f5"}
    assert roles(frame, "move") == {"d3", "d4", "d5", "e3", "e5", "f3", "f4"}
    assert roles(frame, "dodge") == {"c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"}
    assert len({hints.PALETTE[r] for r in ("move", "capture", "dodge")}) == 3


def test_the_primes_attackers_light_while_it_is_in_danger():
    # e8 (straight 1 + 2x3) sees down the open e-file to the Prime on e1 (D-9)
    tracker = tesulda("light:e1=Skc,c1=Ssh dark:e8=Ssssh,j10=Skh pool: light")
    assert hints.plan(tracker.view(), 0.0) == {"e8": "attacker"}
    tracker.change("c1", False, 0.5)  # and while a figure is in hand
    frame = hints.plan(tracker.view(), 0.6)
    assert frame["e8"] == "attacker" and frame["c1"] == "lifted" and frame["d1"] == "move"
    safe = tesulda("light:e1=Skc,e2=Tcs dark:e8=Ssssh,j10=Skh pool: light")
    assert hints.plan(safe.view(), 0.0) == {}
