"""Another board as the opponent: two boards paired over MQTT play one game.

Each board's player carries out the other board's turns on their own board (the LEDs show
them); each board journals every turn once. The boards talk on their MQTT link (the one
that publishes the journal, :class:`sensorboard.mqtt.BoardLink`), QoS 1 on persistent
sessions, one topic per direction of a pairing:

- ``sensorboard/<from>/play/<to>``: what board ``from`` says to board ``to``.

Every message is a JSON object signed with the pairing's key (HMAC-SHA256), a key derived
from the pairing code both boards show and the number of the pairing's game (a new game
keeps the code and counts on), so a message from anyone without the code, or of another
game, is refused; on a secured hall the broker's ACL also lets only board ``from`` write
its topic.

- ``hello`` ``{turns, game, position, side}``: on every (re)connect and again while
  unanswered: how many turns this board's game holds, the game and its start position,
  and the side the sender's player plays (the receiver's opponent);
- ``turn`` ``{ply, player, move}``: a turn of the sender's player, once it is in the
  sender's journal; sent again until acknowledged (and after the receiver's hello says
  it has fewer turns: a receiver restarted from its journal gets what it is missing);
- ``ack`` ``{ply}``: the receiver holds the turn of that ply;
- ``takeback`` ``{turns, undone, nonce}``: the sender's game went back to ``turns``
  turns, taking back ``undone`` (``[player, move]``); the receiver takes it back too,
  once per ``nonce``;
- ``refused`` ``{ply, reason}``: the receiver will not play that turn, and why.

A turn is taken by its ply: one the board already holds is acknowledged again and never
played twice; one that does not fit the position (another game, a turn the rules refuse,
a ply that differs from the turn held) is refused with a line naming why.

>>> pairing = Pairing("A", "B", "7K3M-Q9XZ")
>>> pairing.outbox, pairing.inbox
('sensorboard/A/play/B', 'sensorboard/B/play/A')
>>> other = Pairing("B", "A", "7k3m q9xz")
>>> verify(other.key, sign(pairing.key, {"kind": "ack", "ply": 3}))
{'kind': 'ack', 'ply': 3}
>>> verify(Pairing("B", "A", "7K3M-Q9XY").key, sign(pairing.key, {"kind": "ack", "ply": 3}))
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import rules
from sensorboard import events
from sensorboard.journal import Entry, Journal
from sensorboard.service import ServiceError

if TYPE_CHECKING:
    from sensorboard.gamewriter import GameWriter
    from sensorboard.mqtt import BoardLink

PREFIX = "sensorboard"
RESEND = 5.0  # seconds without an answer before a hello or a turn is sent again
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
CODE_LENGTH = 8  # 40 bits
KINDS = ("hello", "turn", "ack", "takeback", "refused")
AHEAD = 64  # how many games of a pairing the other board may be ahead and still be told so


class PairingError(ServiceError):
    """A pairing that cannot be made (a bad code or board name): one line for the player."""


def new_code() -> str:
    """A fresh random pairing code, as shown: ``7K3M-Q9XZ``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes, O for 0, I or L for 1) as shown.

    >>> normal_code(" 7k3m q9xz ")
    '7K3M-Q9XZ'
    >>> normal_code("7K3M")
    Traceback (most recent call last):
    ...
    sensorboard.remote.PairingError: --pair '7K3M': a code is 8 letters and digits, like 7K3M-Q9XZ
    """
    raw = text.upper().replace("-", "").replace(" ", "")
    raw = raw.translate(str.maketrans("OIL", "011"))
    if len(raw) != CODE_LENGTH or any(c not in ALPHABET for c in raw):
        raise PairingError(f"--pair {text!r}: a code is {CODE_LENGTH} letters and digits, "
                           "like 7K3M-Q9XZ")
    return f"{raw[:4]}-{raw[4:]}"


def check_name(name: str, what: str = "board") -> str:
    """A board name usable in a topic (letters, digits, - and _), or a one-line error."""
    if not name or not all(c.isalnum() or c in "-_" for c in name) or not name.isascii():
        raise PairingError(f"{what} {name!r}: a board's name is letters, digits, - and _")
    return name


@dataclass(frozen=True)
class Pairing:
    """This board (``me``) and the other (``peer``), paired by ``code`` for their game
    ``number`` (the pairing's games count from 1: a new game keeps the code)."""

    me: str
    peer: str
    code: str
    number: int = 1
    prefix: str = PREFIX
    key: bytes = field(init=False, repr=False, compare=False)
    base: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_name(self.me)
        check_name(self.peer)
        if self.me == self.peer:
            raise PairingError(f"--opponent board:{self.peer}: that is this board's own name")
        object.__setattr__(self, "code", normal_code(self.code))
        # scrypt makes each guess of the code dear: a message seen on the broker does not
        # give the code away to a search
        salt = "sensorboard pairing " + " ".join(sorted((self.me, self.peer)))
        object.__setattr__(self, "base", hashlib.scrypt(
            self.code.encode(), salt=salt.encode(), n=2**14, r=8, p=1, dklen=32))
        object.__setattr__(self, "key", self.key_of(self.number))

    def key_of(self, number: int) -> bytes:
        """The key of the pairing's game ``number``: a message of one game fits no other."""
        return hmac.new(self.base, f"game {number}".encode(), hashlib.sha256).digest()

    def number_of(self, message: object) -> int | None:
        """The pairing's other game (up to ``AHEAD`` later) whose key signs ``message``,
        or None: not signed with this pairing's code.

        >>> signed = sign(Pairing("A", "B", "7K3M-Q9XZ", 3).key, {"kind": "ack", "ply": 1})
        >>> Pairing("B", "A", "7K3M-Q9XZ").number_of(signed)
        3
        """
        return next((n for n in range(1, self.number + AHEAD + 1)
                     if n != self.number and verify(self.key_of(n), message) is not None), None)

    @property
    def outbox(self) -> str:
        return f"{self.prefix}/{self.me}/play/{self.peer}"

    @property
    def inbox(self) -> str:
        return f"{self.prefix}/{self.peer}/play/{self.me}"


def _mac(key: bytes, message: dict) -> str:
    body = json.dumps(message, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def sign(key: bytes, message: dict) -> dict:
    return {**message, "mac": _mac(key, message)}


def verify(key: bytes, message: object) -> dict | None:
    """The message without its signature, or None when it is not signed with ``key``."""
    if not isinstance(message, dict) or not isinstance(message.get("mac"), str):
        return None
    body = {k: v for k, v in message.items() if k != "mac"}
    return body if hmac.compare_digest(_mac(key, body), message["mac"]) else None


class Verdict(enum.Enum):
    """What an arriving turn is to this board."""

    NEW = "new"  # the next turn, the opponent's: to be carried out here
    HELD = "held"  # a turn this board holds already (sent again): acknowledged again
    EARLY = "early"  # a later ply than the next: it waits for the one before (sent again)
    CONFLICT = "conflict"  # not the turn this board holds for that ply
    MINE = "mine"  # a turn of this board's own player: only its player makes those


def judge(turns: list[tuple[str, str]], waiting: dict[int, tuple[str, str]], side: str,
          ply: int, player: str, move: str) -> Verdict:
    """The verdict on a turn (``ply``: 1 is the game's first) given the turns this board
    holds and those received and waiting to be carried out.

    >>> judge([("clear", "c1-c2")], {}, "dark", 2, "dark", "a5-b4")
    <Verdict.NEW: 'new'>
    >>> judge([("clear", "c1-c2")], {}, "dark", 1, "clear", "c1-c2")
    <Verdict.HELD: 'held'>
    >>> judge([("clear", "c1-c2")], {}, "dark", 1, "clear", "b1-b2")
    <Verdict.CONFLICT: 'conflict'>
    """
    held = turns[ply - 1] if 0 < ply <= len(turns) else waiting.get(ply)
    if held is not None:
        return Verdict.HELD if held == (player, move) else Verdict.CONFLICT
    if player != side:
        return Verdict.MINE
    return Verdict.NEW if ply == len(turns) + 1 else Verdict.EARLY


def refusal(state: rules.GameState, player: str, move: str) -> str | None:
    """Why ``move`` is not a turn ``player`` can make from ``state``, or None if it is.

    >>> state = rules.new_game("tessella")
    >>> refusal(state, "clear", "c1-c2") is None
    True
    >>> refusal(state, "clear", "c1-c3")
    "c1-c3: illegal move for clear: 'c1-c3'"
    >>> refusal(state, "dark", "a5-a4")
    "it is clear's turn, not dark's"
    """
    if state.outcome() is not None:
        return "the game is over"
    if state.to_move != player:
        return f"it is {state.to_move}'s turn, not {player}'s"
    probe = state.clone()
    for word in move.split(" "):
        if probe.to_move not in (player, rules.CHANCE):
            return f"{move}: more decisions than one turn"
        try:
            probe.push_str(word)
        except rules.RulesError as e:
            return f"{move}: {e}"
    if probe.to_move in (player, rules.CHANCE) and probe.outcome() is None:
        return f"{move}: the turn is not complete"
    return None


@dataclass(frozen=True)
class Game:
    """What both boards must agree on: the game, its start position, this board's side."""

    name: str
    position: str
    mine: str  # the side this board's player plays

    def hello(self, turns: int) -> dict:
        return {"kind": "hello", "turns": turns, "game": self.name, "position": self.position,
                "side": self.mine}

    def differs(self, hello: dict, theirs: str) -> str | None:
        """Why the other board's game (its ``hello``) is not this one's, or None."""
        if hello.get("game") != self.name:
            return f"it plays {hello.get('game')}, this board {self.name}"
        if hello.get("position") != self.position:
            return "its game starts from another position"
        if hello.get("side") != theirs:
            return f"its player plays {hello.get('side')}, but here the opponent is {theirs}"
        return None


class RemoteOpponent:
    """The board ``pairing.peer`` as the opponent, playing ``side`` (the contract of
    :mod:`sensorboard.opponent`), over ``link`` (a :class:`sensorboard.mqtt.BoardLink`:
    its ``send``, and this object as one of its channels). ``turns``: the game's turns so
    far as this board's journal holds them, ``(player, move)``; ``uid``: the game's uid in
    the journal, whose written entries (:meth:`written`) are what is sent; ``note`` says
    a line on the terminal and the page; ``ahead`` hears the number of the pairing's game
    the other board is on where it is a later one than this board's."""

    def __init__(self, pairing: Pairing, side: str, game: Game, link, *, uid: str,
                 turns: list[tuple[str, str]] = (), note: Callable[[str], None] = print,
                 commands: queue.Queue | None = None, resend: float = RESEND,
                 now: Callable[[], float] = time.monotonic,
                 ahead: Callable[[int], None] = lambda number: None) -> None:
        self.pairing, self.side, self.game, self.link, self.uid = pairing, side, game, link, uid
        self.label = f"board:{pairing.peer}"
        self.thinking = False  # the other board's player decides (Opponent contract)
        self.code = pairing.code
        self.topics = [pairing.inbox]
        self.note, self.resend, self.now, self.ahead = note, resend, now, ahead
        self.commands = commands  # the board's corrections: a takeback made on the other
        self._asked_back: tuple[int, int] | None = None  # the takeback asked there last
        # a turn of theirs taken back there before it was carried out here (it may be lit)
        self._withdrawn: tuple[int, tuple[str, str]] | None = None
        self._nonces: set[str] = set()  # the takebacks carried out
        self.turns = list(turns)  # as carried out on this board, in order
        self.mine = {ply: t for ply, t in enumerate(self.turns, 1) if t[0] != side}  # journaled
        self.waiting: dict[int, tuple[str, str]] = {}  # theirs, received, not yet carried out
        self.acked = 0  # the last ply of this board's turns the other board holds
        self.agreed: bool | None = None  # None until the other board's hello
        self.refused: dict[int, str] = {}  # plies refused here, and why
        self.said: list[str] = []  # every line said, in order (the page shows the last)
        self.apart = False  # the last hello heard was of another game than this one
        self.last_sent = float("-inf")
        self.on_close: list[Callable[[], None]] = []
        self._lock = threading.RLock()

    # --- the contract ---------------------------------------------------------------

    def observe(self, event: events.Event) -> None:
        """A turn carried out on this board (either player's), or one taken back."""
        with self._lock:
            if isinstance(event, events.Move) and event.ply >= 1:
                turn = (event.player, event.move)
                del self.turns[event.ply - 1:]
                self.turns.append(turn)
                if self.waiting.get(event.ply) == turn:
                    del self.waiting[event.ply]
                if self._withdrawn == (event.ply, turn):  # taken back there meanwhile
                    self._withdrawn = None
                    self._take_back(event.ply - 1)
            elif isinstance(event, events.Takeback) and event.ply >= 1:
                self._back_to(event.ply - 1)
                self._send({"kind": "takeback", "turns": event.ply - 1,
                            "undone": [event.player, event.move],
                            "nonce": secrets.token_hex(8)})

    def poll(self, state: rules.GameState) -> str | None:
        """The other board's next turn once it has come and fits ``state``; else None."""
        with self._lock:
            self._resend_if_due()
            ply = len(self.turns) + 1
            turn = self.waiting.get(ply)
            if turn is None or not self.agreed:
                return None
            why = refusal(state, *turn)
            if why is None:
                return turn[1]
            del self.waiting[ply]
            self._refuse(ply, why)
            return None

    def close(self) -> None:
        for undo in self.on_close:
            undo()
        self.on_close.clear()

    # --- the journal's writer thread ----------------------------------------------------

    def written(self, entries: list[Entry]) -> None:
        """A journal listener: this board's own turns go out once they are on disk."""
        for entry in entries:
            if entry.game != self.uid:
                continue
            event = events.of(entry.item)
            with self._lock:
                if isinstance(event, events.Move) and event.player != self.side:
                    self.mine[event.ply] = (event.player, event.move)
                    self._send_turn(event.ply)
                elif isinstance(event, events.Takeback):
                    self.mine = {p: t for p, t in self.mine.items() if p < event.ply}

    # --- the link's thread ----------------------------------------------------------------

    def connected(self) -> None:
        """The link is (again) connected: say how far this board is."""
        with self._lock:
            self._hello()

    def receive(self, topic: str, data: object) -> None:
        """A message on the pairing's inbox."""
        body = verify(self.pairing.key, data)
        peer, me = self.pairing.peer, self.pairing.me
        if body is None:
            theirs = self.pairing.number_of(data)
            if theirs is None or data.get("kind") == "hello":  # (else: sent late: dropped)
                self._not_this_game(theirs)
            return
        if body.get("from") != peer or body.get("to") != me or body.get("kind") not in KINDS:
            self._say(f"a message on the pairing with board {peer} not from it was refused")
            return
        with self._lock:
            getattr(self, f"_on_{body['kind']}")(body)

    def _not_this_game(self, theirs: int | None) -> None:
        """A message not signed for this game: the hello of another game of the pairing
        (``theirs``: the game the other board is on), or none of the pairing's."""
        peer, mine = self.pairing.peer, self.pairing.number
        if theirs is None:
            self._say(f"a message from board {peer} not signed with this pairing's code "
                      "was refused (is the same code given on both boards?)")
        elif theirs > mine:
            self.ahead(theirs)
            self._apart(f"board {peer} is on game {theirs} with this board, this board on game "
                        f"{mine}: start a new game here too (--new, or New game on the page)")
        else:
            self._apart(f"board {peer} is still on game {theirs} with this board, this board "
                        f"on game {mine}: start a new game on board {peer} too")

    def _apart(self, why: str) -> None:
        """The other board plays another game than this one: nothing goes between them."""
        self.apart = True
        self._say(f"{why}; no turn is played between them")

    def _on_hello(self, body: dict) -> None:
        turns = body.get("turns")
        if not _count(turns):
            return
        why = self.game.differs(body, self.side)
        self.agreed = why is None
        if not body.get("seen"):
            self._hello()  # so the other board knows (and says what differs)
        if why is not None:
            self._apart(f"board {self.pairing.peer}: {_plain(why)}")
            return
        if self.apart:  # said otherwise before: the line the page shows is this one now
            self.apart = False
            self._say(f"board {self.pairing.peer} plays this game with this board now (game "
                      f"{self.pairing.number}): the game goes on")
        self.acked = turns
        for ply in sorted(p for p in self.mine if p > turns):
            self._send_turn(ply)

    def _on_turn(self, body: dict) -> None:
        ply, player, move = body.get("ply"), body.get("player"), body.get("move")
        if self.agreed is False or not (_count(ply) and ply >= 1 and isinstance(player, str)
                                        and isinstance(move, str)):
            return
        verdict = judge(self.turns, self.waiting, self.side, ply, player, move)
        if verdict is Verdict.NEW:
            self.waiting[ply] = (player, move)
        if verdict in (Verdict.NEW, Verdict.HELD):
            self._send({"kind": "ack", "ply": ply})
        elif verdict is Verdict.CONFLICT:
            held = (self.turns[ply - 1] if ply <= len(self.turns) else self.waiting[ply])[1]
            self._refuse(ply, f"{move} is not the turn held here for it ({held})")
        elif verdict is Verdict.MINE:
            self._refuse(ply, f"{move}: {player} is played on this board")

    def _on_ack(self, body: dict) -> None:
        ply = body.get("ply")
        if _count(ply) and self.acked < ply <= max(self.mine, default=0):
            self.acked = ply

    def _on_takeback(self, body: dict) -> None:
        """The other board went back to ``turns`` turns: so does this one (a correction
        by ``board:NAME``, as an arbiter's takeback; the LEDs show what to put back)."""
        turns, undone, nonce = body.get("turns"), body.get("undone"), str(body.get("nonce"))
        if not _count(turns) or not isinstance(undone, list) or nonce in self._nonces:
            return  # a takeback seen before (sent again, or replayed by someone) is done
        self._nonces.add(nonce)
        undone = tuple(undone)  # the turn taken back: a later one of that ply stays
        if self.waiting.get(turns + 1) == undone:
            self.waiting = {p: t for p, t in self.waiting.items() if p <= turns}
        if len(self.turns) == turns:  # not carried out here: taken back once it is
            self._withdrawn = (turns + 1, undone)
        elif len(self.turns) > turns and self.turns[turns] == undone:
            self._take_back(turns)

    def _take_back(self, turns: int) -> None:
        """Go back to ``turns`` turns as the other board did (once per takeback)."""
        if self._asked_back == (turns, len(self.turns)):
            return  # asked already (a message sent again)
        self._asked_back = (turns, len(self.turns))
        if self.commands is not None:
            self.commands.put({"action": "takeback", "turns": len(self.turns) - turns,
                               "by": self.label})
        self._say(f"board {self.pairing.peer} took back to turn {turns}: so does this board")

    def _on_refused(self, body: dict) -> None:
        self._say(f"board {self.pairing.peer} refused turn {_plain(body.get('ply'))}: "
                  f"{_plain(body.get('reason'))}")

    # --- sending -------------------------------------------------------------------------

    def _back_to(self, turns: int) -> None:
        """This board went back to ``turns`` turns: their turns received for later plies
        go (one for the ply taken back stays: it came after they took theirs back)."""
        del self.turns[turns:]
        self.waiting = {p: t for p, t in self.waiting.items() if p <= turns + 1}
        self.acked = min(self.acked, turns)

    def _hello(self) -> None:
        self._send({**self.game.hello(len(self.turns)), "seen": self.agreed is not None})

    def _send_turn(self, ply: int) -> None:
        player, move = self.mine[ply]
        self._send({"kind": "turn", "ply": ply, "player": player, "move": move})

    def _resend_if_due(self) -> None:
        if self.now() - self.last_sent < self.resend:
            return
        if not self.agreed:
            self._hello()
        for ply in sorted(p for p in self.mine if p > self.acked):
            self._send_turn(ply)

    def _refuse(self, ply: int, why: str) -> None:
        if self.refused.get(ply) == why:
            return
        self.refused[ply] = why
        self._say(f"turn {ply} from board {self.pairing.peer} refused: {why}")
        self._send({"kind": "refused", "ply": ply, "reason": why})

    def _send(self, body: dict) -> None:
        self.last_sent = self.now()
        message = sign(self.pairing.key, {**body, "from": self.pairing.me,
                                          "to": self.pairing.peer})
        self.link.send(self.pairing.outbox, json.dumps(message))

    def _say(self, line: str) -> None:
        if not self.said or self.said[-1] != line:  # a message sent again says nothing new
            self.said.append(line)
            del self.said[:-20]
            self.note(line)


def _plain(value: object) -> str:
    """Text from the other board as a line may show it: printable, at most 200 characters."""
    return "".join(c for c in str(value)[:200] if c.isprintable())


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def heading(opponent: object) -> str:
    """The line a terminal keeps above the board for another board as the opponent (the
    code stays in sight while the board is redrawn); "" for any other opponent.

    >>> remote = RemoteOpponent(Pairing("A", "B", "7K3M-Q9XZ"), "dark",
    ...                         Game("tessella", "", "clear"), link=None, uid="g")
    >>> heading(remote), heading(None)
    ('against board:B (dark), pairing code 7K3M-Q9XZ, game 1', '')
    """
    if not isinstance(opponent, RemoteOpponent):
        return ""
    return (f"against {opponent.label} ({opponent.side}), pairing code {opponent.code}, "
            f"game {opponent.pairing.number}")


def pairing_code(journal: Journal, uid: str, peer: str, given: str | None,
                 mine: str) -> tuple[Pairing, str]:
    """The pairing with ``peer`` for this board's game ``uid`` and the line that shows its
    code: the code ``given`` (``--pair``), else the one this board holds for ``peer``, else
    a new one; kept in the journal. A new game of a pairing keeps its code and counts on
    (game 2, 3, ...: the key of each game is its own, so no message of one game fits
    another); where the other board was seen on a later game, this board's new game is
    that one. ``mine``: the side this board's player plays (the other board's opponent,
    which the line tells it)."""
    code = normal_code(given) if given is not None else None
    stored = json.loads(journal.meta("pairing") or "{}")
    number, ahead = 1, 0
    if stored.get("peer") == peer and stored.get("code") and code in (None, stored["code"]):
        code, number, ahead = stored["code"], stored.get("number", 1), stored.get("ahead", 0)
        if stored.get("game") != uid:
            number, ahead = max(number + 1, ahead), 0
    code = code or new_code()
    journal.set_meta("pairing", json.dumps({"peer": peer, "game": uid, "code": code,
                                            "number": number, "ahead": ahead}))
    shown = f"pairing code {code} (game {number} with board {peer})"
    if given is None:
        return Pairing(journal.board, peer, code, number), (
            f"{shown}: on board {peer} give --opponent board:{journal.board} "
            f"--opponent-side {mine} --pair {code}")
    return Pairing(journal.board, peer, code, number), f"{shown}: board {peer} shows the same"


def remember_ahead(journal: Journal, number: int) -> None:
    """Keep in the journal that the other board was seen on the pairing's game ``number``
    (this board's next new game is that one)."""
    stored = json.loads(journal.meta("pairing") or "{}")
    journal.set_meta("pairing", json.dumps({**stored, "ahead": number}))


def open_remote(peer: str, side: str, writer: GameWriter, link: BoardLink, *,
                pair: str | None = None, note: Callable[[str], None] = print) -> RemoteOpponent:
    """Board ``peer`` as the opponent playing ``side`` in ``writer``'s game, on ``link``
    (not yet started: the pairing's topics are subscribed on every connect)."""
    journal = writer.journal
    check_name(peer, "--opponent board:")
    if peer == journal.board:
        raise PairingError(f"--opponent board:{peer}: that is this board's own name "
                           "(--board names this one)")
    with writer.lock:
        log = writer.log
        mine = next(p for p in log.state.PLAYERS if p != side)
        game = Game(log.game, log.start.get("position") or "", mine)
        turns = [(commit.player, commit.text) for commit in log.turns]
    pairing, line = pairing_code(journal, writer.uid, peer, pair, mine)
    remote = RemoteOpponent(pairing, side, game, link, uid=writer.uid, turns=turns, note=note,
                            commands=link.commands,
                            ahead=lambda number: remember_ahead(journal, number))
    remote._say(line)
    link.add_channel(remote)
    listeners = journal.writer().listeners
    listeners.append(remote.written)
    remote.on_close += [lambda: link.remove_channel(remote),
                        lambda: listeners.remove(remote.written)]
    return remote
