"""Teblo: a naive second implementation, seeded random games, one position per ruling.

The naive generator below shares no code with ``rules.teblo``: it reads a state through its
public API (``physical()``, ``hand()``, ``to_move``), tries every candidate move and floods
both pawns' graphs after each one (a breadth-first flood fill per candidate move).
"""

from __future__ import annotations

import random

import pytest

import rules
from rules import teblo

FILES = "abcdefghijkl"
N = 144
ALL = (1 << N) - 1
FILE_A = sum(1 << (12 * r) for r in range(12))
FILE_L = FILE_A << 11
NOT_A, NOT_L = ALL & ~FILE_A, ALL & ~FILE_L
NAMES = [f"{FILES[i % 12]}{i // 12 + 1}" for i in range(N)]
INDEX = {n: i for i, n in enumerate(NAMES)}
BOX = {"a1", "l12", "a12", "l1"}
BASE = {"yellow": "a1", "red": "l12"}
OTHER = {"yellow": "red", "red": "yellow"}
NEIGHBOURS = {
    NAMES[i]: [
        NAMES[j]
        for j, ok in (
            (i - 12, i >= 12), (i + 12, i < N - 12), (i - 1, i % 12), (i + 1, i % 12 < 11)
        )
        if ok
    ]
    for i in range(N)
}
BOTH_BASES = (1 << INDEX["a1"]) | (1 << INDEX["l12"])


# -- the naive implementation -------------------------------------------------------------


def snapshot(state):
    """(blocks {square: colour}, pawns {colour: square}, hand {colour: n}, mover)."""
    blocks, pawns = {}, {}
    for cell, pieces in state.physical().items():
        for piece in pieces:
            if piece.endswith("-block"):
                blocks[cell] = piece[: -len("-block")]
            else:
                pawns[piece] = cell
    hand = {p: state.hand(p) for p in teblo.PLAYERS}
    return blocks, pawns, hand, state.to_move


def flood(start: str, passable: int) -> int:
    """Breadth-first flood fill from ``start`` over ``passable``; stops once both bases
    are reached (all B-4 asks)."""
    reach = 1 << INDEX[start]
    while reach & BOTH_BASES != BOTH_BASES:
        grown = (reach | ((reach << 1) & NOT_A) | ((reach >> 1) & NOT_L)
                 | (reach << 12) | (reach >> 12)) & passable
        if grown == reach:
            return reach
        reach = grown
    return reach


def block_masks(blocks: dict) -> dict:
    """Bit masks of each colour's blocks."""
    masks = {c: 0 for c in teblo.PLAYERS}
    for sq, colour in blocks.items():
        masks[colour] |= 1 << INDEX[sq]
    return masks


def reaches_both_bases(masks: dict, colour: str, start: str) -> bool:
    """B-4 for one pawn: empty white squares, own blocks and boxes are passable."""
    return flood(start, ALL & ~masks[OTHER[colour]]) & BOTH_BASES == BOTH_BASES


def everyone_reaches(masks: dict, pawns: dict) -> bool:
    return all(reaches_both_bases(masks, c, pawns[c]) for c in teblo.PLAYERS)


def naive_search(state) -> tuple[list[str], set[str]]:
    """(every legal move's notation, the cutting placements), by trying each candidate
    move and flooding both pawns' graphs afterwards (B-4)."""
    blocks, pawns, hand, me = snapshot(state)
    enemy = OTHER[me]
    if pawns[me] == BASE[enemy] or pawns[enemy] == BASE[me]:
        return [], set()
    masks = block_masks(blocks)
    moves, cuts = [], set()
    for sq in NAMES:
        if sq in BOX or sq in blocks or sq in pawns.values():
            continue
        after = dict(masks)
        after[me] |= 1 << INDEX[sq]
        if not everyone_reaches(after, pawns):
            cuts.add(sq)
        elif hand[me]:
            moves.append(f"+{sq}")
    frm = pawns[me]
    for to in NEIGHBOURS[frm]:
        if blocks.get(to) == enemy:
            continue
        if to == pawns[enemy] and to != BASE[enemy]:
            continue
        after = dict(pawns)
        after[me] = to
        if everyone_reaches(masks, after):
            moves.append(f"{frm}-{to}")
    return moves, cuts


