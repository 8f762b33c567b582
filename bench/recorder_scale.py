"""A hall of boards: N simulated boards into the recorders, two ways in the same run.

Run by hand (prints markdown; no assertions). Needs Debian's mosquitto and postgresql
(make test installs them) and psycopg (the dev extra):

    .venv/bin/python bench/recorder_scale.py --boards 2000 --seconds 60 --turn-every 10

(the defaults; about 8 minutes on a busy 2-core machine; --boards 200 for a quick look).

The two setups, measured one after the other with the same boards and seed:

- **sqlite** (the reference, the embedded default): one mosquitto, one
  ``sensorboard recorder`` storing into an SQLite file;
- **postgresql**: the boards split over ``--halls`` hall brokers, each joined to a central
  mosquitto by the shipped ``deploy/bridge.conf`` (on loopback, without its TLS and login
  lines), and ``--recorders`` recorder processes at the centre sharing the load through
  the MQTT shared subscription ``$share/bench/...``, all storing into one PostgreSQL
  (a fresh cluster with PostgreSQL's durable defaults, on loopback).

Each board is its own MQTT client (``sensorboard.mqtt.BoardLink``) with its own SQLite
journal and writer thread, all in this process on one event loop; each plays random legal
Tessella games, a turn every ``--turn-every`` seconds on average (0.5 to 1.5 times it;
two sensor changes, then the turn, as the service journals it). Measured:

- turns/s stored, over the playing time;
- board commit -> stored: the turn's journal time on the board to the store's commit time
  (both wall clock, one machine), p50/p99/max;
- CPU per 100 boards: CPU time of the recording side (recorders, brokers, database
  server) from the boards' start to the last ack, over that time, per 100 boards, in
  percent of one core; the boards' own process is not counted;
- lost and duplicated turns: every board's journal against the store;
- how late the boards' own process runs (its event loop's wake-ups, p99): with many
  boards in one process on a busy machine, most of commit -> stored is spent there.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from sensorboard.journal import Journal  # noqa: E402
from sensorboard.mqtt import BoardLink  # noqa: E402
from tests.recording.broker import bridge_lines, free_port  # noqa: E402
from tests.recording.postgres import PostgresServer  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def wait_port(port: int) -> None:
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


@dataclass
class Side:
    """The recording side of one setup: its processes, by role, and its store."""

    store: str = ""
    ports: list[int] = field(default_factory=list)  # where the boards connect
    procs: dict[str, list[subprocess.Popen]] = field(default_factory=dict)
    database: PostgresServer | None = None

    def add(self, role: str, proc: subprocess.Popen) -> None:
        self.procs.setdefault(role, []).append(proc)

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far, by role (the database: its server and backends)."""
        out = {role: sum(cpu_seconds(p.pid) for p in procs)
               for role, procs in self.procs.items()}
        if self.database is not None:
            out["database"] = postmaster_cpu(self.database.data / "postmaster.pid")
        return out

    def stop(self) -> None:
        for role in ("recorder", "broker"):
            for proc in self.procs.get(role, []):
                proc.send_signal(signal.SIGINT if role == "recorder" else signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if self.database is not None:
            self.database.stop()


def cpu_seconds(pid: int, children: bool = False) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        used += int(fields[13]) + int(fields[14])  # reaped children's
    return used / TICK


def postmaster_cpu(pidfile: Path) -> float:
    """The PostgreSQL server's CPU: the postmaster, its live children, the reaped ones."""
    postmaster = int(pidfile.read_text().split()[0])
    total = cpu_seconds(postmaster, children=True)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == postmaster:
                total += cpu_seconds(int(stat.parent.name))
        except (OSError, ValueError):
            continue
    return total


def start_broker(folder: Path, extra: list[str] = ()) -> tuple[subprocess.Popen, int]:
    """mosquitto with the shipped settings on a free loopback port (plus ``extra``)."""
    port = free_port()
    lines = [line for line in (ROOT / "deploy" / "mosquitto.conf").read_text().splitlines()
             if not line.startswith(("listener", "persistence_location", "allow_anonymous"))]
    (folder / "mq").mkdir(parents=True)
    lines += [f"listener {port} 127.0.0.1", "allow_anonymous true",
              f"persistence_location {folder / 'mq'}/", "max_connections -1", *extra]
    conf = folder / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    wait_port(port)
    return proc, port


def start_recorder(side: Side, port: int, *extra: str) -> None:
    page = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "sensorboard", "recorder", "--broker",
                             f"mqtt://127.0.0.1:{port}", "--store", side.store, "--port",
                             str(page), *extra], stdout=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    side.add("recorder", proc)
    wait_port(page)


