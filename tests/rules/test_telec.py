"""Telec: a naive second implementation, seeded random games, one position per ruling (L-1..L-10).

The naive rules below share no code with ``rules.telec``: they read a state through its
public API (``physical()``, ``stash()``, ``center()``), build their own board from the
rows of tiles, and list every whole turn as text, which the decision-by-decision rules
must match exactly.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules import telec

# --- a deliberately naive second implementation -------------------------------------------

ROW_TILES = ["a1 b1 c1 d1", "a2 b2 c2 d2", "a3 - - d3", "a4 b4 c4 d4", "a5 b5 c5 d5"]
BOARD = [t for row in ROW_TILES for t in row.split() if t != "-"]
DIE = {  # player -> faces in order null, ace, 2, 3, 4, 5 -> tile
    "red": dict(zip(["null", "ace", "2", "3", "4", "5"], "c1 b1 d2 a2 d5 a5".split(),
                    strict=True)),
    "blue": dict(zip(["null", "ace", "2", "3", "4", "5"], "b5 c5 a4 d4 a1 d1".split(),
                     strict=True)),
}


def naive_neighbours(tile):
    col, row = "abcd".index(tile[0]), int(tile[1])
    out = []
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        name = f"{'abcd'[col + dc]}{row + dr}" if 0 <= col + dc < 4 else None
        if name in BOARD:
            out.append(name)
    links = {"a5": "d1", "d1": "a5", "d5": "a1", "a1": "d5"}
    if tile in links:
        out.append(links[tile])
    if tile in ("a3", "d3"):
        out.append("cz")
    return out


def snapshot(state):
    board = {}
    for cell, pieces in state.physical().items():
        colours = {p.split("-")[0] for p in pieces}
        assert len(colours) == 1
        board[cell] = (colours.pop(), [int(p.split("-")[1]) for p in pieces])
    return board


def stronger_or_equal(mine, theirs):
    def rank(stack):
        return (2, len(stack)) if len(stack) >= 2 else (1, stack[0])
    return rank(mine) >= rank(theirs)


def naive_entries(board, stash, player, face):
    """Texts of the entry decision after ``face``."""
    tile = DIE[player][face]
    if tile not in board:
        return sorted({str(s) for s in stash})
    owner, stack = board[tile]
    if owner == player:
        return sorted({str(s) for s in stash if s < stack[-1]}) + ["none"]
    if len(stack) == 1:
        return sorted({str(s) for s in stash if s > stack[0]}) + ["none"]
    return ["none"]


def naive_turns(state, first):
    """Every whole turn of the side to move, as text."""
    board, player = snapshot(state), state.to_move
    stash = [s for s, n in state.stash(player).items() for _ in range(n)]
    turns = []
    if stash:
        for face in ["null", "ace", "2", "3", "4", "5"]:
            turns += [f"roll {face} {e}" for e in naive_entries(board, stash, player, face)]
    if not first:
        for tile, (owner, stack) in board.items():
            if owner != player:
                continue
            for to in naive_neighbours(tile):
                if to == "cz" or to not in board:
                    turns.append(f"{tile}-{to}")
                elif board[to][0] == player:
                    if max(stack) < board[to][1][-1]:
                        turns.append(f"{tile}-{to}")
                elif stronger_or_equal(stack, board[to][1]):
                    turns.append(f"{tile}-{to}")
    return sorted(turns) or ["pass"]


def decision_turns(state):
    """Every whole turn the rules offer, decision by decision, as text."""
    player = state.to_move
    out = []

    def walk(prefix):
        if state.outcome() is not None or state.to_move not in (player, rules.CHANCE):
            out.append(" ".join(prefix))
            return
        for move in state.legal_moves():
            state.push(move)
            walk([*prefix, state.move_str(move)])
            state.pop()

    walk([])
    return sorted(out)


def random_decision(state, rng):
    if state.to_move == rules.CHANCE:
        return state.sample_chance(rng)
    return rng.choice(state.legal_moves())


def play(text, state=None):
    state = state or telec.new_game()
    for word in text.split():
        state.push_str(word)
    return state


def texts(state):
    return [state.move_str(m) for m in state.legal_moves()]


# --- the naive implementation agrees --------------------------------------------------------


def test_naive_agrees_on_every_turn_of_seeded_games():
    compared = 0
    for seed in range(25):
        rng = random.Random(seed)
        state = telec.new_game()
        first = {"blue": True, "red": True}
        turn_player = None
        for _ in range(500):
            if state.outcome():
                break
            if state.to_move != rules.CHANCE and state.to_move != turn_player:
                turn_player = state.to_move
                assert decision_turns(state) == naive_turns(state, first[turn_player])
                compared += 1
            if state.to_move == turn_player and state.rolled:
                board = snapshot(state)
                stash = [s for s, n in state.stash(turn_player).items() for _ in range(n)]
                assert texts(state) == naive_entries(board, stash, turn_player, state.rolled)
            move = random_decision(state, rng)
            before = state.to_move
            state.push(move)
            if state.to_move not in (before, rules.CHANCE) and before != rules.CHANCE:
                first[before] = False
    assert compared > 1000


def test_decision_counts_after_given_rolls():
    # blue: single 3 on a1 (blue's "4"), stack 6+2 on d1 ("5"); red: single 4 on b5 (blue's
    # "null"), stack 5+1 on c5 ("ace"), single 6 on d4 ("3").
    pos = "a1=b3,d1=b62,d4=r6,b5=r4,c5=r51 blue:112344556:0 red:12233456:0 blue turn"
    for face, expected in {
        "null": ["5", "6", "none"],        # enemy single 4: bump with 5 or 6
        "ace": ["none"],                   # enemy stack: forfeit
        "2": ["1", "2", "3", "4", "5", "6"],  # vacant a4: any size in the stash
        "3": ["none"],                     # enemy single 6: nothing bigger
        "4": ["1", "2", "none"],           # own single 3: stack 1 or 2
        "5": ["1", "none"],                # own stack topped by 2: stack a 1
    }.items():
        state = telec.from_position(pos)
        state.push_str("roll")
        state.push_str(face)
        assert texts(state) == expected, face
        board = snapshot(state)
        stash = [s for s, n in state.stash("blue").items() for _ in range(n)]
        assert naive_entries(board, stash, "blue", face) == expected


# --- seeded random games -------------------------------------------------------------------


def test_seeded_games_keep_the_pyramids_and_the_stacks():
    for seed in range(40):
        rng = random.Random(1000 + seed)
        state = telec.new_game()
        for _ in range(1500):
            if state.outcome():
                assert state.center(state.outcome().winner) == 12
                break
            state.push(random_decision(state, rng))
            for player in telec.PLAYERS:
                count = Counter(state.stash(player))
                for cell, pieces in state.physical().items():
                    sizes = [int(p.split("-")[1]) for p in pieces]
                    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
                    assert cell not in ("b3", "c3")
                    count.update(int(p.split("-")[1]) for p in pieces if p.startswith(player))
                assert all(n <= 2 for n in count.values())
                assert sum(count.values()) + state.center(player) == 12
        else:
            pytest.fail(f"seed {seed}: no winner in 1500 decisions")


# --- one position per ruling -------------------------------------------------------------


def test_L1_board_tiles_hole_and_center_zone():
    names = telec.GEOMETRY.names
    assert len(telec.TILES) == 18 and "b3" not in names and "c3" not in names
    assert names[-1] == "cz" and telec.GEOMETRY.cell("cz").shape == "zone"
    assert telec.GEOMETRY.cell("a1").label == "blue 4"
    assert telec.GEOMETRY.cell("b2").label == "black 5"
    assert telec.GEOMETRY.cell("c5").label == "blue ace"
    with pytest.raises(rules.MoveSyntaxError, match="Center Zone"):
        telec.new_game().parse_move("b2-b3")


def test_L2_corner_links_no_crossing_the_hole_and_one_way_into_cz():
    state = telec.from_position("a5=b3,b2=b2,a3=b4 blue:112345566:0 red:112233445566:0 blue turn")
    assert texts(state) == ["roll", "a3-a2", "a3-a4", "a3-cz", "a5-a4", "a5-b5", "a5-d1",
                            "b2-a2", "b2-b1", "b2-c2"]
    with pytest.raises(rules.MoveSyntaxError, match="not neighbours"):
        state.parse_move("b2-b4")  # across the hole
    with pytest.raises(rules.MoveSyntaxError):
        state.parse_move("cz-a3")
    play("a3-cz", state)
    assert state.center("blue") == 1 and "a3" not in state.physical()


def test_L3_blue_first_twelve_pyramids_each():
    state = telec.new_game()
    assert state.to_move == "blue"
    assert state.stash("blue") == state.stash("red") == {s: 2 for s in range(1, 7)}


def test_L4_faces_indicate_own_tiles():
    for player, faces in telec.FACE_TILE.items():
        assert sorted(faces) == sorted(telec.FACES)
        for face, tile in faces.items():
            assert telec.GEOMETRY.cell(tile).label.split() == [player, face]
    state = play("roll 4 2 roll")  # red rolls now
    play("ace", state)
    assert state.indicated() == "b1"


def test_L5_first_turn_rolls_empty_stash_steps_no_turn_passes():
    assert texts(telec.new_game()) == ["roll"]
    state = play("roll 4 2")
    assert state.to_move == "red" and texts(state) == ["roll"]  # red's first turn rolls too
    play("roll 5 1", state)
    assert texts(state) == ["roll", "a1-a2", "a1-b1", "a1-d5"]  # then roll or step
    rolled = play("roll 2", telec.from_position(
        "a4=r65 blue:112233445566:0 red:1122334456:0 blue turn"))  # rolling is always allowed
    assert texts(rolled) == ["none"]
    empty = telec.from_position("a2=b1,b2=r2,a1=r3,a3=r4 blue::11 red:112345566:0 blue turn")
    assert texts(empty) == ["pass"]  # a2 is boxed in by bigger red singles, the stash empty
    play("pass", empty)
    assert empty.to_move == "red"


def test_L6_entering_vacant_own_enemy_single_enemy_stack():
    base = "b5=r3,c5=r42,a1=b5 blue:11223344566:0 red:112345566:0 blue 4"
    assert texts(telec.from_position(base)) == ["1", "2", "3", "4", "none"]  # own: smaller
    state = telec.from_position(base.replace("blue 4", "blue null"))
    assert texts(state) == ["4", "5", "6", "none"]  # enemy single 3: strictly bigger
    play("4", state)
    assert state.physical()["b5"] == ("blue-4",) and state.stash("red")[3] == 2
    assert texts(telec.from_position(base.replace("blue 4", "blue ace"))) == ["none"]
    assert texts(telec.from_position(base.replace("blue 4", "blue 2"))) == [
        "1", "2", "3", "4", "5", "6"]  # vacant a4: must enter, any size


def test_L7_power_stacks_by_count_singles_by_size():
    pos = "b2=b2,c2=r2,b1=b61,a2=r5,c1=r543 blue:123344556:0 red:1123466:0 blue turn"
    state = telec.from_position(pos)
    moves = texts(state)
    assert "b2-c2" in moves  # equal singles: bump
    assert "b2-a2" not in moves  # smaller single
    assert "b1-c1" not in moves  # a double does not beat a triple
    play("b2-c2", state)
    assert state.stash("red")[2] == 2
    state = telec.from_position(pos.replace("c1=r543", "c1=r3").replace("1123466", "112344566"))
    play("b1-c1", state)  # any stack beats any single
    assert state.physical()["c1"] == ("blue-6", "blue-1")


def test_L8_stacking_rules_and_the_center_zone():
    state = telec.from_position("a2=b4,a3=b321,a4=r2 blue:12345566:0 red:11233445566:0 blue turn")
    moves = texts(state)
    assert "a3-a2" in moves  # 3,2,1 all smaller than 4
    assert "a2-a3" not in moves  # 4 onto a 1: not smaller
    assert "a3-a4" in moves and "a3-cz" in moves
    play("a3-a2", state)
    assert state.physical()["a2"] == ("blue-4", "blue-3", "blue-2", "blue-1")
    play("a4-a3 a2-a3 roll null 6 a3-cz", state)  # the quad bumps red's 2, then leaves
    assert state.center("blue") == 4


def test_L9_all_twelve_in_the_center_zone_wins():
    state = telec.from_position("d3=b1 blue::11 red:112233445566:0 blue turn")
    play("d3-cz", state)
    assert state.outcome() == rules.Outcome("blue", "all twelve pyramids in the Center Zone")
    assert state.legal_moves() == []


def test_L10_the_die_is_a_chance_node_of_six_equal_faces():
    state = play("roll")
    assert state.to_move == rules.CHANCE and state.player == "blue"
    outcomes = state.chance_outcomes()
    assert [state.move_str(m) for m, _ in outcomes] == list(telec.FACES)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


# --- notation and position text -----------------------------------------------------------


def test_notation_words_and_errors():
    state = telec.new_game()
    for word in ["roll", "pass", "none", "null", "ace", "2", "6", "a3-cz", "a5-d1"]:
        assert state.move_str(state.parse_move(word)) == word
    assert state.parse_move(" ROLL ") == telec.ROLL
    for bad in ["7", "a1-c1", "roll 4", "", "cz-a3"]:
        with pytest.raises(rules.MoveSyntaxError):
            state.parse_move(bad)
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("a1-a2")


@pytest.mark.parametrize("text, fault", [
    ("- blue:112233445566:0 red:112233445566:0 green turn", "blue or red"),
    ("- blue:112233445566:0 red:112233445566:0 blue later", "step"),
    ("b3=b1 blue:12233445566:0 red:112233445566:0 blue turn", "hole"),
    ("a1=b12 blue:1233445566:0 red:112233445566:0 blue turn", "smaller"),
    ("a1=b1 blue:112233445566:0 red:112233445566:0 blue turn", "more than 2"),
    ("- blue:11223344556:0 red:112233445566:0 blue turn", "13|11 pyramids"),
    ("- blue::12 red::12 blue turn", "both sides"),
    ("- blue::12 red:112233445566:0 blue turn", "already won"),
    ("a1=r1 blue:112233445566:0 red:12233445566:0 blue turn first", "first turn"),
    ("- blue::0 red:112233445566:0 blue roll", "a side has 12"),
])
def test_bad_positions_name_the_fault(text, fault):
    with pytest.raises(rules.PositionError, match=fault):
        telec.from_position(text)
