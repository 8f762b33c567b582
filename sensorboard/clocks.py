"""Time controls as tournaments write them, and the game clock that runs on the board.

A time control is the PGN ``TimeControl`` tag: stages separated by ``:``, each
``[MOVES/]SECONDS[BONUS]``, where the bonus is one of

- ``+N``: Fischer increment, N seconds added after each of the player's turns;
- ``dN``: simple (US) delay, the clock waits N seconds each turn before it counts down;
- ``bN``: Bronstein delay, after each turn the time used is given back, up to N seconds.

``600+5`` is 10 minutes plus 5 s a turn; ``40/5400+30:1800+30`` is 90 minutes for the
first 40 turns, then 30 more minutes for the rest, 30 s added each turn from the first.
A stage with a move count adds the next stage's time when a player completes it; the last
stage, when it has a move count, repeats (``40/7200:20/3600`` adds an hour every 20
turns after the 40th). ``-`` or ``?`` (or nothing) is no time control.

>>> control = TimeControl.parse("40/5400+30:1800+30")
>>> [(s.moves, s.seconds, s.bonus, s.timing.value) for s in control.stages]
[(40, 5400.0, 30.0, '+'), (None, 1800.0, 30.0, '+')]
>>> str(control)
'40/5400+30:1800+30'

The clock is a value (:class:`GameClock`); every change is a pure function returning
the next value. Its phases and what moves it between them::

    phase     event    next      what happens
    READY     start    RUNNING   the first player's clock runs (first press or change)
    RUNNING   turn     RUNNING   the mover's time is charged, the bonus added, the next runs
    RUNNING   switch   RUNNING   (a takeback) the time is charged, the other side runs
    RUNNING   flag     FLAGGED   the running side has no time left: the game ends
    RUNNING   stop     STOPPED   the game ended otherwise; the time used is charged
    READY     stop     STOPPED
    STOPPED   switch   RUNNING   the turn that ended the game is taken back
    any       adjust   (same)    an arbiter adds or takes time

>>> clock = start(GameClock.new(TimeControl.parse("60+2"), ("clear", "dark")), 0.0)
>>> clock = end_turn(clock, 10.0)
>>> remaining(clock, "clear", 10.0), clock.running
(52.0, 'dark')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum


class TimeControlError(ValueError):
    """A TimeControl text that cannot be read; the message names the stage."""


class Timing(Enum):
    """What a stage's bonus is."""

    FISCHER = "+"
    DELAY = "d"
    BRONSTEIN = "b"


@dataclass(frozen=True)
class Stage:
    moves: int | None  # turns this stage lasts; None: the rest of the game
    seconds: float
    bonus: float = 0.0
    timing: Timing = Timing.FISCHER

    def __str__(self) -> str:
        text = f"{self.moves}/" if self.moves else ""
        text += f"{self.seconds:g}"
        return text + (f"{self.timing.value}{self.bonus:g}" if self.bonus else "")


STAGE = re.compile(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:([+db])(\d+(?:\.\d+)?))?")
SYNTAX = "[MOVES/]SECONDS[+INCREMENT|dDELAY|bDELAY], e.g. 600+5 or 40/5400+30:1800+30"


