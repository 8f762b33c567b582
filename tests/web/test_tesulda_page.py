"""Tesulda on the page: figures drawn as a base with its pieces, the removed pool, the attack
choice, swap and draw asked in words on buttons, and a setup entered before the first move."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

import rules
from boards.tracker import Tracker
from hardware.clock import RealClock
from rules.tesulda_setup import default_setup_text
from sensorboard import guidance
from sensorboard.board import Board, BoardOptions, open_board
from sensorboard.web.server import WebSession
from tests.web.conftest import ROOT, Server

PICTURE = ROOT / "docs" / "tesulda-page.png"

# light's d6 (a square base with two squares: straight 3) takes dark's d9 in dark's
# starting zone, next to light's e8: the attack choice, then a swap or a draw.
CAPTURE = ("light:a1=Skh,b2=Tcs,c1=Sssd,d6=Sss,e8=Sss,g2=Cczh,h1=Ccdh "
           "dark:a10=Sssh,b9=Tcs,d9=Ccc,f10=Cczh,g9=Tcs,h10=Ccdh,j10=Skh pool: light")


def served(position: str) -> Server:
    def factory(game: str, layout=None) -> Board:
        return open_board(BoardOptions(game, layout=layout, clock=RealClock(),
                                       state=rules.from_position("tesulda", position)))

    return Server(WebSession("tesulda", factory)).start()


@pytest.fixture
def capture_server():
    srv = served(CAPTURE)
    yield srv
    srv.stop()


def cell(page: Page, name: str):
    return page.locator(f'g.cell[data-cell="{name}"]')


def toggle(page: Page, name: str, present: str):
    cell(page, name).click()
    expect(cell(page, name)).to_have_attribute("data-present", present)


def test_a_capture_and_its_choices_played_by_clicking_worded_buttons(capture_server, page,
                                                                     artifacts):
    page.goto(capture_server.url)
    expect(page.locator("#connection")).to_have_text("live")
    # each figure drawn as its base in its owner's colour with the pieces on its rod
    d6 = cell(page, "d6")
    expect(d6).to_have_attribute("aria-label", "d6: light square base with square, square")
    expect(d6.locator('[data-base="square"][data-owner="light"]')).to_have_count(1)
    expect(d6.locator("[data-piece]")).to_have_count(2)
    expect(cell(page, "a1").locator('[data-piece="crown"]')).to_have_count(1)
    expect(cell(page, "d9").locator('[data-base="circle"][data-owner="dark"]')).to_have_count(1)
    expect(page.locator("#pool")).to_have_text("empty: no piece has been removed yet")

    toggle(page, "d9", "0")  # the captured figure lifted first, then the attacker
    toggle(page, "d6", "0")
    toggle(page, "d9", "1")
    question = page.locator("#question")
    expect(question).to_have_text("Attack: the figure on d9 captured a dark circle base with "
                                  "circle, circle. Which of its pieces does it take?")
    expect(page.locator("#options button")).to_have_text([
        "Take nothing (its pieces go to the removed pool)", "Take circle", "Take two circles"])
    expect(page.get_by_role("button", name="Take two circles")
           .locator('svg[data-piece="circle"]')).to_have_count(2)
    page.locator("#connection").evaluate("n => n.textContent = ''")
    page.mouse.move(990, 750)  # no cell name over the board
    expect(page.locator("#tip")).to_have_attribute("visibility", "hidden")
    page.screenshot(path=str(artifacts / "tesulda-attack.png"))
    # docs/tesulda-page.png in docs/rules/tesulda.md: replaced only when asked
    # (UPDATE_SCREENSHOT=1) or when missing, as the README's screenshot
    if os.environ.get("UPDATE_SCREENSHOT") == "1" or not PICTURE.exists():
        PICTURE.write_bytes((artifacts / "tesulda-attack.png").read_bytes())
    page.get_by_role("button", name="Take circle", exact=True).click()

    expect(question).to_have_text("Swap pieces with a neighbour, or draw from the removed "
                                  "pool? (The other may follow.)")
    expect(page.locator("#options button")).to_contain_text([
        "Draw circle from the pool", "No swap or draw: end the turn",
        "Swap circle from d9 to e8", "Swap square from e8 to d9"])
    # the taken circle is on the attacker's rod; the other one went to the pool
    expect(cell(page, "d9")).to_have_attribute(
        "aria-label", "d9: light square base with circle, square, square")
    expect(page.locator("#pool li")).to_have_text(["1 × circle"])
    expect(page.locator("#hand")).to_have_text("")  # the captured figure is off the game
    page.screenshot(path=str(artifacts / "tesulda-extras.png"))
    page.get_by_role("button", name="No swap or draw: end the turn").click()

    expect(page.locator("#moves .move")).to_have_text(["d6xd9 take:c none"])
    expect(page.locator("#prompt")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("tesulda: dark to move")
    expect(cell(page, "d9").locator("[data-piece]")).to_have_count(3)
    expect(page.locator("#pool li")).to_have_text(["1 × circle"])
    assert capture_server.state()["moves"] == ["d6xd9 take:c none"]


# light's Dodger on e4 (circle, trapezoid) may stop on e5 or, turning there, take dark's f6
DODGER = "light:e1=Skh,e4=Scz dark:f6=Tcs,j10=Skh pool: light"


def test_two_moves_the_board_cannot_tell_apart_are_asked_in_words(page, artifacts):
    """The Dodger set down on its corner e5, then dark's f6 and the Dodger lifted and a
    figure set down on f6: the Dodger went on and took f6, or it stopped on e5 and dark
    has begun taking it. The page asks which move light made in words, and the button
    sends the move's notation."""
    srv = served(DODGER)
    try:
        page.goto(srv.url)
        expect(page.locator("#connection")).to_have_text("live")
        for name, present in (("e4", "0"), ("e5", "1"), ("f6", "0"), ("e5", "0"), ("f6", "1")):
            toggle(page, name, present)
        expect(page.locator("#question")).to_have_text("Which move did light make?")
        expect(page.locator("#options button")).to_have_text([
            "Light square base with circle, trapezoid from e4 to e5",
            "Light square base with circle, trapezoid from e4 captures the dark triangle "
            "base with circle, square on f6"])
        expect(page.locator("#options")).not_to_contain_text("e4xf6")
        expect(page.locator("#hand")).to_have_text("In hand: 1 figure, lifted from e4, f6")
        page.screenshot(path=str(artifacts / "tesulda-which-move.png"))
        page.get_by_role("button", name="captures the dark triangle base").click()

        expect(page.locator("#question")).to_have_text(
            "Attack: the figure on f6 captured a dark triangle base with circle, square. "
            "Which of its pieces does it take?")
        page.get_by_role("button", name="Take circle", exact=True).click()
        expect(page.locator("#moves .move")).to_have_text(["e4xf6 take:c"])
        expect(page.locator("#prompt")).to_be_hidden()
        assert srv.state()["moves"] == ["e4xf6 take:c"]
    finally:
        srv.stop()


