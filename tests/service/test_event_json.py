"""Every tracker event becomes the journal's line for it, and reads back as the same event."""

import pytest

from boards.events import Committed, Error, Prompt, Rejected, Rolled, Settled, TakenBack
from sensorboard import events
from sensorboard.service import event_json, typed

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
    assert event_json(event) == line == typed(event).to_json()
    assert events.from_json(line) == typed(event)


def test_a_kind_the_journal_has_no_line_for_is_refused():
    with pytest.raises(TypeError):
        typed(("not", "an", "event"))
