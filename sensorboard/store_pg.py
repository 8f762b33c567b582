"""The recorder's store on PostgreSQL: one database that several recorders share.

The same tables as the SQLite store; the database enforces that each (board, journal,
seq) is stored once (the primary key, ``INSERT ... ON CONFLICT DO NOTHING``), whichever
recorder a delivery reaches and however many times. A recorder learns how far each
journal is stored from the database itself (entries stored by the other recorders
count), so its acks are true for the whole group.

``psycopg`` (3) is needed only here: ``pip install 'sensorboard[postgresql]'``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from sensorboard import events
from sensorboard.store import Conflict, Store, StoreError, Stream, entry_dict

SCHEMA_VERSION = 2  # the journal's: entries keyed by (board, journal, seq)
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    board TEXT NOT NULL, journal TEXT NOT NULL, seq BIGINT NOT NULL, game TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
    stored DOUBLE PRECISION NOT NULL, arrival BIGSERIAL,
    PRIMARY KEY (board, journal, seq)
);
CREATE INDEX IF NOT EXISTS entries_game ON entries (board, game, seq);
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, uid TEXT NOT NULL, first BIGINT NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT false, arrival BIGSERIAL,
    PRIMARY KEY (board, uid)
);
CREATE TABLE IF NOT EXISTS conflicts (
    board TEXT NOT NULL, journal TEXT NOT NULL, seq BIGINT NOT NULL, game TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL, data TEXT NOT NULL, received DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (board, journal, seq, game, data)
);
"""
SCHEMA_LOCK = 0x5E4B0A4D  # an advisory lock: recorders starting together make it once

INSERT = """
INSERT INTO entries (board, journal, seq, game, at, type, data, stored)
SELECT *, %s FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::text[],
                         %s::float8[], %s::text[], %s::text[])
ON CONFLICT DO NOTHING RETURNING board, journal, seq
"""
HELD = """
SELECT e.board, e.journal, e.seq FROM entries e
JOIN unnest(%s::text[], %s::text[], %s::bigint[]) AS t(board, journal, top)
  ON e.board = t.board AND e.journal = t.journal AND e.seq > t.top
ORDER BY 1, 2, 3
"""
AFTER = """
SELECT e.board, e.journal, e.seq, e.game, e.at, e.data FROM entries e
JOIN unnest(%s::text[], %s::text[], %s::bigint[]) AS t(board, journal, after)
  ON e.board = t.board AND e.journal = t.journal AND e.seq > t.after
ORDER BY 1, 2, 3
"""
# Every journal's first gap: seq - rank is 0 up to the first missing number.
CONTIGUOUS = """
SELECT board, journal, MAX(seq) FROM (
    SELECT board, journal, seq,
           seq - ROW_NUMBER() OVER (PARTITION BY board, journal ORDER BY seq) AS gap
    FROM entries) AS numbered
WHERE gap = 0 GROUP BY board, journal
"""
TURNS = """
SELECT e.board, e.game, e.data FROM entries e JOIN (
    SELECT board, journal, MIN(arrival) AS arrived FROM entries GROUP BY board, journal
) j USING (board, journal) WHERE e.type = 'move' ORDER BY e.board, j.arrived, e.seq
"""


