"""The TurnView: one frozen value per change of the tracker, the only thing the LEDs, the
guidance words, the terminal and the page read."""

import dataclasses
import pathlib

import pytest

import rules
from boards.tracker import Tracker
from boards.view import Phase

from .test_clock import walled_pawn


def test_a_turn_read_through_its_phases():
    tracker = Tracker(rules.new_game("tessella"), error_delay=1.0)
    assert tracker.view().phase is Phase.IDLE
    tracker.change("e4", False, 0.0)
    view = tracker.view()
    assert view.phase is Phase.MOVING and view.lifted == ("e4",)
    assert view.pieces("e4") == ((), ("clear",)) and not view.present("e4")
    assert dict(view.targets)["e5"] == "move"
    tracker.change("c3", True, 0.5)  # a piece put where no turn puts it
    tracker.tick(2.0)
    view = tracker.view()
    assert view.phase is Phase.ERROR and dict(view.error)["c3"] == "empty"
    tracker.change("c3", False, 2.5)
    tracker.change("e5", True, 3.0)
    view = tracker.view()
    assert view.phase is Phase.IDLE and view.moves == ("e4-e5",) and view.last[0] == {"e4", "e5"}
    tracker.press("takeback", 4.0)
    view = tracker.view()
    assert view.phase is Phase.RESTORING and dict(view.restore) == {"e4": "clear", "e5": "empty"}
    assert view.moves == ()


def test_a_question_its_player_and_the_cells_of_each_option():
    tracker = Tracker(walled_pawn())
    tracker.press("clock", 1.0)  # the shared button: which silent step, or none
    question = tracker.view().question
    assert tracker.view().phase is Phase.ASKING
    assert question.values == ("b2-b1", "b2-c2", "none") and question.player == "yellow"
    assert [o.cells for o in question.options] == [{"b1", "b2"}, {"b2", "c2"}, set()]
    assert question.offered is None and question.no_turn


def test_a_view_is_a_frozen_value_and_a_later_event_gives_a_new_one():
    tracker = Tracker(rules.new_game("tessella"))
    before = tracker.view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.phase = Phase.OVER  # type: ignore[misc]
    tracker.change("e4", False, 0.0)
    assert before.phase is Phase.IDLE and tracker.view() != before
    assert tracker.view() == tracker.view()


def test_the_question_is_kept_with_its_offer_while_it_stays_open():
    tracker = Tracker(walled_pawn())
    tracker.press("clock", 1.0)
    first = tracker.view()
    offered = dataclasses.replace(first, question=first.question.offering(1))
    assert tracker.view(offered).question.on_offer.value == "b2-c2"
    tracker.choose("b2-c2", 2.0)
    assert tracker.view(offered).question is None


VIEWS = ["boards/hints.py", "sensorboard/guidance.py", "sensorboard/terminal.py",
         "sensorboard/web/snapshot.py", "sensorboard/web/server.py"]


@pytest.mark.parametrize("path", VIEWS)
def test_views_read_the_turn_view_not_the_tracker(path):
    text = (pathlib.Path(__file__).parents[2] / path).read_text()
    assert "boards.tracker" not in text and "from .tracker" not in text
    assert ".tracker." not in text and "tracker_module" not in text


def test_a_complete_turn_that_may_go_on_is_held_and_says_what_ends_it():
    from sensorboard.guidance import held_words

    state = rules.new_game("tessella")
    for move in ("b1-a1", "d5-e5"):
        state.push_str(move)
    tracker = Tracker(state)
    for t, (cell, shows) in enumerate([("e4", False), ("e5", False), ("e5", True)]):
        tracker.change(cell, shows, float(t))  # the shooter first: e5 may be a touch
    view = tracker.view()
    assert view.phase is Phase.HELD and view.held and view.waiting == ("e4xe5",)
    assert view.holding == ("e4", "e5")
    assert held_words(view) == ("Held: press the clock to end the turn (clear's clock). "
                                "Clear piece from e4 captures the dark piece on e5: "
                                "complete, but it may still go on.")
    tracker.press("clock", 3.0, "clear")
    assert tracker.view().phase is Phase.IDLE and tracker.view().moves[-1] == "e4xe5"


def test_a_view_for_the_leds_reads_as_the_whole_view_until_the_tracker_changes():
    from boards.view import view_of

    tracker = Tracker(rules.new_game("tessella"))
    changes = [("e4", False), ("e5", False), ("e5", True), ("d5", False)]
    for t, (cell, shows) in enumerate(changes):
        tracker.change(cell, shows, float(t))
        lazy = view_of(tracker, lazy=True)
        assert lazy.lazy and not tracker.view().lazy
        assert lazy == tracker.view() and lazy.reading == tracker.view().reading
        assert lazy.moves == tracker.view().moves and lazy.touched == tracker.view().touched


def test_the_service_hands_out_only_whole_views():
    from hardware.clock import VirtualClock
    from sensorboard.board import BoardOptions, open_board

    clock = VirtualClock()
    service = open_board(BoardOptions("tessella", clock=clock, engine_hints=False)).service
    service.sim_lift("e4")
    for _ in range(5):
        clock.advance(0.01)
        service.step()
    assert service.frame["e4"] == "lifted"
    view = service.view
    assert not view.lazy and view.reading[0][0] == "e4" and view.touched == {"e4"}
    service.sim_place("e5")
    for _ in range(5):
        clock.advance(0.01)
        service.step()
    assert view.reading[0][0] == "e4" and service.view.moves == ("e4-e5",)
