"""Tulaga: a naive second implementation, seeded games, and one position per ruling (U-1..U-9)."""

import random
from itertools import combinations

import pytest

import rules
from rules.tulaga import GEOMETRY, Move

from .helpers import perft

# --- a deliberately naive second implementation: dict board, every window, every centre ---

FILES = "abcdefghi"
ALL_POINTS = [f"{f}{r}" for f in FILES for r in range(1, 10)]
CARDINAL = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
EIGHT = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def xy(name):
    return FILES.index(name[0]), int(name[1]) - 1


def nm(x, y):
    return f"{FILES[x]}{y + 1}" if 0 <= x < 9 and 0 <= y < 9 else None


def all_windows():
    out = []
    for p in ALL_POINTS:
        x, y = xy(p)
        for dx, dy in [(1, 0), (0, 1), (1, 1), (1, -1)]:
            w = [nm(x + k * dx, y + k * dy) for k in range(5)]
            if None not in w:
                out.append(w)
    return out


WINDOWS = all_windows()


def other(player):
    return "white" if player == "black" else "black"


def naive_new(n=6):
    return {"board": {}, "simple": {"black": 12, "white": 12}, "rank": {"black": n, "white": n},
            "to_move": "black"}


def naive_from_state(state):
    board = {p: pieces[0] for p, pieces in state.physical().items()}
    return {"board": board,
            "simple": {pl: state.piles(pl)[0] for pl in ("black", "white")},
            "rank": {pl: state.piles(pl)[1] for pl in ("black", "white")},
            "to_move": state.to_move}


def naive_outcome(g):
    for pl in ("black", "white"):
        if g["rank"][pl] == 0:
            return pl
    if g["simple"][g["to_move"]] == 0:
        return other(g["to_move"])
    return None


def naive_claims(board, me, p):
    b = dict(board)
    b[p] = me
    claims = []
    for w in WINDOWS:
        if p in w and all(b.get(q) == me for q in w):
            for r in w:
                claims.append((sorted(w), r))
    for x in range(1, 8):
        for y in range(1, 8):
            c = nm(x, y)
            if c in b:
                continue
            ring = [nm(x + dx, y + dy) for dx, dy in EIGHT]
            if p not in ring:
                continue
            own = sorted(q for q in ring if b.get(q) == me)
            for combo in combinations(own, 4):
                if p in combo:
                    claims.append((list(combo), c))
    return claims


def naive_ray(point, direction):
    x, y = xy(point)
    dx, dy = CARDINAL[direction]
    out = []
    while nm(x + dx, y + dy):
        x, y = x + dx, y + dy
        out.append(nm(x, y))
    return out


def naive_moves(g):
    if naive_outcome(g) is not None:
        return []
    me = g["to_move"]
    enemy = other(me)
    board = g["board"]
    out = []
    for p in ALL_POINTS:
        if p in board:
            continue
        out.append(p)
        for stones, r in naive_claims(board, me, p):
            text = f"{p}*{''.join(stones)}@{r}"
            out.append(text)
            if g["rank"][me] - 1 > 0:
                for d in "NESW":
                    if any(board.get(q) in (enemy, enemy + "-rank") for q in naive_ray(r, d)):
                        out.append(f"{text}>{d}")
    return sorted(out)


def naive_apply(g, text):
    me = g["to_move"]
    enemy = other(me)
    board = dict(g["board"])
    simple = dict(g["simple"])
    rank = dict(g["rank"])
    place, _, rest = text.partition("*")
    board[place] = me
    simple[me] -= 1
    if rest:
        stones, _, rest = rest.partition("@")
        r, _, reap = rest.partition(">")
        for i in range(0, len(stones), 2):
            del board[stones[i:i + 2]]
            simple[me] += 1
        board[r] = me + "-rank"
        rank[me] -= 1
        if reap and rank[me] > 0:
            for q in naive_ray(r, reap):
                if board.get(q) == enemy:
                    del board[q]
                    simple[enemy] += 1
                elif board.get(q) == enemy + "-rank":
                    board[q] = me + "-rank"
                    rank[enemy] += 1
                    rank[me] -= 1
                    if rank[me] == 0:
                        break
    return {"board": board, "simple": simple, "rank": rank, "to_move": enemy}


