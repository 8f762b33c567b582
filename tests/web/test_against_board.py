"""Another board chosen in the page's "play against" menu: paired on the board's MQTT link
and journal, its pairing code shown on the page; bad values refused in one line."""

import re

from playwright.sync_api import expect

from sensorboard.web.server import WebSession, default_factory
from tests.web.conftest import Server, start_server


def test_another_board_from_the_menu_shows_the_pairing_code(tmp_path, broker):
    factory = default_factory("sim", records=str(tmp_path / "A"), board="A",
                              mqtt=f"mqtt://127.0.0.1:{broker.port}")
    server = Server(WebSession("tessella", factory)).start()
    try:
        assert server.post("against", {"opponent": "board:B", "pair": "12"}) == (400, {
            "error": "--pair '12': a code is 8 letters and digits, like 7K3M-Q9XZ"})
        assert server.post("against", {"opponent": "board:B", "side": "dark"})[0] == 200
        shown = server.state()["opponent"]
        code = shown["code"]
        assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code)
        assert (shown["value"], shown["label"], shown["side"]) == ("board:B", "board:B", "dark")
        assert shown["news"] == f"pairing code {code} (game 1 with board B): on board B give " \
                                f"--opponent board:A --opponent-side clear --pair {code}"
        assert shown["game"] == 1
        assert {"value": "board:", "label": "another board (its name; docs/remote.md)"} in \
            server.call(server.session.full)["against"]
        assert server.post("against", {"opponent": "board:C", "pair": "m8rt 4xq2"})[0] == 200
        assert server.state()["opponent"]["code"] == "M8RT-4XQ2"
    finally:
        server.stop()


def test_a_new_game_on_the_page_keeps_the_pairing_and_counts_on(tmp_path, broker):
    factory = default_factory("sim", records=str(tmp_path / "A"), board="A",
                              mqtt=f"mqtt://127.0.0.1:{broker.port}")
    server = Server(WebSession("tessella", factory)).start()
    try:
        assert server.post("against", {"opponent": "board:B", "side": "dark"})[0] == 200
        code = server.state()["opponent"]["code"]
        assert server.post("new", {"game": "tessella"})[0] == 200
        shown = server.state()["opponent"]
        assert (shown["label"], shown["code"], shown["game"]) == ("board:B", code, 2)
        assert shown["news"].startswith(f"pairing code {code} (game 2 with board B)")
    finally:
        server.stop()


def test_another_board_needs_a_broker(tmp_path):
    server = start_server()
    try:
        assert server.post("against", {"opponent": "board:B"}) == (400, {
            "error": "board:B: this board reaches no broker; start it with --mqtt URL "
                     "(docs/remote.md)"})
        assert server.post("against", {"opponent": "page", "pair": "M8RT-4XQ2"}) == (400, {
            "error": "against: a pairing code goes with another board (board:NAME)"})
        assert server.state()["opponent"] is None
    finally:
        server.stop()


def test_the_menu_pairs_another_board_and_shows_its_code_in_chromium(tmp_path, broker, page):
    factory = default_factory("sim", records=str(tmp_path / "A"), board="A",
                              mqtt=f"mqtt://127.0.0.1:{broker.port}")
    server = Server(WebSession("tessella", factory)).start()
    try:
        page.goto(server.url)
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#against-board")).to_be_hidden()
        page.select_option("#against-who", "board:")
        page.fill("#against-name", "B")
        page.fill("#against-code", "m8rt-4xq2")
        page.get_by_role("button", name="Play").click()
        expect(page.locator("#opponent-turn")).to_have_text(
            "Playing against board:B (dark). Pairing code M8RT-4XQ2, game 1.")
        expect(page.locator("#against-name")).to_have_value("B")
    finally:
        server.stop()
