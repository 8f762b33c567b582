"""A board on MQTT: its journal published to a broker (mosquitto), nothing lost.

Topics (``<prefix>`` is ``sensorboard`` unless set; ``docs/records.md`` has the payloads):

- ``<prefix>/<board>/journal``  journal entries, QoS 1, in sequence order (a JSON list:
  the entries written together go in one message)
- ``<prefix>/<board>/state``    the game as it stands, QoS 1, retained
- ``<prefix>/<board>/status``   ``{"online": true}``, retained; the last will says false
- ``<prefix>/<board>/ack``      from the recorder: ``{"seq": N, "journal": ID}``, every
  entry of journal ID up to N is stored (retained)
- ``<prefix>/<board>/command``  an arbiter's correction (through the recorder's page)
- ``<prefix>/<board>/play/<other>``  remote play with board ``<other>`` (a channel:
  :mod:`sensorboard.remote`; the link carries it on its one connection)

The board connects with a fixed client id and a persistent session. An entry counts as
delivered only when the recorder acknowledges it (end to end, not just the broker's
PUBACK): the highest acknowledged sequence number is kept in the journal, and whatever
lies above it is published again after every reconnect and when the recorder stays
silent, so a broker restart, a network outage or a recorder that was down loses nothing
(the recorder drops the duplicates by board, journal and sequence number).

An acknowledgement counts only when it names this journal's identity and a sequence
number the journal has written: a retained ack of an earlier journal under the same board
name, or a forged one, changes nothing. On a secured hall (``deploy/install.sh --hall``)
the broker itself refuses what a login may not write: see ``docs/hall.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import ssl
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import aiomqtt

from sensorboard import events
from sensorboard.gamelog import GameLog
from sensorboard.journal import Entry, Journal, connect

PREFIX = "sensorboard"
RESEND = 10.0  # seconds without an acknowledgement before entries are sent again
MAX_RESEND = 300.0
# Entries that change the game state a board publishes (retained).
PUBLISHED = (events.Start, events.Move, events.Takeback, events.Correction, events.Setup,
             events.End)
BATCH = 50  # entries at most in one message
RECONNECT = 1.0  # seconds between connection attempts


class MqttUrlError(ValueError):
    """A broker URL that cannot be used."""


URL_FORM = "mqtt[s]://[LOGIN[:PASSWORD]@]HOST[:PORT][?ca=FILE&password_file=FILE]"


@dataclass(frozen=True)
class Login:
    """Who connects, and how: a login and password, and TLS against a CA's certificate."""

    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None  # the hall CA's certificate (None: the system's CAs)

    def client_args(self) -> dict:
        """Keyword arguments of :class:`aiomqtt.Client`."""
        args: dict = {"username": self.username, "password": self.password}
        if self.tls:
            args["tls_context"] = ssl.create_default_context(cafile=self.ca)
        return args


ANONYMOUS = Login()


def parse_broker(url: str) -> tuple[str, int, Login]:
    """``mqtts://board-7@recorder.local:8883?ca=hall-ca.crt&password_file=pw`` -> (host,
    port, login); ``mqtt://host:port`` is a plain connection without a login."""
    parsed = urlparse(url if "://" in url else f"mqtt://{url}")
    if parsed.scheme not in ("mqtt", "mqtts") or not parsed.hostname:
        raise MqttUrlError(f"broker {_shown(url)!r}: expected {URL_FORM}")
    try:
        port = parsed.port or (8883 if parsed.scheme == "mqtts" else 1883)
    except ValueError:
        raise MqttUrlError(f"broker {_shown(url)!r}: bad port") from None
    query = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
    unknown = set(query) - {"ca", "password_file"}
    if unknown:
        raise MqttUrlError(f"broker {_shown(url)!r}: unknown {sorted(unknown)}; "
                           "ca and password_file are known")
    password = unquote(parsed.password) if parsed.password else None
    for key in ("password_file", "ca"):
        if key in query and not Path(query[key]).is_file():
            raise MqttUrlError(f"broker {_shown(url)!r}: {key} {query[key]}: no such file")
    if "password_file" in query:
        password = Path(query["password_file"]).read_text().strip()
    if parsed.scheme == "mqtt" and "ca" in query:
        raise MqttUrlError(f"broker {_shown(url)!r}: ca is for mqtts:// (TLS)")
    username = unquote(parsed.username) if parsed.username else None
    return parsed.hostname, port, Login(username, password, parsed.scheme == "mqtts",
                                        query.get("ca"))


