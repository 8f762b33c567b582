"""The board in the browser: an aiohttp server, a live runner, and the actions of the page.

One :class:`WebSession` holds the board service of the game being played and steps it
every scan period on the event loop (the same pipeline as the terminal loop: simulated
magnets or a real matrix, debouncing, tracker, LEDs, game writer). Handlers run on the
same loop, so they change the service between two scans and never during one.

Endpoints (JSON in, JSON out; errors are ``{"error": "<one line>"}`` with a 4xx status):

- ``GET /`` the page; ``GET /static/...`` its files
- ``GET /api/state`` the snapshot (board geometry, pieces, LEDs, moves, prompt, piles,
  advice) and ``allowed``: whether this request may act (it carries the token if one is set)
- ``GET /api/position?ply=N`` the position after N moves of the game, read-only, with
  the LEDs of move N
- ``GET /ws`` a WebSocket pushing the snapshot whenever it changes
- ``POST /api/lift {"cell"}``, ``/api/place {"cell"}``, ``/api/toggle {"cell"}`` (lift
  if the cell holds a magnet, else place one): the simulated magnets
- ``POST /api/press {"button": "clock"}``, ``/api/choose {"value", "asked"}`` (``asked``,
  optional: the snapshot's ``question_key``; 409 once another question took its place),
  ``/api/new {"game"}``
- ``POST /api/setup {"text"}``: a setup entered before the first move (Tesulda: one or
  both sides' figures, the text of a ``--setup`` file); a bad one answers 400 with
  ``errors``, every fault one line (``error`` is the first), and changes nothing

Every POST needs ``Content-Type: application/json`` and a body with exactly its one
field; when a token is configured it needs the token too (header ``X-Sensorboard-Token``
or query ``?token=``). A press that changes nothing answers why in ``notice``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import signal
import socket
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from aiohttp import WSMsgType, web
from yarl import URL

import rules
from boards.constants import quote
from boards.events import no_longer_open
from boards.layout import Layout, LayoutError, layout_for_game
from hardware.backends import HardwareConfig
from hardware.base import Clock
from hardware.clock import RealClock
from sensorboard import demo as demos
from sensorboard import events as events_module
from sensorboard import guidance
from sensorboard.board import Board, BoardOptions, open_board
from sensorboard.opponent import Choice, ChoiceError, TurnError
from sensorboard.options import known_buttons
from sensorboard.service import BoardService, ServiceError
from sensorboard.web import against as against_menu
from sensorboard.web.network import is_loopback, url_for
from sensorboard.web.snapshot import legend_json, position_json, snapshot

LOG = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
TOKEN_HEADER = "X-Sensorboard-Token"
MAX_MAGNETS = 8  # per cell, on the simulated board


class ActionError(Exception):
    """An action the page asked for that cannot be done; nothing was changed."""

    def __init__(self, status: int, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors  # every fault, one line each, where there are several


def default_factory(backend: str = "sim", clock: Clock | None = None,
                    records: str | None = None,
                    config: HardwareConfig | None = None, *, board: str | None = None,
                    tags: dict | None = None, new: bool = False,
                    mqtt: str | None = None, pair: str | None = None,
                    options: dict[str, list[str]] | None = None,
                    note: Callable[[str], None] = lambda text: None) -> Callable[[str], Board]:
    """Build a new board for a game; with ``records`` the games go to the journal there,
    and the first board goes on with the journal's unfinished game (unless ``new``); with
    ``mqtt`` (a broker's URL) the journal is published and the arbiter's corrections taken.
    ``options``: per game, its ``KEY=VALUE`` options (``--option``; e.g. Telec's dice).
    Every board after the first shares the first one's journal and link. ``note`` hears
    that a game is resumed."""
    clock = clock or RealClock()
    first: Board | None = None
    shared: tuple = (None, None)

    made = 0

    def make(game: str, layout: Layout | None = None, opponent: Choice | None = None) -> Board:
        nonlocal first, shared, made
        # Each game of the session rolls its own electronic die: the run's seed, then on.
        base = config or HardwareConfig()
        hardware = replace(base, seed=base.seed + made)
        made += 1
        opts = BoardOptions(game, layout=layout, backend=backend, hardware=hardware,
                            clock=clock, options=tuple((options or {}).get(game, [])),
                            records=records, board=board, tags=tags,
                            new=new or first is not None, mqtt=mqtt, note=note,
                            opponent=opponent, pair=pair)
        if first is None:
            first = open_board(opts)
            shared = first.hand_over()  # the page's next games go to the same journal
            return first
        return open_board(opts, journal=shared[0], link=shared[1])

    return make


class _Client:
    """One WebSocket: the latest snapshot text waiting to be sent (older ones are dropped)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.latest: str | None = None
        self.ready = asyncio.Event()

    def offer(self, text: str) -> None:
        self.latest = text
        self.ready.set()

    async def pump(self) -> None:
        while not self.ws.closed:
            await self.ready.wait()
            self.ready.clear()
            text, self.latest = self.latest, None
            if text is not None:
                await self.ws.send_str(text)


class WebSession:
    """The game on the page: its board, the live runner, the demo script and the clients."""

    def __init__(
        self,
        game: str,
        factory: Callable[..., Board],
        *,
        layout: Layout | None = None,
        clock: Clock | None = None,
        demo: list[dict] | None = None,
        speed: float = 1.0,
        token: str | None = None,
        on_step: Callable[[BoardService, list[dict]], None] | None = None,
        opponent: Choice | None = None,
    ) -> None:
        self.factory = factory
        self.choice = opponent  # who plays a side from elsewhere ("play against")
        self.clock = clock or RealClock()
        self.token = token or None
        self.on_step = on_step
        self.board_id = 0
        self.board = factory(game, layout, opponent) if opponent is not None or \
            layout is not None else factory(game)
        self.clients: set[_Client] = set()
        self._last: dict | None = None
        self.seq = 0
        self._geometry: dict = {}
        self.script: list[tuple[float, dict]] = []
        if demo:
            start = self.clock.now()
            self.script = [(start + e["t"] / speed, e) for e in demo]
        self.demo = bool(self.script)

    @property
    def service(self) -> BoardService:
        return self.board.service

    # --- the live runner -------------------------------------------------------------

    def step(self) -> list[dict]:
        """One scan: due demo events, the service's step, the terminal hook."""
        now = self.clock.now()
        service = self.service
        events = []
        while self.script and self.script[0][0] <= now:
            events += demos.apply(service, self.script.pop(0)[1])
        events += service.step()
        if self.demo and not self.script and service.settled():
            self.demo = False
        if self.on_step is not None:
            self.on_step(service, events)
        return events

    async def run(self) -> None:
        """Step the service every scan period, and publish the snapshot when it changes."""
        seen = None
        while True:
            start = self.clock.now()
            events = self.step()
            now_seen = (self.board_id, self.service.revision, self.demo)
            if events or now_seen != seen:  # nothing to build or send on a quiet scan
                seen = now_seen
                self.publish()
            await asyncio.sleep(max(0.0, self.service.scan_period - (self.clock.now() - start)))

    # --- what the page sees --------------------------------------------------------------

    def snapshot(self) -> dict:
        return snapshot(self.service, board=self.board_id, demo=self.demo,
                        token_required=self.token is not None)

    def geometry(self) -> dict:
        if self._geometry.get("board") != self.board_id:
            self._geometry = {"board": self.board_id,
                              "geometry": self.service.view.state.GEOMETRY.to_json()}
        return self._geometry["geometry"]

    def full(self, snap: dict | None = None) -> dict:
        """A snapshot with the board's geometry and the LED legend: all a page needs."""
        return {**(snap or self.publish()), "geometry": self.geometry(),
                "legend": legend_json(self.service.view.state.NAME, self.service.palette,
                                      die="roll" in self.service.view.buttons,
                                      opponent=self.service.seat is not None),
                "against": against_menu.MENU}

    def publish(self) -> dict:
        """The snapshot, numbered; pushed to every page when it differs from the last one.

        The page draws a snapshot only if its ``seq`` is not older than the one it shows,
        so an action's answer that arrives after a newer push cannot undo it.
        """
        snap = self.snapshot()
        if snap != self._last:
            self._last = snap
            self.seq += 1
            if self.clients:
                text = json.dumps(self.full({**snap, "seq": self.seq}))
                for client in list(self.clients):
                    client.offer(text)
        return {**snap, "seq": self.seq}

    # --- actions -------------------------------------------------------------------------

    def _cell(self, cell: object) -> str:
        names = self.service.view.state.GEOMETRY.names
        if not isinstance(cell, str) or cell not in names:
            raise ActionError(400, f"unknown cell {quote(cell)}; cells of "
                                   f"{self.service.view.state.NAME}: {', '.join(names)}")
        if self.service.sim is None:
            raise ActionError(409, f"the {self.service.backend} board has real pieces; "
                                   "lift and place them by hand")
        self._not_during_demo()
        return cell

    def _not_during_demo(self) -> None:
        if self.demo:
            raise ActionError(409, "the demo is playing; wait for it to end or start a new game")

    def lift(self, cell: object) -> None:
        cell = self._cell(cell)
        if self.service.sim_pieces(cell) == 0:
            raise ActionError(409, f"lift {cell}: there is no piece on {cell}")
        self.service.act("lift", cell)

    def place(self, cell: object) -> None:
        cell = self._cell(cell)
        if self.service.sim_pieces(cell) >= MAX_MAGNETS:
            raise ActionError(409, f"place {cell}: {MAX_MAGNETS} pieces is the most a cell holds")
        self.service.act("place", cell)

    def toggle(self, cell: object) -> None:
        cell = self._cell(cell)
        (self.lift if self.service.sim_pieces(cell) else self.place)(cell)

    def press(self, button: object, player: object = None) -> str:
        """Press a button; the answer is why nothing happened, if nothing did. ``player``:
        whose side of the clock (one button per player), None when it is shared."""
        buttons = known_buttons(self.service.view)
        if button not in buttons:
            raise ActionError(400, f"unknown button {quote(button)}; buttons: "
                                   f"{', '.join(buttons)}")
        players = self.service.view.state.PLAYERS
        if player is not None and player not in players:
            raise ActionError(400, f"unknown player {quote(player)}; players: "
                                   f"{', '.join(players)}")
        self._not_during_demo()
        events, why = guidance.press(self.service, button, player)
        for item in map(events_module.from_json, events):
            if isinstance(item, events_module.Rejected):  # pragma: no cover - known buttons
                raise ActionError(409, item.reason)
        return why

    def position(self, ply: object) -> dict:
        """The position after ``ply`` moves of this game (read-only)."""
        view = self.service.view
        bounds = view.turn_bounds  # where each turn begins and ends
        n = len(bounds) - 1
        try:
            k = int(ply)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            k = -1
        if not 0 <= k <= n:
            raise ActionError(400, f"ply {ply!r}: give a number from 0 to {n}")
        return {"board": self.board_id,
                **position_json(view.state, k, bounds[k], bounds[k - 1] if k else 0,
                                self.service.palette)}

    def choose(self, value: object, asked: object = None) -> None:
        """An answer; ``asked``: the key of the question it was given for (the snapshot's
        ``question_key``), refused once another question has taken its place."""
        question = self.service.view.question
        if question is None:
            raise ActionError(409, f"no question is open; {quote(value)} ignored")
        if asked is not None and not isinstance(asked, str):
            raise ActionError(400, f"'asked' must be the key of the question answered, a "
                                   f"string, got {quote(asked)}")
        if asked is not None and asked != question.key:
            raise ActionError(409, no_longer_open(value, question.values))
        if not isinstance(value, str) or value not in question.values:
            raise ActionError(400, f"{quote(value)} is not offered; options: "
                                   f"{', '.join(question.values)}")
        self._not_during_demo()
        self.service.act("choose", value, asked=asked)

    def set_up(self, text: object) -> None:
        """Enter a setup (see :meth:`BoardService.set_up`) before the first move."""
        state = self.service.view.state
        self._not_during_demo()
        if state.setup_text() is None:
            raise ActionError(409, f"{state.NAME} starts from its fixed position and takes "
                                   "no setup")
        if state.move_stack:
            raise ActionError(409, "setup: the game has begun; a setup is entered before the "
                                   "first move (start a new game for another)")
        if not isinstance(text, str):
            raise ActionError(400, f"setup: text must be a string, got {type(text).__name__}")
        try:
            self.service.act("setup", text)
        except rules.SetupError as e:
            raise ActionError(400, str(e), e.errors) from None
        except ServiceError as e:
            raise ActionError(409, str(e)) from None

    def new_game(self, game: object) -> None:
        if not isinstance(game, str) or game not in rules.GAMES:
            raise ActionError(400, f"unknown game {quote(game)}; games: "
                                   f"{', '.join(sorted(rules.GAMES))}")
        try:
            layout_for_game(game)
        except LayoutError as e:
            raise ActionError(409, f"cannot set up {game}: {e}") from None
        previous = self.service.view.state.NAME
        # The old board lets go of its pins and LEDs before the new one claims them.
        self.close()
        if self.choice is not None and self.choice.side not in rules.GAMES[game].PLAYERS:
            self.choice = Choice(self.choice.kind, self.choice.level, self.choice.name)
        try:
            board = self.factory(game, opponent=self.choice) if self.choice else \
                self.factory(game)
        except (LayoutError, ValueError) as e:
            self._replace(self.factory(previous))
            raise ActionError(409, f"cannot set up {game}: {e}; a new game of {previous} "
                                   "is on the board") from None
        self._replace(board)

    def against(self, value: object, side: object = None, pair: object = None) -> None:
        """The "play against" menu (:mod:`sensorboard.web.against`): who plays ``side``
        from now on; ``""``: nobody (``pair``: another board's pairing code)."""
        self._not_during_demo()
        try:
            self.choice = against_menu.choose(self.service, value, side, board=self.board,
                                              pair=pair)
        except ChoiceError as e:
            raise ActionError(400, str(e)) from None

    def turn(self, move: object) -> None:
        """A decision of the turn a person on this page plays (None: pick it again)."""
        try:
            against_menu.pick(self.service, move)
        except TurnError as e:
            raise ActionError(409, str(e)) from None

    def _replace(self, board: Board) -> None:
        self.board = board
        self.board_id += 1
        self.script = []
        self.demo = False

    def allowed(self, request: web.Request) -> bool:
        """Whether ``request`` may act (no token is set, or it carries the token)."""
        if self.token is None:
            return True
        given = request.headers.get(TOKEN_HEADER) or request.query.get("token") or ""
        return hmac.compare_digest(given.encode(), self.token.encode())

    def close(self) -> None:
        """Commit a complete last turn and close the current board and its game writer."""
        self.service.flush()
        self.board.close()

    def result(self) -> str:
        return self.service.result()


# --- HTTP ---------------------------------------------------------------------------------

def _error(status: int, message: str, errors: list[str] | None = None) -> web.Response:
    body = {"error": message, "errors": errors} if errors else {"error": message}
    return web.json_response(body, status=status)


ACTIONS = {"lift": "cell", "place": "cell", "toggle": "cell", "press": "button",
           "choose": "value", "new": "game", "setup": "text", "against": "opponent",
           "turn": "move"}
# more fields an action takes
OPTIONAL = {"press": ("player",), "choose": ("asked",), "against": ("side", "pair")}


SESSION = web.AppKey("session", WebSession)


def make_app(session: WebSession, *, loopback: bool = True, run: bool = True) -> web.Application:
    """The aiohttp application; with ``run`` the live runner starts and stops with it."""
    app = web.Application(client_max_size=64 * 1024, middlewares=[_guard(session, loopback)])
    app[SESSION] = session

    async def index(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html",
                                headers={"Cache-Control": "no-cache"})

    async def state(request: web.Request) -> web.Response:
        return web.json_response({**session.full(), "allowed": session.allowed(request)})

    async def position(request: web.Request) -> web.Response:
        try:
            return web.json_response(session.position(request.query.get("ply")))
        except ActionError as e:
            return _error(e.status, e.message)

    async def websocket(request: web.Request) -> web.StreamResponse:
        return await _stream(session, request)

    async def action(request: web.Request) -> web.Response:
        return await _act(session, request)

    app.router.add_get("/", index)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/position", position)
    app.router.add_get("/ws", websocket)
    app.router.add_post("/api/{action}", action)
    app.router.add_static("/static/", STATIC)

    if run:
        async def runner(app: web.Application):
            task = asyncio.ensure_future(session.run())
            yield
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            for client in list(session.clients):
                await client.ws.close()

        app.cleanup_ctx.append(runner)
    return app


async def _stream(session: WebSession, request: web.Request) -> web.StreamResponse:
    """GET /ws: ``session``'s snapshots pushed to the page, the latest one each time."""
    ws = web.WebSocketResponse(heartbeat=20)
    await ws.prepare(request)
    client = _Client(ws)
    client.offer(json.dumps(session.full()))
    session.clients.add(client)
    pump = asyncio.ensure_future(client.pump())
    try:
        async for msg in ws:  # the page only listens; anything it sends is ignored
            if msg.type == WSMsgType.ERROR:
                break
    finally:
        session.clients.discard(client)
        pump.cancel()
    return ws


async def _act(session: WebSession, request: web.Request) -> web.Response:
    """POST /api/{action}: one of ACTIONS, its JSON fields checked, done on ``session``."""
    name = request.match_info["action"]
    if name not in ACTIONS:
        return _error(404, f"no action {quote(name)}; actions: "
                           f"{', '.join(ACTIONS)}")
    try:
        body = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError):
        return _error(400, "the body is not valid JSON")
    except RecursionError:
        return _error(400, "the body's JSON is nested too deeply")
    field = ACTIONS[name]
    if not isinstance(body, dict) or field not in body:
        return _error(400, f'{name} needs a JSON object like {{"{field}": ...}}')
    allowed = {field, *OPTIONAL.get(name, ())}
    unknown = sorted(str(k) for k in body if k not in allowed)
    if unknown:
        takes = " and ".join(f'"{key}"' for key in (field, *OPTIONAL.get(name, ())))
        return _error(400, f"{name}: unknown field {unknown[0]!r}; it takes only {takes}")
    method = getattr(session, {"new": "new_game", "setup": "set_up"}.get(name, name))
    extra = tuple(body.get(key) for key in OPTIONAL.get(name, ()))
    try:
        why = method(body[field], *extra)
    except ActionError as e:
        return _error(e.status, e.message, e.errors)
    answer = {"ok": True, "state": session.publish()}
    if why:
        answer["notice"] = why
    return web.json_response(answer)


def _guard(session: WebSession, loopback: bool):
    @web.middleware
    async def guard(request: web.Request, handler):
        if loopback:
            # Bound to this machine only: refuse pages of other names (DNS rebinding).
            try:
                host = URL(f"http://{request.host}").host or ""
            except ValueError:
                host = ""
            if not is_loopback(host):
                return _error(403, f"host {request.host!r} not served; open "
                                   "http://127.0.0.1:<port>/")
        if request.method == "POST":
            if not session.allowed(request):
                return _error(403, "this action needs the token "
                                   f"(header {TOKEN_HEADER} or ?token=)")
            if request.content_type != "application/json":
                return _error(415, "send actions as Content-Type: application/json")
        try:
            return await handler(request)
        except web.HTTPException as e:  # aiohttp's own 404, 405, 413: JSON like the rest
            if e.status < 400:
                raise
            return _error(e.status, _http_text(e, request))
        except Exception as e:  # a fault of ours: still one JSON line, and the trace logged
            LOG.exception("%s %s failed", request.method, request.path)
            return _error(500, f"internal error ({type(e).__name__}); the board goes on")

    return guard


def _http_text(e: web.HTTPException, request: web.Request) -> str:
    if isinstance(e, web.HTTPMethodNotAllowed):
        return (f"{request.method} is not allowed on {request.path}; "
                f"use {', '.join(sorted(e.allowed_methods))}")
    if isinstance(e, web.HTTPRequestEntityTooLarge):
        return f"the body is too large (at most {request.client_max_size} bytes)"
    if isinstance(e, web.HTTPNotFound):
        return f"nothing at {request.path}; the page is at /"
    return f"{e.status} {e.reason}"


async def serve(session: WebSession, host: str, port: int,
                started: Callable[[str], None] = print,
                sock: socket.socket | None = None) -> None:
    """Serve until cancelled (Ctrl-C); the runner stops and the board closes. ``sock``:
    the socket of :func:`listening_socket` to serve on, else one is bound here."""
    app = make_app(session, loopback=is_loopback(host))
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    try:
        site = web.SockSite(runner, sock) if sock else web.TCPSite(runner, host, port)
        await site.start()
        started(url_for(host, port, session.token))
        stop = asyncio.Event()
        try:  # a service manager's SIGTERM ends the session as cleanly as Ctrl-C
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not the main thread
            pass
        await stop.wait()
    finally:
        await runner.cleanup()
