"""`sensorboard run` follows every lift and place, from a demo script or piped commands,
even when the machine falls behind its scan rate (a loaded machine, or a busy Pi)."""

import io
import json
import re
import sys
import time
import types
from pathlib import Path

from sensorboard import demo, live
from sensorboard.cli import main

from .helpers import moves, run


def record_moves(text: str) -> list[str]:
    body = re.sub(r"\{[^}]*\}", " ", re.sub(r"^\[.*\]$", "", text, flags=re.M))
    return [w for w in body.split() if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", w)]


def oversleep(monkeypatch) -> None:
    """Every pass of the live loop oversleeps by 30 ms: longer than the debounce window,
    and longer than a demo's lift and place are apart at 40x."""
    slow = types.SimpleNamespace(sleep=lambda s: time.sleep(s + 0.03))
    monkeypatch.setattr(live, "time", slow)
    monkeypatch.setattr(live, "LINGER", 0.0)


def test_a_demo_on_a_loaded_machine_still_plays_every_move(tmp_path, monkeypatch):
    lines = Path(demo.__file__).with_name("tessella.jsonl").read_text().splitlines()
    played = moves(run("tessella", [json.loads(x) for x in lines])[0])
    oversleep(monkeypatch)
    assert main(["run", "--game", "tessella", "--backend", "sim", "--demo", "--speed", "40",
                 "--records", str(tmp_path)]) == 0
    record = next(tmp_path.rglob("*-tessella-*.txt")).read_text()
    assert record_moves(record) == played


def test_piped_commands_on_a_loaded_machine_are_each_seen(tmp_path, monkeypatch):
    oversleep(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "lift e4\nplace de45\nlift d5\nplace e5\nlift e3\nlift e5\nplace e5\n"
        "lift e5\nplace e5\nlift c5\nplace c4\n"))
    assert main(["run", "--game", "tessella", "--backend", "sim",
                 "--records", str(tmp_path)]) == 0
    record = next(tmp_path.rglob("*-tessella-*.txt")).read_text()
    assert record_moves(record) == ["e4-de45", "d5-e5", "e3xe5", "c5-c4"]
