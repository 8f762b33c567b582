"""``sensorboard run``: the live service on a real clock, with commands from standard input
(:mod:`sensorboard.commands`). With ``--demo`` the bundled demo game is played on the
simulated board.
"""

from __future__ import annotations

import gc
import signal
import sys
import time

from boards.layout import Layout
from hardware.clock import RealClock
from sensorboard import demo as demos
from sensorboard import events as events_module
from sensorboard.board import BoardOptions, open_board
from sensorboard.commands import COMMANDS, TypedCommands
from sensorboard.numbering import move_label
from sensorboard.remote import heading
from sensorboard.service import BoardService
from sensorboard.systemd import Notifier
from sensorboard.terminal import move_line, render

LINGER = 3.0  # seconds the finished demo stays on screen


def event_line(item: dict) -> str | None:
    """What the terminal prints for an event, or None for one it does not show.

    >>> event_line({"type": "prompt", "t": 1.0, "options": ["a1-a2", "none"]})
    '  question: a1-a2 | none'
    """
    match events_module.from_json(item):
        case events_module.Move():
            return move_line(item)
        case events_module.Error(cells=cells):
            return f"  error: put right {cells}"
        case events_module.Prompt(options=options):
            return f"  question: {' | '.join(options)}"
        case events_module.Takeback(ply=ply, move=move):
            return f"  taken back: {move_label(ply)} {move}; put the board back"
        case events_module.Rejected(reason=reason):
            return f"  sensorboard: {reason}"
        case events_module.Proposed(by=by, move=move, words=words):
            return f"  {by}: {move} ({words}); carry it out on the board"
        case events_module.Suggestion(move=move, words=words, win=win):
            return f"  hint: {move} ({words}; the engine gives it {win:.0%})"
        case events_module.Clock(why="flag", side=side):
            return f"  flag: {side} out of time"
    return None


class TerminalView:
    """The board printed in the terminal whenever it changes, with the events of the scan."""

    def __init__(self, tty: bool, header: str = "") -> None:
        self.tty = tty
        self.header = header
        self.shown = ""
        self.seen: tuple[int, int, int] = (-1, -1, -1)

    def update(self, service: BoardService, events: list[dict]) -> None:
        """Print what changed; when the service's revision has not moved (most scans),
        nothing is drawn or even rendered."""
        running = self.tty and service.timing is not None and service.timing.running
        # on a screen, a running game clock is redrawn every second
        seen = (id(service), service.revision, int(service.clock.now()) if running else 0)
        if seen == self.seen and not events:
            return
        self.seen = seen
        picture = render(service, color=self.tty)
        if picture == self.shown and not events:
            return
        for item in events:
            if (line := event_line(item)) is not None:
                print(line)
        top = self.header + "\n" if self.header and self.tty else ""
        print(("\x1b[2J\x1b[H" if self.tty else "") + top + picture + "\n", flush=True)
        self.shown = picture


def _stop_on_sigterm() -> list[int]:
    """A list that becomes non-empty (true) when SIGTERM arrives: the loop then ends as
    cleanly as after Ctrl-C (last turn committed, record closed, LEDs dark)."""
    stop: list[int] = []
    try:
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.append(signum))
    except ValueError:  # not the main thread: the caller handles its own stopping
        pass
    return stop


def settle_memory() -> None:
    """Collect once and freeze what start-up built (rules tables, layouts, modules), so
    later collections only walk what the game makes: a full collection in the middle of
    a move stays short."""
    gc.collect()
    gc.freeze()


def _demo_script(game: str, speed: float, clock: RealClock) -> list[tuple[float, dict]]:
    """The bundled demo game's lines, each with the time it is due from now on."""
    start = clock.now()
    return [(start + e["t"] / speed, e) for e in demos.load(game)]


def _play_due(script: list[tuple[float, dict]], service: BoardService, typed: TypedCommands,
              view: TerminalView, now: float, gap: float) -> None:
    """Carry out the demo lines due by ``now``, taking them off ``script``."""
    # A loaded machine may fall behind the script: its lifts and places still go
    # one at a time, each read by the scans before the next.
    while script and script[0][0] <= now and now >= typed.next_at and service.sensed():
        event = script.pop(0)[1]
        view.update(service, demos.apply(service, event))
        if event["op"] in ("lift", "place"):
            typed.next_at = now + gap
            break


def run_live(args, layout: Layout) -> int:
    clock = RealClock()
    board = open_board(BoardOptions(
        args.game, layout=layout, backend=args.backend, hardware=args.hardware, clock=clock,
        options=tuple(args.option), records=args.records, board=args.board, tags=args.tags,
        new=args.new, mqtt=args.mqtt, opponent=args.opponent, pair=args.pair,
        note=lambda text: print(f"sensorboard: {text}")))
    service, writer = board.service, board.writer
    settle_memory()
    folder = writer.record_path.parent
    if service.view.restore:
        cells = ", ".join(f"{c} {w}" for c, w in service.view.restore)
        print(f"sensorboard: put the board as the game stands (the LEDs show where): {cells}")
    tty = sys.stdout.isatty()
    script = _demo_script(args.game, args.speed, clock) if args.demo else []
    typed = TypedCommands(not args.no_input and not args.demo)
    print(f"sensorboard: {args.game} on the {args.backend} board ({layout.name}); "
          f"record in {folder}/")
    if typed.reading:
        print(f"commands: {COMMANDS}")
    view = TerminalView(tty, header=heading(service.seat and service.seat.opponent))
    done_at = None
    forever = args.no_input and not args.demo  # a service: runs until it is stopped
    stop = _stop_on_sigterm()
    notifier = Notifier()
    notifier.ready(f"{args.game} on the {args.backend} board")
    gap = 2 * service.config.debounce + service.scan_period
    try:
        while not stop:
            now = clock.now()
            notifier.tick(now)
            _play_due(script, service, typed, view, now, gap)
            # Piped or fast typed commands: one at a time, each seen by the scans on its own.
            typed.apply(service, now, view.update)
            view.update(service, service.step())
            finished = not forever and not script and not typed.reading \
                and service.settled()
            if finished and done_at is None:
                done_at = now
            if not finished:
                done_at = None
            if done_at is not None and now - done_at >= (LINGER if args.demo else 0):
                break
            time.sleep(max(0.0, service.scan_period - (clock.now() - now)))
    except KeyboardInterrupt:
        pass
    finally:
        notifier.stopping()
        try:
            # A question still open at the end is said as a question, not as a move.
            for line in filter(None, map(event_line, service.flush())):
                print(line)
        finally:
            board.close()  # record, link and journal closed; the LEDs go dark
    print(f"{service.result()}; record written to {writer.record_path}")
    return 0
