"""The board in the browser: ``sensorboard run --web`` serves a live, playable page.

See :mod:`sensorboard.web.server` for the endpoints.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from boards.layout import Layout
from hardware.clock import RealClock
from sensorboard import demo as demos
from sensorboard.systemd import Notifier
from sensorboard.web.network import check_bind, is_loopback, listening_socket, url_for
from sensorboard.web.server import ActionError, WebSession, default_factory, make_app, serve

__all__ = ["WebSession", "default_factory", "make_app", "serve", "run_web", "url_for"]


def qr_text(url: str) -> str:
    """The address as a QR code in text, for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True)
    return "open it on a phone:\n" + out.getvalue()


class WebError(Exception):
    """The page cannot be served as asked (one line, exit status 2)."""


def run_web(args, layout: Layout) -> int:
    """``sensorboard run --web``: the live service with the page; Ctrl-C ends it."""
    problem = check_bind(args.host, args.token)
    if problem:
        raise WebError(problem)
    try:  # held from before anything is set up, so a port in use leaves no record folder
        sock = listening_socket(args.host, args.port)
    except OSError as e:
        raise WebError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    try:
        return _serve_board(args, layout, sock)
    finally:
        sock.close()


def _serve_board(args, layout: Layout, sock) -> int:
    from sensorboard.commands import COMMANDS, TypedCommands
    from sensorboard.live import TerminalView, settle_memory

    clock = RealClock()
    # --setup is entered as on the page (below); the game's other options make its boards
    options = [pair for pair in args.option if pair.partition("=")[0].strip() != "setup"]
    factory = default_factory(args.backend, clock, args.records, args.hardware,
                              board=args.board, tags=args.tags, new=args.new,
                              mqtt=args.mqtt, pair=args.pair, options={args.game: options},
                              note=lambda text: print(f"sensorboard: {text}"))
    url = url_for(args.host, args.port, args.token)
    view = TerminalView(sys.stdout.isatty(), header=f"page: {url}")
    demo = demos.load(args.game) if args.demo else None
    notifier = Notifier()

    typed = TypedCommands(not args.no_input and not args.demo)  # as without --web

    def on_step(service, events: list[dict]) -> None:
        view.update(service, events)
        typed.apply(service, clock.now(), view.update)
        if typed.quit:  # ends the page as a service manager's stop does
            typed.quit = False
            os.kill(os.getpid(), signal.SIGTERM)
        notifier.tick(clock.now())

    settle_memory()
    session = WebSession(args.game, factory, layout=layout, clock=clock, demo=demo,
                         speed=args.speed, token=args.token, on_step=on_step,
                         opponent=args.opponent)
    _enter_setup(session, args.option)
    print(f"sensorboard: {args.game} on the {args.backend} board ({layout.name}); "
          f"records in {args.records}/")

    def started(url: str) -> None:
        print(f"sensorboard: the board is at {url}  (Ctrl-C ends)", flush=True)
        if typed.reading:
            print(f"commands: {COMMANDS}", flush=True)
        notifier.ready(f"{args.game} at {url}")
        if not is_loopback(args.host):
            print(qr_text(url), flush=True)

    try:
        asyncio.run(serve(session, args.host, args.port, started, sock))
    except KeyboardInterrupt:
        pass
    except OSError as e:
        notifier.stopping()
        session.close()
        raise WebError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    notifier.stopping()
    session.close()
    print(f"{session.result()}; records in {args.records}/")
    return 0


def _enter_setup(session: WebSession, options: list[str]) -> None:
    """--setup FILE (read and checked already, in ``options`` as setup=TEXT): entered as
    on the page, before the first move; a refused one closes the session."""
    setup = next((pair.partition("=")[2] for pair in options
                  if pair.partition("=")[0].strip() == "setup"), None)
    if setup is not None:
        try:
            session.set_up(setup)
        except ActionError as e:
            session.close()
            raise WebError(f"--setup: {e.message}") from None