def same(state, g):
    assert {p: v[0] for p, v in state.physical().items()} == g["board"]
    for pl in ("black", "white"):
        assert state.piles(pl) == (g["simple"][pl], g["rank"][pl])
    assert state.to_move == g["to_move"]
    outcome = state.outcome()
    assert (outcome.winner if outcome else None) == naive_outcome(g)


def compare(state, apply_all=True):
    """Same legal moves as the naive version; every move gives the same next position."""
    g = naive_from_state(state)
    moves = state.legal_moves()
    texts = [state.move_str(m) for m in moves]
    assert sorted(texts) == naive_moves(g)
    if apply_all:
        for move, text in zip(moves, texts, strict=True):
            state.push(move)
            same(state, naive_apply(g, text))
            state.pop()
    return len(moves)


def pos(black="", white="", black_rank="", white_rank="", to="black", n=6):
    """A position text with the piles computed from the board (stones are conserved)."""
    def count(s):
        return len([p for p in s.split(",") if p])
    piles = (f"{12 - count(black)}+{n - count(black_rank)},"
             f"{12 - count(white)}+{n - count(white_rank)}")
    return (f"black:{black} white:{white} black-rank:{black_rank} white-rank:{white_rank} "
            f"piles:{piles} rank-stones:{n} {to}")


def state_of(**kw):
    return rules.from_position("tulaga", pos(**kw))


def claims(state):
    return [state.move_str(m) for m in state.legal_moves() if m.stones]


def biased_move(state, rng):
    """Random play that makes Tulagas often: claim when possible, place next to own stones."""
    moves = state.legal_moves()
    claim = [m for m in moves if m.stones]
    if claim and rng.random() < 0.7:
        return rng.choice(claim)
    mine = {p for p, v in state.physical().items() if v[0] == state.to_move}
    near = [m for m in moves if not m.stones
            and any(q in mine for q in GEOMETRY.adjacency[m.point])]
    if near and rng.random() < 0.85:
        return rng.choice(near)
    return rng.choice(moves)


# --- (a) against the naive implementation ---


def test_start_perft_matches_naive():
    state = rules.new_game("tulaga")
    assert compare(state) == 81
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += compare(state, apply_all=False)
        state.pop()
    assert total == 81 * 80

    assert perft(state, 3) == 81 * 80 * 79  # no Tulaga is possible in three plies


def test_random_play_positions_match_naive():
    positions = 0
    claims_seen = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = rules.new_game("tulaga", rank_stones=(4, 5, 6)[seed % 3])
        while state.outcome() is None:
            compare(state, apply_all=positions % 3 == 0)
            positions += 1
            move = biased_move(state, rng)
            claims_seen += bool(move.stones)
            state.push(move)
        compare(state)
    assert positions > 300 and claims_seen > 50, (positions, claims_seen)


def test_dense_random_positions_match_naive():
    """Crowded boards with runs longer than 5, full perimeters, rank stones of both sides."""
    tulagas = 0
    for seed in range(150):
        rng = random.Random(1000 + seed)
        w, h = rng.randrange(5, 10), rng.randrange(5, 10)
        x0, y0 = rng.randrange(10 - w), rng.randrange(10 - h)
        region = [nm(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)]
        chosen = rng.sample(region, 24)
        nb, nw = rng.randrange(4, 12), rng.randrange(0, 10)
        n = rng.choice((4, 5, 6))
        nbr, nwr = rng.randrange(0, n), rng.randrange(0, n)
        black, white = chosen[:nb], chosen[nb:nb + nw]
        rest = chosen[nb + nw:]
        black_rank, white_rank = rest[:min(nbr, len(rest))], rest[nbr:nbr + nwr]
        state = state_of(black=",".join(black), white=",".join(white),
                         black_rank=",".join(black_rank), white_rank=",".join(white_rank),
                         n=n, to=rng.choice(("black", "white")))
        compare(state)
        tulagas += bool(claims(state))
    assert tulagas > 30


# --- (b) Tulaga-specific invariants on seeded random games ---


