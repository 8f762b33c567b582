"""The recorder's store: the entries of every board's journals, each stored once.

One interface, :class:`Store`, with two engines behind it: :class:`SqliteStore`, the
embedded default (one file, the journal's own tables, one recorder), and
``sensorboard.store_pg.PostgresStore`` (one database that several recorders share).
:func:`open_store` picks the engine from where the store is: a ``postgresql://`` URL,
else a file. An entry's key is (board, journal identity, seq); a second, different entry under a
stored key is kept aside (a :class:`Conflict`), never stored over the first.

A store also knows, for each journal, the highest sequence number up to which it holds
every entry (:meth:`Store.held`): what the recorder acknowledges to the board.

>>> import tempfile, os
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> entry = {"board": "7", "journal": "j", "seq": 1, "game": "g", "at": 0.0,
...          "item": {"type": "start"}}
>>> len(store.add([entry])), len(store.add([entry])), store.held("7", "j")
(1, 0, 1)
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass

from sensorboard import events
from sensorboard.gamelog import GameLog, GameLogError
from sensorboard.gamerecord import Record, record_from_log
from sensorboard.journal import connect

ARRIVALS = """
CREATE TABLE IF NOT EXISTS arrivals (
    board TEXT NOT NULL, seq INTEGER NOT NULL, stored REAL NOT NULL,
    journal TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (board, journal, seq)
);
CREATE TABLE IF NOT EXISTS conflicts (
    board TEXT NOT NULL, journal TEXT NOT NULL, seq INTEGER NOT NULL, game TEXT NOT NULL,
    at REAL NOT NULL, data TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (board, journal, seq, game, data)
);
"""
# A board's journals in the order the first entry of each arrived, each in its own order.
TURNS = """
SELECT e.board, e.game, e.data FROM entries e JOIN (
    SELECT board, journal, MIN(rowid) AS arrived FROM entries GROUP BY board, journal
) j USING (board, journal) WHERE e.type = 'move' ORDER BY e.board, j.arrived, e.seq
"""
POSTGRESQL = ("postgresql://", "postgres://")
Stream = tuple[str, str]  # (board, journal identity): one journal's sequence numbers


class StoreError(Exception):
    """The store cannot be reached or written now (the recorder retries the batch)."""


@dataclass(frozen=True)
class Conflict:
    """A second, different entry for a stored (board, journal, seq): kept aside, shown."""

    board: str
    journal: str
    seq: int
    game: str
    item: dict

    def json(self) -> dict:
        return {"board": self.board, "journal": self.journal, "seq": self.seq,
                "game": self.game, "item": self.item}

    def note(self) -> str:
        what = self.item.get("move") or self.item.get("type", "?")
        return (f"kept aside: a second, different entry #{self.seq} ({what}) arrived "
                "for this board; the first one stands")


class Store(ABC):
    """Entries of every board's journals, each once; games, turns, logs, records."""

    def __init__(self) -> None:
        self.kept_aside = 0  # conflicting entries kept aside since the store was opened
        self.contiguous: dict[Stream, int] = {}
        self.beyond: dict[Stream, set[int]] = {}

    def held(self, board: str, journal: str) -> int:
        """The highest sequence number up to which every entry of the journal is stored."""
        return self.contiguous.get((board, journal), 0)

    def _mark(self, stream: Stream, seq: int) -> None:
        top = self.contiguous.get(stream, 0)
        if seq <= top:
            return
        beyond = self.beyond.setdefault(stream, set())
        beyond.add(seq)
        while top + 1 in beyond:
            top += 1
            beyond.discard(top)
        self.contiguous[stream] = top

    def add(self, batch: list[dict]) -> list[dict]:
        """Store the entries not yet held (one transaction); returns those that were new.
        A different entry under a stored number is kept aside (see :meth:`conflicts`).
        Raises :class:`StoreError` when the batch could not be stored."""
        new = self._write(batch, time.time())
        for e in new:
            self._mark((e["board"], e.get("journal", "")), e["seq"])
        return new

    @abstractmethod
    def _write(self, batch: list[dict], now: float) -> list[dict]:
        """Insert the batch in one transaction; the entries that were new."""

    @abstractmethod
    def conflicts(self, board: str | None = None, game: str | None = None) -> list[Conflict]:
        """The entries kept aside (of one board, of one game), in the order they came."""

    @abstractmethod
    def games(self) -> list[tuple[str, str]]:
        """Every game as (board, uid), each board's in the order they arrived."""

    @abstractmethod
    def turns(self) -> list[tuple[str, str, str]]:
        """Every stored turn as (board, game, notation), in each board's order."""

    @abstractmethod
    def rows(self, board: str, uid: str) -> list[tuple[int, float, str]]:
        """One game's entries as (seq, at, JSON item), in sequence order."""

    @abstractmethod
    def journal_of(self, board: str, uid: str) -> str:
        """The identity of the journal a game is in ('' when none is stored)."""

    @abstractmethod
    def entries(self, after: list[tuple[str, str, int]]) -> list[dict]:
        """The stored entries of each (board, journal) past a sequence number, as
        :meth:`add` takes them; what is held counts them (another recorder of the group
        may have stored them)."""

    @abstractmethod
    def count(self) -> int:
        """How many entries are stored."""

    @abstractmethod
    def close(self) -> None: ...

    def log(self, board: str, uid: str) -> GameLog | None:
        """The game as stored; an entry the rules refuse is a note in it, never the end of
        it. None only for a game whose start entry is unusable."""
        rows = self.rows(board, uid)
        if not rows:
            return None
        try:
            log = GameLog(json.loads(rows[0][2]), rows[0][1])
        except (GameLogError, ValueError, KeyError):
            return None
        for seq, at, data in rows[1:]:
            apply_or_note(log, json.loads(data), at, seq)
        for conflict in self.conflicts(board, uid):
            log.note(conflict.note())
        return log

    def records(self, round_: str | None = None, event: str | None = None) -> list[Record]:
        """The records of every game (of one round, of one event)."""
        out = []
        for board, uid in self.games():
            log = self.log(board, uid)
            if log is None:
                continue
            if round_ is not None and log.tags.get("Round") != round_:
                continue
            if event is not None and log.tags.get("Event") != event:
                continue
            out.append(record_from_log(log))
        return out


