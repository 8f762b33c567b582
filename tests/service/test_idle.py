"""A quiet board costs a scan and nothing more; a diode-less board never invents pieces."""

import rules
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard import live
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
