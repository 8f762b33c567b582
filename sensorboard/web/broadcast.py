"""The recorder's broadcast for spectators and arbiters: every board of the round live.

- ``GET /broadcast`` a grid of the round's boards (``?round=N``; default: the last round
  of the pairing file, else the last Round tag the boards sent): each a mini-board with
  the players' names, both clocks, the last move, the move number and the status;
  and the standings
- ``GET /broadcast/<board>`` one board, read-only, with its move list
- ``GET /api/round`` (``?round=N``) what the grid shows, as JSON: the round, its boards,
  the standings; ``GET /api/boards/<board>`` one board with its moves;
  ``GET /api/geometry/<game>`` a game's board for the drawing

A board's status is ``finished``, ``offline``, ``error`` (the board reports a position no
legal turn explains), ``question`` (it asks the players), ``playing``, or ``waiting``
(paired, no game of the round yet).
"""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path

from aiohttp import web

import rules
from sensorboard import clocks
from sensorboard.gamelog import GameLog
from sensorboard.numbering import full_moves, move_label
from sensorboard.recorder import BoardView, Recorder
from sensorboard.tournament import Game, Pairing, round_order, standings

STATIC = Path(__file__).parent / "static"


def status(view: BoardView, has_game: bool) -> str:
    log = view.log if has_game else None
    if log is not None and log.ended:
        return "finished"
    if not view.online:
        return "offline"
    if log is None:
        return "waiting"
    return log.open or "playing"


def board_json(view: BoardView, pairing: Pairing | None, round_: str | None,
               now: float) -> dict:
    """One board as the grid shows it (``now``: wall-clock seconds, for the clocks)."""
    out = board_base(view, pairing, round_)
    if "pieces" in out:
        out["clock"] = clock_now(view.log, now)
    return out


def clock_now(log: GameLog, now: float) -> dict | None:
    """The game's clocks at ``now``: its last ``clock`` entry counted down; a finished
    game's clocks stand still, whatever the board last sent."""
    if log.clock is None or log.clock_at is None:
        return None
    try:
        clock = clocks.view_at(log.clock, log.clock_at, log.last_at if log.ended else now)
    except (TypeError, ValueError):  # a wait or a time that is no number
        return None
    if log.ended:
        clock["running"] = None
    return clock


def board_base(view: BoardView, pairing: Pairing | None, round_: str | None) -> dict:
    """A board for the grid, all but its clocks (the same until its next entry)."""
    log = view.log
    has_game = log is not None and (round_ is None or log.tags.get("Round", round_) == round_)
    out = view.json() if has_game else {"board": view.board, "online": view.online,
                                        "conflicts": view.conflicts}
    out.update(status=status(view, has_game), round=round_)
    tags = log.tags if has_game else {}
    names = [pairing.white, pairing.black] if pairing else [tags.get("White", ""),
                                                            tags.get("Black", "")]
    out["names"] = [n if n not in ("", "?") else "" for n in names]
    if not has_game:
        return out
    players = log.players
    out["pieces"] = {c: list(p) for c, p in log.state.physical().items()}
    out["move_number"] = move_label(len(log.turns), len(players)) if log.turns else None
    return out


@functools.cache
def geometry(game: str) -> dict:
    return rules.new_game(game).GEOMETRY.to_json()


