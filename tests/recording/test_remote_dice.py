"""Two simulated boards play Telec with physical dice through a real mosquitto, each
``sensorboard run`` in a process of its own. Each player rolls their own die for their
own turn (L-3) and enters the pyramid on their board; the board asks the size (and the
face, where the sensors cannot see it); the turn, roll and size with it, is lit on the
other board, whose player carries it out without being asked anything. Each board in
turn is killed (SIGKILL) with the other's turn lit and started again; an entry taken back
on one board is taken back on the other; at the end both journals hold every turn once, and
the same rolls."""

from __future__ import annotations

import random
import re

import rules
from tests.recording import remote_runs as runs
from tests.recording.remote_runs import journal_entries, journal_turns

GAME = "telec"
SEED, TURNS = 42, 12  # entries, a stack from the stash, a bump, a forfeit, steps
KILLED_AT = (3, 8)  # a board is killed once the other's turn of this ply is lit on it
TAKEN_BACK_AT = 4  # board B first enters another pyramid, which A takes back


def planned_game(seed: int) -> list[tuple[str, str]]:
    """``(player, turn)`` of a random Telec game of ``TURNS`` turns, the dice rolled."""
    rng = random.Random(seed)
    state, turns = rules.new_game(GAME), []
    while len(turns) < TURNS:
        player, words = state.to_move, []
        while not words or (state.to_move in (player, rules.CHANCE)
                            and state.outcome() is None):
            faces = state.chance_outcomes()
            decision = (rng.choices([f for f, _ in faces], [p for _, p in faces])[0]
                        if faces else rng.choice(state.legal_moves()))
            words.append(state.move_str(decision))
            state.push(decision)
        turns.append((player, " ".join(words)))
    return turns


def test_telec_with_physical_dice_between_two_boards_a_takeback_and_kills(tmp_path, broker):
    game, rng = planned_game(SEED), random.Random(SEED)
    texts = [m for _, m in game]
    assert "roll null 1" in texts and "roll 3 none" in texts  # a stack, a forfeit: unseen
    pair = runs.start_pair(tmp_path, broker.port, GAME, ("blue", "red"))
    boards = {name: run for name, (run, _) in pair.items()}
    asked: dict[str, list[str]] = {"A": [], "B": []}
    try:
        for ply, (player, move) in enumerate(game, 1):
            mover, other = (boards[n] for n in (("A", "B") if ply % 2 else ("B", "A")))
            played = [m for _, m in game[:ply - 1]]
            if ply == TAKEN_BACK_AT:
                tried = tried_and_taken_back(mover, other, played, move, rng)
            asked[mover.name] += runs.make_turn(mover, played, move, rng)
            lit = other.wait_for(f"board:{mover.name}: {re.escape(move)} (.*)$").group(1)
            if move.startswith("roll "):  # what was rolled there, not a roll to make here
                assert lit.startswith(f"({player.capitalize()} rolled {move.split()[1]}: ")
            if ply in KILLED_AT:  # the other's turn is lit, not carried out
                journal = tmp_path / other.name
                assert len(journal_turns(journal)) - len(journal_turns(journal, "takeback")) \
                    == ply - 1
                other = boards[other.name] = runs.restarted(other, pair[other.name][1],
                                                            tmp_path, broker.port, played)
                other.wait_for(f"board:{mover.name}: {re.escape(move)} ")
            assert runs.make_turn(other, played, move, rng) == []  # nothing asked: it is lit
    finally:
        for board in boards.values():
            if board.proc.poll() is None:
                board.quit()
    assert asked["A"] and asked["B"]  # each player was asked about their own rolls
    expected = [(ply, player, move) for ply, (player, move) in enumerate(game, 1)]
    undone = (TAKEN_BACK_AT, game[TAKEN_BACK_AT - 1][0], tried)
    made = [*expected[:TAKEN_BACK_AT - 1], undone, *expected[TAKEN_BACK_AT - 1:]]
    rolls = [(p, m.split(" ")[1]) for _, p, m in made if m.startswith("roll ")]
    for folder in (tmp_path / "A", tmp_path / "B"):
        assert journal_turns(folder) == made
        assert journal_turns(folder, "takeback") == [undone]
        assert [(r["player"], r["value"]) for r in journal_entries(folder, "roll")] == rolls


def tried_and_taken_back(mover: runs.Run, other: runs.Run, played: list[str],
                         planned: str, rng: random.Random) -> str:
    """``mover`` rolls and enters a pyramid on a vacant tile other than ``planned``'s,
    carried out on ``other``, whose player takes it back there: both boards go back
    (each player takes the pyramid off again)."""
    state = runs.position(GAME, played)
    tiles = rules.GAMES[GAME].FACE_TILE[state.to_move]
    face = next(f for f, tile in tiles.items() if tile not in state.physical()
                and f"roll {f} " not in f"{planned} ")
    tried = f"roll {face} 2"
    runs.make_turn(mover, played, tried, rng)
    other.wait_for(f"board:{mover.name}: {re.escape(tried)} ")
    runs.make_turn(other, played, tried, rng)
    other.send("press takeback")
    for board in (other, mover):
        board.wait_for(rf"taken back: \S+ {re.escape(tried)};")
        runs.put_back(board, played, [*played, tried])
    return tried

