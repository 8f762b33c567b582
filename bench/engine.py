"""Engine strength and speed per game: levels against each other, uniform random and OpenSpiel.

Run by hand: .venv/bin/python bench/engine.py [--part speed,levels,wrapper,openspiel,guard]
    [--games N] [--skip N] [--levels 1,2,3] [--against below,random] [--only GAME,...]
    [--seconds S] [--cap DECISIONS]
(prints markdown; no assertions)

- speed: the engine's playouts per second (one tree step, a rollout cut short and its
  evaluation) at the start and in the middle of a seeded random game, and plain random
  games to the end per second, in process CPU time; a Raspberry Pi 4 is estimated at a
  tenth of this machine; python-chess's random playouts as the reference of the run.
- levels: each level against the one below and against uniform random, ``--games`` games
  per pairing, colours alternated, the die rolled from the game's seed. A game still
  running after ``--cap`` decisions counts as a draw (the column "capped" says how many).
  The score (a win 1, a draw 1/2) with its 95 % Wilson interval.
- wrapper: random decisions per CPU second through the pyspiel wrapper MCTSBot plays on
  and on the rules directly (what the wrapper costs MCTSBot).
- openspiel: the engine against OpenSpiel's MCTSBot (each game wrapped
  as a pyspiel Python game in bench/engine_openspiel.py), both given ``--seconds`` of
  process CPU time per decision, each stopping its search once it is spent (MCTSBot after
  the simulation under way); the CPU time each really used is in the table.
- guard: for each game whose profile has a root guard (``engine/guard.py``), CPU time per
  search at ``--levels`` with the guard and without, on fixed positions (the start, two
  positions where the opponent threatens a win in its next turn, two from the middle of
  seeded random games), three seeds each, and how many of the decisions returned leave
  the opponent such a win.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # this file is named engine too: the package comes first
    sys.path[0] = str(ROOT)
    sys.path.append(str(ROOT / "bench"))

import engine  # noqa: E402
import rules  # noqa: E402

#: A player takes the position and the seed of this decision and returns its decision.
Player = Callable[[rules.GameState, int], object]
#: A Raspberry Pi 4 runs this Python about ten times slower than the bench machine.
PI4_FACTOR = 10.0


def random_player(state: rules.GameState, seed: int):
    return random.Random(seed).choice(state.legal_moves())


def level_player(level: int) -> Player:
    return lambda state, seed: engine.search(state, level=level, seed=seed).move


class CpuTimed:
    """The engine given ``seconds`` of process CPU time per decision (wall time would
    count the other processes of a loaded machine). ``spent``, ``decisions`` and
    ``playouts`` add up what it did on the decisions it searched (a forced one is not)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.spent, self.decisions, self.playouts = 0.0, 0, 0

    def __call__(self, state: rules.GameState, seed: int):
        began = time.process_time()
        deadline = began + self.seconds
        result = engine.search(state, playouts=1 << 40, seed=seed,
                               stop=lambda: time.process_time() >= deadline)
        if result.playouts:
            self.spent += time.process_time() - began
            self.decisions += 1
            self.playouts += result.playouts
        return result.move


def play(game: str, players: tuple[Player, Player], seed: int, cap: int) -> str | None:
    """One game, ``players[0]`` moving for the game's first player; the winner's name,
    ``None`` for a tie or a game still running after ``cap`` decisions, "capped" then."""
    state, dice = rules.new_game(game), random.Random(seed)
    for n in range(cap):
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner
        if state.to_move == rules.CHANCE:
            state.push(state.sample_chance(dice))
        else:
            side = state.PLAYERS.index(state.to_move)
            state.push(players[side](state, seed * 7919 + n))
    return "capped" if state.outcome() is None else state.outcome().winner


#: The seed of a pairing's first game; ``--skip N`` starts N games later (more games of a
#: pairing in a second run, none played twice).
FIRST_SEED = 1000


def match(game: str, a: Player, b: Player, games: int, cap: int,
          skip: int = 0) -> dict[str, int]:
    """``a`` against ``b`` over ``games`` games, ``a`` first in the even ones."""
    tally = {"win": 0, "draw": 0, "loss": 0, "capped": 0}
    names = rules.new_game(game).PLAYERS
    for i in range(skip, skip + games):
        first = i % 2 == 0
        winner = play(game, (a, b) if first else (b, a), FIRST_SEED + i, cap)
        if winner == "capped":
            tally["capped"] += 1
            winner = None
        a_name = names[0] if first else names[1]
        tally["draw" if winner is None else "win" if winner == a_name else "loss"] += 1
        print(f"{game}: {i + 1 - skip}/{games} games, {tally}", file=sys.stderr, flush=True)
    return tally


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``score`` over ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def row(game: str, pairing: str, tally: dict[str, int], began: tuple[float, float]) -> str:
    """The table row of a pairing whose games began at ``began`` (wall, CPU time)."""
    wall, cpu = time.perf_counter() - began[0], time.process_time() - began[1]
    n = tally["win"] + tally["draw"] + tally["loss"]
    score = (tally["win"] + tally["draw"] / 2) / n
    low, high = wilson(score, n)
    verdict = "stronger" if low > 0.5 else "weaker" if high < 0.5 else "not separated"
    return (f"| {game} | {pairing} | {n} | {tally['win']}-{tally['draw']}-{tally['loss']} | "
            f"{score:.2f} | {low:.2f}-{high:.2f} | {verdict} | {tally['capped']} | "
            f"{wall / n:.1f} | {cpu / n:.1f} |")


