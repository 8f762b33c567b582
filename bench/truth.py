"""Truth-checked streams in bulk: how many go off the truth, commit an illegal move, or stall.

Run by hand: .venv/bin/python bench/truth.py [--streams N] [--first SEED] [--plies P]
             [--mix default|random|clean] [--press P] [--pace LO,HI]
             [--unanswered [--answer-at-end]]
             [--game GAME] [--show K] [--replay] [--tree DIR]
Prints a markdown table (no assertions; ``make test`` runs a few hundred per board).
Each stream is a seeded game played with ordinary handling (touches, the next turn on
freed cells, clock presses, late answers, garbage put right); see ``tests/boards/truth.py``.
``--mix clean``: no touch, no garbage, answers at once (``--press``: how often the mover
presses the clock after a turn; ``--pace``: the seconds between two actions, 1,4 for
players who think between turns); ``--unanswered``: nobody answers a question, the board
goes on alone: *followed* counts the true turns the tracker, or the furthest of its
readings, has taken in order, and *position known* those after which the tracker or one
of its readings shows where every piece stands as the true game does (turns may differ in
order: two orders of unseen steps that end alike; ``--answer-at-end``: every question is
answered truthfully once the input has ended, as an arbiter answering late would, and
*committed* counts what that commits); *tie left open* the streams nobody answered that
end at a question later events could not decide (every true turn followed, no reading let
go for room, the readings that fit still parting on its answer: not counted stalled);
*declined by contract* the
streams that left the truth only where a decision nobody told the board (a Tesulda swap,
take or draw) was declined when the next player began, as the replay contract says (not
counted off; the stream ends there). ``--tree DIR``: run another checkout's tracker and
harness (the same seeds; a tree older than ``--unanswered`` answers anyway), to compare
questions per 100 moves.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time
from pathlib import Path

_tree = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else None
sys.path.insert(0, str(Path(_tree or Path(__file__).resolve().parent.parent).resolve()))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from rules import new_game  # noqa: E402
from tests.boards import truth_replay  # noqa: E402
from tests.boards import truth_telec as telec  # noqa: E402
from tests.boards.truth import Mix, TrackerBoard, boards, run_stream  # noqa: E402


def _mix(args: argparse.Namespace, seed: int) -> Mix:
    if args.mix == "random":
        mix = Mix.random(random.Random(seed))
    elif args.mix == "clean":
        mix = Mix(touch=0, touch_last=0, touch_mid=0, touch_after=0, touch_enemy=0,
                  press=args.press, late=0, garbage=0, pace=args.pace or Mix.pace)
    else:
        mix = Mix()
    if args.unanswered:
        mix.answer = False
        mix.answer_at_end = args.answer_at_end
    return mix


def _shared(game: str, layout: str, truth: list[str]) -> int:
    """How many of the turns ``truth`` leave the sensors showing what another legal turn of
    the same position would leave too."""
    from boards.layout import load_layout, shipped_layouts
    from boards.sensing import observer

    observe = observer(load_layout(shipped_layouts()[layout]))
    state = new_game(game)
    if state.TURN_DECISIONS > 1:
        return 0

    def picture(s) -> frozenset:
        return frozenset((c, observe(p)) for c, p in s.physical().items() if observe(p))

    count = 0
    for text in truth:
        move = state.parse_move(text)
        after = []
        for other in state.legal_moves():
            state.push(other)
            after.append((other == move, picture(state)))
            state.pop()
        mine = next(p for same, p in after if same)
        count += any(p == mine for same, p in after if not same)
        state.push(move)
    return count


def _followed(tracker, truth: list[str]) -> int:
    """How many of the true turns, in order, the tracker or the furthest of its readings
    (the board followed past a question nobody answered) has taken."""
    best = 0
    for reading in [tracker, *getattr(tracker, "readings", {}).values()]:  # (--tree: none)
        turns = reading.turns()
        same = [a == b for a, b in zip(turns, truth, strict=False)]
        best = max(best, same.index(False) if False in same else len(same))
    return best


def _positions(game: str, turns: list[str]) -> list[str]:
    """The positions a game of ``game`` shows before its first turn and after each of
    ``turns``."""
    state = new_game(game)
    out = [state.position_str()]
    for text in turns:
        for word in text.split(" "):
            state.push_str(word)
        out.append(state.position_str())
    return out


def _known(tracker, game: str, truth: list[str]) -> int:
    """After how many of the true turns the board still knows where every piece stands:
    the most turns ``k`` after which the tracker or one of its readings shows the position
    the true game shows after its ``k``-th (the turns before may differ in order, as two
    orders of unseen steps that end alike do: which was played, only an answer tells)."""
    want = _positions(game, truth)
    best = 0
    for reading in [tracker, *getattr(tracker, "readings", {}).values()]:
        got = _positions(game, reading.turns())
        same = zip(got, want, strict=False)
        best = max(best, *(k for k, (a, b) in enumerate(same) if a == b))
    return best


def _tie(tracker, followed: int, truth: list[str]) -> bool:
    """Whether a stream nobody answered ends at a question later events could not decide:
    every true turn followed (``followed``: :func:`_followed`), no reading of it let go
    for room, and the readings that fit still part on its answer (a true tie: what stops
    the commits is the missing answer)."""
    if tracker.prompt is None or not getattr(tracker, "readings", None) \
            or () in getattr(tracker, "cut", {()}) or followed < len(truth):
        return False
    return len({p[0] for p in tracker._leaves() if tracker.readings[p].fits()}) > 1


def _pace(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LO,HI in seconds") from None
    if not 0 < lo <= hi:
        raise argparse.ArgumentTypeError(f"{text!r}: need 0 < LO <= HI")
    return lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=1000, help="streams per board")
    ap.add_argument("--first", type=int, default=100_000, help="first seed")
    ap.add_argument("--plies", type=int, default=24)
    ap.add_argument("--mix", choices=("default", "random", "clean"), default="random")
    ap.add_argument("--press", type=float, default=0.0,
                    help="with --mix clean: how often the mover presses the clock")
    ap.add_argument("--pace", type=_pace, default=None, metavar="LO,HI",
                    help="with --mix clean: seconds between two actions (default "
                         f"{Mix.pace[0]},{Mix.pace[1]}; players thinking: 1,4)")
    ap.add_argument("--unanswered", action="store_true", help="nobody answers a question")
    ap.add_argument("--answer-at-end", action="store_true",
                    help="with --unanswered: every question is answered once the input ends")
    ap.add_argument("--tree", default=None, help="another checkout to measure instead")
    ap.add_argument("--shared", action="store_true",
                    help="also count the true turns whose sensor picture after them another "
                         "legal turn of the same position leaves too (one-decision games)")
    ap.add_argument("--game", default=None, help="only this game or layout (e.g. teblo-hall)")
    ap.add_argument("--show", type=int, default=3, help="failures to print per board")
    ap.add_argument("--replay", action="store_true",
                    help="play the streams on the simulated board and run them through "
                         "replay (Telec with physical dice, rolls checked too: truth_telec.py; "
                         "the other games' presence-sensing boards: truth_replay.py)")
    args = ap.parse_args()
    print(f"Measured {datetime.date.today()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; seeds {args.first}.., {args.plies} plies, "
          f"{args.mix} handling mix\n")
    print(f"Tree: {args.tree or 'this one'}\n")
    print("| board | streams | moves | committed | followed | position known | off the truth "
          "| declined by contract | illegal | stalled | tie left open | questions | per 100 moves "
          "| errors shown | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    failures = []
    for game, layout in boards():
        if args.game and args.game not in (game, layout):
            continue
        if args.replay and game != "telec" and not truth_replay.replayable(layout):
            print(f"| {layout} | (no replay streams: its sensors tell pieces apart) |")
            continue
        n = moves = committed = off = illegal = stalled = questions = errors = shared = 0
        followed = known = declined = ties = 0
        start = time.process_time()
        for seed in range(args.first, args.first + args.streams):
            if args.replay and game == "telec":
                mix = telec.Mix.random(random.Random(seed)) if args.mix == "random" \
                    else telec.Mix()
                r = telec.run_stream(game, seed, turns=args.plies, mix=mix, layout=layout)
                followed += len(r.committed)
                known += len(r.committed)
            else:
                mix = _mix(args, seed)
                if args.replay:
                    r = truth_replay.run_stream(game, layout, seed, plies=args.plies, mix=mix)
                    followed += len(r.committed)
                    known += len(r.committed)
                else:
                    board = TrackerBoard(new_game(game), layout)
                    r = run_stream(game, layout, seed, plies=args.plies, mix=mix, board=board)
                    taken = _followed(board.tracker, r.truth)
                    followed += taken
                    where = _known(board.tracker, game, r.truth) if not r.off else taken
                    known += where
                    if r.stalled:
                        r.stalled += f" (position known after {where} of {len(r.truth)} turns)"
                    if r.stalled and args.unanswered and not args.answer_at_end \
                            and _tie(board.tracker, taken, r.truth):
                        r.stalled = ""
                        ties += 1
            n += 1
            moves += len(r.truth)
            committed += len(r.committed)
            shared += _shared(game, layout, r.truth) if args.shared else 0
            untold = bool(getattr(r, "declined", ""))  # (a tree or harness without it: no)
            off += bool(r.off) and not untold
            declined += untold
            illegal += r.illegal
            stalled += bool(r.stalled)
            questions += r.questions
            errors += r.errors
            if not r.ok:
                failures.append(r)
        secs = time.process_time() - start
        per100 = 100 * questions / max(moves, 1)
        if args.shared:
            print(f"| {layout} | shared signature: {shared} of {moves} true turns |")
        print(f"| {layout} | {n} | {moves} | {committed} | {followed} | {known} | {off} | "
              f"{declined} | {illegal} | {stalled} | {ties} | {questions} | {per100:.1f} | "
              f"{errors} | {secs:.1f} |")
    shown: dict[str, int] = {}
    for r in failures:
        if shown.get(r.layout, 0) >= args.show:
            continue
        shown[r.layout] = shown.get(r.layout, 0) + 1
        print(f"\n{r.layout} seed {r.seed}: {r.off or r.stalled or 'illegal'}")
        print("  " + "\n  ".join(r.log[-14:]))


if __name__ == "__main__":
    main()
