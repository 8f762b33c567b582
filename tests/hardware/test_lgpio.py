"""The gpio backend on rpi-lgpio's own code and lgpio group calls, over a simulated
gpiochip (hardware.simchip.SimLgpio in place of lgpio)."""

import random
import subprocess
import sys

import pytest

from hardware.backends import BackendError, open_backend
from hardware.clock import VirtualClock
from hardware.lgpio_matrix import LgpioMatrixScanner
from hardware.rigs import LgpioRig
from hardware.sim import SimBoard, SimGPIO, default_pins
from hardware.simchip import SimLgpio
from tests.hardware.test_backends import tiny_layout


def chip(rows=12, cols=12, diodes=True):
    board = SimBoard(rows, cols, clock=VirtualClock(), diodes=diodes, bounce=0)
    row_pins, col_pins = default_pins(rows, cols)
    return board, SimLgpio(SimGPIO(board, row_pins, col_pins)), row_pins, col_pins


@pytest.mark.parametrize("diodes", [True, False])
def test_the_group_scan_reads_every_position_the_magnets_make(diodes):
    board, lgpio, rows, cols = chip(diodes=diodes)
    scanner = LgpioMatrixScanner(lgpio, 0, rows, cols, diodes=diodes)
    rng = random.Random(7)
    for _ in range(30):
        for addr in list(board.magnets()):
            board.lift(addr)
        # without diodes only positions free of rectangles read true
        picks = rng.sample([(r, c) for r in range(12) for c in range(12)], rng.randint(0, 20))
        if not diodes:
            picks = [(r, c) for r, c in picks if r == picks[0][0]] if picks else []
        for addr in picks:
            board.place(addr)
        assert scanner.read() == frozenset(picks)


def test_a_12x12_scan_with_diodes_is_two_calls_a_row_and_reconfigures_nothing():
    board, lgpio, rows, cols = chip()
    scanner = LgpioMatrixScanner(lgpio, 0, rows, cols, diodes=True)
    board.place((4, 7))
    lgpio.calls.clear()
    assert scanner.read() == {(4, 7)}
    assert lgpio.calls == {"group_write": 12, "group_read": 12}


def test_close_leaves_the_matrix_pins_floating_inputs_and_the_chip_closed():
    board, lgpio, rows, cols = chip(rows=3, cols=3)
    scanner = LgpioMatrixScanner(lgpio, 0, rows, cols, diodes=True)
    scanner.read()
    scanner.close()
    gpio = lgpio.gpio
    for pin in rows + cols:
        assert gpio.pin_mode(pin) == gpio.IN and gpio.pin_pull(pin) == gpio.PUD_OFF
    with pytest.raises(SimLgpio.error, match="unknown handle"):
        lgpio.group_read(scanner.handle, cols[0])


def test_no_permission_on_the_gpiochip_is_one_line_naming_the_fix():
    layout = tiny_layout()
    clock = VirtualClock()
    with LgpioRig(layout, clock) as rig:
        rig.lgpio.permitted = False
        with pytest.raises(BackendError) as info:
            open_backend("gpio", layout, rig.config, clock)
    message = str(info.value)
    assert "cannot open the GPIO chip" in message and "'gpio' group" in message
    assert "\n" not in message


def test_the_cli_off_a_pi_says_so_and_exits_2(tmp_path):
    """rpi-lgpio is installed here, but this is no Raspberry Pi."""
    records = tmp_path / "records"
    out = subprocess.run(
        [sys.executable, "-m", "sensorboard", "run", "--game", "tessella", "--backend", "gpio",
         "--no-input", "--records", str(records)],
        capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith("sensorboard: gpio backend: this is not a Raspberry Pi")
    assert "use --backend sim" in out.stderr and out.stderr.count("\n") == 1
    assert not records.exists()
