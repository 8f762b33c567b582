"""The link over a real pty to the firmware emulator (its own process), with faults on the
line: every transition of every cell reaches the host, in order, exactly once."""

import random
import threading
import time

import pytest

from firmware_bridge.devices import SerialButtons, SerialMatrix, SerialStrip
from firmware_bridge.emulated import EmulatorProcess, wait_for
from firmware_bridge.link import Link
from firmware_bridge.ports import PortSpec
from hardware.base import Press

HOLD = 0.03  # a magnet stays this long: past the bounce (3 ms) and the debounce (10 ms)


class Host:
    """The host end: a link, the matrix read every 2 ms in a thread (as the service scans),
    and every change it read, in order."""

    def __init__(self, spec) -> None:
        self.link = Link(spec, on_error=lambda text: None)
        self.link.start()
        assert self.link.wait_ready(5.0)
        self.matrix = SerialMatrix(self.link, 7, 6)
        self.seen: list[tuple[tuple[int, int], bool]] = []
        self.closed: frozenset = frozenset()  # what the last scan read
        self.paused = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._scan, daemon=True)
        self._thread.start()

    def _scan(self) -> None:
        last = frozenset()
        while not self._stop:
            if not self.paused.is_set():
                now = self.matrix.read()
                self.seen += sorted((a, a in now) for a in now ^ last)
                last = self.closed = now
            time.sleep(0.002)

    def transitions(self, addr):
        return [closed for a, closed in self.seen if a == addr]

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.link.close()


@pytest.fixture
def emu():
    with EmulatorProcess(7, 6, 41, ["clock", "clock:red"]) as e:
        yield e


@pytest.fixture
def host(emu):
    h = Host(emu.path)
    yield h
    h.close()


def toggle(emu, addr, times):
    """Place and lift a magnet on ``addr``, ``times`` changes in all, each state held long
    enough to count; returns when the emulator has carried them out."""
    emu.script([("place" if k % 2 == 0 else "lift", addr) for k in range(times)], HOLD)
    time.sleep(HOLD * (times + 1))


def expect(times):
    return [k % 2 == 0 for k in range(times)]


def settle(host, addr, times):
    assert wait_for(lambda: len(host.transitions(addr)) >= times, 3.0), (
        host.transitions(addr), host.seen, vars(host.link.stats))
    time.sleep(0.1)
    assert host.transitions(addr) == expect(times)


def test_changes_reach_the_host_in_order(emu, host):
    toggle(emu, (2, 3), 4)
    settle(host, (2, 3), 4)
    assert host.link.stats.gaps == 0 and host.link.stats.damaged == 0


@pytest.mark.parametrize("kind", ["drop", "corrupt", "truncate"])
def test_a_lost_or_damaged_frame_costs_nothing(emu, host, kind):
    for k in range(3):
        emu.fault(kind, 1)
        toggle(emu, (k, k), 4)
    for k in range(3):
        settle(host, (k, k), 4)
    stats = host.link.stats
    assert stats.gaps + stats.damaged >= 1
    assert stats.resends >= 1 or stats.repairs >= 1 or kind != "drop"


def test_noise_on_the_line_costs_nothing(emu, host):
    rng = random.Random(5)
    for k in range(4):
        emu.noise(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))))
        toggle(emu, (6, k), 2)
    for k in range(4):
        settle(host, (6, k), 2)


def test_a_burst_while_the_host_is_busy_keeps_every_transition(emu, host):
    host.paused.set()  # the host does not scan for a while (a long turn listing, a GC)
    toggle(emu, (1, 1), 10)
    cells = [(r, c) for r in range(7) for c in range(6) if (r, c) != (1, 1)]
    for addr in cells:
        emu.place(addr)
    time.sleep(0.1)
    host.paused.clear()
    settle(host, (1, 1), 10)
    assert wait_for(lambda: all(host.transitions(a) == [True] for a in cells), 3.0)
    assert host.closed == set(cells)


