"""Tesulda speed and the long agreement run, by hand: ``.venv/bin/python bench/tesulda.py``.

Prints markdown table rows (date, machine, measure, value):

- random playouts: decisions (and turns) per second, from the start position, against
  python-chess random playouts in the same run;
- ``legal_moves()`` on mid-game positions with a cold cache: at turn starts (the move,
  with D-9 judged on the completed turn) and at the decisions after a move;

``--agree`` instead checks the set of distinct turn results against the naive
implementation on every turn start of 100 seeded random games (the first 12 turns of
each; ``--turns 1000`` for complete games; ``--jobs 2`` shares the games between two
processes), the run ``make test`` only samples.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import multiprocessing
import os
import platform
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

import chess  # noqa: E402
from pipeline import chess_plies_per_second  # noqa: E402

from rules import tesulda  # noqa: E402
from tests.rules import tesulda_naive as naive  # noqa: E402
from tests.rules.test_tesulda import random_game  # noqa: E402


def playouts(seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """(decisions/s, turns/s, decisions) over random games of at most 300 decisions."""
    rng = random.Random(seed)
    decisions = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = tesulda.new_game()
        for _ in range(300):
            moves = state.legal_moves()
            if not moves:
                break
            me = state.to_move
            state.push(rng.choice(moves))
            decisions += 1
            turns += state.to_move != me
    elapsed = time.perf_counter() - start
    return decisions / elapsed, turns / elapsed, decisions


def mid_game(count: int, seed: int = 3) -> tuple[list[str], list[str]]:
    """Position texts after 20..60 random turns: at a turn start, and just after a move."""
    rng = random.Random(seed)
    starts, after_move = [], []
    while len(starts) < count:
        state = tesulda.new_game()
        for _ in range(rng.randrange(20, 61)):
            me = state.to_move
            while state.to_move == me and state.legal_moves():
                state.push(rng.choice(state.legal_moves()))
        if state.outcome() is not None:
            continue
        starts.append(state.position_str())
        state.push(rng.choice(state.legal_moves()))
        if state.phase != "move" and state.outcome() is None:
            after_move.append(state.position_str())
    return starts, after_move


def time_legal(texts: list[str], repeat: int = 3) -> tuple[float, float]:
    """(µs per position, legal decisions per position), best of ``repeat``, cold caches."""
    states = [tesulda.from_position(t) for t in texts]
    best = float("inf")
    for _ in range(repeat):
        fresh = [s.clone() for s in states]
        for s in fresh:
            s._legal = s._opts = None
        start = time.perf_counter()
        for s in fresh:
            s.legal_moves()
        best = min(best, time.perf_counter() - start)
    count = sum(len(s.legal_moves()) for s in states) / len(states)
    return best / len(states) * 1e6, count


def agree_game(game: int, turns: int, first: int = 0) -> tuple[int, int, str | None]:
    """(game, turn starts checked, the position where the turn results differ or None);
    turn starts before turn ``first`` are played, not checked."""
    checked = 0
    for turn, state in enumerate(random_game(game, turns, seed=0)):
        if turn < first:
            continue
        if naive.fast_turn_results(state) != naive.turn_results(state):
            return game, checked, state.position_str()
        checked += 1
    return game, checked, None


def agree(games: list[int], turns: int, jobs: int = 1, first: int = 0) -> None:
    """Every turn start (from turn ``first`` on) of the seeded games ``games`` (seed 0, as
    ``random_positions``), the games shared among ``jobs`` processes."""
    checked = done = 0
    start = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        for game, count, differ in pool.imap_unordered(
                functools.partial(agree_game, turns=turns, first=first), games):
            if differ is not None:
                print(f"game {game}: the turn results differ at {differ}", flush=True)
                sys.exit(1)
            checked += count
            done += 1
            print(f"... game {game}: {count} turn starts agree; {done} games, {checked} "
                  f"positions, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"turn results agree with the naive implementation on all {checked} turn starts "
          f"(turns {first} to {turns - 1} at most) of {len(games)} seeded games, "
          f"{time.perf_counter() - start:.0f} s with {jobs} process(es)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--agree", action="store_true",
                        help="run the agreement check on 100 games instead")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for --agree (the games are shared among them)")
    parser.add_argument("--game", type=int, action="append",
                        help="check this game only (repeatable; instead of 0..games-1)")
    parser.add_argument("--from-turn", type=int, default=0,
                        help="check turn starts from this turn on (earlier ones are played)")
    args = parser.parse_args()
    if args.agree:
        agree(args.game or list(range(args.games)), args.turns, args.jobs, args.from_turn)
        return
    starts, after_move = mid_game(args.positions)
    at_start, n_start = time_legal(starts)
    at_after, n_after = time_legal(after_move)
    rate, turn_rate, decisions = playouts(args.seconds)
    reference = chess_plies_per_second(args.seconds)
    date = datetime.date.today().isoformat()
    machine = (f"{platform.machine()}, {os.cpu_count()} cpu, "
               f"Python {platform.python_version()}")
    rows = [
        (f"random playouts ({decisions:,} decisions)",
         f"{rate:,.0f} decisions/s ({turn_rate:,.0f} turns/s)"),
        (f"python-chess {chess.__version__} random playouts, same run",
         f"{reference:,.0f} plies/s"),
        ("Tesulda decisions vs python-chess plies", f"{rate / reference:.2f}"),
        (f"legal_moves() at a turn start ({len(starts)} mid-game positions, "
         f"{n_start:.0f} moves on average)", f"{at_start:,.0f} µs"),
        (f"legal_moves() after the move ({len(after_move)} positions, "
         f"{n_after:.0f} decisions on average)", f"{at_after:,.0f} µs"),
    ]
    print("| date | machine | measure | value |")
    print("|---|---|---|---|")
    for measure, value in rows:
        print(f"| {date} | {machine} | {measure} | {value} |")


if __name__ == "__main__":
    main()
