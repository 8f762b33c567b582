"""The search process answers, and a cancelled or replaced question is never answered."""

import pytest

import engine
import rules


@pytest.fixture(scope="module")
def worker():
    with engine.EngineWorker() as running:
        yield running


def test_the_worker_answers_what_the_search_would(worker):
    state = rules.new_game("tulaga")
    worker.ask(state, playouts=40, seed=9)
    answer = worker.wait(timeout=60)
    assert answer == engine.search(state, playouts=40, seed=9)
    assert not worker.thinking


def test_a_cancelled_question_stops_and_is_not_answered(worker):
    state = rules.new_game("tesulda")
    worker.ask(state, seconds=30)  # far longer than the test waits
    assert worker.thinking
    worker.cancel()
    assert not worker.thinking and worker.poll() is None
    # the process is free again at once: the next question is answered
    worker.ask(rules.new_game("tessella"), playouts=20, seed=1)
    assert worker.wait(timeout=20) is not None  # not after the 30 s of the cancelled one


def test_asking_again_replaces_the_question(worker):
    worker.ask(rules.new_game("tesulda"), seconds=30)
    state = rules.new_game("teblo")
    worker.ask(state, playouts=20, seed=3)
    answer = worker.wait(timeout=20)
    assert answer is not None and state.is_legal(answer.move)


def test_a_position_without_a_decision_is_refused_at_once(worker):
    state = rules.new_game("telec")
    state.push_str("roll")
    with pytest.raises(ValueError, match="chance node"):
        worker.ask(state, playouts=10)


def test_closing_stops_the_process():
    running = engine.EngineWorker()
    running.ask(rules.new_game("tesulda"), seconds=30)
    running.close()
    assert not running.alive
