"""Tesulda: a naive second implementation, seeded random games, one position per ruling.

The naive implementation (``tesulda_naive``) shares no code with ``rules.tesulda``; it
reads states through ``physical()``, ``pool()`` and ``to_move`` only.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import rules
from rules import tesulda
from rules.tesulda_setup import default_setup_text

from . import tesulda_naive as naive

CROWN_A1, CROWN_J10 = "a1=Tk", "j10=Tk"  # crown-only triangles: they cannot move


def position(light: str, dark: str, to: str = "light", pool: str = "", extra: str = ""):
    """A position from figure lists (``d4=Sssh,...``); each side's Prime stays far away
    unless the lists name one."""
    def has_crown(figs: str) -> bool:
        return any("k" in f.split("=")[1] for f in figs.split(",") if f)

    if not has_crown(light):
        light = ",".join(filter(None, [CROWN_A1, light]))
    if not has_crown(dark):
        dark = ",".join(filter(None, [dark, CROWN_J10]))
    text = f"light:{light} dark:{dark} pool:{pool} {to} {extra}".strip()
    return rules.from_position("tesulda", text)


def moves(state, cell: str | None = None) -> list[str]:
    out = [state.move_str(m) for m in state.legal_moves()]
    return [m for m in out if cell is None or m.startswith(cell)]


def ends(state, cell: str) -> set[str]:
    """Where the legal moves of the figure on ``cell`` end."""
    return {m.to for m in state.legal_moves() if m.kind == "move" and m.frm == cell}


def random_positions(games: int, turns: int, seed: int = 0):
    """Turn starts of seeded random games (the first ``turns`` turns of each)."""
    for game in range(games):
        for state in random_game(game, turns, seed):
            yield game, state


def random_game(game: int, turns: int, seed: int = 0):
    """The turn starts of game number ``game`` of ``random_positions``."""
    rng = random.Random(seed * 1000 + game)
    state = tesulda.new_game()
    for _turn in range(turns):
        if state.outcome() is not None:
            break
        yield state
        me = state.to_move
        while state.to_move == me and state.legal_moves():
            state.push(rng.choice(state.legal_moves()))


# -- (a) against the naive implementation --------------------------------------------------

LEGAL_FIGURES = []
for base, extra in itertools.product("CST", itertools.product(
        range(3), range(3), range(2), range(2), range(2), range(3))):
    circles, squares, diamond, trapezoid, hexagon, stars = extra
    text = base + "r" * stars + "c" * circles + "s" * squares + "d" * diamond \
        + "z" * trapezoid + "h" * hexagon
    if len(text) - 1 <= 5:
        LEGAL_FIGURES.append(text)


def test_reach_agrees_with_naive_paths_for_every_trait_combination():
    """Every base with every mix of reach pieces and traits (Jumper, Dodger, Boost,
    Tactician once or twice, Minion), on random squares among random figures."""
    rng = random.Random(9)
    checked = Counter()
    for text in LEGAL_FIGURES:
        for side in ("light", "dark"):
            for _ in range(2):
                cells = rng.sample([f"{f}{r}" for f in naive.FILES for r in range(2, 10)], 14)
                mine, others = cells[0], cells[1:]
                figs = {"light": [CROWN_A1], "dark": [CROWN_J10]}
                figs[side].append(f"{mine}={text}")
                for cell in others:
                    figs[rng.choice(("light", "dark"))].append(f"{cell}=Scs")
                state = rules.from_position(
                    "tesulda", f"light:{','.join(figs['light'])} dark:{','.join(figs['dark'])}"
                               f" pool: {side}")
                board, _pool = naive.snapshot(state)
                expected = naive.reach(board, mine)
                assert set(state.reach(mine)) == expected, (text, state)
                t = tesulda.traits(state.figure(mine))
                checked[(t.jumper, t.dodger, t.minion)] += 1
                for enemy_cell in others:
                    if board[enemy_cell][0] != side:
                        assert (mine in state.attackers(enemy_cell)) == (enemy_cell in expected)
    assert len(checked) == 8, checked  # every mix of Jumper, Dodger, Minion occurred


def test_turn_results_agree_with_naive_on_random_games():
    """The set of distinct positions complete legal turns leave agrees with the naive
    enumeration. ``make test`` runs the first 3 turns of 12 seeded games; ``bench/tesulda.py
    --agree`` runs the first 12 turns of 100 games."""
    checked = 0
    for _game, state in random_positions(games=12, turns=3):
        assert naive.fast_turn_results(state) == naive.turn_results(state), state
        checked += 1
    assert checked == 36


def test_turn_results_agree_with_naive_in_the_middle_game():
    """Turn starts from later in seeded games (captures, swaps, Primes under pressure)."""
    checked = captures = 0
    for game, state in random_positions(games=3, turns=60, seed=5):
        if len(state.move_stack) < 40 or (len(state.move_stack) + game) % 7:
            continue
        fast = naive.fast_turn_results(state)
        assert fast == naive.turn_results(state), state
        captures += bool(state.pool())
        checked += 1
    assert checked >= 10 and captures >= 5, (checked, captures)



def test_prime_moves_and_crown_swap_rescues_agree_with_naive():
    """A Prime among friends it can swap with and enemies that reach around it: the turns
    the rules allow (the Prime's own moves checked against every enemy, moves that leave
    it attacked until a swap carries the crown away) agree with the naive enumeration."""
    rng = random.Random(23)
    free = [f"{f}{r}" for f in naive.FILES[1:9] for r in range(2, 10)]
    checked = prime_moves = rescues = 0
    for _ in range(40):
        prime = rng.choice(free)
        px, py = naive.xy(prime)
        near = [c for c in (naive.square(px + dx, py + dy) for dx in (-1, 0, 1)
                            for dy in (-1, 0, 1) if dx or dy) if c]
        friends = rng.sample(near, 3)
        enemies = rng.sample([c for c in free if c != prime and c not in friends], 5)
        light = [f"{prime}={rng.choice(('Skss', 'Ckcc', 'Skc', 'Tk', 'Ckh'))}"] + [
            f"{c}={rng.choice(('Scs', 'Ccc', 'Sss', 'Tcs', 'Csd'))}" for c in friends]
        dark = [f"{c}={rng.choice(('Sssh', 'Ccch', 'Sszc', 'Ssd', 'Ccz', 'Tcs'))}"
                for c in enemies]
        state = position(",".join(light), ",".join(dark))
        if state.outcome() is not None:
            continue
        assert naive.fast_turn_results(state) == naive.turn_results(state), state
        checked += 1
        for move in state.legal_moves():
            prime_moves += move.frm == prime
            state.push(move)
            rescues += state.to_move == "light" and any(
                state.attackers(cell) for cell in state.primes("light"))
            state.pop()
    assert checked >= 30 and prime_moves >= 80 and rescues >= 20, (checked, prime_moves,
                                                                     rescues)


# -- (b) seeded random games with Tesulda's invariants -------------------------------------

def _totals(state) -> Counter:
    """Every piece of both sides: on the board, in the pool, or held by the attacker."""
    count = Counter(state.pool())
    for _base, *pieces in state.physical().values():
        count.update(pieces)
    return count


def test_random_games_keep_tesulda_invariants():
    start_total = _totals(tesulda.new_game())
    assert start_total == Counter({k: 2 * n for k, n in
                                   {"crown": 1, "star": 1, "circle": 16, "square": 16,
                                    "diamond": 4, "trapezoid": 4, "hexagon": 9}.items()})
    endings = Counter()
    for seed in range(8):
        rng = random.Random(seed)
        state = tesulda.new_game()
        for _ply in range(300):
            outcome = state.outcome()
            if outcome is not None:
                endings[outcome.reason] += 1
                break
            me = state.to_move
            decision = rng.choice(state.legal_moves())
            state.push(decision)
            for cell, (_base, *pieces) in state.physical().items():
                held = Counter(pieces)
                assert len(pieces) + held["crown"] <= 5, (cell, pieces)
                assert not (held["crown"] and held["star"]), (cell, pieces)
            if state.phase != "take":
                assert _totals(state) == start_total
            if state.to_move != me and state.outcome() is None:
                # D-9: the turn just ended leaves no enemy path onto the mover's Prime.
                for prime in state.primes(me):
                    assert state.attackers(prime) == []
                assert state.phase == "move" and state.moved is None
        else:
            endings["unfinished"] += 1
    assert sum(endings.values()) == 8


def test_decisions_read_back_and_turns_undo():
    rng = random.Random(3)
    state = tesulda.new_game()
    for _ in range(120):
        if state.outcome() is not None:
            break
        for m in state.legal_moves():
            assert state.parse_move(state.move_str(m)) == m
        before = state.position_str()
        m = rng.choice(state.legal_moves())
        state.push(m)
        again = rules.from_position("tesulda", state.position_str())
        assert again.legal_moves() == state.legal_moves()
        assert again.phase == state.phase and again.to_move == state.to_move
        assert state.pop() == m and state.position_str() == before
        state.push(m)


# -- (c) one position per ruling -----------------------------------------------------------

def test_D1_board_is_10x10_with_light_on_ranks_1_and_2():
    g = tesulda.GEOMETRY
    assert len(g.cells) == 100 and g.names[0] == "a1" and g.names[-1] == "j10"
    assert tesulda.PLAYERS == ("light", "dark")
    state = tesulda.new_game()
    ranks = {p: {int(c[1:]) for c, (b, *_) in state.physical().items() if b.startswith(p)}
             for p in tesulda.PLAYERS}
    assert ranks == {"light": {1, 2}, "dark": {9, 10}}
    assert state.to_move == "light"


def test_D2_setup_is_checked_per_side_and_first_player_is_a_setting():
    assert tesulda.new_game(first="dark").to_move == "dark"
    text = default_setup_text()
    light = [line for line in text.splitlines() if line.startswith("light")]
    cases = [
        (text.replace("e1=Skh", "e1=Skch"),
         r"setup line 1: light e1=Skch: a square base has 3 slots and this fills 4"),
        (text.replace("b2=Tcs", "b2=Tc"),
         r"setup line 2: light b2=Tc: a triangle base has 2 slots and this fills 1"),
        (text.replace("a1=Sssh", "a1=Sssc"), r"setup: light has 17 circle pieces; a side "
                                             r"has 16"),
        (text.replace("a1=Sssh", "a1=Tss"), r"light a1=Tss: a triangle may not start on the "
                                             r"back rank \(rank 1\)"),
        (text.replace("d1=Crch", "d1=Crk"), r"light d1=Crk: a crown and a star on one figure"),
        (text.replace("a2=Sssz", "a3=Sssz"), r"light a3=Sssz: outside light's starting zone"),
        (text.replace("j2=Cczh", "j2=Sczh"), r"light has 5 circle bases; a side has 6"),
        (text.replace("d1=Crch", "d1=Ccch"), r"light has 0 star pieces; a side has 1"),
        (text.replace("b1=Cccd", "b1=Cccx"), r"unknown piece letter 'x'"),
        (text.replace("c1=Sssd", "c1=Qssd"), r"must start with its base"),
        (text.replace("light a1", "lite a1", 1), r"expected 'light' or 'dark' first"),
        (text.replace("light a2=Sssz", "light a1=Sssh a2=Sssz"),
         r"setup line 2: a1 already holds a light figure"),
        (light[0], r"light has 10 figures; a side has 20"),
    ]
    for bad, message in cases:
        with pytest.raises(rules.SetupError, match=message):
            rules.new_game("tesulda", setup=bad)
    # A side left out stands in the default pattern; a valid variant is accepted.
    variant = "\n".join(light).replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh")
    state = rules.new_game("tesulda", setup=variant)
    assert state.physical()["a1"] == ("light-square", "square", "square", "trapezoid")
    assert state.physical()["e10"] == ("dark-square", "crown", "hexagon")
    for bad, _ in cases:
        assert "\n" not in str(pytest.raises(rules.SetupError, rules.new_game, "tesulda",
                                             setup=bad).value)


def test_D3_piece_count_crown_as_two_and_no_crown_with_star():
    # A triangle carrying only the crown counts 2: a Minion; with one more piece it is not.
    state = position("d4=Tks,d6=Tss", "")
    assert ends(state, "d6") == {"d7", "d8"}  # a Minion: forward only
    assert ends(state, "d4") == {"d5", "d3", "c4", "e4"}  # three pieces: also back
    with pytest.raises(rules.PositionError, match="holds 6 pieces"):
        position("d4=Skssss", "")
    with pytest.raises(rules.PositionError, match="crown and a star"):
        position("d4=Skr", "")
    # The Prime may not take a star; the cap counts the crown as 2.
    state = position("d4=Skss", "d5=Srcs")
    state.push_str("d4xd5")
    assert moves(state) == ["none", "take:c", "take:s"]


def test_D4_ratings_with_boost_and_tactician():
    def t(text):
        return tesulda.traits(tesulda.parse_figure(text, 1))[:2]

    assert t("Sssh") == (5, 0)  # 1 + 2*2
    assert t("Ssshh") == (5, 0)  # Boost does not stack
    assert t("Cr") == (3, 4)
    assert t("Crh") == (6, 7)  # Boost doubles the star too
    assert t("Trr") == (6, 6)  # two stars stack
    assert t("Tcs") == (1, 1)
    state = position("d4=Sssh", "")
    assert ends(state, "d4") == {"d5", "d6", "d7", "d8", "d9", "d3", "d2", "d1", "c4", "b4",
                                 "a4", "e4", "f4", "g4", "h4", "i4"}


def test_D5_paths_blocked_jumper_full_rating_and_dodger_legs():
    state = position("d4=Sss,d6=Scs", "b4=Scs")
    assert ends(state, "d4") == {"d5", "d3", "d2", "d1", "c4", "b4", "e4", "f4", "g4"}
    jumper = position("d4=Sssd,d5=Scs,d6=Scs,g4=Scs", "a4=Scs")
    assert ends(jumper, "d4") == {"d7", "d1", "a4"}  # exactly 3, over d5 d6; g4 is own
    dodger = position("d4=Scz", "")
    knight = {"c6", "e6", "f5", "f3", "c2", "e2", "b5", "b3"}
    king = {"d5", "d3", "c4", "e4", "c5", "e5", "c3", "e3"}
    assert ends(dodger, "d4") == king | knight
    both = position("d4=Sczd,c4=Scs,d5=Scs,e4=Scs,d3=Scs", "")
    assert ends(both, "d4") == knight | {"c5", "e5", "c3", "e3"}  # legs of exactly 1


def test_D5_waypoints_are_the_empty_corners_of_dodger_paths_as_the_naive_paths_give():
    """Where a Dodger may be set down between its legs: the corner of every legal
    two-leg path (naive paths) to the move's end that is empty and not the end; a move
    is a detour when no one-leg path gets there."""
    rng = random.Random(4)
    checked = 0
    for text in [f for f in LEGAL_FIGURES if "z" in f]:
        cells = rng.sample([f"{f}{r}" for f in naive.FILES for r in range(2, 10)], 10)
        mine = cells[0]
        others = ",".join(f"{c}=Scs" for c in cells[1:6])
        state = position(f"{mine}={text}", others)
        board, _ = naive.snapshot(state)
        side, base, pieces = board[mine]
        jumper = pieces["diamond"] > 0
        for move in state.legal_moves():
            want, one_leg = set(), False
            for path in naive.paths(mine, base, pieces):
                if path[-1] != move.to or not jumper and any(sq in board for sq in path[:-1]):
                    continue
                steps = zip(path, [mine, *path[:-1]], strict=True)
                straight = [naive.xy(a)[0] == naive.xy(b)[0] or naive.xy(a)[1] == naive.xy(b)[1]
                            for a, b in steps]
                turns = [k for k in range(1, len(path)) if straight[k] != straight[0]]
                if turns and path[turns[0] - 1] not in board:
                    want.add(path[turns[0] - 1])
                one_leg = one_leg or not turns
            assert set(state.waypoints(move)) == want, (text, state, move)
            assert state.detour(move) == (not one_leg), (text, state, move)
            checked += bool(want)
    assert checked > 100
    no_dodger = position("d4=Sss", "")
    assert all(no_dodger.waypoints(m) == [] for m in no_dodger.legal_moves())


def test_D5a_minion_dodger_sideways_first_and_legs_off_the_board():
    # e5 (light) blocks the diagonal-first path to h5; the sideways-first one is allowed.
    state = position("d4=Trz,e5=Scs", "")
    assert "h5" in ends(state, "d4")
    assert "g4" not in ends(state, "d4")  # same row: not nearer (D-6)
    edge = position("b4=Sssd", "")
    assert ends(edge, "b4") == {"b7", "b1", "e4"}  # the leg to the left would leave
    # Two paths to e6 (d5 then e6, or e5 then e6) are one decision.
    two = position("d4=Scz", "")
    assert moves(two, "d4").count("d4-e6") == 1


def test_D6_minion_must_end_nearer_the_enemy_zone():
    state = position("d4=Tcs,f9=Tcs", "d7=Tcs,f3=Tccs")
    assert ends(state, "d4") == {"c5", "d5", "e5"}
    assert ends(state, "f9") == set()  # in the enemy zone already: nothing is nearer
    dark = position("", "d7=Tcs,f3=Tccs", to="dark")
    assert ends(dark, "d7") == {"c6", "d6", "e6"}
    # Three pieces: no longer a Minion, so every direction.
    assert ends(dark, "f3") == {"f4", "f2", "e3", "g3", "e4", "d5", "g4", "h5", "e2", "d1",
                                "g2", "h1"}


def test_D7_capture_then_take_up_to_two_within_the_cap():
    state = position("d4=Ssscc,d7=Scs", "d6=Sccs")
    assert "d4-d7" not in moves(state) and "d4xd6" in moves(state)
    state.push_str("d4xd6")
    assert state.phase == "take"
    assert "d6" in state.physical() and state.physical()["d6"][0] == "light-square"
    assert moves(state) == ["none", "take:c", "take:s"]  # two would pass the cap of 5
    state.push_str("take:c")
    assert state.physical()["d6"] == ("light-square", "circle", "circle", "circle", "square",
                                      "square")
    assert state.pool() == ["circle", "square"]  # the rest is removed; the base leaves
    assert state.to_move == "light" and "swap:c:d6>d7" in moves(state)  # d7 is a friend


def test_D8_swap_and_resource_in_either_order():
    base = position("b8=Sss,c9=Tcs", "", pool="dh")
    base.push_str("b8-b9")
    assert base.to_move == "light" and base.phase == "extras"
    options = moves(base)
    assert "none" in options and "draw:dh" in options and "swap:s:b9>c9" in options
    assert "swap:c:c9>b9" in options and "swap:cs:c9>b9" not in options  # c9 keeps 1
    first = base.clone()
    first.push_str("draw:dh")
    assert first.pool() == [] and "swap:d:b9>c9" in moves(first)
    first.push_str("swap:d:b9>c9")
    assert first.to_move == "dark"  # both done: the turn ends by itself
    second = base.clone()
    second.push_str("swap:s:b9>c9")
    assert [m for m in moves(second) if m.startswith("swap")] == []
    assert "draw:dh" in moves(second)
    second.push_str("none")
    assert second.to_move == "dark" and second.pool() == ["diamond", "hexagon"]
    # Outside the enemy starting zone and away from friends there is nothing to ask.
    alone = position("d4=Sss", "", pool="dh")
    alone.push_str("d4-d5")
    assert alone.to_move == "dark"


def test_D9_a_move_may_not_expose_the_prime_but_a_crown_swap_escapes():
    pinned = position("e1=Skc,e4=Sscc", "e8=Ssssh")
    assert "e4-d4" not in moves(pinned) and "e4-e5" in moves(pinned)
    check = position("e1=Skc,c1=Ssh", "e8=Ssssh")
    assert check.hint_cells() == ["e8"]  # the Prime's attacker
    legal = moves(check)
    assert "c1-d1" in legal and "c1-c2" not in legal
    check.push_str("c1-d1")
    assert moves(check) == ["swap:k:e1>d1"]  # 'none' would leave the Prime attacked
    check.push_str("swap:k:e1>d1")
    assert check.to_move == "dark" and check.primes("light") == ["d1"]


def test_D9_a_move_exposing_the_prime_names_the_attackers():
    pinned = position("e1=Skc,e4=Sscc", "e8=Ssssh,b4=Sssh")
    assert pinned.exposed_by("e4", "d4") == ["e8"]  # the file opens to e8
    assert pinned.exposed_by("e4", "e5") == []  # legal: nothing to name
    assert pinned.exposed_by("e4", "a8") == []  # not a move the figure can make
    assert pinned.exposed_by("e8", "e5") == []  # not the mover's figure
    assert pinned.danger_cells() == []  # e4 shields the Prime
    check = position("e1=Skc,c1=Ssh", "e8=Ssssh")
    assert check.danger_cells() == ["e8"]


def test_D10_prime_captured_checkmate_and_tie():
    captured = position("e8=Ssss", "e9=Skc", to="light")
    captured.push_str("e8xe9")
    assert captured.outcome() == rules.Outcome("light", "the Prime was captured")
    assert captured.legal_moves() == []
    mate = position("", "a8=Ssssh,h9=Scs")
    assert mate.outcome() == rules.Outcome("dark", "no legal turn with the Prime attacked")
    tie = position("", "h9=Scs")
    assert tie.outcome() == rules.Outcome(None, "no legal turn, the Prime not attacked")


def test_D11_default_pattern():
    state = rules.new_game("tesulda")
    p = state.physical()
    assert len(p) == 40
    assert p["e1"] == ("light-square", "crown", "hexagon")
    assert p["d1"] == ("light-circle", "star", "circle", "hexagon")
    assert p["a2"] == ("light-square", "square", "square", "trapezoid")
    assert p["b2"] == p["i2"] == ("light-triangle", "circle", "square")
    assert p["e10"] == ("dark-square", "crown", "hexagon")
    assert p["b9"] == ("dark-triangle", "circle", "square")
    assert p["j9"] == ("dark-circle", "circle", "trapezoid", "hexagon")
    assert state.position_str().startswith("light:a1=Sssh,b1=Cccd,c1=Sssd,d1=Crch,e1=Skh,")


def test_notation_errors_are_syntax_or_illegal():
    state = rules.new_game("tesulda")
    for bad in ("e2e4", "swap:k:e1>e3", "take:q", "k11-k12", "e2-e2", ""):
        with pytest.raises(rules.MoveSyntaxError):
            state.parse_move(bad)
    with pytest.raises(rules.IllegalMoveError):
        state.push_str("e1-e2")
    assert state.parse_move("swap:ck:e1>d1") == state.parse_move("swap:kc:e1>d1")
    with pytest.raises(rules.PositionError, match="neither side has a crown"):
        rules.from_position("tesulda", "light:d4=Sss dark:d6=Sss pool: light")
