"""Instructions of the scans that carry a change, counted by callgrind (a busy machine does
not disturb the count): seeded games played by sensorboard.latency's hand on a layout's
simulated board, each scan with a debounced change pending run inside
``sys.call_tracing``, so that callgrind, collecting only inside it, counts those scans and
nothing else (not ``eval``: every named tuple class made at import runs its ``__new__``'s
source through it, and those were counted too before 2026-11-25; nor ``exec``: every
import runs inside it).

Run by hand (prints the turns committed of those played; callgrind prints the count):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=sys_call_tracing --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/change_scans.py --games 3 --layout telec

With ``--lines N`` it makes instead N journal lines of a move, a prompt and a roll from
tracker events, all inside ``sys.call_tracing`` (what one journal line costs: the
difference from ``--lines 1``, divided by 3N).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import rules  # noqa: E402
from boards.events import Committed, Prompt, Rolled  # noqa: E402
from boards.layout import load_layout, shipped_layouts  # noqa: E402
from hardware.clock import VirtualClock  # noqa: E402
from sensorboard import latency  # noqa: E402


def counted(service) -> None:
    """Run each of ``service``'s scans with a change pending inside ``sys.call_tracing``."""
    step = service.step

    def scan() -> list[dict]:
        if not service.debouncer.pending():
            return step()
        return sys.call_tracing(step, ())

    service.step = scan


def play(layout_name: str, games: int, plies: int) -> list[tuple[int, int]]:
    """Turns committed and turns played in each seeded game."""
    layout, played = load_layout(shipped_layouts()[layout_name]), []
    for seed in range(games):
        rng = random.Random(seed)
        line = latency.random_line(layout.game, rng, plies)
        clock = VirtualClock()
        service = latency.open_sim(layout, clock, seed)
        counted(service)
        hand = latency.Hand(service, clock, rules.new_game(layout.game), line)
        hand.play(rng)
        played.append((hand.committed, len(hand.turns)))
    return played


def journal_lines(n: int) -> None:
    try:
        from sensorboard.events import tracker_json as write
    except ImportError:  # a tree before the events made their own lines
        from sensorboard.service import event_json as write
    made = [Committed(1.23456, 3, "red", "roll 4 e4"), Prompt(3.0, ["1", "2", "none"]),
            Rolled(5.0, "blue", "4")]
    sys.call_tracing(lambda: [write(e) for _ in range(n) for e in made], ())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--layout", default="telec")
    ap.add_argument("--lines", type=int, default=0)
    args = ap.parse_args()
    if args.lines:
        journal_lines(args.lines)
    else:
        print(play(args.layout, args.games, args.plies))


if __name__ == "__main__":
    main()