def test_random_games_conserve_stones_and_end_exactly_per_U3_U9():
    ended = {"no simple stone": 0, "all rank stones placed": 0}
    for seed in range(150):
        rng = random.Random(seed)
        n = (4, 5, 6)[seed % 3]
        state = rules.new_game("tulaga", rank_stones=n)
        while True:
            physical = state.physical()
            for pl in ("black", "white"):
                simple, rank = state.piles(pl)
                assert simple + sum(v == (pl,) for v in physical.values()) == 12
                assert rank + sum(v == (pl + "-rank",) for v in physical.values()) == n
                assert state.stock()[pl] == {pl: simple, f"{pl}-rank": rank}
            outcome = state.outcome()
            stack = state.move_stack
            mover = "white" if state.to_move == "black" else "black"
            if stack and state.piles(mover)[1] == 0:
                assert outcome == (mover, "all rank stones placed")
            elif state.piles(state.to_move)[0] == 0:
                assert outcome == (mover, "no simple stone")
            else:
                assert outcome is None and state.legal_moves()
            if outcome is not None:
                assert state.legal_moves() == []
                ended[outcome.reason] += 1
                break
            state.push(biased_move(state, rng) if seed % 2 else rng.choice(state.legal_moves()))
    assert all(ended.values()), ended


# --- (c) one position per ruling ---


def test_U1_board_points_neighbours_and_first_player():
    names = GEOMETRY.names
    assert len(names) == 81 and set(names) == set(ALL_POINTS)
    assert all(c.shape == "point" for c in GEOMETRY.cells)
    assert sorted(GEOMETRY.adjacency["a1"]) == ["a2", "b1", "b2"]
    assert len(GEOMETRY.adjacency["e1"]) == 5 and len(GEOMETRY.adjacency["e5"]) == 8
    state = rules.new_game("tulaga")
    assert state.to_move == "black" and state.physical() == {}
    state.push_str("a1")
    assert state.physical() == {"a1": ("black",)} and state.to_move == "white"


def test_U2_piles_and_rank_stone_option():
    assert rules.new_game("tulaga").piles("white") == (12, 6)
    for n in (4, 5, 6):
        state = rules.new_game("tulaga", rank_stones=n)
        assert state.piles("black") == (12, n) and f"rank-stones:{n}" in state.position_str()
    for bad in (3, 7, 0, "6", True, None):
        with pytest.raises(ValueError, match="4, 5 or 6"):
            rules.new_game("tulaga", rank_stones=bad)


def test_U3_no_simple_stone_at_turn_start_loses():
    black = "a1,c1,e1,g1,i1,a3,c3,e3,g3,i3,a5,c5"
    state = state_of(black=black, white="b9,d9,f9,h9,b7", to="black")
    assert state.outcome() == ("white", "no simple stone")
    assert state.legal_moves() == []
    one_left = state_of(black=black.rsplit(",", 1)[0], white="b9,d9,f9,h9,b7", to="black")
    assert one_left.outcome() is None and len(one_left.legal_moves()) >= 65
    one_left.push_str("i9")  # black placed its last stone; white still plays
    assert one_left.outcome() is None
    one_left.push_str("h1")
    assert one_left.outcome() == ("white", "no simple stone")


def test_U4_row_of_five_on_rank_file_and_diagonal():
    def rows(state):
        return [state.move_str(m) for m in state.legal_moves() if len(m.stones) == 5]

    assert rows(state_of(black="a1,b1,c1,d1")) == [f"e1*a1b1c1d1e1@{r}"
                                                   for r in ("a1", "b1", "c1", "d1", "e1")]
    assert len(rows(state_of(black="c3,c4,c5,c6"))) == 2 * 5  # c2 or c7 ends the file row
    assert rows(state_of(black="a1,b2,c3,d4")) == [f"e5*a1b2c3d4e5@{r}"
                                                   for r in ("a1", "b2", "c3", "d4", "e5")]
    assert "e5*a9b8c7d6e5@e5" in rows(state_of(black="a9,b8,c7,d6"))
    assert rows(state_of(black="a1,b1,c1,d1", to="white")) == []  # only own stones count


def test_U4_rank_or_enemy_stone_breaks_a_row():
    assert claims(state_of(black="a1,b1,d1,e1", white="c1")) == []
    assert claims(state_of(black="a1,b1,d1,e1", black_rank="c1")) == []


def test_U4_longer_run_offers_each_window_with_the_new_stone():
    state = state_of(black="a1,b1,d1,e1,f1")  # c1 makes a run of 6
    windows = {m.stones for m in state.legal_moves() if m.point == "c1" and m.stones}
    assert windows == {("a1", "b1", "c1", "d1", "e1"), ("b1", "c1", "d1", "e1", "f1")}
    state = state_of(black="a1,b1,c1,d1,e1")  # f1 makes a run of 6: only b1..f1 holds f1
    assert {m.stones for m in state.legal_moves() if m.point == "f1" and m.stones} == {
        ("b1", "c1", "d1", "e1", "f1")}
    state = state_of(black="a1,b1,c1,d1,f1,g1,h1,i1")  # e1 in the middle of 9: five windows
    assert len({m.stones for m in state.legal_moves() if m.point == "e1" and m.stones}) == 5


