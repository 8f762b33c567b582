"""A real PostgreSQL server for the store's tests, one per test session (per worker)."""

import pytest

from tests.recording.postgres import PostgresServer, postgres_bin


def started() -> PostgresServer:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin "
                    "or on PATH; make test installs it: .ci/system-deps)")
    return PostgresServer().start()


@pytest.fixture(scope="session")
def postgres_server():
    server = started()
    yield server
    server.stop()


@pytest.fixture
def own_postgres_server():
    """A server of this test's own (one it may stop and start)."""
    server = started()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server, request):
    """An empty database of this test's own on the session's server."""
    name = "t_" + "".join(c if c.isalnum() else "_" for c in request.node.name)[:50].lower()
    return postgres_server.database(name)
