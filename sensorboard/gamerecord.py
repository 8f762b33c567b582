"""Game records: a PGN-like text per game, its parser, move numbering, round exports.

A record is tag pairs, a blank line, then the turns numbered by full moves, each
turn followed by an optional comment holding its time stamp, clock and notes::

    [Event "Club championship"]
    [Site "Hall A"]
    [Date "2026.11.22"]
    [Round "3"]
    [Clear "Ann Lee"]
    [Dark "Bo Tran"]
    [Result "1-0"]
    [Game "tessella"]
    [Board "7"]
    [TimeControl "600+5"]
    [Termination "no move left"]

    1. e4-e5 {[%ts 15:02:03] [%clk 0:09:58]} d5-d4 {[%ts 15:02:09] [%clk 0:10:01]}
    2. ...
    1-0

The players are tagged by the game's own colours, in turn order (``Clear`` and ``Dark``,
``Blue`` and ``Red``, Tulaga's ``Black`` and ``White``); PGN's ``White`` and ``Black``,
as ``--tag`` and a pairing file may give them, stand for the first and second player.
A turn of several decisions is their notations joined by spaces; the parser finds
where one turn ends by playing the decisions through the rules (as a PGN reader
plays SAN), so every record it accepts is a legal game. ``docs/records.md`` is the
organiser's description.

The turns are numbered as the page and the terminal number them
(:mod:`sensorboard.numbering`).
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import rules
from sensorboard.clocks import TimeControl, TimeControlError
from sensorboard.gamelog import GameLog
from sensorboard.numbering import move_label

ROSTER = ("Event", "Site", "Date", "Round")  # then the players' tags, then Result
DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "Result": "*"}
PGN_PLAYERS = ("White", "Black")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class RecordError(ValueError):
    """A record that cannot be read; the message names the line and what is wrong."""


def player_tags(game: str | None) -> tuple[str, ...]:
    """The tags naming a game's players, in turn order: its own colours; PGN's for a
    record of no known game.

    >>> player_tags("telec"), player_tags("tulaga")
    (('Blue', 'Red'), ('Black', 'White'))
    """
    if game not in rules.GAMES:
        return PGN_PLAYERS
    return tuple(p.capitalize() for p in rules.game_module(game).PLAYERS)


def own_player_tags(tags: dict[str, str], game: str | None) -> dict[str, str]:
    """``tags`` with PGN's White and Black (the first and second player) named by the
    game's own colours; a game that has a White or Black player keeps those as they are.

    >>> own_player_tags({"White": "Ann", "Round": "3"}, "telec")
    {'Round': '3', 'Blue': 'Ann'}
    """
    own = player_tags(game)
    out = dict(tags)
    for alias, name in zip(PGN_PLAYERS, own, strict=False):
        if alias not in own and alias in out:
            value = out.pop(alias)
            out.setdefault(name, value)
    return out


def _label(ply: int, players: int, first: int) -> str:
    """The number before turn ``ply`` of a game whose first turn was made by the player
    at index ``first`` (a set-up position with the second player to move)."""
    return move_label(ply + first, players)


# --- the record as data -------------------------------------------------------------

@dataclass
class RecordPly:
    """One player's turn as a record writes it: its notation and its comment."""

    text: str  # the turn's decisions joined by spaces
    ts: str | None = None  # time of day (UTC) of the commit, HH:MM:SS
    clock: str | None = None  # the mover's remaining time after the turn, H:MM:SS
    notes: list[str] = field(default_factory=list)
    setup: str | None = None  # an arbiter set this position after the turn


@dataclass
class Record:
    tags: dict[str, str]
    turns: list[RecordPly]
    preamble: list[str] = field(default_factory=list)  # notes before the first turn

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")


def _clean(text: str) -> str:
    """A note for a comment: one line, no braces (PGN comments cannot nest), nothing that
    reads as a command like ``[%ts ...]``."""
    return " ".join(text.replace("{", "(").replace("}", ")").replace("[%", "[ %").split())


