"""``sensorboard recorder``: every board's journal, gathered over MQTT into one store.

The recorder subscribes to ``<prefix>/+/journal`` (QoS 1, fixed client id, MQTT v5 with
a persistent session, so the broker keeps what arrives while it is down), stores each
entry once (the key is board and sequence number: a duplicate delivery changes
nothing), and acknowledges to each board the highest sequence number up to which it
holds every entry, so the board can stop sending them. The store (``sensorboard.store``)
is SQLite with the journal's own tables by default (a board's journal and the
recorder's store read the same way), or a PostgreSQL database that several recorders
share: each joins the shared subscription ``$share/<group>/<prefix>/+/journal`` with its
own client id, and the broker hands each entry to one of them.

It serves a page of all boards that updates live, the records of each round
(``/rounds/<round>/records.txt`` and ``/rounds/<round>/results.csv``) and takes an
arbiter's corrections (with the token), which it passes to the board over MQTT.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from sensorboard import events
from sensorboard.gamelog import GameLog, GameLogError
from sensorboard.mqtt import ANONYMOUS, PREFIX, Login, state_json
from sensorboard.store import POSTGRESQL, Store, StoreError, Stream, apply_or_note, open_store

BATCH_WAIT = 0.005  # seconds a batch may wait for more entries before it is stored
CATCH_UP = 0.5  # seconds without entries after which the overview catches up anyway


SHARED_SESSION = 30  # seconds a recorder of a group keeps its place while it is away


def session(shared: bool) -> dict:
    """MQTT v5 with a persistent session: the broker keeps what arrives for the recorder
    while it is away. Alone, for ever. In a group, for SHARED_SESSION seconds: mosquitto
    keeps giving an absent member its share of the entries, so one that does not come
    back must leave the group (the boards send what it was given again, to the others,
    since nobody acknowledged it)."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SHARED_SESSION if shared else 0xFFFFFFFF
    return {"protocol": aiomqtt.ProtocolVersion.V5, "clean_start": False,
            "properties": properties}


@dataclass
class BoardView:
    """What the overview shows of one board."""

    board: str
    online: bool = False
    game: str | None = None
    journal: str = ""  # the identity of the journal the game is in
    log: GameLog | None = None
    applied: int = 0  # the last sequence number applied to ``log``
    pending: dict[tuple[str, int], dict] = field(default_factory=dict)  # waiting for a gap
    conflicts: list[dict] = field(default_factory=list)  # entries kept aside, for the arbiter

    def json(self) -> dict:
        out: dict = {"board": self.board, "online": self.online, "conflicts": self.conflicts}
        if self.log is not None:
            out.update(state_json(self.log, self.game or "", self.applied))
        return out


