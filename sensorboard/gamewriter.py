"""A board writes its games down: the journal written off the caller's thread, and the
record file rewritten from the journal after every turn.

The service hands every event to :meth:`GameWriter.event` (a listener; it never waits
for the disk). A game that was not finished when the board stopped (power cut,
Ctrl-C, a journal copied from another Pi) is picked up again with :meth:`GameWriter.resume`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import rules
from sensorboard import events
from sensorboard.gamelog import GameLog
from sensorboard.gamerecord import format_record, record_from_log
from sensorboard.journal import Entry, Journal

JOURNAL_NAME = "journal.sqlite"
# What the record shows: an entry of these kinds rewrites it.
REWRITE = (events.Start, events.Move, events.Takeback, events.Correction, events.Setup,
           events.End, events.Clock)


class GameWriter:
    """One game of a board being recorded into its journal and its record file."""

    def __init__(self, journal: Journal, log: GameLog, uid: str, folder: Path) -> None:
        self.journal = journal
        self.log = log
        self.uid = uid
        self.folder = folder
        self.lock = threading.Lock()  # the log is updated on the writer thread
        self.listeners: list[Callable[[list[Entry]], None]] = []
        self.queue = journal.writer()
        self.queue.listeners.append(self._written)
        stamp = time.strftime("%Y%m%d", time.gmtime(log.started_at or time.time()))
        self.record_path = folder / f"{stamp}-{log.game}-{uid}.txt"

    @classmethod
    def new(cls, journal: Journal, state: rules.GameState, *, tags: dict | None = None,
            options: dict | None = None, folder: str | Path | None = None) -> GameWriter:
        """Begin a new game of ``state`` (its start position) in ``journal``."""
        header = journal.start_game({
            "game": state.NAME, "options": dict(options or {}),
            "position": state.position_str(), "players": list(state.PLAYERS),
            "tags": dict(tags or {}),
        })
        writer = cls(journal, GameLog(header, time.time()), header["uid"],
                     Path(folder or journal.path.parent))
        writer.queue.put(header["uid"], header)
        return writer

    @classmethod
    def resume(cls, journal: Journal, folder: str | Path | None = None) -> GameWriter | None:
        """The journal's unfinished game, rebuilt through the rules; None if there is none."""
        uid = journal.unfinished()
        if uid is None:
            return None
        log = GameLog.from_entries(journal.entries(uid))
        return cls(journal, log, uid, Path(folder or journal.path.parent))

    @property
    def state(self) -> rules.GameState:
        """A copy of the game as the journal has it."""
        with self.lock:
            return self.log.state.clone()

    def event(self, item: dict) -> None:
        """Journal one event of the service (returns at once)."""
        self.queue.put(self.uid, item)

    def _written(self, entries: list[Entry]) -> None:
        entries = [e for e in entries if e.game == self.uid]
        if not entries:
            return
        rewrite = False
        with self.lock:
            for entry in entries:
                event = events.of(entry.item)
                if not isinstance(event, events.Start):
                    self.log.apply(entry.item, entry.at)
                rewrite = rewrite or isinstance(event, REWRITE)
            text = format_record(record_from_log(self.log)) if rewrite else None
        if text is not None:
            write_atomically(self.record_path, text)
        for listener in self.listeners:
            listener(entries)

    def finished(self) -> bool:
        with self.lock:
            return self.log.ended

    def abandon(self, by: str = "") -> None:
        """End an unfinished game without a result (a new game begins on the board)."""
        if not self.finished():
            self.event({"type": "end", "result": "*", "reason": "abandoned", "by": by})

    def flush(self) -> bool:
        return self.queue.flush()

    def close(self) -> None:
        """Wait until the game's entries are on disk; the game stays open for resuming."""
        self.queue.flush()
        if self._written in self.queue.listeners:
            self.queue.listeners.remove(self._written)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a power cut leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def open_journal(records: str | Path, board: str | None = None) -> Journal:
    """The board's journal in its records folder."""
    return Journal(Path(records) / JOURNAL_NAME, board=board)


def open_game(journal: Journal, game: str, *, tags: dict | None = None, new: bool = False,
              note: Callable[[str], None] = lambda text: None,
              options: dict | None = None) -> tuple[GameWriter, bool]:
    """The journal's unfinished game of ``game`` to go on with, or else a new one
    (an unfinished game of another game, or any with ``new``, is ended as abandoned).
    Returns the writer and whether the game was resumed."""
    writer = GameWriter.resume(journal)
    if writer is not None:
        if writer.log.game == game and not new:
            turns = len(writer.log.turns)
            note(f"resuming the unfinished {game} game {writer.uid} ({turns} "
                 f"turn{'' if turns == 1 else 's'} played; --new starts a new game)")
            return writer, True
        note(f"the unfinished {writer.log.game} game {writer.uid} is ended as abandoned")
        writer.abandon()
        writer.close()
    options = dict(options or {})  # the rules' options (rank_stones=5), kept in the journal
    return GameWriter.new(journal, rules.new_game(game, **options), tags=tags,
                        options=options), False
