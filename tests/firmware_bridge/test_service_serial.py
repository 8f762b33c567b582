"""The whole service on the ``serial`` backend over a real pty: the firmware emulator in its
own process scans the simulated board; the host commits exactly the moves played, through
faults on the line, a restart of the board and a pulled cable."""

import json
import random
import time

import pytest

import rules
from boards.layout import layout_for_game
from firmware_bridge.emulated import wait_for
from hardware.backends import HardwareConfig
from hardware.clock import RealClock
from sensorboard import demo as demos
from sensorboard.replay import parse_events, replay
from sensorboard.service import SCAN_PERIOD, BoardService

SPEED = 5.0  # the demo's timeline played this many times faster


def serial_service(game: str) -> BoardService:
    return BoardService(rules.new_game(game), layout_for_game(game), clock=RealClock(),
                        backend="serial", config=HardwareConfig(serial_port="emulator"))


def run_for(service, seconds, out):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out += service.step()
        time.sleep(SCAN_PERIOD)


def play(service, events, faults=None):
    """Carry out the script on the emulated board in real time (SPEED times faster),
    scanning every 2 ms; ``faults(k, emulator)`` runs before event k. Returns the output."""
    out: list[dict] = []
    emulator = service.sim.emulator
    start = time.monotonic()
    for k, ev in enumerate(events):
        # a few scans at least, as a host keeps scanning however late the script runs
        run_for(service, max(0.01, start + ev["t"] / SPEED - time.monotonic()), out)
        # a loaded machine may fall behind the script: each change is read before the next
        settle_until = time.monotonic() + 2.0
        while not service.sensed() and time.monotonic() < settle_until:
            run_for(service, SCAN_PERIOD, out)
        if faults is not None:
            faults(k, emulator)
        out += demos.apply(service, ev)
    run_for(service, 0.3, out)
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline and not (service.settled() and service.tracker.prepared):
        run_for(service, 0.05, out)
    return out + service.flush()


def sim_replay(game, events):
    """The same script through the simulated backend on a virtual clock: the reference."""
    state = rules.new_game(game)
    out: list[dict] = []
    lines = [json.dumps(e) for e in events]
    final = replay(state, layout_for_game(game), parse_events(lines, "demo", state.GEOMETRY.names),
                   "demo", out.append)
    return out, final


def moves(out):
    return [(x["ply"], x["move"]) for x in out if x["type"] == "move"]


@pytest.fixture
def tessella():
    service = serial_service("tessella")
    yield service
    service.close()


def test_the_demo_game_over_the_serial_link_commits_every_move(tessella):
    events = demos.load("tessella")
    expected, final = sim_replay("tessella", events)
    out = play(tessella, events)
    assert moves(out) == moves(expected) and len(moves(out)) >= 10
    assert tessella.final() == final
    assert tessella.hardware.matrix.link.stats.gaps == 0


def test_faults_on_the_line_lose_no_move_and_invent_none(tessella):
    events = demos.load("tessella")
    expected, final = sim_replay("tessella", events)
    rng = random.Random(11)
    kinds = ["drop", "corrupt", "truncate", "corrupt_in"]

    def faults(k, emulator):
        if k % 3 == 1:
            emulator.fault(rng.choice(kinds), 1)
        if k % 7 == 4:
            emulator.noise(bytes(rng.randrange(256) for _ in range(20)))

    out = play(tessella, events, faults)
    assert moves(out) == moves(expected)
    assert tessella.final() == final
    stats = tessella.hardware.matrix.link.stats
    assert stats.damaged + stats.gaps >= 3


def test_a_restart_and_a_pulled_cable_in_mid_game(tessella):
    """Move 1 normally; the board restarts; move 2; the cable is pulled and move 3 is made
    with the board unpowered; the link is back within a second of the cable and move 3 is
    committed from the snapshot, as ordinary changes."""
    state = rules.new_game("tessella")
    cells = tessella.layout.cell_sensor
    line = []
    for _ in range(3):
        move = sorted(state.legal_moves(), key=str)[0]
        line.append(move)
        state.push(move)
    from boards.choreography import turn_ops

    replayed = rules.new_game("tessella")
    ops = []
    for move in line:
        ops.append(turn_ops(replayed, move, random.Random(0)))
        replayed.push(move)
    assert all(op in ("lift", "place") for turn in ops for op, _ in turn)
    emulator = tessella.sim.emulator
    link = tessella.hardware.matrix.link
    out: list[dict] = []

    def carry_out(turn):
        for op, cell in turn:
            (tessella.sim_lift if op == "lift" else tessella.sim_place)(cell)
            run_for(tessella, 0.12, out)

    carry_out(ops[0])
    run_for(tessella, 0.3, out)
    emulator.restart()
    run_for(tessella, 0.3, out)
    carry_out(ops[1])
    run_for(tessella, 0.3, out)
    assert len(moves(out)) == 2 and link.stats.boots == 2

    emulator.unplug(2.0)
    run_for(tessella, 0.3, out)
    assert not link.connected()
    carry_out(ops[2])  # nobody sees these: the board has no power
    assert emulator.wait_plugged(5.0)
    assert wait_for(link.connected, 1.0)
    back = time.monotonic() - emulator.plugged_at
    run_for(tessella, 0.5, out)
    assert back < 1.0
    assert [m for _, m in moves(out)] == [str_of(line, k) for k in range(3)]
    assert all(x["type"] == "move" for x in out), out  # no error, no question on the way
    assert {cells[c] for c, p in replayed.physical().items()} == link.closed_cells()


def str_of(line, k):
    state = rules.new_game("tessella")
    for m in line[:k]:
        state.push(m)
    return state.move_str(line[k])



def test_a_capture_made_while_the_link_is_reopened_is_committed(tessella):
    """The capture's lifts and places made by the emulator's own script op while the board
    is muted past the host's silence limit: the host reopens the port, asks for the events
    it missed, and commits the capture with nothing in hand (the greeting's snapshot hid
    the enemy taken and the shooter put in its place: the shooter stayed in hand)."""
    out: list[dict] = []
    for op, cell in (("lift", "b1"), ("place", "a1")):
        tessella.act(op, cell)
        run_for(tessella, 0.05, out)
    run_for(tessella, 0.3, out)
    assert moves(out) == [(1, "b1-a1")]
    emulator, cells = tessella.sim.emulator, tessella.layout.cell_sensor
    emulator.mute(1.4)
    emulator.script([("lift", cells["a1"]), ("lift", cells["a2"]), ("place", cells["a1"])])
    run_for(tessella, 2.5, out)
    assert moves(out) == [(1, "b1-a1"), (2, "a2xa1")]
    assert not tessella.tracker.differing
    assert tessella.hardware.matrix.link.stats.connects == 2
