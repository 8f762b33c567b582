"""One way to assemble a board: :func:`open_board` builds the service of ``run``, the
page, replay, the demo and the benches from one :class:`BoardOptions`.

The order is fixed so that a slip leaves nothing behind: the game's options are checked
first (a bad one raises :class:`~sensorboard.options.OptionError` before anything is
opened), then the backend, then the journal and its game, then the service, then the
MQTT link. What fails half way closes what was opened.

>>> from hardware.clock import VirtualClock
>>> board = open_board(BoardOptions("tessella", clock=VirtualClock()))
>>> board.service.tracker.state.NAME, board.resumed, board.writer is None
('tessella', False, True)
>>> board.close()
>>> open_board(BoardOptions("tulaga", options=("rank_stones=7",)))
Traceback (most recent call last):
...
sensorboard.options.OptionError: option: Tulaga rank_stones must be 4, 5 or 6 (U-2), got 7
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import rules
from boards.layout import Layout, layout_for_game
from hardware.backends import HardwareConfig, open_backend
from hardware.base import Clock
from hardware.clock import RealClock
from sensorboard import clocks
from sensorboard import options as game_options
from sensorboard.gamewriter import GameWriter, open_game, open_journal
from sensorboard.journal import Journal
from sensorboard.opponent import Choice, Opponent, local_opponent
from sensorboard.service import BoardService, ServiceError

if TYPE_CHECKING:
    from sensorboard.mqtt import BoardLink


@dataclass(frozen=True)
class BoardOptions:
    """Everything that makes one board. Only ``game`` is needed: the rest defaults to
    the game's shipped layout on the simulated backend, a real clock, a new game from
    the start, nothing recorded."""

    game: str
    layout: Layout | None = None
    backend: str = "sim"
    hardware: HardwareConfig | None = None
    clock: Clock | None = None
    options: tuple[str, ...] = ()  # KEY=VALUE, the rules' own and the board's (dice)
    state: rules.GameState | None = None  # start here (replay of a given position)
    records: str | Path | None = None  # the records folder; None: no journal
    board: str | None = None  # the board's name in the journal and on MQTT
    tags: dict | None = None
    new: bool = False  # start a new game even where the journal has one unfinished
    mqtt: str | None = None  # a broker's URL: the journal is published there
    error_delay: float = 1.0
    engine_hints: bool = True  # hint asks the engine (off in replay: its output is exact)
    opponent: Choice | None = None  # a side played from elsewhere (sensorboard.opponent)
    pair: str | None = None  # the pairing code another board showed (board:NAME)
    note: Callable[[str], None] = field(default=lambda text: None, compare=False)


@dataclass
class Board:
    """An assembled board: its service and what it records to. ``close()`` ends the
    record, then the link and the journal if this board opened them, then the hardware
    (the LEDs go dark)."""

    service: BoardService
    writer: GameWriter | None = None
    journal: Journal | None = None
    link: BoardLink | None = None
    resumed: bool = False
    owns_journal: bool = False
    owns_link: bool = False

    def hand_over(self) -> tuple[Journal | None, BoardLink | None]:
        """The journal and link, left open when this board closes: the next board (the
        page's next game) takes them."""
        self.owns_journal = self.owns_link = False
        return self.journal, self.link

    def close(self) -> None:
        try:
            if self.owns_link:
                self.link.stop()
            if self.writer is not None:
                self.writer.close()
            if self.owns_journal:
                self.journal.close()
        finally:
            self.service.close()


def open_board(opts: BoardOptions, *, journal: Journal | None = None,
               link: BoardLink | None = None) -> Board:
    """Build the board ``opts`` describes. ``journal`` and ``link``: open ones to share
    (the page's next game goes to the same journal); this board does not close them."""
    rule_opts, board_opts = game_options.split_options(opts.game, list(opts.options))
    fresh = game_options.new_game(opts.game, rule_opts)  # every value checked, given a state too
    start = fresh if opts.state is None else opts.state
    tags = opts.tags
    if opts.opponent is not None:  # a side the game has, before anything is opened
        # a new game's record names the opponent as that side's player
        tags = {opts.opponent.side_in(fresh).capitalize(): opts.opponent.label,
                **(opts.tags or {})}
    layout = opts.layout or layout_for_game(opts.game)
    clock = opts.clock or RealClock()
    hardware = open_backend(opts.backend, layout, opts.hardware or HardwareConfig(), clock)
    board = Board(None, journal=journal, link=link)  # type: ignore[arg-type]
    opponent = None
    try:
        if journal is None and opts.records is not None:
            board.journal = open_journal(opts.records, board=opts.board)
            board.owns_journal = True
        if board.journal is not None:
            board.writer, board.resumed = open_game(
                board.journal, opts.game, tags=tags, new=opts.new, note=opts.note,
                options=rule_opts)
            start = board.writer.state
        # A simulated board comes up set for a new game; a real one shows what it shows.
        pieces = fresh.physical() if board.resumed else None
        dice = board_opts.get("dice", "physical")
        opponent = _opponent(opts, board, start, dice)
        board.service = BoardService(
            start, layout, clock=clock, hardware=hardware, resumed=board.resumed,
            listeners=[board.writer.event] if board.writer else [], pieces=pieces,
            error_delay=opts.error_delay, engine_hints=opts.engine_hints,
            dice=dice, opponent=opponent,
            timing=clocks.for_log(board.writer.log, clock.now()) if board.writer
            else clocks.for_tags(opts.tags or {}, start.PLAYERS, start.to_move))
    except BaseException:
        if opponent is not None:
            opponent.close()
        if board.writer is not None:
            board.writer.close()
        if board.owns_journal:
            board.journal.close()
        hardware.close()
        raise
    _connect(opts, board)
    return board


def _opponent(opts: BoardOptions, board: Board, start: rules.GameState,
              dice: str) -> Opponent | None:
    """The side ``opts`` has played from elsewhere (None: both sides on this board)."""
    if opts.opponent is not None and opts.opponent.kind == "board":
        return _remote(opts, board, opts.opponent.side_in(start))
    if opts.opponent is not None:
        return local_opponent(opts.opponent, start, dice=dice,
                              seed=(opts.hardware or HardwareConfig()).seed or 0)
    return None


def _connect(opts: BoardOptions, board: Board) -> None:
    """The built board's MQTT link: attached to the journal (or, made by _remote,
    started), its commands heard by the service."""
    if board.link is None and opts.mqtt and board.journal is not None:
        from sensorboard.mqtt import attach

        try:
            board.link, board.owns_link = attach(board.journal, opts.mqtt), True
        except BaseException:
            board.close()
            raise
    elif board.owns_link and not board.link.started:
        board.link.start()  # with the other board's topics (see _remote)
    if board.link is not None:
        board.service.listen(board.link.commands)


def _remote(opts: BoardOptions, board: Board, side: str) -> Opponent:
    """Another board as the opponent, on this board's link (made here, started once the
    service is built) and journal."""
    from sensorboard.mqtt import attach
    from sensorboard.remote import open_remote

    if board.writer is None or (board.link is None and not opts.mqtt):
        raise ServiceError(f"--opponent board:{opts.opponent.name}: give --mqtt URL (the "
                           "broker both boards reach) and a records folder")
    if board.link is None:
        board.link, board.owns_link = attach(board.journal, opts.mqtt, start=False), True
    return open_remote(opts.opponent.name, side, board.writer, board.link, pair=opts.pair,
                       note=opts.note)