def parse_url(url: str) -> tuple[str, int]:
    """``mqtt://host:port`` -> (host, port)."""
    host, port, _ = parse_broker(url)
    return host, port


def _shown(url: str) -> str:
    """The URL without a password in it, for messages."""
    parsed = urlparse(url)
    if parsed.password is None:
        return url
    return url.replace(f":{parsed.password}@", ":***@", 1)


def topic(board: str, kind: str, prefix: str = PREFIX) -> str:
    return f"{prefix}/{board}/{kind}"


def state_json(log: GameLog, uid: str, seq: int) -> dict:
    """The ``state`` payload: the game as its journal has it up to ``seq``."""
    last = log.turns[-1] if log.turns else None
    return {"game": uid, "name": log.game, "tags": log.tags, "players": log.players,
            "turns": len(log.turns), "last": last.text if last else None,
            "to_move": log.state.to_move, "position": log.state.position_str(),
            "result": log.result, "termination": log.termination, "ended": log.ended,
            "seq": seq}


class BoardLink:
    """Publishes a journal's entries; takes the recorder's acks and the arbiter's commands.

    Run :meth:`run` on an event loop (or :meth:`start` for a thread of its own) and pass
    :meth:`written` to the journal's writer as a listener.
    """

    def __init__(self, journal: Journal, host: str, port: int, *, prefix: str = PREFIX,
                 resend: float = RESEND, keepalive: int = 10, login: Login = ANONYMOUS,
                 timeout: float = 10.0) -> None:
        self.journal = journal
        self.board = journal.board
        self.identity = journal.identity
        self.host, self.port = host, port
        self.login = login
        self.prefix = prefix
        self.resend = resend
        self.resend_after = resend  # doubles while the recorder stays silent (up to 5 min)
        self.keepalive = keepalive
        self.timeout = timeout  # seconds an operation may take (also how soon a cut is seen)
        self.db = connect(journal.path, synchronous="NORMAL")  # acks may be sent again
        row = self.db.execute("SELECT value FROM meta WHERE key='mqtt_acked'").fetchone()
        self.acked = int(row[0]) if row else 0
        self.sent = self.acked  # highest seq published on this connection
        self.last_ack = time.monotonic()
        self.recorder_heard = False  # a recorder acknowledged this journal since the start
        self.queue: deque[Entry] = deque()  # written, not yet published
        self._queue_lock = threading.Lock()
        self.commands: queue.Queue = queue.Queue()  # for the service's loop
        self.logs: dict[str, GameLog] = {}
        self.connected = False
        self.published = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.client: aiomqtt.Client | None = None
        self._wake: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._stop = False
        self.channels: list = []  # more topics on this connection (sensorboard.remote)

    # --- from the journal writer's thread -------------------------------------------

    def written(self, entries: list[Entry]) -> None:
        """A journal listener: new entries to publish."""
        with self._queue_lock:
            self.queue.extend(entries)
        if self.loop is not None and self._wake is not None:
            self.loop.call_soon_threadsafe(self._wake.set)

    # --- channels: more topics on the board's one connection ---------------------------

    def add_channel(self, channel) -> None:
        """Subscribe ``channel.topics`` on every (re)connect, hand their messages (decoded
        JSON) to ``channel.receive(topic, data)`` and call ``channel.connected()`` once
        subscribed (at once, where the link is connected already)."""
        self.channels.append(channel)
        loop, client = self.loop, self.client
        if loop is not None and client is not None and self.connected:
            asyncio.run_coroutine_threadsafe(self._join(client, channel), loop)

    async def _join(self, client: aiomqtt.Client, channel) -> None:
        for name in channel.topics:
            await client.subscribe(name, qos=1)
        channel.connected()

    def remove_channel(self, channel) -> None:
        if channel in self.channels:
            self.channels.remove(channel)

    def send(self, topic: str, payload: str) -> bool:
        """Publish ``payload`` on ``topic`` (QoS 1) from any thread; False while not
        connected (the caller sends again on ``connected()``)."""
        loop, client = self.loop, self.client
        if loop is None or client is None or not self.connected:
            return False
        sent = asyncio.run_coroutine_threadsafe(client.publish(topic, payload, qos=1), loop)
        sent.add_done_callback(lambda f: f.cancelled() or f.exception())  # lost: sent again
        return True

    # --- the connection ------------------------------------------------------------

    def _topic(self, kind: str) -> str:
        return topic(self.board, kind, self.prefix)

    async def run(self) -> None:
        """Connect, publish, and reconnect after any failure, until cancelled."""
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        offline = json.dumps({"online": False, "board": self.board})
        will = aiomqtt.Will(self._topic("status"), offline, qos=1, retain=True)
        while not self._stop:
            client = aiomqtt.Client(self.host, self.port, identifier=f"sensorboard-{self.board}",
                                    clean_session=False, will=will, keepalive=self.keepalive,
                                    timeout=self.timeout, **self.login.client_args())
            try:
                async with client:
                    self.client = client
                    self.connected = True
                    await client.subscribe(self._topic("ack"), qos=1)
                    await client.subscribe(self._topic("command"), qos=1)
                    # its own status too: a will the broker sends late (after a broker
                    # restart) is put right at once
                    await client.subscribe(self._topic("status"), qos=1)
                    await self._online(client)
                    self._reload()
                    for channel in list(self.channels):
                        await self._join(client, channel)
                    await self._serve(client)
            except aiomqtt.MqttError:
                pass
            finally:
                self.connected = False
                self.client = None
            if not self._stop:
                await asyncio.sleep(RECONNECT)

    async def _serve(self, client: aiomqtt.Client) -> None:
        """Listen and publish until either fails: a connection lost while nothing is to be
        published (a board waiting for the other board's turn) is made again at once."""
        tasks = {asyncio.ensure_future(self._listen(client)),
                 asyncio.ensure_future(self._publish_loop(client))}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # the MqttError that ended it
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                    await task

    def _reload(self) -> None:
        """After a (re)connect: everything the recorder has not acknowledged, again."""
        with self._queue_lock:  # an entry written meanwhile is read here or queued after
            self.queue = deque(self.journal_entries(self.acked))
        self.sent = self.acked
        self.last_ack = time.monotonic()

    def journal_entries(self, after: int) -> list[Entry]:
        rows = self.db.execute("SELECT board, seq, game, at, data FROM entries WHERE board=? "
                               "AND seq>? ORDER BY seq", (self.board, after)).fetchall()
        return [Entry(b, s, g, a, json.loads(d), self.identity) for b, s, g, a, d in rows]

    async def _publish_loop(self, client: aiomqtt.Client) -> None:
        while True:
            while self.queue:
                batch: list[Entry] = []
                state = None
                while self.queue and len(batch) < BATCH:
                    entry = self.queue.popleft()
                    if entry.seq > self.sent and (not batch or entry.seq > batch[-1].seq):
                        batch.append(entry)
                        state = self._follow(entry) or state
                if not batch:
                    continue
                # entries written together go as one message, in sequence order
                await client.publish(self._topic("journal"),
                                     json.dumps([e.json() for e in batch]), qos=1)
                self.sent = batch[-1].seq
                self.published += len(batch)
                if state is not None:
                    await client.publish(self._topic("state"), json.dumps(state), qos=1,
                                         retain=True)
            self._wake.clear()
            if self.sent > self.acked and time.monotonic() - self.last_ack > self.resend_after:
                self._reload()  # the recorder missed some: send them again
                self.resend_after = min(self.resend_after * 2, MAX_RESEND)
                continue
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)

    def _follow(self, entry: Entry) -> dict | None:
        """The game's new state when ``entry`` changes it, for the retained topic."""
        log = self.logs.get(entry.game)
        event = events.of(entry.item)
        if isinstance(event, events.Start):
            log = self.logs[entry.game] = GameLog(entry.item, entry.at)
            self.logs = {entry.game: log}  # only the current game is followed
        elif log is None:
            entries = [e for e in self.journal_entries(0) if e.game == entry.game]
            try:
                log = self.logs[entry.game] = GameLog.from_entries(
                    [e for e in entries if e.seq <= entry.seq])
            except ValueError:
                return None
            return state_json(log, entry.game, entry.seq)
        else:
            try:
                log.apply(entry.item, entry.at)
            except ValueError:
                return None
        if isinstance(event, PUBLISHED):
            return state_json(log, entry.game, entry.seq)
        return None

    async def _listen(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            try:
                data = json.loads(message.payload)
            except (ValueError, TypeError):
                continue
            if not isinstance(data, dict):
                continue
            for channel in list(self.channels):
                if any(message.topic.matches(name) for name in channel.topics):
                    try:
                        channel.receive(str(message.topic), data)
                    except Exception as e:  # noqa: BLE001 - one message must not cut the link
                        print(f"sensorboard: a message on {message.topic} failed: {e!r}",
                              file=sys.stderr)
            if message.topic.matches(self._topic("ack")):
                seq = data.get("seq")
                if self.acknowledges(data):
                    self.acked, self.recorder_heard = seq, True
                    self.last_ack = time.monotonic()
                    self.resend_after = self.resend
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES ('mqtt_acked', ?)",
                                    (str(seq),))
            elif message.topic.matches(self._topic("command")):
                self.commands.put(data)
            elif message.topic.matches(self._topic("status")) and data.get("online") is False \
                    and not self._stop:
                await self._online(client)

    def acknowledges(self, ack: dict) -> bool:
        """Whether ``ack`` moves this journal's acknowledged number on: it names this
        journal and a sequence number past the last acknowledged one that was written."""
        seq = ack.get("seq")
        return (ack.get("journal") == self.identity and isinstance(seq, int)
                and not isinstance(seq, bool) and self.acked < seq <= self.journal.seq)

    async def _online(self, client: aiomqtt.Client) -> None:
        await client.publish(self._topic("status"),
                             json.dumps({"online": True, "board": self.board}),
                             qos=1, retain=True)

    async def _goodbye(self) -> None:
        if self.client is not None:
            await self.client.publish(self._topic("status"),
                                      json.dumps({"online": False, "board": self.board}),
                                      qos=1, retain=True, timeout=2)

    # --- in a thread of its own (the terminal service, the page) ---------------------

    @property
    def started(self) -> bool:
        return self._thread is not None

    def start(self) -> BoardLink:
        self._thread = threading.Thread(target=self._thread_main, name="mqtt", daemon=True)
        self._thread.start()
        return self

    def _thread_main(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(self.run())

    def stop(self, timeout: float = 5.0) -> None:
        """Publish what is queued and, where a recorder has answered, wait for its
        acknowledgement (for up to ``timeout`` seconds), then disconnect. Without a recorder
        (two boards playing each other on a broker of their own) nothing is waited for:
        what it has not acknowledged is sent again at the next start anyway."""
        if self.loop is None:
            return
        end = time.monotonic() + timeout
        while (self.queue or (self.recorder_heard and self.sent > self.acked)) \
                and self.connected and time.monotonic() < end:
            time.sleep(0.05)
        self._stop = True
        if self.connected and timeout > 0:  # a clean stop says so (the will is for cuts)
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._goodbye(), self.loop).result(timeout)

        def cancel() -> None:
            for task in asyncio.all_tasks(self.loop):
                task.cancel()

        self.loop.call_soon_threadsafe(cancel)
        if self._thread is not None:
            self._thread.join(timeout)


def attach(journal: Journal, url: str, *, start: bool = True) -> BoardLink:
    """Publish ``journal`` to the broker at ``url`` from a thread of its own (``start``
    False: not yet, so that channels can be added first)."""
    host, port, login = parse_broker(url)
    link = BoardLink(journal, host, port, login=login)
    journal.writer().listeners.append(link.written)
    return link.start() if start else link

