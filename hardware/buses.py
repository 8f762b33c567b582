"""The I2C and SPI buses the expander and ADC front ends talk through, from one factory.

On a Pi the factory is Adafruit Blinka's (``busio.I2C`` on GPIO2/3, ``busio.SPI`` on
SPI0, ``digitalio.DigitalInOut`` chip selects). Tests swap in a factory of simulated
buses, as gpiozero's tests swap in mock pins::

    with use_buses(fake):          # fake has i2c(), spi() and chip_select(gpio)
        ...open the gpio backend...

Nothing here imports the simulation; a fault opening a bus is a :class:`BackendError`
naming the fix.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Protocol

from hardware.backends import BackendError


class BusFactory(Protocol):
    def i2c(self) -> Any:
        """The I2C bus on GPIO2 (SDA) and GPIO3 (SCL), as ``busio.I2C``."""
        ...

    def spi(self) -> Any:
        """SPI0 (GPIO9 MISO, GPIO10 MOSI, GPIO11 SCLK), as ``busio.SPI``."""
        ...

    def chip_select(self, gpio: int) -> Any:
        """A chip-select output on ``gpio``, as ``digitalio.DigitalInOut``."""
        ...


class BlinkaBuses:
    """The Pi's buses through Adafruit Blinka."""

    def i2c(self) -> Any:
        import board
        import busio

        return busio.I2C(board.SCL, board.SDA)

    def spi(self) -> Any:
        import board
        import busio

        return busio.SPI(board.SCK, MOSI=board.MOSI, MISO=board.MISO)

    def chip_select(self, gpio: int) -> Any:
        import board
        import digitalio

        return digitalio.DigitalInOut(getattr(board, f"D{gpio}"))


def open_i2c() -> Any:
    """The I2C bus of the factory in use; a fault is a BackendError naming the fix."""
    return _opened("I2C", "/dev/i2c-1", "i2c", "do_i2c", buses().i2c)


def open_spi() -> Any:
    return _opened("SPI", "/dev/spidev0.0", "spi", "do_spi", buses().spi)


def open_chip_select(gpio: int) -> Any:
    return _opened("GPIO", f"GPIO{gpio}", "gpio", "", lambda: buses().chip_select(gpio))


def _opened(bus: str, device: str, group: str, raspi_config: str, opener: Any) -> Any:
    try:
        return opener()
    except PermissionError as e:
        raise BackendError(f"{bus}: no permission on {device} ({e.strerror or e}); add the "
                           f"user to the '{group}' group (sudo adduser $USER {group}) and "
                           "log in again") from None
    except FileNotFoundError:
        fix = (f"enable it (sudo raspi-config nonint {raspi_config} 0) and reboot"
               if raspi_config else "check the pin number")
        raise BackendError(f"{bus}: {device} does not exist; {fix}") from None
    except (AttributeError, NotImplementedError, RuntimeError, ValueError) as e:
        raise BackendError(f"{bus}: cannot open {device} on this machine ({e}); "
                           "on a Raspberry Pi install the 'pi' extra, else use "
                           "--backend sim") from None


_factory: list[BusFactory] = [BlinkaBuses()]


def buses() -> BusFactory:
    """The factory in use."""
    return _factory[-1]


@contextlib.contextmanager
def use_buses(factory: BusFactory) -> Iterator[BusFactory]:
    """Open buses through ``factory`` inside the ``with`` block."""
    _factory.append(factory)
    try:
        yield factory
    finally:
        _factory.remove(factory)
