"""The tracker's phases: the transition table in boards/phases.py's docstring is the one
the code enforces, and real streams only take transitions it names."""

import random
import re
import tomllib
from pathlib import Path

import pytest

import rules
from boards import phases
from boards.phases import TRANSITIONS, Phase
from boards.tracker import Tracker
from tests.boards.truth import Mix, boards, run_stream


def documented() -> dict[Phase, frozenset[Phase]]:
    """The rows of the docstring's table (between its second and last ``===`` rules)."""
    lines = phases.__doc__.splitlines()
    rules_at = [k for k, line in enumerate(lines) if line.startswith("=====")]
    table = {}
    for line in lines[rules_at[1] + 1:rules_at[2]]:
        name, followers = re.fullmatch(r"``(\w+)``\s+(.*)", line).groups()
        table[Phase[name]] = frozenset(Phase[n] for n in re.findall(r"``(\w+)``", followers))
    return table


def test_the_docstring_table_is_the_one_the_code_enforces():
    assert documented() == TRANSITIONS
    assert set(TRANSITIONS) == set(Phase)


def test_a_transition_outside_the_table_is_flagged_and_the_suite_fails_on_it():
    with pytest.warns(phases.UnlistedTransition, match="IDLE to ERROR"):
        assert phases.enter(Phase.IDLE, Phase.ERROR) is Phase.ERROR
    with pytest.warns(phases.UnlistedTransition, match="RESTORING to MOVING"):
        phases.enter(Phase.RESTORING, Phase.MOVING)
    assert "error::boards.phases.UnlistedTransition" in _pytest_filters()
    assert phases.enter(Phase.OVER, Phase.OVER) is Phase.OVER


@pytest.fixture
def taken(monkeypatch) -> set[tuple[Phase, Phase]]:
    """Every transition a tracker takes (a phase that stays included)."""
    seen: set[tuple[Phase, Phase]] = set()
    enter = phases.enter

    def record(was: Phase, now: Phase) -> Phase:
        seen.add((was, now))
        return enter(was, now)

    monkeypatch.setattr(phases, "enter", record)
    return seen


def test_streams_take_only_transitions_in_the_table(taken):
    for game, layout in boards():
        for seed in (3, 4):
            mix = Mix.random(random.Random(seed))
            mix.answer = seed % 2 == 0
            run_stream(game, layout, seed, plies=10, mix=mix)
    moved = {(a, b) for a, b in taken if a is not b}
    assert all(b in TRANSITIONS[a] for a, b in moved)
    # the streams make and ask turns, wait, and put errors right
    assert {(Phase.IDLE, Phase.MOVING), (Phase.MOVING, Phase.IDLE), (Phase.IDLE, Phase.ASKING),
            (Phase.ASKING, Phase.IDLE), (Phase.MOVING, Phase.ERROR),
            (Phase.ERROR, Phase.MOVING)} <= moved


def test_a_takeback_puts_the_board_right_then_play_goes_on(taken):
    tracker = Tracker(rules.new_game("tessella"))
    assert tracker.phase is Phase.IDLE
    tracker.change("e4", False, 0.0)
    assert tracker.phase is Phase.MOVING
    tracker.change("e5", True, 0.5)
    tracker.press("takeback", 1.0)
    assert tracker.phase is Phase.RESTORING
    tracker.change("e5", False, 1.5)
    assert tracker.phase is Phase.RESTORING  # e4 still empty
    tracker.change("e4", True, 2.0)
    assert tracker.phase is Phase.IDLE
    assert tracker.view().phase is Phase.IDLE
    assert {(Phase.MOVING, Phase.IDLE), (Phase.IDLE, Phase.RESTORING),
            (Phase.RESTORING, Phase.IDLE)} <= taken


def _pytest_filters() -> list[str]:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    return tomllib.loads(pyproject.read_text())["tool"]["pytest"]["ini_options"]["filterwarnings"]


def test_the_phase_kept_is_the_one_the_state_shows_after_every_input(monkeypatch):
    """The tracker works its phase out after an input that may change it (not at a tick
    that says nothing): after every input, of the tracker and of each reading it follows,
    the phase it keeps is the one its state shows."""
    checked = []

    def checking(name):
        original = getattr(Tracker, name)

        def wrapped(self, *args, **kwargs):
            out = original(self, *args, **kwargs)
            assert self.phase is phases.of(self), f"after {name}{args}"
            checked.append(name)
            return out
        monkeypatch.setattr(Tracker, name, wrapped)

    for name in ("changes", "press", "choose", "tick", "flush", "put_right"):
        checking(name)
    for game, layout in boards():
        mix = Mix.random(random.Random(5))
        run_stream(game, layout, 5, plies=8, mix=mix)
    assert {"changes", "press", "tick", "flush"} <= set(checked)
