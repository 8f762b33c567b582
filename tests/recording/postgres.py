"""A real PostgreSQL for the tests and the bench: a fresh cluster in a temporary folder,
listening on a free loopback port, with a password (SCRAM), stopped and removed after.

PostgreSQL refuses to run as root: as root the cluster belongs to the ``postgres`` user
(Debian's package makes it) or else ``nobody``, and its commands run through
``runuser``; as any other user they run as that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.recording.broker import free_port

# Fast and throwaway: the tests' cluster need not survive a power cut.
TEST_SETTINGS = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


def postgres_bin() -> Path | None:
    """The folder of initdb and pg_ctl (Debian's /usr/lib/postgresql/<version>/bin, the
    newest), or the PATH's; None when PostgreSQL is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


class PostgresServer:
    """``PostgresServer().start()``; ``url`` is the database's ``postgresql://`` URL."""

    def __init__(self, settings: str = TEST_SETTINGS) -> None:
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (make test installs it: "
                               ".ci/system-deps)")
        self.settings = settings
        self.port = free_port()
        self.password = secrets.token_hex(12)
        self.folder = Path(tempfile.mkdtemp(prefix="sensorboard-pg-"))
        self.data = self.folder / "data"
        self.user = None
        if os.geteuid() == 0:
            self.user = _unprivileged()
            os.chown(self.folder, pwd.getpwnam(self.user).pw_uid, -1)
        self.url = (f"postgresql://sensorboard:{self.password}@127.0.0.1:{self.port}/"
                    "sensorboard")

    def _command(self, *argv: str) -> list[str]:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return command

    def _run(self, *argv: str) -> None:
        done = subprocess.run(self._command(*argv), capture_output=True, text=True,
                              cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stderr.strip() or done.stdout}")

    def start(self) -> PostgresServer:
        pwfile = self.folder / "pw"
        pwfile.write_text(self.password + "\n")
        if self.user is not None:
            os.chown(pwfile, pwd.getpwnam(self.user).pw_uid, -1)
        self._run("initdb", "-D", str(self.data), "-U", "sensorboard", "--pwfile", str(pwfile),
                  "--auth", "scram-sha-256", "-E", "UTF8", "--no-sync")
        pwfile.unlink()
        self._watch()
        self.resume()
        self.database("sensorboard")
        return self

    def _watch(self) -> None:
        """A watchdog that stops the server and removes its folder when this process's end
        of a pipe closes: at :meth:`stop`, and also when this process is killed."""
        stop = self._command("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        self.watchdog = subprocess.Popen(
            ["sh", "-c", 'read _; "$@" >/dev/null 2>&1; rm -rf "$0"', str(self.folder),
             *stop], stdin=subprocess.PIPE, start_new_session=True)

    def resume(self) -> None:
        """Start the server (again, after :meth:`pause`)."""
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                   f"-c unix_socket_directories={self.folder} {self.settings}")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "-t", "60", "start")

    def pause(self) -> None:
        """Stop the server as an administrator would (its data kept): connections break."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def database(self, name: str) -> str:
        """A fresh, empty database of its own on this server: its URL."""
        import psycopg

        admin = self.url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        self.watchdog.stdin.close()
        self.watchdog.wait(60)


def _unprivileged() -> str:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("PostgreSQL refuses to run as root and there is no 'postgres' or "
                       "'nobody' user to run it as")
