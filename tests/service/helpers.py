"""Running replay input through the whole pipeline inside the tests."""

import rules
from boards.layout import layout_for_game
from sensorboard.replay import parse_events, replay


def run(game, lines, **kw):
    """Replay ``lines`` (dicts) for ``game``; returns (output items, final line)."""
    import json

    state = rules.new_game(game)
    text = [json.dumps(x) for x in lines]
    events = parse_events(text, "test", state.GEOMETRY.names)
    out = []
    final = replay(state, layout_for_game(game), events, "test", out.append, **kw)
    return out, final


def moves(out):
    return [x["move"] for x in out if x["type"] == "move"]


def ev(t, op, cell):
    return {"t": t, "op": op, "cell": cell}
