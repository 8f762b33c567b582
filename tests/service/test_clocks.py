"""Clocks on the virtual clock: time controls as written, increments, delays, stages, the
flag falling and ending the game, the arbiter's time correction, and the record."""

import json
import queue
import random
import subprocess
import sys

import pytest

import rules
from boards.choreography import turn_ops
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard import clocks
from sensorboard.clocks import GameClock, Phase, TimeControl, TimeControlError
from sensorboard.gamelog import GameLog
from sensorboard.gamerecord import parse_record
from sensorboard.gamewriter import open_game, open_journal
from sensorboard.recorder import BoardView
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService
from sensorboard.terminal import render
from sensorboard.web.broadcast import board_json
from sensorboard.web.snapshot import snapshot

PLAYERS = ("clear", "dark")


def running(text: str, at: float = 0.0) -> GameClock:
    return clocks.start(GameClock.new(TimeControl.parse(text), PLAYERS), at)


def test_time_controls_as_tournaments_write_them():
    stages = TimeControl.parse("40/5400+30:1800+30").stages
    assert [(s.moves, s.seconds, s.bonus) for s in stages] == [(40, 5400, 30), (None, 1800, 30)]
    assert TimeControl.parse("600d5").stages[0].timing is clocks.Timing.DELAY
    assert TimeControl.parse("600b5").stages[0].timing is clocks.Timing.BRONSTEIN
    for text in ("600+5", "300", "600d5", "40/7200:20/3600", "40/5400+30:1800+30"):
        assert str(TimeControl.parse(text)) == text
    assert TimeControl.parse("-") is None and TimeControl.parse("") is None


