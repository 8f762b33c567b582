"""Telec through the whole pipeline: rolls, entries whose size is asked, stacks, the
Center Zone with and without its drop sensor, physical and electronic dice."""

import random

import pytest

import rules
from boards import decisions
from boards.layout import load_layout, shipped_layouts
from sensorboard import demo

from .helpers import ev, moves, prompts_seen, run

NODROP = load_layout(shipped_layouts()["telec-nodrop"])
TELEC = load_layout(shipped_layouts()["telec"])


def texts(line):
    state = rules.new_game("telec")
    return [decisions.text(state, turn) for turn in line]


def position_after(turn_texts):
    state = rules.new_game("telec")
    for turn in turn_texts:
        for word in turn.split(" "):
            state.push_str(word)
    return state


def physical(state):
    return {c: list(p) for c, p in sorted(state.physical().items())}


@pytest.mark.parametrize("seed, layout", [(1, TELEC), (2, NODROP), (3, TELEC), (4, NODROP)])
def test_random_games_with_physical_dice_are_tracked_exactly(seed, layout):
    line = demo.pick_line("telec", seed, 40)
    events = demo.script("telec", line, layout, random.Random(seed), step=0.3, pause=0.5)
    out, final = run("telec", events, layout=layout, dice="physical")
    assert moves(out) == texts(line)
    state = position_after(texts(line))
    assert final["position"] == physical(state) and final["to_move"] == state.to_move
    rolls = [x["value"] for x in out if x["type"] == "roll"]
    assert rolls == [t.split(" ")[1] for t in texts(line) if t.startswith("roll ")]


@pytest.mark.parametrize("seed", [11, 12])
def test_electronic_dice_game_replayed_from_its_record_reproduces_the_position(seed):
    events = demo.script("telec", None, TELEC, random.Random(seed), step=0.3, pause=0.5,
                         dice="electronic", seed=seed, turns=40)
    assert any(e.get("button") == "roll" for e in events)
    out, final = run("telec", events, dice="electronic", seed=seed)
    record = moves(out)
    assert len(record) == 40
    # the record alone (its turns, rolls included) rebuilds the same position
    state = position_after(record)
    assert final["position"] == physical(state) and final["to_move"] == state.to_move
    rolls = [x for x in out if x["type"] == "roll"]
    assert [r["value"] for r in rolls] == [t.split(" ")[1] for t in record
                                          if t.startswith("roll ")]
    # the same events and seed roll the same faces again
    assert run("telec", events, dice="electronic", seed=seed) == (out, final)


def test_every_prompt_offers_only_legal_decisions():
    seen = 0
    for seed, dice in ((21, "physical"), (22, "electronic"), (23, "physical")):
        rng = random.Random(seed)
        line = None if dice == "electronic" else demo.pick_line("telec", seed, 40)
        events = demo.script("telec", line, TELEC, rng, step=0.3, pause=0.5, dice=dice,
                             seed=seed, turns=40)
        for item, legal, _, no_turn in prompts_seen(rules.new_game("telec"), TELEC, events,
                                                    dice=dice, seed=seed):
            # ``none`` also answers "no turn was made" where the sensors cannot tell
            # (a shared clock press, a piece touched where an entry would bump it)
            offered = set(legal) | ({"none"} if no_turn else set())
            assert item["options"] and set(item["options"]) <= offered, item
            assert len(item["options"]) == len(set(item["options"]))
            seen += 1
    assert seen >= 20


# --- hand-made turns --------------------------------------------------------------------

START = [ev(1.0, "place", "a1"), {"t": 2.0, "op": "choose", "value": "6"},   # blue 4: a1
         ev(3.0, "place", "a5"), {"t": 4.0, "op": "choose", "value": "3"}]   # red 5: a5


def test_entry_is_read_from_its_tile_and_its_size_asked():
    out, final = run("telec", START)
    assert [x for x in out if x["type"] != "move"][:2] == [
        {"type": "roll", "t": pytest.approx(1.0, abs=0.05), "player": "blue", "value": "4"},
        {"type": "prompt", "t": pytest.approx(1.0, abs=0.05),
         "options": ["1", "2", "3", "4", "5", "6"]}]
    assert moves(out) == ["roll 4 6", "roll 5 3"]
    assert final["position"] == {"a1": ["blue-6"], "a5": ["red-3"]}


def test_an_entry_size_still_asked_at_the_end_of_the_input_stays_open():
    # a vacant tile must be entered (L-6): the size has no ``none``, so the end of the
    # input does not decide it and the turn is not committed
    out, final = run("telec", START[:1])
    assert [x["type"] for x in out] == ["roll", "prompt"] and "none" not in out[1]["options"]
    assert moves(out) == [] and final["position"] == {}