def naive_legal_moves(state) -> list[str]:
    return naive_search(state)[0]


def naive_has_move(state) -> bool:
    """Whether any move passes B-3 and B-4 (stops at the first one found)."""
    blocks, pawns, hand, me = snapshot(state)
    enemy = OTHER[me]
    if pawns[me] == BASE[enemy] or pawns[enemy] == BASE[me]:
        return False
    masks = block_masks(blocks)
    for step in b3_steps(state):
        if everyone_reaches(masks, {**pawns, me: step.split("-")[1]}):
            return True
    for sq in NAMES if hand[me] else ():
        if sq in BOX or sq in blocks or sq in pawns.values():
            continue
        after = dict(masks)
        after[me] |= 1 << INDEX[sq]
        if everyone_reaches(after, pawns):
            return True
    return False


def b3_steps(state) -> list[str]:
    """Steps B-3 allows, before any B-4 check."""
    blocks, pawns, _hand, me = snapshot(state)
    enemy = OTHER[me]
    frm = pawns[me]
    return [
        f"{frm}-{to}" for to in NEIGHBOURS[frm]
        if blocks.get(to) != enemy and (to != pawns[enemy] or to == BASE[enemy])
    ]


# -- random positions ---------------------------------------------------------------------


def _pick(rng, state, walls: bool, walk: bool = False):
    """Uniform random move, or (walls) placements near the opponent's pawn to make cuts,
    or (walk) mostly pawn steps, mostly towards the enemy base, so games reach B-5's ends."""
    moves = state.legal_moves()
    if walk and rng.random() < 0.7:
        goal = INDEX[BASE[OTHER[state.to_move]]]

        def distance(m):
            (r, f), (gr, gf) = divmod(INDEX[m.to], 12), divmod(goal, 12)
            return abs(r - gr) + abs(f - gf)

        steps = [m for m in moves if not m.is_placement]
        if steps:
            closer = [m for m in steps if distance(m) < distance(teblo.Move("", m.frm))]
            return rng.choice(closer if closer and rng.random() < 0.8 else steps)
    if not walls or rng.random() < 0.2:
        return rng.choice(moves)
    target = INDEX[state.pawn(OTHER[state.to_move])]
    tr, tf = divmod(target, 12)

    def near(m):
        r, f = divmod(INDEX[m.to], 12)
        return m.is_placement and abs(r - tr) + abs(f - tf) <= 3

    close = [m for m in moves if near(m)]
    return rng.choice(close or moves)


