"""Simulated I2C and SPI buses with register-level chips on them, for the expander and
ADC front ends to run through the real Adafruit drivers off a Pi.

* :class:`SimI2C` has ``busio.I2C``'s methods; a chip that is not there answers with
  ``OSError`` (Linux's "Remote I/O error"), as on the Pi.
* :class:`SimMcp23017` implements the MCP23017's registers in IOCON.BANK = 0 order
  (IODIR, IPOL, GPPU, GPIO, OLAT, ...) with the sequential address pointer; its pins are
  channels of a :class:`hardware.sim.SimGPIO`, so what the GPIO register reads is the
  switch matrix's electrical model (pull-ups, diodes, ghosting).
* :class:`SimSPI` has ``busio.SPI``'s methods, :class:`SimChipSelect` ``DigitalInOut``'s;
  :class:`SimMcp3008` answers conversions bit by bit as the datasheet clocks them: a start
  bit, SGL/DIFF and D2..D0, a null bit, then B9..B0 (MSB first).

Tests and rigs only; the production path never imports this module.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hardware.sim import SimGPIO

IODIRA, IPOLA, GPPUA, IOCON, GPIOA, OLATA = 0x00, 0x02, 0x0C, 0x0A, 0x12, 0x14
REGISTERS = 0x16
READ_ONLY = frozenset((0x0E, 0x0F, 0x10, 0x11))  # INTF, INTCAP
SEQOP, BANK = 0x20, 0x80


class SimMcp23017:
    """One MCP23017: ``pins[k]`` is the SimGPIO channel wired to GPA0..GPA7, GPB0..GPB7
    (None for a pin wired to nothing)."""

    def __init__(self, gpio: SimGPIO, pins: Sequence[int | None]) -> None:
        self.gpio = gpio
        self.pins = list(pins) + [None] * (16 - len(pins))
        self.regs = bytearray(REGISTERS)
        self.regs[IODIRA] = self.regs[IODIRA + 1] = 0xFF  # power-on: every pin an input
        self.pointer = 0
        self._applied: dict[int, tuple[int, int, int]] = {}
        if gpio.getmode() is None:
            gpio.setmode(gpio.BCM)
        self._apply()

    # -- the I2C side --------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if not data:
            return  # an address probe
        self.pointer = data[0] % REGISTERS
        for value in data[1:]:
            self._set(self.pointer, value)
            self._advance()

    def read(self, n: int) -> bytes:
        out = bytearray()
        for _ in range(n):
            out.append(self._get(self.pointer))
            self._advance()
        return bytes(out)

    def _advance(self) -> None:
        if not self.regs[IOCON] & SEQOP:
            self.pointer = (self.pointer + 1) % REGISTERS

    def _set(self, reg: int, value: int) -> None:
        if reg in (IOCON, IOCON + 1):
            if value & BANK:
                raise NotImplementedError("IOCON.BANK = 1 is not modelled")
            self.regs[IOCON] = self.regs[IOCON + 1] = value
            return
        if reg in READ_ONLY:
            return
        if reg in (GPIOA, GPIOA + 1):  # writing the port writes the output latch
            reg += OLATA - GPIOA
        self.regs[reg] = value
        self._apply()

    def _get(self, reg: int) -> int:
        if reg not in (GPIOA, GPIOA + 1):
            return self.regs[reg]
        port = reg - GPIOA
        iodir, ipol, olat = (self.regs[IODIRA + port], self.regs[IPOLA + port],
                             self.regs[OLATA + port])
        value = 0
        for bit in range(8):
            mask = 1 << bit
            if iodir & mask:
                pin = self.pins[port * 8 + bit]
                level = (self.gpio.input(pin) if pin is not None
                         else int(bool(self.regs[GPPUA + port] & mask)))
                value |= mask if bool(level) != bool(ipol & mask) else 0
            else:
                value |= olat & mask
        return value

    def _apply(self) -> None:
        """Put the SimGPIO channels in the state the registers give the pins."""
        gpio = self.gpio
        for k, pin in enumerate(self.pins):
            if pin is None:
                continue
            port, mask = divmod(k, 8)[0], 1 << (k % 8)
            state = (self.regs[IODIRA + port] & mask, self.regs[GPPUA + port] & mask,
                     self.regs[OLATA + port] & mask)
            if self._applied.get(pin) == state:
                continue
            self._applied[pin] = state
            is_input, pulled, high = state
            if is_input:
                gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP if pulled else gpio.PUD_OFF)
            else:
                gpio.setup(pin, gpio.OUT, initial=gpio.HIGH if high else gpio.LOW)


class _Lockable:
    def __init__(self) -> None:
        self._locked = False
        self.transactions = 0
        self.bits = 0  # clock cycles on the bus (I2C: 9 a byte with its ACK, and START/STOP)

    def try_lock(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def deinit(self) -> None:
        pass

    def _check_locked(self) -> None:
        if not self._locked:
            raise RuntimeError("the bus is used without try_lock()")


class SimI2C(_Lockable):
    """An I2C bus holding ``chips`` by 7-bit address; ``transactions`` counts transfers."""

    def __init__(self, chips: dict[int, SimMcp23017]) -> None:
        super().__init__()
        self.chips = chips

    def scan(self) -> list[int]:
        return sorted(self.chips)

    def _chip(self, address: int) -> SimMcp23017:
        self._check_locked()
        self.transactions += 1
        if address not in self.chips:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return self.chips[address]

    def writeto(self, address: int, buffer: bytes, *, start: int = 0,
                end: int | None = None) -> None:
        data = bytes(buffer[start:end])
        self.bits += 9 * (1 + len(data)) + 2
        self._chip(address).write(data)

    def readfrom_into(self, address: int, buffer: bytearray, *, start: int = 0,
                      end: int | None = None) -> None:
        end = len(buffer) if end is None else end
        self.bits += 9 * (1 + end - start) + 2
        buffer[start:end] = self._chip(address).read(end - start)

    def writeto_then_readfrom(self, address: int, out_buffer: bytes, in_buffer: bytearray, *,
                              out_start: int = 0, out_end: int | None = None,
                              in_start: int = 0, in_end: int | None = None) -> None:
        chip = self._chip(address)
        data = bytes(out_buffer[out_start:out_end])
        chip.write(data)
        in_end = len(in_buffer) if in_end is None else in_end
        self.bits += 9 * (2 + len(data) + in_end - in_start) + 3  # a repeated START between
        in_buffer[in_start:in_end] = chip.read(in_end - in_start)


class SimMcp3008:
    """One MCP3008; ``volts(channel)`` is what each single-ended input carries now."""

    def __init__(self, volts: Callable[[int], float], ref_volts: float = 3.3) -> None:
        self.volts = volts
        self.ref_volts = ref_volts
        self.conversions = 0
        self.select()

    def select(self) -> None:
        """Chip select went LOW: a new conversion starts with the next start bit."""
        self._bits: list[int] = []  # clocked in since the start bit (the start bit first)
        self._code = 0

    def clock(self, din: int) -> int:
        """One SCLK cycle: ``din`` in, the DOUT level out (1 while DOUT is high-Z)."""
        bits = self._bits
        if not bits:
            if din:
                bits.append(1)
            return 1
        bits.append(din)
        n = len(bits) - 1  # clocks since the start bit
        if n == 4:  # SGL/DIFF, D2, D1, D0 are in: sample
            single, channel = bits[1], bits[2] << 2 | bits[3] << 1 | bits[4]
            if not single:
                raise NotImplementedError("differential conversions are not modelled")
            code = round(self.volts(channel) / self.ref_volts * 1024)
            self._code = max(0, min(1023, code))
            self.conversions += 1
        if n < 6:
            return 1
        if n == 6:
            return 0  # the null bit
        if n <= 16:
            return self._code >> (16 - n) & 1  # B9 .. B0
        if n <= 25:
            return self._code >> (n - 16) & 1  # then LSB first: B1 .. B9
        return 0


@dataclass
class SimSPI(_Lockable):
    """SPI0 with MCP3008s by chip-select GPIO (exactly one may be selected per transfer)
    and ``listeners`` on MOSI that hear every byte sent (a WS2812 chain)."""

    chips: dict[int, SimMcp3008] = field(default_factory=dict)
    listeners: list[SimWs2812Chain] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()
        self.selected: set[int] = set()
        self.mode: tuple[int, int] | None = None
        self.baudrate = 0

    def configure(self, baudrate: int = 100000, polarity: int = 0, phase: int = 0,
                  bits: int = 8) -> None:
        self._check_locked()
        if bits != 8:
            raise ValueError(f"SPI words of {bits} bits are not modelled")
        self.mode = (polarity, phase)
        self.baudrate = baudrate

    def select(self, cs: int, low: bool) -> None:
        if low and cs not in self.selected and cs in self.chips:
            self.chips[cs].select()
        (self.selected.add if low else self.selected.discard)(cs)

    def write_readinto(self, out_buffer: bytes, in_buffer: bytearray, *, out_start: int = 0,
                       out_end: int | None = None, in_start: int = 0,
                       in_end: int | None = None) -> None:
        self._check_locked()
        if self.mode is None:
            raise RuntimeError("SPI transfer before configure()")
        chips = [self.chips[cs] for cs in self.selected if cs in self.chips]
        if len(chips) > 1:
            raise RuntimeError(f"two chips selected at once: GPIO {sorted(self.selected)}")
        if chips and (self.mode not in ((0, 0), (1, 1)) or self.baudrate > 3_600_000):
            raise ValueError(f"the MCP3008 speaks SPI mode 0,0 or 1,1 up to 3.6 MHz, got "
                             f"mode {self.mode} at {self.baudrate} Hz")
        self.transactions += 1
        out = bytes(out_buffer[out_start:out_end])
        self.bits += 8 * len(out)
        for listener in self.listeners:
            listener.receive(out, self.baudrate)
        reply = bytearray()
        for byte in out:
            value = 0
            for i in range(7, -1, -1):
                dout = chips[0].clock(byte >> i & 1) if chips else 1
                value |= dout << i
            reply.append(value)
        in_end = len(in_buffer) if in_end is None else in_end
        in_buffer[in_start:in_end] = reply[:in_end - in_start]

    def write(self, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        scratch = bytearray(len(buffer[start:end]))
        self.write_readinto(buffer[start:end], scratch)


class SimWs2812Chain:
    """WS2812B LEDs on MOSI, decoded from the waveform as the LEDs see it: each pulse's
    high time makes a 0 bit (220-550 ns) or a 1 bit (580-1000 ns; anything else is a
    fault), the first LED keeps the first 24 bits (GRB) and passes the rest on, and a low
    line for 50 µs or more latches every LED's new colour. ``latches`` counts frames."""

    T0H, T1H, RESET = (220e-9, 550e-9), (580e-9, 1000e-9), 50e-6

    def __init__(self, n: int) -> None:
        self.n = n
        self.leds: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.latches = 0
        self._bits: list[int] = []
        self._high = 0.0
        self._low = 0.0

    def receive(self, data: bytes, baudrate: int) -> None:
        bit_time = 1.0 / baudrate
        for byte in data:
            for i in range(7, -1, -1):
                if byte >> i & 1:
                    if self._low and self._high == 0.0:
                        self._low = 0.0
                    self._high += bit_time
                else:
                    if self._high:
                        self._bits.append(self._pulse(self._high))
                        self._high = 0.0
                    self._low += bit_time
                    if self._low >= self.RESET and self._bits:
                        self._latch()

    def _pulse(self, high: float) -> int:
        for bit, (lo, hi) in ((0, self.T0H), (1, self.T1H)):
            if lo <= high <= hi:
                return bit
        raise ValueError(f"a WS2812 pulse {high * 1e9:.0f} ns high is neither a 0 nor a 1")

    def _latch(self) -> None:
        bits, self._bits = self._bits, []
        for k in range(min(self.n, len(bits) // 24)):
            g, r, b = (int("".join(map(str, bits[k * 24 + j * 8:k * 24 + j * 8 + 8])), 2)
                       for j in range(3))
            self.leds[k] = (r, g, b)
        self.latches += 1


class SimChipSelect:
    """A chip-select output, as ``digitalio.DigitalInOut``: LOW selects its chip."""

    def __init__(self, spi: SimSPI, gpio: int) -> None:
        self.spi, self.gpio = spi, gpio
        self._value = True
        self.released = False

    def switch_to_output(self, value: bool = False, drive_mode: object = None) -> None:
        self.value = value

    @property
    def value(self) -> bool:
        return self._value

    @value.setter
    def value(self, value: bool) -> None:
        self._value = bool(value)
        self.spi.select(self.gpio, low=not value)

    def deinit(self) -> None:
        self.released = True


class SimBuses:
    """A bus factory (see hardware.buses) over simulated buses.

    ``faults`` maps "i2c" / "spi" to an exception raised when that bus is opened (a
    device node missing, no permission)."""

    def __init__(self, i2c: SimI2C | None = None, spi: SimSPI | None = None,
                 faults: dict[str, Exception] | None = None) -> None:
        self._i2c, self._spi = i2c or SimI2C({}), spi or SimSPI()
        self.faults = dict(faults or {})
        self.selects: list[SimChipSelect] = []

    def i2c(self) -> SimI2C:
        return self._opened("i2c", self._i2c)

    def spi(self) -> SimSPI:
        return self._opened("spi", self._spi)

    def chip_select(self, gpio: int) -> SimChipSelect:
        pin = SimChipSelect(self._spi, gpio)
        self.selects.append(pin)
        return pin

    def _opened(self, name: str, bus: Any) -> Any:
        if name in self.faults:
            raise self.faults[name]
        return bus
