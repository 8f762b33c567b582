"""A new game from the page closes the old board before opening the new one: on a Pi the
same GPIO pins and LEDs are claimed by both, and a pin cannot be claimed twice."""

import pytest

from hardware.backends import BackendError, BackendSpec, register_backend
from hardware.clock import VirtualClock
from hardware.sim import open_sim
from sensorboard.web.server import ActionError, WebSession, default_factory

claimed: list[str] = []  # what the boards opened hold now, in order of events
events: list[str] = []


def open_exclusive(layout, config, clock):
    """The sim backend, but its pins can be held by one board at a time (as GPIO lines)."""
    if claimed:
        raise BackendError(f"GPIO{layout.row_pins[0]}: busy (held by the {claimed[0]} board)")
    hardware = open_sim(layout, config, clock)
    claimed.append(layout.game)
    events.append(f"open {layout.game}")

    def release():
        dark = not any(map(any, hardware.strip.shown()))
        events.append(f"close {layout.game} (LEDs {'dark' if dark else 'lit'})")
        claimed.remove(layout.game)

    hardware.closers.append(release)
    return hardware


@pytest.fixture
def exclusive():
    from hardware import backends

    register_backend(BackendSpec("exclusive", "tests.web.test_new_game:open_exclusive"))
    claimed.clear()
    events.clear()
    yield
    backends._registered.pop("exclusive")


def test_the_old_board_lets_go_before_the_new_one_opens(exclusive):
    clock = VirtualClock()
    session = WebSession("tessella", default_factory("exclusive", clock), clock=clock)
    session.service.sim_lift("b1")  # the old board shows a lifted piece
    clock.advance(0.05)
    session.step()
    session.new_game("tulaga")
    assert events == ["open tessella", "close tessella (LEDs dark)", "open tulaga"]
    assert session.service.tracker.state.NAME == "tulaga" and claimed == ["tulaga"]


def test_a_board_that_cannot_open_leaves_the_old_game_on_the_board(exclusive, monkeypatch):
    clock = VirtualClock()
    session = WebSession("tessella", default_factory("exclusive", clock), clock=clock)
    opener = open_exclusive

    def refuse_tulaga(layout, config, clock):
        if layout.game == "tulaga":
            raise BackendError("GPIO17: busy")
        return opener(layout, config, clock)

    monkeypatch.setattr("tests.web.test_new_game.open_exclusive", refuse_tulaga)
    with pytest.raises(ActionError) as fault:
        session.new_game("tulaga")
    assert fault.value.status == 409
    assert fault.value.message == ("cannot set up tulaga: GPIO17: busy; a new game of "
                                   "tessella is on the board")
    assert session.service.tracker.state.NAME == "tessella" and claimed == ["tessella"]


def test_each_game_from_the_page_rolls_its_own_die():
    """A run's die is seeded once; each new game of the page goes on from that seed, so
    the second game's rolls are not the first game's again (and --seed still fixes both)."""
    import rules

    def rolls(board) -> list[str]:
        state = rules.new_game("telec")
        state.push_str("roll")
        faces = [state.move_str(board.service.tracker.dice.roll(state)) for _ in range(12)]
        board.close()
        return faces

    def session_rolls() -> list[list[str]]:
        make = default_factory(clock=VirtualClock(), options={"telec": ["dice=electronic"]})
        return [rolls(make("telec")), rolls(make("telec"))]

    first, second = session_rolls()
    assert first != second
    assert session_rolls() == [first, second]