@pytest.mark.parametrize("text, says", [
    ("10 min", "stage 1 '10 min': expected [MOVES/]SECONDS"),
    ("600+5x", "stage 1 '600+5x'"),
    ("40/5400:30m", "stage 2 '30m'"),
    ("5400+30:1800", "stage 1 '5400+30': no move count, so stage 2 never begins"),
    ("0/600", "stage 1 '0/600': a stage lasts at least 1 move"),
])
def test_bad_syntax_is_one_line_naming_the_stage(text, says):
    with pytest.raises(TimeControlError) as e:
        TimeControl.parse(text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_bad_time_control_flag_is_one_line_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "run", "--game", "tessella",
                           "--records", str(tmp_path), "--tag", "TimeControl=40/90m",
                           "--no-input"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and not list(tmp_path.iterdir())
    assert proc.stderr.strip().splitlines() == [
        "sensorboard: --tag TimeControl: TimeControl '40/90m': stage 1 '40/90m': expected "
        "[MOVES/]SECONDS[+INCREMENT|dDELAY|bDELAY], e.g. 600+5 or 40/5400+30:1800+30"]


def test_fischer_increment_after_each_turn():
    clock = clocks.end_turn(running("60+2"), 10.0)
    assert clocks.remaining(clock, "clear", 10.0) == 52.0
    assert clock.running == "dark"
    assert clocks.remaining(clock, "dark", 25.0) == 45.0  # dark's runs from 10 s


def test_simple_delay_waits_before_counting_down():
    clock = running("60d5")
    assert clocks.remaining(clock, "clear", 4.0) == 60.0
    clock = clocks.end_turn(clock, 8.0)
    assert clocks.remaining(clock, "clear", 8.0) == 57.0
    assert clocks.flag_at(clock) == 8.0 + 5.0 + 60.0  # dark's delay, then its minute


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    clock = clocks.end_turn(running("60b5"), 3.0)
    assert clocks.remaining(clock, "clear", 3.0) == 60.0
    clock = clocks.end_turn(clocks.end_turn(clock, 5.0), 13.0)  # dark 2 s, clear 8 s
    assert clocks.remaining(clock, "clear", 13.0) == 57.0
    assert clocks.flag_at(clock) == 13.0 + 60.0  # no wait before dark's clock counts


def test_stages_add_time_after_their_move_count_and_the_last_repeats():
    control = TimeControl.parse("2/100:1/10")
    clock = running("2/100:1/10")
    t = 0.0
    for _ in range(3):  # clear's three turns of 1 s, dark's of 0 s
        t += 1.0
        clock = clocks.end_turn(clocks.end_turn(clock, t), t)
    assert clocks.remaining(clock, "clear", t) == 100 - 3 + 10 + 10
    assert control.begins(2) == control.stages[1] and control.begins(3) == control.stages[1]
    assert control.begins(1) is None


def test_the_clock_refuses_what_its_phase_does_not_take():
    clock = GameClock.new(TimeControl.parse("60"), PLAYERS)
    with pytest.raises(clocks.ClockError):
        clocks.end_turn(clock, 1.0)
    flagged = clocks.fall(running("60"))
    assert flagged.phase is Phase.FLAGGED and clocks.remaining(flagged, "clear", 99) == 0
    with pytest.raises(clocks.ClockError):
        clocks.start(flagged, 100.0)


def test_a_takeback_of_the_last_turn_sets_the_stopped_clock_going():
    clock = clocks.stop(clocks.end_turn(running("60"), 10.0), 12.0)  # dark's turn ended it
    assert clock.phase is Phase.STOPPED and clocks.flag_at(clock) is None
    clock = clocks.switch(clock, 20.0, "dark")
    assert clock.running == "dark" and clocks.remaining(clock, "dark", 20.0) == 58.0


def test_an_adjudicated_game_stops_the_clock(tmp_path):
    b = Board(tmp_path, "30")
    b.service.press("clock")
    b.move(5.0)
    b.service.correct("result", "Eve", result="1-0")
    assert b.service.timing.phase is Phase.STOPPED
    b.run.scan_until(100.0)  # long past dark's 30 s: no flag after the result
    assert b.service.flagged is None
    record = b.record()
    assert record.result == "1-0" and record.tags["Termination"] == "adjudication"


def test_flag_rulings_per_game():
    assert clocks.flag_outcome(rules.new_game("tessella"), "clear") == (
        "dark", "clear out of time")
    assert clocks.flag_outcome(rules.new_game("tesulda"), "dark")[0] == "light"
    lone = rules.from_position("tesulda", "light:e1=Skh dark:a9=Sssz,e10=Skh pool: light")
    assert clocks.flag_outcome(lone, "dark") == (None, "dark out of time, light has only "
                                                 "its Prime")
    assert clocks.flag_outcome(lone, "light") == ("dark", "light out of time")


class Board:
    """A recorded Tessella board on the virtual clock, its moves made by hand."""

    def __init__(self, tmp_path, control: str):
        self.journal = open_journal(tmp_path, board="7")
        self.writer, _ = open_game(self.journal, "tessella",
                                   tags={"TimeControl": control, "Round": "1"})
        self.clock = VirtualClock()
        self.items: list[dict] = []
        self.service = BoardService(self.writer.state, layout_for_game("tessella"),
                                    clock=self.clock, listeners=[self.writer.event],
                                    timing=clocks.for_log(self.writer.log, 0.0))
        self.run = VirtualRun(self.service, self.clock, self.items.append)
        self.state = rules.new_game("tessella")
        self.rng = random.Random(3)

    def move(self, at: float) -> None:
        """Make a legal move whose last piece is put down at ``at``."""
        move = self.rng.choice(self.state.legal_moves())
        ops = turn_ops(self.state, move, self.rng)
        for k, (op, cell) in enumerate(ops):
            self.run.scan_until(at - 0.3 * (len(ops) - 1 - k))
            (self.service.sim_lift if op == "lift" else self.service.sim_place)(cell)
        self.state.push(move)
        self.run.scan_until(at + 0.2)

    def left(self, player: str) -> float:
        return clocks.remaining(self.service.timing, player, self.clock.now())

    def record(self):
        self.writer.flush()
        return parse_record(self.writer.record_path.read_text())


def test_a_game_on_the_board_increments_flags_and_is_recorded(tmp_path):
    b = Board(tmp_path, "60+5")
    b.run.scan_until(2.0)
    b.service.press("clock", "dark")  # dark starts clear's clock, as on a chess clock
    assert b.service.timing.running == "clear"
    b.move(12.0)  # clear used about 10 s, got 5 back
    assert b.service.timing.running == "dark"
    assert 54.5 < b.left("clear") < 55.5
    b.move(20.0)
    assert 56.5 < b.left("dark") < 57.5  # 8 s used, 5 back
    b.run.scan_until(68.0)
    text = render(b.service, color=False)
    assert f"clear: clock {clocks.hms(b.left('clear'))} running, low," in text  # < 10 s
    assert f"dark: clock {clocks.hms(b.left('dark'))}," in text
    shown = snapshot(b.service)["clocks"]
    assert shown["running"] == "clear" and shown["left"]["clear"] == round(b.left("clear"), 3)
    b.run.scan_until(100.0)  # clear thinks past the flag
    flag = [i for i in b.items if i["type"] == "clock" and i["why"] == "flag"]
    assert flag and flag[0]["side"] == "clear" and flag[0]["left"]["clear"] == 0
    assert b.service.final()["outcome"] == {"winner": "dark", "reason": "clear out of time"}
    assert b.service.timing.phase is Phase.FLAGGED and b.left("clear") == 0
    record = b.record()
    assert record.result == "0-1" and record.tags["Termination"] == "clear out of time"
    assert record.turns[0].clock == "0:00:55" and record.turns[1].clock == "0:00:57"
    text = render(b.service, color=False)
    assert "dark wins (clear out of time)" in text and "clear: clock 0:00:00 flag fallen" in text
    b.service.sim_lift(next(iter(b.state.physical())))  # the game is over: nothing tracked
    b.run.scan_until(103.0)
    assert len(b.service.tracker.turns()) == 2


def test_the_arbiter_adds_and_takes_time_through_the_correction_path(tmp_path):
    b = Board(tmp_path, "600d5")
    b.service.press("clock")
    b.move(30.0)
    assert 574.5 < b.left("clear") < 575.5  # 30 s used, the first 5 not counted
    b.service.listen(queue.Queue())  # as MQTT hands them over
    b.service.corrections.put({"action": "time", "by": "Ann", "player": "clear",
                               "seconds": 60})
    b.service.corrections.put({"action": "time", "by": "Ann", "player": "dark",
                               "seconds": -100})
    b.service.corrections.put({"action": "time", "by": "Ann", "player": "blue",
                               "seconds": 5})
    b.run.scan_until(31.0)
    out = b.service.apply_corrections()  # the live loop's next scan
    assert 634.5 < b.left("clear") < 635.5
    assert b.left("dark") == 500.0  # dark's clock runs, its first second within the delay
    rejected = [i for i in out if i["type"] == "rejected"]
    assert len(rejected) == 1 and "player must be one of clear, dark" in rejected[0]["reason"]
    b.move(40.0)
    record = b.record()
    notes = " ".join(record.turns[0].notes)
    assert "arbiter Ann: clear +60 s" in notes and "arbiter Ann: dark -100 s" in notes
    assert record.turns[1].clock in ("0:08:15", "0:08:16")  # dark's 10 s, 5 counted


def test_a_resumed_game_keeps_its_clock(tmp_path):
    b = Board(tmp_path, "300+0")
    b.service.press("clock")
    b.move(20.0)
    b.writer.close()
    writer, resumed = open_game(b.journal, "tessella")
    assert resumed
    timing = clocks.for_log(writer.log, 0.0)
    assert timing.phase is Phase.READY and timing.players[timing.turn] == "dark"
    assert 279.5 < clocks.remaining(timing, "clear", 0.0) < 280.5


def test_stages_and_bronstein_on_the_board(tmp_path):
    b = Board(tmp_path, "2/30b3:20b3")
    b.service.press("clock")
    for at in (5.0, 6.0, 11.0, 12.0):  # clear 5 s, dark 1 s, clear 5 s, dark 1 s
        b.move(at)
    # clear: 30 - 5 + 3 - 5 + 3, then the second stage's 20 after its 2nd turn
    assert 45.5 < b.left("clear") < 46.5
    assert b.left("dark") == 50.0  # dark's seconds all given back, then 20 added


def test_replay_runs_the_clock_on_the_virtual_clock(tmp_path):
    events = tmp_path / "events.jsonl"
    events.write_text('{"t": 0.0, "op": "press", "button": "clock", "player": "dark"}\n'
                      '{"t": 1.0, "op": "lift", "cell": "d1"}\n'
                      '{"t": 1.4, "op": "place", "cell": "d2"}\n')
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "replay", "--game", "tessella",
                           "--time-control", "5+1", str(events)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    clock_lines = [(i["why"], i["running"]) for i in lines if i["type"] == "clock"]
    assert clock_lines == [("start", "clear"), ("turn", "dark"), ("flag", None)]
    turn = next(i for i in lines if i["type"] == "clock" and i["why"] == "turn")
    assert 4.5 < turn["left"]["clear"] < 5.0  # about 1.4 s used, 1 s back
    flag = next(i for i in lines if i["type"] == "clock" and i["why"] == "flag")
    assert flag["t"] == round(turn["t"] + 5.0, 3)  # dark's 5 s, to the millisecond
    assert lines[-1]["outcome"] == {"winner": "clear", "reason": "dark out of time"}


def test_replay_refuses_a_bad_time_control(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sensorboard", "replay", "--game", "tessella",
                           "--time-control", "5m", "-"], input="", capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "sensorboard replay: --time-control: TimeControl '5m': stage 1 '5m': "
        "expected [MOVES/]SECONDS[+INCREMENT|dDELAY|bDELAY], e.g. 600+5 or "
        "40/5400+30:1800+30"]


