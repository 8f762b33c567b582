"""Who sent what, on a real mosquitto: acks name the journal, so a stale or forged ack changes
nothing; a second, different entry under a stored number is kept aside and shown; an entry
the rules refuse never hides its game."""

import json

import pytest

from tests.recording.broker import Broker
from tests.recording.hall import Board, RecorderThread, stored_turns, wait_until


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def publish(port, topic, payload, retain=False, **login):
    """One message from a client of its own (QoS 1, waited for)."""
    import paho.mqtt.client as paho

    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    if login:
        client.username_pw_set(login["username"], login["password"])
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.publish(topic, json.dumps(payload), qos=1, retain=retain).wait_for_publish(5)
    client.loop_stop()
    client.disconnect()


def stored(recorder, board):
    assert board.writer.flush()
    return lambda: recorder.store.held(board.name, board.journal.identity) >= board.journal.seq


def test_a_fresh_journal_under_a_reused_name_is_recorded(tmp_path, broker):
    """Round 1's board 3 leaves a retained ack; a new SD card under the same name starts
    from sequence number 1 and every one of its turns is stored, beside the old game."""
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    old = Board(tmp_path / "round1", "3", broker.port, seed=1)
    for _ in range(12):
        old.turn()
    wait_until(stored(recorder.recorder, old), what="the first journal")
    old.close()
    new = Board(tmp_path / "round2", "3", broker.port, seed=2)
    assert new.journal.identity != old.journal.identity
    for _ in range(5):
        new.turn()
    wait_until(stored(recorder.recorder, new), what="the fresh journal's entries")
    # the old retained ack (of 25) was not taken: acked only ever grows
    wait_until(lambda: new.link.acked == new.journal.seq, what="the ack of the fresh journal")
    assert stored_turns(recorder.store) == {"3": old.turns + new.turns}
    view = recorder.recorder.view("3")
    wait_until(lambda: view.game == new.uid and len(view.log.turns) == 5, what="the overview")
    records = recorder.store.records()
    assert [len(r.turns) for r in records] == [12, 5]
    recorder.stop()
    new.close()


def test_a_forged_or_foreign_ack_changes_nothing(tmp_path, broker):
    """An ack of 10^9 without the journal's identity, one naming another journal, and one
    naming this journal beyond what it has written: the board keeps sending until the
    recorder's own ack covers its entries."""
    board = Board(tmp_path, "6", broker.port, seed=4, resend=0.25)
    for _ in range(3):
        board.turn()
    assert board.writer.flush()
    wait_until(lambda: board.link.sent == board.journal.seq, what="the entries sent")
    for ack in ({"seq": 10**9}, {"seq": 10**9, "journal": "f" * 32},
                {"seq": 10**9, "journal": board.journal.identity}):
        publish(broker.port, "sensorboard/6/ack", ack, retain=True)
    board.turn()
    wait_until(lambda: board.link.sent == board.journal.seq, what="the next turn sent")
    assert board.link.acked == 0
    assert board.journal.meta("mqtt_acked") is None
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    wait_until(stored(recorder.recorder, board), what="the recorder's own ack")
    wait_until(lambda: board.link.acked == board.journal.seq, what="the ack at the board")
    assert stored_turns(recorder.store) == {"6": board.turns}
    recorder.stop()
    board.close()


def test_a_second_entry_for_a_stored_number_is_kept_aside_and_shown(tmp_path, broker):
    """A fake move stored first at a future number: the board's real entry under it is kept
    aside, the game still shows on the overview and in the records, with both named."""
    recorder = RecorderThread(tmp_path / "recorder.sqlite", broker.port)
    board = Board(tmp_path, "8", broker.port, seed=5)
    board.turn()
    wait_until(stored(recorder.recorder, board), what="the first turn")
    fake = {"board": "8", "game": board.uid, "seq": board.journal.seq + 2, "at": 1.0,
            "journal": board.journal.identity,
            "item": {"type": "move", "t": 0.0, "ply": 2, "player": "dark", "move": "zz9-zz8"}}
    publish(broker.port, "sensorboard/8/journal", [fake])
    wait_until(lambda: recorder.store.held("8", board.journal.identity) >= 0 and
               recorder.recorder.store.beyond.get(("8", board.journal.identity)),
               what="the fake entry stored")
    for _ in range(3):
        board.turn()
    wait_until(stored(recorder.recorder, board), what="the real turns")
    (conflict,) = recorder.store.conflicts("8")
    assert conflict.seq == fake["seq"] and conflict.item["move"] == board.turns[1]
    view = recorder.recorder.view("8")
    wait_until(lambda: len(view.conflicts) == 1, what="the conflict on the overview")
    row = {b["board"]: b for b in recorder.recorder.overview()}["8"]
    assert row["turns"] >= 1 and row["conflicts"][0]["seq"] == fake["seq"]
    (record,) = recorder.store.records()
    notes = [n for t in record.turns for n in t.notes] + record.preamble
    assert any("zz9-zz8" in n and "not applied" in n for n in notes)
    assert any(f"kept aside: a second, different entry #{fake['seq']} ({board.turns[1]})" in n
               for n in notes)
    recorder.stop()
    board.close()
