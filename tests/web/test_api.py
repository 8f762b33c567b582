"""The page's HTTP API: snapshot, actions, validation, the token, safe binding."""

from __future__ import annotations

import time

import pytest

import rules
from hardware.clock import VirtualClock
from sensorboard.cli import main
from sensorboard.web.network import check_bind, is_loopback, network_address, url_for
from sensorboard.web.server import ActionError, WebSession, default_factory

KNOWN_SHAPES = {"octagon", "square", "point", "box", "tile", "zone"}


def wait_for(predicate, timeout: float = 5.0):
    """Poll the server until ``predicate()`` is true (the runner scans every 2 ms)."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.01)


def test_state_has_board_pieces_leds_and_legend(server):
    status, state = server.get("/api/state")
    assert status == 200
    assert state["game"] == "tessella" and state["to_move"] == "clear"
    names = [c["name"] for c in state["geometry"]["cells"]]
    assert names == list(rules.new_game("tessella").GEOMETRY.names)
    assert state["cells"]["e4"] == {"present": True, "pieces": ["clear"], "in_hand": [],
                                    "led": [0, 0, 0], "role": None, "magnets": 1}
    assert {item["role"] for item in state["legend"]} >= {"move", "capture", "wrong"}
    assert state["moves"] == [] and state["prompt"] is None and state["outcome"] is None


def test_page_and_static_files_are_served(server):
    status, html = server.get("/")
    assert status == 200 and "/static/app.js" in html
    for name in ("app.js", "style.css"):
        assert server.get(f"/static/{name}")[0] == 200


def test_lift_and_place_make_a_move_through_the_pipeline(server):
    assert server.post("lift", {"cell": "b1"})[0] == 200
    state = wait_for(lambda: (s := server.state())["cells"]["b1"]["in_hand"] and s)
    assert state["cells"]["b1"]["in_hand"] == ["clear"]
    assert state["cells"]["b1"]["role"] == "lifted"
    assert state["cells"]["a1"]["role"] == "move"
    led = server.call(lambda: server.session.service.strip.shown())
    assert state["cells"]["a1"]["led"] == list(led[server.session.service.layout.cell_led["a1"]])
    assert server.post("toggle", {"cell": "a1"})[0] == 200  # empty: places a magnet
    state = wait_for(lambda: (s := server.state())["moves"] and s)
    assert state["moves"] == ["b1-a1"] and state["to_move"] == "dark"


@pytest.mark.parametrize("action, body, status, words", [
    ("lift", {"cell": "z9"}, 400, "unknown cell 'z9'"),
    ("place", {"cell": 3}, 400, "unknown cell 3"),
    ("lift", {"cell": "c3"}, 409, "no piece on c3"),
    ("new", {"game": "chess"}, 400, "unknown game 'chess'"),
    ("choose", {"value": "e4-e5"}, 409, "no question is open"),
    ("press", {"button": "reset"}, 400, "unknown button 'reset'"),
    ("lift", {"square": "b1"}, 400, 'lift needs a JSON object like {"cell": ...}'),
    ("lift", ["b1"], 400, "needs a JSON object"),
    ("jump", {"cell": "b1"}, 404, "no action 'jump'"),
    ("lift", {"cell": "b1", "force": True}, 400,
     "lift: unknown field 'force'; it takes only \"cell\""),
    ("press", {"button": "clock", "cell": "b1"}, 400,
     "press: unknown field 'cell'; it takes only \"button\" and \"player\""),
    ("choose", {"value": "none", "key": "1.000|x"}, 400,
     "choose: unknown field 'key'; it takes only \"value\" and \"asked\""),
])
def test_bad_actions_are_refused_and_change_nothing(server, action, body, status, words):
    before = server.state()
    got, answer = server.post(action, body)
    assert got == status
    assert list(answer) == ["error"] and words in answer["error"]
    assert "\n" not in answer["error"]
    after = server.state()
    assert after == before


def test_malformed_json_and_wrong_content_type(server):
    before = server.state()
    status, answer = server.post("lift", None, raw=b'{"cell": ')
    assert (status, answer) == (400, {"error": "the body is not valid JSON"})
    status, answer = server.post("lift", {"cell": "b1"}, content_type="text/plain")
    assert status == 415 and "application/json" in answer["error"]
    assert server.state() == before


def test_deeply_nested_body_is_a_400_and_changes_nothing(server):
    before = server.state()
    status, answer = server.post("lift", None,
                                 raw=b'{"cell": ' + b"[" * 30_000 + b"]" * 30_000 + b"}")
    assert (status, answer) == (400, {"error": "the body's JSON is nested too deeply"})
    status, answer = server.post("lift", {"cell": "x" * 60_000})
    assert status == 400 and len(answer["error"]) < 300
    assert answer["error"].startswith("unknown cell 'xxxxxxxx")
    status, answer = server.post("press", {"button": "clock", "player": "red"})
    assert status == 400 and answer["error"].startswith("unknown player 'red'")
    assert server.state() == before


def test_every_http_error_is_json(server):
    import json
    import urllib.error
    import urllib.request

    def fetch(path: str, method: str = "GET", data: bytes | None = None):
        req = urllib.request.Request(f"{server.url}{path}", method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=5) as res:
                return res.status, res.headers["Content-Type"], json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, e.headers["Content-Type"], json.loads(e.read())

    before = server.state()
    status, kind, answer = fetch("api/lift")  # GET on a POST-only address
    assert (status, kind) == (405, "application/json; charset=utf-8")
    assert answer == {"error": "GET is not allowed on /api/lift; use POST"}
    status, kind, answer = fetch("api/state", "DELETE")
    assert status == 405 and list(answer) == ["error"]
    big = json.dumps({"cell": "b1", "pad": "x" * 70_000}).encode()
    status, kind, answer = fetch("api/lift", "POST", big)
    assert status == 413 and kind.startswith("application/json")
    assert answer == {"error": "the body is too large (at most 65536 bytes)"}
    status, kind, answer = fetch("nowhere")
    assert status == 404 and answer == {"error": "nothing at /nowhere; the page is at /"}
    assert server.state() == before


def test_a_fault_of_the_server_is_json_too(server, caplog):
    def broken():
        raise RuntimeError("boom")

    server.session.full = broken  # the state handler fails
    status, answer = server.get("/api/state")
    assert status == 500
    assert answer == {"error": "internal error (RuntimeError); the board goes on"}
    assert server.post("lift", {"cell": "b1"})[0] == 200  # and the board goes on


def test_a_press_that_changes_nothing_says_why(server):
    status, answer = server.post("press", {"button": "clock"})
    assert status == 200
    assert answer["notice"] == "Clock: no turn to end; clear has not moved a piece."
    status, answer = server.post("press", {"button": "takeback"})
    assert answer["notice"] == "Take back: there is no move to take back yet."


def test_a_past_position_with_the_leds_of_its_move(server):
    for action, cell in (("lift", "b1"), ("place", "a1")):
        assert server.post(action, {"cell": cell})[0] == 200
        wait_for(lambda c=cell, a=action: server.state()["cells"][c]["present"] == (a == "place"))
    wait_for(lambda: server.state()["moves"])
    status, start = server.get("/api/position?ply=0")
    assert status == 200 and start["move"] is None and start["leds"] == {}
    assert start["pieces"]["b1"] == ["clear"] and "a1" not in start["pieces"]
    status, first = server.get("/api/position?ply=1")
    assert first["move"] == "b1-a1" and first["to_move"] == "dark"
    assert first["leds"] == {"a1": {"role": "last", "led": [0, 0, 70]},
                             "b1": {"role": "last", "led": [0, 0, 70]}}
    assert first["captured"] == {"clear": 0, "dark": 0}
    for bad in ("2", "-1", "x"):
        status, answer = server.get(f"/api/position?ply={bad}")
        assert status == 400 and answer == {"error": f"ply '{bad}': give a number from 0 to 1"}


def test_state_says_whether_this_page_may_act(make_server):
    srv = make_server(token="s3cret")
    assert srv.get("/api/state")[1]["allowed"] is False
    assert srv.get("/api/state", headers={"X-Sensorboard-Token": "s3cret"})[1]["allowed"] is True


def test_answer_not_offered_is_refused_then_an_offered_one_commits(server):
    for move in ("b1-b2", "a3-ab23"):
        frm, to = move.split("-")
        server.post("lift", {"cell": frm})
        wait_for(lambda f=frm: not server.state()["cells"][f]["present"])
        server.post("place", {"cell": to})
        wait_for(lambda m=move: m in server.state()["moves"])
    # The shooter and both enemies lifted, both put back: b2xa2 or b2xab23?
    for op, cell in (("lift", "b2"), ("lift", "a2"), ("lift", "ab23"),
                     ("place", "a2"), ("place", "ab23")):
        server.post(op, {"cell": cell})
        wait_for(lambda c=cell, o=op: server.state()["cells"][c]["present"] == (o == "place"))
    # The shooter may still be in hand (both enemies touched): the board waits for the
    # clock, then asks.
    assert server.state()["prompt"] is None
    assert server.post("press", {"button": "clock", "player": "clear"})[0] == 200
    state = wait_for(lambda: (s := server.state())["prompt"] and s)
    assert state["prompt"] == ["b2xa2", "b2xab23", "none"]
    status, answer = server.post("choose", {"value": "b2xc3"})
    assert status == 400 and "'b2xc3' is not offered; options: b2xa2, b2xab23, none" in \
        answer["error"]
    assert server.state()["prompt"] == ["b2xa2", "b2xab23", "none"]
    assert server.post("choose", {"value": "b2xab23"})[0] == 200
    assert server.state()["moves"][-1] == "b2xab23"


def test_new_game_for_every_game(server):
    for board, game in enumerate(sorted(rules.GAMES), start=1):
        status, answer = server.post("new", {"game": game})
        assert status == 200, answer
        state = server.get("/api/state")[1]
        assert state["game"] == game and state["board"] == board
        cells = state["geometry"]["cells"]
        assert {c["shape"] for c in cells} <= KNOWN_SHAPES
        assert set(state["cells"]) == {c["name"] for c in cells}
        physical = rules.new_game(game).physical()
        assert {c for c, v in state["cells"].items() if v["present"]} == set(physical)


def test_token_guards_actions_but_not_viewing(make_server):
    srv = make_server(token="s3cret")
    assert srv.get("/api/state")[0] == 200
    assert srv.get("/")[0] == 200
    status, answer = srv.post("lift", {"cell": "b1"})
    assert status == 403 and "token" in answer["error"]
    assert srv.post("lift", {"cell": "b1"}, token="wrong")[0] == 403
    assert srv.post("new", {"game": "tessella"})[0] == 403
    assert srv.state()["cells"]["b1"]["magnets"] == 1
    assert srv.post("lift", {"cell": "b1"}, token="s3cret")[0] == 200
    assert srv.post("place", {"cell": "b1"}, query="?token=s3cret")[0] == 200
    assert srv.state()["token_required"] is True


def test_other_host_names_are_refused_on_loopback(server):
    status, answer = server.get("/api/state", headers={"Host": "attacker.example:80"})
    assert status == 403 and "not served" in answer["error"]


def test_demo_blocks_board_actions_until_it_ends(make_server):
    srv = make_server(demo=[{"t": 30.0, "op": "lift", "cell": "e1"}])
    assert srv.state()["demo"] is True
    status, answer = srv.post("lift", {"cell": "b1"})
    assert status == 409 and "demo is playing" in answer["error"]
    assert srv.post("new", {"game": "tessella"})[0] == 200
    assert srv.state()["demo"] is False
    assert srv.post("lift", {"cell": "b1"})[0] == 200


def test_binding_rules():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert check_bind("127.0.0.1", None) is None
    assert "--token" in check_bind("0.0.0.0", None)
    assert check_bind("0.0.0.0", "t") is None
    assert url_for("127.0.0.1", 8080, None) == "http://127.0.0.1:8080/"
    shown = url_for("0.0.0.0", 80, "t")  # the machine's network address, not loopback
    assert shown.endswith(":80/?token=t")
    host = shown.removeprefix("http://").split(":")[0]
    assert host == (network_address() or "127.0.0.1")


def test_cli_refuses_a_network_address_without_a_token(capsys):
    assert main(["run", "--game", "tessella", "--web", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("sensorboard: --host 0.0.0.0 serves the network")
    assert "\n" not in err


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_every_game_opens_on_its_shipped_board(game):
    session = WebSession(game, default_factory("sim", VirtualClock()), clock=VirtualClock())
    session.step()
    full = session.full()
    assert len(full["cells"]) == len(rules.new_game(game).GEOMETRY.names)


def test_websocket_pushes_the_state_when_it_changes(server):
    import asyncio
    import json

    import aiohttp

    async def watch():
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{server.url}ws") as ws:
            first = json.loads((await ws.receive()).data)
            assert first["cells"]["b1"]["present"] and "geometry" in first
            await asyncio.to_thread(server.post, "lift", {"cell": "b1"})
            while True:
                snap = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
                assert snap["seq"] > first["seq"]
                if not snap["cells"]["b1"]["present"]:
                    return snap

    snap = asyncio.run(watch())
    assert snap["cells"]["b1"]["in_hand"] == ["clear"] and snap["cells"]["a1"]["role"] == "move"


def test_every_board_button_can_be_pressed(server):
    state = server.state()
    # the roll button comes with an electronic die only (Telec with dice=electronic)
    assert state["buttons"] == ["clock", "hint", "takeback"]
    for button in state["buttons"]:
        status, answer = server.post("press", {"button": button})
        assert status == 200, answer
    assert server.state()["moves"] == []


def test_setup_entered_through_the_api(make_server):
    """POST /api/setup: a side's figures before the first move; every fault one line,
    nothing changed; refused once the game has begun, and for a game with a fixed start."""
    from rules.tesulda_setup import default_setup_text

    srv = make_server("tesulda")
    light = default_setup_text().split("dark")[0]
    status, body = srv.post("setup", {"text": light.replace("e1=Skh", "e1=Skr")})
    assert status == 400
    assert body == {"error": "setup line 1: light e1=Skr: a crown and a star on one figure "
                             "(D-3)",
                    "errors": ["setup line 1: light e1=Skr: a crown and a star on one "
                               "figure (D-3)"]}
    status, body = srv.post("setup", {"text": light.replace("a2=Sssz ", "")})
    assert status == 400 and body["errors"][0] == (
        "setup: light has 19 figures; a side has 20 (6 circle, 6 square, 8 triangle bases) "
        "(D-2)")
    status, body = srv.post("setup", {"text": 7})
    assert status == 400 and body == {"error": "setup: text must be a string, got int"}
    assert srv.state()["setup"] == default_setup_text()
    swapped = light.replace("a1=Sssh", "a1=Sssz").replace("a2=Sssz", "a2=Sssh")
    status, body = srv.post("setup", {"text": swapped})
    assert status == 200 and body["state"]["setup"].startswith("light a1=Sssz")
    assert body["state"]["cells"]["a1"]["pieces"] == ["light-square", "square", "square",
                                                      "trapezoid"]
    assert srv.post("lift", {"cell": "a2"})[0] == 200
    deadline = time.monotonic() + 5
    while srv.state()["cells"]["a2"]["present"] and time.monotonic() < deadline:
        time.sleep(0.05)
    status, body = srv.post("setup", {"text": light})
    assert status == 409 and body == {"error": "setup: a move is under way on the board; put "
                                               "it back first"}
    assert srv.state()["setup"] is None  # no setup box while a figure is in hand
    assert srv.post("place", {"cell": "a5"})[0] == 200
    while srv.state()["moves"] != ["a2-a5"] and time.monotonic() < deadline:
        time.sleep(0.05)
    status, body = srv.post("setup", {"text": light})
    assert status == 409 and body["error"].startswith("setup: the game has begun")
    tessella = make_server("tessella")
    status, body = tessella.post("setup", {"text": light})
    assert status == 409 and body == {"error": "tessella starts from its fixed position and "
                                               "takes no setup"}


def test_run_options_make_the_game_s_boards_and_no_other_game_s():
    """``run --web --game telec --option dice=electronic``: the roll button rolls the
    board's die; a board with the default physical dice refuses it in words."""
    clock = VirtualClock()
    factory = default_factory("sim", clock, options={"telec": ["dice=electronic"]})
    session = WebSession("telec", factory, clock=clock)
    session.step()
    assert session.press("roll") == ""
    session.step()
    assert session.full()["rolled"] in {"1", "2", "3", "4", "5", "null", "ace"}
    plain = WebSession("telec", default_factory("sim", clock), clock=clock)
    plain.step()
    with pytest.raises(ActionError, match="no electronic die: roll your own"):
        plain.press("roll")
    session.new_game("tulaga")  # Telec's options are not Tulaga's
    assert session.full()["game"] == "tulaga"