def test_a_damaged_led_frame_from_the_host_is_sent_again(emu, host):
    strip = SerialStrip(host.link, 41)
    emu.fault("corrupt_in", 1)
    strip.set(5, (1, 2, 3))
    strip.show()
    assert wait_for(lambda: strip.acked() == strip.shown(), 2.0)
    assert emu.leds()[5] == (1, 2, 3)
    strip.set(6, (4, 5, 6))
    strip.show()  # sent as a delta on top of the acknowledged frame
    assert wait_for(lambda: strip.acked() == strip.shown(), 2.0)
    assert emu.leds()[5:7] == [(1, 2, 3), (4, 5, 6)]


def test_buttons_come_through_as_presses(emu, host):
    buttons = SerialButtons(host.link)
    emu.press("clock:red")
    assert wait_for(lambda: host.link.held() == {"clock:red"}, 2.0)
    emu.press("clock:red", down=False)
    emu.press("clock")
    assert wait_for(lambda: host.link.held() == {"clock"}, 2.0)
    assert buttons.poll(0.0) == [Press("clock", "red"), Press("clock")]
    assert buttons.poll(0.0) == []


def test_a_restart_resynchronises_from_a_snapshot(emu, host):
    emu.place((0, 0))
    assert wait_for(lambda: host.closed == {(0, 0)})
    boots = host.link.stats.boots
    emu.restart()
    emu.place((0, 1))
    assert wait_for(lambda: host.closed == {(0, 0), (0, 1)}, 2.0)
    assert host.link.stats.boots == boots + 1
    assert host.transitions((0, 0)) == [True]  # the restart did not flicker the cell


def test_cable_pulled_while_a_move_is_made(emu, host):
    emu.place((0, 0))
    assert wait_for(lambda: host.closed == {(0, 0)})
    emu.unplug(1.5)
    emu.lift((0, 0))  # the piece moves while the board has no power
    emu.place((3, 3))
    assert emu.wait_plugged(5.0)
    assert wait_for(lambda: host.link.connected(), 2.0)
    assert time.monotonic() - emu.plugged_at < 1.0
    assert wait_for(lambda: host.closed == {(3, 3)}, 1.0)
    assert host.transitions((0, 0)) == [True, False] and host.transitions((3, 3)) == [True]
    assert host.link.stats.connects == 2


def test_found_again_by_serial_number_under_another_name(emu, monkeypatch):
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    def comports():
        if not emu._plugged.is_set():
            return []
        info = ListPortInfo(emu.tty, skip_link_detection=True)
        info.vid, info.pid, info.serial_number = 0x2E8A, 0x0005, "E6614C311B6B8F2A"
        return [info]

    monkeypatch.setattr(list_ports, "comports", comports)
    h = Host(PortSpec.parse("serial=E6614C311B6B8F2A"))
    try:
        first = h.link.device
        emu.unplug(0.5)
        emu.place((4, 4))
        assert emu.wait_plugged(5.0)
        assert wait_for(lambda: h.closed == {(4, 4)}, 2.0)
        assert h.link.device == emu.tty != first
    finally:
        h.close()


def test_info_and_stop_from_the_command_line(emu, capsys):
    from firmware_bridge.__main__ import main

    assert main(["info", emu.path]) == 0
    assert "board emulator, firmware 1.0.0, protocol 1, 7x6 matrix, 41 LEDs, buttons clock, " \
        "clock:red" in capsys.readouterr().out
    assert main(["stop", emu.path]) == 0
    assert "the REPL is back" in capsys.readouterr().out
    emu.proc.wait(timeout=5.0)  # the emulated firmware left its loop
    assert main(["info", "ttyACM0"]) == 2
    assert "give a device path" in capsys.readouterr().err


def test_a_piece_replaced_while_the_link_is_reopened_is_seen(emu, host):
    """The host hears nothing for longer than SILENCE_S (a stalled port, a starved board)
    and reopens the port; meanwhile an enemy piece is taken and the shooter put on its
    cell. The board did not restart, so its events are asked for, not hidden behind its
    greeting's snapshot (the capture was left with the shooter in hand)."""
    emu.place((2, 2))
    assert wait_for(lambda: host.closed == {(2, 2)})
    emu.mute(1.4)
    emu.script([("lift", (2, 2)), ("place", (2, 2))], HOLD)
    assert wait_for(lambda: host.link.stats.connects == 2, 3.0)
    settle(host, (2, 2), 3)
    assert host.link.stats.boots == 1
