"""Recording: an append-only journal per game and a human-readable record.

The journal (``journal.jsonl``) gets one JSON line per event, flushed and fsync'd
before the call returns, so a power cut loses at most the event being written.
The record (``record.txt``) holds tags and the numbered moves; it is rewritten
atomically (temporary file, fsync, rename) after every move.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from sensorboard.numbering import full_moves


class Recorder:
    def __init__(self, folder: str | Path, game: str, players: tuple[str, ...],
                 tags: dict[str, str] | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.players = players
        self.tags = {"Game": game, "Date": time.strftime("%Y-%m-%d"), "Site": "sensorboard",
                     **(tags or {})}
        self.moves: list[str] = []
        self.result = "*"
        self.journal_path = self.folder / "journal.jsonl"
        self.record_path = self.folder / "record.txt"
        self._journal = open(self.journal_path, "a", encoding="utf-8")  # noqa: SIM115
        self.event({"type": "start", "game": game, "tags": self.tags})
        self._write_record()

    def event(self, event: dict) -> None:
        self._journal.write(json.dumps(event, sort_keys=True) + "\n")
        self._journal.flush()
        os.fsync(self._journal.fileno())
        if event.get("type") == "move":
            self.moves.append(event["move"])
            self._write_record()
        elif event.get("type") == "takeback" and self.moves:
            self.moves.pop()
            self.result = "*"
            self._write_record()
        elif event.get("type") == "end":
            self.result = event["result"]
            self._write_record()

    def _write_record(self) -> None:
        lines = [f'[{k} "{v}"]' for k, v in self.tags.items()]
        lines.append(f'[Result "{self.result}"]')
        lines.append("")
        for number, group in full_moves(self.moves, len(self.players)):
            lines.append(f"{number}. " + " ".join(group))
        if self.result != "*":
            lines.append(self.result)
        tmp = self.record_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.record_path)

    def close(self) -> None:
        self._journal.close()


def new_record_folder(root: str | Path, game: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = Path(root) / f"{stamp}-{game}"
    k = 1
    while folder.exists():
        k += 1
        folder = Path(root) / f"{stamp}-{game}-{k}"
    return folder
