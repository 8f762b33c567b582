"""A live sensorboard page on a free port, served from a thread, and Debian's Chromium."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from aiohttp import web

from sensorboard.web.network import is_loopback
from sensorboard.web.server import WebSession, default_factory, make_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class Server:
    """The page served from its own event loop in a thread; :meth:`call` runs code there."""

    def __init__(self, session: WebSession, host: str = "127.0.0.1") -> None:
        self.session = session
        self.host = host
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self._ready = threading.Event()
        self.port = 0

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        app = make_app(self.session, loopback=is_loopback(self.host))
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, self.host, 0)
        self.loop.run_until_complete(site.start())
        self.port = self.runner.addresses[0][1]
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.runner.cleanup())
        self.loop.close()

    def start(self) -> Server:
        self.thread.start()
        assert self._ready.wait(10), "the server did not start"
        return self

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def call(self, fn, *args):
        """Run ``fn(*args)`` on the server's loop, between two scans; return its result."""
        async def run():
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(5)

    def state(self) -> dict:
        return self.call(self.session.snapshot)

    def post(self, action: str, body, *, token: str | None = None, raw: bytes | None = None,
             content_type: str = "application/json", query: str = "") -> tuple[int, dict]:
        data = raw if raw is not None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}api/{action}{query}", data=data, method="POST",
                                     headers={"Content-Type": content_type})
        if token is not None:
            req.add_header("X-Sensorboard-Token", token)
        try:
            with urllib.request.urlopen(req, timeout=5) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict | str]:
        req = urllib.request.Request(f"{self.url}{path.lstrip('/')}", headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=5) as res:
                body = res.read().decode()
                return res.status, (json.loads(body) if "json" in res.headers.get(
                    "Content-Type", "") else body)
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


def start_server(game: str = "tessella", **options) -> Server:
    factory = default_factory("sim")
    return Server(WebSession(game, factory, **options)).start()


@pytest.fixture
def server():
    srv = start_server()
    yield srv
    srv.stop()


@pytest.fixture
def make_server():
    started: list[Server] = []

    def make(game: str = "tessella", **options) -> Server:
        srv = start_server(game, **options)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def _chromium():
    """Chromium through Playwright's sync API, once per worker, with its event loop."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium (/usr/bin/chromium; `make system-deps`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        loop = asyncio._get_running_loop()
        asyncio._set_running_loop(None)
        try:
            yield b, loop
        finally:
            asyncio._set_running_loop(loop)
            b.close()


@pytest.fixture
def browser(_chromium):
    """The worker's Chromium, for one test.

    Between two of its calls Playwright's sync API leaves its event loop marked as running
    in this thread (its dispatcher resumes inside ``run_forever``, which expects the mark);
    kept for the whole session, the mark would make any later test of the worker that
    calls ``asyncio.run`` fail ("cannot be called from a running event loop"). So the
    loop is marked running only while a test uses the browser."""
    b, loop = _chromium
    asyncio._set_running_loop(loop)
    try:
        yield b
    finally:
        asyncio._set_running_loop(None)


# How long a step waits for the page (not a timing assertion: a page that gets there
# sooner goes on at once). A loaded 2-core machine (CI, or the engine's benchmarks
# alongside) has taken more than 5 s to show a new Telec game.
WAIT_MS = 15_000


@pytest.fixture
def page(browser):
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    context = browser.new_context(viewport={"width": 1000, "height": 760})
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
