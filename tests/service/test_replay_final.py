"""Replay's final line carries what is off the board, so a replay comparison sees it."""

from .helpers import ev, run


def test_the_final_line_carries_the_stock():
    """A Teblo block put down leaves one fewer in the placer's hand."""
    _, final = run("teblo", [ev(0.0, "place", "c3")])
    assert final["position"]["c3"] == ["yellow-block"]
    assert final["stock"]["yellow"]["yellow-block"] == final["stock"]["red"]["red-block"] - 1


def test_the_final_line_carries_the_captures():
    """Tessella counts captures toward winning: none yet at the start."""
    _, final = run("tessella", [ev(0.0, "lift", "e4"), ev(0.4, "place", "de45")])
    assert final["captured"] == {"clear": 0, "dark": 0}
