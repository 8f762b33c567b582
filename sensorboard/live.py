"""``sensorboard run``: the live service on a real clock, with commands from standard input.

Commands (one per line): ``lift c1``, ``place c2``, ``press clock``, ``choose <option>``,
``setup <a side's line of a setup file, or the file>`` (before the first move), ``quit``.
With ``--demo`` the bundled demo game is played on the simulated board.
"""

from __future__ import annotations

import gc
import queue
import signal
import sys
import threading
import time

import rules
from boards.layout import Layout
from hardware.clock import RealClock
from sensorboard import demo as demos
from sensorboard import guidance
from sensorboard.board import BoardOptions, open_board
from sensorboard.numbering import move_label
from sensorboard.options import takes_setup
from sensorboard.service import BoardService, result_text
from sensorboard.systemd import Notifier
from sensorboard.terminal import move_line, render

LINGER = 3.0  # seconds the finished demo stays on screen


def parse_command(line: str, cells: tuple[str, ...]) -> tuple[str, str] | str:
    """``(op, argument)`` for a command line, or an error text naming what is wrong."""
    words = line.split()
    if not words:
        return "empty command"
    op, args = words[0].lower(), words[1:]
    if op == "quit" and not args:
        return ("quit", "")
    if op in ("lift", "place"):
        if len(args) != 1:
            return f"{op} needs one cell, e.g. '{op} c1'"
        if args[0] not in cells:
            return f"unknown cell {args[0]!r}; valid cells: {', '.join(cells)}"
        return (op, args[0])
    if op == "press" and len(args) == 1:
        return (op, args[0])
    if op == "choose" and len(args) >= 1:
        return (op, " ".join(args))
    if op == "setup" and len(args) >= 1:
        return (op, " ".join(args))
    return f"unknown command {line.strip()!r}; commands: {COMMANDS}"


COMMANDS = ("lift CELL, place CELL, press clock|hint|takeback, choose OPTION, "
            "setup SIDE CELL=FIGURE ...|FILE, quit")


def enter_setup(service: BoardService, arg: str) -> tuple[list[dict], list[str]]:
    """The terminal's ``setup`` command: ``arg`` is a side's line of a setup text
    (``light a1=Sssh ...``) or a setup file's path. Its events, and the faults (one line
    each; nothing changed then)."""
    text = arg
    state = service.tracker.state
    if not takes_setup(state.NAME):
        return [], [f"setup: {state.NAME} starts from its fixed position and takes no setup"]
    if arg.split()[0] not in state.PLAYERS:
        try:
            with open(arg, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            return [], [f"setup: {arg}: cannot read the setup file "
                        f"({getattr(e, 'strerror', None) or e})"]
    try:
        return service.act("setup", text), []
    except rules.SetupError as e:
        return [], e.errors
    except ValueError as e:
        return [], [str(e)]


def _stdin_lines(q: queue.Queue) -> None:
    for line in sys.stdin:
        q.put(line)
    q.put(None)


class TerminalView:
    """The board printed in the terminal whenever it changes, with the events of the scan."""

    def __init__(self, tty: bool, header: str = "") -> None:
        self.tty = tty
        self.header = header
        self.shown = ""
        self.seen: tuple[int, int] = (-1, -1)

    def update(self, service: BoardService, events: list[dict]) -> None:
        """Print what changed; when the service's revision has not moved (most scans),
        nothing is drawn or even rendered."""
        seen = (id(service), service.revision)
        if seen == self.seen and not events:
            return
        self.seen = seen
        picture = render(service, color=self.tty)
        if picture == self.shown and not events:
            return
        for item in events:
            if item["type"] == "move":
                print(move_line(item))
            elif item["type"] == "error":
                print(f"  error: put right {item['cells']}")
            elif item["type"] == "prompt":
                print(f"  question: {' | '.join(item['options'])}")
            elif item["type"] == "takeback":
                print(f"  taken back: {move_label(item['ply'])} {item['move']}; "
                      "put the board back")
            elif item["type"] == "rejected":
                print(f"  sensorboard: {item['reason']}")
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


def run_live(args, layout: Layout) -> int:
    clock = RealClock()
    board = open_board(BoardOptions(
        args.game, layout=layout, backend=args.backend, hardware=args.hardware, clock=clock,
        options=tuple(args.option), records=args.records, board=args.board, tags=args.tags,
        new=args.new, mqtt=args.mqtt, note=lambda text: print(f"sensorboard: {text}")))
    service, recorder = board.service, board.recorder
    state = service.tracker.state
    settle_memory()
    folder = recorder.record_path.parent
    if service.tracker.restoring:
        cells = ", ".join(f"{c} {w}" for c, w in service.tracker.restore_cells().items())
        print(f"sensorboard: put the board as the game stands (the LEDs show where): {cells}")
    tty = sys.stdout.isatty()
    script = []
    if args.demo:
        start = clock.now()
        script = [(start + e["t"] / args.speed, e) for e in demos.load(args.game)]
    commands: queue.Queue = queue.Queue()
    reading = not args.no_input and not args.demo
    if reading:
        threading.Thread(target=_stdin_lines, args=(commands,), daemon=True).start()
    print(f"sensorboard: {args.game} on the {args.backend} board ({layout.name}); "
          f"record in {folder}/")
    if reading:
        print(f"commands: {COMMANDS}")
    view = TerminalView(tty)
    done_at = None
    forever = args.no_input and not args.demo  # a service: runs until it is stopped
    stop = _stop_on_sigterm()
    notifier = Notifier()
    notifier.ready(f"{args.game} on the {args.backend} board")
    next_at = 0.0  # the next command waits until its predecessor has settled
    gap = 2 * service.config.debounce + service.scan_period
    try:
        while not stop:
            now = clock.now()
            notifier.tick(now)
            # A loaded machine may fall behind the script: its lifts and places still go
            # one at a time, each read by the scans before the next.
            while script and script[0][0] <= now and now >= next_at and service.sensed():
                event = script.pop(0)[1]
                view.update(service, demos.apply(service, event))
                if event["op"] in ("lift", "place"):
                    next_at = now + gap
                    break
            # Piped or fast typed commands: one at a time, each seen by the scans on its own.
            while not commands.empty() and now >= next_at and service.settled():
                line = commands.get()
                if line is None:
                    reading = False
                    break
                cmd = parse_command(line, state.GEOMETRY.names)
                if isinstance(cmd, str):
                    print(f"sensorboard: {cmd}")
                    continue
                op, arg = cmd
                if op == "quit":
                    reading = False
                    break
                try:
                    if op == "lift" and service.sim_pieces(arg) == 0:
                        print(f"sensorboard: lift {arg}: there is no piece on {arg}")
                        continue
                    if op in ("lift", "place"):
                        service.act(op, arg)
                        next_at = now + gap
                        break
                    elif op == "choose":
                        view.update(service, service.act(op, arg))
                    elif op == "setup":
                        events, faults = enter_setup(service, arg)
                        for fault in faults:
                            print(f"sensorboard: {fault}")
                        view.update(service, events)
                    else:
                        events, why = guidance.press(service, arg)
                        if why:
                            print(f"sensorboard: {why}")
                        view.update(service, events)
                except ValueError as e:
                    print(f"sensorboard: {e}")
            view.update(service, service.step())
            finished = not forever and not script and not reading and service.settled()
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
            for item in service.flush():
                print(move_line(item))
        finally:
            board.close()  # record, link and journal closed; the LEDs go dark
    print(f"{result_text(service.tracker.state)}; record written to {recorder.record_path}")
    return 0