def test_stacking_from_the_stash_and_a_forfeit_are_asked_after_the_clock():
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"),      # blue a1-a2
                      {"t": 7.0, "op": "press", "button": "clock"},       # red: silent
                      {"t": 8.0, "op": "choose", "value": "5"},
                      {"t": 9.0, "op": "choose", "value": "2"},
                      {"t": 10.0, "op": "press", "button": "clock"},      # blue: silent
                      {"t": 11.0, "op": "choose", "value": "5"}]          # d1 vacant? no:
    out, final = run("telec", events)
    prompts = [x["options"] for x in out if x["type"] == "prompt"]
    # red's silent turns: 3 (a2, blue's 6: forfeit) or 5 (a5, own 3: stack 1 or 2); the
    # shared button may have been pressed with no turn made: ``none``
    assert prompts[2:4] == [["3", "5", "none"], ["1", "2", "none"]]
    assert moves(out)[2:4] == ["a1-a2", "roll 5 2"]
    assert final["position"]["a5"] == ["red-3", "red-2"]


def test_an_answer_not_offered_leaves_the_question_open():
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"),
                      {"t": 7.0, "op": "press", "button": "clock"},
                      {"t": 8.0, "op": "choose", "value": "5"},
                      {"t": 9.0, "op": "choose", "value": "4"},   # onto a 3: not smaller
                      {"t": 9.5, "op": "choose", "value": "seven"},
                      {"t": 10.0, "op": "choose", "value": "1"}]
    warnings = []
    out, final = run("telec", events, warn=warnings.append)
    assert len(warnings) == 2 and "'4' is not offered; options: 1, 2, none" in warnings[0]
    assert moves(out)[-1] == "roll 5 1"
    assert final["position"]["a5"] == ["red-3", "red-1"]


def test_an_entry_on_a_tile_no_face_indicates_is_an_error():
    out, final = run("telec", [ev(1.0, "place", "b2"), ev(3.0, "lift", "b2"),
                               ev(3.5, "place", "d1"), {"t": 4.0, "op": "choose", "value": "2"}])
    assert [x for x in out if x["type"] == "error"][0]["cells"] == {"b2": "empty"}
    assert moves(out) == ["roll 5 2"]


def test_a_piece_into_the_hole_from_a_tile_without_an_entrance_is_an_error():
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "cz")]
    out, final = run("telec", events)
    assert [x for x in out if x["type"] == "error"][0]["cells"] == {"cz": "empty"}
    assert moves(out) == ["roll 4 6", "roll 5 3"]


def test_a_piece_touched_and_put_back_is_no_silent_turn():
    warnings = []
    events = START + [ev(5.0, "lift", "a5"), ev(5.5, "place", "a5"),
                      {"t": 6.0, "op": "choose", "value": "4"}]
    out, final = run("telec", events, warn=warnings.append)
    assert moves(out) == ["roll 4 6", "roll 5 3"] and "no question is open" in warnings[0]


def test_a_bump_on_entry_lifts_the_enemy_single():
    events = START + [ev(5.0, "lift", "a1"), ev(5.5, "place", "a2"),   # blue a1-a2
                      ev(6.0, "lift", "a5"), ev(6.5, "place", "a4"),   # red a5-a4
                      ev(7.0, "lift", "a4"), ev(7.3, "place", "a4"),   # blue's 2 is a4
                      {"t": 8.0, "op": "choose", "value": "5"}]
    out, final = run("telec", events)
    # (a touch of red's single looks the same: ``none``)
    assert [x["options"] for x in out if x["type"] == "prompt"][-1] == ["4", "5", "6", "none"]
    assert moves(out)[-1] == "roll 2 5"
    assert final["position"]["a4"] == ["blue-5"]


def test_electronic_die_lights_the_tile_and_expects_the_entry_there():
    events = [{"t": 1.0, "op": "press", "button": "roll"}]
    out, _ = run("telec", events, dice="electronic", seed=3)
    face = [x for x in out if x["type"] == "roll"][0]["value"]
    tile = rules.GAMES["telec"].FACE_TILE["blue"][face]
    wrong = "a4" if tile != "a4" else "d4"
    events += [ev(2.0, "place", wrong), ev(4.0, "lift", wrong), ev(4.5, "place", tile),
               {"t": 5.0, "op": "choose", "value": "3"}]
    out, final = run("telec", events, dice="electronic", seed=3)
    assert [x for x in out if x["type"] == "error"][0]["cells"] == {wrong: "empty"}
    assert moves(out) == [f"roll {face} 3"]
    assert final["position"] == {tile: ["blue-3"]}


