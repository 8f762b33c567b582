"""What the LEDs show on a Telec board, with and without the Center Zone's drop sensor: the
tile a roll indicates, a lifted piece's steps (a stack onto an own piece too), bumps in the
capture colour, the Center Zone entrance."""

import pytest

import rules
from boards import hints
from boards.dice import ElectronicDice
from boards.layout import load_layout, shipped_layouts
from boards.tracker import Tracker
from hardware.clock import VirtualClock
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService

LAYOUTS = ["telec", "telec-nodrop"]


def tracker(position, layout, dice=None):
    board = load_layout(shipped_layouts()[layout])
    state = rules.from_position("telec", position)
    blind = frozenset(state.GEOMETRY.names) - board.cell_sensor.keys()
    return Tracker(state, blind=blind, dice=dice)


# blue: a 5 on a3 (a Center Zone entrance), a 6 on a2; red: a 3 on a4, a stack on c4.
POSITION = "a3=b5,a2=b6,a4=r3,c4=r21 blue:1122334456:0 red:12445566:1 blue turn"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_piece_lifted_on_an_entrance_lights_its_steps_its_bump_and_the_center_zone(layout):
    tr = tracker(POSITION, layout)
    tr.change("a3", False, 1.0)
    # a2: onto blue's own 6 (a stack the sensors cannot see, so a3-a2 is complete and
    # held until blue's clock); a4: red's 3, bumped
    assert hints.plan(tr.view(), 1.0) == {"a3": "held", "a2": "held", "a4": "capture",
                                          "cz": "move"}
    assert hints.PALETTE["capture"] != hints.PALETTE["move"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_piece_off_the_entrances_does_not_light_the_center_zone(layout):
    tr = tracker(POSITION, layout)
    tr.change("a2", False, 1.0)
    frame = hints.plan(tr.view(), 1.0)
    assert "cz" not in frame and frame["a1"] == "move" and frame["b2"] == "move"
    assert frame.get("a3") != "move"  # a 6 does not go onto a 5


@pytest.mark.parametrize("layout", LAYOUTS)
def test_nothing_in_hand_lights_nothing(layout):
    tr = tracker(POSITION, layout)
    assert hints.plan(tr.view(), 5.0) == {}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_stack_bumps_a_single_in_the_capture_colour(layout):
    tr = tracker("b4=b21,c4=r5 blue:1233445566:0 red:11223344566:0 blue turn", layout)
    tr.change("b4", False, 1.0)
    assert hints.plan(tr.view(), 1.0)["c4"] == "capture"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_electronic_roll_lights_the_indicated_tile_in_its_own_colour(layout):
    die = ElectronicDice(seed=3)
    tr = tracker("- blue:112233445566:0 red:112233445566:0 blue turn first", layout, die)
    tr.press("roll", 1.0)
    tile = rules.GAMES["telec"].FACE_TILE["blue"][tr.rolled]
    assert hints.plan(tr.view(), 1.0) == {tile: "roll"}
    assert hints.PALETTE["roll"] not in (hints.PALETTE["move"], hints.PALETTE["capture"])


def test_the_center_zone_led_lights_on_the_board_without_its_sensor():
    """Through the service: the LED under the hole (no sensor there) shows the way in."""
    layout = load_layout(shipped_layouts()["telec-nodrop"])
    clock = VirtualClock()
    state = rules.from_position("telec", POSITION)
    service = BoardService(state, layout, clock=clock, backend="sim")
    run = VirtualRun(service, clock, lambda item: None)
    run.scan_until(1.0)
    service.sim_lift("a3")
    run.scan_until(1.5)
    assert service.frame["cz"] == "move"
    assert service.strip.shown()[layout.cell_led["cz"]] == hints.PALETTE["move"]