def sqlite_side(folder: Path) -> Side:
    side = Side(store=str(folder / "recorder.sqlite"))
    proc, port = start_broker(folder / "broker")
    side.add("broker", proc)
    side.ports = [port]
    start_recorder(side, port)
    return side


def postgresql_side(folder: Path, halls: int, recorders: int) -> Side:
    database = PostgresServer(settings="").start()  # PostgreSQL's durable defaults
    side = Side(store=database.url, database=database)
    proc, central = start_broker(folder / "central")
    side.add("broker", proc)
    for i in range(halls):
        proc, port = start_broker(folder / f"hall-{i}", bridge_lines(f"hall-{i}", central))
        side.add("broker", proc)
        side.ports.append(port)
    for i in range(recorders):
        start_recorder(side, central, "--share", "bench", "--name", f"recorder-{i}")
    return side


class SimBoard:
    def __init__(self, folder: Path, name: str, port: int, seed: int) -> None:
        self.journal = Journal(folder / name / "journal.sqlite", board=name)
        self.writer = self.journal.writer()
        self.link = BoardLink(self.journal, "127.0.0.1", port, keepalive=30)
        self.writer.listeners.append(self.link.written)
        self.rng = random.Random(seed)
        self.turns = 0
        self.new_game()

    def new_game(self) -> None:
        self.state = rules.new_game("tessella")
        header = self.journal.start_game({"game": "tessella",
                                          "position": self.state.position_str(),
                                          "players": list(self.state.PLAYERS),
                                          "tags": {"Round": "1", "Board": self.journal.board}})
        self.uid = header["uid"]
        self.writer.put(self.uid, header)

    def turn(self) -> None:
        if self.state.outcome() is not None or len(self.state.move_stack) >= 80:
            self.writer.put(self.uid, {"type": "end", "result": "*", "reason": "bench"})
            self.new_game()
        move = self.rng.choice(self.state.legal_moves())
        player, text = self.state.to_move, self.state.move_str(move)
        self.state.push(move)
        ply = len(self.state.move_stack)
        cells = text.replace("x", "-").split("-")
        self.writer.put(self.uid, {"type": "sensor", "t": 0.0, "cell": cells[0], "shows": False})
        self.writer.put(self.uid, {"type": "sensor", "t": 0.0, "cell": cells[-1],
                                   "shows": True})
        self.writer.put(self.uid, {"type": "move", "t": 0.0, "ply": ply, "player": player,
                                   "move": text})
        self.turns += 1

    async def play(self, until: float, every: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, every))
        while time.monotonic() < until:
            self.turn()
            await asyncio.sleep(self.rng.uniform(0.5 * every, 1.5 * every))


async def lateness(until: float, late: list[float]) -> None:
    """How late the boards' own event loop wakes from a 0.1 s sleep: the simulated
    boards' share of commit -> stored (they all run in this one process)."""
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(0.1)
        late.append(time.monotonic() - asked - 0.1)


async def hall(folder: Path, ports: list[int], n: int, seconds: float, every: float,
               side: Side, late: list[float]) -> tuple[list[SimBoard], dict, float]:
    boards = [SimBoard(folder / "boards", str(i + 1), ports[i % len(ports)], seed=i)
              for i in range(n)]
    links = [asyncio.ensure_future(b.link.run()) for b in boards]
    while not all(b.link.connected for b in boards):
        await asyncio.sleep(0.1)
    cpu, began = side.cpu(), time.monotonic()
    await asyncio.gather(lateness(began + seconds, late),
                         *(b.play(began + seconds, every) for b in boards))
    for b in boards:
        b.writer.flush()
    end = time.monotonic() + 300
    while time.monotonic() < end and any(b.link.acked < b.journal.seq for b in boards):
        await asyncio.sleep(0.2)
    span = time.monotonic() - began
    used = {role: spent - cpu[role] for role, spent in side.cpu().items()}
    for task in links:
        task.cancel()
    await asyncio.gather(*links, return_exceptions=True)
    return boards, used, span


def peak_memory(side: Side) -> str:
    peaks = []
    for proc in side.procs["recorder"]:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peaks.append(int(line.split()[1]) / 1024)
    return f"{max(peaks):.0f} MiB"


