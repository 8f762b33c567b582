"""Evidence predicates on hand-built candidates: a board of four cells with presence
sensors, red's piece on a, blue's on c, and what the sensors showed scan by scan."""

from boards import evidence
from boards.constants import presence
from boards.evidence import Evidence, Seen
from boards.turns import Candidate

START = {"a": ("red",), "b": (), "c": ("blue",), "d": ()}

# red steps a-b
STEP = Candidate(
    "a-b", "a-b", before={"a": ("red",), "b": ()}, after={"a": (), "b": ("red",)},
    allowed={"a": frozenset({True, False}), "b": frozenset({True, False})},
    final={"a": False, "b": True}, lift={}, gives=(("a", True),),
    takes={"b": frozenset({True})}, steps=({"a": (), "b": ("red",)},))
# red takes blue: a x c (blue lifted off c, red put there)
CAPTURE = Candidate(
    "axc", "axc", before={"a": ("red",), "c": ("blue",)}, after={"a": (), "c": ("red",)},
    allowed={"a": frozenset({True, False}), "c": frozenset({True, False})},
    final={"a": False, "c": True}, lift={"c": False}, gives=(("a", True), ("c", True)),
    steps=({"a": (), "c": ("red",)},))


def sensed(*scans: dict[str, bool]) -> Evidence:
    """The evidence after ``scans``, each the cells one scan changed and what they show."""
    before = {cell: presence(p) for cell, p in START.items()}
    current, history = dict(before), {}
    for n, scan in enumerate(scans, 1):
        for cell, value in scan.items():
            current[cell] = value
            history.setdefault(cell, []).append((n, value))
    seen = Seen(before, {cell: {before[cell], *(v for _, v in h)} for cell, h in history.items()})
    differing = {cell for cell in current if current[cell] != before[cell]}
    return Evidence(presence, START, before, current, seen, history, differing,
                    list(scans[-1]) if scans else [])


def test_a_piece_in_hand_is_consistent_with_every_turn_it_begins_and_completes_none():
    ev = sensed({"a": False})
    assert evidence.consistent(ev, STEP) and evidence.consistent(ev, CAPTURE)
    assert not evidence.complete(ev, STEP) and not evidence.complete(ev, CAPTURE)


def test_a_step_done_is_complete_and_rules_out_the_capture():
    ev = sensed({"a": False}, {"b": True})
    assert evidence.shows_done(ev, STEP)
    assert not evidence.consistent(ev, CAPTURE)
    assert evidence.mismatch(ev, CAPTURE) == {"b": "empty"}


def test_a_capture_needs_the_enemy_lifted_before_the_capturing_piece_arrives():
    ev = sensed({"c": False}, {"a": False}, {"c": True})
    assert evidence.replaced(ev, CAPTURE, "c", False)
    assert evidence.shows_done(ev, CAPTURE)
    assert evidence.departure(ev, "a") == 2


def test_an_enemy_lifted_and_put_back_before_the_capturing_piece_left_is_a_touch():
    ev = sensed({"c": False}, {"c": True}, {"a": False})
    assert not evidence.replaced(ev, CAPTURE, "c", False)
    assert not evidence.complete(ev, CAPTURE)
    assert evidence.consistent(ev, CAPTURE)  # still in progress: red's piece is in hand


def test_a_piece_arriving_before_any_left_is_an_excess_named_in_the_mismatch():
    ev = sensed({"b": True})
    assert evidence.excess(ev, STEP) == (1, ["b"])
    assert not evidence.consistent(ev, STEP)
    assert evidence.mismatch(ev, STEP) == {"b": "empty"}


def test_a_stray_where_no_turn_reaches_is_named_with_what_it_should_show():
    ev = sensed({"a": False}, {"d": True})
    assert not evidence.consistent(ev, STEP)
    assert evidence.mismatch(ev, STEP) == {"d": "empty"}


def test_the_next_step_names_the_cells_still_to_change():
    assert evidence.next_step(sensed(), STEP) == {"a": (("red",), ()), "b": ((), ("red",))}
    assert evidence.next_step(sensed({"a": False}), STEP) == {"b": ((), ("red",))}
    assert evidence.stage(sensed({"a": False}, {"b": True}), STEP) == (1, {})


def test_a_piece_put_back_where_the_waiting_turn_changes_nothing():
    ev = sensed({"a": False}, {"b": True}, {"c": False}, {"c": True})
    assert evidence.put_back(ev, [STEP])
    assert not evidence.put_back(ev, [CAPTURE])


def test_the_trackers_evidence_is_never_stale(monkeypatch):
    """The tracker makes its evidence once per change of the board and hands it out until
    the next: after every input (of the tracker, and of each reading it follows while a
    question is open) it holds what the tracker holds now. Streams with random handling
    habits on boards that ask questions and hold turns (Teblo on reed switches, Telec)."""
    import random

    from boards.tracker import Tracker

    from .truth import Mix, run_stream

    fields = ("before_pieces", "before", "current", "seen", "history", "differing",
              "batch_cells")
    checked = []

    def checking(name):
        original = getattr(Tracker, name)

        def wrapped(self, *args, **kwargs):
            out = original(self, *args, **kwargs)
            ev = self.evidence
            stale = [f for f in fields if getattr(ev, f) is not getattr(self, f)]
            assert not stale, f"after {name}{args}: the evidence's {stale} are not the tracker's"
            checked.append(name)
            return out
        monkeypatch.setattr(Tracker, name, wrapped)

    for name in ("changes", "press", "choose", "tick", "flush", "put_right"):
        checking(name)
    for game, layout, seed in (("teblo", "teblo", 10_003), ("telec", "telec", 10_001),
                               ("tulaga", "tulaga", 10_002)):
        run_stream(game, layout, seed, plies=10, mix=Mix.random(random.Random(seed)))
    assert {"changes", "press", "choose", "tick"} <= set(checked)
