"""The gpio backend's cost: GPIO-library calls per scan, and the idle CPU of the service.

1. Calls per 12x12 scan (5 magnets), counted on the simulated gpiochip
   (hardware.simchip.SimLgpio) and on a counting RPi.GPIO:
   - the group scan (lgpio), with and without diodes;
   - the per-pin scan through the RPi.GPIO API, and the lgpio calls rpi-lgpio makes for it;
   - the bus transfers (and bus time) of the MCP23017 and MCP3008 front ends.
2. Idle CPU: ``sensorboard run --no-input`` on the gpio backend over the simulated
   gpiochip (and on the sim backend) for a few seconds with nothing happening, against a
   bare asyncio loop polling the same matrix at the same 2 ms rate (and one that only
   wakes), measured in the same run. On this machine the simulated hardware costs what
   the real GPIO calls cost on a Pi; the ratio is the service's own overhead.

    .venv/bin/python bench/hardware.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from hardware.clock import VirtualClock  # noqa: E402
from hardware.lgpio_matrix import LgpioMatrixScanner  # noqa: E402
from hardware.matrix import GpioMatrixScanner  # noqa: E402
from hardware.sim import SimBoard, SimGPIO, default_pins  # noqa: E402
from hardware.simchip import SimLgpio  # noqa: E402
from sensorboard.benchcmd import Counting  # noqa: E402

MAGNETS = [(0, 0), (3, 7), (5, 5), (9, 2), (11, 11)]


def board(diodes=True):
    b = SimBoard(12, 12, clock=VirtualClock(), diodes=diodes, bounce=0)
    for a in MAGNETS:
        b.place(a)
    return b


def calls_per_scan() -> list[tuple[str, str, int, str]]:
    rows = []
    for diodes in (True, False):
        b = board(diodes)
        rp, cp = default_pins(12, 12)
        lg = SimLgpio(SimGPIO(b, rp, cp))
        scanner = LgpioMatrixScanner(lg, 0, rp, cp, diodes=diodes)
        lg.calls.clear()
        scanner.read()
        detail = ", ".join(f"{n} {k}" for k, n in sorted(lg.calls.items()))
        rows.append(("group scan (lgpio)", "on" if diodes else "off",
                     sum(lg.calls.values()), detail))
    b = board()
    rp, cp = default_pins(12, 12)
    gpio = Counting(SimGPIO(b, rp, cp))
    scanner = GpioMatrixScanner(gpio, rp, cp)
    gpio.calls.clear()
    scanner.read()
    detail = ", ".join(f"{n} {k}()" for k, n in sorted(gpio.calls.items()))
    rows.append(("per-pin scan, RPi.GPIO API calls", "on", sum(gpio.calls.values()), detail))
    rows.append(("per-pin scan, lgpio calls under rpi-lgpio", "on", rpi_lgpio_calls(), ""))
    return rows


def frontend_transfers() -> list[tuple[str, int, str]]:
    """Bus transfers of one scan on the expander and ADC front ends (the real Adafruit
    drivers over the register-level simulated chips), and the time they hold the bus."""
    from boards.layout import load_layout, shipped_layouts
    from hardware.backends import open_backend
    from hardware.rigs import Mcp3008Rig, Mcp23017Rig

    rows = []
    for rig_class, name, bus_hz, label in (
            (Mcp23017Rig, "teblo", 400_000, "MCP23017 x2, I2C at 400 kHz"),
            (Mcp3008Rig, "teblo-hall", 1_000_000, "MCP3008 x18, SPI at 1 MHz")):
        layout = load_layout(shipped_layouts()[name])
        clock = VirtualClock()
        with rig_class(layout, clock) as rig:
            hw = open_backend("gpio", layout, rig.config, clock)
            rig.attach(hw)
            for a in MAGNETS:
                rig.board.place(a)
            bus = rig.i2c if rig_class is Mcp23017Rig else rig.spi
            before, bits = bus.transactions, bus.bits
            hw.matrix.read()
            n, busy = bus.transactions - before, (bus.bits - bits) / bus_hz
            hw.close()
        rows.append((f"{layout.rows}x{layout.cols}, {label}", n,
                     f"{busy * 1e3:.2f} ms of bus time"))
    return rows


def rpi_lgpio_calls() -> int:
    """The lgpio calls rpi-lgpio's own RPi.GPIO makes for one per-pin scan."""
    from boards.layout import parse_layout  # noqa: F401  (keeps the import order honest)
    from hardware.rigs import LgpioPerPinRig

    class Layout:  # the 12x12 matrix, enough for the rig
        rows = cols = 12
        diodes = True
        row_pins, col_pins = default_pins(12, 12)

    with LgpioPerPinRig(Layout, VirtualClock()) as rig:
        for a in MAGNETS:
            rig.board.place(a)
        import RPi.GPIO as GPIO

        scanner = GpioMatrixScanner(GPIO, Layout.row_pins, Layout.col_pins)
        rig.lgpio.calls.clear()
        scanner.read()
        n = sum(rig.lgpio.calls.values())
        scanner.close()
        GPIO.cleanup()
    return n


