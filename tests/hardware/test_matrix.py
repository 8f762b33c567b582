"""The scanner's use of the pins, and ghost detection."""

from hardware.clock import VirtualClock
from hardware.matrix import GpioMatrixScanner, ghost_candidates
from hardware.sim import SimBoard, SimGPIO, default_pins


class RecordingGPIO(SimGPIO):
    """Remembers the mode of every row pin at each column read."""

    def __init__(self, *args):
        super().__init__(*args)
        self.seen = []

    def input(self, channel):
        self.seen.append((channel, {p: self.pin_mode(p) for p in self.row_pins}))
        return super().input(channel)


def make(rows=3, cols=4):
    board = SimBoard(rows, cols, clock=VirtualClock(), bounce=0)
    row_pins, col_pins = default_pins(rows, cols)
    gpio = RecordingGPIO(board, row_pins, col_pins)
    return board, gpio, GpioMatrixScanner(gpio, row_pins, col_pins)


def test_scanner_is_a_sensor_matrix():
    from hardware.base import SensorMatrix

    _, _, scanner = make()
    assert isinstance(scanner, SensorMatrix)
    assert (scanner.rows, scanner.cols) == (3, 4)


def test_columns_pulled_down_and_rows_high_z_between_drives():
    board, gpio, scanner = make()
    for p in scanner.col_pins:
        assert gpio.pin_mode(p) == gpio.IN and gpio.pin_pull(p) == gpio.PUD_DOWN
    board.place((2, 3))
    assert scanner.read() == {(2, 3)}
    assert len(gpio.seen) == 3 * 4  # every column once per row
    for _, modes in gpio.seen:
        driven = [p for p, m in modes.items() if m == gpio.OUT]
        assert len(driven) == 1  # exactly one row driven, the others high-Z
        assert all(m == gpio.IN for p, m in modes.items() if p not in driven)
    for p in scanner.row_pins:  # after the scan: all rows high-Z again
        assert gpio.pin_mode(p) == gpio.IN and gpio.pin_pull(p) == gpio.PUD_OFF


def test_rows_are_driven_in_order_high():
    _, gpio, scanner = make(2, 2)
    scanner.read()
    order = [next(p for p, m in modes.items() if m == gpio.OUT) for _, modes in gpio.seen]
    assert order == [scanner.row_pins[0]] * 2 + [scanner.row_pins[1]] * 2


def test_close_releases_the_pins():
    _, gpio, scanner = make()
    scanner.close()
    assert all(gpio.pin_mode(p) is None for p in scanner.row_pins + scanner.col_pins)


def test_ghost_candidates():
    assert ghost_candidates([(0, 0), (0, 1), (1, 0)]) == frozenset()
    square = {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert ghost_candidates(square) == square
    assert ghost_candidates(square | {(5, 5), (0, 3)}) == square
    # a longer loop: (0,0)-(0,1)-(1,1)-(1,2)-(2,2)-(2,0)
    loop = {(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 0)}
    assert ghost_candidates(loop) == loop
    assert GpioMatrixScanner.ghost_candidates(square) == square