def test_a_clock_entry_a_log_cannot_show_is_ignored():
    log = GameLog({"type": "start", "game": "tessella", "players": ["clear", "dark"]}, 0.0)
    for bad in ({"left": [1, 2]}, {"left": {"clear": "10"}}, {"left": {}}, {"left": None},
                {"left": {"clear": True}}):
        log.apply({"type": "clock", "t": 0.0, "why": "turn", **bad}, 1.0)
    assert log.clock is None
    log.apply({"type": "clock", "t": 0.0, "why": "start", "left": {"clear": 60, "dark": 60},
               "running": "clear", "wait": "soon"}, 2.0)
    view = BoardView("1", online=True, game="g", log=log, applied=3)
    assert board_json(view, None, None, 5.0)["clock"] is None


def test_setting_the_board_up_does_not_start_the_clock():
    state = rules.new_game("tessella")
    extra = next(c for c in state.GEOMETRY.names if c not in state.physical())
    clock = VirtualClock()
    service = BoardService(state, layout_for_game("tessella"), clock=clock,
                           pieces={**state.physical(), extra: ("dark",)},
                           timing=clocks.for_tags({"TimeControl": "60"}, state.PLAYERS,
                                                  state.to_move))
    run = VirtualRun(service, clock, lambda item: None)
    assert service.tracker.restoring
    run.scan_until(1.0)
    service.sim_lift(extra)  # the stray piece taken off: the board is set up
    run.scan_until(3.0)
    assert not service.tracker.restoring and service.timing.phase is Phase.READY
    service.sim_lift("e1")  # the first move begins: now the clock runs
    run.scan_until(4.0)
    assert service.timing.running == "clear"