def _hms(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def time_control(text: str) -> tuple[float, float] | None:
    """The first stage of a TimeControl text as (seconds, increment): ``"600+5"`` ->
    (600, 5); None for ``-``, nothing, or a text :mod:`sensorboard.clocks` cannot read.
    For a journal written before the board ran its clock: its ``[%clk]`` are estimated
    from the commit times."""
    try:
        control = TimeControl.parse(text)
    except TimeControlError:
        return None
    if control is None:
        return None
    return control.stages[0].seconds, control.stages[0].bonus


def record_from_log(log: GameLog) -> Record:
    """The record of a game rebuilt from its journal."""
    start_at = log.started_at
    tags = {**DEFAULTS, **dict.fromkeys(player_tags(log.game), "?")}
    if start_at:
        tags["Date"] = time.strftime("%Y.%m.%d", time.gmtime(start_at))
    tags.update(own_player_tags({k: v for k, v in log.tags.items() if v not in (None, "")},
                                log.game))
    tags["Result"] = log.result
    tags["Game"] = log.game
    tags.setdefault("Board", str(log.start.get("board", "?")))
    tags.setdefault("TimeControl", "-")
    if log.termination:
        tags["Termination"] = log.termination
    elif log.result == "*":
        tags["Termination"] = "unterminated"
    if log.setup:
        tags["SetUp"] = "1"
        tags["Position"] = log.setup
    control = None if log.clock is not None else time_control(tags["TimeControl"])
    left = dict.fromkeys(log.players, control[0]) if control else {}
    last = start_at
    turns = []
    for turn in log.turns:
        clock = None if turn.clock is None else _hms(turn.clock)
        if control and turn.at is not None and last is not None and turn.player in left:
            left[turn.player] += control[1] - (turn.at - last)
            clock = _hms(left[turn.player])
        if turn.at is not None:
            last = turn.at
        ts = time.strftime("%H:%M:%S", time.gmtime(turn.at)) if turn.at is not None else None
        setup = None
        notes = []
        for note in turn.notes:
            m = re.search(r'\[%setup "([^"]*)"\]', note)
            if m:
                setup = m.group(1)
                note = note[:m.start()].rstrip()
            notes.append(_clean(note))
        turns.append(RecordPly(turn.text, ts, clock, notes, setup))
    return Record(tags, turns, [_clean(n) for n in log.preamble])


# --- writing -----------------------------------------------------------------------------

def _tag_value(value: str) -> str:
    value = " ".join(str(value).split())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(turn: RecordPly) -> str:
    parts = []
    if turn.ts:
        parts.append(f"[%ts {turn.ts}]")
    if turn.clock:
        parts.append(f"[%clk {turn.clock}]")
    parts += [_clean(n) for n in turn.notes]
    if turn.setup is not None:
        parts.append(f'[%setup "{turn.setup}"]')
    return "{" + " ".join(parts) + "}" if parts else ""


def format_record(record: Record, players: int = 2, first: int = 0) -> str:
    """The record's text (see the module's docstring)."""
    tags = {**DEFAULTS, **record.tags}
    own = player_tags(tags.get("Game"))
    named = [k for k in dict.fromkeys((*own, *PGN_PLAYERS)) if k in tags] or list(own)
    tags.update({k: tags.get(k, "?") for k in named})
    standard = [*ROSTER, *named, "Result"]
    order = [*standard, *[k for k in tags if k not in standard]]
    lines = [f'[{k} "{_tag_value(tags[k])}"]' for k in order]
    lines.append("")
    if record.preamble:
        lines.append("{" + " ".join(_clean(n) for n in record.preamble) + "}")
    line = ""
    for ply, turn in enumerate(record.turns, start=1):
        if (ply - 1 + first) % players == 0 or not line:
            if line:
                lines.append(line)
            line = _label(ply, players, first)
        line += f" {turn.text}"
        comment = _comment(turn)
        if comment:
            line += f" {comment}"
    if line:
        lines.append(line)
    lines.append(tags["Result"])
    return "\n".join(lines) + "\n"


# --- reading -----------------------------------------------------------------------------

TAG = re.compile(r'\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]\s*$')
TOKEN = re.compile(r"\{[^}]*\}|\S+")
COMMAND = re.compile(r'\[%(ts|clk) ([^\]]*)\]|\[%setup "([^"]*)"\]')


def parse_record(text: str, where: str = "record") -> Record:
    """Read one record written by :func:`format_record`; every turn is checked against
    the rules. Raises :class:`RecordError` naming the line."""
    return _parse(text.splitlines(), where, 0)[0]


def parse_records(text: str, where: str = "records") -> list[Record]:
    """Every record of a file (a round export holds several)."""
    lines = text.splitlines()
    out, i = [], 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        record, i = _parse(lines, where, i)
        out.append(record)
    return out


def _parse(lines: list[str], where: str, i: int) -> tuple[Record, int]:
    tags, i = _tag_pairs(lines, where, i)
    game, state = _start_position(tags, where)
    tokens, i = _movetext(lines, i)
    record = Record(tags, [])
    _check_result(tokens, tags.get("Result", "*"), where, i)
    players = list(state.PLAYERS)
    first = players.index(state.to_move) if state.to_move in players else 0
    current: list[str] = []
    mover = None
    for line, token in tokens[:-1]:
        here = f"{where}:{line}"
        if token.startswith("{"):
            if current:
                raise RecordError(f"{here}: comment inside the turn {' '.join(current)!r}")
            _comment_into(record, token[1:-1], here)
            if record.turns and record.turns[-1].setup is not None:
                try:
                    state = rules.from_position(game, record.turns[-1].setup)
                except rules.RulesError as e:
                    raise RecordError(f"{here}: setup: {e}") from None
            continue
        if re.fullmatch(r"\d+\.(\.\.)?", token):
            want = _label(len(record.turns) + 1, len(players), first)
            if current or token != want:
                raise RecordError(f"{here}: move number {token}, expected {want}")
            continue
        try:
            move = state.parse_move(token)
        except rules.RulesError as e:
            raise RecordError(f"{here}: {token!r}: {e}") from None
        if not state.is_legal(move):
            raise RecordError(f"{here}: {token!r} is not legal for {state.to_move} here")
        if not current:
            mover = state.to_move
        state.push(move)
        current.append(token)
        if state.outcome() is not None or state.to_move not in (mover, rules.CHANCE):
            record.turns.append(RecordPly(" ".join(current)))
            current = []
    if current:
        raise RecordError(f"{where}:{tokens[-1][0]}: the last turn "
                          f"{' '.join(current)!r} is not complete")
    return record, i


def _tag_pairs(lines: list[str], where: str, i: int) -> tuple[dict[str, str], int]:
    """The tag pairs from line ``i`` on, and the index of the line after them."""
    tags: dict[str, str] = {}
    while i < len(lines) and lines[i].startswith("["):
        m = TAG.match(lines[i])
        if not m:
            raise RecordError(f"{where}:{i + 1}: malformed tag pair {lines[i][:60]!r}")
        tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        i += 1
    if not tags:
        raise RecordError(f"{where}:{i + 1}: a record begins with tag pairs like "
                          '[Event "..."]')
    return tags, i


def _start_position(tags: dict[str, str], where: str) -> tuple[str, rules.GameState]:
    """The game the Game tag names, and the state its Position tag (or its start) gives."""
    game = tags.get("Game")
    if game not in rules.GAMES:
        raise RecordError(f"{where}: Game tag {game!r}; valid games: "
                          f"{', '.join(sorted(rules.GAMES))}")
    try:
        state = (rules.from_position(game, tags["Position"]) if "Position" in tags
                 else rules.new_game(game))
    except rules.RulesError as e:
        raise RecordError(f"{where}: Position tag: {e}") from None
    return game, state


def _movetext(lines: list[str], i: int) -> tuple[list[tuple[int, str]], int]:
    """The tokens (with their line numbers) of the moves from line ``i`` on, and the index
    of the line after them."""
    tokens, i = _tokens_until_break(lines, i)
    if not tokens and i < len(lines) and not lines[i].strip():
        tokens, i = _tokens_until_break(lines, i + 1)  # (past the blank line after the tags)
    return tokens, i


def _tokens_until_break(lines: list[str], i: int) -> tuple[list[tuple[int, str]], int]:
    """The tokens (with their line numbers) of the lines from ``i`` up to a blank line, a
    tag or the end, and the index of the line that stopped them."""
    tokens: list[tuple[int, str]] = []
    while i < len(lines) and lines[i].strip() and not lines[i].startswith("["):
        tokens += [(i + 1, m.group()) for m in TOKEN.finditer(lines[i])]
        i += 1
    return tokens, i


def _check_result(tokens: list[tuple[int, str]], result: str, where: str, i: int) -> None:
    """The moves end with a result, the one the Result tag gives."""
    if not tokens or tokens[-1][1] not in RESULTS:
        raise RecordError(f"{where}:{tokens[-1][0] if tokens else i}: the moves end with "
                          f"the result ({', '.join(RESULTS)})")
    if tokens[-1][1] != result:
        raise RecordError(f"{where}:{tokens[-1][0]}: result {tokens[-1][1]} differs from "
                          f"the Result tag {result}")


def _comment_into(record: Record, body: str, here: str) -> None:
    notes: list[str] = []
    turn = record.turns[-1] if record.turns else None
    pos = 0
    for m in COMMAND.finditer(body):
        notes.append(body[pos:m.start()])
        pos = m.end()
        if turn is None:
            raise RecordError(f"{here}: [%{m.group(1) or 'setup'}] before the first turn")
        if m.group(1) == "ts":
            turn.ts = m.group(2)
        elif m.group(1) == "clk":
            turn.clock = m.group(2)
        else:
            turn.setup = m.group(3)
    notes.append(body[pos:])
    text = " ".join(" ".join(notes).split())
    if text:
        (turn.notes if turn is not None else record.preamble).append(text)


# --- a round -----------------------------------------------------------------------------

def _board_key(record: Record) -> tuple:
    board = record.tags.get("Board", "")
    return (0, int(board), "") if board.isdigit() else (1, 0, board)


def round_text(records: Iterable[Record]) -> str:
    """The records of a round, one after another, by board number."""
    return "\n".join(format_record(r) for r in sorted(records, key=_board_key))


# White and Black: the first and second player, as the pairing program names them.
RESULT_COLUMNS = ("Board", "White", "Black", "Result", "Termination", "Turns", "Game",
                  "Event", "Round", "Date")


def results_csv(records: Iterable[Record]) -> str:
    """One CSV line per game of a round, for the pairing program."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for r in sorted(records, key=_board_key):
        first, second = player_tags(r.tags.get("Game"))[:2]
        row = {**r.tags, "Turns": str(len(r.turns)),
               "White": r.tags.get(first, r.tags.get("White", "")),
               "Black": r.tags.get(second, r.tags.get("Black", ""))}
        writer.writerow([row.get(c, "") for c in RESULT_COLUMNS])
    return out.getvalue()