@dataclass(frozen=True)
class TimeControl:
    stages: tuple[Stage, ...]

    @classmethod
    def parse(cls, text: str) -> TimeControl | None:
        """The time control of a TimeControl text; None for ``-``, ``?`` or nothing.
        Raises :class:`TimeControlError` naming the stage that is wrong."""
        text = text.strip()
        if text in ("", "-", "?"):
            return None
        fields = text.split(":")
        stages = []
        for i, field in enumerate(fields, start=1):
            where = f"TimeControl {text!r}: stage {i} {field!r}"
            m = STAGE.fullmatch(field)
            if not m:
                raise TimeControlError(f"{where}: expected {SYNTAX}")
            moves, seconds = m.group(1), float(m.group(2))
            if moves is not None and int(moves) == 0:
                raise TimeControlError(f"{where}: a stage lasts at least 1 move")
            if seconds <= 0 and i == 1:
                raise TimeControlError(f"{where}: the first stage needs some time")
            if moves is None and i < len(fields):
                raise TimeControlError(f"{where}: no move count, so stage {i + 1} never "
                                       "begins")
            stages.append(Stage(int(moves) if moves else None, seconds,
                                float(m.group(4) or 0), Timing(m.group(3) or "+")))
        return cls(tuple(stages))

    def __str__(self) -> str:
        return ":".join(str(s) for s in self.stages)

    def stage(self, turns: int) -> Stage:
        """The stage in which a player's turn number ``turns + 1`` is played."""
        start = 0
        for s in self.stages:
            if s.moves is None or turns < start + s.moves:
                return s
            start += s.moves
        return self.stages[-1]  # the last stage repeats

    def begins(self, turns: int) -> Stage | None:
        """The stage that begins once a player has made ``turns`` turns (its time is then
        added), or None."""
        start = 0
        for s in self.stages:
            if turns == start and start > 0:
                return s
            if s.moves is None:
                return None
            start += s.moves
        last = self.stages[-1]
        if turns >= start and (turns - start) % last.moves == 0:
            return last
        return None

    @property
    def low_time(self) -> float:
        """Seconds left under which a clock shows the low-time warning: a tenth of the
        first stage, at least 10 s and at most a minute."""
        return min(60.0, max(10.0, self.stages[0].seconds / 10))


class Phase(Enum):
    READY = "ready"
    RUNNING = "running"
    FLAGGED = "flagged"
    STOPPED = "stopped"


TRANSITIONS = {
    (Phase.READY, "start"): Phase.RUNNING,
    (Phase.RUNNING, "turn"): Phase.RUNNING,
    (Phase.RUNNING, "switch"): Phase.RUNNING,
    (Phase.RUNNING, "flag"): Phase.FLAGGED,
    (Phase.RUNNING, "stop"): Phase.STOPPED,
    (Phase.READY, "stop"): Phase.STOPPED,
    (Phase.STOPPED, "switch"): Phase.RUNNING,
}


class ClockError(ValueError):
    """An event the clock's phase does not take (see :data:`TRANSITIONS`)."""


def _next(phase: Phase, event: str) -> Phase:
    try:
        return TRANSITIONS[(phase, event)]
    except KeyError:
        raise ClockError(f"the clock is {phase.value}; it cannot {event}") from None


@dataclass(frozen=True)
class GameClock:
    """Both players' clocks: the time left at ``since`` and the turns made, per player
    (in ``players`` order); ``turn`` indexes the side that runs (or runs next)."""

    control: TimeControl
    players: tuple[str, ...]
    left: tuple[float, ...]
    turns: tuple[int, ...]
    phase: Phase = Phase.READY
    turn: int = 0
    since: float = 0.0  # service time at which the running side's clock started

    @classmethod
    def new(cls, control: TimeControl, players: tuple[str, ...] | list[str],
            first: str | None = None) -> GameClock:
        players = tuple(players)
        base = control.stages[0].seconds
        turn = players.index(first) if first in players else 0
        return cls(control, players, (base,) * len(players), (0,) * len(players), turn=turn)

    @property
    def running(self) -> str | None:
        return self.players[self.turn] if self.phase is Phase.RUNNING else None


def _charged(clock: GameClock, now: float) -> tuple[float, float]:
    """(seconds the running side has used this turn, seconds its clock counted down)."""
    used = max(0.0, now - clock.since)
    stage = clock.control.stage(clock.turns[clock.turn])
    if stage.timing is Timing.DELAY:
        return used, max(0.0, used - stage.bonus)
    return used, used


def remaining(clock: GameClock, player: str, now: float) -> float:
    """Seconds ``player`` has left at ``now`` (never below 0)."""
    i = clock.players.index(player)
    left = clock.left[i]
    if clock.phase is Phase.RUNNING and i == clock.turn:
        left -= _charged(clock, now)[1]
    return max(0.0, left)