def random_positions(count: int, seed: int = 0):
    """Positions from seeded random play with many blocks (every ply of each game)."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < count:
        state = teblo.new_game()
        walls = game % 2 == 1
        game += 1
        for _ply in range(80):
            yield state
            made += 1
            if made >= count or state.outcome() is not None:
                break
            state.push(_pick(rng, state, walls))


# -- (a) fast generator against the naive one ---------------------------------------------


def test_fast_legal_moves_agree_with_naive_search_on_10000_positions():
    checked = with_cuts = steps_checked = 0
    for state in random_positions(10_000, seed=2024):
        fast = [state.move_str(m) for m in state.legal_moves()]
        assert fast == [state.move_str(m) for m in sorted(state.legal_moves())]
        naive, naive_cuts = naive_search(state)
        assert sorted(fast) == sorted(naive), state.position_str()
        assert len(set(fast)) == len(fast)
        cuts = set(state.cutting_placements())
        if state.outcome() is None:
            assert cuts == naive_cuts, state.position_str()
            with_cuts += bool(cuts)
            # The documented claim: every step B-3 allows also keeps B-4.
            steps = b3_steps(state)
            assert all(s in fast for s in steps), state.position_str()
            steps_checked += len(steps)
        checked += 1
    assert checked == 10_000
    assert with_cuts > 2_000, "the random positions should often have cut squares"
    assert steps_checked > 10_000


def test_fast_agrees_after_pop_and_clone():
    rng = random.Random(7)
    state = teblo.new_game()
    for _ in range(60):
        moves = state.legal_moves()
        if not moves:
            break
        state.push(rng.choice(moves))
        clone = state.clone()
        undone = clone.pop()
        assert [clone.move_str(m) for m in clone.legal_moves()] == sorted(
            naive_legal_moves(clone), key=lambda t: clone.parse_move(t))
        clone.push(undone)
        assert clone.legal_moves() == state.legal_moves()


# -- (b) seeded random games with Teblo invariants ----------------------------------------


def _play_checked(seed: int) -> str:
    """One seeded random game, checking Teblo's invariants each ply; returns how it ended."""
    rng = random.Random(seed)
    state = teblo.new_game()
    for _ply in range(300):
        blocks, pawns, hand, me = snapshot(state)
        masks = block_masks(blocks)
        for colour in teblo.PLAYERS:
            on_board = sum(1 for c in blocks.values() if c == colour)
            assert on_board + hand[colour] == teblo.BLOCKS_PER_SIDE
            assert len(state.blocks(colour)) == on_board
            assert reaches_both_bases(masks, colour, pawns[colour])
        won = [c for c in teblo.PLAYERS if pawns[c] == BASE[OTHER[c]]]
        outcome = state.outcome()
        if won:
            assert outcome == rules.Outcome(won[0], "reached the opponent's base")
            assert state.legal_moves() == []
            return outcome.reason
        if not naive_has_move(state):
            assert outcome == rules.Outcome(OTHER[me], "no legal move")
            return outcome.reason
        assert outcome is None
        move = _pick(rng, state, walls=seed % 2 == 1, walk=seed % 3 != 0)
        state.push(move)
        if not move.is_placement and move.to == BASE[OTHER[me]]:
            assert state.outcome().winner == me
    assert len(state.move_stack) == 300
    return "unfinished"


def test_random_games_keep_teblo_invariants():
    endings = [_play_checked(seed) for seed in range(60)]
    assert endings.count("reached the opponent's base") >= 20, endings


# -- (c) one position per ruling -----------------------------------------------------------


def test_B1_board_is_12x12_with_four_coloured_boxes():
    g = teblo.GEOMETRY
    assert len(g.cells) == 144 and g.names[0] == "a1" and g.names[-1] == "l12"
    boxes = {c.name: c.label for c in g.cells if c.shape == "box"}
    assert boxes == {"a1": "yellow", "l12": "red", "a12": "neutral", "l1": "neutral"}
    assert sum(c.shape == "square" for c in g.cells) == 140
    assert sorted(g.adjacency["a1"]) == ["a2", "b1"]
    assert sorted(g.adjacency["f6"]) == ["e6", "f5", "f7", "g6"]
    assert len(g.adjacency["l12"]) == 2


def test_B2_start_position():
    state = rules.new_game("teblo")
    assert state.to_move == "yellow"
    assert state.physical() == {"a1": ("yellow",), "l12": ("red",)}
    assert state.hand("yellow") == state.hand("red") == 25
    assert state.stock() == {"yellow": {"yellow-block": 25}, "red": {"red-block": 25}}
    assert state.position_str() == "yellow:a1:25: red:l12:25: yellow"
    moves = [state.move_str(m) for m in state.legal_moves()]
    assert len(moves) == 142  # 140 placements and two steps
    assert moves[-2:] == ["a1-a2", "a1-b1"]


