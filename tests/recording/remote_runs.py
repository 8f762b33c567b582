"""``sensorboard run`` of a simulated board in a process of its own, paired with another
over a real mosquitto (``--opponent board:NAME``): commands on its standard input, its
lines read; and what its journal holds. Shared by the two-board tests."""

from __future__ import annotations

import json
import os
import queue
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import rules
from boards.choreography import turn_ops
from boards.decisions import Turn
from sensorboard.journal import Journal

MOVE = re.compile(r"^ +\d+\.+ (\S.*?)  \((\w+)\)$")
CODE = re.compile(r"pairing code (\w{4}-\w{4})")
QUESTION = re.compile(r"^  question: (.*)$")


class Run:
    """``sensorboard run`` of board ``name`` (``peer``: the other board, playing
    ``theirs``), on the broker at ``port``; ``code``: ``--pair``, if given."""

    def __init__(self, folder: Path, name: str, peer: str, theirs: str, code: str | None,
                 port: int, game: str = "tessella", *more: str) -> None:
        self.name, self.game = name, game
        args = [sys.executable, "-m", "sensorboard", "run", "--game", game,
                "--backend", "sim", "--board", name, "--records", str(folder / name),
                "--mqtt", f"mqtt://127.0.0.1:{port}", "--opponent", f"board:{peer}",
                "--opponent-side", theirs, *more] + (["--pair", code] if code else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     env={**os.environ, "BLINKA_OS_AGNOSTIC": "1"})
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, *patterns: re.Pattern | str, timeout: float = 20.0) -> re.Match:
        """The first line that matches one of ``patterns`` (read from here on)."""
        compiled = [re.compile(p) if isinstance(p, str) else p for p in patterns]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(line)
            for pattern in compiled:
                if match := pattern.search(line):
                    return match
        raise AssertionError(f"board {self.name}: no {[p.pattern for p in compiled]} in "
                             f"{timeout:g} s; last lines: {self.seen[-15:]}")

    def send(self, *commands: str) -> None:
        self.proc.stdin.write("".join(f"{c}\n" for c in commands))
        self.proc.stdin.flush()

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def quit(self) -> int:
        self.send("quit")
        return self.proc.wait(20)


def position(game: str, played: list[str]) -> rules.GameState:
    """The game after the turns ``played`` (each its decisions joined by spaces)."""
    state = rules.new_game(game)
    for text in played:
        for word in text.split(" "):
            state.push_str(word)
    return state


def put_back(board: Run, played: list[str], shown: list[str] = ()) -> None:
    """Put the board's pieces where the game stands after ``played`` from where they stand
    after ``shown`` (a simulated board comes up as a new game: ``()``); a figure, lifted
    and put down whole, counts as one piece."""
    state = position(board.game, played)
    start, now = position(board.game, list(shown)).physical(), state.physical()
    changed = sorted(c for c in set(start) | set(now) if start.get(c) != now.get(c))

    def count(stack: tuple[str, ...]) -> int:
        return min(len(stack), 1) if state.FIGURES else len(stack)

    lifts = [f"lift {c}" for c in changed for _ in range(count(start.get(c, ())))]
    places = [f"place {c}" for c in changed for _ in range(count(now.get(c, ())))]
    ops = [op for pair in zip(lifts, places, strict=False) for op in pair]
    board.send(*ops, *lifts[len(places):], *places[len(lifts):])


def journal_entries(folder: Path, kind: str) -> list[dict]:
    """The entries of one ``kind`` a board's journal holds, in order."""
    db = sqlite3.connect(folder / "journal.sqlite")
    rows = db.execute("SELECT data FROM entries WHERE type=? ORDER BY seq", (kind,)).fetchall()
    db.close()
    return [json.loads(r[0]) for r in rows]


def journal_games(folder: Path) -> list[tuple[str, bool]]:
    """The games a board's journal holds, each with whether it is finished, oldest first."""
    journal = Journal(folder / "journal.sqlite")
    try:
        return journal.games()
    finally:
        journal.close()


def journal_turns(folder: Path, kind: str = "move") -> list[tuple[int, str, str]]:
    """The turns (or the takebacks) a board's journal holds, in order."""
    return [(d["ply"], d["player"], d["move"]) for d in journal_entries(folder, kind)]


def start_pair(folder: Path, port: int, game: str, sides: tuple[str, str]) -> dict[str, tuple]:
    """Board A (its player plays ``sides[0]``; it makes the code) and board B (``sides[1]``,
    given A's code): each board's run and the arguments it is started again with."""
    a = Run(folder, "A", "B", sides[1], None, port, game)
    code = a.wait_for(CODE).group(1)
    b = Run(folder, "B", "A", sides[0], code, port, game)
    b.wait_for(f"pairing code {code}")
    return {"A": (a, ("B", sides[1], None)), "B": (b, ("A", sides[0], code))}


def restarted(board: Run, args: tuple, folder: Path, port: int, played: list[str]) -> Run:
    """``board`` killed (SIGKILL) and started again as before (``args``: its peer, the
    peer's side, its ``--pair``; the board that made the code has none and keeps its
    code in its journal), showing the same code, and put back as the game stands."""
    code = next(m.group(1) for line in board.seen if (m := CODE.search(line)))
    board.kill()
    again = Run(folder, board.name, *args, port, game=board.game)
    again.wait_for(f"resuming the unfinished {board.game} game")
    assert again.wait_for(CODE).group(1) == code
    put_back(again, played)
    return again


def ops_of(board: Run, played: list[str], move: str, rng: random.Random) -> list[str]:
    """The lifts and places of ``move`` after ``played``, then the clock where the sensors
    cannot see the turn (a Telec forfeit, a pyramid stacked from the stash)."""
    state = position(board.game, played)
    work, decisions = state.clone(), []
    for word in move.split(" "):
        decisions.append(work.parse_move(word))
        work.push(decisions[-1])
    ops = [f"{op} {cell}" for op, cell in turn_ops(state, Turn(decisions), rng)]
    silent = set(state.physical()) == set(work.physical())
    return [*ops, "press clock"] if silent else ops


def make_turn(board: Run, played: list[str], move: str, rng: random.Random) -> list[str]:
    """``move`` made on ``board``, each question asked (a decision the sensors cannot see:
    a Telec size, a Tesulda swap) answered with the turn's decision it is about; the
    questions asked."""
    board.send(*ops_of(board, played, move, rng))
    words, asked, k = move.split(" "), [], 1
    while (match := board.wait_for(MOVE, QUESTION)).re is QUESTION:
        asked.append(match.group(1))
        options = match.group(1).split(" | ")
        k = next(i for i in range(k, len(words))
                 if words[i] in options and set(options) - {"none"} <= offered(
                     board.game, played, words[:i]))
        board.send(f"choose {words[k]}")
        k += 1
    assert match.group(1) == move, board.seen[-10:]
    return asked


def offered(game: str, played: list[str], begun: list[str]) -> set[str]:
    """The decisions offered after the turn's decisions ``begun``."""
    state = position(game, [*played, " ".join(begun)])
    faces = [face for face, _ in state.chance_outcomes()]
    return {state.move_str(d) for d in faces or state.legal_moves()}
