"""The framing: the host's and the firmware's implementations agree byte for byte, and a
damaged byte costs one frame, never the stream."""

import random
import sys
import zlib
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.ports import PortError, PortSpec

sys.path.insert(0, str(Path(p.__file__).parent / "firmware"))
import bridge_link  # noqa: E402  (the firmware's module, run here under CPython)


def bodies(seed=0):
    rng = random.Random(seed)
    sizes = [1, 2, 253, 254, 255, 256, 508, 509, 600] + [rng.randrange(1, 700) for _ in range(40)]
    for n in sizes:
        yield bytes(rng.choice((0, 0, 1, 0xFF, rng.randrange(256))) for _ in range(n))


def test_host_and_firmware_frame_every_body_identically():
    for body in bodies():
        wire = p.encode(body)
        assert wire == bridge_link.encode(body)
        assert wire[-1] == 0 and 0 not in wire[:-1]
        assert p.decode(wire[:-1]) == body == bridge_link.decode(wire[:-1])


def test_the_firmware_crc_fallback_is_zlib_crc32():
    table = []
    for i in range(256):  # the same polynomial, written out independently
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    assert bridge_link.crc32(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789")
    fallback = bridge_link.__dict__.get("_TABLE")
    assert fallback is None or fallback == table


def test_every_single_byte_corruption_is_caught():
    body = bytes(range(1, 40)) + b"\x00\x00" + bytes(range(200, 256))
    wire = p.encode(body)[:-1]
    for i in range(len(wire)):
        for flip in (0x01, 0x80, 0x5A):
            damaged = bytearray(wire)
            damaged[i] ^= flip
            if 0 in damaged:
                continue  # a zero splits the frame: the Receiver test covers that
            assert p.decode(bytes(damaged)) is None
            assert bridge_link.decode(bytes(damaged)) is None


@pytest.mark.parametrize("receiver", [p.Receiver, bridge_link.Receiver])
def test_a_damaged_frame_costs_that_frame_only(receiver):
    frames = [p.encode(bytes([i + 1]) * (i * 37 % 300 + 1)) for i in range(6)]
    damaged = bytearray(frames[2])
    damaged[3] ^= 0x40
    stream = frames[0] + frames[1] + bytes(damaged) + frames[3] + frames[4][:5] + frames[5]
    rx = receiver()
    got = []
    rng = random.Random(3)
    i = 0
    while i < len(stream):  # in chunks of any size
        k = rng.randrange(1, 40)
        got += rx.feed(stream[i:i + k])
        i += k
    good = [b for b in got if b is not None]
    # the flipped frame is lost; the truncated one lost its zero and takes the next with it
    assert good == [bytes([1]) * 1, bytes([2]) * 38, bytes([4]) * 112]
    assert got.count(None) == 2
    assert rx.feed(frames[0]) == [bytes([1])]  # and the stream goes on


def test_messages_round_trip_through_the_firmware_encoders():
    import bridge_fw

    assert (bridge_fw.PROTOCOL, bridge_fw.HELLO, bridge_fw.LED_DELTA) == (
        p.PROTOCOL, p.HELLO, p.LED_DELTA)
    body = p.led_delta(9, 8, [(3, (1, 2, 3)), (40, (0, 0, 0))])
    assert body.hex() == "8409000800" + "0300010203" + "2800000000"
    assert p.parse(bytes.fromhex("03 05000000 e8030000 02 03 01")) == p.Change(5, 1000, 2, 3,
                                                                             True)
    snap = p.parse(bytes.fromhex("02 07000000 10000000 0100 02 0102"), cols=6)
    assert snap == p.Snapshot(7, 16, 1, frozenset({(0, 0), (1, 3)}), p.ANSWER)
    with pytest.raises(p.ProtocolError, match="type 0x03"):
        p.parse(bytes.fromhex("03 0500"))
    with pytest.raises(p.ProtocolError, match="unknown message type 0x7f"):
        p.parse(b"\x7f")


def test_the_boards_clock_wraps_like_micropython_ticks():
    assert p.ticks_diff(5, (1 << 30) - 5) == 10
    assert p.ticks_diff(100, 40) == 60 and p.ticks_diff(40, 100) == -60


@pytest.mark.parametrize("text,expect", [
    ("/dev/ttyACM0", PortSpec(path="/dev/ttyACM0")),
    ("COM3", PortSpec(path="COM3")),
    ("serial=E6614C311B6B8F2A", PortSpec(serial="E6614C311B6B8F2A")),
    ("2e8a:0005", PortSpec(vid_pid=(0x2E8A, 5))),
    ("auto", PortSpec()),
])
def test_port_specs(text, expect):
    assert PortSpec.parse(text) == expect
    assert str(expect) == text


@pytest.mark.parametrize("text,message", [
    ("", "empty"), ("serial=", "needs the USB serial number"), ("ttyACM0", "give a device path"),
    ("2e8a:05", "give a device path"),
])
def test_bad_port_specs_say_what_to_give(text, message):
    with pytest.raises(PortError, match=message):
        PortSpec.parse(text)


def test_ports_are_found_by_serial_number_vid_pid_or_vendor(monkeypatch):
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    def port(device, vid, pid, serial):
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid, info.serial_number = vid, pid, serial
        return info

    present = [port("/dev/ttyUSB0", 0x0403, 0x6001, "FT1"),
               port("/dev/ttyACM3", 0x2E8A, 0x0005, "E661")]
    monkeypatch.setattr(list_ports, "comports", lambda: list(present))
    assert PortSpec.parse("serial=E661").find() == "/dev/ttyACM3"
    assert PortSpec.parse("0403:6001").find() == "/dev/ttyUSB0"
    assert PortSpec.parse("auto").find() == "/dev/ttyACM3"
    assert PortSpec.parse("serial=NOPE").find() is None
    present.append(port("/dev/ttyACM4", 0x2E8A, 0x0005, "F00"))
    with pytest.raises(PortError, match="several Raspberry Pi devices"):
        PortSpec.parse("auto").find()
