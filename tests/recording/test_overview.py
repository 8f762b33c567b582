"""The recorder's pages on a real broker: boards live, a round's records and results, and an
arbiter's correction travelling to the board and back into the record."""

import asyncio
import json
import random
import threading
import time
import urllib.error
import urllib.request

import pytest

import rules
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard import guidance
from sensorboard.gamerecord import parse_record, parse_records
from sensorboard.gamewriter import open_game, open_journal
from sensorboard.mqtt import attach
from sensorboard.recorder import Recorder
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService
from sensorboard.store import SqliteStore
from sensorboard.web.overview import serve
from sensorboard.web.snapshot import snapshot
from tests.recording.broker import Broker, free_port
from tests.recording.hall import wait_until
from tests.recording.test_resume import play


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


class Pages:
    def __init__(self, store_path, broker_port, token):
        self.port = free_port()
        self.store = SqliteStore(str(store_path))
        self.recorder = Recorder(self.store, "127.0.0.1", broker_port)
        self.loop = asyncio.new_event_loop()
        self.task = None
        threading.Thread(target=self._run, daemon=True).start()
        wait_until(lambda: self.task is not None and self.recorder.connected.is_set(),
                   what="the recorder")
        self.token = token

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(serve(self.recorder, "127.0.0.1", self.port,
                                                "s3cret"))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def get(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return r.read().decode()

    def post(self, path, body, token="s3cret"):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Sensorboard-Token": token})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        time.sleep(0.2)
        self.store.close()


class Board4:
    """Board 4 on the broker, three turns of Tessella played on its simulated magnets."""

    def __init__(self, folder, broker_port):
        self.journal = open_journal(folder / "b4", board="4")
        self.writer, _ = open_game(self.journal, "tessella",
                                   tags={"Event": "Open", "Round": "2", "White": "Ann",
                                         "Black": "Bo"})
        self.link = attach(self.journal, f"mqtt://127.0.0.1:{broker_port}")
        self.clock = VirtualClock()
        self.service = BoardService(self.writer.state, layout_for_game("tessella"),
                                    clock=self.clock, listeners=[self.writer.event])
        self.service.listen(self.link.commands)
        self.run = VirtualRun(self.service, self.clock, [].append)
        line = rules.new_game("tessella")
        rng = random.Random(2)
        self.moves = []
        for _ in range(3):
            self.moves.append(rng.choice(line.legal_moves()))
            line.push(self.moves[-1])
        self.line = line
        self.t = play(self.service, self.run, rules.new_game("tessella"), self.moves, rng, 0.5)

    def corrected(self):
        """The corrections the arbiter sent, once they reach the board, carried out."""
        wait_until(lambda: not self.link.commands.empty(), what="the command at the board")
        return self.service.apply_corrections()

    def close(self):
        self.link.stop(timeout=1)
        self.writer.close()
        self.journal.close()


def overview_row(pages, board="4"):
    return {b["board"]: b for b in json.loads(pages.get("/api/boards"))["boards"]}.get(board)


def test_overview_round_export_and_an_arbiters_takeback(tmp_path, broker):
    pages = Pages(tmp_path / "recorder.sqlite", broker.port, "s3cret")
    b4 = Board4(tmp_path, broker.port)
    service, line, moves = b4.service, b4.line, b4.moves

    def board4():
        return overview_row(pages)

    wait_until(lambda: (board4() or {}).get("turns") == 3, what="three turns on the overview")
    assert board4()["online"] and board4()["tags"]["White"] == "Ann"
    # corrections need the token and a well-formed body; nothing is sent otherwise
    assert pages.post("/api/boards/4/correct", {"action": "takeback", "by": "Eve"},
                      token="wrong")[0] == 403
    status, answer = pages.post("/api/boards/4/correct", {"action": "undo", "by": "Eve"})
    assert status == 400 and "action 'undo'" in answer["error"]
    assert pages.post("/api/boards/9/correct", {"action": "takeback", "by": "Eve"})[0] == 404
    status, _ = pages.post("/api/boards/4/correct", {"action": "takeback", "turns": 1,
                                                     "by": "Eve"})
    assert status == 200
    taken = b4.corrected()
    assert [x["type"] for x in taken] == ["takeback"]
    assert service.tracker.restoring  # the LEDs show the piece to put back
    wait_until(lambda: board4()["turns"] == 2, what="the takeback on the overview")
    status, _ = pages.post("/api/boards/4/correct", {"action": "result", "result": "1-0",
                                                     "reason": "time", "by": "Eve"})
    b4.corrected()
    wait_until(lambda: board4()["result"] == "1-0", what="the result")
    text = pages.get("/rounds/2/records.txt")
    assert '[Result "1-0"]' in text and '[Termination "time"]' in text
    assert "arbiter Eve: take back 1 turn(s)" in text and "arbiter Eve: result 1-0" in text
    (record,) = parse_records(text)
    assert [t.text for t in record.turns] == [line.move_str(m) for m in moves[:2]]
    csv_text = pages.get("/rounds/2/results.csv")
    assert csv_text.splitlines()[1].startswith("4,Ann,Bo,1-0,time,2,tessella,Open,2")
    assert pages.get("/rounds/7/records.txt") == ""
    b4.close()
    pages.stop()


def test_a_position_that_ends_the_game_is_the_result_everywhere(tmp_path, broker):
    """The docs' own correction sets a Tessella position dark cannot move in: the board,
    its record, the recorder's overview, records.txt and results.csv all say clear won,
    and the board's notice is the arbiter's position, not the takeback before it."""
    pages = Pages(tmp_path / "recorder.sqlite", broker.port, "s3cret")
    b4 = Board4(tmp_path, broker.port)
    wait_until(lambda: (overview_row(pages) or {}).get("turns") == 3, what="three turns")
    assert pages.post("/api/boards/4/correct", {"action": "takeback", "by": "Eve"})[0] == 200
    b4.corrected()
    assert guidance.advice(b4.service)["kind"] == "takeback"
    position = "clear:a1,b1,c1 dark:c5,d5,e5 dark"
    assert rules.from_position("tessella", position).outcome().winner == "clear"
    status, _ = pages.post("/api/boards/4/correct", {"action": "position", "position": position,
                                                     "by": "Eve"})
    assert status == 200
    assert [x["type"] for x in b4.corrected()] == []
    b4.run.scan_until(b4.t + 2)
    shown = snapshot(b4.service)
    assert shown["result"].startswith("clear wins")
    advice = guidance.advice(b4.service)
    assert advice["kind"] == "position" and "Taken back" not in advice["text"]
    assert "Arbiter Eve set the position: the game is over" in advice["text"]
    b4.writer.flush()
    own = parse_record(b4.writer.record_path.read_text())
    assert own.tags["Result"] == "1-0" and own.tags["Termination"] == "fourth capture"
    wait_until(lambda: overview_row(pages)["result"] == "1-0", what="the result on the overview")
    assert overview_row(pages)["ended"]
    (record,) = parse_records(pages.get("/rounds/2/records.txt"))
    assert record.tags["Result"] == "1-0" and record.turns[-1].setup == position
    row = pages.get("/rounds/2/results.csv").splitlines()[1]
    assert row.startswith("4,Ann,Bo,1-0,fourth capture,")
    b4.close()
    pages.stop()