class PostgresStore(Store):
    """Entries of every board in a PostgreSQL database, shared by several recorders."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.lock = threading.Lock()
        self.db: psycopg.Connection | None = None
        with self._transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            cur.execute(SCHEMA)
            cur.execute("INSERT INTO meta VALUES ('schema', %s) ON CONFLICT DO NOTHING",
                        (str(SCHEMA_VERSION),))
            schema = cur.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
        if schema != str(SCHEMA_VERSION):
            self.close()
            raise StoreError(f"the PostgreSQL store has schema {schema}, this version reads "
                             f"{SCHEMA_VERSION}")
        with self._transaction() as cur:
            for board, journal, top in cur.execute(CONTIGUOUS):
                self.contiguous[board, journal] = top

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor]:
        """One transaction on the store's connection (opened again after it broke)."""
        with self.lock:
            try:
                if self.db is None or self.db.closed or self.db.broken:
                    self.db = psycopg.connect(self.url, connect_timeout=10, autocommit=True)
                with self.db.transaction(), self.db.cursor() as cur:
                    yield cur
            except psycopg.Error as e:
                raise StoreError(_message(e)) from None

    def add(self, batch: list[dict]) -> list[dict]:
        return self._write(batch, time.time())

    def _write(self, batch: list[dict], now: float) -> list[dict]:
        first: dict[tuple, dict] = {}
        again = []  # a key a second time in this batch: compared with the first, below
        for e in batch:
            key = (e["board"], e.get("journal", ""), e["seq"])
            if key in first:
                again.append((key, e, json.dumps(e["item"], sort_keys=True)))
            else:
                first[key] = e
        keys = sorted(first)  # the same order in every recorder: no deadlock between them
        rows = [first[k] for k in keys]
        data = [json.dumps(e["item"], sort_keys=True) for e in rows]
        with self._transaction() as cur:
            cur.execute(INSERT, (now, [k[0] for k in keys], [k[1] for k in keys],
                                 [k[2] for k in keys], [e["game"] for e in rows],
                                 [float(e["at"]) for e in rows],
                                 [e["item"].get("type", "") for e in rows], data))
            inserted = {tuple(r) for r in cur.fetchall()}
            new = [e for k, e in zip(keys, rows, strict=True) if k in inserted]
            self._games(cur, new)
            old = [(k, e, d) for k, e, d in zip(keys, rows, data, strict=True)
                   if k not in inserted] + again
            if old:
                self._keep_aside(cur, old, now)
            self._advance(cur, {k[:2] for k in keys})
        return new

    def _games(self, cur: psycopg.Cursor, new: list[dict]) -> None:
        for e in new:
            event = events.of(e["item"])
            if isinstance(event, events.Start):
                cur.execute("INSERT INTO games (board, uid, first) VALUES (%s, %s, %s) "
                            "ON CONFLICT DO NOTHING", (e["board"], e["game"], e["seq"]))
            elif isinstance(event, events.End):
                cur.execute("UPDATE games SET finished=true WHERE board=%s AND uid=%s",
                            (e["board"], e["game"]))

    def _keep_aside(self, cur: psycopg.Cursor, old: list, now: float) -> None:
        """Entries under a stored key: a different one is kept aside as a conflict."""
        for key, e, data in old:
            cur.execute("SELECT game, data FROM entries WHERE board=%s AND journal=%s AND "
                        "seq=%s", key)
            if tuple(cur.fetchone()) == (e["game"], data):
                continue
            cur.execute("INSERT INTO conflicts VALUES (%s, %s, %s, %s, %s, %s, %s) "
                        "ON CONFLICT DO NOTHING", (*key, e["game"], e["at"], data, now))
            self.kept_aside += cur.rowcount

    def _advance(self, cur: psycopg.Cursor, streams: set[Stream]) -> None:
        """How far each journal is now stored, by any recorder of the group."""
        order = sorted(streams)
        cur.execute(HELD, ([b for b, _ in order], [j for _, j in order],
                           [self.held(b, j) for b, j in order]))
        for board, journal, seq in cur.fetchall():
            if seq == self.held(board, journal) + 1:
                self.contiguous[board, journal] = seq

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._transaction() as cur:
            cur.execute(sql, args)
            return cur.fetchall()

    def conflicts(self, board: str | None = None, game: str | None = None) -> list[Conflict]:
        rows = self._query("SELECT board, journal, seq, game, data FROM conflicts "
                           "WHERE (%s::text IS NULL OR board = %s) "
                           "AND (%s::text IS NULL OR game = %s) ORDER BY received, seq",
                           (board, board, game, game))
        return [Conflict(b, j, s, g, json.loads(d)) for b, j, s, g, d in rows]

    def games(self) -> list[tuple[str, str]]:
        return self._query("SELECT board, uid FROM games ORDER BY board, arrival")

    def turns(self) -> list[tuple[str, str, str]]:
        return [(b, g, json.loads(d)["move"]) for b, g, d in self._query(TURNS)]

    def rows(self, board: str, uid: str) -> list[tuple[int, float, str]]:
        return self._query("SELECT seq, at, data FROM entries WHERE board=%s AND game=%s "
                           "ORDER BY seq", (board, uid))

    def journal_of(self, board: str, uid: str) -> str:
        rows = self._query("SELECT journal FROM entries WHERE board=%s AND game=%s LIMIT 1",
                           (board, uid))
        return rows[0][0] if rows else ""

    def entries(self, after: list[tuple[str, str, int]]) -> list[dict]:
        with self._transaction() as cur:
            cur.execute(AFTER, ([b for b, _, _ in after], [j for _, j, _ in after],
                                [s for _, _, s in after]))
            rows = cur.fetchall()
            self._advance(cur, {(b, j) for b, j, _ in after})
        return [entry_dict(*row) for row in rows]

    def count(self) -> int:
        return self._query("SELECT COUNT(*) FROM entries")[0][0]

    def close(self) -> None:
        with self.lock:
            if self.db is not None:
                self.db.close()


def _message(e: psycopg.Error) -> str:
    """The server's or the driver's words, on one line, without the password."""
    return " ".join(str(e).split()) or type(e).__name__

