"""One service per records folder: a lock file holding the pid of the run that uses it.

A second ``sensorboard run`` on the same folder would write the same journal and resume
the same game; it is refused instead, naming the process that holds the folder. The lock
is the kernel's (``flock``), so a run that died holds nothing: its lock file is taken
over. The file goes when the run ends, and so does a folder the run created and left
empty.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     with FolderLock(f"{tmp}/records"):
...         holder(f"{tmp}/records") == os.getpid()
...     Path(f"{tmp}/records").exists()
True
False
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "sensorboard.lock"


class FolderBusy(Exception):
    """The folder is in use by another process, named in the message."""


def holder(folder: str | Path) -> int | None:
    """The pid written in ``folder``'s lock file, if any."""
    try:
        return int((Path(folder) / LOCK_NAME).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def describe(pid: int | None) -> str:
    """``pid`` with its command line where /proc shows it: ``sensorboard run ... (pid 7)``."""
    if pid is None:
        return "another process"
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"process {pid}"
    command = " ".join(w.decode(errors="replace") for w in words if w)
    return f"{command[:80]} (pid {pid})" if command else f"process {pid}"


class FolderLock:
    """Held from ``__enter__`` (creating the folder if needed) until ``__exit__``."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.created = False
        self.fd: int | None = None

    def __enter__(self) -> FolderLock:
        self.created = not self.folder.exists()
        self.folder.mkdir(parents=True, exist_ok=True)
        while self.fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise FolderBusy(f"{self.folder}: in use by {describe(holder(self.folder))}; "
                                 "stop it, or give this run another --records folder") from None
            if self._same_file(fd):
                self.fd = fd
            else:  # the holder removed the file as we opened it: lock the new one
                os.close(fd)
        os.ftruncate(self.fd, 0)
        os.write(self.fd, f"{os.getpid()}\n".encode())
        return self

    def _same_file(self, fd: int) -> bool:
        try:
            return os.stat(self.path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            return False

    def __exit__(self, *exc: object) -> None:
        if self.fd is None:
            return
        self.path.unlink(missing_ok=True)  # while still held: nobody locks a dead file
        os.close(self.fd)
        self.fd = None
        if self.created:
            try:
                self.folder.rmdir()  # only if the run left nothing in it
            except OSError:
                pass
