"""The recorder's pages: every board live, each round's records, the arbiter's corrections.

- ``GET /`` the overview page (it polls ``/api/boards`` every second)
- ``GET /api/boards`` every board: online, status, game, players' names, clocks, turns,
  last turn, result
- the broadcast (:mod:`sensorboard.web.broadcast`): ``GET /broadcast`` and its data
- ``GET /rounds/<round>/records.txt`` the round's records, one after another (a broadcast
  relay may poll it); ``GET /rounds/<round>/results.csv`` its results; ``?event=`` narrows
- ``POST /api/boards/<board>/correct`` with the arbiter's token (header
  ``X-Sensorboard-Token``): ``{"action": "takeback", "turns": 1, "by": "Ann"}``,
  ``{"action": "position", "position": "...", "by": ..}``,
  ``{"action": "result", "result": "1-0", "reason": "..", "by": ..}``,
  ``{"action": "time", "player": "dark", "seconds": 60, "by": ..}`` (add; negative takes)
"""

from __future__ import annotations

import asyncio
import hmac
from pathlib import Path

from aiohttp import web

from sensorboard.gamerecord import results_csv, round_text
from sensorboard.recorder import Recorder
from sensorboard.tournament import Pairing
from sensorboard.web.broadcast import Broadcast, add_routes

STATIC = Path(__file__).parent / "static"
TOKEN_HEADER = "X-Sensorboard-Token"
ACTIONS = {"takeback": {"turns": int}, "position": {"position": str},
           "result": {"result": str, "reason": str}, "time": {"player": str, "seconds": int}}
REQUIRED = {"time": ("player", "seconds")}  # keys a correction cannot do without
RECORDER = web.AppKey("recorder", Recorder)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


def check_command(body: object) -> dict | str:
    """The correction to send, or an error text naming what is wrong."""
    if not isinstance(body, dict):
        return 'a correction is a JSON object like {"action": "takeback", "by": "Ann"}'
    action = body.get("action")
    if action not in ACTIONS:
        return f"action {action!r}: one of {', '.join(ACTIONS)}"
    by = body.get("by")
    if not isinstance(by, str) or not by.strip():
        return "by: the arbiter's name is required"
    command = {"action": action, "by": by.strip()}
    for key, kind in ACTIONS[action].items():
        if key in body:
            value = body[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                return f"{key}: must be {'a whole number' if kind is int else 'text'}"
            command[key] = value
    missing = [key for key in REQUIRED.get(action, ()) if key not in body]
    if missing:
        return f"{action}: give {' and '.join(missing)}"
    extra = set(body) - {"action", "by", *ACTIONS[action]}
    if extra:
        return f"unexpected keys {sorted(extra)}"
    return command


def make_app(recorder: Recorder, token: str | None,
             pairings: tuple[Pairing, ...] = ()) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)
    app[RECORDER] = recorder
    broadcast = Broadcast(recorder, pairings)
    add_routes(app, broadcast)

    async def index(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "overview.html", headers={"Cache-Control": "no-cache"})

    async def boards(request: web.Request) -> web.Response:
        return web.json_response({"boards": broadcast.boards(None),
                                  "token_required": token is not None})

    async def round_records(request: web.Request) -> web.Response:
        name = request.match_info["round"]
        kind = request.match_info["file"]
        if kind not in ("records.txt", "results.csv"):
            return _error(404, f"no {kind!r}; records.txt or results.csv")
        event = request.query.get("event")
        records = await asyncio.get_running_loop().run_in_executor(
            None, recorder.store.records, name, event)
        if kind == "records.txt":
            return web.Response(text=round_text(records), content_type="text/plain",
                                charset="utf-8")
        return web.Response(text=results_csv(records), content_type="text/csv",
                            charset="utf-8")

    async def correct(request: web.Request) -> web.Response:
        if token is None:
            return _error(403, "corrections need the recorder started with --token")
        given = request.headers.get(TOKEN_HEADER) or ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            return _error(403, f"this action needs the arbiter's token (header {TOKEN_HEADER})")
        if request.content_type != "application/json":
            return _error(415, "send the correction as Content-Type: application/json")
        board = request.match_info["board"]
        if board not in recorder.boards:
            return _error(404, f"no board {board!r}; boards: {', '.join(sorted(recorder.boards))}")
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "the body is not valid JSON")
        command = check_command(body)
        if isinstance(command, str):
            return _error(400, command)
        try:
            await recorder.command(board, command)
        except ConnectionError as e:
            return _error(503, str(e))
        return web.json_response({"ok": True, "sent": command})

    app.router.add_get("/", index)
    app.router.add_get("/api/boards", boards)
    app.router.add_get("/rounds/{round}/{file}", round_records)
    app.router.add_post("/api/boards/{board}/correct", correct)
    return app


async def serve(recorder: Recorder, host: str, port: int, token: str | None,
                pairings: tuple[Pairing, ...] = ()) -> None:
    """Run the recorder and its pages until cancelled."""
    runner = web.AppRunner(make_app(recorder, token, pairings), access_log=None)
    await runner.setup()
    task = asyncio.ensure_future(recorder.run())
    try:
        await web.TCPSite(runner, host, port).start()
        print(f"sensorboard recorder: overview at http://{host}:{port}/, broadcast at "
              f"http://{host}:{port}/broadcast", flush=True)
        await task
    finally:
        task.cancel()
        await runner.cleanup()
