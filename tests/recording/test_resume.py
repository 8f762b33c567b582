"""Resume: after a power cut the board goes on with the journal's game, once the LEDs have
guided the players, cell by cell, to put the pieces as the game stands."""

import random
import shutil

import rules
from boards import hints
from boards.choreography import turn_ops
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard.gamerecord import parse_record
from sensorboard.gamewriter import open_game, open_journal
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService


def play(service, run, state, moves, rng, t):
    """Carry out ``moves`` by hand on the simulated board; returns the time after."""
    for move in moves:
        for op, cell in turn_ops(state, move, rng):
            run.scan_until(t)
            (service.sim_lift if op == "lift" else service.sim_place)(cell)
            t += 0.3
        state.push(move)
        t += 0.8
    run.scan_until(t)
    return t


def board(game, records, *, resumed_pieces=None, new=False):
    journal = open_journal(records, board="3")
    writer, resumed = open_game(journal, game, tags={"Round": "2"}, new=new)
    clock = VirtualClock()
    pieces = resumed_pieces if resumed else None
    service = BoardService(writer.state, layout_for_game(game), clock=clock,
                           listeners=[writer.event], resumed=resumed, pieces=pieces)
    out = []
    return journal, writer, resumed, service, VirtualRun(service, clock, out.append), out


def test_a_game_cut_off_mid_turn_resumes_after_the_board_is_put_right(tmp_path):
    rng = random.Random(5)
    game = "tessella"
    line = rules.new_game(game)
    for _ in range(6):
        line.push(rng.choice(line.legal_moves()))
    moves = line.move_stack
    journal, writer, resumed, service, run, out = board(game, tmp_path)
    assert not resumed
    t = play(service, run, rules.new_game(game), moves[:4], rng, 0.5)
    # half of the fifth turn, then the power goes: no end, nothing closed
    state = rules.new_game(game)
    for m in moves[:4]:
        state.push(m)
    ops = turn_ops(state, moves[4], rng)
    run.scan_until(t)
    service.sim_lift(ops[0][1])
    run.scan_until(t + 0.5)
    writer.flush()
    assert [x["move"] for x in out if x["type"] == "move"] == [state.move_str(m)
                                                             for m in moves[:4]]
    journal.close()

    # The journal is copied to another Pi, whose board comes up set for a new game.
    other = tmp_path / "other-pi"
    other.mkdir()
    shutil.copy(tmp_path / "journal.sqlite", other / "journal.sqlite")
    start = rules.new_game(game).physical()
    journal2, writer2, resumed, service2, run2, out2 = board(game, other,
                                                               resumed_pieces=start)
    assert resumed and journal2.board == "3"
    assert service2.tracker.state.position_str() == state.position_str()
    want = state.physical()
    should = service2.tracker.restore_cells()
    assert len(should) >= 2
    assert set(should) == {c for c in set(want) | set(start) if want.get(c) != start.get(c)}
    t = 0.5
    run2.scan_until(t)
    # The LEDs name every cell to put right; the players follow them one cell at a time.
    while True:
        frame = hints.plan(service2.view, t)
        if not service2.tracker.restoring:
            break
        assert frame == {c: "missing" if want.get(c) else "wrong"
                         for c in service2.tracker.restore_cells()}
        cell = sorted(frame)[0]
        if frame[cell] == "wrong":
            service2.sim_lift(cell)
        else:
            service2.sim_place(cell)
        t += 0.4
        run2.scan_until(t)
        assert cell not in service2.tracker.restore_cells()
    assert not [x for x in out2 if x["type"] in ("move", "error")]
    # then play goes on: the rest of the game, numbered on from the journal
    t = play(service2, run2, state.clone(), moves[4:], rng, t + 0.5)
    writer2.flush()
    assert [(x["ply"], x["move"]) for x in out2 if x["type"] == "move"] == [
        (5, line.move_str(moves[4])), (6, line.move_str(moves[5]))]
    record = parse_record(writer2.record_path.read_text())
    assert [turn.text for turn in record.turns] == [line.move_str(m) for m in moves]
    assert record.tags["Round"] == "2" and record.tags["Board"] == "3"
    writer2.close()
    journal2.close()


def test_a_new_game_ends_the_unfinished_one_as_abandoned(tmp_path):
    journal, writer, _, service, run, _ = board("tessella", tmp_path)
    writer.close()
    first = writer.uid
    journal.close()
    journal, writer, resumed, *_ = board("teblo", tmp_path)
    assert not resumed and writer.uid != first
    writer.close()
    games = dict(journal.games())
    assert games == {first: True, writer.uid: False}
    assert journal.entries(first)[-1].item["reason"] == "abandoned"
