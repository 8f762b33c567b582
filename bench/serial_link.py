"""The serial backend: events/s through the link, switch-to-commit latency, idle CPU.

Run by hand: .venv/bin/python bench/serial_link.py   (prints markdown; no assertions)

- events/s: a fake board on one end of a pty sends CHANGE frames as fast as the pty
  takes them; the host Link (pyserial, framing, CRC, sequence checks) on the other end
  applies them. Reference in the same run: zlib.crc32 + bytes.split over the same bytes
  (the cheapest possible decoding), as a ratio.
- latency: Tessella games on the serial backend with the firmware emulator; for the last
  switch change of each move, from the instant the emulator moved the magnet
  (time.monotonic(), shared by both processes) to the step in which the service
  committed the move. It includes the reed bounce (up to 3 ms), the board's debounce
  (10 ms), its 2 ms scan, the link and the host's 2 ms scan.
- idle CPU: the service's scan loop (step every 2 ms) with nothing happening, for 10 s,
  as a share of one core of the host process: on the serial backend (the emulator's own
  CPU, which a Pico would spend, reported apart), on the gpio backend (over the
  simulated RPi.GPIO), and a bare loop sleeping 2 ms as the reference.
"""

from __future__ import annotations

import datetime
import os
import platform
import random
import sys
import threading
import time
import tty
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from boards.choreography import turn_ops  # noqa: E402
from boards.layout import layout_for_game  # noqa: E402
from firmware_bridge import protocol as p  # noqa: E402
from firmware_bridge.link import Link  # noqa: E402
from hardware.backends import HardwareConfig  # noqa: E402
from hardware.clock import RealClock  # noqa: E402
from sensorboard import events  # noqa: E402
from sensorboard.board import BoardOptions, open_board  # noqa: E402
from sensorboard.service import BoardService  # noqa: E402

EVENTS = 30000
EMULATOR = HardwareConfig(serial_port="emulator")  # the firmware emulator behind a pty
IDLE_S = 10.0


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))]


