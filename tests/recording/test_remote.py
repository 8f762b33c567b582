"""Two boards' opponents (sensorboard.remote) wired to each other through a link that
delivers at once, drops or repeats messages: each turn is carried out once, in order, and
a message that is not the pairing's or does not fit is refused with a line."""

import json
import queue

import pytest

import rules
from sensorboard import events, remote
from sensorboard.cli import main
from sensorboard.journal import Entry, Journal
from sensorboard.remote import (
    Game,
    Pairing,
    PairingError,
    RemoteOpponent,
    normal_code,
    pairing_code,
    sign,
)

CODE = "7K3M-Q9XZ"
TURNS = ["c1-c2", "a4-b4", "c2-c3", "b4-b3", "d1-d2", "a3-ab34"]


class Wire:
    """A link that hands every message to the other board (unless ``down``)."""

    def __init__(self) -> None:
        self.peer: RemoteOpponent | None = None
        self.down = False
        self.sent: list[tuple[str, dict]] = []

    def send(self, topic: str, payload: str) -> bool:
        self.sent.append((topic, json.loads(payload)))
        if self.down or self.peer is None:
            return False
        self.peer.receive(topic, json.loads(payload))
        return True


class Side:
    """One board: its game, its journal's turns and its opponent (the other board)."""

    def __init__(self, me: str, peer: str, plays: str, turns=(), note=None, number=1,
                 pairing=None) -> None:
        self.state = rules.new_game("tessella")
        for _, move in turns:
            self.state.push_str(move)
        theirs = next(p for p in self.state.PLAYERS if p != plays)
        self.wire = Wire()
        self.lines: list[str] = []
        self.clock = [0.0]
        self.remote = RemoteOpponent(
            pairing or Pairing(me, peer, CODE, number), theirs,
            Game("tessella", rules.new_game("tessella").position_str(), plays), self.wire,
            uid="g", turns=list(turns), note=note or self.lines.append,
            now=lambda: self.clock[0])
        self.journal: list[tuple[str, str]] = list(turns)

    def commit(self, move: str) -> None:
        """A turn carried out on this board: the service's event, then the journal's."""
        ply, player = len(self.journal) + 1, self.state.to_move
        self.state.push_str(move)
        self.journal.append((player, move))
        self.remote.observe(events.Move(0.0, ply, player, move))
        item = events.Move(0.0, ply, player, move).to_json()
        self.remote.written([Entry("x", ply, "g", 0.0, item)])


    def takeback(self) -> None:
        """The last turn taken back on this board."""
        ply, (player, move) = len(self.journal), self.journal.pop()
        self.state.pop()
        self.remote.observe(events.Takeback(0.0, ply, player, move))
        item = events.Takeback(0.0, ply, player, move).to_json()
        self.remote.written([Entry("x", 99, "g", 0.0, item)])


def pair(a: Side, b: Side) -> None:
    a.wire.peer, b.wire.peer = b.remote, a.remote
    a.remote.connected()
    b.remote.connected()


def play(a: Side, b: Side, turns: list[str]) -> None:
    """Each turn made on the board of its mover and carried out on the other as polled."""
    for move in turns:
        mover, other = (a, b) if a.state.to_move == a.remote.game.mine else (b, a)
        mover.commit(move)
        assert other.remote.poll(other.state) == move
        other.commit(move)
        assert other.remote.poll(other.state) is None


def test_turns_go_both_ways_once_each():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    play(a, b, TURNS)
    assert a.journal == b.journal == [(["clear", "dark"][i % 2], m) for i, m in enumerate(TURNS)]
    assert a.remote.acked == 5 and b.remote.acked == 6
    assert not a.lines and not b.lines


def test_a_resent_turn_is_never_played_twice():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    play(a, b, TURNS[:2])
    again = [m for t, m in a.wire.sent if m["kind"] == "turn"][-1]
    b.remote.receive("sensorboard/A/play/B", again)
    assert b.remote.poll(b.state) is None and not b.remote.waiting
    assert [m["kind"] for _, m in b.wire.sent][-1] == "ack"  # acknowledged again


def test_a_restarted_board_gets_what_it_missed_from_the_other():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    play(a, b, TURNS[:2])
    a.commit("c2-c3")  # received by B, which is killed before it is carried out there
    assert b.remote.waiting == {3: ("clear", "c2-c3")}
    restarted = Side("B", "A", "dark", turns=b.journal)
    pair(a, restarted)
    assert restarted.remote.poll(restarted.state) == "c2-c3"
    restarted.commit("c2-c3")
    restarted.commit("b4-b3")
    assert a.remote.poll(a.state) == "b4-b3"
    assert [m["ply"] for _, m in a.wire.sent if m["kind"] == "turn"] == [1, 3, 3]