def test_an_answer_names_its_question_and_a_replaced_one_refuses_it(make_server):
    """The page sends the key of the question it showed: once later events have put
    another question in its place, the answer is refused (409) rather than taken for the
    new one. Teblo on reed switches: yellow's pawn touched on b1 is asked about (a touch,
    or b1-b2 onto its own block and red's block on b1); yellow then steps b1-c1, the first
    question settles by itself and the step is asked (each brought up with ``hint``: the
    board itself waits for red's move)."""
    server = make_server("teblo")
    for op, cell in (("lift", "a1"), ("place", "b1"), ("place", "c5"), ("place", "b2"),
                     ("place", "c6"), ("lift", "b1"), ("place", "b1")):
        server.post(op, {"cell": cell})
        wait_for(lambda c=cell, o=op: server.state()["cells"][c]["present"] == (o == "place"))
    server.post("press", {"button": "hint"})
    first = wait_for(lambda: (s := server.state())["prompt"] == ["b1-b2", "none"] and s)
    for op, cell in (("lift", "b1"), ("place", "c1")):
        server.post(op, {"cell": cell})
        wait_for(lambda c=cell, o=op: server.state()["cells"][c]["present"] == (o == "place"))
    wait_for(lambda: server.state()["prompt"] != ["b1-b2", "none"])  # (settled by itself)
    server.post("press", {"button": "hint"})
    second = wait_for(lambda: (s := server.state())["prompt"] == ["b1-b2", "b1-c1", "none"]
                      and s)
    assert second["question_key"] != first["question_key"]
    status, answer = server.post("choose", {"value": "none", "asked": first["question_key"]})
    assert status == 409
    assert answer["error"] == "'none' answered a question no longer open; now asked: " \
        "b1-b2, b1-c1, none"
    assert server.state()["prompt"] == ["b1-b2", "b1-c1", "none"]
    status, _ = server.post("choose", {"value": "b1-c1", "asked": second["question_key"]})
    assert status == 200 and server.state()["moves"][-1] == "b1-c1"
