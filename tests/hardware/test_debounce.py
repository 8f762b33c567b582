"""Debouncing a bouncing simulated board scanned every 2 ms on a virtual clock."""

import pytest

from hardware.clock import VirtualClock
from hardware.debounce import Change, Debouncer
from hardware.matrix import GpioMatrixScanner
from hardware.sim import SimBoard, SimGPIO, default_pins

PERIOD = 0.002
WINDOW = 0.010
BOUNCE = 0.003


def rig(seed=0, bounce=BOUNCE):
    clock = VirtualClock()
    board = SimBoard(4, 4, clock=clock, bounce=bounce, seed=seed)
    row_pins, col_pins = default_pins(4, 4)
    scanner = GpioMatrixScanner(SimGPIO(board, row_pins, col_pins), row_pins, col_pins)
    return clock, board, scanner, Debouncer(WINDOW)


def run(clock, scanner, deb, until, raws=None):
    changes = []
    while clock.now() < until - 1e-12:
        clock.advance(PERIOD)
        raw = scanner.read()
        if raws is not None:
            raws.append(raw)
        changes += deb.update(raw, clock.now())
    return changes


def bounce_sample_rig(seed):
    """Scan fast enough (0.1 ms) to see the bounce in the raw readings."""
    clock, board, scanner, _ = rig(seed)
    board.place((2, 1))
    raws = []
    while clock.now() < 0.004:
        raws.append(scanner.read())
        clock.advance(0.0001)
    return raws


def test_raw_readings_flicker_while_the_contact_bounces():
    raws = bounce_sample_rig(3)
    assert {(2, 1)} in raws and frozenset() in raws
    assert raws[-1] == {(2, 1)}


@pytest.mark.parametrize("seed", range(20))
def test_one_change_per_real_change_in_time(seed):
    clock, board, scanner, deb = rig(seed)
    board.place((1, 2))
    t_place = clock.now()
    changes = run(clock, scanner, deb, 0.1)
    assert [c[:2] for c in changes] == [((1, 2), True)]
    assert changes[0].t <= t_place + BOUNCE + WINDOW + PERIOD + 1e-9
    assert deb.state() == {(1, 2)} and deb.settled(clock.now())

    board.lift((1, 2))
    t_lift = clock.now()
    changes = run(clock, scanner, deb, 0.2)
    assert [c[:2] for c in changes] == [((1, 2), False)]
    assert changes[0].t <= t_lift + BOUNCE + WINDOW + PERIOD + 1e-9
    assert deb.state() == frozenset()  # a lifted magnet reads open after debouncing


def test_glitch_shorter_than_the_window_is_ignored():
    deb = Debouncer(WINDOW)
    t = 0.0
    out = []
    for raw in [{(0, 0)}, {(0, 0)}, set(), {(0, 0)}, set(), set(), set(), set(), set(), set()]:
        t += PERIOD
        out += deb.update(frozenset(raw), t)
    assert out == [] and deb.state() == frozenset() and deb.settled(t)


def test_change_is_reported_after_the_window_with_the_report_time():
    deb = Debouncer(WINDOW)
    assert deb.update(frozenset({(3, 3)}), 0.0) == []
    assert not deb.settled(0.0) and deb.pending() == {(3, 3)}
    assert deb.update(frozenset({(3, 3)}), 0.009) == []
    assert deb.update(frozenset({(3, 3)}), 0.010) == [Change((3, 3), True, 0.010)]
    assert deb.settled(0.010)


def test_zero_window_reports_at_once():
    deb = Debouncer(0.0)
    assert deb.update(frozenset({(0, 1)}), 1.0) == [Change((0, 1), True, 1.0)]


def test_simultaneous_changes_on_many_cells():
    clock, board, scanner, deb = rig(5)
    for addr in [(0, 0), (1, 1), (3, 2)]:
        board.place(addr)
    changes = run(clock, scanner, deb, 0.05)
    assert sorted(c.addr for c in changes) == [(0, 0), (1, 1), (3, 2)]
    assert all(c.closed for c in changes)