def test_roll_button_without_an_electronic_die_is_refused():
    warnings = []
    out, _ = run("telec", [{"t": 1.0, "op": "press", "button": "roll"}], warn=warnings.append)
    assert warnings and "no electronic die" in warnings[0]


def cli(*args, stdin=None):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "sensorboard", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_cli_replays_the_bundled_demo_with_physical_dice():
    from pathlib import Path

    path = Path(demo.__file__).parent / "telec.jsonl"
    proc = cli("replay", "--game", "telec", "--option", "dice=physical", str(path))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    import json

    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    turns = [x["move"] for x in lines if x["type"] == "move"]
    assert turns == texts(demo.pick_line("telec", 7, 60))
    assert lines[-1]["position"] == physical(position_after(turns))
    rolls = [x for x in lines if x["type"] == "roll"]
    assert rolls and set(rolls[0]) == {"type", "t", "player", "value"}


@pytest.mark.parametrize("args, message", [
    (["--game", "telec", "--option", "dice=loaded"],
     "option dice: must be one of physical, electronic, got 'loaded'"),
    (["--game", "telec", "--option", "speed=3"], "option 'speed': telec has no such option"),
    (["--game", "tessella", "--option", "dice=electronic"],
     "option 'dice': tessella has no such option"),
    (["--game", "tulaga", "--option", "rank_stones=x"], "option rank_stones: must be a whole"),
    (["--game", "tulaga", "--option", "rank_stones=9"], "rank_stones must be 4, 5 or 6"),
    (["--game", "telec", "--option", "dice"], "expected KEY=VALUE"),
])
def test_cli_bad_options_are_one_line_and_exit_2(args, message):
    proc = cli("replay", *args, "-", stdin="")
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err and message in err, err


def test_cli_takes_tulaga_rank_stones_as_an_option():
    import json

    lines = [json.dumps(ev(1.0, "place", "e5"))]
    proc = cli("replay", "--game", "tulaga", "--option", "rank_stones=5", "-",
               stdin="\n".join(lines))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["move"] == "e5"


def test_takeback_undoes_a_whole_turn_of_several_decisions():
    events = START + [{"t": 5.0, "op": "press", "button": "takeback"},
                      ev(5.5, "lift", "a5"),                         # put the board back
                      ev(6.5, "place", "a5"), {"t": 7.0, "op": "choose", "value": "2"}]
    out, final = run("telec", events)
    kinds = [(x["type"], x.get("move"), x.get("ply")) for x in out if x["type"] != "roll"
             and x["type"] != "prompt"]
    assert kinds == [("move", "roll 4 6", 1), ("move", "roll 5 3", 2),
                     ("takeback", "roll 5 3", 2), ("move", "roll 5 2", 2)]
    assert final["position"] == {"a1": ["blue-6"], "a5": ["red-2"]}


def test_the_config_file_sets_the_dice_and_a_flag_wins(tmp_path):
    from sensorboard.cli import build_parser, new_state, settle_run_options

    cfg = tmp_path / "board.toml"
    cfg.write_text(f'game = "telec"\nrecords = "{tmp_path / "rec"}"\n'
                   '[options]\ndice = "electronic"\n')
    args = build_parser().parse_args(["run", "--config", str(cfg)])
    settle_run_options(args)
    assert new_state(args)[1] == {"dice": "electronic"}
    args = build_parser().parse_args(["run", "--config", str(cfg), "--option", "dice=physical"])
    settle_run_options(args)
    assert new_state(args)[1] == {"dice": "physical"}


@pytest.mark.parametrize("body, message", [
    ('game = "telec"\n[options]\ndice = "loaded"\n',
     "board.toml: options.dice: must be one of physical, electronic, got 'loaded'"),
    ('game = "telec"\n[options]\ndice = true\n',
     "board.toml: options.dice: must be text or a whole number, got True"),
    ('game = "tessella"\n[options]\ndice = "electronic"\n',
     "board.toml: options.dice: tessella has no such option"),
    ('game = "telec"\noptions = "dice=electronic"\n',
     "board.toml: options: must be a table ([options])"),
])
def test_bad_dice_in_the_config_file_is_one_line_and_exit_2(tmp_path, body, message):
    cfg = tmp_path / "board.toml"
    cfg.write_text(body + f'records = "{tmp_path / "rec"}"\n' if "[options]" not in body
                   else f'records = "{tmp_path / "rec"}"\n' + body)
    proc = cli("run", "--config", str(cfg), "--no-input")
    err = proc.stderr.strip()
    assert proc.returncode == 2 and "\n" not in err and "Traceback" not in err, err
    assert message in err, err
