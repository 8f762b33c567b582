"""The journal: every event of a board's games in one SQLite file, append only.

One board keeps one journal (``records/journal.sqlite``). Each entry gets the next
sequence number of the journal (over all its games), the wall-clock time it was
written and its JSON item; the first entry of a game (``type: "start"``) holds what is
needed to rebuild it: game, options, start position text, players, tags, schema.
SQLite runs in WAL mode with ``synchronous=FULL``: a committed entry survives a power
cut, and a cut at any instant leaves a readable journal missing at most the entry in
flight. Records, the live view and MQTT are derived from the journal.

>>> import tempfile, os
>>> journal = Journal(os.path.join(tempfile.mkdtemp(), "j.sqlite"), board="7")
>>> start = journal.start_game({"game": "tessella", "players": ["clear", "dark"]})
>>> game = start["uid"]
>>> journal.append(game, start)
1
>>> journal.append(game, {"type": "move", "t": 1.2, "move": "e4-e5"})
2
>>> [e.type for e in journal.entries(game)]
['start', 'move']
>>> journal.unfinished() == game
True
"""

from __future__ import annotations

import json
import queue
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from sensorboard import events

SCHEMA_VERSION = 2  # 2: entries carry the journal's identity (1 is upgraded on opening)
ENDING = (events.End,)  # entries after which a game is finished

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL,
    uid TEXT NOT NULL,
    first INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (board, uid)
);
"""
ENTRIES = """
CREATE TABLE IF NOT EXISTS entries (
    board TEXT NOT NULL,
    seq INTEGER NOT NULL,
    game TEXT NOT NULL,
    at REAL NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    journal TEXT NOT NULL,
    PRIMARY KEY (board, journal, seq)
);
"""
INDEX = "CREATE INDEX IF NOT EXISTS entries_game ON entries (board, game, seq);"
UPGRADE_1 = """
ALTER TABLE entries RENAME TO entries_1;
DROP INDEX IF EXISTS entries_game;
{entries}
INSERT INTO entries SELECT board, seq, game, at, type, data, '{identity}' FROM entries_1;
DROP TABLE entries_1;
UPDATE meta SET value = '2' WHERE key = 'schema';
"""


class JournalError(ValueError):
    """A journal file that cannot be used (not SQLite, another schema, damaged)."""


@dataclass(frozen=True)
class Entry:
    """One journal entry: ``item`` is the event's JSON object (its ``type`` included)."""

    board: str
    seq: int
    game: str  # the game's uid
    at: float
    item: dict
    journal: str = ""  # the identity of the journal it was written to

    @property
    def type(self) -> str:
        return self.item.get("type", "")

    def json(self) -> dict:
        """The entry as published and stored by the recorder."""
        return {"board": self.board, "game": self.game, "seq": self.seq, "at": self.at,
                "item": self.item, "journal": self.journal}


def connect(path: str | Path, *, synchronous: str = "FULL") -> sqlite3.Connection:
    """A connection in WAL mode with the journal's tables."""
    try:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                             timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.executescript(SCHEMA + ENTRIES)
        row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                       (str(SCHEMA_VERSION),))
        elif row[0] == "1":
            _upgrade_1(db)
        elif row[0] != str(SCHEMA_VERSION):
            raise JournalError(f"{path}: journal schema {row[0]}, this version reads "
                               f"{SCHEMA_VERSION}")
        db.execute(INDEX)
        identity(db)
    except sqlite3.DatabaseError as e:
        raise JournalError(f"{path}: not a usable journal ({e})") from None
    return db


def identity(db: sqlite3.Connection) -> str:
    """The journal's identity: a UUID made with the journal, kept in its ``meta``. A fresh
    journal under a name used before (a new SD card, board numbers reused) has its own, so
    the recorder's acknowledgements of the old one are not taken for its own."""
    db.execute("INSERT OR IGNORE INTO meta VALUES ('journal', ?)", (uuid.uuid4().hex,))
    return db.execute("SELECT value FROM meta WHERE key='journal'").fetchone()[0]


def _upgrade_1(db: sqlite3.Connection) -> None:
    """Schema 1 (entries without the journal's identity) to 2, in one transaction."""
    script = UPGRADE_1.format(entries=ENTRIES, identity=identity(db))
    db.executescript(f"BEGIN IMMEDIATE; {script} COMMIT;")


