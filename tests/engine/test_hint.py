"""A hint names each decision's cells in order, and leaves the invisible ones to words."""

import engine
import rules
from engine.hint import step_cells

from .test_search import decision_nodes


def test_a_step_lifts_from_one_cell_and_places_on_another():
    before = {"a1": ("clear",), "b2": ("dark",)}
    assert step_cells(before, {"b2": ("clear",)}) == (("a1",), ("b2",))
    assert step_cells(before, before) == ((), ())


def test_a_turn_of_several_decisions_is_shown_step_by_step():
    state = decision_nodes("tesulda")["turn start"]
    tip = engine.hint(state, playouts=30, seed=1)
    assert tip.steps[0].visible and len(tip.steps[0].lifted) == 1
    after = state.clone()
    for step in tip.steps:
        before = after.physical()
        after.push(step.decision)
        assert (step.lifted, step.placed) == step_cells(before, after.physical())
    assert tip.notation == " ".join(step.notation for step in tip.steps)
    assert tip.words == state.turn_words([step.decision for step in tip.steps])[0]


def test_a_decision_the_board_does_not_show_is_words_only():
    state = rules.new_game("telec")
    tip = engine.explain(state, engine.search(state, playouts=5))
    assert tip.notation == "roll" and not tip.steps[0].visible
    assert tip.words == "Roll the die"
