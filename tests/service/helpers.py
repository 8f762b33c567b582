"""Running replay input through the whole pipeline inside the tests."""

import rules
from boards.layout import layout_for_game
from sensorboard.replay import parse_events, replay


def run(game, lines, layout=None, **kw):
    """Replay ``lines`` (dicts) for ``game`` (on ``layout``, default the shipped one);
    returns (output items, final line)."""
    import json

    state = rules.new_game(game)
    text = [json.dumps(x) for x in lines]
    events = parse_events(text, "test", state.GEOMETRY.names, state.PLAYERS)
    out = []
    final = replay(state, layout or layout_for_game(game), events, "test", out.append, **kw)
    return out, final


def moves(out):
    return [x["move"] for x in out if x["type"] == "move"]


def ev(t, op, cell):
    return {"t": t, "op": op, "cell": cell}


def random_state(game, rng, plies, prefer=None):
    """A seeded random game of at most ``plies`` plies (``prefer(legal)`` may narrow the
    choice); returns the state, whose move_stack is the line."""
    import rules as rules_

    state = rules_.new_game(game)
    while state.outcome() is None and len(state.move_stack) < plies:
        legal = state.legal_moves()
        state.push(rng.choice((prefer and prefer(legal)) or legal))
    return state


def with_turn(game, line, state, move, rng, step=0.3):
    """Events for ``line`` from the start, then ``move`` carried out from ``state``;
    returns (events, the time after the last one)."""
    import random

    import rules as rules_
    from boards.choreography import game_events, turn_ops

    events = game_events(rules_.new_game(game), [state.parse_move(str(m)) for m in line],
                         random.Random(0), step=step)
    t = events[-1]["t"] + 1
    for op, cell in turn_ops(state, move, rng):
        events.append(ev(round(t, 3), op, cell))
        t += step
    return events, t


def prompts_seen(state, layout, events, **kw):
    """Carry out demo script ``events`` on a simulated board from ``state``; returns each
    prompt the board gave with the state's legal decisions (notations) at that moment, the
    position text (``state.position_str()``) then, and whether ``none`` may also answer
    "no turn was made" (``tracker.no_turn``)."""
    from hardware.clock import VirtualClock
    from sensorboard.replay import VirtualRun
    from sensorboard.service import BoardService

    clock = VirtualClock()
    service = BoardService(state, layout, clock=clock, backend="sim", **kw)
    seen = []

    def check(item, tracker=service.tracker):
        if item["type"] == "prompt":
            st = tracker.state
            seen.append((item, [st.move_str(m) for m in st.legal_moves()], st.position_str(),
                         tracker.no_turn))

    service.listeners.append(check)
    VirtualRun(service, clock, lambda item: None).play(events)
    return seen