def test_figures_in_hand_and_to_put_right_are_named_as_figures():
    tracker = Tracker(rules.from_position("tesulda", DODGER))
    tracker.change("e4", False, 1.0)
    assert guidance.in_hand(tracker.view()) == ("In hand: light square base with circle, trapezoid "
                                         "from e4")
    tracker.change("f6", False, 2.0)
    assert guidance.in_hand(tracker.view()) == (
        "In hand: light square base with circle, trapezoid from e4, dark triangle base with "
        "circle, square from f6")
    tracker = Tracker(rules.from_position("tesulda", DODGER))
    tracker.change("e1", False, 1.0)
    tracker.change("j5", True, 2.0)
    tracker.tick(5.0)
    assert guidance.error_words(tracker.view()) == (
        "No move leaves the board like this. To put it right: lift the figure off j5 (lit "
        "red).")
    assert guidance.fix_words({"e1": "light-square+crown+hexagon"}, figures=True) == (
        "put the light square base with crown, hexagon back on e1 (lit blue)")


def test_a_setup_entered_on_the_page(make_server, page, artifacts):
    srv = make_server("tesulda")
    page.goto(srv.url)
    expect(page.locator("#connection")).to_have_text("live")
    box = page.locator("#setup-text")
    expect(box).to_have_value(default_setup_text())
    light = default_setup_text().split("dark")[0]
    bad = light.replace("a1=Sssh", "a1=Tss").replace("b1=Cccd", "b1=Cccx")
    box.fill(bad)
    page.get_by_role("button", name="Enter setup").click()
    expect(page.locator("#setup-errors li")).to_have_text([
        "setup line 1: light a1=Tss: a triangle may not start on the back rank (rank 1) (D-2)",
        "setup line 1: light b1: unknown piece letter 'x' (pieces: k crown, r star, c circle, "
        "s square, d diamond, z trapezoid, h hexagon)"])
    expect(page.locator("#notice")).to_have_text(
        "Setup not entered, nothing changed: 2 faults (listed under the setup box).")
    expect(box).to_have_value(bad)  # kept for correcting
    expect(cell(page, "a1")).to_have_attribute(
        "aria-label", "a1: light square base with square, square, hexagon")
    page.screenshot(path=str(artifacts / "tesulda-setup-errors.png"))

    box.fill(light.replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh"))
    page.get_by_role("button", name="Enter setup").click()
    expect(page.locator("#setup-errors li")).to_have_count(0)
    expect(cell(page, "a1")).to_have_attribute(
        "aria-label", "a1: light square base with square, square, trapezoid")
    expect(cell(page, "a1").locator('[data-piece="trapezoid"]')).to_have_count(1)
    assert str(srv.state()["setup"]).startswith("light a1=Sssz")

    toggle(page, "a2", "0")  # a2 now holds Sssh: straight 3, no friend next to a5
    toggle(page, "a5", "1")
    expect(page.locator("#moves .move")).to_have_text(["a2-a5"])
    expect(page.locator("#setup")).to_be_hidden()  # the game has begun