def levels(games_: list[str], levels_: list[int], games: int, cap: int,
           against: str = "below,random", skip: int = 0) -> None:
    print("| game | pairing | games | W-D-L | score | 95 % interval | | capped | s/game | "
          "CPU s/game |")
    print("|---|---|---:|---|---:|---|---|---:|---:|---:|")
    for game in games_:
        for level in levels_:
            pairings = [(f"level {level} vs random", random_player)] \
                if "random" in against else []
            if level - 1 in levels_ and "below" in against:
                pairings.insert(0, (f"level {level} vs level {level - 1}",
                                    level_player(level - 1)))
            for name, other in pairings:
                began = time.perf_counter(), time.process_time()
                tally = match(game, level_player(level), other, games, cap, skip)
                print(row(game, name, tally, began), flush=True)


def midgame(game: str, seed: int = 4, decisions: int = 30) -> rules.GameState:
    state, rng = rules.new_game(game), random.Random(seed)
    for _ in range(decisions):
        if state.outcome() is not None:
            break
        state.push(state.sample_chance(rng) if state.to_move == rules.CHANCE
                   else rng.choice(state.legal_moves()))
    if state.to_move == rules.CHANCE:
        state.push(state.sample_chance(rng))
    return state


def playouts_per_second(state: rules.GameState, playouts: int = 200) -> float:
    start = time.process_time()
    done = engine.search(state, playouts=playouts, seed=1).playouts
    return done / (time.process_time() - start)


def random_games_per_second(game: str, games: int = 5, cap: int = 5000) -> float:
    start = time.process_time()
    for seed in range(games):
        play(game, (random_player, random_player), seed, cap)
    return games / (time.process_time() - start)


def speed(games_: list[str]) -> None:
    print("| game | playouts/s, start | playouts/s, move 30 | random games/s | "
          "Pi 4 estimate, playouts/s | level 3 on a Pi 4, s/decision |")
    print("|---|---:|---:|---:|---:|---:|")
    for game in games_:
        start = rules.new_game(game)
        if len(start.legal_moves()) == 1:  # a forced first decision: search the next one
            start.push(start.legal_moves()[0])
            start.push(start.sample_chance(random.Random(0)))
        first, middle = playouts_per_second(start), playouts_per_second(midgame(game))
        pi = min(first, middle) / PI4_FACTOR
        print(f"| {game} | {first:,.0f} | {middle:,.0f} | {random_games_per_second(game):,.1f}"
              f" | {pi:,.0f} | {engine.LEVELS[3] / pi:.1f} |", flush=True)
    from pipeline import chess_plies_per_second

    rate = chess_plies_per_second(2.0, clock=time.process_time)
    print(f"\nReference, same run: python-chess random playouts {rate:,.0f} plies/s "
          "(process CPU time, as above).")


