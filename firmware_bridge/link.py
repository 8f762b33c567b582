"""The host end of the serial link: one thread that keeps the board connected and in step.

:class:`Link` opens the port (:mod:`firmware_bridge.ports`), greets the board, follows
its snapshots and numbered events, asks for what a gap lost, sends LED frames until they
are acknowledged, and reopens the port when the device vanishes and comes back (under the
same name or another). The matrix, strip and buttons of :mod:`firmware_bridge.devices`
read from it.

What reaches the matrix is a queue of *steps*: the changes of one scan on the board (its
events share a timestamp) or a whole snapshot adopted after a reconnect, a restart or a
repair. ``next_step()`` hands them out one at a time, so a piece lifted and put back
between two host scans is still seen as a lift and a place.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import serial

from firmware_bridge import protocol as p
from firmware_bridge.ports import PortError, PortSpec

log = logging.getLogger("firmware_bridge")

Address = tuple[int, int]
RGB = tuple[int, int, int]

RETRY_S = 0.1  # look for the device this often while it is gone
RESEND_S = 0.1  # ask again for a gap's events, a frame's ack, a greeting
SILENCE_S = 1.0  # no frame for this long (4 heartbeats): the link is dead, reopen it


@dataclass
class Step:
    """What the matrix shows next: ``changes`` on top of the last step, or ``snapshot``."""

    t_ms: int
    changes: dict[Address, bool]
    snapshot: frozenset[Address] | None = None


class Stats:
    """Counters a test or the benchmark reads (never used for decisions)."""

    def __init__(self) -> None:
        self.frames = self.damaged = self.events = self.gaps = self.resends = 0
        self.repairs = self.connects = self.boots = self.led_frames = self.led_acks = 0


class Link:
    """Keeps the board at ``spec`` connected; call :meth:`start`, then read the steps."""

    def __init__(self, spec: PortSpec | str, *, baudrate: int = 115200,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.spec = PortSpec.parse(spec) if isinstance(spec, str) else spec
        self.baudrate = baudrate
        self.on_error = on_error or (lambda text: log.warning("%s", text))
        self.stats = Stats()
        self.hello: p.Hello | None = None
        self.device: str | None = None
        self._lock = threading.Lock()
        self._io = threading.Lock()  # a write and the link thread closing the port
        self._wake = threading.Event()
        self._ready = threading.Event()
        self._steps: deque[Step] = deque()
        self._presses: deque[tuple[int, str]] = deque()
        self._serial: serial.Serial | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self._rx = p.Receiver()
        self._reset_sync()
        # LEDs: the frame wanted, and what the board has
        self._frame: list[RGB] | None = None
        self._frame_id = 0
        self._sent: tuple[int, list[RGB]] | None = None  # last frame sent to the board
        self._sent_at = 0.0
        self._acked = 0  # frame id the board last confirmed
        self._acked_frame: list[RGB] | None = None
        self._full = True  # the next frame goes whole (after a connect, a boot, an error)

    # -- the public side ------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the board has greeted and sent its first snapshot."""
        return self._ready.wait(timeout)

    def next_step(self) -> Step | None:
        with self._lock:
            return self._steps.popleft() if self._steps else None

    def pending(self) -> int:
        """Steps received and not read yet."""
        with self._lock:
            return len(self._steps)

    def presses(self) -> list[str]:
        """Buttons pressed since the last call (names as the board's hello gives them)."""
        out = []
        with self._lock:
            while self._presses:
                out.append(self._presses.popleft()[1])
        return out

    def show(self, frame: list[RGB]) -> None:
        """Have the board show ``frame``; sent by the link thread until acknowledged."""
        with self._lock:
            self._frame = list(frame)
        self._wake.set()
        self._cancel_read()  # the thread sends it now, not after its read times out

    def acked_frame(self) -> list[RGB] | None:
        """The frame the board last confirmed showing (None before any)."""
        with self._lock:
            return None if self._acked_frame is None else list(self._acked_frame)

    def closed_cells(self) -> frozenset[Address]:
        """The closed cells as the link knows them now (steps not yet read included)."""
        return self._mirror

    def held(self) -> set[str]:
        """The buttons held down now."""
        names = self.hello.buttons if self.hello else ()
        return {name for k, name in enumerate(names) if self._held_buttons >> k & 1}

    def connected(self) -> bool:
        return self._serial is not None and self._synced

    def close(self, flush: float = 0.5) -> None:
        """Stop the link, after up to ``flush`` seconds for the last LED frame's ack."""
        end = time.monotonic() + flush
        while self._frame is not None and self.connected() and time.monotonic() < end \
                and not (self._sent is not None and self._sent[1] == self._frame
                         and self._acked == self._sent[0]):
            time.sleep(0.005)
        self._closing = True
        self._wake.set()
        self._cancel_read()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            if self._thread.is_alive():
                return  # the thread closes the port itself once its read returns
        self._drop()

    def stop_firmware(self, wait: float = 5.0) -> bool:
        """Ask the board to leave the bridge for its REPL (for reflashing); False if the
        link was not up to say it within ``wait`` seconds."""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.wait_ready(max(0.0, end - time.monotonic())) and self._write(p.stop()):
                return True
            time.sleep(0.01)
        return False

    def _cancel_read(self) -> None:
        """End the link thread's read now."""
        ser = self._serial
        if ser is not None:
            try:
                ser.cancel_read()
            except (TypeError, OSError, serial.SerialException):
                pass  # the port was closed meanwhile: no read to end

    # -- the thread -----------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._serve()
        finally:
            self._drop()

    def _serve(self) -> None:
        while not self._closing:
            if self._serial is None:
                if not self._connect():
                    self._wake.wait(RETRY_S)
                    self._wake.clear()
                continue
            ser = self._serial
            try:
                try:
                    data = ser.read(max(1, ser.in_waiting))
                except TypeError:  # pyserial reading a port another thread closed meanwhile
                    if ser is self._serial and not self._closing:
                        raise
                    continue
                now = time.monotonic()
                if data:
                    self._last_rx = now
                    for body in self._rx.feed(data):
                        self._frame_in(body, now)
                self._timers(now)
                self._send_leds(now)
            except (serial.SerialException, OSError) as e:
                if ser is not self._serial or self._closing:
                    continue  # closed meanwhile (a failed write, or close()): not a loss
                self.on_error(f"serial link {self.device}: lost ({e}); waiting for the board")
                self._drop()

    def _connect(self) -> bool:
        try:
            device = self.spec.find()
        except PortError as e:
            self.on_error(str(e))
            return False
        if device is None:
            return False
        try:
            ser = serial.Serial(device, self.baudrate, timeout=0.01, write_timeout=0.5,
                                exclusive=True)
        except (serial.SerialException, OSError, ValueError):
            return False
        self._serial, self.device = ser, device
        self.stats.connects += 1
        self._rx = p.Receiver()
        # Until the board greets, it may be the same board (a stalled port reopened: its
        # events since the last one applied are asked for) or a restarted one.
        self._greeted_now = self._synced = False
        self._gap_at = None
        self._last_rx = time.monotonic()
        with self._lock:
            self._full = True
        self._write(p.sync())
        self._sync_at = time.monotonic()
        return True

    def _drop(self) -> None:
        with self._io:
            ser, self._serial = self._serial, None
            self._synced = False
            if ser is not None:
                try:
                    ser.close()
                except (serial.SerialException, OSError):
                    pass

    def _reset_sync(self) -> None:
        self.last_seq: int | None = None  # the last event applied; None: awaiting a snapshot
        self._synced = False  # a snapshot since the port was opened, no gap before it
        self._greeted_now = False  # the board's greeting since the port was opened
        self._mirror: frozenset[Address] = frozenset()
        self._held_buttons = 0
        self._early: dict[int, p.Change | p.Button] = {}  # events past a gap
        self._gap_at: float | None = None
        self._sync_at = 0.0

    def _write(self, body: bytes) -> bool:
        """Send a frame; whether it went out."""
        with self._io:
            ser = self._serial
            if ser is None:
                return False
            try:
                ser.write(p.encode(body))
                return True
            except (serial.SerialException, OSError) as e:
                failed = e
        self.on_error(f"serial link {self.device}: write failed ({failed})")
        self._drop()
        return False

    # -- frames from the board ----------------------------------------------------------
    def _frame_in(self, body: bytes | None, now: float) -> None:
        if body is None:
            self.stats.damaged += 1
            return
        self.stats.frames += 1
        try:
            msg = p.parse(body, self.hello.cols if self.hello else 0)
        except p.ProtocolError as e:
            self.on_error(f"serial link {self.device}: {e}")
            return
        if isinstance(msg, p.Hello):
            self._greeted(msg)
        elif self.hello is None or not self._greeted_now:
            # nothing makes sense before the board has said what it is; after the port
            # was opened again, events wait (unapplied) to know whether it restarted
            if isinstance(msg, p.Change | p.Button) and self.last_seq is not None \
                    and msg.seq > self.last_seq:
                self._early[msg.seq] = msg
            return
        elif isinstance(msg, p.Snapshot):
            self._snapshot(msg, now)
        elif isinstance(msg, p.Change | p.Button):
            self._event(msg, now)
        elif isinstance(msg, p.Ack):
            self._ack(msg.frame)
        elif isinstance(msg, p.Error):
            self._board_error(msg)

    def _greeted(self, hello: p.Hello) -> None:
        if hello.protocol != p.PROTOCOL:
            self.on_error(f"serial link {self.device}: the board speaks protocol "
                          f"{hello.protocol}, this host {p.PROTOCOL}; flash the firmware "
                          "that ships with this version")
            return
        if self.hello is None or hello.boot != self.hello.boot:
            self.stats.boots += 1
            self._reset_sync()
            with self._lock:
                self._full = True
                self._acked = 0
        self.hello = hello
        self._greeted_now = True
        self._drain(time.monotonic())  # events that came before the greeting, in order

    def _snapshot(self, snap: p.Snapshot, now: float) -> None:
        if self.last_seq is not None and snap.seq < self.last_seq:
            # numbers went back: the board restarted and its greeting was lost
            self._write(p.sync())
            self._sync_at = now
            return
        if self.last_seq is not None and snap.seq > self.last_seq \
                and snap.cause != p.FORGOTTEN:
            # events were lost after the last one seen: ask for them before believing a
            # picture that would hide a piece lifted and put back meanwhile
            if self._gap_at is None:
                self.stats.gaps += 1
                self._ask_resend(now)
            return
        # adopt after a (re)connect or a restart, or when the board no longer has the events
        # asked for
        adopt = self.last_seq is None or snap.seq > self.last_seq
        if not adopt and snap.closed != self._mirror:
            self.stats.repairs += 1  # same events seen, different picture: trust the board
            adopt = True
        if adopt:
            self._mirror = snap.closed
            self.last_seq = snap.seq
            with self._lock:
                self._steps.append(Step(snap.t_ms, {}, snap.closed))
            self._held_buttons = snap.held
            for seq in [s for s in self._early if s <= snap.seq]:
                del self._early[seq]
            self._drain(now)
            if not self._early:
                self._gap_at = None
        if self._gap_at is None:
            self._synced = True
        self._ready.set()

    def _event(self, msg: p.Change | p.Button, now: float) -> None:
        if self.last_seq is None or msg.seq <= self.last_seq:
            return  # before the first snapshot, or already applied (a resend)
        self._early[msg.seq] = msg
        if msg.seq != self.last_seq + 1 and self._gap_at is None:
            self.stats.gaps += 1
            self._ask_resend(now)
        self._drain(now)

    def _drain(self, now: float) -> None:
        while self.last_seq is not None and self.last_seq + 1 in self._early:
            msg = self._early.pop(self.last_seq + 1)
            self.last_seq = msg.seq
            self.stats.events += 1
            if isinstance(msg, p.Change):
                addr = (msg.row, msg.col)
                self._mirror = (self._mirror | {addr}) if msg.closed else (self._mirror - {addr})
                with self._lock:
                    last = self._steps[-1] if self._steps else None
                    if last is not None and last.t_ms == msg.t_ms and addr not in last.changes \
                            and last.snapshot is None:
                        last.changes[addr] = msg.closed
                    else:
                        self._steps.append(Step(msg.t_ms, {addr: msg.closed}))
            else:
                bit = 1 << msg.index
                was = self._held_buttons & bit
                self._held_buttons = (self._held_buttons | bit) if msg.down \
                    else (self._held_buttons & ~bit)
                names = self.hello.buttons if self.hello else ()
                if msg.down and not was and msg.index < len(names):
                    with self._lock:
                        self._presses.append((msg.seq, names[msg.index]))
        if not self._early:
            self._gap_at = None

    def _ask_resend(self, now: float) -> None:
        self.stats.resends += 1
        self._gap_at = now
        self._write(p.resend(self.last_seq or 0))

    def _ack(self, frame: int) -> None:
        self.stats.led_acks += 1
        with self._lock:
            if self._sent is not None and frame == self._sent[0]:
                self._acked = frame
                self._acked_frame = self._sent[1]

    def _board_error(self, err: p.Error) -> None:
        if err.code == p.E_STALE:
            with self._lock:
                self._full = True
                self._sent = None
            return
        if err.code == p.E_FRAME:
            # the board lost something we sent: repeat what is still outstanding now
            with self._lock:
                self._full = True
                self._sent = None
            if self._gap_at is not None:
                self._ask_resend(time.monotonic())
            if not self._greeted_now:
                self._write(p.sync())
            return
        what = p.ERRORS.get(err.code, f"error {err.code}")
        self.on_error(f"serial link {self.device}: the board reports {what}: {err.text}")

    # -- timers -------------------------------------------------------------------------
    def _timers(self, now: float) -> None:
        if now - self._last_rx > SILENCE_S:
            self.on_error(f"serial link {self.device}: the board is silent; reopening")
            self._drop()
            return
        if not self._synced and not self._greeted_now and now - self._sync_at > RESEND_S:
            self._write(p.sync())
            self._sync_at = now
        if self._gap_at is not None and now - self._gap_at > RESEND_S:
            self._ask_resend(now)

    def _send_leds(self, now: float) -> None:
        if not self._synced or self.hello is None:
            return
        with self._lock:
            frame = self._frame
            if frame is None:
                return
            if self._sent is not None and self._sent[1] == frame:
                if self._acked == self._sent[0] or now - self._sent_at < RESEND_S:
                    return
                self._full = True  # not acknowledged in time: send it whole again
            n = self.hello.leds
            if len(frame) != n:
                self.on_error(f"serial link {self.device}: the host has {len(frame)} LEDs, "
                              f"the board {n}; LED frame not sent")
                self._frame = None
                return
            self._frame_id = self._frame_id % 0xFFFF + 1
            fid = self._frame_id
            base = self._sent
            if self._full or base is None:
                body = p.led_full(fid, frame)
            else:
                changed = [(i, c) for i, c in enumerate(frame) if c != base[1][i]]
                body = p.led_delta(fid, base[0], changed) if 5 * len(changed) < 3 * n \
                    else p.led_full(fid, frame)
            self._full = False
            self._sent = (fid, frame)
            self._sent_at = now
        self.stats.led_frames += 1
        self._write(body)
