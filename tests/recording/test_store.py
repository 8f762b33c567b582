"""The recorder's store behind one interface, on SQLite and on a real PostgreSQL; several
recorders sharing one database through an MQTT shared subscription."""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sensorboard.store import Store, StoreError, open_store
from tests.recording.broker import Broker, bridge_lines
from tests.recording.hall import Board, RecorderThread, stored_turns, wait_until

ROOT = Path(__file__).resolve().parents[2]


def entry(board: str, seq: int, item: dict, journal: str = "j1", game: str = "g1") -> dict:
    return {"board": board, "journal": journal, "seq": seq, "game": game, "at": float(seq),
            "item": item}


def start(board: str, journal: str = "j1", game: str = "g1", seq: int = 1) -> dict:
    return entry(board, seq, {"type": "start", "game": "tessella",
                              "players": ["clear", "dark"], "tags": {"Round": "1"}},
                 journal, game)


def move(board: str, seq: int, text: str, journal: str = "j1", game: str = "g1") -> dict:
    return entry(board, seq, {"type": "move", "move": text}, journal, game)


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "recorder.sqlite")
    return request.getfixturevalue("postgres_url")


def test_each_entry_is_stored_once_and_held_counts_only_what_has_no_gap(where):
    store = open_store(where)
    assert isinstance(store, Store)
    assert len(store.add([start("7"), move("7", 3, "c1-c2")])) == 2
    assert store.held("7", "j1") == 1  # entry 2 is missing
    assert [e["seq"] for e in store.add([move("7", 2, "d5-d4"), start("7")])] == [2]
    assert store.held("7", "j1") == 3
    assert store.add([move("7", 2, "d5-d4")]) == []  # a duplicate delivery changes nothing
    assert store.count() == 3 and store.kept_aside == 0
    assert store.turns() == [("7", "g1", "d5-d4"), ("7", "g1", "c1-c2")]
    assert store.entries([("7", "j1", 1)]) == [move("7", 2, "d5-d4"), move("7", 3, "c1-c2")]
    store.close()
    store = open_store(where)  # opened again: what is held is known at once
    assert store.held("7", "j1") == 3
    assert store.games() == [("7", "g1")]
    assert [r.turns for r in store.records()] != []
    store.close()


def test_a_different_entry_under_a_stored_number_is_kept_aside(where):
    store = open_store(where)
    store.add([start("4"), move("4", 2, "c1-c2")])
    assert store.add([move("4", 2, "a1-a2")]) == []
    assert store.kept_aside == 1
    [conflict] = store.conflicts("4")
    assert (conflict.seq, conflict.item["move"]) == (2, "a1-a2")
    assert store.turns() == [("4", "g1", "c1-c2")]  # the first one stands
    log = store.log("4", "g1")
    notes = log.preamble + [note for turn in log.turns for note in turn.notes]
    assert any("kept aside" in note for note in notes)
    store.close()


def test_two_different_entries_under_one_number_in_one_batch_keep_the_first(where):
    store = open_store(where)
    assert len(store.add([start("6"), move("6", 2, "c1-c2"), move("6", 2, "a1-a2"),
                          move("6", 2, "c1-c2")])) == 2
    assert store.turns() == [("6", "g1", "c1-c2")]
    assert [c.item["move"] for c in store.conflicts("6")] == ["a1-a2"]
    store.close()


def test_a_board_s_journals_come_in_the_order_they_arrived(where):
    store = open_store(where)
    for journal, game, text in (("ffff", "old", "c1-c2"), ("0000", "new", "d5-d4")):
        store.add([start("3", journal, game), move("3", 2, text, journal, game)])
    assert [t[2] for t in store.turns()] == ["c1-c2", "d5-d4"]
    assert store.games() == [("3", "old"), ("3", "new")]
    assert store.journal_of("3", "new") == "0000"
    store.close()