def test_U5_perimeter_of_four_around_an_empty_inner_point():
    state = state_of(black="c4,c6,e5")  # around d5; d4 completes it
    assert claims(state) == ["c5*c4c5c6e5@d5", "d4*c4c6d4e5@d5", "d6*c4c6d6e5@d5",
                             "e4*c4c6e4e5@d5", "e6*c4c6e5e6@d5"]
    assert claims(state_of(black="c4,c6,e5", white="d5")) == []  # P occupied
    assert claims(state_of(black="c4,c6", black_rank="e5")) == []  # rank stones do not count
    edge = state_of(black="a4,a6,b5")  # b4 would put 4 around a5, which is not inner
    assert [m for m in edge.legal_moves() if m.point == "b4" and m.stones] == []
    assert not [m for m in edge.legal_moves() if m.rank == "a5"]


def test_U5_more_than_four_choose_four_with_the_new_stone():
    state = state_of(black="c4,c6,e5,e4")  # d6 would be the fifth around d5
    around_d5 = [m for m in state.legal_moves() if m.point == "d6" and m.rank == "d5"]
    assert len(around_d5) == 4  # choose 3 of the other 4: C(4, 3) = 4
    assert all("d6" in m.stones and len(m.stones) == 4 for m in around_d5)
    assert len({m.stones for m in around_d5}) == 4


def test_U6_claim_returns_stones_and_places_a_rank_stone_or_decline_keeps_them():
    state = state_of(black="a1,b1,c1,d1", white="a9")
    state.push_str("e1*a1b1c1d1e1@c1")
    assert state.physical() == {"c1": ("black-rank",), "a9": ("white",)}
    assert state.piles("black") == (12, 5)
    state.pop()
    state.push_str("e1")  # decline: the placement alone
    assert state.piles("black") == (7, 6) and len(state.physical()) == 6


def test_U7_reap_returns_enemy_simple_stones_and_replaces_rank_stones():
    state = state_of(black="a1,b1,c1,d1,c5", white="c2,c8", white_rank="c4,c9")
    assert "e1*a1b1c1d1e1@c1>N" in claims(state)
    state.push_str("e1*a1b1c1d1e1@c1>N")
    assert state.physical() == {"c1": ("black-rank",), "c4": ("black-rank",),
                                "c5": ("black",), "c9": ("black-rank",)}
    assert state.piles("white") == (12, 6) and state.piles("black") == (11, 3)


def test_U7_direction_without_enemy_is_no_reap():
    state = state_of(black="a1,b1,c1,d1,c3", white="i9")
    assert not [m for m in claims(state) if ">" in m]
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("e1*a1b1c1d1e1@c1>N")


def test_U7_replacement_emptying_the_pile_wins_and_the_rest_stays():
    state = state_of(black="a1,b1,c1,d1", black_rank="i1,i2,i3", white="c3,c7",
                     white_rank="c5,c6")
    state.push_str("e1*a1b1c1d1e1@c1>N")  # pile 3 -> claim 2 -> c5 replaced 1 -> c6 replaced 0
    assert state.outcome() == ("black", "all rank stones placed")
    physical = state.physical()
    assert physical["c5"] == physical["c6"] == ("black-rank",)
    assert physical["c7"] == ("white",) and "c3" not in physical


def test_U8_several_tulagas_claim_at_most_one():
    # e5 completes the file e1..e5 and the rank a5..e5 and the perimeter of d4
    state = state_of(black="e1,e2,e3,e4,a5,b5,c5,d5")
    mine = [m for m in state.legal_moves() if m.point == "e5" and m.stones]
    kinds = {m.stones for m in mine}
    assert ("e1", "e2", "e3", "e4", "e5") in kinds and ("a5", "b5", "c5", "d5", "e5") in kinds
    assert ("c5", "d5", "e4", "e5") in kinds  # around d4 (rank stone on d4)
    state.push_str("e5*e1e2e3e4e5@e3")
    assert state.physical()["a5"] == ("black",) and "e5" not in state.physical()