class Recorder:
    """The recorder service: MQTT in, the store, acks and commands out."""

    def __init__(self, store: Store, host: str, port: int, *, prefix: str = PREFIX,
                 client_id: str = "sensorboard-recorder", share: str | None = None,
                 on_stored: Callable[[list[dict], float], None] | None = None,
                 login: Login = ANONYMOUS, arbiter: Login | None = None) -> None:
        self.store = store
        self.host, self.port = host, port
        self.login = login  # the recorder's own: it may read journals and write acks
        self.arbiter = arbiter  # an arbiter's: the login that may write corrections
        self.prefix = prefix
        self.client_id = client_id
        self.share = share  # the shared subscription's group: recorders sharing the load
        self.behind: dict[Stream, int] = {}  # stored by others of the group, up to here
        self.followed: dict[Stream, int] = dict(store.contiguous)  # the overview has these
        self.on_stored = on_stored
        self.boards: dict[str, BoardView] = {}
        self.inbox: asyncio.Queue | None = None
        self.client: aiomqtt.Client | None = None
        self.connected = asyncio.Event()
        self.changed = 0  # bumps when the overview changes
        self._load()

    def _load(self) -> None:
        """The overview as the store has it (the last game of each board)."""
        last: dict[str, str] = {}
        for board, uid in self.store.games():
            last[board] = uid
        for board, uid in last.items():
            view = self.view(board)
            view.game, view.log = uid, self.store.log(board, uid)
            view.journal = self.store.journal_of(board, uid)
            view.applied = self.store.held(board, view.journal)
        for conflict in self.store.conflicts():
            self.view(conflict.board).conflicts.append(conflict.json())

    def view(self, board: str) -> BoardView:
        if board not in self.boards:
            self.boards[board] = BoardView(board)
        return self.boards[board]

    # --- MQTT ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Subscribe, store, acknowledge; reconnect after any failure, until cancelled."""
        self.inbox = asyncio.Queue()
        storing = asyncio.ensure_future(self._store_loop())
        try:
            while True:
                client = aiomqtt.Client(self.host, self.port, identifier=self.client_id,
                                        keepalive=10, timeout=10,
                                        max_inflight_messages=1000,
                                        **session(self.share is not None),
                                        **self.login.client_args())
                client.pending_calls_threshold = 100_000  # a batch acks every board in it
                try:
                    async with client:
                        self.client = client
                        await client.subscribe(self.journals(), qos=1)
                        await client.subscribe(f"{self.prefix}/+/status", qos=1)
                        if self.share is not None:  # the others' acks: what they stored
                            await client.subscribe(f"{self.prefix}/+/ack", qos=1)
                        self.connected.set()
                        async for message in client.messages:
                            self._received(message)
                except aiomqtt.MqttError:
                    pass
                finally:
                    self.client = None
                    self.connected.clear()
                await asyncio.sleep(1.0)
        finally:
            storing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await storing

    def journals(self) -> str:
        """The journals' topic filter: shared by the group when there is one (the broker
        gives each entry to one recorder of the group)."""
        topic = f"{self.prefix}/+/journal"
        return topic if self.share is None else f"$share/{self.share}/{topic}"

    def _received(self, message: aiomqtt.Message) -> None:
        parts = str(message.topic).split("/")
        if len(parts) != 3:
            return
        board, kind = parts[1], parts[2]
        try:
            data = json.loads(message.payload)
        except (ValueError, TypeError):
            return
        if kind == "journal" and isinstance(data, dict):
            data = [data]  # one entry alone
        if not isinstance(data, dict | list):
            return
        if kind == "ack" and isinstance(data, dict):
            self._acked_elsewhere(board, data)
        elif kind == "status" and isinstance(data, dict):
            self.view(board).online = bool(data.get("online"))
            self.changed += 1
        elif kind == "journal":
            for entry in data:
                if isinstance(entry, dict) and _valid_entry(entry, board):
                    self.inbox.put_nowait(entry)

    def _acked_elsewhere(self, board: str, data: dict) -> None:
        """An ack of another recorder of the group: the overview catches up from the
        store (what it holds is the truth; the ack only says where to look)."""
        seq, journal = data.get("seq"), data.get("journal", "")
        if isinstance(seq, int) and isinstance(journal, str) \
                and seq > self._applied(board, journal):
            self.behind[board, journal] = max(seq, self.behind.get((board, journal), 0))

    def _applied(self, board: str, journal: str) -> int:
        return self.followed.get((board, journal), 0)

    def _gaps(self, new: list[dict]) -> None:
        """Entries under what the store holds that this recorder did not store itself."""
        for stream in {(e["board"], e.get("journal", "")) for e in new}:
            board, journal = stream
            have = {s for j, s in self.view(board).pending if j == journal}
            have.update(e["seq"] for e in new if (e["board"], e.get("journal", "")) == stream)
            held = self.store.held(board, journal)
            if any(s not in have for s in range(self._applied(board, journal) + 1, held + 1)):
                self.behind[stream] = max(held, self.behind.get(stream, 0))

    async def _catch_up(self, loop: asyncio.AbstractEventLoop) -> list[dict]:
        behind, self.behind = self.behind, {}
        after = [(b, j, self._applied(b, j)) for (b, j), seq in sorted(behind.items())
                 if seq > self._applied(b, j)]
        if not after:
            return []
        try:
            return await loop.run_in_executor(None, self.store.entries, after)
        except StoreError:
            self.behind.update(behind)  # the next batch tries again
            return []

    async def _next_batch(self) -> list[dict]:
        """The entries that have come (after a short wait for more); none after a while
        with nothing (the overview may still have to catch up)."""
        try:
            batch = [await asyncio.wait_for(self.inbox.get(), CATCH_UP)]
        except TimeoutError:
            return []
        await asyncio.sleep(BATCH_WAIT)
        while not self.inbox.empty():
            batch.append(self.inbox.get_nowait())
        return batch

    async def _store_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = await self._next_batch()
            if not batch:
                self._follow(await self._catch_up(loop))
                continue
            kept_aside = self.store.kept_aside
            try:
                new = await loop.run_in_executor(None, self.store.add, batch)
            except StoreError as e:
                print(f"sensorboard recorder: cannot store: {e}", flush=True)
                await asyncio.sleep(1.0)
                for item in batch:
                    self.inbox.put_nowait(item)
                continue
            stored = time.time()
            self._gaps(new)
            self._follow(new + await self._catch_up(loop))
            if self.store.kept_aside != kept_aside:
                self._conflicts()
            if self.on_stored is not None:
                self.on_stored(new, stored)
            await self._acknowledge({(e["board"], e.get("journal", "")) for e in batch})

    def _follow(self, new: list[dict]) -> None:
        """Apply stored entries to each board's overview, in sequence order."""
        for e in new:
            self.view(e["board"]).pending[e.get("journal", ""), e["seq"]] = e
        for board in {e["board"] for e in new}:
            view = self.view(board)
            for journal, seq in sorted(view.pending):
                if seq > self.store.held(board, journal):
                    continue
                e = view.pending.pop((journal, seq))
                self.followed[board, journal] = max(seq, self._applied(board, journal))
                item = e["item"]
                if isinstance(events.of(item), events.Start):
                    try:
                        view.log = GameLog(item, e["at"])
                    except (GameLogError, ValueError, KeyError):
                        continue  # a start the rules refuse: the game before stays shown
                    view.game, view.journal = e["game"], journal
                elif view.log is None or (e["game"], journal) != (view.game, view.journal):
                    continue
                else:
                    apply_or_note(view.log, item, e["at"], seq)
                view.applied = seq
            self.changed += 1

    def _conflicts(self) -> None:
        for view in self.boards.values():
            view.conflicts = []
        for conflict in self.store.conflicts():
            self.view(conflict.board).conflicts.append(conflict.json())
        self.changed += 1

    async def _acknowledge(self, streams: set[Stream]) -> None:
        """Tell each board how far its journal is stored, naming the journal."""
        client = self.client
        if client is None:
            return
        acks = [client.publish(f"{self.prefix}/{board}/ack",
                               json.dumps({"seq": self.store.held(board, journal),
                                           "journal": journal}),
                               qos=1, retain=True) for board, journal in sorted(streams)]
        for result in await asyncio.gather(*acks, return_exceptions=True):
            if isinstance(result, BaseException) and not isinstance(result, aiomqtt.MqttError):
                raise result

    async def command(self, board: str, command: dict) -> None:
        """Send an arbiter's correction to ``board`` (QoS 1; the broker keeps it for a
        board that is offline), with the arbiter's login when one is given."""
        topic, payload = f"{self.prefix}/{board}/command", json.dumps(command)
        if self.arbiter is not None:
            try:
                async with aiomqtt.Client(self.host, self.port, timeout=10,
                                          **self.arbiter.client_args()) as client:
                    await client.publish(topic, payload, qos=1)
            except aiomqtt.MqttError as e:
                raise ConnectionError(f"the arbiter's login cannot reach the broker: {e}"
                                      ) from None
            return
        if self.login.username is not None:
            raise ConnectionError("corrections on a hall with logins need the recorder "
                                  "started with --arbiter (an arbiter's login)")
        if self.client is None:
            raise ConnectionError("the recorder is not connected to the broker")
        await self.client.publish(topic, payload, qos=1)

    def overview(self) -> list[dict]:
        return [self.boards[b].json() for b in sorted(self.boards, key=_board_order)]


