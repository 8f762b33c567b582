"""Every tracker event becomes the journal's line for it, and reads back as the same event."""

import pytest

from boards.events import Committed, Error, Prompt, Rejected, Rolled, Settled, TakenBack
from sensorboard import events
from sensorboard.events import from_tracker, tracker_json

CASES = [
    (Committed(1.23456, 3, "red", "roll 4 e4"),
     {"type": "move", "t": 1.235, "ply": 3, "player": "red", "move": "roll 4 e4"}),
    (Error(2.0, {"a1": "empty"}, ("b2",)),
     {"type": "error", "t": 2.0, "cells": {"a1": "empty"}, "attackers": ["b2"]}),
    (Error(2.5, {"c3": "blue-2"}), {"type": "error", "t": 2.5, "cells": {"c3": "blue-2"}}),
    (Prompt(3.0, ["1", "2", "none"]), {"type": "prompt", "t": 3.0, "options": ["1", "2", "none"]}),
    (Rejected(4.0, "no question is open"),
     {"type": "rejected", "t": 4.0, "reason": "no question is open"}),
    (Rolled(5.0, "blue", "4"), {"type": "roll", "t": 5.0, "player": "blue", "value": "4"}),
    (TakenBack(6.0, 2, "red", "e4-e5"),
     {"type": "takeback", "t": 6.0, "ply": 2, "player": "red", "move": "e4-e5"}),
    (Settled(7.0, ["a", "b"], "a"),
     {"type": "settled", "t": 7.0, "options": ["a", "b"], "answer": "a"}),
]


@pytest.mark.parametrize(("event", "line"), CASES, ids=lambda c: type(c).__name__)
def test_each_tracker_event_is_its_journal_line(event, line):
    assert tracker_json(event) == line
    assert events.from_json(line) == from_tracker(event)
    assert events.from_json(line).to_json() == line


def test_a_kind_the_journal_has_no_line_for_is_refused():
    with pytest.raises(TypeError):
        from_tracker(("not", "an", "event"))


JOURNAL_LINES = [
    {"type": "press", "t": 2.0, "button": "clock"},
    {"type": "press", "t": 2.0, "button": "clock", "player": "red"},
    {"type": "end", "t": 9.0, "result": "1-0", "reason": "adjudication"},
    {"type": "clock", "t": 1.0, "why": "start", "left": {"red": 60.0}, "side": "red",
     "control": "60+1", "phase": "running"},
    {"type": "sensor", "t": 0.5, "cell": "a1", "shows": 2},
    {"type": "move", "t": 3.0, "ply": 1, "player": "clear", "move": "c1-c2",
     "by": "a later version"},
    {"type": "flag", "t": 3.0, "side": "red"},
    {"type": "start", "game": "telec", "uid": "g1", "players": ["blue", "red"]},
]


@pytest.mark.parametrize("line", JOURNAL_LINES, ids=lambda line: line["type"])
def test_every_journal_line_reads_back_and_is_written_the_same(line):
    """Fields left out stay out, fields of a later version are kept, in their order."""
    event = events.from_json(line)
    assert event.to_json() == line
    assert list(event.to_json()) == list(line)


def test_a_field_read_is_the_events_own_and_a_kind_has_no_other():
    move = events.from_json(JOURNAL_LINES[5])
    assert (move.ply, move.move, move.extra) == (1, "c1-c2", {"by": "a later version"})
    with pytest.raises(AttributeError):
        move.colour = "red"  # a kind's fields are its slots: a misspelt one is refused