def test_U9_claim_emptying_the_rank_pile_wins_without_reap():
    state = state_of(black="a1,b1,c1,d1", black_rank="h1,h2,h3,h4,h5", white="c9")
    assert not [m for m in claims(state) if ">" in m]
    state.push_str("e1*a1b1c1d1e1@c1")
    assert state.outcome() == ("black", "all rank stones placed")
    assert state.legal_moves() == []


def test_U9_declined_tulaga_only_returns_when_a_placement_makes_it_again():
    state = state_of(black="a1,b1,c1,d1", white="a9")
    state.push_str("e1")  # decline
    state.push_str("b9")
    offered = {m.stones for m in state.legal_moves()}
    assert ("a1", "b1", "c1", "d1", "e1") not in offered
    assert not [m for m in claims(state) if m.startswith(("g5", "i9"))]
    assert {m.stones for m in state.legal_moves() if m.point == "f1" and m.stones} == {
        ("b1", "c1", "d1", "e1", "f1")}  # a1..e1 itself is not on offer


# --- notation and position text ---


def test_notation_round_trip_and_any_stone_order():
    state = rules.new_game("tulaga")
    for text in ("e5", "e5*a1b2c3d4e5@c3", "e5*a1b2c3d4e5@c3>N", "d4*c4c6d4e5@d5>W"):
        assert state.move_str(state.parse_move(text)) == text
    assert state.parse_move(" E5*E5D4C3B2A1@C3>n ") == Move(
        "e5", ("a1", "b2", "c3", "d4", "e5"), "c3", "N")
    assert state.parse_move("e5") == Move("e5")


@pytest.mark.parametrize("text", [
    "", "j1", "e0", "e5*", "e5>N", "e5*a1b2c3d4e5", "e5*a1b2c3d4e5@c3>X",
    "e5*a1b2c3d4e6@c3",  # placed stone not in the Tulaga
    "e5*a1b2c3e5f6@c3",  # not consecutive
    "e5*a1b2c3d4e5@f6",  # row rank stone off the row
    "d4*c4c6d4e5@e5",  # perimeter rank stone among the stones
    "b1*a1b1a2b2@a1",  # perimeter around an edge point
    "e5*e5e5c3d4a1@c3",  # a stone twice
    "e5*d4e5@d5",  # two stones
])
def test_bad_move_texts_raise(text):
    with pytest.raises(rules.MoveSyntaxError):
        rules.new_game("tulaga").parse_move(text)


def test_position_text_round_trip():
    text = ("black:e5,f5 white:c3 black-rank:d4 white-rank: piles:10+5,11+6 "
            "rank-stones:6 white")
    state = rules.from_position("tulaga", text)
    assert state.position_str() == text
    assert state.physical() == {"e5": ("black",), "f5": ("black",), "c3": ("white",),
                                "d4": ("black-rank",)}
    assert rules.new_game("tulaga").position_str() == (
        "black: white: black-rank: white-rank: piles:12+6,12+6 rank-stones:6 black")


@pytest.mark.parametrize("text, words", [
    ("black: white: black-rank: white-rank: piles:12+6,12+6 rank-stones:6", "must be"),
    ("black:z9 white: black-rank: white-rank: piles:11+6,12+6 rank-stones:6 black", "z9"),
    ("black:a1 white:a1 black-rank: white-rank: piles:11+6,11+6 rank-stones:6 black", "two"),
    ("black:a1 white: black-rank: white-rank: piles:12+6,12+6 rank-stones:6 black",
     "black has 1 simple"),
    ("black: white: black-rank:a1 white-rank: piles:12+6,12+6 rank-stones:6 black",
     "black has 1 rank"),
    ("black: white: black-rank: white-rank: piles:12+7,12+7 rank-stones:7 black", "4, 5 or 6"),
    ("black: white: black-rank: white-rank: piles:12,12 rank-stones:6 black", "piles"),
    ("white: black: black-rank: white-rank: piles:12+6,12+6 rank-stones:6 black", "'black:'"),
    ("black: white: black-rank: white-rank: piles:12+6,12+6 rank-stones:6 red", "to move"),
    ("black: white: black-rank:a1,a2,a3,a4 white-rank: piles:12+0,12+4 rank-stones:4 black",
     "empty rank pile"),
])
def test_bad_position_texts_name_the_fault(text, words):
    with pytest.raises(rules.PositionError, match=words):
        rules.from_position("tulaga", text)
