"""Fixtures every test folder may use."""

import signal

import pytest


@pytest.fixture
def run_stops_at_start(monkeypatch):
    """For a test that expects ``sensorboard run`` to refuse before the board starts (one
    line, exit 2): a run that starts anyway sees a stop at once, as after SIGTERM, and
    returns, so the test fails on its exit code instead of waiting for a service that
    runs until it is stopped."""
    from sensorboard import live

    monkeypatch.setattr(live, "_stop_on_sigterm", lambda: [signal.SIGTERM])


@pytest.fixture
def broker(tmp_path):
    """mosquitto with the shipped settings on a free loopback port, for one test."""
    from tests.recording.broker import Broker

    b = Broker(tmp_path).start()
    yield b
    b.stop()
