"""What a player reads on the page at a glance: coordinates, piles, the numbered move list
and past positions, and the board's words for a wrong piece, a take-back and a viewer."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.test_browser import cell, click_lift, click_place, open_board, play


def coords(page: Page) -> list[str]:
    return page.locator("svg .coords text").all_text_contents()


def test_coordinates_on_the_edges_and_the_name_of_a_small_square(server, page, artifacts):
    open_board(page, server.url)
    assert coords(page) == ["a", "b", "c", "d", "e", "1", "2", "3", "4", "5"]
    cell(page, "ab12").hover()
    tip = page.locator("#tip")
    expect(tip).to_have_attribute("visibility", "visible")
    expect(tip.locator("text")).to_have_text("ab12")
    expect(page.locator("#where")).to_have_text("ab12: empty")
    page.screenshot(path=str(artifacts / "coords-tessella-hover.png"))
    cell(page, "e4").focus()  # the keyboard shows the name too
    expect(tip.locator("text")).to_have_text("e4")
    expect(page.locator("#where")).to_have_text("e4: clear piece")


def test_tulaga_is_drawn_as_the_points_of_a_chessboard(make_server, page, artifacts):
    srv = make_server("tulaga")
    page.goto(srv.url)
    expect(page.locator("#status")).to_have_text("tulaga: black to move")
    expect(page.locator("rect.point-square")).to_have_count(64)  # 8x8 squares, 9x9 points
    expect(page.locator("rect.point-square.dark")).to_have_count(32)
    expect(page.locator("svg line")).to_have_count(0)  # no diagonal (or any) lines drawn
    assert coords(page) == [*"abcdefghi", *"123456789"]
    # A stone sits on a point: the corner of four squares.
    a1 = page.locator('g.cell[data-cell="a1"]').bounding_box()
    square = page.locator("rect.point-square").first.bounding_box()
    assert abs(a1["x"] + a1["width"] / 2 - square["x"]) < 2
    assert abs(a1["y"] + a1["height"] / 2 - (square["y"] + square["height"])) < 2
    cell(page, "e5").hover()
    expect(page.locator("#tip text")).to_have_text("e5")
    click_place(page, "e5")
    expect(page.locator("#moves .move")).to_have_text(["e5"])
    page.screenshot(path=str(artifacts / "tulaga-board.png"))


def test_teblo_coordinates_readable_on_a_phone(make_server, browser, artifacts):
    srv = make_server("teblo")
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(srv.url)
        expect(page.locator("g.cell")).to_have_count(144)
        assert coords(page) == [*"abcdefghijkl", *[str(n) for n in range(1, 13)]]
        label = page.locator("svg .coords text").first.bounding_box()
        assert label["height"] >= 9  # px on a 360 px wide screen
        cell(page, "k11").hover()
        tip = page.locator("#tip rect").bounding_box()
        assert tip["height"] >= 14 and tip["x"] >= 0 and tip["x"] + tip["width"] <= 360
        expect(page.locator("#tip text")).to_have_text("k11")
        page.screenshot(path=str(artifacts / "teblo-360-coords.png"), full_page=True)
    finally:
        context.close()


def side(page: Page, player: str):
    return page.locator(f'#sides li[data-player="{player}"]')


def test_piles_captures_and_the_running_clock(make_server, page, artifacts):
    srv = make_server("tulaga")
    page.goto(srv.url)
    expect(side(page, "black")).to_contain_text("12 × black in hand")
    expect(side(page, "black")).to_contain_text("6 × black-rank in hand")
    expect(side(page, "black")).to_contain_text("clock running")
    expect(side(page, "white")).not_to_contain_text("clock running")
    click_place(page, "e5")
    expect(side(page, "black")).to_contain_text("11 × black in hand")
    expect(side(page, "white")).to_contain_text("clock running")
    page.screenshot(path=str(artifacts / "piles-tulaga.png"))

    page.select_option("#game", "teblo")
    page.get_by_role("button", name="New game").click()
    expect(side(page, "yellow")).to_contain_text("25 × yellow-block in hand")
    expect(side(page, "red")).to_contain_text("25 × red-block in hand")
    click_place(page, "f6")
    expect(side(page, "yellow")).to_contain_text("24 × yellow-block in hand")
    page.screenshot(path=str(artifacts / "piles-teblo.png"))

    page.select_option("#game", "tessella")
    page.get_by_role("button", name="New game").click()
    expect(side(page, "clear")).to_contain_text("captured 0")
    play(page, "b1-a1")
    play(page, "d5-e5")
    click_lift(page, "e5")  # the enemy first: with the shooter first, e5 may be a touch
    click_lift(page, "e4")
    click_place(page, "e5")
    expect(side(page, "clear")).to_contain_text("captured 1")
    expect(side(page, "dark")).to_contain_text("captured 0")
    page.screenshot(path=str(artifacts / "piles-tessella-captured.png"))


def test_full_move_list_and_a_past_position(server, page, artifacts):
    open_board(page, server.url)
    play(page, "b1-a1")
    play(page, "d5-e5")
    play(page, "e4-de45")
    rows = page.locator("#moves li")
    expect(rows).to_have_text(["1. b1-a1 d5-e5", "2. e4-de45"])
    expect(page.locator("#moves .move.last")).to_have_text("e4-de45")
    page.get_by_role("button", name="b1-a1", exact=True).click()
    review = page.locator("#review")
    expect(review).to_contain_text("Showing the position after 1. b1-a1 (read-only")
    expect(review).to_contain_text("dark was to move")
    # The position then: b1 moved to a1, d5 and e4 not moved yet; the LEDs of that move.
    expect(cell(page, "a1")).to_have_attribute("data-role", "last")
    expect(cell(page, "b1")).to_have_attribute("data-role", "last")
    expect(cell(page, "b1")).to_have_attribute("data-present", "0")
    expect(cell(page, "d5")).to_have_attribute("data-present", "1")
    expect(cell(page, "e4")).to_have_attribute("data-present", "1")
    expect(cell(page, "de45")).to_have_attribute("data-present", "0")
    expect(side(page, "dark")).to_be_visible()
    page.screenshot(path=str(artifacts / "moves-past-position.png"))
    cell(page, "e1").click()  # read-only: nothing is lifted
    expect(page.locator("#notice")).to_contain_text("read-only")
    assert server.state()["cells"]["e1"]["present"] is True
    page.get_by_role("button", name="Back to the live board").click()
    expect(review).to_be_hidden()
    expect(cell(page, "de45")).to_have_attribute("data-present", "1")
    expect(cell(page, "e4")).to_have_attribute("data-present", "0")


def test_not_your_turn_at_once(server, page, artifacts):
    open_board(page, server.url)
    click_lift(page, "a5")  # a dark piece; clear is to move
    advice = page.locator("#board-error")
    expect(advice).to_have_text("Not your turn: clear is to move. Put back the dark piece on a5.")
    expect(advice).to_have_attribute("data-kind", "turn")
    page.screenshot(path=str(artifacts / "not-your-turn.png"))
    click_place(page, "a5")
    expect(advice).to_be_hidden()
    play(page, "b1-a1")


def test_take_back_says_which_cells_to_restore_and_in_what_order(server, page, artifacts):
    open_board(page, server.url)
    play(page, "b1-a1")
    play(page, "d5-e5")
    click_lift(page, "e5")  # the enemy first: with the shooter first, e5 may be a touch
    click_lift(page, "e4")
    click_place(page, "e5")
    expect(page.locator("#moves .move").last).to_have_text("e4xe5")
    page.get_by_role("button", name="Take back").click()
    advice = page.locator("#board-error")
    expect(advice).to_have_text(
        "Taken back: 2. e4xe5. Put the board back as it was, in this order: 1) on e5 replace "
        "the clear piece by the dark piece; 2) put the clear piece back on e4. The lit cells "
        "still differ (red: lift, blue: put a piece).")
    expect(cell(page, "e4")).to_have_attribute("data-role", "missing")
    expect(page.locator("#hand")).to_have_text("")  # the clear piece is on e5, not in hand
    expect(page.locator("#moves .move")).to_have_text(["b1-a1", "d5-e5"])
    page.screenshot(path=str(artifacts / "takeback-guidance.png"))
    click_place(page, "e4")
    expect(advice).to_have_text("Taken back: 2. e4xe5. clear to move.")
    play(page, "e4-de45")
    expect(advice).to_be_hidden()


def test_in_hand_line_does_not_claim_a_piece_that_is_down(server, page):
    open_board(page, server.url)
    play(page, "b1-b2")
    play(page, "a3-ab23")
    for name in ("b2", "a2", "ab23"):
        click_lift(page, name)
    expect(page.locator("#hand")).to_have_text(
        "In hand: dark piece from a2, clear piece from b2, dark piece from ab23")
    for name in ("a2", "ab23"):
        click_place(page, name)
    # The shooter is on a2 or ab23 and an enemy in hand: which, the sensors cannot say.
    expect(page.locator("#hand")).to_have_text("In hand: 1 piece, lifted from a2, b2, ab23")
