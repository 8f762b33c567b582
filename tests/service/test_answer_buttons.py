"""Questions answered on the board itself: ``hint`` puts the next option on offer (its
cells lit in the ``offer`` role), the clock of the player asked confirms it. Replay's
``press`` lines are the board's buttons."""

import json

import pytest

import rules
from boards.layout import layout_for_game
from sensorboard.replay import parse_events, replay
from sensorboard.service import BoardService

from .helpers import ev, moves
from .helpers import run as run_game

TEBLO_ON_BLOCK = "yellow:b2:23:b1,b2 red:l12:21:h12,i12,j12,k12 yellow"
TESULDA_EXTRAS = "light:e1=Skh,c6=Ssss,d8=Tcs dark:j10=Skh pool:ch light"


def press(t, button, player=None):
    return {"t": t, "op": "press", "button": button, **({"player": player} if player else {})}


def offer(t, steps, player=None):
    """``steps`` presses of ``hint`` from ``t`` on, then the clock (``player``'s side, or
    the shared button): the option ``steps - 1`` is confirmed."""
    return [press(t + 0.1 * k, "hint") for k in range(steps)] + [
        press(t + 0.1 * steps, "clock", player)]


def run(game, lines, position=None):
    state = rules.from_position(game, position) if position else rules.new_game(game)
    events = parse_events([json.dumps(x) for x in lines], "test", state.GEOMETRY.names,
                          state.PLAYERS)
    out, warnings = [], []
    final = replay(state, layout_for_game(game), events, "test", out.append,
                   warn=warnings.append)
    return out, final, warnings


def test_a_teblo_question_answered_with_hint_and_the_shared_clock():
    # the pawn off its block b2 onto c2: a block on c2, the step, or a silent b2-b1 first;
    # not asked while red thinks: the first hint brings the question up, three more offer
    lines = [ev(1.0, "lift", "b2"), ev(1.5, "place", "c2"), *offer(4.0, 4)]
    out, final, warnings = run("teblo", lines, TEBLO_ON_BLOCK)
    prompt = next(x for x in out if x["type"] == "prompt")
    assert prompt["options"] == ["+c2", "b2-b1", "b2-c2", "none"]
    assert moves(out) == ["b2-c2"] and not warnings
    assert final["position"]["c2"] == ["yellow"] and final["position"]["b2"] == ["yellow-block"]


def test_telec_sizes_answered_with_hint_and_each_players_clock():
    lines = [ev(1.0, "place", "a1"), *offer(2.0, 6, "blue"),   # blue 4 onto a1, size 6
             ev(4.0, "place", "a5"), *offer(5.0, 3, "red")]    # red 5 onto a5, size 3
    out, final, warnings = run("telec", lines)
    assert moves(out) == ["roll 4 6", "roll 5 3"] and not warnings
    assert final["position"] == {"a1": ["blue-6"], "a5": ["red-3"]}


def test_the_other_players_clock_does_not_answer():
    lines = [ev(1.0, "place", "a1"), *offer(2.0, 2, "red"), *offer(3.0, 0, "blue")]
    out, _, _ = run("telec", lines)
    # red's clock is held for after blue's answer; blue's clock confirms size 2 (the
    # offer went 1, 2; a later hint press would go on from there)
    assert moves(out) == ["roll 4 2"]


def test_a_clock_press_with_nothing_on_offer_is_no_answer():
    out, _, _ = run("telec", [ev(1.0, "place", "a1"), press(2.0, "clock", "blue")])
    assert moves(out) == [] and out[-1]["type"] == "prompt"


def test_a_tesulda_swap_answered_with_hint_and_the_movers_clock():
    # c6-c9 next to d8: draw or swap asked; the fifth option is swap:s:c9>d8; the draw
    # asked after it is declined with the mover's clock, nothing on offer
    lines = [ev(1.0, "lift", "c6"), ev(1.5, "place", "c9"), *offer(3.0, 5, "light"),
             press(5.0, "clock", "light")]
    out, final, warnings = run("tesulda", lines, TESULDA_EXTRAS)
    assert [x["options"] for x in out if x["type"] == "prompt"][0][4] == "swap:s:c9>d8"
    assert moves(out) == ["c6-c9 swap:s:c9>d8 none"] and not warnings
    assert final["position"]["d8"] == ["light-triangle", "circle", "square", "square"]


def test_hint_steps_through_every_option_and_none_then_wraps():
    lines = [ev(1.0, "place", "a1"), *offer(2.0, 6 + 2, "blue")]  # 6 sizes, then around
    out, _ = run_game("telec", lines)
    assert moves(out) == ["roll 4 2"]


def _service(game, position=None):
    from hardware.clock import VirtualClock
    from sensorboard.replay import VirtualRun

    clock = VirtualClock()
    state = rules.from_position(game, position) if position else rules.new_game(game)
    service = BoardService(state, layout_for_game(game), clock=clock)
    run_ = VirtualRun(service, clock, lambda item: None)

    def frame_at(t):
        """The LEDs at ``t`` (a replay skips the scans in which only a blink changes)."""
        run_.scan_until(t)
        clock.set(t)
        service.step()
        return service.frame

    return service, run_, frame_at