class Broadcast:
    """The broadcast's data over a recorder and the round's pairings."""

    def __init__(self, recorder: Recorder, pairings: tuple[Pairing, ...] = ()) -> None:
        self.recorder = recorder
        self.pairings = pairings
        self._standings: tuple[int, list[dict]] | None = None  # (recorder.changed, table)
        self._past: dict[tuple[str, str], Game] = {}  # finished games no board plays now
        self._paired = {(p.round, p.board): p for p in pairings}
        # (board, round) -> (what the board's view was, its base): made again on a change
        self._bases: dict[tuple[str, str | None], tuple[tuple, dict]] = {}

    def default_round(self) -> str | None:
        rounds = {p.round for p in self.pairings} or {
            v.log.tags["Round"] for v in self.recorder.boards.values()
            if v.log is not None and v.log.tags.get("Round")}
        return max(rounds, key=round_order) if rounds else None

    def pairing(self, round_: str | None, board: str) -> Pairing | None:
        return self._paired.get((round_, board))

    def boards(self, round_: str | None) -> list[dict]:
        paired = {p.board for p in self.pairings if p.round == round_}
        views = self.recorder.boards
        names = paired | {b for b, v in views.items() if not paired or round_ is None or (
            v.log is not None and v.log.tags.get("Round") == round_)}
        now = time.time()
        out = []
        for b in sorted(names, key=round_order):
            view = views.get(b) or BoardView(b)
            key = (view.game, view.applied, view.online, len(view.conflicts))
            cached = self._bases.get((b, round_))
            if cached is None or cached[0] != key:
                played = round_ if round_ is not None or view.log is None \
                    else view.log.tags.get("Round")  # the overview: each game's own round
                cached = self._bases[b, round_] = (key, board_base(
                    view, self.pairing(played, b), round_))
            base = cached[1]
            out.append({**base, "clock": clock_now(view.log, now)} if "pieces" in base
                       else base)
        return out

    def game(self, board: str, log: GameLog) -> Game:
        """A game for the standings: the pairing's names, else the game's tags."""
        tags = log.tags
        p = self.pairing(tags.get("Round"), board)
        white, black = (p.white, p.black) if p else (tags.get("White", "?"),
                                                     tags.get("Black", "?"))
        return Game(white, black, log.result if log.ended else "*")

    def standings(self, live: dict[tuple[str, str], Game]) -> list[dict]:
        """The standings over every stored game: ``live`` the boards' current games, the
        others read from the store once (blocking: run it off the event loop)."""
        games = []
        for key in self.recorder.store.games():
            if key in live:
                games.append(live[key])
                continue
            game = self._past.get(key)
            if game is None:
                log = self.recorder.store.log(*key)
                if log is None:
                    continue
                game = self.game(key[0], log)
                if log.ended:  # only a finished game's result is final
                    self._past[key] = game
            games.append(game)
        return [{"name": s.name, "points": s.points, "games": s.games}
                for s in standings(games)]

    async def cached_standings(self) -> list[dict]:
        changed = self.recorder.changed
        if self._standings is None or self._standings[0] != changed:
            live = {(b, v.game): self.game(b, v.log) for b, v in self.recorder.boards.items()
                    if v.game is not None and v.log is not None}
            table = await asyncio.get_running_loop().run_in_executor(None, self.standings,
                                                                     live)
            self._standings = (changed, table)
        return self._standings[1]


def add_routes(app: web.Application, broadcast: Broadcast) -> None:
    async def page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "broadcast.html", headers={"Cache-Control": "no-cache"})

    async def board_page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "board.html", headers={"Cache-Control": "no-cache"})

    async def round_json(request: web.Request) -> web.Response:
        round_ = request.query.get("round") or broadcast.default_round()
        return web.json_response({"round": round_, "boards": broadcast.boards(round_),
                                  "standings": await broadcast.cached_standings()})

    async def one_board(request: web.Request) -> web.Response:
        board = request.match_info["board"]
        view = broadcast.recorder.boards.get(board)
        if view is None:
            return web.json_response({"error": f"no board {board!r}"}, status=404)
        round_ = view.log.tags.get("Round") if view.log is not None else None
        out = board_json(view, broadcast.pairing(round_, board), round_, time.time())
        moves = [t.text for t in view.log.turns] if view.log is not None else []
        players = len(view.log.players) if view.log is not None else 2
        out["moves"] = [{"number": n, "turns": group} for n, group in full_moves(moves, players)]
        return web.json_response(out)

    async def game_geometry(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        if game not in rules.GAMES:
            return web.json_response({"error": f"unknown game {game!r}"}, status=404)
        return web.json_response(geometry(game), headers={"Cache-Control": "max-age=3600"})

    app.router.add_get("/broadcast", page)
    app.router.add_get("/broadcast/{board}", board_page)
    app.router.add_get("/api/round", round_json)
    app.router.add_get("/api/boards/{board}", one_board)
    app.router.add_get("/api/geometry/{game}", game_geometry)
    app.router.add_static("/static/", STATIC)
