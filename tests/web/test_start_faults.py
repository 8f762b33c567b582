"""`sensorboard run --web` that cannot start: one line, exit 2, no record folder, and the
page's port let go again."""

import socket
import sys

from sensorboard.cli import main


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_gpio_off_a_pi_with_the_page_leaves_no_record_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)  # no RPi.GPIO here, as off a Pi
    port = free_port()
    status = main(["run", "--game", "tessella", "--backend", "gpio", "--web", "--port",
                   str(port), "--records", str(tmp_path / "rec")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("sensorboard: gpio backend: no RPi.GPIO module")
    assert not (tmp_path / "rec").exists()
    assert port_is_free(port)


def test_the_port_is_held_before_the_board_is_set_up(tmp_path, capsys, monkeypatch):
    """No window between checking the port and serving on it: the board (and its record
    folder) is set up only once the port is listening."""
    import sensorboard.web as web

    port = free_port()
    seen = []

    class Probe(web.WebSession):
        def __init__(self, *args, **kwargs):
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                seen.append("listening")
            raise web.WebError("stop here")

    monkeypatch.setattr(web, "WebSession", Probe)
    status = main(["run", "--game", "tessella", "--web", "--port", str(port),
                   "--records", str(tmp_path / "rec")])
    assert seen == ["listening"]
    assert status == 2 and capsys.readouterr().err == "sensorboard: stop here\n"
    assert port_is_free(port) and not (tmp_path / "rec").exists()
