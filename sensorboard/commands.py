"""Commands typed (or piped) on standard input, one a line: ``lift c1``, ``place c2``,
``press clock``, ``choose <option>``, ``setup <a side's line of a setup file, or the
file>`` (before the first move), ``quit``. The same for ``run`` in the terminal and
``run --web``: each lift and place is read by the scans on its own before the next.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable

import rules
from sensorboard import guidance
from sensorboard.options import takes_setup
from sensorboard.service import BoardService


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
    state = service.view.state
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


class TypedCommands:
    """Lines from standard input (read by a thread of their own), applied one at a time
    when the board has settled: ``apply(service, now, show)`` each scan."""

    def __init__(self, reading: bool) -> None:
        self.reading = reading
        self.quit = False  # a quit typed (not just the end of the input)
        self.lines: queue.Queue = queue.Queue()
        self.next_at = 0.0  # the next command waits until its predecessor has settled
        if reading:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in sys.stdin:
                self.lines.put(line)
        except (OSError, ValueError):  # no readable input (closed, or not ours): its end
            pass
        self.lines.put(None)

    def apply(self, service: BoardService, now: float,
              show: Callable[[BoardService, list[dict]], None]) -> None:
        """Apply the waiting commands up to the next lift or place (piped or fast typed
        ones go one at a time, each seen by the scans on its own); ``show`` gets the
        events of each."""
        gap = 2 * service.config.debounce + service.scan_period
        while not self.lines.empty() and now >= self.next_at and service.settled():
            line = self.lines.get()
            cmd = ("quit", "") if line is None else parse_command(
                line, service.view.state.GEOMETRY.names)
            if isinstance(cmd, str):
                print(f"sensorboard: {cmd}")
                continue
            op, arg = cmd
            if op == "quit":
                self.reading = False
                self.quit = line is not None
                return
            try:
                if op == "lift" and service.sim_pieces(arg) == 0:
                    print(f"sensorboard: lift {arg}: there is no piece on {arg}")
                    continue
                if op in ("lift", "place"):
                    service.act(op, arg)
                    self.next_at = now + gap
                    return
                show(service, self._act(service, op, arg))
            except ValueError as e:
                print(f"sensorboard: {e}")

    @staticmethod
    def _act(service: BoardService, op: str, arg: str) -> list[dict]:
        if op == "choose":
            return service.act(op, arg)
        if op == "setup":
            events, faults = enter_setup(service, arg)
        else:
            events, why = guidance.press(service, arg)
            faults = [why] if why else []
        for fault in faults:
            print(f"sensorboard: {fault}")
        return events
