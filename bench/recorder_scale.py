"""A hall of boards: 200 simulated boards, one mosquitto, one recorder.

Run by hand: .venv/bin/python bench/recorder_scale.py [--boards 200] [--seconds 60]
(prints markdown; no assertions). Needs Debian's mosquitto (make test installs it).

Each board is its own MQTT client (``sensorboard.mqtt.BoardLink``, aiomqtt, fixed client
id, persistent session) with its own SQLite journal (WAL, synchronous=FULL) and writer
thread, all in this process on one event loop. Each plays random legal Tessella games, a
turn every 0.5-1.5 s (two sensor changes, then the turn, as the service journals it),
and starts a new game when one ends. The recorder is ``sensorboard recorder`` in a
process of its own, storing into SQLite. Measured:

- turns/s sustained: turns stored by the recorder over the playing time;
- board commit -> recorder store: the turn's journal time on the board to the recorder's
  commit time (both wall clock, one machine), p50/p99/max;
- the recorder's memory (peak resident set, VmHWM);
- lost and duplicated turns: every board's journal against the recorder's store.
Reference in the same run: one board alone, the same path, idle machine share.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from sensorboard.journal import Journal  # noqa: E402
from sensorboard.mqtt import BoardLink  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(folder: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    lines = [line for line in (ROOT / "deploy" / "mosquitto.conf").read_text().splitlines()
             if not line.startswith(("listener", "persistence_location"))]
    (folder / "mq").mkdir()
    lines += [f"listener {port} 127.0.0.1", f"persistence_location {folder / 'mq'}/",
              "max_connections -1"]
    conf = folder / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    wait_port(port)
    return proc, port


def wait_port(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def start_recorder(folder: Path, port: int) -> tuple[subprocess.Popen, Path]:
    store = folder / "recorder.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "sensorboard", "recorder", "--broker",
                             f"mqtt://127.0.0.1:{port}", "--store", str(store), "--port",
                             str(free_port())], stdout=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    return proc, store


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

    async def play(self, until: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, 1.0))
        while time.monotonic() < until:
            self.turn()
            await asyncio.sleep(self.rng.uniform(0.5, 1.5))


async def hall(folder: Path, port: int, n: int, seconds: float) -> list[SimBoard]:
    boards = [SimBoard(folder / "boards", str(i + 1), port, seed=i) for i in range(n)]
    links = [asyncio.ensure_future(b.link.run()) for b in boards]
    while not all(b.link.connected for b in boards):
        await asyncio.sleep(0.1)
    until = time.monotonic() + seconds
    await asyncio.gather(*(b.play(until) for b in boards))
    for b in boards:
        b.writer.flush()
    end = time.monotonic() + 120
    while time.monotonic() < end and any(b.link.acked < b.journal.seq for b in boards):
        await asyncio.sleep(0.2)
    for task in links:
        task.cancel()
    await asyncio.gather(*links, return_exceptions=True)
    return boards


def peak_memory(pid: int) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return f"{int(line.split()[1]) / 1024:.0f} MiB"
    return "?"


def measure(n: int, seconds: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="recorder-scale-"))
    broker, port = start_broker(folder)
    recorder, store = start_recorder(folder, port)
    try:
        time.sleep(1.5)  # the recorder subscribes
        started = time.time()
        boards = asyncio.run(hall(folder, port, n, seconds))
        time.sleep(0.5)
        memory = peak_memory(recorder.pid)
    finally:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(20)
        broker.terminate()
        broker.wait(20)
    db = sqlite3.connect(store)
    stored: dict[str, list[tuple[int, str]]] = {}
    for board, seq, data in db.execute("SELECT board, seq, data FROM entries "
                                       "WHERE type='move' ORDER BY board, seq"):
        stored.setdefault(board, []).append((seq, json.loads(data)["move"]))
    latencies = [stored_at - at for at, stored_at in db.execute(
        "SELECT e.at, a.stored FROM entries e JOIN arrivals a USING (board, seq) "
        "WHERE e.type='move'")]
    lost = duplicated = made = 0
    for b in boards:
        mine = [(e.seq, e.item["move"]) for e in b.journal.entries() if e.type == "move"]
        made += len(mine)
        theirs = stored.get(b.journal.board, [])
        lost += len(set(mine) - set(theirs))
        duplicated += len(theirs) - len(set(theirs)) + len(set(theirs) - set(mine))
        b.journal.close()
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    shutil.rmtree(folder, ignore_errors=True)
    return {"boards": n, "seconds": seconds, "turns": made,
            "turns_per_s": sum(len(v) for v in stored.values()) / seconds,
            "p50": pct(50), "p99": pct(99), "max": latencies[-1] * 1000,
            "memory": memory, "lost": lost, "duplicated": duplicated,
            "wall": time.time() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    reference = measure(1, min(10.0, args.seconds))
    result = measure(args.boards, args.seconds)
    print(f"## Recorder at scale ({datetime.date.today()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()})\n")
    print("| boards | playing time | turns made | turns/s stored | commit -> store p50 | "
          "p99 | max | recorder memory (peak) | lost | duplicated |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for r in (reference, result):
        print(f"| {r['boards']} | {r['seconds']:.0f} s | {r['turns']:,} | "
              f"{r['turns_per_s']:.1f} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | "
              f"{r['max']:.0f} ms | {r['memory']} | {r['lost']} | {r['duplicated']} |")


if __name__ == "__main__":
    main()
