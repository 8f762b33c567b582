"""The MCP23017 and MCP3008 front ends: the real Adafruit drivers over register-level
simulated chips (hardware.simbus), on the gpio backend; their faults as one line."""

import pytest
from adafruit_mcp3xxx.mcp3008 import MCP3008
from adafruit_mcp230xx.mcp23017 import MCP23017

from boards.layout import load_layout, shipped_layouts
from boards.sensing import classify
from hardware.backends import BackendError, open_backend
from hardware.clock import VirtualClock
from hardware.rigs import Mcp3008Rig, Mcp23017Rig
from hardware.sim import SimBoard, SimGPIO
from hardware.simbus import SimChipSelect, SimI2C, SimMcp3008, SimMcp23017, SimSPI
from sensorboard.cli import main
from tests.hardware.test_backends import tiny_layout


def chip_on_pins(diodes=True):
    """One MCP23017 at 0x20: GPA0..GPA1 two rows, GPB0 one column of a 2x1 matrix."""
    board = SimBoard(2, 1, clock=VirtualClock(), diodes=diodes, bounce=0.0)
    gpio = SimGPIO(board, (100, 101), (108,))
    chip = SimMcp23017(gpio, [100, 101, None, None, None, None, None, None, 108])
    return board, gpio, SimI2C({0x20: chip})


def test_the_register_model_answers_the_adafruit_driver_as_the_datasheet_says():
    board, gpio, i2c = chip_on_pins()
    mcp = MCP23017(i2c, address=0x20)
    assert mcp.iodir == 0xFFFF and mcp.gppu == 0x0000
    mcp.gppu = 0x0003  # rows pulled up
    assert mcp.gpio & 0x0003 == 0x0003
    mcp.iodir = 0xFEFF  # GPB0 an output, its latch LOW
    assert gpio.pin_mode(108) == gpio.OUT and gpio.pin_level(108) == gpio.LOW
    board.place((1, 0))
    assert mcp.gpio & 0x0003 == 0x0001  # row 2 sinks into the driven column
    mcp.ipol = 0x0003
    assert mcp.gpio & 0x0003 == 0x0002  # IPOL inverts what inputs read
    mcp.gpio = 0x0100  # writing the port sets the output latch
    assert gpio.pin_level(108) == gpio.HIGH and mcp.gpio & 0x0100


def test_a_pin_of_the_driver_api_reads_the_same_model():
    board, gpio, i2c = chip_on_pins()
    mcp = MCP23017(i2c, address=0x20)
    row, col = mcp.get_pin(0), mcp.get_pin(8)
    import digitalio

    row.switch_to_input(pull=digitalio.Pull.UP)
    col.switch_to_output(value=False)
    assert row.value is True
    board.place((0, 0))
    assert row.value is False


def test_a_scan_costs_one_direction_write_and_one_port_read_per_column():
    clock = VirtualClock()
    layout = tiny_layout()
    with Mcp23017Rig(layout, clock) as rig:
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        rig.board.place((2, 3))
        clock.advance(0.05)
        before = rig.i2c.transactions
        assert hw.matrix.read() == {(2, 3)}
        assert rig.i2c.transactions - before == 2 * layout.cols + 1
        hw.close()
        # closed: every expander pin an input without pull-up again
        assert all(gpio_pin_idle(rig, ch) for ch in rig.expander_gpio.row_pins)


def gpio_pin_idle(rig, channel):
    gpio = rig.expander_gpio
    return gpio.pin_mode(channel) == gpio.IN and gpio.pin_pull(channel) == gpio.PUD_OFF


def test_a_12x12_board_takes_two_expanders():
    layout = load_layout(shipped_layouts()["teblo"])
    clock = VirtualClock()
    with Mcp23017Rig(layout, clock) as rig:
        assert rig.config.expanders == (0x20, 0x21)
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        cells = [(0, 0), (11, 11), (4, 7), (11, 0)]
        for addr in cells:
            rig.board.place(addr)
        clock.advance(0.05)
        assert hw.matrix.read() == set(cells)
        hw.close()


def test_a_missing_expander_is_one_line_naming_its_address():
    layout = load_layout(shipped_layouts()["teblo"])
    clock = VirtualClock()
    with Mcp23017Rig(layout, clock) as rig:
        del rig.i2c.chips[0x21]
        with pytest.raises(BackendError, match=r"^I2C: no MCP23017 answers at 0x21; check "
                                               r".*i2cdetect -y 1"):
            open_backend("gpio", layout, rig.config, clock)


