"""Two simulated boards, each ``sensorboard run`` in a process of its own, play a whole
game through a real mosquitto: each side's turn is made on its board and carried out on the
other's as the LEDs show it; a turn taken back on one board is taken back on the other;
each board is killed (SIGKILL) once with the other's turn lit on it and started again,
board A mid-game and board B with the game's last turn lit (the game over on A, not yet
on B); at the end both journals hold every turn once, the same game, and both boards
have the game over with the same result: in the journal, on the screen and in the
record."""

import random
import re

import rules
from boards.choreography import turn_ops
from sensorboard.gamelog import result_tag
from sensorboard.gamerecord import parse_record
from tests.recording.remote_runs import (
    MOVE,
    Run,
    journal_entries,
    journal_games,
    journal_turns,
    position,
    restarted,
    start_pair,
)

SEED = 7  # its game: 21 plies, clear's fourth capture
LONGEST = 60  # plies a planned game may take
TAKEN_BACK_AT = 4  # board B first makes another turn of this ply, which A takes back
KILLED_AT = (10, 21)  # a board is killed once the other's turn of this ply is lit on it
HELD = re.compile(r"^Held: press the clock to end the turn")


def planned_game(seed: int) -> list[str]:
    """A game of Tessella played to its end within ``LONGEST`` plies: each side takes a
    capture whenever it has one, else makes a random move."""
    rng = random.Random(seed)
    state, turns = rules.new_game("tessella"), []
    while state.outcome() is None and len(turns) < LONGEST:
        moves = state.legal_moves()
        move = rng.choice([m for m in moves if m.capture] or moves)
        turns.append(state.move_str(move))
        state.push(move)
    assert state.outcome() is not None, f"seed {seed}: no end in {LONGEST} plies"
    return turns


def carry_out(board: Run, played: list[str], move: str, rng: random.Random) -> None:
    """The lifts and places of ``move`` (after ``played``) made on ``board``; where the
    board holds the turn as one that may still go on (the capturing piece put on the
    enemy's cell, which the sensors cannot tell from the enemy put back), the player
    presses the clock."""
    state = position("tessella", played)
    board.send(*(f"{op} {cell}" for op, cell in turn_ops(state, state.parse_move(move), rng)))
    if (match := board.wait_for(MOVE, HELD)).re is HELD:
        board.send("press clock")
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
    game, rng = planned_game(SEED), random.Random(SEED)
    assert KILLED_AT[-1] == len(game) and TAKEN_BACK_AT < KILLED_AT[0]
    outcome = position("tessella", game).outcome()
    result = f"{outcome.winner} wins ({outcome.reason})"
    runs = start_pair(tmp_path, broker.port, "tessella", ("clear", "dark"))
    boards = {name: run for name, (run, _) in runs.items()}
    tried, records = None, {}
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
        for name, board in boards.items():  # what each board's players see at the end
            board.wait_for(rf"^{re.escape(result)}; last move: \d+\.+ {re.escape(game[-1])}$")
            assert board.quit() == 0
            records[name] = board.wait_for(rf"^{re.escape(result)}; record written to (\S+)$")
    finally:
        for board in boards.values():
            if board.proc.poll() is None:
                board.quit()
    expected = [(ply, "clear" if ply % 2 else "dark", move) for ply, move in enumerate(game, 1)]
    undone = (TAKEN_BACK_AT, "dark", tried)
    for name in "AB":
        folder = tmp_path / name
        assert journal_turns(folder) == [*expected[:TAKEN_BACK_AT - 1], undone,
                                         *expected[TAKEN_BACK_AT - 1:]]
        assert journal_turns(folder, "takeback") == [undone]
        ends = journal_entries(folder, "end")
        assert [(e["outcome"], e["result"]) for e in ends] == [
            ({"winner": outcome.winner, "reason": outcome.reason}, result)], name
        assert [finished for _, finished in journal_games(folder)] == [True], name
        with open(records[name].group(1), encoding="utf-8") as f:
            record = parse_record(f.read(), records[name].group(1))
        assert record.result == result_tag(outcome.winner, ["clear", "dark"]), name
        assert record.tags["Termination"] == outcome.reason, name
        assert [turn.text for turn in record.turns] == game, name


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