def flag_at(clock: GameClock) -> float | None:
    """When the running side's time runs out if nothing happens first."""
    if clock.phase is not Phase.RUNNING:
        return None
    stage = clock.control.stage(clock.turns[clock.turn])
    wait = stage.bonus if stage.timing is Timing.DELAY else 0.0
    return clock.since + wait + max(0.0, clock.left[clock.turn])


def start(clock: GameClock, now: float) -> GameClock:
    return replace(clock, phase=_next(clock.phase, "start"), since=now)


def _with(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def end_turn(clock: GameClock, now: float, player: str | None = None) -> GameClock:
    """The running side's turn ends at ``now``: its time is charged, its bonus and any
    stage it completes are added, and the next side's clock (``player``, else the next in
    order) runs."""
    phase = _next(clock.phase, "turn")
    i = clock.turn
    stage = clock.control.stage(clock.turns[i])
    used, counted = _charged(clock, now)
    left = clock.left[i] - counted
    if stage.timing is Timing.FISCHER:
        left += stage.bonus
    elif stage.timing is Timing.BRONSTEIN:
        left += min(stage.bonus, used)
    turns = clock.turns[i] + 1
    begun = clock.control.begins(turns)
    if begun is not None:
        left += begun.seconds
    nxt = clock.players.index(player) if player in clock.players \
        else (i + 1) % len(clock.players)
    return replace(clock, phase=phase, left=_with(clock.left, i, left),
                   turns=_with(clock.turns, i, turns), turn=nxt, since=now)


def switch(clock: GameClock, now: float, player: str) -> GameClock:
    """(A takeback) the running side's time is charged without a bonus and ``player``'s
    clock runs; the turn taken back is no longer counted for the stages."""
    phase = _next(clock.phase, "switch")
    i, j = clock.turn, clock.players.index(player)
    used = _charged(clock, now)[1] if clock.phase is Phase.RUNNING else 0.0
    left = _with(clock.left, i, clock.left[i] - used)
    turns = _with(clock.turns, j, max(0, clock.turns[j] - 1)) if i != j else clock.turns
    return replace(clock, phase=phase, left=left, turns=turns, turn=j, since=now)


def fall(clock: GameClock) -> GameClock:
    """The running side's flag falls (at :func:`flag_at`): its time is 0."""
    phase = _next(clock.phase, "flag")
    return replace(clock, phase=phase, left=_with(clock.left, clock.turn, 0.0),
                   since=flag_at(clock) or clock.since)


def stop(clock: GameClock, now: float) -> GameClock:
    """The game ended at ``now`` otherwise (a result, an arbiter): the clocks stop."""
    phase = _next(clock.phase, "stop")
    if clock.phase is not Phase.RUNNING:
        return replace(clock, phase=phase)
    left = _with(clock.left, clock.turn, clock.left[clock.turn] - _charged(clock, now)[1])
    return replace(clock, phase=phase, left=left, since=now)


def adjust(clock: GameClock, player: str, seconds: float, now: float) -> GameClock:
    """An arbiter adds ``seconds`` to ``player``'s time (takes them when negative); a
    clock is never set below 0 (the flag then falls at once)."""
    i = clock.players.index(player)
    if clock.phase is Phase.RUNNING and i == clock.turn:
        left = max(0.0, remaining(clock, player, now) + seconds)
        stage = clock.control.stage(clock.turns[i])
        wait = stage.bonus if stage.timing is Timing.DELAY else 0.0
        # re-anchor at now, keeping what is left of this turn's delay
        wait_left = max(0.0, wait - (now - clock.since))
        return replace(clock, left=_with(clock.left, i, left), since=now - (wait - wait_left))
    return replace(clock, left=_with(clock.left, i, max(0.0, clock.left[i] + seconds)))


def hms(seconds: float) -> str:
    """``H:MM:SS`` as the record writes ``[%clk]`` (whole seconds, rounded down)."""
    s = max(0, int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def side_text(view: dict, player: str) -> str:
    """A side's clock in words, from :func:`to_json`: ``clock 0:09:58 running, low``."""
    left = view["left"][player]
    words = [f"clock {hms(left)}"]
    if view.get("running") == player:
        words.append("running")
    if view.get("phase") == "flagged" and left <= 0:
        words.append("flag fallen")
    elif left <= view.get("low", 0):
        words.append("low")
    return words[0] + (" " + ", ".join(words[1:]) if len(words) > 1 else "")


def to_json(clock: GameClock, now: float) -> dict:
    """The clock for the journal and the views: seconds left per player at ``now``, who
    runs (``side``: whose side runs, ran last or runs next), the delay still to wait
    before the running clock counts (``wait``), the phase, the time control and its
    low-time mark."""
    wait = 0.0
    if clock.phase is Phase.RUNNING:
        stage = clock.control.stage(clock.turns[clock.turn])
        if stage.timing is Timing.DELAY:
            wait = max(0.0, stage.bonus - (now - clock.since))
    return {"control": str(clock.control),
            "left": {p: round(remaining(clock, p, now), 3) for p in clock.players},
            "wait": round(wait, 3),
            "turns": dict(zip(clock.players, clock.turns, strict=True)),
            "running": clock.running, "side": clock.players[clock.turn],
            "phase": clock.phase.value,
            "low": clock.control.low_time}


def view_at(data: dict, since: float, now: float) -> dict:
    """A ``clock`` entry (written at ``since``) as it stands at ``now``, both on the same
    clock (the recorder: wall-clock seconds): the running side's time counted down."""
    running = data.get("running")
    if running not in data.get("left", {}):
        return dict(data)
    gone = max(0.0, now - since)
    wait = float(data.get("wait", 0.0))
    left = dict(data["left"])
    left[running] = round(max(0.0, left[running] - max(0.0, gone - wait)), 3)
    return {**data, "left": left, "wait": round(max(0.0, wait - gone), 3)}


def from_json(data: dict, now: float) -> GameClock:
    """The clock a journal's ``clock`` entry describes, anchored at ``now`` (a resumed
    game's clock waits for the first press or change: it is READY unless it had ended)."""
    control = TimeControl.parse(data["control"])
    if control is None:
        raise TimeControlError("a clock entry without a time control")
    players = tuple(data["left"])
    phase = Phase(data.get("phase", "ready"))
    if phase is Phase.RUNNING:
        phase = Phase.READY
    turn = players.index(data["side"]) if data.get("side") in players else 0
    return GameClock(control, players, tuple(float(data["left"][p]) for p in players),
                     tuple(int(data.get("turns", {}).get(p, 0)) for p in players),
                     phase, turn, now)


# --- on the board -------------------------------------------------------------------------

LONE_PRIME_DRAWS = frozenset({"tesulda"})  # games where a side with one figure cannot win


def flag_outcome(state, flagged: str) -> tuple[str | None, str]:
    """(winner or None for a draw, reason) when ``flagged``'s time runs out in ``state``,
    as each game's page rules it (docs/rules/<game>.md, "Clocks"): the opponent wins,
    except in Tesulda when the opponent has no figure left but its Prime (a draw)."""
    winner = next(p for p in state.PLAYERS if p != flagged)
    if state.NAME in LONE_PRIME_DRAWS:
        figures = sum(1 for pieces in state.physical().values()
                      if pieces and pieces[0].startswith(f"{winner}-"))
        if figures <= 1:
            return None, f"{flagged} out of time, {winner} has only its Prime"
    return winner, f"{flagged} out of time"


def for_log(log, now: float) -> GameClock | None:
    """The clock of a recorded game (a :class:`sensorboard.gamelog.GameLog`): from its
    journal's last ``clock`` entry (a resumed game), else a new one for its TimeControl
    tag; None without a time control (or with one that cannot be read)."""
    if log.clock is not None:
        return from_json(log.clock, now)
    return for_tags(log.tags, log.players, log.to_move)


def for_tags(tags: dict, players, to_move: str) -> GameClock | None:
    """A new clock for a game's ``TimeControl`` tag; None without one (or with one that
    cannot be read: the command line and the config refuse those first)."""
    try:
        control = TimeControl.parse(tags.get("TimeControl") or "")
    except TimeControlError:
        return None
    return None if control is None else GameClock.new(control, players, to_move)