def test_the_adc_model_converts_as_the_datasheet_clocks_it():
    spi = SimSPI({5: SimMcp3008(lambda ch: [1.0, 3.3, 0.0, 2.0, 0, 0, 0, 0][ch])})
    adc = MCP3008(spi, SimChipSelect(spi, 5))
    assert [adc.read(ch) for ch in range(4)] == [310, 1023, 0, 621]  # 1024 * V / 3.3 V


def test_analog_hall_sensors_through_mcp3008s_classify_every_piece():
    layout = load_layout(shipped_layouts()["teblo-hall"])
    clock = VirtualClock()
    with Mcp3008Rig(layout, clock) as rig:
        assert len(rig.config.adc_cs) == 18  # 144 sensors, 8 channels a chip
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        m = layout.magnets
        rig.board.place((0, 0), m["yellow"])
        rig.board.place((5, 9), m["red-block"])
        rig.board.place((11, 11), m["yellow-block"])
        rig.board.place((11, 11), m["red"])
        readings = hw.matrix.read()
        assert {a: classify(v, layout.thresholds) for a, v in readings.items()} == {
            (0, 0): "pawn", (5, 9): "block", (11, 11): "pawn-on-block"}
        assert abs(readings[(0, 0)] - m["yellow"]) < 0.05
        hw.close()
        assert all(pin.released for pin in rig.buses.selects)


def test_the_analog_layout_without_an_adc_names_the_setting():
    layout = load_layout(shipped_layouts()["teblo-hall"])
    clock = VirtualClock()
    with Mcp23017Rig(layout, clock) as rig:
        with pytest.raises(BackendError, match='set frontend = "mcp3008" and adc_cs'):
            open_backend("gpio", layout, rig.config, clock)


