"""Whether the games bench/latency.py times commit all their turns: the same seeded games
(``sensorboard.latency.change_to_frame``), each compared with what was played once its
input has settled.

Run by hand: .venv/bin/python bench/latency_turns.py [--games 20] [--plies 30] [--layout NAME]
Prints a markdown table (no assertions): per layout the games whose every decision was
committed as played, the decisions committed as played, and each other game's seed with
how it ended (``held``: a complete turn waits for the mover's press, which these games
never give; ``asking``: a question is open; ``error``: the board shows an error).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards.layout import load_layout, shipped_layouts  # noqa: E402
from sensorboard.latency import change_to_frame, games_options, measured  # noqa: E402


def played(name: str, games: int, plies: int) -> tuple[int, int, int, list[str]]:
    """(complete games, decisions committed as played, decisions played, the others)."""
    out: list[tuple[int, int, str]] = []

    def ended(line: list, service) -> None:
        got = service.tracker.state.move_stack
        same = next((k for k, (a, b) in enumerate(zip(got, line, strict=False)) if a != b),
                    min(len(got), len(line)))
        whole = same == len(line) == len(got)
        out.append((same, len(line), "" if whole else service.view.phase.value))

    change_to_frame(load_layout(shipped_layouts()[name]), games=games, plies=plies,
                    ended=ended)
    others = [f"{seed} {how}" for seed, (_, _, how) in enumerate(out) if how]
    return (len(out) - len(others), sum(g[0] for g in out), sum(g[1] for g in out), others)


def main() -> None:
    args = games_options(__doc__.splitlines()[0], games=20).parse_args()
    names = args.layout or list(shipped_layouts())
    print(measured(args.games, args.plies))
    print("| layout | games complete | decisions as played | the other games: seed, end |")
    print("|---|---:|---:|---|")
    for name in names:
        whole, same, total, others = played(name, args.games, args.plies)
        print(f"| {name} | {whole} of {args.games} | {same} of {total} | "
              f"{', '.join(others) or '-'} |", flush=True)


if __name__ == "__main__":
    main()