def test_B3_blocks_go_on_empty_white_squares_only():
    state = rules.from_position("teblo", "yellow:c3:24:f6 red:d4:24:g7 yellow")
    legal = {state.move_str(m) for m in state.legal_moves()}
    assert "+e5" in legal
    for taken in ("+f6", "+g7", "+c3", "+d4"):
        assert taken not in legal
    for box in ("+a1", "+l12", "+a12", "+l1"):
        with pytest.raises(rules.MoveSyntaxError):
            state.parse_move(box)


def test_B3_pawn_steps_onto_own_block_and_box_but_not_enemy_block():
    state = rules.from_position("teblo", "yellow:b1:23:b2,c1 red:k12:24:a2 yellow")
    steps = [state.move_str(m) for m in state.legal_moves() if not m.is_placement]
    assert steps == ["b1-a1", "b1-b2", "b1-c1"]
    state.push_str("b1-b2")
    assert state.physical()["b2"] == ("yellow-block", "yellow")
    state.push_str("k12-l12")  # a pawn may go back onto its own base
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("b2-a2")  # red block
    state.push_str("b2-b3")
    assert state.physical()["b2"] == ("yellow-block",)


def test_B3_pawn_may_not_step_onto_the_other_pawn():
    state = rules.from_position("teblo", "yellow:e5:25: red:e6:25: yellow")
    steps = [state.move_str(m) for m in state.legal_moves() if not m.is_placement]
    assert "e5-e6" not in steps and len(steps) == 3
    neutral = rules.from_position("teblo", "yellow:k1:25: red:l1:25: yellow")
    assert "k1-l1" not in [neutral.move_str(m) for m in neutral.legal_moves()]


def test_B3_pawn_may_enter_opponent_base_when_defended():
    state = rules.from_position("teblo", "yellow:k12:25: red:l12:25: yellow")
    assert state.is_legal(state.parse_move("k12-l12"))
    state.push_str("k12-l12")
    assert state.outcome() == rules.Outcome("yellow", "reached the opponent's base")
    assert state.physical()["l12"] == ("red", "yellow")  # defender below, attacker on top
    assert rules.from_position("teblo", state.position_str()).physical() == state.physical()


def test_B3_without_blocks_in_hand_only_steps():
    blocks = ",".join(f"{f}{r}" for r in (3, 5, 7, 9, 11) for f in "bdfhj")
    state = rules.from_position("teblo", f"yellow:f6:0:{blocks} red:l12:25: yellow")
    assert all(not m.is_placement for m in state.legal_moves())
    assert len(state.legal_moves()) == 4


def test_B4_placement_that_cuts_a_pawn_off_is_illegal():
    # Red's pawn on l12 has k12 (yellow block) and l11: l11 is its only way out.
    state = rules.from_position("teblo", "yellow:a1:24:k12 red:l12:25: yellow")
    assert not state.is_legal(state.parse_move("+l11"))
    assert state.cutting_placements() == ["l11"]
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("+l11")


def test_B4_own_block_does_not_cut_own_pawn():
    # The same square is fine for red: red's block stays passable for red's pawn, and
    # yellow still enters l12 over its own block on k12.
    state = rules.from_position("teblo", "yellow:a1:24:k12 red:l12:25: red")
    assert state.is_legal(state.parse_move("+l11"))
    assert state.cutting_placements() == []


def test_B4_a_pawn_must_keep_its_own_base_too():
    # Yellow's pawn is far from home; a1 is reached only through a2 (red blocks b1).
    state = rules.from_position("teblo", "yellow:f6:25: red:l12:24:b1 red")
    assert "a2" in state.cutting_placements()
    assert not state.is_legal(state.parse_move("+a2"))


def test_B4_a_corridor_square_far_from_the_pawn_is_a_cut():
    # Red blocks wall rank 4 except e4: yellow (on c2) needs e3, e4, e5 for l12.
    wall = ",".join(f"{f}4" for f in "abcdfghijkl")
    state = rules.from_position("teblo", f"yellow:c2:25: red:l12:14:{wall} red")
    assert state.cutting_placements() == ["e3", "e4", "e5"]  # the gap and both its mouths
    # e6 is not a cut for yellow: d5-d6 and f5-f6 go around it.
    assert state.is_legal(state.parse_move("+e6"))


