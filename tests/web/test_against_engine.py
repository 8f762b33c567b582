"""A whole game against the engine on the simulated board, in Chromium: the engine is
chosen in the page's "play against" menu, each of its turns is read from the page and
carried out there by clicking (as the player at the board would), and the test plays
its own side, until the game ends."""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Page, expect

import rules
from boards.choreography import turn_ops

GAME, LEVEL, ENGINE_SIDE = "tessella", 1, "dark"


def cell(page: Page, name: str):
    return page.locator(f'g.cell[data-cell="{name}"]')


def carry_out(page: Page, server, state: rules.GameState, move, rng) -> None:
    """The turn done by clicking the cells, one lift or place at a time; the clock ends
    it where the board holds it to see whether it goes on."""
    played = len(server.state()["moves"])
    for op, name in turn_ops(state, move, rng):
        cell(page, name).click()
        expect(cell(page, name)).to_have_attribute("data-present",
                                                   "0" if op == "lift" else "1")
    end = time.monotonic() + 10.0  # a bound, not a timing: the turn commits or is held
    while not _committed_or_held(server.state(), played) and time.monotonic() < end:
        time.sleep(0.05)
    if len(server.state()["moves"]) == played:
        page.get_by_role("button", name="Clock (end turn)").click()
    expect(page.locator("#moves .move")).to_have_count(played + 1)


def _committed_or_held(snap: dict, played: int) -> bool:
    """The turn is committed, or held on the LEDs for the mover's clock to end it."""
    held = any(cell["role"] == "held" for cell in snap["cells"].values())
    return len(snap["moves"]) > played or held


def _offered(page, who: str) -> None:
    """Wait until the page has filled its opponents in (fetched after load: slow under load)."""
    option = page.locator(f'#against-who option[value="{who}"]')
    expect(option).to_have_count(1, timeout=20000)


def test_a_whole_game_against_the_engine(make_server, page, artifacts):
    server = make_server(GAME)
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live")
    legend = page.locator('#legend li[data-role="opponent-from"]')
    expect(legend).to_have_count(0)  # no opponent yet: its roles are not in the legend
    _offered(page, f"engine:{LEVEL}")
    page.select_option("#against-who", f"engine:{LEVEL}")
    page.select_option("#against-side", ENGINE_SIDE)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#opponent-turn")).to_have_text(
        f"Playing against engine level {LEVEL} ({ENGINE_SIDE}).")
    page.check("#thinking-toggle")
    expect(legend).to_have_count(1)

    state, rng, seen_leds = rules.new_game(GAME), random.Random(7), False
    while state.outcome() is None:
        if state.to_move == ENGINE_SIDE:
            said = page.locator("#opponent-turn")
            expect(said).to_contain_text("Carry it out on the board.", timeout=20000)
            text = re.match(rf"engine level {LEVEL} \({ENGINE_SIDE}\) plays (\S+):",
                            said.inner_text()).group(1)
            move = state.parse_move(text)
            assert state.is_legal(move)
            if not seen_leds:  # the turn lit in the opponent's roles until carried out
                frm, to = re.split(r"[-x]", text)
                expect(cell(page, frm)).to_have_attribute("data-role", "opponent-from")
                expect(cell(page, to)).to_have_attribute("data-role", "opponent-to")
                expect(page.locator("#thinking")).to_contain_text("The engine's turn:")
                page.screenshot(path=str(artifacts / "against-engine.png"))
                seen_leds = True
        else:
            move = state.legal_moves()[0]
        carry_out(page, server, state, move, rng)
        state.push(move)
        assert server.state()["moves"] == [m for m in _turns(state)]
    expect(page.locator("#status")).to_have_text(re.compile("^Game over: "))
    assert server.state()["outcome"]["winner"] == state.outcome().winner
    assert not server.state()["error"]


def _turns(state: rules.GameState) -> list[str]:
    replay, out = rules.new_game(state.NAME), []
    for move in state.move_stack:
        out.append(replay.move_str(move))
        replay.push(move)
    return out


def _late(route) -> None:
    time.sleep(1.5)  # the page's first snapshot arrives while this script is held back
    route.continue_()


def test_the_menu_is_filled_in_when_its_script_loads_after_the_first_snapshot(
        make_server, page):
    server = make_server(GAME)
    page.route("**/static/against.js", _late)
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live")
    _offered(page, "page")


def test_a_person_on_the_page_plays_a_side_by_clicking(make_server, page):
    server = make_server(GAME)
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live")
    _offered(page, "page")
    page.select_option("#against-who", "page")
    page.select_option("#against-side", "dark")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#opponent-turn")).to_have_text("Playing against page (dark).")
    state, rng = rules.new_game(GAME), random.Random(1)
    move = state.parse_move("b1-a1")
    carry_out(page, server, state, move, rng)
    state.push(move)
    # dark's turn picked on the page: from d5, then to e5
    expect(page.locator("#picker")).to_be_visible()
    cell(page, "d5").click()
    expect(page.locator("#picker-text")).to_contain_text("From d5")
    expect(page.locator("#picks button")).to_have_text([  # only the turns from d5
        "d5-cd45: Dark piece from d5 to cd45", "d5-d4: Dark piece from d5 to d4",
        "d5-de45: Dark piece from d5 to de45", "d5-e5: Dark piece from d5 to e5"])
    cell(page, "e5").click()
    expect(page.locator("#opponent-turn")).to_have_text(
        "page (dark) plays d5-e5: Dark piece from d5 to e5. Carry it out on the board.")
    expect(cell(page, "d5")).to_have_attribute("data-role", "opponent-from")
    expect(page.locator("#picker")).to_be_hidden()
    move = state.parse_move("d5-e5")
    carry_out(page, server, state, move, rng)
    assert server.state()["moves"] == ["b1-a1", "d5-e5"]


def test_the_menu_and_the_picks_refuse_bad_input_in_one_line(make_server):
    server = make_server(GAME)
    assert server.post("against", {"opponent": "robot"}) == (400, {
        "error": "--opponent 'robot': expected engine[:LEVEL] (LEVEL 1-5), page or "
                 "board:NAME"})
    assert server.post("against", {"opponent": "page", "side": "purple"}) == (400, {
        "error": "--opponent-side 'purple': tessella's players are clear, dark"})
    assert server.post("turn", {"move": "d5-e5"}) == (409, {
        "error": "nobody plays from this page: choose 'a person on this page' under Play "
                 "against"})
    assert server.post("against", {"opponent": "page", "side": "clear"})[0] == 200
    assert server.post("turn", {"move": "c1-c5"}) == (409, {
        "error": "c1-c5: not a legal decision of clear here"})
    assert server.post("against", {"opponent": ""})[0] == 200
    assert server.state()["opponent"] is None


def test_the_engines_thinking_on_request_is_the_hints_without_an_opponent(make_server, page):
    server = make_server(GAME)
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#thinking")).to_be_hidden()
    page.check("#thinking-toggle")
    expect(page.locator("#thinking")).to_have_text("Nothing yet: press Hint to ask the engine.")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#thinking")).to_have_text(
        re.compile(r"^The engine's turn for clear: \S+; it gives clear \d+% to win\.$"),
        timeout=20000)
    tip = server.state()["thinking"]
    assert tip["by"] == "hint" and rules.new_game(GAME).is_legal(
        rules.new_game(GAME).parse_move(tip["move"]))
