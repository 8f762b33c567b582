"""Two simulated boards paired as remote play pairs them (sensorboard.remote, each board's
service with the other as its opponent, linked by a wire that delivers at once): what the
player carrying out the other board's Tesulda turn sees on the LEDs, step by step."""

import pytest

import rules
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard import guidance
from sensorboard.journal import Entry
from sensorboard.opponent import ROLES
from sensorboard.remote import Game, Pairing, RemoteOpponent
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService
from tests.recording.test_remote import CODE, Wire

GAME = "tesulda"


class Board:
    """One board of the pairing: its service, its player's hand and what it handed out."""

    def __init__(self, me: str, peer: str, plays: str) -> None:
        self.clock = VirtualClock()
        state = rules.new_game(GAME)
        theirs = next(p for p in state.PLAYERS if p != plays)
        self.wire = Wire()
        self.remote = RemoteOpponent(
            Pairing(me, peer, CODE), theirs, Game(GAME, state.position_str(), plays),
            self.wire, uid="g", note=lambda line: None, now=self.clock.now)
        self.service = BoardService(state, layout_for_game(GAME), clock=self.clock,
                                    bounce=0.0, engine_hints=False, opponent=self.remote)
        self.service.listeners.append(self.journaled)
        self.out: list[dict] = []
        self.run = VirtualRun(self.service, self.clock, self.out.append)

    def journaled(self, item: dict) -> None:
        """The journal's writer: this board's turns go to the other board once written."""
        if item["type"] in ("move", "takeback"):
            self.remote.written([Entry("x", len(self.out), "g", item["t"], item)])

    def act(self, *ops: tuple[str, str]) -> None:
        t = self.clock.now() + 0.3
        self.run.play([{"t": round(t + 0.3 * i, 3), "op": op, "cell": cell}
                       for i, (op, cell) in enumerate(ops)])
        self.run.scan_until(self.clock.now() + 0.2)

    def lit(self, seconds: float = 3.0) -> list[dict[str, str]]:
        """Every frame the LEDs show over the next ``seconds`` with nothing done."""
        frames = []
        end = self.clock.now() + seconds
        while self.clock.now() < end:
            self.run.scan_until(self.clock.now() + 0.1)
            self.out += self.service.step()  # (a run skips the scans where no sensor can change)
            if not frames or frames[-1] != self.service.frame:
                frames.append(dict(self.service.frame))
        return frames

    def moves(self) -> list[str]:
        return [x["move"] for x in self.out if x["type"] == "move"]


@pytest.fixture
def boards():
    light, dark = Board("A", "B", "light"), Board("B", "A", "dark")
    light.wire.peer, dark.wire.peer = dark.remote, light.remote
    light.remote.connected()
    dark.remote.connected()
    yield light, dark
    light.service.close()
    dark.service.close()


def test_a_swap_stays_lit_on_the_other_board_after_the_move_is_carried_out(boards):
    light, dark = boards
    light.act(("lift", "a2"), ("place", "a3"))  # the move; the swap no sensor sees is asked
    light.out += light.service.act("choose", "swap:s:a3>b2")
    assert light.moves() == ["a2-a3 swap:s:a3>b2"]
    dark.run.scan_until(dark.clock.now() + 0.1)  # the turn is taken at the next scan
    assert [x["move"] for x in dark.out if x["type"] == "opponent"] == ["a2-a3 swap:s:a3>b2"]
    shown = dark.lit()
    assert {"a2": ROLES[0], "a3": ROLES[1]} in shown  # the move, then the swap
    assert {"a3": ROLES[0], "b2": ROLES[1]} in shown
    dark.act(("lift", "a2"), ("place", "a3"))  # the player there carries out the move
    assert dark.moves() == ["a2-a3 swap:s:a3>b2"]  # committed: the sensors saw all they can
    assert {"a3": ROLES[0], "b2": ROLES[1]} in dark.lit()  # what is left to do by hand
    assert guidance.advice(dark.service)["text"] == (
        "board:A (light): now by hand, as lit: swap square from a3 to b2 (no sensor sees it).")
    dark.act(("lift", "a9"))  # the player has swapped and begins their own turn
    assert not set(dark.service.frame.values()) & set(ROLES)
    assert guidance.advice(dark.service) is None