def test_B4_position_with_a_cut_off_pawn_is_rejected():
    wall = ",".join(f"{f}4" for f in "abcdefghijkl")
    with pytest.raises(rules.PositionError, match="yellow pawn on c2 cannot reach"):
        rules.from_position("teblo", f"yellow:c2:25: red:l12:13:{wall} red")


def test_B5_entering_the_opponent_base_wins():
    state = rules.from_position("teblo", "yellow:a1:25: red:b1:25: red")
    state.push_str("b1-a1")
    assert state.outcome() == rules.Outcome("red", "reached the opponent's base")
    assert state.legal_moves() == []
    assert state.physical()["a1"] == ("yellow", "red")
    assert not state.is_legal(state.parse_move("+f6"))


def test_B5_no_legal_move_loses():
    # Yellow has no blocks left; b1 is a red block and red's pawn stands on a2.
    spread = [f"{f}{r}" for r in (3, 5, 7, 9, 11) for f in "bdfhj"]
    text = f"yellow:a1:0:{','.join(spread)} red:a2:24:b1 yellow"
    state = rules.from_position("teblo", text)
    assert state.legal_moves() == []
    assert state.outcome() == rules.Outcome("red", "no legal move")


# -- notation, position text, physical ------------------------------------------------------


def test_notation_round_trip_and_errors():
    state = teblo.new_game()
    assert state.parse_move("+f6") == teblo.Move("", "f6")
    assert state.parse_move(" F6-F7 ") == teblo.Move("f6", "f7")
    assert state.move_str(teblo.Move("l11", "l12")) == "l11-l12"
    for bad in ("f6", "+m3", "a13-a12", "f6-f8", "f6-g7", "+a12", "f6f7", "", "+f6-f7"):
        with pytest.raises(rules.MoveSyntaxError):
            state.parse_move(bad)
    assert teblo.Move("", "b2") < teblo.Move("a1", "a2")  # placements sort first


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("yellow:a1:24:a12 red:l12:25: yellow", "coloured box"),
        ("yellow:a1:24:m3 red:l12:25: yellow", "unknown Teblo square 'm3'"),
        ("yellow:z9:25: red:l12:25: yellow", "unknown Teblo square 'z9'"),
        ("yellow:a1:25:f6 red:l12:25: yellow", "too many yellow blocks"),
        ("yellow:a1:20:f6 red:l12:25: yellow", "too few yellow blocks"),
        ("yellow:a1:24:f6 red:l12:24:f6 yellow", "two blocks"),
        ("yellow:f6:25: red:l12:24:f6 yellow", "enemy block"),
        ("yellow:f6:25: red:f6:25: yellow", "both pawns on f6"),
        ("yellow:a1:x: red:l12:25: yellow", "must be a number"),
        ("yellow:l12:25: red:l12:25: yellow", "already won"),
        ("yellow:l12:25: red:a1:25: yellow", "only one side"),
        ("red:l12:25: yellow:a1:25: yellow", "expected 'yellow:"),
        ("yellow:a1:25: red:l12:25: blue", "must be"),
    ],
)
def test_position_errors_name_the_fault(text, fault):
    with pytest.raises(rules.PositionError, match=fault):
        rules.from_position("teblo", text)


def test_position_text_round_trip_mid_game():
    rng = random.Random(3)
    state = teblo.new_game()
    for _ in range(30):
        state.push(rng.choice(state.legal_moves()))
    again = rules.from_position("teblo", state.position_str())
    assert again == state and again.legal_moves() == state.legal_moves()
    assert again.cutting_placements() == state.cutting_placements()


def test_module_docstring_examples():
    import doctest

    assert doctest.testmod(teblo).failed == 0


def test_parse_move_rejects_non_text():
    with pytest.raises(rules.MoveSyntaxError):
        teblo.new_game().parse_move(None)
