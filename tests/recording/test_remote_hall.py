"""Remote play on a secured hall (mosquitto with what ``install.sh --hall`` writes): two
paired boards' turns cross on their logins, and a third board's login cannot put a turn
into their pairing, even knowing the pairing code."""

import pytest

import rules
from sensorboard import events
from sensorboard.journal import Entry, Journal
from sensorboard.mqtt import BoardLink
from sensorboard.remote import Game, Pairing, RemoteOpponent, sign
from tests.recording.hall import wait_until
from tests.recording.test_hall import Hall

CODE = "4XQ2-M8RT"


class Player:
    """A board's link on its own login, with the other board as its opponent."""

    def __init__(self, hall: Hall, tmp_path, me: str, peer: str, plays: str) -> None:
        self.state = rules.new_game("tessella")
        self.journal = Journal(tmp_path / me / "journal.sqlite", board=me)
        self.link = BoardLink(self.journal, "127.0.0.1", hall.broker.tls_port, keepalive=2,
                              login=hall.login(f"board-{me}"))
        self.lines: list[str] = []
        theirs = next(p for p in self.state.PLAYERS if p != plays)
        self.remote = RemoteOpponent(Pairing(me, peer, CODE), theirs,
                                     Game("tessella", self.state.position_str(), plays),
                                     self.link, uid="g", note=self.lines.append)
        self.link.add_channel(self.remote)
        self.link.start()
        wait_until(lambda: self.link.connected, what=f"board {me} connected")

    def commit(self, move: str) -> None:
        ply, player = len(self.remote.turns) + 1, self.state.to_move
        self.state.push_str(move)
        item = events.Move(0.0, ply, player, move)
        self.remote.observe(item)
        self.remote.written([Entry(self.journal.board, ply, "g", 0.0, item.to_json())])

    def close(self) -> None:
        self.link.stop(timeout=0)
        self.journal.close()


@pytest.fixture
def hall(tmp_path):
    h = Hall(tmp_path, boards="1-3")
    yield h
    h.broker.stop()


def test_a_third_boards_login_cannot_put_a_turn_into_a_pairing(tmp_path, hall):
    one = Player(hall, tmp_path, "1", "2", "clear")
    two = Player(hall, tmp_path, "2", "1", "dark")
    wait_until(lambda: one.remote.agreed and two.remote.agreed, what="the boards' hellos")
    forged = sign(two.remote.pairing.key, {"kind": "turn", "ply": 1, "player": "clear",
                                           "move": "b1-b2", "from": "1", "to": "2"})
    hall.client("board-3").forge("sensorboard/1/play/2", forged)  # the ACL refuses it
    own = hall.client("board-3")
    own.publish("sensorboard/3/play/2", forged)  # its own topic: board 2 does not listen
    spy = hall.client("board-3")
    spy.paho.subscribe("sensorboard/1/play/2", qos=1)  # nor may it read the pairing
    one.commit("c1-c2")
    wait_until(lambda: two.remote.poll(two.state) is not None, what="board 1's turn")
    assert two.remote.poll(two.state) == "c1-c2"
    two.commit("c1-c2")
    two.commit("a4-b4")
    wait_until(lambda: one.remote.poll(one.state) is not None, what="board 2's turn")
    assert one.remote.poll(one.state) == "a4-b4"
    assert two.remote.turns == [("clear", "c1-c2"), ("dark", "a4-b4")]
    assert spy.received == [] and one.lines == [] and two.lines == []
    own.close()
    spy.close()
    one.close()
    two.close()
