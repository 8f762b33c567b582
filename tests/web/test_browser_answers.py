"""Questions answered in the browser with the board's own buttons alone: Hint puts the
next option on offer (the page marks it and says so, the LEDs light its cells), the
clock confirms it. No option button is clicked."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.test_browser import cell, click_lift, click_place, open_board


def new_game(page: Page, game: str) -> None:
    page.select_option("#game", game)
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_contain_text(f"{game}:")


def hint(page: Page, times: int) -> None:
    for _ in range(times):
        before = page.locator("#on-board").text_content()
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#on-board")).not_to_have_text(before or "")


def clock(page: Page) -> None:
    page.get_by_role("button", name="Clock (end turn)").click()


def test_a_teblo_question_answered_with_hint_and_clock(server, page, artifacts):
    open_board(page, server.url)
    new_game(page, "teblo")
    for name in ("b1", "k12"):  # a block each
        click_place(page, name)
    click_lift(page, "a1")
    cell(page, "b1").click(modifiers=["Shift"])  # the pawn onto its own block (shift: put
    # down on a piece): the switch shows nothing
    click_place(page, "j12")
    expect(page.locator("#moves .move")).to_have_text(["+b1", "+k12", "a1-b1", "+j12"])
    cell(page, "b1").click()  # the pawn (the top piece) taken off its block: still nothing
    click_place(page, "c1")  # a block on c1, or the pawn stepping there?
    expect(page.locator("#prompt")).to_be_visible()
    expect(page.locator("#options button")).to_have_count(3)
    hint(page, 2)
    expect(page.locator('#options button[data-value="b1-c1"]')).to_have_attribute(
        "aria-current", "true")
    expect(page.locator("#on-board")).to_contain_text("is on offer; yellow's clock confirms")
    for name in ("b1", "c1"):  # the step's cells lit as the answer on offer
        expect(cell(page, name)).to_have_attribute("data-role", "offer")
    page.screenshot(path=str(artifacts / "answer-teblo.png"))
    clock(page)
    expect(page.locator("#moves .move").last).to_have_text("b1-c1")
    expect(page.locator("#prompt")).to_be_hidden()
    assert server.state()["moves"][-1] == "b1-c1"


def test_a_telec_size_answered_with_hint_and_clock(server, page, artifacts):
    open_board(page, server.url)
    new_game(page, "telec")
    click_place(page, "a1")  # blue's die showed 4: a pyramid enters on a1
    expect(page.locator("#question")).to_have_text(
        "Blue rolled 4: which pyramid was entered on a1?")
    hint(page, 6)
    expect(page.locator("#on-board")).to_contain_text("Size 6 pyramid")
    clock(page)
    expect(page.locator("#moves li")).to_contain_text(["roll 4 6"])
    expect(cell(page, "a1").locator("text.piece-text")).to_have_text("6")
    page.screenshot(path=str(artifacts / "answer-telec.png"))


def test_a_tesulda_swap_answered_with_hint_and_clock(server, page, artifacts):
    open_board(page, server.url)
    new_game(page, "tesulda")
    click_lift(page, "b2")
    click_place(page, "b3")  # next to a2 and c2: a swap may follow
    expect(page.locator('#options button[data-value="swap:s:a2>b3"]')).to_be_visible()
    hint(page, 2)  # none, then swap:s:a2>b3
    expect(page.locator('#options button[data-value="swap:s:a2>b3"]')).to_have_attribute(
        "aria-current", "true")
    page.screenshot(path=str(artifacts / "answer-tesulda.png"))
    clock(page)
    expect(page.locator("#moves .move").last).to_have_text("b2-b3 swap:s:a2>b3")
    assert server.state()["moves"] == ["b2-b3 swap:s:a2>b3"]