SERVICE = textwrap.dedent("""
    import sys
    from hardware.clock import RealClock
    from boards.layout import layout_for_game
    from hardware.rigs import LgpioRig
    from sensorboard.cli import main
    if sys.argv[1] == "gpio":
        with LgpioRig(layout_for_game("tessella"), RealClock()):
            main(["run", "--game", "tessella", "--backend", "gpio", "--no-input",
                  "--records", sys.argv[2], "--config", sys.argv[3]])
    else:
        main(["run", "--game", "tessella", "--backend", "sim", "--no-input",
              "--records", sys.argv[2]])

""")

BARE = textwrap.dedent("""
    import asyncio, sys
    from boards.layout import layout_for_game
    from hardware.backends import HardwareConfig, open_backend
    from hardware.clock import RealClock
    from hardware.rigs import LgpioRig
    layout = layout_for_game("tessella")

    async def poll(read):
        while True:
            read()
            await asyncio.sleep(0.002)

    if sys.argv[1] == "nothing":
        asyncio.run(poll(lambda: None))
    elif sys.argv[1] == "gpio":
        with LgpioRig(layout, RealClock()) as rig:
            hw = open_backend("gpio", layout, rig.config, RealClock())
            asyncio.run(poll(hw.matrix.read))
    else:
        hw = open_backend("sim", layout, HardwareConfig(), RealClock())
        asyncio.run(poll(hw.matrix.read))
""")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(argv: list[str], seconds: float, warmup: float = 3.0) -> float:
    """Share of one core the process uses while idle, after ``warmup`` seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        time.sleep(warmup)
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode())
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu_seconds(proc.pid), time.monotonic()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return (c1 - c0) / (t1 - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    print("## GPIO-library calls per 12x12 scan (5 magnets)\n")
    print("| path | diodes | calls per scan | of which |")
    print("|---|---|---:|---|")
    for path, diodes, n, detail in calls_per_scan():
        print(f"| {path} | {diodes} | {n} | {detail} |")
    print("\n## Bus transfers per scan on the other front ends\n")
    print("| front end | transfers per scan | bus time per scan |")
    print("|---|---:|---:|")
    for label, n, busy in frontend_transfers():
        print(f"| {label} | {n} | {busy} |")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "bench.toml"
        config.write_text('[hardware]\nled_pin = "NEOPIXEL"\nsettle_s = 0.0\n')
        py = sys.executable
        rows = []
        for _ in range(2):  # interleaved, so all see the same load
            nothing = idle_cpu([py, "-c", BARE, "nothing"], args.seconds)
            for backend in ("gpio", "sim"):
                bare = idle_cpu([py, "-c", BARE, backend], args.seconds)
                run = idle_cpu([py, "-c", SERVICE, backend, f"{tmp}/{backend}", str(config)],
                               args.seconds)
                rows.append((backend, nothing, bare, run))
    print(f"\n## Idle CPU, {args.seconds:g} s with nothing happening (share of one core)\n")
    print("| backend | asyncio loop waking every 2 ms | the same loop reading the matrix | "
          "sensorboard run | run / polling loop |")
    print("|---|---:|---:|---:|---:|")
    for backend, nothing, bare, run in rows:
        print(f"| {backend} | {nothing:.1%} | {bare:.1%} | {run:.1%} | {run / bare:.2f} |")


if __name__ == "__main__":
    main()
