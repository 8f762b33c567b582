"""Boards and a recorder on a real broker, inside a test: the MQTT path under faults."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path

import rules
from sensorboard import events
from sensorboard.journal import Entry, Journal
from sensorboard.mqtt import ANONYMOUS, BoardLink, Login
from sensorboard.recorder import Recorder
from sensorboard.remote import Game, Pairing, RemoteOpponent
from sensorboard.store import SqliteStore, Store


class Board:
    """A board's journal and its link; turns are a random legal game, journaled as the
    service journals them (sensor changes, then the turn)."""

    def __init__(self, folder: Path, name: str, port: int, seed: int, game: str = "tessella",
                 resend: float = 1.0, login: Login = ANONYMOUS) -> None:
        self.name, self.port, self.resend, self.login = name, port, resend, login
        self.path = folder / name / "journal.sqlite"
        self.journal = Journal(self.path, board=name)
        self.writer = self.journal.writer()
        self.link: BoardLink | None = None
        self.rng = random.Random(seed)
        self.state = rules.new_game(game)
        header = self.journal.start_game({"game": game, "players": list(self.state.PLAYERS),
                                          "position": self.state.position_str(),
                                          "tags": {"Round": "1", "Board": name}})
        self.uid = header["uid"]
        self.writer.put(self.uid, header)
        self.turns: list[str] = []
        self.connect()

    @classmethod
    def offline(cls, journal: Journal, played: list[str], seed: int,
                game: str = "tessella") -> Board:
        """The board of ``journal`` going on with its game with no network."""
        board = cls.__new__(cls)
        board.journal, board.writer, board.link = journal, journal.writer(), None
        board.rng, board.turns, board.uid = random.Random(seed), [], journal.unfinished()
        board.state = rules.new_game(game)
        for text in played:
            board.state.push_str(text)
        return board

    def connect(self) -> None:
        self.link = BoardLink(self.journal, "127.0.0.1", self.port, resend=self.resend,
                              keepalive=2, login=self.login)
        self.writer.listeners.append(self.link.written)
        self.link.start()

    def disconnect(self) -> None:
        self.writer.listeners.remove(self.link.written)
        self.link.stop(timeout=0)

    def turn(self) -> None:
        if self.state.outcome() is not None:
            return
        move = self.rng.choice(self.state.legal_moves())
        player = self.state.to_move
        text = self.state.move_str(move)
        self.state.push(move)
        self.writer.put(self.uid, {"type": "sensor", "t": 0.0, "cell": "a1", "shows": True})
        self.writer.put(self.uid, {"type": "move", "t": 0.0, "ply": len(self.turns) + 1,
                                   "player": player, "move": text})
        self.turns.append(text)

    def close(self) -> None:
        self.disconnect()
        self.journal.close()


class RecorderThread:
    """The recorder service on its own event loop in a thread."""

    def __init__(self, store_path: Path | Store, port: int, **options) -> None:
        self.store = store_path if isinstance(store_path, Store) else SqliteStore(str(store_path))
        self.recorder = Recorder(self.store, "127.0.0.1", port, **options)
        self.loop = asyncio.new_event_loop()
        self.task = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(self.recorder.run())
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def stop(self) -> None:
        while self.task is None:
            time.sleep(0.01)
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)
        self.store.close()


def wait_until(check, timeout: float = 30.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def stored_turns(store: Store) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for board, _, move in store.turns():
        out.setdefault(board, []).append(move)
    return out


class Player:
    """A board's journal and link with another board as its opponent (the service's part
    played by the test: :meth:`commit` is a turn carried out on this board)."""

    def __init__(self, folder: Path, me: str, peer: str, plays: str, port: int,
                 login: Login = ANONYMOUS) -> None:
        self.state = rules.new_game("tessella")
        self.journal = Journal(folder / me / "journal.sqlite", board=me)
        self.link = BoardLink(self.journal, "127.0.0.1", port, keepalive=2, login=login,
                              timeout=2)
        self.lines: list[str] = []
        theirs = next(p for p in self.state.PLAYERS if p != plays)
        self.remote = RemoteOpponent(Pairing(me, peer, "4XQ2-M8RT"), theirs,
                                     Game("tessella", self.state.position_str(), plays),
                                     self.link, uid="g", note=self.lines.append)
        self.link.add_channel(self.remote)
        self.link.start()
        wait_until(lambda: self.link.connected, what=f"board {me} connected")

    def commit(self, move: str) -> None:
        ply, player = len(self.remote.turns) + 1, self.state.to_move
        self.state.push_str(move)
        item = events.Move(0.0, ply, player, move)
        self.remote.observe(item)
        self.remote.written([Entry(self.journal.board, ply, "g", 0.0, item.to_json())])

    def close(self) -> None:
        self.link.stop(timeout=0)
        self.journal.close()
