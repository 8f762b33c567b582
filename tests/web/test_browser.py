"""The page in Debian's Chromium, driven by Playwright: play by clicking, see the LEDs."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Page, expect

import rules
from tests.web.conftest import ROOT

SCREENSHOT = ROOT / "docs" / "screenshot.png"


def cell(page: Page, name: str):
    return page.locator(f'g.cell[data-cell="{name}"]')


def open_board(page: Page, url: str):
    page.goto(url)
    expect(cell(page, "e4")).to_have_attribute("aria-label", "e4: clear piece")
    expect(page.locator("#connection")).to_have_text("live")


def click_lift(page: Page, name: str):
    cell(page, name).click()
    expect(cell(page, name)).to_have_attribute("data-present", "0")


def click_place(page: Page, name: str):
    cell(page, name).click()
    expect(cell(page, name)).to_have_attribute("data-present", "1")


def play(page: Page, move: str):
    frm, to = re.split(r"[-x]", move)
    click_lift(page, frm)
    if "x" in move:
        click_lift(page, to)
    click_place(page, to)
    expect(page.locator("#moves .move").last).to_have_text(move)


def test_tessella_to_a_capture_by_clicking(server, page, artifacts):
    open_board(page, server.url)
    expect(page.locator("#status")).to_have_text("tessella: clear to move")

    click_lift(page, "b1")
    expect(cell(page, "b1")).to_have_attribute("aria-label", re.compile("^b1: .* in hand"))
    # The LEDs: b1 lifted, a1 a move target, as the strip shows them, with the role as text.
    expect(cell(page, "b1")).to_have_attribute("aria-label", "b1: clear piece in hand, LED: lifted")
    expect(cell(page, "a1")).to_have_attribute("aria-label", "a1: empty, LED: move target")
    expect(cell(page, "a1")).to_have_attribute("data-led", "0,90,0")
    expect(cell(page, "a1").locator(".shape")).to_have_attribute("fill", "rgb(0, 230, 0)")
    expect(page.locator('#legend li[data-role="move"]')).to_contain_text("a1")
    expect(page.locator("#hand")).to_have_text("In hand: clear piece from b1")
    page.screenshot(path=str(artifacts / "tessella-1-lifted.png"))

    click_place(page, "a1")
    expect(page.locator("#moves .move")).to_have_text(["b1-a1"])
    expect(page.locator("#status")).to_have_text("tessella: dark to move")
    expect(cell(page, "a1")).to_have_attribute("aria-label", "a1: clear piece, LED: last move")

    play(page, "d5-e5")
    click_lift(page, "e4")
    expect(cell(page, "e5")).to_have_attribute("data-role", "capture")
    expect(page.locator('#legend li[data-role="capture"]')).to_contain_text("e5")
    page.screenshot(path=str(artifacts / "tessella-2-shooter-lifted.png"))
    click_lift(page, "e5")
    click_place(page, "e5")
    # The shooter may still be in hand (e5 touched): the clock says the turn is done.
    page.get_by_role("button", name="Clock (end turn)").click()
    expect(page.locator("#moves .move")).to_have_text(["b1-a1", "d5-e5", "e4xe5"])
    expect(cell(page, "e5")).to_have_attribute("aria-label", re.compile("^e5: clear piece"))
    page.screenshot(path=str(artifacts / "tessella-3-captured.png"))
    assert server.state()["moves"] == ["b1-a1", "d5-e5", "e4xe5"]


def test_error_is_shown_and_put_right(server, page, artifacts):
    open_board(page, server.url)
    click_lift(page, "b1")
    click_place(page, "c3")  # not a target of b1: after a second the board says so
    error = page.locator("#board-error")
    expect(error).to_have_text("No move leaves the board like this. To put it right: "
                               "lift the piece off c3 (lit red).")
    expect(cell(page, "c3")).to_have_attribute("data-role", "wrong")
    expect(cell(page, "c3")).to_have_attribute("aria-label",
                                               "c3: a piece (not yet known), LED: error, "
                                               "should be empty")
    page.screenshot(path=str(artifacts / "error.png"))
    click_lift(page, "c3")
    expect(error).to_be_hidden()
    click_place(page, "b2")
    expect(page.locator("#moves .move")).to_have_text(["b1-b2"])


def test_prompt_answered_with_a_button(server, page, artifacts):
    open_board(page, server.url)
    play(page, "b1-b2")
    play(page, "a3-ab23")
    # Lift the shooter and both enemies, put both back: which one did b2 take?
    for name in ("b2", "a2", "ab23"):
        click_lift(page, name)
    for name in ("a2", "ab23"):
        click_place(page, name)
    # The shooter may still be in hand: the clock ends the turn, and the board asks.
    page.get_by_role("button", name="Clock (end turn)").click()
    expect(page.locator("#question")).to_have_text("Which move did clear make?")
    options = page.locator("#options button")
    expect(options).to_have_text(["Clear piece from b2 captures the dark piece on a2",
                                  "Clear piece from b2 captures the dark piece on ab23",
                                  "None of these: no turn was made"])
    expect(page.locator('#options button[data-value="b2xa2"] svg')).to_have_count(1)
    expect(page.locator("#prompt")).to_be_visible()
    page.screenshot(path=str(artifacts / "prompt.png"))
    page.get_by_role("button", name="captures the dark piece on a2").click()
    expect(page.locator("#moves .move").last).to_have_text("b2xa2")
    expect(page.locator("#prompt")).to_be_hidden()
    assert server.state()["moves"][-1] == "b2xa2"


def test_a_press_that_does_nothing_says_why(server, page, artifacts):
    open_board(page, server.url)
    page.get_by_role("button", name="Clock (end turn)").click()
    expect(page.locator("#notice")).to_have_text(
        "Clock: no turn to end; clear has not moved a piece.")
    page.get_by_role("button", name="Hint").click()  # the engine's turn, in words
    expect(page.locator("#notice")).to_have_text("Hint: the engine is thinking…")
    expect(page.locator("#board-error")).to_contain_text("(the engine gives clear ",
                                                         timeout=30_000)
    page.get_by_role("button", name="Take back").click()
    expect(page.locator("#notice")).to_have_text(
        "Take back: there is no move to take back yet.")
    page.screenshot(path=str(artifacts / "press-why.png"))
    assert server.state()["moves"] == []


def test_action_errors_are_shown(server, page):
    open_board(page, server.url)
    page.evaluate("post('lift', {cell: 'nowhere'})")
    expect(page.locator("#notice")).to_contain_text("unknown cell 'nowhere'")


def test_viewer_without_the_token_sees_disabled_buttons(make_server, page, artifacts):
    srv = make_server(token="s3cret")
    open_board(page, srv.url)  # viewing is open
    viewer = page.locator("#viewer")
    expect(viewer).to_contain_text("You are watching: playing from this page needs the "
                                   "board's token")
    for name in ("Clock (end turn)", "Hint", "Take back", "New game"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    expect(page.locator("#game")).to_be_disabled()
    page.screenshot(path=str(artifacts / "viewer-disabled.png"))
    cell(page, "b1").click()
    expect(page.locator("#notice")).to_contain_text("needs the board's token")
    assert srv.state()["cells"]["b1"]["present"] is True
    answer = page.request.post(f"{srv.url}api/lift", data={"cell": "b1"})
    assert answer.status == 403
    assert srv.state()["cells"]["b1"]["present"] is True
    open_board(page, srv.url + "?token=s3cret")
    expect(page.get_by_role("button", name="Clock (end turn)")).to_be_enabled()
    expect(viewer).to_be_hidden()
    click_lift(page, "b1")


def test_keyboard_only(server, page):
    open_board(page, server.url)
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.cell") == "b1":
            break
    else:
        pytest.fail("Tab never reached cell b1")
    page.keyboard.press("Enter")
    expect(cell(page, "b1")).to_have_attribute("aria-label", re.compile("in hand"))
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.cell") == "a1"
    page.keyboard.press("Space")
    expect(page.locator("#moves .move")).to_have_text(["b1-a1"])


def test_narrow_phone_screen(server, browser, artifacts):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    try:
        open_board(page, server.url)
        overflow = page.evaluate("document.documentElement.scrollWidth - "
                                 "document.documentElement.clientWidth")
        assert overflow <= 0
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        page.screenshot(path=str(artifacts / "phone-360.png"), full_page=True)
    finally:
        context.close()


def test_every_game_renders_from_its_geometry(server, page, artifacts):
    open_board(page, server.url)
    for game in sorted(rules.GAMES):
        page.select_option("#game", game)
        page.get_by_role("button", name="New game").click()
        expect(page.locator("#status")).to_contain_text(f"{game}:")
        n = len(rules.new_game(game).GEOMETRY.names)
        expect(page.locator("g.cell")).to_have_count(n)
        occupied = len(rules.new_game(game).physical())
        expect(page.locator('g.cell[data-present="1"]')).to_have_count(occupied)
        page.screenshot(path=str(artifacts / f"game-{game}.png"))


def test_readme_screenshot(server, page, artifacts):
    """docs/screenshot.png in the README: a turn in progress, its targets lit.

    Refresh it with ``UPDATE_SCREENSHOT=1 .venv/bin/python -m pytest tests/web -k readme``.
    """
    open_board(page, server.url)
    play(page, "b1-b2")
    play(page, "a3-ab23")
    click_lift(page, "b2")
    expect(cell(page, "a2")).to_have_attribute("data-role", "capture")
    page.locator("#connection").evaluate("n => n.textContent = ''")
    page.mouse.move(990, 750)  # no cell name over the board
    expect(page.locator("#tip")).to_have_attribute("visibility", "hidden")
    page.screenshot(path=str(artifacts / "readme.png"))
    # Chromium's anti-aliasing differs by a few pixels from run to run: the committed
    # picture is replaced only when asked (UPDATE_SCREENSHOT=1) or when it is missing.
    if os.environ.get("UPDATE_SCREENSHOT") == "1" or not SCREENSHOT.exists():
        SCREENSHOT.parent.mkdir(exist_ok=True)
        SCREENSHOT.write_bytes((artifacts / "readme.png").read_bytes())
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_telec_shows_stashes_center_zone_and_asks_the_size(server, page, artifacts):
    open_board(page, server.url)
    page.select_option("#game", "telec")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_contain_text("telec:")
    blue = page.locator('#sides li[data-player="blue"]')
    expect(blue).to_contain_text("2 × blue-6 in the stash")  # the game's own words
    expect(blue).to_contain_text("0 in the Center Zone")
    # each tile shows its face (suit and value), and says it
    expect(cell(page, "a1")).to_have_attribute("aria-label", "a1 (blue 4): empty")
    expect(cell(page, "a1").locator("text.tile-face")).to_have_text("4")
    expect(cell(page, "b1").locator("text.tile-face")).to_have_attribute("data-face", "red ace")
    expect(cell(page, "b1").locator("text.tile-face")).to_have_text("A")
    click_place(page, "a1")  # blue's die showed 4: a pyramid enters on a1
    expect(page.locator("#question")).to_have_text(
        "Blue rolled 4: which pyramid was entered on a1?")
    expect(page.locator("#options .option-text")).to_have_text(
        [f"Size {n} pyramid" for n in range(1, 7)])
    expect(page.locator('#options button[data-value="6"] svg')).to_have_count(1)
    page.get_by_role("button", name="Size 6 pyramid").click()
    expect(page.locator("#moves li")).to_contain_text(["roll 4 6"])
    expect(cell(page, "a1").locator("text.piece-text")).to_have_text("6")
    expect(blue).to_contain_text("1 × blue-6 in the stash")
    page.screenshot(path=str(artifacts / "telec.png"))


def test_flip_the_board_and_step_through_the_moves_with_the_arrows(server, page):
    open_board(page, server.url)
    play(page, "b1-a1")
    a1, e5 = cell(page, "a1"), cell(page, "e5")
    assert a1.bounding_box()["x"] < e5.bounding_box()["x"]
    page.get_by_role("button", name="Flip the board").click()
    expect(page.get_by_role("button", name="Flip the board")).to_have_attribute(
        "aria-pressed", "true")
    assert a1.bounding_box()["x"] > e5.bounding_box()["x"]  # seen from dark's side
    assert a1.bounding_box()["y"] < e5.bounding_box()["y"]
    expect(a1).to_have_attribute("aria-label", "a1: clear piece, LED: last move")
    page.keyboard.press("ArrowLeft")  # the start position, read-only
    expect(page.locator("#review-text")).to_contain_text("Showing the start position")
    expect(a1).to_have_attribute("aria-label", "a1: empty")
    page.keyboard.press("ArrowRight")  # after the last move: the live board again
    expect(page.locator("#review")).to_be_hidden()
    expect(a1).to_have_attribute("aria-label", re.compile("^a1: clear piece"))
