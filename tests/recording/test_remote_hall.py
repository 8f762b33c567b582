"""Remote play on a real mosquitto: on a secured hall (what ``install.sh --hall`` writes)
two paired boards' turns cross on their logins, and a third board's login cannot put a
turn into their pairing, even knowing the pairing code; a turn made while the broker is
down arrives once it is back."""

import pytest

from sensorboard.remote import sign
from tests.recording.hall import Player, wait_until
from tests.recording.test_hall import Hall


@pytest.fixture
def hall(tmp_path):
    h = Hall(tmp_path, boards="1-3")
    yield h
    h.broker.stop()


def test_a_third_boards_login_cannot_put_a_turn_into_a_pairing(tmp_path, hall):
    one = Player(tmp_path, "1", "2", "clear", hall.broker.tls_port, hall.login("board-1"))
    two = Player(tmp_path, "2", "1", "dark", hall.broker.tls_port, hall.login("board-2"))
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


def test_a_turn_made_while_the_broker_is_down_arrives_once_it_is_back(tmp_path, broker):
    one = Player(tmp_path, "1", "2", "clear", broker.port)
    two = Player(tmp_path, "2", "1", "dark", broker.port)
    wait_until(lambda: one.remote.agreed and two.remote.agreed, what="the boards' hellos")
    one.commit("c1-c2")
    wait_until(lambda: two.remote.poll(two.state) is not None, what="board 1's turn")
    two.commit("c1-c2")
    two.commit("a4-b4")
    wait_until(lambda: one.remote.poll(one.state) is not None, what="board 2's turn")
    one.commit("a4-b4")
    broker.stop()
    wait_until(lambda: not one.link.connected and not two.link.connected, what="the cut")
    one.commit("c2-c3")  # journaled while nobody can hear it
    broker.start()
    wait_until(lambda: two.remote.poll(two.state) is not None, what="the turn, sent again")
    assert two.remote.poll(two.state) == "c2-c3"
    two.commit("c2-c3")
    assert two.remote.turns == one.remote.turns and len(one.remote.turns) == 3
    assert one.lines == [] and two.lines == []
    one.close()
    two.close()