def events_per_second() -> tuple[float, float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    hello = (bytes((p.HELLO, 1, 7, 6)) + (41).to_bytes(2, "little") + (7).to_bytes(4, "little")
             + (250).to_bytes(2, "little") + bytes((10,)) + b"\x051.0.0\x05bench\x00")
    frames = [p.encode(bytes((p.CHANGE,)) + (k + 1).to_bytes(4, "little")
                       + (k * 2).to_bytes(4, "little") + bytes((k % 7, k % 6, k % 2)))
              for k in range(EVENTS)]
    blob = b"".join(frames)
    greeted = threading.Event()

    def board() -> None:
        buf = b""
        while p.encode(p.sync()) not in buf:
            buf += os.read(master, 100)
        snap = bytes((p.SNAPSHOT,)) + bytes(10) + bytes((p.GREETING,)) + bytes(6)
        os.write(master, p.encode(hello) + p.encode(snap))
        greeted.wait()
        view = memoryview(blob)
        while view:
            n = os.write(master, view[:4096])
            view = view[n:]

    link = Link(name, on_error=lambda text: None)
    threading.Thread(target=board, daemon=True).start()
    link.start()
    assert link.wait_ready(5.0)
    start = time.perf_counter()
    greeted.set()
    while link.stats.events < EVENTS:
        time.sleep(0.001)
    rate = EVENTS / (time.perf_counter() - start)
    link.close(flush=0.0)
    os.close(master)
    os.close(slave)
    t0 = time.perf_counter()
    for _ in range(5):
        for part in blob.split(b"\x00"):
            zlib.crc32(part)
    ref = 5 * EVENTS / (time.perf_counter() - t0)
    return rate, ref


def latencies(games: int = 6, plies: int = 16) -> list[float]:
    samples: list[float] = []
    for seed in range(games):
        layout = layout_for_game("tessella")
        service = open_board(BoardOptions("tessella", layout=layout, clock=RealClock(),
                                          backend="serial", hardware=EMULATOR)).service
        rng = random.Random(seed)
        try:
            state = rules.new_game("tessella")
            for _ in range(plies):
                if state.outcome() is not None:
                    break
                move = rng.choice(state.legal_moves())
                ops = turn_ops(state, move, rng)
                for op, cell in ops[:-1]:
                    (service.sim_lift if op == "lift" else service.sim_place)(cell)
                    settle(service, 0.05)
                before = len(service.tracker.state.move_stack)
                op, cell = ops[-1]
                (service.sim_lift if op == "lift" else service.sim_place)(cell)
                at = service.sim.moved_at  # when the emulator moved the magnet
                end = time.monotonic() + 2.0
                while time.monotonic() < end:
                    out = service.step()
                    if any(isinstance(events.from_json(x), events.Move) for x in out):
                        samples.append(time.monotonic() - at)
                        break
                    time.sleep(0.002)
                else:
                    # A capture begun with the shooter looks like a touch of the enemy
                    # until the next event: the mover's clock press ends it (no sample).
                    service.press("clock", state.to_move)
                state.push(move)
                assert len(service.tracker.state.move_stack) == before + 1, "move not committed"
                settle(service, 0.1)
        finally:
            service.close()
    return samples


def settle(service: BoardService, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        service.step()
        time.sleep(0.002)


def cpu_of(loop) -> float:
    """Share of one core this process spends running ``loop`` for IDLE_S seconds."""
    c0, t0 = time.process_time(), time.monotonic()
    loop()
    return (time.process_time() - c0) / (time.monotonic() - t0)


def idle_loop(service: BoardService | None):
    def run() -> None:
        end = time.monotonic() + IDLE_S
        while time.monotonic() < end:
            if service is not None:
                service.step()
            time.sleep(0.002)
    return run


def idle_cpu() -> dict[str, float]:
    out = {"bare loop, sleep 2 ms (reference)": cpu_of(idle_loop(None))}
    layout = layout_for_game("tessella")
    service = open_board(BoardOptions("tessella", layout=layout, clock=RealClock(),
                                      backend="serial", hardware=EMULATOR)).service
    settle(service, 0.5)
    out["serial backend (host process, link thread included)"] = cpu_of(idle_loop(service))
    emulator = service.sim.emulator
    pid = emulator.proc.pid
    ticks = os.sysconf("SC_CLK_TCK")

    def emu_cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    e0, t0 = emu_cpu(), time.monotonic()
    time.sleep(2.0)
    out["the emulated board (its own process; a Pico's work)"] = (
        (emu_cpu() - e0) / (time.monotonic() - t0))
    service.close()
    from hardware.rigs import GpioRig

    with GpioRig(layout, RealClock()) as rig:
        gpio = open_board(BoardOptions("tessella", layout=layout, clock=RealClock(),
                                       backend="gpio", hardware=rig.config)).service
        settle(gpio, 0.5)
        out["gpio backend, over the simulated RPi.GPIO"] = cpu_of(idle_loop(gpio))
        gpio.close()
    return out


def main() -> None:
    print(f"# serial link — {platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, {datetime.date.today()}\n")
    rate, ref = events_per_second()
    print("| events through the link | events/s | reference: crc32 + split, frames/s | "
          "ratio |\n|---|---:|---:|---:|")
    print(f"| {EVENTS} CHANGE frames over a pty | {rate:,.0f} | {ref:,.0f} | "
          f"{rate / ref:.3f} |\n")
    lat = latencies()
    print("| switch change in the emulator -> move committed on the host | p50 | p99 | max "
          "| moves |\n|---|---:|---:|---:|---:|")
    print(f"| Tessella, serial backend | {percentile(lat, 50) * 1000:.1f} ms | "
          f"{percentile(lat, 99) * 1000:.1f} ms | {max(lat) * 1000:.1f} ms | {len(lat)} |\n")
    print("| idle, scan loop every 2 ms for 10 s | CPU (share of one core) |\n|---|---:|")
    for what, share in idle_cpu().items():
        print(f"| {what} | {share * 100:.1f} % |")


if __name__ == "__main__":
    main()