def _board_order(board: str) -> tuple:
    return (0, int(board), "") if board.isdigit() else (1, 0, board)


def _valid_entry(data: dict, board: str) -> bool:
    return (data.get("board") == board and isinstance(data.get("seq"), int)
            and isinstance(data.get("journal", ""), str)
            and isinstance(data.get("game"), str) and isinstance(data.get("item"), dict)
            and isinstance(data.get("at"), int | float))


def command(args) -> int:
    """``sensorboard recorder`` and ``sensorboard export``."""
    import sys
    from pathlib import Path

    from sensorboard.gamerecord import results_csv, round_text
    from sensorboard.journal import JournalError
    from sensorboard.mqtt import MqttUrlError, parse_broker

    def fail(message: str) -> int:
        print(f"sensorboard {args.command}: {message}", file=sys.stderr)
        return 2

    if args.command == "export":
        if not args.store.startswith(POSTGRESQL) and not Path(args.store).is_file():
            return fail(f"{args.store}: no such file")
        try:
            store = open_store(args.store)
            records = store.records(args.round, args.event)
        except (JournalError, StoreError) as e:
            return fail(str(e))
        store.close()
        print(results_csv(records) if args.csv else round_text(records), end="")
        return 0
    from sensorboard.tournament import PairingError, read_pairings
    from sensorboard.web.overview import serve

    if args.share is not None and not args.store.startswith(POSTGRESQL):
        return fail("--share: the recorders of a group share one PostgreSQL --store "
                    "(postgresql://...)")
    if args.share is not None and args.name is None:
        return fail("--share: give each recorder of the group its own --name")
    try:
        pairings = read_pairings(args.pairings) if args.pairings else ()
        host, port, login = parse_broker(args.broker)
        arbiter = parse_broker(args.arbiter) if args.arbiter else None
        if arbiter is not None and arbiter[:2] != (host, port):
            return fail(f"--arbiter: the broker is {host}:{port}, as --broker says")
        store = open_store(args.store)
    except (MqttUrlError, JournalError, StoreError, PairingError) as e:
        return fail(str(e))
    recorder = Recorder(store, host, port, login=login,
                        arbiter=None if arbiter is None else arbiter[2],
                        client_id=args.name or "sensorboard-recorder", share=args.share)
    try:
        asyncio.run(serve(recorder, args.host, args.port, args.token, pairings))
    except KeyboardInterrupt:
        pass
    except OSError as e:
        return fail(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}")
    finally:
        store.close()
    return 0