class Journal:
    """One board's journal. Thread-safe; every write is committed before it returns
    (use :class:`Writer` to keep writes off a thread that must not wait)."""

    def __init__(self, path: str | Path, *, board: str | None = None) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(self.path)
        self.lock = threading.Lock()
        stored = self.meta("board")
        if stored is None:
            stored = board or "board"
            self.set_meta("board", stored)
        self.board = stored  # a journal copied to another Pi keeps its board's name
        self.identity = identity(self.db)  # and its identity
        last = self.db.execute("SELECT MAX(seq) FROM entries WHERE board=?",
                               (self.board,)).fetchone()[0]
        self.seq = last or 0
        self._writer: Writer | None = None

    def writer(self) -> Writer:
        """The journal's one writer thread (started on first use)."""
        with self.lock:
            if self._writer is None:
                self._writer = Writer(self)
            return self._writer

    # --- meta ------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # --- writing ---------------------------------------------------------------------

    def start_game(self, header: dict) -> dict:
        """The first entry of a new game: ``header`` with type, schema, uid, board and the
        journal's identity added. Nothing is written until it is appended (its ``uid``
        names the game)."""
        return {**header, "type": "start", "schema": SCHEMA_VERSION,
                "uid": header.get("uid") or uuid.uuid4().hex[:12], "board": self.board,
                "journal": self.identity}

    def append(self, game: str, item: dict, *, at: float | None = None) -> int:
        """Write one entry of game ``game`` (its uid); returns its sequence number."""
        return self.append_many([(game, item, at)])[-1]

    def append_many(self, batch: Iterable[tuple[str, dict, float | None]]) -> list[int]:
        """Write several entries in one transaction (all or none survive a power cut)."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                seqs = [self._insert(game, item, at) for game, item, at in batch]
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                self.seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries "
                                           "WHERE board=?", (self.board,)).fetchone()[0]
                raise
        return seqs

    def _insert(self, game: str, item: dict, at: float | None) -> int:
        self.seq += 1
        kind = item.get("type", "")  # the entries table keeps it as a column
        event = events.of(item)
        if isinstance(event, events.Start):
            self.db.execute("INSERT INTO games (board, uid, first) VALUES (?, ?, ?)",
                            (self.board, game, self.seq))
        self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (self.board, self.seq, game, time.time() if at is None else at,
                         kind, json.dumps(item, sort_keys=True), self.identity))
        if isinstance(event, ENDING):
            self.db.execute("UPDATE games SET finished=1 WHERE board=? AND uid=?",
                            (self.board, game))
        return self.seq

    # --- reading ---------------------------------------------------------------------

    def entries(self, game: str | None = None, *, after: int = 0) -> list[Entry]:
        """The entries of ``game`` (all games when None) with a sequence number > ``after``."""
        sql = "SELECT board, seq, game, at, data FROM entries WHERE board=? AND seq>?"
        args: tuple = (self.board, after)
        if game is not None:
            sql += " AND game=?"
            args += (game,)
        rows = self.db.execute(sql + " ORDER BY seq", args).fetchall()
        return [Entry(b, s, g, a, json.loads(d), self.identity) for b, s, g, a, d in rows]

    def games(self) -> list[tuple[str, bool]]:
        """Every game as ``(uid, finished)``, oldest first."""
        return [(u, bool(f)) for u, f in self.db.execute(
            "SELECT uid, finished FROM games WHERE board=? ORDER BY first", (self.board,))]

    def unfinished(self) -> str | None:
        """The last game, if it has not ended: the one to resume."""
        games = self.games()
        if games and not games[-1][1]:
            return games[-1][0]
        return None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.flush()
            self._writer.close()
            self._writer = None
        with self.lock:
            self.db.close()


class Writer:
    """Journal writes on a thread of their own: :meth:`put` never waits for the disk.

    The writer commits what has queued up in one transaction, so entries reach the
    disk in the order they were put, and a power cut loses only those not yet
    committed (one, at the pace of a game). Each of ``listeners`` gets the entries of
    each commit on the writer thread (records and publishing are derived there).
    """

    def __init__(self, journal: Journal,
                 on_written: Callable[[list[Entry]], None] | None = None) -> None:
        self.journal = journal
        self.listeners: list[Callable[[list[Entry]], None]] = [on_written] if on_written else []
        self.queue: queue.Queue = queue.Queue()
        self.written = 0  # how many entries put so far are on disk
        self.put_count = 0
        self.failure: BaseException | None = None
        self._cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self.thread.start()

    def put(self, game: str, item: dict) -> None:
        self.put_count += 1
        self.queue.put((game, item, time.time()))

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything put so far is on disk."""
        target = self.put_count
        with self._cond:
            return self._cond.wait_for(lambda: self.written >= target or self.failure,
                                       timeout)

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(10)

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while True:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                seqs = self.journal.append_many(batch)
            except BaseException as e:  # noqa: BLE001 - reported by flush, never lost silently
                self.failure = e
                with self._cond:
                    self._cond.notify_all()
                raise
            entries = [Entry(self.journal.board, s, g, at, item, self.journal.identity)
                       for s, (g, item, at) in zip(seqs, batch, strict=True)]
            for listener in list(self.listeners):
                try:
                    listener(entries)
                except Exception as e:  # noqa: BLE001 - a record file must not stop the journal
                    print(f"sensorboard: journal listener failed: {e!r}", file=sys.stderr)
            with self._cond:
                self.written += len(batch)
                self._cond.notify_all()
            if stop:
                return