def test_two_recorders_on_one_database_store_each_entry_once_and_ack_the_whole(
        postgres_url):
    """Two stores (two recorders) take interleaved and overlapping deliveries at once;
    the database keeps each (board, journal, seq) once, and each recorder's ack counts
    the entries the other stored."""
    stores = [open_store(postgres_url), open_store(postgres_url)]
    entries = [start("1")] + [move("1", seq, f"m{seq}") for seq in range(2, 201)]

    def deliver(store: Store, part: list[dict]) -> None:
        for i in range(0, len(part), 7):
            store.add(part[i:i + 7])

    threads = [threading.Thread(target=deliver, args=(stores[0], entries[0::2] + entries[:50])),
               threading.Thread(target=deliver, args=(stores[1], entries[1::2] + entries[:50]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert stores[0].count() == 200
    assert [t[2] for t in stores[0].turns()] == [f"m{seq}" for seq in range(2, 201)]
    stores[0].add([move("1", 199, "m199")])  # any later delivery brings the ack up to date
    assert stores[0].held("1", "j1") == 200
    stores[1].add([move("1", 200, "m200")])
    assert stores[1].held("1", "j1") == 200
    for store in stores:
        store.close()


def test_a_database_of_another_schema_is_refused(postgres_url):
    import psycopg

    open_store(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE meta SET value='9' WHERE key='schema'")
    with pytest.raises(StoreError, match="schema 9, this version reads 2"):
        open_store(postgres_url)


def test_a_database_that_cannot_be_reached_is_a_store_error(postgres_server):
    url = postgres_server.url.replace(postgres_server.password, "wrong")
    with pytest.raises(StoreError, match="password authentication failed"):
        open_store(url)


def acked(boards):
    """Every board's journal written and acknowledged to its last entry."""
    return lambda: all(b.writer.flush() for b in boards) and all(
        b.link.acked == b.journal.seq for b in boards)


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def test_recorders_of_a_group_share_the_load_and_lose_or_double_nothing(
        tmp_path, broker, postgres_url):
    """Two recorders in one shared subscription on one database: the broker gives each
    entry to one of them; every turn is stored once and every board is acked to the end,
    also after one recorder stops mid-round."""
    got = {"a": 0, "b": 0}

    def counter(name):
        return lambda new, _: got.__setitem__(name, got[name] + len(new))

    recorders = {name: RecorderThread(open_store(postgres_url), broker.port, share="hall",
                                      client_id=f"rec-{name}", on_stored=counter(name))
                 for name in got}
    for r in recorders.values():
        wait_until(lambda r=r: r.recorder.client is not None, what="the recorders")
    boards = [Board(tmp_path, str(n), broker.port, seed=n) for n in range(1, 5)]

    for _ in range(6):
        for b in boards:
            b.turn()
    wait_until(acked(boards), what="every board acked")
    assert got["a"] > 0 and got["b"] > 0  # both took a share

    def shown(r):  # each recorder's page shows every board's game whole
        return lambda: {v["board"]: (v.get("turns"), v.get("last"))
                        for v in r.recorder.overview()} == {
            b.name: (len(b.turns), b.turns[-1]) for b in boards}

    for r in recorders.values():
        wait_until(shown(r), what="every turn on each recorder's overview")
    recorders["b"].stop()  # one recorder goes away mid-round; the boards play on
    for _ in range(4):
        for b in boards:
            b.turn()
    wait_until(acked(boards), what="every board acked by the recorder left")
    store = recorders["a"].store
    assert stored_turns(store) == {b.name: b.turns for b in boards}
    assert store.count() == sum(b.journal.seq for b in boards)
    wait_until(shown(recorders["a"]), what="the overview of the recorder left")
    recorders["a"].stop()
    for b in boards:
        b.close()


def test_a_database_restart_mid_round_loses_and_doubles_nothing(tmp_path, broker,
                                                              own_postgres_server):
    """The database goes away while the boards play: the recorder keeps what it cannot
    store and tries again, the boards keep what is not acknowledged; when the database
    is back every turn is stored once and acknowledged."""
    server = own_postgres_server
    recorder = RecorderThread(open_store(server.url), broker.port, share="hall",
                              client_id="rec-a")
    boards = [Board(tmp_path, str(n), broker.port, seed=n) for n in range(1, 3)]

    try:
        for b in boards:
            b.turn()
        wait_until(acked(boards), what="the first turns")
        server.pause()
        for _ in range(3):
            for b in boards:
                b.turn()
        time.sleep(1.5)  # the recorder fails to store them, at least once
        assert not acked(boards)()
        server.resume()
        wait_until(acked(boards), timeout=60, what="every turn after the database is back")
        assert stored_turns(recorder.store) == {b.name: b.turns for b in boards}
        assert recorder.store.count() == sum(b.journal.seq for b in boards)
    finally:
        recorder.stop()
        for b in boards:
            b.close()


def sensorboard(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sensorboard", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_recorder_refuses_a_shared_group_without_a_shared_store_in_one_line(tmp_path):
    done = sensorboard("recorder", "--share", "hall", "--name", "r1", "--store",
                       str(tmp_path / "r.sqlite"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "sensorboard recorder: --share: the recorders of a group share one PostgreSQL "
        "--store (postgresql://...)"]
    assert list(tmp_path.iterdir()) == []
    done = sensorboard("recorder", "--share", "hall", "--store", "postgresql://db/x")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "sensorboard recorder: --share: give each recorder of the group its own --name"]


def test_recorder_and_export_on_a_database_they_cannot_use_say_so_in_one_line(
        postgres_server):
    url = postgres_server.url.replace(postgres_server.password, "wrong")
    for args in (("recorder", "--store", url, "--port", "0"), ("export", url)):
        done = sensorboard(*args)
        assert done.returncode == 2, done.stderr
        [line] = done.stderr.strip().splitlines()
        assert "password authentication failed" in line and "wrong" not in line


def test_export_reads_the_records_from_postgresql(postgres_url):
    store = open_store(postgres_url)
    store.add([start("5"), move("5", 2, "c1-c2")])
    store.close()
    done = sensorboard("export", postgres_url)
    assert done.returncode == 0, done.stderr
    assert "c1-c2" in done.stdout


def test_a_hall_bridged_to_the_centre_is_recorded_there_through_a_broken_link(tmp_path):
    """Boards on a hall's broker joined to the central broker by the shipped
    deploy/bridge.conf: the recorder at the centre stores every turn once and its acks
    reach the boards, also when the centre goes away mid-round and comes back."""
    central = Broker(tmp_path / "central").start()
    hall = Broker(tmp_path / "hall")
    with hall.config.open("a") as conf:
        conf.write("\n".join(bridge_lines("hall-a", central.port)) + "\n")
    hall.start()
    recorder = RecorderThread(tmp_path / "recorder.sqlite", central.port)
    boards = [Board(tmp_path, name, hall.port, seed=n) for n, name in enumerate("xy")]

    try:
        for _ in range(3):
            for b in boards:
                b.turn()
        wait_until(acked(boards), what="acks through the bridge")
        central.stop()  # the link to the centre is down; the hall plays on
        for _ in range(3):
            for b in boards:
                b.turn()
        central.start()
        wait_until(acked(boards), timeout=60, what="acks after the link is back")
        assert stored_turns(recorder.store) == {b.name: b.turns for b in boards}
        assert recorder.store.count() == sum(b.journal.seq for b in boards)
    finally:
        recorder.stop()
        for b in boards:
            b.close()
        hall.stop()
        central.stop()


def test_a_group_of_recorders_works_on_a_hall_secured_by_the_install_script(
        tmp_path, postgres_url):
    """The hall of ``install.sh --hall`` (logins, TLS for the boards, the ACL): each
    recorder joins the shared subscription with its own login, and every turn of the
    boards is stored once and acknowledged."""
    from tests.recording.test_hall import Hall

    hall = Hall(tmp_path)
    got = {"recorder-1": 0, "recorder-2": 0}

    def counter(name):
        return lambda new, _: got.__setitem__(name, got[name] + len(new))

    recorders = [RecorderThread(open_store(postgres_url), hall.broker.port, share="hall",
                                client_id=name, login=hall.login(name, tls=False),
                                on_stored=counter(name)) for name in got]
    boards = [Board(tmp_path, name, hall.broker.tls_port, seed=n,
                    login=hall.login(f"board-{name}")) for n, name in enumerate("12")]
    try:
        for _ in range(8):
            for b in boards:
                b.turn()
        wait_until(acked(boards), what="every board acked")
        assert stored_turns(recorders[0].store) == {b.name: b.turns for b in boards}
        assert got["recorder-1"] > 0 and got["recorder-2"] > 0
    finally:
        for r in recorders:
            r.stop()
        for b in boards:
            b.close()
        hall.broker.stop()


def test_the_shipped_bridge_config_is_read_whole_by_mosquitto(tmp_path):
    """deploy/bridge.conf as shipped (TLS and login lines included), with only the
    centre's address and CA file filled in: mosquitto accepts every line and runs."""
    ca = Path("/etc/ssl/certs/ca-certificates.crt")
    if not ca.is_file():
        pytest.skip(f"{ca} (any CA file will do) is not here")
    filled = {"address": f"address 127.0.0.1:{Broker(tmp_path / 'centre').port}",
              "bridge_cafile": f"bridge_cafile {ca}"}
    lines = [filled.get(line.split(" ", 1)[0], line)
             for line in (ROOT / "deploy" / "bridge.conf").read_text().splitlines()]
    hall = Broker(tmp_path / "hall")
    with hall.config.open("a") as conf:
        conf.write("\n".join(lines) + "\n")
    hall.start()  # mosquitto refuses a config with a line it does not know, and exits
    try:
        time.sleep(0.5)  # the bridge begins connecting (it cannot reach the centre)
        assert hall.proc.poll() is None
    finally:
        hall.stop()
