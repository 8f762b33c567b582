"""The broadcast in Chromium: a 50-board round on a real broker, clocks ticking, a flag
falling on a real board, the standings, the pairing file's names, a board's own page."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import paho.mqtt.client as paho
import pytest
from playwright.sync_api import expect

import rules
from sensorboard import clocks
from sensorboard.board import BoardOptions, open_board
from sensorboard.recorder import Recorder, open_store
from sensorboard.tournament import PairingError, parse_pairings
from sensorboard.web.overview import serve
from sensorboard.web.server import WebSession, default_factory
from tests.recording.broker import Broker, free_port
from tests.recording.hall import wait_until
from tests.web.conftest import Server

BOARDS = 50
GAMES = sorted(rules.GAMES)
FLAG = "50"  # the real board, whose flag falls


class Hall:
    """49 boards' journals as the recorder receives them, through one MQTT client; each
    game a random legal Tessella game with its clock entries, as a board writes them."""

    def __init__(self, port: int) -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-hall")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.seq: dict[str, int] = {}

    def entry(self, board: str, game: str, item: dict) -> None:
        seq = self.seq[board] = self.seq.get(board, 0) + 1
        entry = {"board": board, "seq": seq, "game": game, "at": time.time(), "item": item,
                 "journal": f"journal-{board}"}
        self.client.publish(f"sensorboard/{board}/journal", json.dumps([entry]), qos=1)

    def status(self, board: str, online: bool) -> None:
        self.client.publish(f"sensorboard/{board}/status",
                            json.dumps({"online": online, "board": board}), qos=1, retain=True)

    def game(self, board: str, turns: int, rng: random.Random,
             game: str = "tessella") -> tuple[str, rules.GameState]:
        state = rules.new_game(game)
        uid = uuid.uuid4().hex
        self.status(board, True)
        self.entry(board, uid, {"type": "start", "game": game, "options": {},
                                "position": state.position_str(),
                                "players": list(state.PLAYERS), "uid": uid, "board": board,
                                "tags": {"Round": "1", "Board": board,
                                         "TimeControl": "600+5"}})
        now = time.time()
        timing = clocks.start(clocks.GameClock.new(clocks.TimeControl.parse("600+5"),
                                                   state.PLAYERS), now - 3 * turns)
        for ply in range(1, turns + 1):
            player, text = random_turn(state, rng)
            self.entry(board, uid, {"type": "move", "t": 0.0, "ply": ply, "player": player,
                                    "move": text})
            timing = clocks.end_turn(timing, now - 3 * (turns - ply))
            self.entry(board, uid, {"type": "clock", "t": 0.0, "why": "turn",
                                    **clocks.to_json(timing, time.time())})
        return uid, state

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def random_turn(state: rules.GameState, rng: random.Random) -> tuple[str, str]:
    """A random legal turn, each decision (a die's face too) pushed: (mover, its text)."""
    mover, parts = state.to_move, []
    while True:
        if state.to_move == rules.CHANCE:
            faces = state.chance_outcomes()
            move = rng.choices([f for f, _ in faces], [w for _, w in faces])[0]
        else:
            move = rng.choice(state.legal_moves())
        parts.append(state.move_str(move))
        state.push(move)
        if state.outcome() is not None or state.to_move not in (mover, rules.CHANCE):
            return mover, " ".join(parts)


class RecorderPages:
    """The recorder with its pages and the pairing file, on a loop in a thread."""

    def __init__(self, store_path, broker_port: int, pairings, token: str | None = None) -> None:
        self.port = free_port()
        self.store = open_store(str(store_path))
        self.recorder = Recorder(self.store, "127.0.0.1", broker_port)
        self.loop = asyncio.new_event_loop()
        self.task = None
        threading.Thread(target=self._run, args=(pairings, token), daemon=True).start()
        wait_until(lambda: self.task is not None and self.recorder.connected.is_set(),
                   what="the recorder")

    def _run(self, pairings, token) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(serve(self.recorder, "127.0.0.1", self.port, token,
                                                pairings))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Sensorboard-Token": "s3cret"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        time.sleep(0.2)
        self.store.close()


def run_board(board, stop: threading.Event) -> None:
    """The real board's live loop: a scan every 5 ms until its game ends."""
    service = board.service
    service.press("clock", "dark")  # dark starts clear's clock; clear never moves
    while not stop.is_set() and service.flagged is None:
        service.step()
        time.sleep(0.005)


def test_a_50_board_round_with_clocks_ticking_and_a_flag_falling(tmp_path, page, artifacts):
    names = {str(n): (f"White {n}", f"Black {n}") for n in range(1, BOARDS + 1)}
    pairings = parse_pairings("round,board,white,black\n" + "".join(
        f'1,{n},"{w}","{b}"\n' for n, (w, b) in names.items()))
    broker = Broker(tmp_path).start()
    pages = RecorderPages(tmp_path / "recorder.sqlite", broker.port, pairings)
    hall = Hall(broker.port)
    real = open_board(BoardOptions(
        "tessella", records=tmp_path / "b50", board=FLAG, mqtt=f"mqtt://127.0.0.1:{broker.port}",
        tags={"Round": "1", "Board": FLAG, "TimeControl": "4+0"}))
    stop = threading.Event()
    try:
        rng = random.Random(24)
        turns, pieces = {}, {}
        for n in range(1, BOARDS):
            board = str(n)
            turns[board] = rng.randrange(2, 9)
            if board == "6":  # an earlier game of this board, lost by white
                hall.entry(board, hall.game(board, 4, rng)[0], {
                    "type": "end", "t": 0.0, "result": "0-1", "reason": "adjudication"})
            game = GAMES[n % len(GAMES)] if 10 <= n < 20 else "tessella"
            uid, state = hall.game(board, turns[board], rng, game)
            pieces[board] = len(state.physical())
            if board == "2":
                hall.entry(board, uid, {"type": "prompt", "t": 0.0, "options": ["a", "none"]})
            elif board == "3":
                hall.entry(board, uid, {"type": "error", "t": 0.0, "cells": {"c3": "empty"}})
            elif board == "4":
                hall.status(board, False)
            elif board == "5":
                hall.entry(board, uid, {"type": "end", "t": 0.0, "result": "1-0",
                                        "reason": "adjudication"})
        threading.Thread(target=run_board, args=(real, stop), daemon=True).start()
        wait_until(lambda: len(pages.get("/api/round")["boards"]) == BOARDS
                   and all(b.get("turns") == turns[b["board"]]
                           for b in pages.get("/api/round")["boards"] if b["board"] in turns),
                   what="every board stored")

        page.goto(f"http://127.0.0.1:{pages.port}/broadcast")
        cards = page.locator("a.card")
        expect(cards).to_have_count(BOARDS)
        expect(page.locator("#title")).to_have_text("Round 1")
        seven = page.locator('a.card[data-board="7"]')
        expect(seven.locator(".player.p0 .name")).to_have_text("White 7")
        expect(seven.locator(".player.p1 .name")).to_have_text("Black 7")
        for n in range(7, 20):  # every game drawn from its geometry, a mark per occupied cell
            card = page.locator(f'a.card[data-board="{n}"]')
            expect(card.locator("svg.mini .piece")).to_have_count(pieces[str(n)])
        mover = "p0" if turns["7"] % 2 == 0 else "p1"
        running = seven.locator(f".player.{mover} .time")
        first = running.inner_text()
        expect(running).not_to_have_text(first, timeout=3000)  # the clock ticks down
        other = seven.locator(f".player.{'p1' if mover == 'p0' else 'p0'} .time")
        still = other.inner_text()
        page.wait_for_timeout(1100)
        assert other.inner_text() == still  # the side not to move waits
        label = f"{(turns['7'] + 1) // 2}.{'' if turns['7'] % 2 else '..'}"
        expect(seven.locator(".last")).to_contain_text(label)
        for board, text in (("2", "question open"), ("3", "error on the board"),
                            ("4", "offline"), ("5", "finished"), ("9", "playing")):
            expect(page.locator(f'a.card[data-board="{board}"] .status')).to_have_text(text)

        flagged = page.locator(f'a.card[data-board="{FLAG}"]')
        expect(flagged.locator(".status")).to_have_text("finished", timeout=15000)
        expect(flagged.locator(".result")).to_have_text("0-1 (clear out of time)")
        expect(flagged.locator(".player.p0 .time")).to_have_text("0:00")
        standings = page.locator("#standings tbody tr")
        expect(standings).to_have_count(6)  # boards 5 and 50 are finished, and 6's first
        expect(standings.nth(0)).to_contain_text("1")
        expect(page.locator("#standings")).to_contain_text(f"Black {FLAG}")
        expect(page.locator("#standings")).to_contain_text("White 5")
        expect(page.locator("#standings")).to_contain_text("Black 6")
        page.screenshot(path=str(artifacts / "broadcast.png"))
        page.evaluate("scrollTo(0, document.querySelector('a.card[data-board=\"10\"]')"
                      ".offsetTop)")
        page.screenshot(path=str(artifacts / "broadcast-games.png"))

        seven.click()
        expect(page).to_have_url(f"http://127.0.0.1:{pages.port}/broadcast/7")
        expect(page.locator("#moves li")).to_have_count((turns["7"] + 1) // 2)
        expect(page.locator(".player.p0 .name")).to_have_text("White 7")
        expect(page.locator("#status")).to_have_text("playing")
        assert not page.locator("button, input, select").count()  # read-only

        page.goto(f"http://127.0.0.1:{pages.port}/")  # the arbiter's overview, the same data
        rows = page.locator("#boards tr")
        expect(rows).to_have_count(BOARDS)
        row7 = rows.nth(6)
        expect(row7.locator("td").nth(1)).to_have_text("playing")
        expect(row7.locator("td").nth(3)).to_have_text("White 7")
        expect(row7.locator(".time")).to_have_count(2)
        expect(row7.locator("a")).to_have_attribute("href", "/broadcast/7")
        expect(rows.nth(1).locator("td").nth(1)).to_have_text("question")
        menu = row7.locator("select").first.element_handle()
        page.wait_for_timeout(1300)  # a poll or more: an unchanged board keeps its row
        assert menu.evaluate("e => e.isConnected")
    finally:
        stop.set()
        real.close()
        hall.close()
        pages.stop()
        broker.stop()


@pytest.mark.parametrize("text, says", [
    ("round,board,white\n1,1,Ann\n", "pairings:1: the header needs the columns round, "
                                     "board, white, black; missing black"),
    ("round,board,white,black\n1,1,Ann,\n", "pairings:2: column black is empty"),
    ("round,board,white,black\n1,1,Ann,Bo\n1,1,Cy,Di\n",
     "pairings:3: round 1 board 1 is paired already on line 2"),
])
def test_a_bad_pairing_file_is_one_line_naming_where(text, says):
    with pytest.raises(PairingError) as e:
        parse_pairings(text)
    assert str(e.value) == says


def test_the_recorder_refuses_a_bad_pairing_file_in_one_line(tmp_path):
    bad = tmp_path / "round3.csv"
    bad.write_text("round,board,white,black\n3,1,Ann,Bo\n3,2,,Di\n")
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "recorder", "--pairings",
                           str(bad), "--store", str(tmp_path / "rec.sqlite")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"sensorboard recorder: {bad}:3: column white is empty"]
    assert not (tmp_path / "rec.sqlite").exists()


def test_the_boards_own_page_shows_both_clocks_ticking(tmp_path, page):
    factory = default_factory("sim", records=str(tmp_path), tags={"TimeControl": "300+3"})
    srv = Server(WebSession("tessella", factory)).start()
    try:
        page.goto(srv.url)
        clear = page.locator('#sides li[data-player="clear"] .clock.time')
        dark = page.locator('#sides li[data-player="dark"] .clock.time')
        expect(clear).to_have_text("5:00")
        assert srv.post("press", {"button": "clock", "player": "dark"})[0] == 200
        expect(clear).to_have_class(re.compile(r"\brunning\b"))
        expect(clear).to_have_text(re.compile(r"4:5\d"), timeout=3000)  # it ticks
        expect(dark).to_have_text("5:00")
        expect(dark).not_to_have_class(re.compile(r"\brunning\b"))
    finally:
        page.goto("about:blank")  # the page's socket closed first: the server stops at once
        srv.stop()
        srv.session.close()


def test_the_arbiter_adds_time_from_the_recorder(tmp_path):
    broker = Broker(tmp_path).start()
    pages = RecorderPages(tmp_path / "recorder.sqlite", broker.port, (), token="s3cret")
    real = open_board(BoardOptions(
        "tessella", records=tmp_path / "b8", board="8", mqtt=f"mqtt://127.0.0.1:{broker.port}",
        tags={"Round": "1", "TimeControl": "600"}))
    stop = threading.Event()
    try:
        threading.Thread(target=run_board, args=(real, stop), daemon=True).start()
        wait_until(lambda: (pages.get("/api/boards")["boards"] or [{}])[0].get("clock"),
                   what="the board's clock at the recorder")
        for body, says in (({"action": "time", "player": "dark", "by": "Eve"},
                            "time: give seconds"),
                           ({"action": "time", "player": "dark", "seconds": "60", "by": "Eve"},
                            "seconds: must be a whole number")):
            status, answer = pages.post("/api/boards/8/correct", body)
            assert status == 400 and answer["error"] == says
        status, _ = pages.post("/api/boards/8/correct", {"action": "time", "player": "dark",
                                                         "seconds": 90, "by": "Eve"})
        assert status == 200
        wait_until(lambda: pages.get("/api/boards")["boards"][0]["clock"]["left"]["dark"]
                   == 690.0, what="dark's 90 s more at the recorder")
        real.writer.flush()
        assert "arbiter Eve: dark +90 s" in real.writer.record_path.read_text()
    finally:
        stop.set()
        real.close()
        pages.stop()
        broker.stop()