def stored_rows(side: Side) -> tuple[list[tuple[str, int, str]], list[float]]:
    """(board, seq, move) of every stored turn, and each turn's commit -> stored."""
    if side.database is None:
        db = sqlite3.connect(side.store)
        rows = db.execute("SELECT e.board, e.seq, e.data, a.stored - e.at FROM entries e "
                          "JOIN arrivals a USING (board, journal, seq) WHERE e.type='move'"
                          ).fetchall()
        db.close()
    else:
        import psycopg

        with psycopg.connect(side.store) as db:
            rows = db.execute("SELECT board, seq, data, stored - at FROM entries "
                              "WHERE type='move'").fetchall()
    return ([(b, s, json.loads(d)["move"]) for b, s, d, _ in rows],
            sorted(late for *_, late in rows))


def measure(setup: str, n: int, seconds: float, every: float, halls: int,
            recorders: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="recorder-scale-"))
    side = (sqlite_side(folder) if setup == "sqlite"
            else postgresql_side(folder, halls, recorders))
    try:
        time.sleep(1.0)  # the recorders subscribe, the bridges connect
        late: list[float] = []
        boards, used, span = asyncio.run(hall(folder, side.ports, n, seconds, every, side,
                                              late))
        memory = peak_memory(side)
        rows, latencies = stored_rows(side)
    finally:
        side.stop()
    stored: dict[str, list[tuple[int, str]]] = {}
    for board, seq, move in rows:
        stored.setdefault(board, []).append((seq, move))
    lost = duplicated = made = 0
    for b in boards:
        mine = [(e.seq, e.item["move"]) for e in b.journal.entries() if e.type == "move"]
        made += len(mine)
        theirs = stored.get(b.journal.board, [])
        lost += len(set(mine) - set(theirs))
        duplicated += len(theirs) - len(set(theirs)) + len(set(theirs) - set(mine))
        b.journal.close()
    shutil.rmtree(folder, ignore_errors=True)

    def pct(p: float, values: list[float] = latencies) -> float:
        return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000

    per100 = {role: 100 * spent / span / (n / 100) for role, spent in used.items()}
    return {"setup": setup, "boards": n, "seconds": seconds, "turns": made,
            "turns_per_s": len(rows) / seconds, "p50": pct(50), "p99": pct(99),
            "max": latencies[-1] * 1000, "late": pct(99, sorted(late)), "cpu": per100,
            "memory": memory, "lost": lost,
            "duplicated": duplicated, "recorders": 1 if setup == "sqlite" else recorders,
            "halls": 1 if setup == "sqlite" else halls}


def row(r: dict) -> str:
    cpu = r["cpu"]
    split = " / ".join(f"{cpu.get(k, 0):.1f}" for k in ("recorder", "broker", "database"))
    path = ("1 broker, 1 recorder, SQLite" if r["setup"] == "sqlite" else
            f"{r['halls']} hall brokers bridged to 1, {r['recorders']} recorders, PostgreSQL")
    return (f"| {path} | {r['boards']:,} | {r['seconds']:.0f} s | {r['turns']:,} | "
            f"{r['turns_per_s']:.1f} | {r['p50']:.0f} ms | {r['p99']:.0f} ms | "
            f"{r['max']:.0f} ms | {r['late']:.0f} ms | {sum(cpu.values()):.1f} % ({split}) | "
            f"{r['memory']} | "
            f"{r['lost']} | {r['duplicated']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0, help="playing time")
    parser.add_argument("--turn-every", type=float, default=10.0,
                        help="seconds between a board's turns, on average (a tabletop pace)")
    parser.add_argument("--recorders", type=int, default=4)
    parser.add_argument("--halls", type=int, default=2)
    args = parser.parse_args()
    results = [measure(setup, args.boards, args.seconds, args.turn_every, args.halls,
                       args.recorders) for setup in ("sqlite", "postgresql")]
    load = os.getloadavg()[0]
    print(f"## Recorders at scale ({datetime.date.today()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {load:.1f}, Python "
          f"{platform.python_version()})\n")
    print("| path | boards | playing time | turns made | turns/s stored | commit -> stored "
          "p50 | p99 | max | boards' own loop late, p99 | CPU per 100 boards (recorders / "
          "brokers / database) | recorder memory (peak, each) | lost | duplicated |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|")
    for r in results:
        print(row(r))


if __name__ == "__main__":
    main()
