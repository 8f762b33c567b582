"""The tracker tells the truth: seeded games played with ordinary handling (touches, the next
turn on freed cells, clock presses by side or shared, late answers, garbage put right), every
true move checked by the game's naive second implementation; the committed moves must equal
the true moves, none illegal, nothing left waiting (see ``truth.py``; ``bench/truth.py``
runs thousands). Every registered game plugs in with an adapter, ``truth_<game>.py``."""

import random

import pytest

import rules

from .truth import Mix, TrackerBoard, adapter, boards, run_stream

BOARDS = boards()
CHUNKS = 4


def check(results):
    bad = [r for r in results if not r.ok]
    detail = "\n".join(
        f"{r.layout} seed {r.seed}: {r.off or r.stalled or f'{r.illegal} illegal'}\n  "
        + "\n  ".join(r.log[-12:]) for r in bad[:3])
    assert not bad, f"{len(bad)} of {len(results)} streams left the truth:\n{detail}"
    assert all(r.committed == r.truth for r in results)


@pytest.mark.parametrize("game", rules.GAMES)
def test_every_registered_game_has_a_truth_adapter(game):
    a = adapter(game)
    assert a.layouts, f"{game}'s truth adapter names no layout"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(("game", "layout"), BOARDS, ids=[b[1] for b in BOARDS])
def test_streams_with_ordinary_handling_commit_the_true_moves(game, layout, chunk):
    n = adapter(game).streams
    seeds = range(chunk * n, (chunk + 1) * n)
    check([run_stream(game, layout, seed, plies=14, mix=Mix()) for seed in seeds])


@pytest.mark.parametrize(("game", "layout"), BOARDS, ids=[b[1] for b in BOARDS])
def test_streams_with_random_handling_habits_commit_the_true_moves(game, layout):
    """Each stream draws its own habits: shared or per-player clock buttons, how often it
    touches, presses, answers late or puts a piece wrong, and how fast it plays."""
    seeds = range(10_000, 10_000 + adapter(game).streams)
    check([run_stream(game, layout, seed, plies=14, mix=Mix.random(random.Random(seed)))
           for seed in seeds])


def test_a_stream_that_leaves_the_truth_is_caught():
    """The check can fail: a tracker that takes the first option of every question for the
    answer goes off the truth on a reed-switch Teblo board where pawns walk over their own
    blocks (a clock press there asks which silent step was made)."""
    from boards.tracker import Tracker

    original = Tracker.choose

    def careless(self, value, t, asked=None):
        return original(self, self.prompt.options[0] if self.prompt else value, t, asked)

    Tracker.choose = careless
    try:
        results = [run_stream("teblo", "teblo", seed, plies=24) for seed in range(12)]
    finally:
        Tracker.choose = original
    assert any(r.off or r.stalled for r in results)


def test_a_press_after_the_opponents_waiting_turn_commits_both():
    """Red's clock press while yellow's complete step still waits (a touch came after it):
    yellow's step is committed, then red's own step over a block, which the press ends
    (found by ``bench/truth.py``, seed 900215, 24 plies)."""
    check([run_stream("teblo", "teblo", 900_215, plies=24, mix=Mix())])


@pytest.mark.parametrize(("text", "ok"), [
    ("d4xd7 take:cs", True),          # the attack choice fills d4's figure: the turn ends
    ("d4xd7 none", True),             # nothing taken, nothing else possible
    ("d4xd7", False),                 # the attack choice is still open (D-7)
    ("d4xd7 take:cs none", False),    # the turn had ended
    ("d4xd7 take:cc", False),         # d7 carries one circle
    ("d4-d7 take:cs", False),         # a move onto an enemy captures
    ("e1-f2", False),                 # the Prime's square base moves straight only (D-4)
    ("j10-j9", False),                # not light's figure
    ("d4-h4", False),                 # beyond d4's straight rating 3 (D-5)
])
def test_the_tesulda_naive_check_refuses_what_the_rules_do_not_allow(text, ok):
    """The Tesulda streams' check can fail: moves, attack choices and turn ends the naive
    implementation does not allow are refused."""
    from .truth_tesulda import legal

    state = rules.from_position("tesulda", "light:e1=Skh,d4=Sss dark:d7=Ssc,j10=Skh pool: light")
    assert legal(state, text) is ok


@pytest.mark.parametrize(("text", "ok"), [
    ("c6-c9 draw:h swap:s:c9>d8", True),
    ("c6-c9 swap:s:c9>d8 none", True),
    ("c6-c9", False),                          # a draw and a swap are still possible
    ("c6-c9 draw:h draw:c none", False),       # one draw a turn (D-8)
    ("c6-c9 swap:s:c9>e8 none", False),        # e8 is no neighbour of c9
    ("c6-c9 draw:h swap:s:c9>d8 none", False),  # the turn had ended
])
def test_the_tesulda_naive_check_of_swaps_and_draws(text, ok):
    from .truth_tesulda import legal

    state = rules.from_position("tesulda", "light:e1=Skh,c6=Ssss,d8=Tcs dark:j10=Skh pool:ch light")
    assert legal(state, text) is ok


class _Watched(TrackerBoard):
    """The tracker, noting how many turns were committed when it first followed a question
    of which turn was made (shown or still waiting unshown: its readings begin then)."""

    first: int | None = None

    def change(self, cell: str, pieces: tuple[str, ...], t: float) -> list:
        return self._noted(super().change(cell, pieces, t))

    def press(self, player: str | None, t: float) -> list:
        return self._noted(super().press(player, t))

    def _noted(self, events: list) -> list:
        if self.first is None and self.tracker.readings:
            self.first = self.tracker.turns_made()
        return events


def test_a_question_nobody_answers_does_not_stop_the_board():
    """Nobody answers (Teblo on reed switches, where pawns step unseen over their own
    blocks): the board still follows the game, and the turns that later events decide are
    committed (the true ones, none illegal); a tracker that stops at its first question
    commits nothing after it."""
    mix = Mix(touch=0, touch_last=0, touch_mid=0, touch_after=0, touch_enemy=0, press=0.5,
              late=0, garbage=0, answer=False)
    results = []
    for seed in range(6):
        board = _Watched(rules.new_game("teblo"), "teblo")
        results.append((run_stream("teblo", "teblo", seed, plies=24, mix=mix, board=board),
                        board.first))
    assert not [r for r, _ in results if r.off or r.illegal]
    asked = [(r, k) for r, k in results if k is not None]
    assert asked, "no question was raised: the streams test nothing"
    assert all(r.committed == r.truth[:len(r.committed)] for r, _ in results)
    assert sum(len(r.committed) - k for r, k in asked) > 2 * len(asked)
