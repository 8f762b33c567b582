"""Rules speed of every registered game: playouts, push and pop, copies; for a change of rules/.

Run by hand: .venv/bin/python bench/playouts.py [--against TREE] [--rounds N] [--games G..]
(prints markdown; no assertions)

``--count GAME|chess|import`` plays only that game's seeded playouts once, in a fresh
process (``import``: none, only the imports), for an instruction count that a busy
machine does not disturb: the difference of two runs under ``valgrind --tool=callgrind``
is the playouts' instructions (see docs/performance.md).

The same seeded random games of every game in ``rules.GAMES`` (the die sampled with its
probabilities), the same work on every tree:

- playout: decisions/s of ``legal_moves()`` + a random choice + ``push`` from the start,
  in a fresh process (whatever the rules remember is still empty);
- again: the same games played again in the same process (what a search that has been
  running a while sees);
- push+pop: every legal decision of positions of those games pushed and popped again,
  pairs/s (the walk a search or the tracker makes);
- clone: ``clone()`` of those positions, copies/s;
- python-chess: random playouts from the start (legal moves + a random choice + push per
  ply, seeded) in the same process, plies/s, the reference each game's playouts are
  divided by (``x chess``).

With ``--against TREE`` (a source tree of another commit, e.g. unpacked by ``git archive
COMMIT | tar -x -C TREE``) both trees are measured alternately in fresh processes
(``--rounds`` times each, best kept), so that the other tree is the reference of the same
minutes; the decisions counted must agree (the same games were played). Times are the
process's CPU time, which a busy machine disturbs less than the wall clock.
Each timed part starts from a collected heap (``gc.collect()``), so that the collector's
work inside it is that part's own, not a walk over what an earlier part left behind.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # this tree's rules; measure() run in another tree takes that one's
    sys.path.insert(0, str(ROOT))

import rules  # noqa: E402

#: Seeded games per game and the most decisions each: about half a second of playouts here.
WORK = {"tessella": (300, 200), "tulaga": (360, 400), "teblo": (120, 400),
        "telec": (150, 600), "tesulda": (10, 200)}
#: The positions of those games the push+pop walk and the copies visit, evenly spread.
POSITIONS = 4000
#: The least time the walk and the copies each take (whole passes over the positions).
SECONDS = 0.5


def random_decision(state, rng):
    """Push a decision drawn at random (a chance node's with its probability) and return
    it; ``None`` once the game is over."""
    if state.outcome() is not None:
        return None
    if state.to_move == rules.CHANCE:
        move = state.sample_chance(rng)
    else:
        move = rng.choice(state.legal_moves())
    state.push(move)
    return move


#: python-chess's seeded playouts: games and the most plies each (about a second here).
CHESS = (60, 200)


def chess_playouts() -> list[float]:
    """``[plies/s, plies]`` of python-chess's seeded random playouts from the start."""
    import chess

    plies, start = 0, time.process_time()
    for seed in range(CHESS[0]):
        rng, board = random.Random(seed), chess.Board()
        for _ in range(CHESS[1]):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return [plies / (time.process_time() - start), plies]


def playouts(game: str) -> tuple[int, float, list]:
    """(decisions, CPU seconds, the final states) of ``WORK[game]``'s seeded games."""
    games, most = WORK[game]
    lines, decisions = [], 0
    start = time.process_time()
    for seed in range(games):
        rng, state = random.Random(seed), rules.new_game(game)
        for _ in range(most):
            if random_decision(state, rng) is None:
                break
            decisions += 1
        lines.append(state)
    return decisions, time.process_time() - start, lines


def measure(games: tuple[str, ...] = tuple(WORK)) -> dict[str, list[float]]:
    """``{game: [playout decisions/s, push+pop pairs/s, clones/s, decisions, playout again
    decisions/s]}`` of ``games`` on the rules package first on ``sys.path``, and
    ``{"chess": [plies/s, plies]}``."""
    gc.collect()
    out = {"chess": chess_playouts()}
    for game in games:
        out[game] = measure_game(game)
    return out


def measure_game(game: str) -> list[float]:
    """:func:`measure`'s row of ``game``. Each timed part starts from a collected heap,
    and what a game leaves (its 4,000 positions) is gone before the next game's: the
    collector would otherwise traverse it in the next game's time."""
    gc.collect()
    decisions, seconds, lines = playouts(game)
    gc.collect()
    again = playouts(game)
    positions = []
    stride, n = max(1, decisions // POSITIONS), 0
    for state in lines:  # positions of the games, each with its moves listed
        while state.move_stack:
            state.pop()
            n += 1
            if n % stride == 0:
                positions.append((state.clone(), state.legal_moves()
                                  or [m for m, _ in state.chance_outcomes()]))
    gc.collect()
    pairs, start = 0, time.process_time()
    while time.process_time() - start < SECONDS:
        for state, moves in positions:
            for move in moves:
                state.push(move)
                state.pop()
            pairs += len(moves)
    walk = pairs / (time.process_time() - start)
    gc.collect()
    clones, start = 0, time.process_time()
    while time.process_time() - start < SECONDS:
        for state, _ in positions:
            state.clone()
        clones += len(positions)
    clones /= time.process_time() - start
    return [decisions / seconds, walk, clones, decisions, again[0] / again[1]]


#: The table's measures: (heading, index in measure()'s list, a ratio to python-chess).
COLUMNS = (("playout decisions/s", 0, False), ("again", 4, False), ("x chess", 0, True),
           ("again x chess", 4, True), ("push+pop/s", 1, False), ("clone/s", 2, False))


def table(runs: dict[str, list[dict]], games: tuple[str, ...]) -> None:
    """Best of each tree's rounds; a game's ratio to python-chess is taken within each
    process (the same minutes), the best ratio kept."""
    labels = list(runs)
    head = " | ".join(f"{what}, {label}" for what, _, _ in COLUMNS for label in labels)
    print(f"| game | {head} | decisions |")
    print("|---|" + "---:|" * (len(COLUMNS) * len(labels) + 1))
    chess = [f"{max(r['chess'][0] for r in runs[label]):,.0f}" for label in labels]
    print(f"| python-chess (reference) | {' | '.join(chess)} |"
          + " |" * ((len(COLUMNS) - 1) * len(labels)) + f" {runs[labels[0]][0]['chess'][1]:,.0f} |")
    for game in games:
        counts = {r[game][3] for label in labels for r in runs[label]}
        if len(counts) != 1:
            raise SystemExit(f"bench/playouts.py: {game}: the trees played different games "
                             f"({sorted(counts)} decisions)")
        cells = [f"{max(r[game][k] / r['chess'][0] for r in runs[label]):.2f}" if ratio
                 else f"{max(r[game][k] for r in runs[label]):,.0f}"
                 for _, k, ratio in COLUMNS for label in labels]
        print(f"| {game} | {' | '.join(cells)} | {counts.pop():,.0f} |")
    print("\nx chess in each round (fresh playouts):")
    for game in games:
        print(f"- {game}: " + "; ".join(
            f"{label} " + " / ".join(f"{r[game][0] / r['chess'][0]:.2f}" for r in runs[label])
            for label in labels))


def count(what: str) -> None:
    """Play ``what``'s seeded playouts once (``import``: nothing) and print how many."""
    import chess  # noqa: F401  (imported in every case: the baseline holds the imports)

    if what == "chess":
        print(f"chess: {chess_playouts()[1]:.0f} plies")
    elif what != "import":
        print(f"{what}: {playouts(what)[0]} decisions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another source tree, measured alternately")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", nargs="+", choices=list(WORK), default=list(WORK),
                    help="only these games after python-chess in each process (more rounds "
                         "in the same minutes)")
    ap.add_argument("--count", choices=[*WORK, "chess", "import"],
                    help="only that game's playouts, once, for an instruction count")
    args = ap.parse_args()
    if args.count:
        count(args.count)
        return
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {when}\n")
    sys.path.insert(0, str(ROOT / "bench"))
    from pipeline import in_tree

    this = str(Path(__file__).resolve())
    games = tuple(args.games)
    code = (f"import json, runpy\n"
            f"print(json.dumps(runpy.run_path({this!r})['measure']({games!r})))")
    trees = {"this": ROOT, **({"other": args.against.resolve()} if args.against else {})}
    runs: dict[str, list[dict]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            runs[label].append(in_tree(tree, code))
    if args.against:
        print(f"this tree ({ROOT}) against {args.against}, {args.rounds} rounds each, "
              "alternately in fresh processes, best of each\n")
    table(runs, games)


if __name__ == "__main__":
    main()