def run_gpio(tmp_path, capsys, hardware_table):
    records = tmp_path / "records"
    (tmp_path / "run.toml").write_text(f"[hardware]\n{hardware_table}\n")
    status = main(["run", "--game", "tessella", "--backend", "gpio", "--no-input",
                   "--records", str(records), "--config", str(tmp_path / "run.toml")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert not records.exists()
    return err


@pytest.mark.usefixtures("run_stops_at_start")
def test_no_permission_on_the_spi_device_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    import hardware.leds

    opened = []
    monkeypatch.setattr(hardware.leds, "NeoPixelStrip", lambda *a, **k: opened.append(a))
    clock = VirtualClock()
    with Mcp3008Rig(tiny_layout(), clock) as rig:
        rig.buses.faults["spi"] = PermissionError(13, "Permission denied")
        cs = ", ".join(map(str, rig.config.adc_cs))
        err = run_gpio(tmp_path, capsys, f'frontend = "mcp3008"\nadc_cs = [{cs}]\n'
                                         'led_pin = "NEOPIXEL"')
        assert err == ("sensorboard: SPI: no permission on /dev/spidev0.0 (Permission "
                       "denied); add the user to the 'spi' group (sudo adduser $USER spi) "
                       "and log in again\n")
        assert opened == []  # the LEDs were never touched


@pytest.mark.usefixtures("run_stops_at_start")
def test_i2c_switched_off_is_one_line_naming_the_fix(tmp_path, capsys):
    with Mcp23017Rig(tiny_layout(), VirtualClock()) as rig:
        rig.buses.faults["i2c"] = FileNotFoundError(2, "No such file or directory")
        err = run_gpio(tmp_path, capsys, 'frontend = "mcp23017"\nled_pin = "NEOPIXEL"')
        assert "I2C: /dev/i2c-1 does not exist; enable it (sudo raspi-config nonint " \
               "do_i2c 0) and reboot" in err


@pytest.mark.parametrize("table,message", [
    ('frontend = "mcp23017"\nled_pin = "D2"', "GPIO2 is both the LED data pin (D2) and "
                                              "I2C SDA of the MCP23017s"),
    ('frontend = "mcp3008"\nadc_cs = [5, 6, 13, 19, 26, 16]\nled_pin = "D10"',
     "the LEDs on SPI (D10) and the MCP3008s cannot share SPI0; put the LEDs on D18"),
    ('frontend = "mcp3008"\nadc_cs = [5, 6, 13, 19, 26, 21]',
     "GPIO21 is both the chip select of MCP3008 number 6 and the clock button"),
    ('frontend = "mcp3008"\nadc_cs = [5, 8]', "GPIO8 is both SPI0 CE0"),
    ('frontend = "mcp3008"\nadc_cs = [5, 6]', "a 7x6 matrix needs 6 MCP3008s"),
    ('adc_cs = [5, 5]', "hardware.adc_cs: 5 is listed twice"),
    ('expanders = [0x20, 0x30]', "hardware.expanders: must be a list of I2C addresses "
                                 "0x20..0x27"),
])
@pytest.mark.usefixtures("run_stops_at_start")
def test_a_front_end_pin_plan_that_cannot_work_is_named(tmp_path, capsys, table, message):
    with Mcp3008Rig(tiny_layout(), VirtualClock()):
        assert message in run_gpio(tmp_path, capsys, table)


def test_a_matrix_that_does_not_fit_the_listed_expanders_is_named():
    from dataclasses import replace

    layout = load_layout(shipped_layouts()["teblo"])
    clock = VirtualClock()
    with Mcp23017Rig(layout, clock) as rig:
        with pytest.raises(BackendError, match=r"teblo.toml: expanders: a 12x12 matrix needs 2 "
                                               r"MCP23017s \(24 pins\), 1 listed$"):
            open_backend("gpio", layout, replace(rig.config, expanders=(0x20,)), clock)


def test_calibrate_through_the_adcs_when_a_person_puts_the_pieces_down():
    """sensorboard calibrate on the MCP3008 front end: the tool asks, the person (here the
    rig) puts a block, a pawn, a pawn on a block on a few cells; the thresholds it finds
    classify every piece as the layout's magnets read through the ADCs."""
    from sensorboard.bringup import calibrate

    layout = load_layout(shipped_layouts()["teblo-hall"])
    clock = VirtualClock()
    m = layout.magnets
    stacks = iter([[], [m["red-block"]], [m["red"]], [m["red-block"], m["yellow"]]])
    cells = [(0, 0), (3, 4), (7, 11), (11, 6)]
    asked = []
    with Mcp3008Rig(layout, clock) as rig:
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        on_board: list = []

        def person(text):
            asked.append(text)
            for addr in on_board:
                rig.board.lift(addr)
            on_board.clear()
            for strength in next(stacks):
                for addr in cells:
                    rig.board.place(addr, strength)
                    on_board.append(addr)

        thresholds = calibrate(hw, layout, clock, scans=3, ask=person, sleep=clock.advance,
                               out=lambda line: None)
        hw.close()
    assert len(asked) == 4 and asked[0].startswith("take every piece off the board")
    assert list(thresholds) == ["empty", "block", "pawn", "pawn-on-block"]
    for pieces, kind in [((), "empty"), (("yellow-block",), "block"), (("red",), "pawn"),
                         (("red-block", "red"), "pawn-on-block")]:
        assert classify(sum(m[p] for p in pieces), thresholds) == kind


def test_check_wiring_through_the_expanders_names_a_stuck_switch():
    from sensorboard.bringup import check_wiring

    layout = tiny_layout()
    clock = VirtualClock()
    with Mcp23017Rig(layout, clock) as rig:
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        rig.board.stuck((4, 2), True)
        report = check_wiring(hw, layout, clock, seconds=0.05, out=lambda line: None,
                              sleep=clock.advance, walk_s=0.0, live=False)
        hw.close()
    stuck = layout.sensor_cell[(4, 2)]
    assert [line.split(":")[0] for line in report.faults(layout.sensor_cell)] == [
        f"{stuck} [4,2]"]


def test_check_wiring_on_hall_sensors_through_the_adcs_names_a_piece_left_on_the_board():
    from sensorboard.bringup import check_wiring

    layout = load_layout(shipped_layouts()["teblo-hall"])
    clock = VirtualClock()
    lines = []
    with Mcp3008Rig(layout, clock) as rig:
        hw = open_backend("gpio", layout, rig.config, clock)
        rig.attach(hw)
        rig.board.place((5, 9), layout.magnets["red"])
        report = check_wiring(hw, layout, clock, seconds=0.05, out=lines.append,
                              sleep=clock.advance, walk_s=0.0)
        hw.close()
    assert [line.split(":")[0] for line in report.faults(layout.sensor_cell)] == [
        f"{layout.sensor_cell[(5, 9)]} [5,9]"]
