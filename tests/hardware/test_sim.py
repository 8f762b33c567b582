"""The simulated board and SimGPIO, as a board builder would see them through the scanner."""

import pytest

from hardware.clock import VirtualClock
from hardware.matrix import GpioMatrixScanner
from hardware.sim import SimBoard, SimGPIO, default_pins, install, uninstall


def rig(rows=3, cols=3, **kw):
    clock = VirtualClock()
    board = SimBoard(rows, cols, clock=clock, **kw)
    row_pins, col_pins = default_pins(rows, cols)
    gpio = SimGPIO(board, row_pins, col_pins)
    return clock, board, gpio, GpioMatrixScanner(gpio, row_pins, col_pins)


def test_magnet_is_read_at_its_address():
    clock, board, _, scanner = rig(7, 6, bounce=0)
    board.place((5, 2))
    assert scanner.read() == {(5, 2)}
    board.lift((5, 2))
    assert scanner.read() == frozenset()


def test_stacked_magnets_keep_the_contact_closed_until_the_last_is_lifted():
    _, board, _, scanner = rig(bounce=0)
    board.place((1, 1))
    board.place((1, 1))
    board.lift((1, 1))
    assert scanner.read() == {(1, 1)}
    board.lift((1, 1))
    assert scanner.read() == frozenset()
    with pytest.raises(ValueError):
        board.lift((1, 1))


def test_address_outside_the_matrix_is_refused():
    _, board, _, _ = rig(bounce=0)
    with pytest.raises(ValueError, match="outside"):
        board.place((3, 0))


def test_diodes_prevent_ghosting():
    _, board, _, scanner = rig(diodes=True, bounce=0)
    for addr in [(0, 0), (0, 1), (1, 0)]:
        board.place(addr)
    assert scanner.read() == {(0, 0), (0, 1), (1, 0)}


def test_without_diodes_the_fourth_corner_ghosts():
    _, board, _, scanner = rig(diodes=False, bounce=0)
    for addr in [(0, 0), (0, 1), (1, 0)]:
        board.place(addr)
    seen = scanner.read()
    assert seen == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert (1, 1) in scanner.ghost_candidates(seen)
    assert scanner.read() == seen  # reproducible


def test_without_diodes_two_magnets_in_a_row_do_not_ghost():
    _, board, _, scanner = rig(diodes=False, bounce=0)
    board.place((0, 0))
    board.place((0, 2))
    assert scanner.read() == {(0, 0), (0, 2)}


def test_stuck_switch_reads_regardless_of_magnets():
    _, board, _, scanner = rig(bounce=0)
    board.stuck((2, 2), True)
    assert scanner.read() == {(2, 2)}
    board.stuck((2, 2), None)
    board.stuck((0, 0), False)
    board.place((0, 0))
    assert scanner.read() == frozenset()


def test_contacts_bounce_then_settle_reproducibly():
    def flicker(seed):
        clock, board, _, _ = rig(bounce=0.003, seed=seed)
        board.place((1, 2))
        states = []
        while clock.now() < 0.005:
            states.append((1, 2) in board.contacts())
            clock.advance(0.0001)
        return states, board.quiet_after()

    states, quiet = flicker(7)
    assert states[0] is True  # closes at once...
    assert False in states  # ...bounces open...
    assert all(states[31:])  # ...and stays closed after 3 ms
    assert 0 < quiet <= 0.003
    assert flicker(7) == (states, quiet)


def test_clean_contacts_with_bounce_zero():
    clock, board, _, _ = rig(bounce=0)
    board.place((0, 0))
    assert board.contacts() == {(0, 0)}
    assert board.quiet_after() == 0.0
    assert board.magnets() == {(0, 0)}


def test_reading_a_pin_not_set_up_raises_like_rpi_gpio():
    _, _, gpio, scanner = rig()
    with pytest.raises(RuntimeError, match="setup"):
        gpio.input(40)
    scanner.close()
    with pytest.raises(RuntimeError, match="setup"):
        gpio.input(scanner.col_pins[0])


def test_setup_before_setmode_and_output_on_an_input_raise():
    board = SimBoard(1, 1, clock=VirtualClock())
    gpio = SimGPIO(board, [2], [3])
    with pytest.raises(RuntimeError, match="setmode"):
        gpio.setup(2, gpio.OUT)
    gpio.setmode(gpio.BCM)
    gpio.setup(2, gpio.IN)
    with pytest.raises(RuntimeError, match="OUTPUT"):
        gpio.output(2, gpio.HIGH)


def test_low_row_wins_over_high_row_on_a_shared_net():
    clock = VirtualClock()
    board = SimBoard(2, 1, clock=clock, diodes=False, bounce=0)
    gpio = SimGPIO(board, [2, 3], [4])
    gpio.setmode(gpio.BCM)
    gpio.setup(4, gpio.IN, pull_up_down=gpio.PUD_DOWN)
    gpio.setup(2, gpio.OUT, initial=gpio.HIGH)
    gpio.setup(3, gpio.OUT, initial=gpio.LOW)
    board.place((0, 0))
    board.place((1, 0))
    assert gpio.input(4) == gpio.LOW
    board.lift((1, 0))
    assert gpio.input(4) == gpio.HIGH


def test_unconnected_column_reads_low_and_pull_up_pin_reads_high():
    _, _, gpio, scanner = rig(bounce=0)
    assert all(gpio.input(p) == gpio.LOW for p in scanner.col_pins)
    gpio.setup(26, gpio.IN, pull_up_down=gpio.PUD_UP)
    assert gpio.input(26) == gpio.HIGH


def test_install_serves_import_rpi_gpio():
    _, board, gpio, _ = rig()
    install(gpio)
    try:
        import RPi.GPIO as GPIO

        assert GPIO is gpio
        assert GPIO.BCM == 11 and GPIO.PUD_DOWN == 21
    finally:
        uninstall()


def test_sim_scanner_helper():
    from hardware.sim import sim_scanner

    board = SimBoard(2, 3, clock=VirtualClock(), bounce=0)
    board.place((1, 2))
    assert sim_scanner(board).read() == {(1, 2)}
