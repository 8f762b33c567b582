"""A simulated gpiochip behind the ``lgpio`` module's API, for tests and benchmarks.

rpi-lgpio (the RPi.GPIO API on every Pi) and the group scanner (hardware.matrix_lgpio)
both talk to ``lgpio``; with a :class:`SimLgpio` in ``sys.modules["lgpio"]`` their own
code runs here against the matrix's electrical model (:class:`hardware.sim.SimGPIO`):
claiming a line sets the pin's direction and pull, writing drives it, reading gives what
the magnets, the diodes (or their absence) and the pulls make of it.

Like lgpio (whose ``exceptions`` flag is on by default), a failing call raises
``lgpio.error``. ``calls`` counts the calls by function name, for benchmarks.
"""

from __future__ import annotations

import functools
import types
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from hardware.sim import SimGPIO

LINES = 54  # BCM 0..53


class LgpioError(Exception):
    """lgpio.error"""


def _counted(method: Callable) -> Callable:
    name = method.__name__

    @functools.wraps(method)
    def counted(self: SimLgpio, *args: Any, **kwargs: Any) -> Any:
        self.calls[name] += 1
        return method(self, *args, **kwargs)

    return counted


class SimLgpio(types.ModuleType):
    """The ``lgpio`` module over one simulated gpiochip (``chip``, 54 lines).

    ``permitted=False`` models a user without access to ``/dev/gpiochipN``: opening the
    chip fails as it does on a Pi ("can not open gpiochip").
    """

    error = LgpioError
    SET_ACTIVE_LOW = 4
    SET_OPEN_DRAIN = 8
    SET_OPEN_SOURCE = 16
    SET_PULL_UP = 32
    SET_PULL_DOWN = 64
    SET_PULL_NONE = 128
    RISING_EDGE = 1
    FALLING_EDGE = 2
    BOTH_EDGES = 3
    GROUP_ALL = 0xFFFFFFFFFFFFFFFF
    BAD_HANDLE = -5
    GPIO_IN_USE = -11
    BAD_GPIO_NUMBER = -73
    CANNOT_OPEN_CHIP = -78
    GPIO_BUSY = -79
    GPIO_NOT_ALLOCATED = -80
    NOT_GROUP_LEADER = -87
    _TEXT = {-5: "unknown handle", -11: "gpio already in use", -73: "bad gpio number",
             -78: "can not open gpiochip", -79: "gpio busy", -80: "gpio not allocated",
             -87: "gpio not a group leader", -7: "not permitted"}

    def __init__(self, gpio: SimGPIO, chip: int = 0, *, permitted: bool = True) -> None:
        super().__init__("lgpio", __doc__)
        self.gpio = gpio
        self.chip = chip
        self.permitted = permitted
        self.calls: Counter[str] = Counter()
        self._handles: set[int] = set()
        self._next_handle = 0
        self._claim: dict[int, tuple[int, str]] = {}  # line -> (handle, "in" | "out")
        self._flags: dict[int, int] = {}
        self._groups: dict[tuple[int, int], tuple[int, ...]] = {}  # (handle, leader) -> lines
        self._leader: dict[int, int] = {}  # line -> its group's leader
        if gpio.getmode() is None:
            gpio.setmode(gpio.BCM)

    # -- errors ----------------------------------------------------------------------------
    def error_text(self, errnum: int) -> str:
        return self._TEXT.get(errnum, f"lgpio error {errnum}")

    def _fail(self, code: int) -> None:
        raise LgpioError(self.error_text(code))

    def _handle(self, handle: int) -> None:
        if handle not in self._handles:
            self._fail(self.BAD_HANDLE)

    def _line(self, handle: int, line: int, *, owned: bool = True) -> None:
        self._handle(handle)
        if not 0 <= line < LINES:
            self._fail(self.BAD_GPIO_NUMBER)
        claim = self._claim.get(line)
        if owned and claim is None:
            self._fail(self.GPIO_NOT_ALLOCATED)
        if claim is not None and claim[0] != handle:
            self._fail(self.GPIO_BUSY)

    # -- chip ------------------------------------------------------------------------------
    @_counted
    def gpiochip_open(self, gpiochip: int) -> int:
        if gpiochip != self.chip or not self.permitted:
            self._fail(self.CANNOT_OPEN_CHIP)
        self._next_handle += 1
        self._handles.add(self._next_handle)
        return self._next_handle | (gpiochip << 16)

    @_counted
    def gpiochip_close(self, handle: int) -> int:
        handle &= 0xFFFF
        self._handle(handle)
        for line in [g for g, (h, _) in self._claim.items() if h == handle]:
            self._release(line)
        self._handles.discard(handle)
        return 0

    @_counted
    def gpio_get_chip_info(self, handle: int) -> list:
        self._handle(handle & 0xFFFF)
        return [0, LINES, f"gpiochip{self.chip}", "pinctrl-sim"]

    @_counted
    def gpio_get_mode(self, handle: int, gpio: int) -> int:
        handle &= 0xFFFF
        self._line(handle, gpio, owned=False)
        claim = self._claim.get(gpio)
        mode = 0
        if self.gpio.pin_mode(gpio) == self.gpio.OUT:
            mode |= 0x2
        else:
            mode |= 0x10000
        flags = self._flags.get(gpio, 0)
        mode |= flags & (self.SET_PULL_UP | self.SET_PULL_DOWN | self.SET_PULL_NONE)
        if claim is not None:
            mode |= 0x1 | (0x100 if claim[1] == "in" else 0x200)
            if gpio in self._leader:
                mode |= 0x800
        return mode

    # -- single lines ----------------------------------------------------------------------
    def _pull(self, flags: int) -> int:
        g = self.gpio
        if flags & self.SET_PULL_UP:
            return g.PUD_UP
        if flags & self.SET_PULL_DOWN:
            return g.PUD_DOWN
        return g.PUD_OFF

    def _claim_input(self, handle: int, line: int, flags: int) -> None:
        self._line(handle, line, owned=False)
        if line in self._leader:
            self._fail(self.GPIO_IN_USE)
        self.gpio.setup(line, self.gpio.IN, pull_up_down=self._pull(flags))
        self._claim[line] = (handle, "in")
        self._flags[line] = flags

    def _claim_output(self, handle: int, line: int, level: int, flags: int) -> None:
        self._line(handle, line, owned=False)
        if line in self._leader:
            self._fail(self.GPIO_IN_USE)
        self.gpio.setup(line, self.gpio.OUT, initial=self.gpio.HIGH if level else self.gpio.LOW)
        self._claim[line] = (handle, "out")
        self._flags[line] = flags

    def _release(self, line: int) -> None:
        # The kernel leaves a freed line as it was (an output stays driven).
        self._claim.pop(line, None)
        self._leader.pop(line, None)

    @_counted
    def gpio_claim_input(self, handle: int, gpio: int, lFlags: int = 0) -> int:  # noqa: N803
        self._claim_input(handle & 0xFFFF, gpio, lFlags)
        return 0

    @_counted
    def gpio_claim_output(self, handle: int, gpio: int, level: int = 0,
                          lFlags: int = 0) -> int:  # noqa: N803
        self._claim_output(handle & 0xFFFF, gpio, level, lFlags)
        return 0

    @_counted
    def gpio_free(self, handle: int, gpio: int) -> int:
        handle &= 0xFFFF
        self._line(handle, gpio)
        if gpio in self._leader:
            self._fail(self.GPIO_IN_USE)
        self._release(gpio)
        return 0

    @_counted
    def gpio_read(self, handle: int, gpio: int) -> int:
        self._line(handle & 0xFFFF, gpio)
        return int(self.gpio.input(gpio))

    @_counted
    def gpio_write(self, handle: int, gpio: int, level: int) -> int:
        self._line(handle & 0xFFFF, gpio)
        if self._claim[gpio][1] != "out":
            self._fail(self.GPIO_NOT_ALLOCATED)
        self.gpio.output(gpio, self.gpio.HIGH if level else self.gpio.LOW)
        return 0

    # -- groups ----------------------------------------------------------------------------
    def _group(self, handle: int, leader: int) -> tuple[int, ...]:
        self._handle(handle)
        group = self._groups.get((handle, leader))
        if group is None:
            if leader in self._claim and leader not in self._leader:
                return (leader,)  # a single claimed line is a group of one
            self._fail(self.NOT_GROUP_LEADER)
        return group  # type: ignore[return-value]

    @_counted
    def group_claim_input(self, handle: int, gpio: Sequence[int], lFlags: int = 0) -> int:  # noqa: N803
        handle &= 0xFFFF
        for line in gpio:
            self._claim_input(handle, line, lFlags)
        self._make_group(handle, tuple(gpio))
        return 0

    @_counted
    def group_claim_output(self, handle: int, gpio: Sequence[int], levels: Sequence[int] = (0,),
                           lFlags: int = 0) -> int:  # noqa: N803
        handle &= 0xFFFF
        levels = list(levels) + [0] * (len(gpio) - len(levels))
        for line, level in zip(gpio, levels, strict=False):
            self._claim_output(handle, line, level, lFlags)
        self._make_group(handle, tuple(gpio))
        return 0

    def _make_group(self, handle: int, lines: tuple[int, ...]) -> None:
        if lines:
            self._groups[handle, lines[0]] = lines
            for line in lines:
                self._leader[line] = lines[0]

    @_counted
    def group_free(self, handle: int, gpio: int) -> int:
        handle &= 0xFFFF
        for line in self._group(handle, gpio):
            self._release(line)
        self._groups.pop((handle, gpio), None)
        return 0

    @_counted
    def group_read(self, handle: int, gpio: int) -> list[int]:
        lines = self._group(handle & 0xFFFF, gpio)
        read = self.gpio.input
        bits = 0
        for i, line in enumerate(lines):
            if read(line):
                bits |= 1 << i
        return [len(lines), bits]

    @_counted
    def group_write(self, handle: int, gpio: int, group_bits: int,
                    group_mask: int = GROUP_ALL) -> int:
        handle &= 0xFFFF
        lines = self._group(handle, gpio)
        if any(self._claim[line][1] != "out" for line in lines):
            self._fail(self.GPIO_NOT_ALLOCATED)
        pins = [line for i, line in enumerate(lines) if group_mask >> i & 1]
        values = [1 if group_bits >> i & 1 else 0
                  for i, line in enumerate(lines) if group_mask >> i & 1]
        if pins:
            self.gpio.output(pins, values)
        return 0

    # -- what the simulation does not offer ------------------------------------------------
    def gpio_claim_alert(self, *args: Any, **kwargs: Any) -> int:
        raise LgpioError("edge alerts are not simulated; poll the pin instead")

    def gpio_set_debounce_micros(self, *args: Any, **kwargs: Any) -> int:
        raise LgpioError("debounce in the kernel is not simulated")

    def callback(self, *args: Any, **kwargs: Any) -> Any:
        raise LgpioError("callbacks are not simulated")
