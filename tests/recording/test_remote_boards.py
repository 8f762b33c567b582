"""Two simulated boards, each ``sensorboard run`` in a process of its own, play a game
through a real mosquitto: each side's turn is made on its board and carried out on the
other's as the LEDs show it; a turn taken back on one board is taken back on the other;
each board in turn is killed (SIGKILL) mid-game and started again, and at the end both
journals hold every turn once, the same game."""

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

TURNS = 12
KILLED_AT = (7, 10)  # a board is killed once the other's turn of this ply is lit on it
TAKEN_BACK_AT = 4  # board B first makes another turn of this ply, which A takes back
MOVE = re.compile(r"^ +\d+\.+ (\S.*?)  \((\w+)\)$")
CODE = re.compile(r"pairing code (\w{4}-\w{4})")


class Run:
    """``sensorboard run`` of one board: commands on its standard input, its lines read."""

    def __init__(self, folder: Path, name: str, peer: str, theirs: str, port: int,
                 code: str | None = None) -> None:
        self.name = name
        args = [sys.executable, "-m", "sensorboard", "run", "--game", "tessella",
                "--backend", "sim", "--board", name, "--records", str(folder / name),
                "--mqtt", f"mqtt://127.0.0.1:{port}", "--opponent", f"board:{peer}",
                "--opponent-side", theirs] + (["--pair", code] if code else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     env={**os.environ, "BLINKA_OS_AGNOSTIC": "1"})
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: re.Pattern | str, timeout: float = 20.0) -> re.Match:
        pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(line)
            if match := pattern.search(line):
                return match
        raise AssertionError(f"board {self.name}: no {pattern.pattern!r} in "
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


def planned_game(seed: int) -> list[str]:
    """A random game of Tessella that runs at least ``TURNS`` turns."""
    rng = random.Random(seed)
    state, turns = rules.new_game("tessella"), []
    while len(turns) < TURNS:
        move = rng.choice(state.legal_moves())
        turns.append(state.move_str(move))
        state.push(move)
    assert state.outcome() is None
    return turns


def carry_out(board: Run, played: list[str], move: str, rng: random.Random) -> None:
    """The lifts and places of ``move`` (after ``played``) made on ``board``."""
    state = position(played)
    board.send(*(f"{op} {cell}" for op, cell in turn_ops(state, state.parse_move(move), rng)))
    match = board.wait_for(MOVE)
    assert match.group(1) == move, board.seen[-10:]


def put_back(board: Run, played: list[str]) -> None:
    """A simulated board comes up as a new game: put its pieces where the game stands."""
    start, now = set(rules.new_game("tessella").physical()), set(position(played).physical())
    lifts, places = sorted(start - now), sorted(now - start)
    ops = [c for pair in zip(lifts, places, strict=False) for c in
           (f"lift {pair[0]}", f"place {pair[1]}")]
    board.send(*ops, *(f"lift {cell}" for cell in lifts[len(places):]))


def position(played: list[str]) -> rules.GameState:
    state = rules.new_game("tessella")
    for text in played:
        state.push_str(text)
    return state


def tried_and_taken_back(mover: Run, other: Run, played: list[str], planned: str,
                         rng: random.Random) -> str:
    """``mover`` makes a turn other than ``planned``, carried out on ``other``, whose
    player takes it back there: both boards go back (each player puts it back)."""
    state = position(played)
    tried = next(m for m in state.legal_moves()
                 if not m.capture and state.move_str(m) != planned)
    text = state.move_str(tried)
    carry_out(mover, played, text, rng)
    other.wait_for(f"board:{mover.name}: {re.escape(text)} ")
    carry_out(other, played, text, rng)
    other.send("press takeback")
    for board in (other, mover):
        board.wait_for(rf"taken back: \S+ {re.escape(text)};")
        board.send(f"lift {tried.to}", f"place {tried.frm}")
    return text


def journal_turns(folder: Path, kind: str = "move") -> list[tuple[int, str, str]]:
    """The turns (or the takebacks) a board's journal holds, in order."""
    db = sqlite3.connect(folder / "journal.sqlite")
    rows = db.execute("SELECT data FROM entries WHERE type=? ORDER BY seq", (kind,)).fetchall()
    db.close()
    return [(d["ply"], d["player"], d["move"]) for d in (json.loads(r[0]) for r in rows)]


def test_two_boards_play_through_mosquitto_and_each_survives_a_kill(tmp_path, broker):
    game, rng = planned_game(seed=3), random.Random(3)
    runs = {"A": ("B", "dark", None)}  # A's player plays clear and makes the code
    a = Run(tmp_path, "A", *runs["A"][:2], broker.port)
    code = a.wait_for(CODE).group(1)
    runs["B"] = ("A", "clear", code)
    b = Run(tmp_path, "B", *runs["B"][:2], broker.port, code)
    b.wait_for(f"pairing code {code}")
    boards = {"A": a, "B": b}
    tried = None
    try:
        for ply, move in enumerate(game, 1):
            mover, other = (boards[n] for n in (("A", "B") if ply % 2 else ("B", "A")))
            if ply == TAKEN_BACK_AT:
                tried = tried_and_taken_back(mover, other, game[:ply - 1], move, rng)
            carry_out(mover, game[:ply - 1], move, rng)
            other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            if ply in KILLED_AT:  # the board with the other's turn lit on it
                other = boards[other.name] = restarted(other, runs[other.name], code,
                                                       tmp_path, broker.port, game[:ply - 1])
                other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            carry_out(other, game[:ply - 1], move, rng)
    finally:
        for board in boards.values():
            if board.proc.poll() is None:
                board.quit()
    expected = [(ply, "clear" if ply % 2 else "dark", move) for ply, move in enumerate(game, 1)]
    undone = (TAKEN_BACK_AT, "dark", tried)
    for folder in (tmp_path / "A", tmp_path / "B"):
        assert journal_turns(folder) == [*expected[:TAKEN_BACK_AT - 1], undone,
                                         *expected[TAKEN_BACK_AT - 1:]]
        assert journal_turns(folder, "takeback") == [undone]


def restarted(board: Run, args: tuple, code: str, folder: Path, port: int,
              played: list[str]) -> Run:
    """``board`` killed (SIGKILL) and started again as before (the board that made the
    code without it: it keeps the code in its journal), and put back as the game stands."""
    board.kill()
    journal = folder / board.name
    assert len(journal_turns(journal)) - len(journal_turns(journal, "takeback")) == \
        len(played)  # the other's turn was lit, not carried out
    again = Run(folder, board.name, args[0], args[1], port, args[2])
    again.wait_for("resuming the unfinished tessella game")
    assert again.wait_for(CODE).group(1) == code
    put_back(again, played)
    return again
