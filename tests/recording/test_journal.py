"""The journal: entries in order, durable, and whole after kill -9 at any instant."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sensorboard.journal import SCHEMA_VERSION, Journal, JournalError, Writer

ROOT = Path(__file__).resolve().parents[2]

# A recording process writing as fast as it can: puts a few entries, waits until they are
# on disk, then says how many are confirmed. It is killed at a random instant.
WRITER = """
import sys
from sensorboard.journal import Journal, Writer
journal = Journal(sys.argv[1], board="b1")
writer = Writer(journal)
game = journal.unfinished()
if game is None:
    start = journal.start_game({"game": "tessella", "players": ["clear", "dark"]})
    game = start["uid"]
    writer.put(game, start)
    writer.flush()
n = journal.seq
print("ready", flush=True)
k = 0
while True:
    k += 1
    for _ in range(k % 4 + 1):
        n += 1
        writer.put(game, {"type": "sensor", "t": n / 100, "cell": "e4", "shows": n % 2 == 0,
                          "n": n, "pad": "x" * (n % 300)})
    writer.flush()
    print(n, flush=True)
"""


def check(path: Path) -> list[tuple]:
    if not path.exists():
        return []  # killed before it opened the journal
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    if "entries" not in tables:
        db.close()
        return []  # killed while creating it
    rows = db.execute("SELECT seq, type, data FROM entries ORDER BY seq").fetchall()
    db.close()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "sequence has a gap"
    for seq, kind, data in rows[1:]:
        item = json.loads(data)
        assert kind == item["type"] == "sensor" and item["n"] == seq
    return rows


def test_kill_9_at_random_instants_loses_nothing_confirmed(tmp_path):
    path = tmp_path / "journal.sqlite"
    rng = random.Random(12)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    confirmed_total = 0
    kills = 0
    for _ in range(50):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], env=env,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "ready\n"  # the journal is open: writing begins
        time.sleep(rng.uniform(0.0, 0.25))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        kills += proc.returncode == -signal.SIGKILL
        confirmed = [int(x) for x in out.split()]
        rows = check(path)
        if confirmed:
            confirmed_total = confirmed[-1]
        # Everything confirmed is there; at most the batch in flight (<= 4) beyond it.
        assert confirmed_total <= len(rows) <= confirmed_total + 4
        confirmed_total = len(rows)
    assert kills == 50
    assert confirmed_total > 50  # the process really wrote between the kills


def test_entries_games_and_the_unfinished_one(tmp_path):
    journal = Journal(tmp_path / "j.sqlite", board="7")
    start = journal.start_game({"game": "tessella"})
    uid = start["uid"]
    assert journal.append(uid, start) == 1
    journal.append(uid, {"type": "move", "move": "e4-e5"})
    assert journal.unfinished() == uid
    journal.append(uid, {"type": "end", "result": "1-0"})
    assert journal.unfinished() is None
    journal.close()
    again = Journal(tmp_path / "j.sqlite", board="other")
    assert again.board == "7"  # a copied journal keeps its board
    assert again.identity == journal.identity  # and its identity
    assert [e.seq for e in again.entries()] == [1, 2, 3]
    assert again.entries(uid)[0].item["schema"] == SCHEMA_VERSION
    assert again.entries(uid)[0].item["journal"] == journal.identity  # in the first entry too
    fresh = Journal(tmp_path / "fresh.sqlite", board="7")  # a new SD card, the same name
    assert fresh.identity != journal.identity and len(fresh.identity) == 32


def test_a_journal_of_schema_1_is_upgraded_with_its_entries(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE games (board TEXT NOT NULL, uid TEXT NOT NULL, first INTEGER NOT NULL,
                            finished INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (board, uid));
        CREATE TABLE entries (board TEXT NOT NULL, seq INTEGER NOT NULL, game TEXT NOT NULL,
                              at REAL NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
                              PRIMARY KEY (board, seq));
        CREATE INDEX entries_game ON entries (board, game, seq);
        INSERT INTO meta VALUES ('schema', '1'), ('board', '5');
        INSERT INTO games VALUES ('5', 'g1', 1, 0);
        INSERT INTO entries VALUES ('5', 1, 'g1', 10.0, 'start', '{"type": "start"}');
        INSERT INTO entries VALUES ('5', 2, 'g1', 11.0, 'move', '{"move": "e4-e5"}');
    """)
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.meta("schema") == str(SCHEMA_VERSION)
    assert [(e.seq, e.journal) for e in journal.entries()] == [(1, journal.identity),
                                                                (2, journal.identity)]
    assert journal.append("g1", {"type": "move", "move": "d5-d4"}) == 3


def test_writer_keeps_order_and_flushes(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    seen = []
    writer = Writer(journal, on_written=lambda entries: seen.extend(e.seq for e in entries))
    for n in range(200):
        writer.put("g", {"type": "sensor", "n": n})
    assert writer.flush()
    writer.close()
    assert [e.item["n"] for e in journal.entries()] == list(range(200))
    assert seen == list(range(1, 201))


def test_not_a_journal_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match="bad.sqlite: not a usable journal"):
        Journal(bad)
