"""Two simulated boards, each ``sensorboard run`` in a process of its own, play a game
through a real mosquitto: each side's turn is made on its board and carried out on the
other's as the LEDs show it; a turn taken back on one board is taken back on the other;
each board in turn is killed (SIGKILL) mid-game and started again, and at the end both
journals hold every turn once, the same game."""

import random
import re

import rules
from boards.choreography import turn_ops
from tests.recording.remote_runs import MOVE, Run, journal_turns, position, restarted, start_pair

TURNS = 12
KILLED_AT = (7, 10)  # a board is killed once the other's turn of this ply is lit on it
TAKEN_BACK_AT = 4  # board B first makes another turn of this ply, which A takes back


def planned_game(seed: int) -> list[str]:
    """A random game of Tessella that runs at least ``TURNS`` turns."""
    rng = random.Random(seed)
    state, turns = rules.new_game("tessella"), []
    while len(turns) < TURNS:
        move = rng.choice(state.legal_moves())
        turns.append(state.move_str(move))
        state.push(move)
    assert state.outcome() is None
    return turns


def carry_out(board: Run, played: list[str], move: str, rng: random.Random) -> None:
    """The lifts and places of ``move`` (after ``played``) made on ``board``."""
    state = position("tessella", played)
    board.send(*(f"{op} {cell}" for op, cell in turn_ops(state, state.parse_move(move), rng)))
    match = board.wait_for(MOVE)
    assert match.group(1) == move, board.seen[-10:]


def tried_and_taken_back(mover: Run, other: Run, played: list[str], planned: str,
                         rng: random.Random) -> str:
    """``mover`` makes a turn other than ``planned``, carried out on ``other``, whose
    player takes it back there: both boards go back (each player puts it back)."""
    state = position("tessella", played)
    tried = next(m for m in state.legal_moves()
                 if not m.capture and state.move_str(m) != planned)
    text = state.move_str(tried)
    carry_out(mover, played, text, rng)
    other.wait_for(f"board:{mover.name}: {re.escape(text)} ")
    carry_out(other, played, text, rng)
    other.send("press takeback")
    for board in (other, mover):
        board.wait_for(rf"taken back: \S+ {re.escape(text)};")
        board.send(f"lift {tried.to}", f"place {tried.frm}")
    return text


def test_two_boards_play_through_mosquitto_and_each_survives_a_kill(tmp_path, broker):
    game, rng = planned_game(seed=3), random.Random(3)
    runs = start_pair(tmp_path, broker.port, "tessella", ("clear", "dark"))
    boards = {name: run for name, (run, _) in runs.items()}
    tried = None
    try:
        for ply, move in enumerate(game, 1):
            mover, other = (boards[n] for n in (("A", "B") if ply % 2 else ("B", "A")))
            if ply == TAKEN_BACK_AT:
                tried = tried_and_taken_back(mover, other, game[:ply - 1], move, rng)
            carry_out(mover, game[:ply - 1], move, rng)
            other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            if ply in KILLED_AT:  # the board with the other's turn lit on it
                journal = tmp_path / other.name
                assert len(journal_turns(journal)) - len(journal_turns(journal, "takeback")) \
                    == ply - 1  # the other's turn is lit, not carried out
                other = boards[other.name] = restarted(other, runs[other.name][1], tmp_path,
                                                       broker.port, game[:ply - 1])
                other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            carry_out(other, game[:ply - 1], move, rng)
    finally:
        for board in boards.values():
            if board.proc.poll() is None:
                board.quit()
    expected = [(ply, "clear" if ply % 2 else "dark", move) for ply, move in enumerate(game, 1)]
    undone = (TAKEN_BACK_AT, "dark", tried)
    for folder in (tmp_path / "A", tmp_path / "B"):
        assert journal_turns(folder) == [*expected[:TAKEN_BACK_AT - 1], undone,
                                         *expected[TAKEN_BACK_AT - 1:]]
        assert journal_turns(folder, "takeback") == [undone]


def test_a_new_game_on_both_boards_keeps_the_pairing(tmp_path, broker):
    """The boards play a turn, stop, and start again: board A with a new game (``--new``),
    B going on with the first; each says which is behind and no turn crosses. B started
    with a new game too (its command line as before, with ``--new``): both show the same
    code and game 2, and the new game's turn is played on both."""
    pair = start_pair(tmp_path, broker.port, "tessella", ("clear", "dark"))
    a, b = (pair[name][0] for name in "AB")
    code = pair["B"][1][2]
    assert any(f"pairing code {code} (game 1 with board A)" in line for line in b.seen)
    carry_out(a, [], "c1-c2", random.Random(1))
    b.wait_for("board:A: c1-c2 ")
    carry_out(b, [], "c1-c2", random.Random(1))
    for board in (a, b):
        assert board.quit() == 0
    a = Run(tmp_path, "A", "B", "dark", None, broker.port, "tessella", "--new")
    assert a.wait_for(r"pairing code (\S+) \(game 2 with board B\)").group(1) == code
    b = Run(tmp_path, "B", "A", "clear", code, broker.port)
    try:
        b.wait_for("resuming the unfinished tessella game")
        b.wait_for("board A is on game 2 with this board, this board on game 1: start a new "
                   "game here too")
        a.wait_for("board B is still on game 1 with this board, this board on game 2")
        assert b.quit() == 0
        b = Run(tmp_path, "B", "A", "clear", code, broker.port, "tessella", "--new")
        b.wait_for(rf"pairing code {code} \(game 2 with board A\): board A shows the same")
        a.wait_for(r"board B plays this game with this board now \(game 2\)")
        carry_out(a, [], "b1-b2", random.Random(2))
        b.wait_for("board:A: b1-b2 ")
        carry_out(b, [], "b1-b2", random.Random(2))
    finally:
        for board in (a, b):
            if board.proc.poll() is None:
                board.quit()
    for name in "AB":
        assert journal_turns(tmp_path / name) == [(1, "clear", "c1-c2"), (1, "clear", "b1-b2")]
