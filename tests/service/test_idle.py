"""A quiet board costs a scan and nothing more; a diode-less board never invents pieces."""

import random

import rules
from boards.choreography import game_events
from boards.layout import layout_for_game
from boards.tracker import Tracker
from hardware.clock import VirtualClock
from sensorboard import demo, live
from sensorboard.latency import change_to_frame
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService
from tests.hardware.test_backends import tiny_layout


def settled_service(layout=None):
    clock = VirtualClock()
    items = []
    service = BoardService(rules.new_game("tessella"), layout or layout_for_game("tessella"),
                           clock=clock, listeners=[items.append])
    return service, clock, items


def scan(service, clock, seconds):
    out = []
    for _ in range(round(seconds / service.scan_period)):
        clock.advance(service.scan_period)
        out += service.step()
    return out


def test_a_quiet_board_shows_no_new_frame_and_views_do_not_redraw(monkeypatch):
    service, clock, _ = settled_service()
    scan(service, clock, 0.1)
    renders = []
    monkeypatch.setattr(live, "render", lambda s, color: renders.append(1) or "board")
    view = live.TerminalView(tty=False)
    view.update(service, [])
    assert renders == [1]
    shows, revision = service.strip.shows, service.revision
    for _ in range(500):  # one second of scans
        clock.advance(service.scan_period)
        view.update(service, service.step())
    assert renders == [1]  # nothing was even rendered again
    assert (service.strip.shows, service.revision) == (shows, revision)


def test_a_move_still_draws_lights_and_then_goes_quiet(monkeypatch):
    service, clock, _ = settled_service()
    scan(service, clock, 0.05)
    revision, shows = service.revision, service.strip.shows
    service.sim_lift("c1")
    scan(service, clock, 0.05)
    assert service.revision > revision and service.strip.shows > shows
    assert "c1" in service.frame  # lit: a piece in hand came from here
    service.sim_place("bc12")
    out = scan(service, clock, 0.05)
    assert [x["move"] for x in out if x["type"] == "move"] == ["c1-bc12"]
    scan(service, clock, 2.5)  # the last move's light goes out after two seconds
    assert service.frame == {}
    quiet = (service.revision, service.strip.shows)
    scan(service, clock, 0.5)
    assert (service.revision, service.strip.shows) == quiet


def test_without_diodes_a_ghost_is_reported_unreadable_not_taken_for_a_piece():
    layout = tiny_layout(diodes=False)
    service, clock, items = settled_service(layout)
    # The start position joins row 4 to column 2 through other pieces (a4 on [4,3], d1 on
    # [0,3], c1 on [0,2]), so the empty de34 on [4,2] reads closed: a ghost.
    assert service.sim_pieces("de34") == 0
    assert layout.cell_sensor["de34"] in service.scanner.read()
    assert "de34" in service.unreadable
    assert not service.tracker.occupied("de34")  # no piece invented
    assert not service.tracker.error and not service.tracker.differing  # read as set up
    reported = [x for x in items if x["type"] == "unreadable"]
    assert "de34" in reported[-1]["cells"]
    # A piece put on a cell ghosting already makes read closed cannot be seen either:
    # it is reported, and nothing is made up in its place.
    service.sim.place(layout.cell_sensor["cd34"])
    scan(service, clock, 2.0)
    assert "cd34" in service.unreadable and not service.tracker.occupied("cd34")
    assert not service.tracker.error



def counted_listings(monkeypatch) -> dict[str, int]:
    """Count, from now on, how often the tracker lists a position's turns while it
    handles a change, press or answer (``at_event``, rather than in an idle scan), and
    how many idle scans list another position than the one to play (``ahead``: the
    next player's, while a turn waits or one the sensors do not see was possible, or a
    question about the turn is open: ``asked``)."""
    expand, prepare = Tracker._expand, Tracker.prepare
    count = {"idle": 0, "at_event": 0, "ahead": 0, "asked": 0}
    preparing = []

    def counted_expand(self):
        if not count["idle"]:
            count["at_event"] += 1
        elif preparing[-1] is not self:
            count["ahead"] += 1
            count["asked"] += preparing[-1].prompt is not None
        return expand(self)

    def counted_prepare(self):
        count["idle"] += 1
        preparing.append(self)
        try:
            return prepare(self)
        finally:
            count["idle"] -= 1
            preparing.pop()

    monkeypatch.setattr(Tracker, "_expand", counted_expand)
    monkeypatch.setattr(Tracker, "prepare", counted_prepare)
    return count


def listings_at_events(monkeypatch, game, events):
    """Carry out demo script ``events`` on ``game``'s simulated board; returns the
    listings at events and ahead (:func:`counted_listings`)."""
    count = counted_listings(monkeypatch)
    clock = VirtualClock()
    service = BoardService(rules.new_game(game), layout_for_game(game), clock=clock,
                           backend="sim")
    VirtualRun(service, clock, lambda item: None).play(events)
    return count["at_event"], count["ahead"]


def test_while_a_turn_waits_the_idle_scans_list_the_next_players_turns(monkeypatch):
    # Tulaga: a claim is complete once its stones are down, yet may go on to a reap;
    # it waits, and the next player's first touch shows it was done. That touch finds
    # the next player's turns listed, and so does every other event.
    rng = random.Random(2)
    state, line = rules.new_game("tulaga"), []
    while state.outcome() is None and len(line) < 30:
        legal = state.legal_moves()
        move = rng.choice([m for m in legal if m.reap] or [m for m in legal if m.stones]
                          or legal)
        line.append(move)
        state.push(move)
    events = game_events(rules.new_game("tulaga"), line, rng, step=0.3)
    at_event, ahead = listings_at_events(monkeypatch, "tulaga", events)
    assert ahead > 0 and at_event == 0


def test_a_turn_the_sensors_do_not_see_has_the_next_turns_listed_too(monkeypatch):
    # Telec with physical dice: a turn the sensors cannot see (a pyramid from the stash
    # stacked onto one's own, a roll that allows nothing) is shown done by the next
    # player's move, which finds that player's turns listed.
    layout = layout_for_game("telec")
    events = demo.script("telec", demo.pick_line("telec", 8, 30), layout, random.Random(8),
                         step=0.3, pause=0.5, slip=False)
    at_event, ahead = listings_at_events(monkeypatch, "telec", events)
    assert ahead > 0 and at_event == 0


def test_an_answer_about_a_turn_finds_the_next_turns_listed(monkeypatch):
    # Telec: a turn of several decisions whose rest the sensors cannot see is asked one
    # decision at a time; while a question is open the idle scans list the next position
    # after each way the answer may end the turn with, so the answer that ends it finds
    # the next player's turns listed (seed 4 of the latency games listed them at it).
    count = counted_listings(monkeypatch)
    change_to_frame(layout_for_game("telec"), games=1, plies=30, first_seed=4)
    assert count["asked"] > 0 and count["at_event"] == 0