def test_a_turn_that_does_not_fit_is_refused_with_a_line():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    b.remote.receive("sensorboard/A/play/B", sign(
        b.remote.pairing.key, {"kind": "turn", "ply": 1, "player": "clear", "move": "c1-c3",
                               "from": "A", "to": "B"}))
    assert b.remote.poll(b.state) is None
    assert b.lines == ["turn 1 from board A refused: c1-c3: illegal move for clear: 'c1-c3'"]
    assert a.lines == ["board B refused turn 1: c1-c3: illegal move for clear: 'c1-c3'"]


def test_a_message_without_the_code_or_from_elsewhere_is_refused():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    turn = {"kind": "turn", "ply": 1, "player": "clear", "move": "c1-c2", "from": "A",
            "to": "B"}
    b.remote.receive("sensorboard/A/play/B", sign(Pairing("A", "B", "7K3M-Q9XY").key, turn))
    b.remote.receive("sensorboard/A/play/B", {**turn, "mac": "0" * 64})
    b.remote.receive("sensorboard/A/play/B", sign(b.remote.pairing.key, {**turn, "from": "C"}))
    assert b.remote.poll(b.state) is None
    assert b.lines == [
        "a message from board A not signed with this pairing's code was refused (is the "
        "same code given on both boards?)",
        "a message on the pairing with board A not from it was refused"]


def test_boards_that_do_not_play_the_same_game_play_nothing():
    a, b = Side("A", "B", "clear"), Side("B", "A", "clear")
    pair(a, b)
    a.commit("c1-c2")
    assert b.remote.poll(b.state) is None
    assert b.lines == ["board A: its player plays clear, but here the opponent is dark; "
                       "no turn is played between them"]
    assert a.lines == [b.lines[0].replace("board A", "board B")]  # both boards say so


def test_a_turn_unanswered_is_sent_again():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    a.wire.down = True
    a.commit("c1-c2")
    assert b.remote.poll(b.state) is None
    a.wire.down = False
    assert a.remote.poll(a.state) is None  # not yet: within the resend time
    assert b.remote.poll(b.state) is None
    a.clock[0] += 10
    a.remote.poll(a.state)
    assert b.remote.poll(b.state) == "c1-c2"


def test_a_takeback_on_one_board_is_taken_back_on_the_other():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    a.remote.commands, b.remote.commands = queue.Queue(), queue.Queue()
    pair(a, b)
    play(a, b, TURNS[:3])
    b.takeback()  # B's player takes back A's c2-c3 (ply 3) on B's board
    assert a.remote.commands.get_nowait() == {"action": "takeback", "turns": 1, "by": "board:B"}
    assert a.lines == ["board B took back to turn 2: so does this board"]
    a.takeback()  # the correction carried out on A: its own turn is sent again no more
    assert a.remote.commands.empty() and b.remote.commands.empty()
    a.commit("d1-d2")  # and its player makes another
    assert b.remote.poll(b.state) == "d1-d2"
    b.remote.receive("sensorboard/A/play/B", [m for _, m in a.wire.sent
                                              if m["kind"] == "takeback"][0])
    assert b.remote.commands.empty()  # a takeback sent again takes nothing more back
    assert b.remote.poll(b.state) == "d1-d2"  # nor the turn made since


def test_a_turn_taken_back_before_it_was_carried_out_is_taken_back_once_it_is():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    b.remote.commands = queue.Queue()
    pair(a, b)
    play(a, b, TURNS[:2])
    a.commit("c2-c3")
    assert b.remote.poll(b.state) == "c2-c3"  # lit on B
    a.takeback()
    a.commit("d1-d2")  # A's player makes another turn
    b.commit("c2-c3")  # B's player carries out the one lit
    assert b.remote.commands.get_nowait() == {"action": "takeback", "turns": 1, "by": "board:A"}
    b.takeback()
    assert b.remote.poll(b.state) == "d1-d2"


def test_a_takeback_replayed_later_takes_nothing_back():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    b.remote.commands = queue.Queue()
    pair(a, b)
    play(a, b, TURNS[:3])
    a.takeback()
    first = [m for _, m in a.wire.sent if m["kind"] == "takeback"][-1]
    assert b.remote.commands.get_nowait()["turns"] == 1
    b.takeback()
    play(a, b, TURNS[2:4])  # the same turn again, and the next
    a.takeback()
    assert b.remote.commands.get_nowait()["turns"] == 1
    b.takeback()
    play(a, b, TURNS[3:4])
    b.remote.receive("sensorboard/A/play/B", first)  # someone replays the first takeback
    assert b.remote.commands.empty()


@pytest.mark.parametrize("code", ["7K3M", "7K3M-Q9XU", ""])
def test_a_bad_code_is_one_line(code):
    with pytest.raises(PairingError, match="a code is 8 letters and digits"):
        normal_code(code)