class SqliteStore(Store):
    """The embedded store: one SQLite file with the journal's tables, one recorder."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.db = connect(path)
        if self.db.execute("SELECT 1 FROM pragma_table_info('arrivals') WHERE name='journal'"
                           ).fetchone() is None:
            self.db.execute("DROP TABLE IF EXISTS arrivals")  # a store of schema 1
        self.db.executescript(ARRIVALS)
        self.lock = threading.Lock()  # written from a worker thread, read on the loop
        for board, journal, seq in self.db.execute(
                "SELECT board, journal, seq FROM entries ORDER BY board, journal, seq"):
            self._mark((board, journal), seq)

    def _write(self, batch: list[dict], now: float) -> list[dict]:
        try:
            with self.lock:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    new = [e for e in batch if self._insert(e, now)]
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as e:
            raise StoreError(str(e)) from e
        return new

    def _insert(self, e: dict, now: float) -> bool:
        board, seq, item, journal = e["board"], e["seq"], e["item"], e.get("journal", "")
        data = json.dumps(item, sort_keys=True)
        key = (board, journal, seq)
        cur = self.db.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (board, seq, e["game"], e["at"], item.get("type", ""), data,
                               journal))
        if cur.rowcount == 0:
            held = self.db.execute("SELECT game, data FROM entries WHERE board=? AND "
                                   "journal=? AND seq=?", key).fetchone()
            if tuple(held) != (e["game"], data):
                cur = self.db.execute("INSERT OR IGNORE INTO conflicts VALUES "
                                      "(?, ?, ?, ?, ?, ?, ?)", (*key, e["game"], e["at"], data,
                                                                now))
                self.kept_aside += cur.rowcount
            return False
        self.db.execute("INSERT OR IGNORE INTO arrivals VALUES (?, ?, ?, ?)",
                        (board, seq, now, journal))
        event = events.of(item)
        if isinstance(event, events.Start):
            self.db.execute("INSERT OR IGNORE INTO games (board, uid, first) "
                            "VALUES (?, ?, ?)", (board, e["game"], seq))
        elif isinstance(event, events.End):
            self.db.execute("UPDATE games SET finished=1 WHERE board=? AND uid=?",
                            (board, e["game"]))
        return True

    def conflicts(self, board: str | None = None, game: str | None = None) -> list[Conflict]:
        sql, args = "SELECT board, journal, seq, game, data FROM conflicts WHERE 1", ()
        if board is not None:
            sql, args = sql + " AND board=?", (*args, board)
        if game is not None:
            sql, args = sql + " AND game=?", (*args, game)
        with self.lock:
            rows = self.db.execute(sql + " ORDER BY received, seq", args).fetchall()
        return [Conflict(b, j, s, g, json.loads(d)) for b, j, s, g, d in rows]

    def games(self) -> list[tuple[str, str]]:
        with self.lock:
            return self.db.execute("SELECT board, uid FROM games ORDER BY board, rowid"
                                   ).fetchall()

    def turns(self) -> list[tuple[str, str, str]]:
        with self.lock:
            rows = self.db.execute(TURNS).fetchall()
        return [(b, g, json.loads(d)["move"]) for b, g, d in rows]

    def rows(self, board: str, uid: str) -> list[tuple[int, float, str]]:
        with self.lock:
            return self.db.execute("SELECT seq, at, data FROM entries WHERE board=? AND "
                                   "game=? ORDER BY seq", (board, uid)).fetchall()

    def journal_of(self, board: str, uid: str) -> str:
        with self.lock:
            row = self.db.execute("SELECT journal FROM entries WHERE board=? AND game=? "
                                  "LIMIT 1", (board, uid)).fetchone()
        return row[0] if row else ""

    def entries(self, after: list[tuple[str, str, int]]) -> list[dict]:
        with self.lock:
            rows = [(board, journal, *row) for board, journal, seq in after
                    for row in self.db.execute(
                        "SELECT seq, game, at, data FROM entries WHERE board=? AND "
                        "journal=? AND seq>? ORDER BY seq", (board, journal, seq))]
        return [entry_dict(*row) for row in rows]

    def count(self) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]

    def close(self) -> None:
        self.db.close()


def entry_dict(board: str, journal: str, seq: int, game: str, at: float, data: str) -> dict:
    """A stored entry as MQTT brings it (and :meth:`Store.add` takes it)."""
    return {"board": board, "journal": journal, "seq": seq, "game": game, "at": at,
            "item": json.loads(data)}


def apply_or_note(log: GameLog, item: dict, at: float | None, seq: int) -> None:
    """Apply one entry to ``log``; one the rules refuse becomes a note naming it."""
    try:
        log.apply(item, at)
    except (GameLogError, ValueError, KeyError) as e:
        log.note(f"entry #{seq} not applied: {e}")


def open_store(where: str) -> Store:
    """The store at ``where``: a ``postgresql://`` URL (a database several recorders
    share), else an SQLite file (made when missing). Raises ``JournalError`` for a file
    that is not a store, :class:`StoreError` for a database that cannot be used."""
    if not where.startswith(POSTGRESQL):
        return SqliteStore(where)
    try:
        from sensorboard.store_pg import PostgresStore
    except ImportError:
        raise StoreError("a PostgreSQL store needs psycopg: "
                         "pip install 'sensorboard[postgresql]'") from None
    return PostgresStore(where)
