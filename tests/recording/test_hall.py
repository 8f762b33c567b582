"""The secured hall: mosquitto with the config, logins, TLS and ACL that
``deploy/install.sh --hall`` writes (into a temporary root), and each forgery of an open
hall tried against it and refused."""

import asyncio
import contextlib
import json
import ssl
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho
import pytest

from sensorboard.mqtt import MqttUrlError, parse_broker
from tests.recording.broker import Broker
from tests.recording.hall import Board, RecorderThread, stored_turns, wait_until

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"
REFUSED = "Not authorized"


class Hall:
    """The files install.sh --hall wrote under ``root``, and a broker running them."""

    def __init__(self, folder: Path, boards: str = "1-2") -> None:
        self.root = folder / "root"
        out = subprocess.run(["bash", str(INSTALL), "--hall", "--boards", boards, "--recorders",
                              "2", "--host", "localhost", "--root", str(self.root)],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        self.logins = self.root / "etc" / "sensorboard" / "hall"
        self.broker = Broker(folder, self.root / "etc/mosquitto/conf.d/sensorboard.conf").start()

    def url(self, login: str, tls: bool = True) -> str:
        """The login's broker URL, as its folder gives it, pointed at this broker and
        at the folder's own files (a board's install puts them in /etc/sensorboard)."""
        given = (self.logins / login / "broker.url").read_text().strip()
        assert given.startswith("mqtts://" if login.startswith("board-") else "mqtt://")
        folder = self.logins / login
        if tls:
            return (f"mqtts://{login}@127.0.0.1:{self.broker.tls_port}?ca={folder}/ca.crt"
                    f"&password_file={folder}/password")
        return f"mqtt://{login}@127.0.0.1:{self.broker.port}?password_file={folder}/password"

    def login(self, login: str, tls: bool = True):
        return parse_broker(self.url(login, tls))[2]

    def client(self, login: str | None, password: str | None = None, tls: bool = True):
        """A paho client of ``login`` (None: anonymous), connected or refused."""
        client = Client(self.broker.tls_port if tls else self.broker.port)
        if tls:
            client.paho.tls_set(ca_certs=str(self.logins / "board-1" / "ca.crt"))
        if login is not None:
            if password is None:
                password = (self.logins / login / "password").read_text().strip()
            client.paho.username_pw_set(login, password)
        return client.connect()


class Client:
    """paho, with what the broker answered and what it delivered."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.paho = paho.Client(paho.CallbackAPIVersion.VERSION2)
        self.answer = threading.Event()
        self.reason = None
        self.received: list[tuple[str, dict]] = []
        self.paho.on_connect = self._connected
        self.paho.on_message = lambda c, u, m: self.received.append(
            (m.topic, json.loads(m.payload)))

    def _connected(self, client, userdata, flags, reason, properties=None):
        self.reason = str(reason)
        self.answer.set()

    def connect(self) -> "Client":
        self.paho.connect("127.0.0.1", self.port)
        self.paho.loop_start()
        assert self.answer.wait(10), "no answer from the broker"
        return self

    def publish(self, topic: str, payload, retain: bool = False) -> None:
        self.paho.publish(topic, json.dumps(payload), qos=1, retain=retain).wait_for_publish(5)

    def forge(self, topic: str, payload, retain: bool = False) -> None:
        """Publish what the ACL refuses: mosquitto drops it (and 2.0 hangs up on the
        client, so this client is spent afterwards)."""
        sent = self.paho.publish(topic, json.dumps(payload), qos=1, retain=retain)
        with contextlib.suppress(RuntimeError):
            sent.wait_for_publish(2)
        self.close()

    def close(self) -> None:
        self.paho.loop_stop()
        self.paho.disconnect()


@pytest.fixture
def hall(tmp_path):
    h = Hall(tmp_path)
    yield h
    h.broker.stop()


def test_an_anonymous_client_or_a_wrong_password_is_refused(hall):
    for tls in (True, False):
        assert hall.client(None, tls=tls).reason == REFUSED
        assert hall.client("board-1", "guessed", tls=tls).reason == REFUSED
    assert hall.client("board-1").reason == "Success"
    conf = (hall.root / "etc/mosquitto/conf.d/sensorboard.conf").read_text()
    assert "allow_anonymous false" in conf and "allow_anonymous true" not in conf


def test_a_broker_posing_as_the_halls_is_refused_by_the_board(tmp_path, hall):
    """Another hall's broker (a certificate from another CA) on the address the board uses:
    the board's TLS check against its hall CA refuses it before sending its password."""
    other = Hall(tmp_path / "other")
    try:
        client = paho.Client(paho.CallbackAPIVersion.VERSION2)
        client.tls_set(ca_certs=str(hall.logins / "board-1" / "ca.crt"))
        with pytest.raises(ssl.SSLCertVerificationError):
            client.connect("127.0.0.1", other.broker.tls_port)
        assert hall.client("board-1").reason == "Success"  # its own hall's broker
    finally:
        other.broker.stop()


def test_a_board_writes_only_its_own_topics(tmp_path, hall):
    """Board 2's login writes a move at a future sequence number, a state and an offline
    status into board 1's topics: none reaches the recorder, and board 1's real turns are
    stored once each, with nothing kept aside."""
    recorder = RecorderThread(tmp_path / "recorder.sqlite", hall.broker.port,
                              login=hall.login("recorder-1", tls=False))
    board = Board(tmp_path, "1", hall.broker.tls_port, seed=1, login=hall.login("board-1"))
    board.turn()
    assert board.writer.flush()
    wait_until(lambda: recorder.store.held("1", board.journal.identity) == board.journal.seq,
               what="board 1's first turn")
    fake = {"board": "1", "game": board.uid, "seq": board.journal.seq + 2, "at": 1.0,
            "journal": board.journal.identity,
            "item": {"type": "move", "t": 0.0, "ply": 2, "player": "dark", "move": "b1-b2"}}
    own = hall.client("board-2")
    own.publish("sensorboard/2/journal", [fake])  # its own topic, another board's entry
    own.close()
    for topic, payload in (("journal", [fake]), ("state", {"result": "0-1"}),
                           ("status", {"online": False, "board": "1"})):
        hall.client("board-2").forge(f"sensorboard/1/{topic}", payload, retain=topic != "journal")
    for _ in range(3):
        board.turn()
    assert board.writer.flush()
    wait_until(lambda: recorder.store.held("1", board.journal.identity) == board.journal.seq,
               what="board 1's turns")
    assert stored_turns(recorder.store) == {"1": board.turns}
    assert recorder.store.conflicts() == [] and "2" not in recorder.recorder.boards
    assert recorder.recorder.view("1").online
    watcher = hall.client("arbiter-1")
    watcher.paho.subscribe("sensorboard/1/state", qos=1)
    wait_until(lambda: watcher.received, what="the retained state")
    assert watcher.received[-1][1]["turns"] == 4  # the board's own, not the forged one
    watcher.close()
    recorder.stop()
    board.close()


def test_only_a_recorder_acks_and_only_an_arbiter_corrects(tmp_path, hall):
    """An ack the board would take (its journal, the number it has written) sent with a
    board's or an arbiter's login never arrives; a correction sent with a board's or the
    recorder's login never arrives, nor does board 2 read board 1's commands; the recorder
    acks, and the arbiter's correction through the recorder arrives."""
    board = Board(tmp_path, "1", hall.broker.tls_port, seed=2, login=hall.login("board-1"),
                  resend=0.25)
    for _ in range(2):
        board.turn()
    assert board.writer.flush()
    wait_until(lambda: board.link.sent == board.journal.seq, what="the turns sent")
    ack = {"seq": board.journal.seq, "journal": board.journal.identity}
    assert board.link.acknowledges(ack)  # the board itself would take it
    snoop = hall.client("board-2")
    snoop.paho.subscribe("sensorboard/1/command", qos=1)
    correction = {"action": "result", "result": "0-1", "by": "Mallory"}
    for login in ("board-2", "arbiter-1"):
        hall.client(login).forge("sensorboard/1/ack", ack, retain=True)
    for login in ("board-2", "recorder-1"):
        hall.client(login).forge("sensorboard/1/command", correction)
    time.sleep(1.0)  # what the broker would deliver is there well within this
    assert board.link.acked == 0 and board.link.commands.empty()
    recorder = RecorderThread(tmp_path / "recorder.sqlite", hall.broker.port,
                              login=hall.login("recorder-1", tls=False))
    wait_until(lambda: board.link.acked == board.journal.seq, what="the recorder's ack")
    with pytest.raises(ConnectionError, match="need the recorder started with --arbiter"):
        run_on(recorder, recorder.recorder.command("1", {"action": "takeback", "by": "Eve"}))
    recorder.recorder.arbiter = hall.login("arbiter-1", tls=False)
    run_on(recorder, recorder.recorder.command("1", {"action": "takeback", "by": "Eve"}))
    wait_until(lambda: not board.link.commands.empty(), what="the arbiter's correction")
    assert board.link.commands.get()["by"] == "Eve" and board.link.commands.empty()
    time.sleep(0.3)
    assert snoop.received == []
    snoop.close()
    recorder.stop()
    board.close()


def test_recorders_sharing_the_load_read_journals_through_a_shared_subscription(hall):
    """Several recorders (a login each) join $share/<group>/...: the ACL lets them."""
    recorders = [hall.client(f"recorder-{n}", tls=False) for n in (1, 2)]
    for recorder in recorders:
        recorder.paho.subscribe("$share/hall/sensorboard/+/journal", qos=1)
    time.sleep(0.3)
    board = hall.client("board-1")
    for n in range(4):
        board.publish("sensorboard/1/journal", [{"n": n}])
    board.close()

    def got():
        return sorted(m[0]["n"] for r in recorders for _, m in r.received)

    wait_until(lambda: got() == [0, 1, 2, 3], what="each entry at one recorder")
    for recorder in recorders:
        recorder.close()


def test_a_fresh_journal_on_a_boards_login_is_recorded_beside_the_old_one(tmp_path, hall):
    recorder = RecorderThread(tmp_path / "recorder.sqlite", hall.broker.port,
                              login=hall.login("recorder-1", tls=False))
    turns = []
    for n, folder in enumerate(("card-1", "card-2")):
        board = Board(tmp_path / folder, "2", hall.broker.tls_port, seed=n,
                      login=hall.login("board-2"))
        for _ in range(4 - n):
            board.turn()
        assert board.writer.flush()
        wait_until(lambda b=board: b.link.acked == b.journal.seq, what="the journal acked")
        turns += board.turns
        board.close()
    assert stored_turns(recorder.store) == {"2": turns}
    recorder.stop()


def test_the_dry_run_shows_every_file_and_writes_nothing(tmp_path):
    root = tmp_path / "root"
    out = subprocess.run(["bash", str(INSTALL), "--hall", "--dry-run", "--boards", "7,9",
                          "--root", str(root)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert not root.exists()
    steps = out.stdout
    for path in ("etc/mosquitto/sensorboard/ca.crt", "etc/mosquitto/sensorboard/server.crt",
                 "etc/mosquitto/sensorboard/passwd", "etc/mosquitto/sensorboard/acl",
                 "etc/mosquitto/conf.d/sensorboard.conf", "hall/board-7/password",
                 "hall/board-9/broker.url", "hall/recorder-1/password",
                 "hall/arbiter-1/broker.url"):
        assert f"{root}/" in steps and path in steps, path
    assert "topic write sensorboard/7/journal" in steps and "allow_anonymous false" in steps


def test_the_shipped_config_listens_on_this_machine_only():
    shipped = (ROOT / "deploy" / "mosquitto.conf").read_text().splitlines()
    listeners = [line.split() for line in shipped if line.startswith("listener")]
    assert listeners and all(len(x) == 3 and x[2] == "127.0.0.1" for x in listeners)


def test_a_second_run_keeps_the_ca_and_every_password_and_adds_new_logins(tmp_path):
    def run(boards):
        out = subprocess.run(["bash", str(INSTALL), "--hall", "--boards", boards, "--root",
                              str(tmp_path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        hall = tmp_path / "etc" / "sensorboard" / "hall"
        return ((tmp_path / "etc/mosquitto/sensorboard/ca.crt").read_text(),
                {p.parent.name: p.read_text() for p in hall.glob("*/password")},
                (tmp_path / "etc/mosquitto/sensorboard/passwd").read_text())

    ca, first, _ = run("1")
    again, second, passwd = run("1-2")
    assert again == ca and second["board-1"] == first["board-1"]
    assert set(second) == {"board-1", "board-2", "recorder-1", "arbiter-1"}
    assert [line.split(":")[0] for line in passwd.splitlines()] == [
        "board-1", "board-2", "recorder-1", "arbiter-1"]
    assert all(p.strip() not in passwd for p in second.values())  # hashed


@pytest.mark.parametrize("url,message", [
    ("mqtts://board-1@h?password_file=/no/such", "password_file /no/such: no such file"),
    ("mqtt://h?ca=/etc/hostname", "ca is for mqtts:// (TLS)"),
    ("mqtts://h?cert=x", "unknown ['cert']"),
    ("http://h", "expected mqtt[s]://"),
])
def test_a_broker_url_that_cannot_be_used_is_one_line_naming_what(url, message):
    with pytest.raises(MqttUrlError) as caught:
        parse_broker(url)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_password_in_a_broker_url_is_not_repeated_in_messages():
    with pytest.raises(MqttUrlError) as caught:
        parse_broker("mqtts://board-1:s3cret@h:port")
    assert "s3cret" not in str(caught.value) and ":***@" in str(caught.value)


@pytest.mark.parametrize("args,message", [
    (["--boards", "1-4,7/8"], "--boards: '7/8' is not a board name"),
    (["--boards", "9-3"], "--boards: 9-3 runs backwards"),
    (["--boards", ""], "--boards: give the boards' names"),
    (["--boards", "1-3,2"], "--boards: board 2 is named twice"),
    (["--recorders", "0"], "--recorders must be a whole number >= 1, got '0'"),
    (["--host", "a b"], "--host must be a host name"),
])
def test_the_hall_setup_refuses_bad_options_in_one_line(tmp_path, args, message):
    out = subprocess.run(["bash", str(INSTALL), "--hall", "--dry-run", *args],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("install.sh: ") and message in out.stderr
    assert out.stderr.count("\n") == 1


def run_on(recorder: RecorderThread, coroutine):
    """Run ``coroutine`` on the recorder's event loop and return its result."""
    return asyncio.run_coroutine_threadsafe(coroutine, recorder.loop).result(20)