def test_a_new_game_keeps_the_code_and_counts_on_and_given_codes_are_kept(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite", board="A")
    pairing, line = pairing_code(journal, "g1", "B", None, "clear")
    code = pairing.code
    assert normal_code(code) == code and pairing.number == 1
    assert line == (f"pairing code {code} (game 1 with board B): on board B give "
                    f"--opponent board:A --opponent-side clear --pair {code}")
    assert pairing_code(journal, "g1", "B", None, "clear")[0] == pairing  # restarted
    assert pairing_code(journal, "g2", "B", None, "clear")[0] == Pairing("A", "B", code, 2)
    assert pairing_code(journal, "g3", "B", code, "clear")[0].number == 3  # --pair as before
    given, line = pairing_code(journal, "g3", "B", "m8rt 4xq2", "clear")
    assert (given, line) == (Pairing("A", "B", "M8RT-4XQ2", 1),
                             "pairing code M8RT-4XQ2 (game 1 with board B): board B shows the "
                             "same")
    assert pairing_code(journal, "g3", "C", None, "clear")[0].code != "M8RT-4XQ2"
    journal.close()


def test_boards_on_different_games_of_a_pairing_play_nothing_and_say_which_is_behind(
        tmp_path):
    """Board A began a new game (its second with B), B goes on with the first: neither
    plays the other's turns, each says what to do, and B's next new game is A's."""
    journal = Journal(tmp_path / "journal.sqlite", board="B")
    b_pairing = pairing_code(journal, "g1", "A", CODE, "dark")[0]
    a, b = Side("A", "B", "clear", number=2), Side("B", "A", "dark", pairing=b_pairing)
    b.remote.ahead = lambda number: remote.remember_ahead(journal, number)
    pair(a, b)
    a.commit("c1-c2")
    assert b.remote.poll(b.state) is None and not b.remote.waiting
    assert b.lines[-1] == ("board A is on game 2 with this board, this board on game 1: start "
                           "a new game here too (--new, or New game on the page); no turn is "
                           "played between them")
    assert a.lines[-1] == ("board B is still on game 1 with this board, this board on game 2: "
                           "start a new game on board B too; no turn is played between them")
    assert pairing_code(journal, "g2", "A", CODE, "dark")[0].number == 2  # B's new game
    journal.close()
    pair(a, Side("B", "A", "dark", number=2))
    assert a.lines[-1] == "board B plays this game with this board now (game 2): the game " \
                          "goes on"


def test_a_message_of_the_pairings_earlier_game_is_not_played_in_the_next():
    a, b = Side("A", "B", "clear"), Side("B", "A", "dark")
    pair(a, b)
    a.commit("c1-c2")
    earlier = [m for _, m in a.wire.sent if m["kind"] == "turn"][-1]
    a2, b2 = Side("A", "B", "clear", number=2), Side("B", "A", "dark", number=2)
    pair(a2, b2)
    b2.remote.receive("sensorboard/A/play/B", earlier)  # sent again, late
    assert b2.remote.poll(b2.state) is None and not b2.remote.waiting
    assert not b2.lines  # (a late message says nothing of the game board A is on)
    play(a2, b2, TURNS[:2])
    assert b2.journal == [("clear", "c1-c2"), ("dark", "a4-b4")]


@pytest.mark.parametrize(("args", "line"), [
    (["--opponent", "board:a/b", "--mqtt", "mqtt://h"],
     "--opponent board:a/b: 'a/b': a board's name is letters, digits, - and _"),
    (["--opponent", "board:B", "--pair", "12", "--mqtt", "mqtt://h"],
     "--pair '12': a code is 8 letters and digits, like 7K3M-Q9XZ"),
    (["--opponent", "board:B"], "--opponent board:B: give --mqtt URL, the broker both boards "
     "reach (docs/remote.md)"),
    (["--opponent", "board:A", "--board", "A", "--mqtt", "mqtt://h"],
     "--opponent board:A: that is this board's own name"),
    (["--pair", "7K3M-Q9XZ"], "--pair: a pairing code goes with --opponent board:NAME"),
])
def test_a_bad_remote_opponent_on_the_command_line_is_one_line(tmp_path, capsys, args, line):
    records = tmp_path / "records"
    code = main(["run", "--game", "tessella", "--no-input", "--records", str(records), *args])
    assert (code, capsys.readouterr().err) == (2, f"sensorboard: {line}\n")
    assert not records.exists()


def test_electronic_dice_on_both_boards_are_refused_in_one_line(tmp_path, capsys):
    records = tmp_path / "records"
    code = main(["run", "--game", "telec", "--option", "dice=electronic", "--no-input",
                 "--records", str(records), "--opponent", "board:B", "--mqtt", "mqtt://h"])
    assert (code, capsys.readouterr().err) == (
        2, "sensorboard: --opponent board:B: each board's electronic die would roll its own; "
           "play with dice=physical (the other board's roll is part of its turn)\n")
    assert not records.exists()