def openspiel(games_: list[str], games: int, seconds: float, cap: int, skip: int = 0) -> None:
    from engine_openspiel import RulesGame, TimedBot

    print("| game | engine vs MCTSBot | games | W-D-L | score | 95 % interval | | capped | "
          "s/game | CPU s/game | engine CPU s/decision | playouts/decision | "
          "MCTSBot CPU s/decision | simulations/decision |")
    print("|---|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game in games_:
        began = time.perf_counter(), time.process_time()
        ours, bot = CpuTimed(seconds), TimedBot(RulesGame(game), seconds)
        tally = match(game, ours, bot, games, cap, skip)
        print(row(game, f"{seconds} CPU s per decision", tally, began) +
              f" {ours.spent / ours.decisions:.3f} | {ours.playouts / ours.decisions:.0f} |"
              f" {bot.spent / bot.decisions:.3f} | {bot.simulations / bot.decisions:.1f} |",
              flush=True)


#: Positions where the opponent threatens a win of two decisions, as decisions from the
#: start: light's c2-d3 lets dark mate by h10-e7 then e7-b4 (light to move); from a
#: game of level 4 against level 5 (seed 1003), light mates by d1-f3 then a swap of the
#: star onto f3 after most of dark's turns (dark to move).
THREATS = {"tesulda": {"e7-b4": ("c2-d3", "none", "j9-h7", "a2-a5", "h10-e7"),
                       "d1-f3 swap": ("h1-e4", "a9-a7", "e2-e3", "none")}}


def guard_positions(game: str) -> dict[str, rules.GameState]:
    found = {"start": rules.new_game(game)}
    for name, line in THREATS.get(game, {}).items():
        found[name] = rules.new_game(game)
        for notation in line:
            found[name].push_str(notation)
    for seed in (4, 7):  # the start of the next turn after decision 30
        state, rng = midgame(game, seed), random.Random(seed)
        mover = state.to_move
        while state.outcome() is None and state.to_move in (mover, rules.CHANCE):
            state.push(state.sample_chance(rng) if state.to_move == rules.CHANCE
                       else rng.choice(state.legal_moves()))
        found[f"random game {seed}, the turn after decision 30"] = state
    return found


def guard(games_: list[str], levels_: list[int], seeds: tuple[int, ...] = (1, 2, 3)) -> None:
    """CPU s per search with and without the root guard, and decisions returned that leave
    the opponent a win within the guard's depth (of the seeds)."""
    from engine.guard import Guard
    from engine.profiles import PROFILES

    print("| game | position | level | CPU s/search, no guard | with guard | ratio | "
          "doomed, no guard | with guard |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for game in [g for g in games_ if PROFILES.get(g) and PROFILES[g].guard]:
        guarded, judge = PROFILES[game], Guard(PROFILES[game].guard)
        for name, state in guard_positions(game).items():
            for level in levels_:
                cells = []
                for depth in (0, guarded.guard):
                    PROFILES[game] = dataclasses.replace(guarded, guard=depth)
                    began, doomed = time.process_time(), 0
                    for seed in seeds:
                        move = engine.search(state, level=level, seed=seed).move
                        doomed += judge.doomed(state, move)
                    cells.append(((time.process_time() - began) / len(seeds), doomed))
                PROFILES[game] = guarded
                (off, off_doomed), (on, on_doomed) = cells
                print(f"| {game} | {name} | {level} | {off:.3f} | {on:.3f} | {on / off:.2f} | "
                      f"{off_doomed}/{len(seeds)} | {on_doomed}/{len(seeds)} |", flush=True)


def wrapper(games_: list[str], games: int = 20) -> None:
    """Random decisions per CPU second through the pyspiel wrapper (as MCTSBot's rollouts
    make them) against the same on the rules directly: what the wrapper costs MCTSBot."""
    from engine_openspiel import RulesGame, random_plies

    print("| game | rules, decisions/s | through the wrapper, decisions/s | ratio |")
    print("|---|---:|---:|---:|")
    for game in games_:
        start, plies = time.process_time(), 0
        for seed in range(games):
            state, rng, n = rules.new_game(game), random.Random(seed), 0
            while state.outcome() is None and n < 1000:
                state.push(state.sample_chance(rng) if state.to_move == rules.CHANCE
                           else rng.choice(state.legal_moves()))
                n += 1
            plies += n
        direct = plies / (time.process_time() - start)
        table, start = RulesGame(game), time.process_time()
        plies = sum(random_plies(table, seed) for seed in range(games))
        wrapped = plies / (time.process_time() - start)
        print(f"| {game} | {direct:,.0f} | {wrapped:,.0f} | {wrapped / direct:.2f} |",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="speed,levels,openspiel")
    ap.add_argument("--games", type=int, default=20,
                    help="games per pairing (the issue asks for 200)")
    ap.add_argument("--levels", default="1,2", help="levels to play, e.g. 1,2,3")
    ap.add_argument("--against", default="below,random",
                    help="levels play the level below, uniform random, or both")
    ap.add_argument("--skip", type=int, default=0,
                    help="start after this many games of each pairing")
    ap.add_argument("--only", default=",".join(rules.GAMES), help="games, e.g. tessella,teblo")
    ap.add_argument("--seconds", type=float, default=0.5,
                    help="CPU seconds per decision, each side, against MCTSBot")
    ap.add_argument("--cap", type=int, default=600, help="decisions before a game is a draw")
    args = ap.parse_args()
    games_ = args.only.split(",")
    unknown = [g for g in games_ if g not in rules.GAMES]
    levels_ = [int(x) for x in args.levels.split(",") if x.strip().isdigit()]
    if unknown or not levels_ or any(n not in engine.LEVELS for n in levels_):
        raise SystemExit(f"bench/engine.py: --only {unknown or ''} / --levels {args.levels}: "
                         f"games are {', '.join(rules.GAMES)}, levels {list(engine.LEVELS)}")
    print(f"engine bench, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; levels {engine.LEVELS}\n")
    parts = args.part.split(",")
    if "speed" in parts:
        speed(games_)
        print()
    if "levels" in parts:
        levels(games_, levels_, args.games, args.cap, args.against, args.skip)
        print()
    if "wrapper" in parts:
        wrapper(games_)
        print()
    if "openspiel" in parts:
        openspiel(games_, args.games, args.seconds, args.cap, args.skip)
    if "guard" in parts:
        guard(games_, levels_)


if __name__ == "__main__":
    main()