def _telec_service():
    return _service("telec")


def test_the_option_on_offer_lights_its_cells_and_a_size_pulses_its_count():
    service, run_, frame_at = _telec_service()
    service.act("place", "a1")
    run_.scan_until(1.0)
    question = service.view.question
    assert question is not None and question.values == ("1", "2", "3", "4", "5", "6")
    assert question.offered is None
    frames = [frame_at(1.0 + k / 4) for k in range(8)]
    assert {"a1": "choice"} in frames and {} in frames  # every option's cells blink
    for _ in range(3):
        service.act("press", "hint")
    assert service.view.question.on_offer.value == "3"
    frames = [frame_at(3.0 + k / 4) for k in range(10)]  # one cycle: 3 pulses, a pause
    assert {c: r for f in frames for c, r in f.items()} == {"a1": "offer"}
    assert sum(1 for f in frames if f) == 3  # lit three quarter-seconds in a cycle


def test_none_on_offer_lights_the_options_cells_as_declined():
    service, run_, frame_at = _service(
        "tesulda", "light:e1=Skh,d4=Sss dark:d7=Ssc,j10=Skh pool: light")
    for k, (op, cell) in enumerate([("lift", "d4"), ("lift", "d7"), ("place", "d7")]):
        service.act(op, cell)
        run_.scan_until(0.5 * (k + 1))
    run_.scan_until(2.0)
    assert service.view.question.values == ("none", "take:c", "take:cs", "take:s")
    service.act("press", "hint")
    assert service.view.question.on_offer.value == "none"
    assert frame_at(2.1) == frame_at(2.4) == {"d7": "decline"}
    service.act("press", "hint")
    assert service.view.question.on_offer.value == "take:c"
    assert {"d7": "offer"} in [frame_at(2.5 + k / 4) for k in range(4)]


@pytest.mark.parametrize("answer", ["hint", "clock"])
def test_the_page_shows_what_is_on_offer(answer):
    from sensorboard import guidance

    service, run_, _ = _telec_service()
    service.act("place", "a1")
    run_.scan_until(1.0)
    service.act("press", "hint")
    if answer == "clock":
        service.act("press", "clock", "blue")
        assert guidance.asked(service.view)["offered"] is None  # answered: no question
        return
    assert guidance.asked(service.view)["offered"] == "1"


def test_the_boards_own_hint_and_clock_buttons_answer_a_size():
    """The shipped Telec layout's GPIO buttons (hint on GPIO20, clock on GPIO21), pressed
    on the simulated pins and read by the same debounced button reader as on a Pi."""
    from hardware.base import Press

    service, run_, frame_at = _telec_service()
    service.act("place", "a1")
    run_.scan_until(1.0)
    gpio, pins = service.buttons.gpio, service.buttons.pins
    t = 1.0

    def push(button):
        nonlocal t
        for down in (gpio.LOW, gpio.HIGH):  # held 40 ms, then let go for 40 ms
            gpio.set_input(pins[Press(button)], down)
            for _ in range(20):
                t += 0.002
                frame_at(t)

    for _ in range(4):
        push("hint")
    assert service.view.question.on_offer.value == "4"
    push("clock")
    assert service.view.moves == ("roll 4 4",)



def test_an_answer_the_board_refused_leaves_its_question_open_in_the_record():
    from hardware.clock import VirtualClock
    from sensorboard.gamelog import GameLog
    from sensorboard.replay import VirtualRun

    state = rules.from_position("teblo", TEBLO_ON_BLOCK)
    clock, items = VirtualClock(), []
    service = BoardService(state, layout_for_game("teblo"), clock=clock,
                           listeners=[items.append])
    run_ = VirtualRun(service, clock, lambda item: None)
    service.sim_lift("b2")
    run_.scan_until(1.0)
    service.sim_place("c2")  # the pawn off its block: a block on c2, a step, or b2-b1 first
    run_.scan_until(2.5)
    assert service.tracker.prompt is None  # not asked while red thinks
    service.act("press", "hint")  # brought up
    assert service.tracker.prompt is not None
    service.act("choose", "b2-b3")  # not offered: refused
    service.act("choose", "b2-c2")
    run_.scan_until(3.5)
    log = GameLog({"type": "start", "game": "teblo", "options": {},
                   "position": TEBLO_ON_BLOCK, "players": ["yellow", "red"]}, 0.0)
    seen = []
    for item in items:
        log.apply(item)
        seen.append((item["type"], log.open))
    kinds = [kind for kind, _ in seen]
    assert kinds.count("answer") == 2 and "rejected" in kinds and "move" in kinds
    assert seen[kinds.index("rejected")] == ("rejected", "question")  # still asked
    assert seen[-1][1] is None  # the answer taken closed it
