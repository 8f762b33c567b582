"""Many boards, one recorder, a real mosquitto: every turn stored exactly once through a
broker restart, a recorder that is down, a board that loses power, duplicate deliveries."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sensorboard.journal import Journal
from sensorboard.mqtt import BoardLink
from tests.recording.broker import Broker
from tests.recording.hall import Board, RecorderThread, stored_turns, wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def all_stored(recorder, boards):
    for b in boards:
        assert b.writer.flush()
    return lambda: all(recorder.store.held(b.name, b.journal.identity) >= b.journal.seq
                       for b in boards)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["restart", "crash"])
def test_broker_restart_and_recorder_down_mid_round_lose_and_double_nothing(tmp_path, broker,
                                                                             stop):
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    boards = [Board(tmp_path, str(n), broker.port, seed=n) for n in range(1, 4)]
    for _ in range(4):
        for b in boards:
            b.turn()
    wait_until(all_stored(recorder.recorder, boards), what="the first turns")
    broker.stop(stop)  # mid-round (a restart, or a crash); the boards play on
    for _ in range(3):
        for b in boards:
            b.turn()
        time.sleep(0.05)
    broker.start()
    for b in boards:
        b.turn()
    wait_until(all_stored(recorder.recorder, boards), what="turns after the broker restart")
    recorder.stop()  # the recorder is down while the boards play
    for _ in range(4):
        for b in boards:
            b.turn()
    time.sleep(0.5)
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    wait_until(all_stored(recorder.recorder, boards), what="turns played while it was down")
    got = stored_turns(recorder.store)
    assert got == {b.name: b.turns for b in boards}
    assert all(len(b.turns) == 12 for b in boards)
    def board2():
        return {v["board"]: v for v in recorder.recorder.overview()}["2"]

    wait_until(lambda: board2()["turns"] == 12 and board2()["online"], what="the overview")
    assert board2()["last"] == boards[1].turns[-1]
    recorder.stop()
    for b in boards:
        b.close()


def test_duplicate_deliveries_are_stored_once(tmp_path, broker):
    import paho.mqtt.client as paho

    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    board = Board(tmp_path, "9", broker.port, seed=3)
    for _ in range(5):
        board.turn()
    wait_until(all_stored(recorder.recorder, [board]), what="the turns")
    rows = recorder.store.count()
    # the board forgets the acknowledgements and sends its whole journal again ...
    board.disconnect()
    board.journal.set_meta("mqtt_acked", "0")
    board.connect()
    wait_until(lambda: board.link.sent >= board.journal.seq, what="the resend")
    # ... and a replayed message arrives twice more from elsewhere
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="replayer")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    for entry in board.journal.entries()[:4]:
        for _ in range(2):
            message = client.publish("sensorboard/9/journal", json.dumps(entry.json()), qos=1)
            message.wait_for_publish(5)
    client.loop_stop()
    client.disconnect()
    board.turn()
    wait_until(all_stored(recorder.recorder, [board]), what="the last turn")
    time.sleep(0.3)
    assert recorder.store.count() == rows + 2
    assert stored_turns(recorder.store) == {"9": board.turns}
    recorder.stop()
    board.close()


BOARD_PROCESS = """
import sys, time
from tests.recording.hall import Board
board = Board(__import__("pathlib").Path(sys.argv[1]), "5", int(sys.argv[2]), seed=int(sys.argv[3]))
print("ready", flush=True)
for line in sys.stdin:
    board.turn()
    board.writer.flush()
    print(board.turns[-1], flush=True)
"""


def test_a_board_that_loses_power_shows_offline_and_sends_its_backlog_later(tmp_path, broker):
    """The board's process is killed (power cut: the broker publishes its last will); while
    it is away its journal gets turns it could not send (played on, network down); when it
    comes back everything arrives once."""
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", BOARD_PROCESS, str(tmp_path),
                             str(broker.port), "1"], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout.readline() == "ready\n"
    played = []
    for _ in range(3):
        proc.stdin.write("turn\n")
        proc.stdin.flush()
        played.append(proc.stdout.readline().strip())
    view = recorder.recorder.view("5")
    wait_until(lambda: view.log is not None and len(view.log.turns) == 3, what="3 turns")
    assert view.online
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    wait_until(lambda: not view.online, what="the last will")
    # Offline: the board's journal goes on (time compressed: a minute of play in a moment).
    journal = Journal(tmp_path / "5" / "journal.sqlite")
    offline = Board.offline(journal, played, seed=7)
    for _ in range(4):
        offline.turn()
    journal.close()
    played += offline.turns
    # Power is back: the board reconnects (fixed client id) and sends what is unacknowledged.
    journal = Journal(tmp_path / "5" / "journal.sqlite")
    link = BoardLink(journal, "127.0.0.1", broker.port).start()
    wait_until(lambda: view.online and view.log is not None and len(view.log.turns) == 7,
               what="the backlog")
    assert stored_turns(recorder.store) == {"5": played}
    link.stop(timeout=1)
    journal.close()
    recorder.stop()
