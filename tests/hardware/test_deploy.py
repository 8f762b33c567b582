"""The service as installed on a Pi: the systemd unit, the install script, the board
configs, and the service's side of the systemd protocol (ready, watchdog, stopping)."""

import configparser
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boards.layout import load_layout, shipped_layouts
from sensorboard.cli import build_parser
from sensorboard.config import load_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def unit():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(DEPLOY / "sensorboard.service")
    return parser


def test_the_unit_is_a_notify_service_with_a_watchdog_restarted_on_failure():
    u = unit()["Service"]
    assert u["Type"] == "notify" and int(u["WatchdogSec"]) > 0
    assert u["Restart"] == "on-failure"
    assert u["StandardOutput"] == "journal" and u["StandardError"] == "journal"
    assert "gpio" in u["SupplementaryGroups"].split()
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_units_command_is_a_valid_sensorboard_run():
    argv = shlex.split(unit()["Service"]["ExecStart"])
    assert argv[0] == "/opt/sensorboard/.venv/bin/sensorboard"
    args = build_parser().parse_args(argv[1:])
    assert args.command == "run" and args.no_input and not args.demo
    assert args.config == "/etc/sensorboard/board.toml"


def test_the_install_scripts_pass_shellcheck():
    out = subprocess.run(["shellcheck", "-x", str(DEPLOY / "install.sh"),
                          str(DEPLOY / "hall.sh")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_the_install_script_dry_run_lists_every_step():
    out = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--board",
                          "telec", "--leds", "spi"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    steps = out.stdout
    assert "-m venv /opt/sensorboard/.venv" in steps
    assert "pip install" in steps and "[pi]" in steps
    assert "usermod -a -G gpio,spi sensorboard" in steps
    assert "sensorboard.service /etc/systemd/system/sensorboard.service" in steps
    assert "systemctl enable --now sensorboard.service" in steps
    assert "deploy/config/telec.toml" in steps and 'led_pin = "D10"' in steps


def test_a_pi_5_with_pwm_leds_gets_the_pi_5_neopixel_driver_and_no_root():
    def steps(model):
        out = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run"],
                             capture_output=True, text=True,
                             env={"PATH": "/usr/bin:/bin", "SENSORBOARD_MODEL": model})
        assert out.returncode == 0, out.stderr
        return out.stdout

    pi5 = steps("Raspberry Pi 5 Model B Rev 1.0")
    assert "[pi,pi5-leds]" in pi5 and "sensorboard.service.d" not in pi5
    # the dry run shows every file it would write, with what it would write in it
    assert ('+ write /etc/udev/rules.d/99-sensorboard-pio.rules (mode 644)\n'
            '    SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"\n') in pi5
    pi4 = steps("Raspberry Pi 4 Model B Rev 1.5")
    assert "[pi]" in pi4 and "pi5-leds" not in pi4 and "sensorboard.service.d" in pi4
    assert ("+ write /etc/systemd/system/sensorboard.service.d/root.conf (mode 644)\n"
            "    [Service]\n    User=root\n    Group=root\n") in pi4
    assert "+ write /etc/sensorboard/board.toml (mode 640)\n" in pi4
    assert 'token = "(a new random token)"' in pi4 and 'led_pin = "D18"' in pi4


def test_a_board_joins_a_secured_hall_with_its_folder(tmp_path):
    root = tmp_path / "hall"
    made = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--hall", "--boards", "7",
                           "--host", "hall.local", "--root", str(root)],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    folder = root / "etc" / "sensorboard" / "hall" / "board-7"
    out = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--login",
                          str(folder)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    password = (folder / "password").read_text().strip()
    assert password not in out.stdout  # a secret is named, never shown
    assert "+ write /etc/sensorboard/mqtt.password (mode 640, board-7's password)" in out.stdout
    assert "+ write /etc/sensorboard/hall-ca.crt (mode 644" in out.stdout
    assert ('    board = "7"\n    mqtt = "mqtts://board-7@hall.local:8883?ca=/etc/sensorboard/'
            'hall-ca.crt&password_file=/etc/sensorboard/mqtt.password"\n') in out.stdout
    bad = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--login",
                          str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith(f"install.sh: --login {tmp_path}: no password")


@pytest.mark.parametrize("args,message", [
    (["--board", "chess"], "no config for board 'chess'; boards: "),
    (["--leds", "usb"], "--leds must be spi or pwm, got 'usb'"),
    (["--colour"], "unknown option --colour"),
])
def test_the_install_script_refuses_bad_options_in_one_line(args, message):
    out = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", *args],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("install.sh: ") and message in out.stderr
    assert out.stderr.count("\n") == 1


def test_every_shipped_layout_has_a_service_config_that_loads_with_a_sound_pin_plan():
    from dataclasses import replace

    from hardware.backends import BackendError
    from hardware.pins import check_pins

    configs = {p.stem: p for p in (DEPLOY / "config").glob("*.toml")}
    assert set(configs) == set(shipped_layouts())
    for name, path in configs.items():
        settings = load_config(str(path))
        layout = load_layout(shipped_layouts()[name])
        assert settings["layout"] == name and settings["backend"] == "gpio"
        assert layout.game == settings["game"]
        hardware = settings["hardware"]
        assert hardware.scan == "auto"
        assert hardware.frontend == ("mcp3008" if layout.sensor == "analog" else "pins")
        check_pins(layout, replace(hardware, led_pin="D18"))  # install.sh --leds pwm
        try:
            check_pins(layout, replace(hardware, led_pin="D10"))
            spi = True
        except BackendError:
            spi = False
        out = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--board", name,
                              "--leds", "spi"], capture_output=True, text=True)
        # install.sh --leds spi refuses exactly the boards that could not start with it
        assert (out.returncode == 0) == spi, (name, out.stderr)
        assert spi or out.stderr.startswith(f"install.sh: --leds spi: the {name} board's ")


def test_the_install_script_enables_what_the_front_end_needs():
    def steps(*args):
        return subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", *args],
                              capture_output=True, text=True)

    hall = steps("--board", "teblo-hall")
    assert hall.returncode == 0 and "raspi-config nonint do_spi 0" in hall.stdout
    assert "do_spi" not in steps("--board", "teblo").stdout
    refused = steps("--board", "teblo-hall", "--leds", "spi")
    assert refused.returncode == 2 and refused.stderr == (
        "install.sh: --leds spi: the teblo-hall board's MCP3008s use SPI0; use --leds pwm\n")


def test_under_systemd_it_says_ready_pings_the_watchdog_and_stops_cleanly(tmp_path):
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(60)
    records = tmp_path / "records"
    env = {"PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000",
           "BLINKA_OS_AGNOSTIC": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "sensorboard", "run", "--game", "tessella",
                             "--no-input", "--records", str(records)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        messages = [sock.recv(256).decode()]
        assert messages[0].startswith("READY=1")
        start = time.monotonic()
        while messages.count("WATCHDOG=1") < 3:  # every 0.1 s: half the watchdog period
            messages.append(sock.recv(256).decode())
        assert time.monotonic() - start < 30
        assert proc.poll() is None  # a service runs until it is stopped
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        while "STOPPING=1" not in messages:
            messages.append(sock.recv(256).decode())
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert proc.returncode == 0, err
    assert "record written to" in out
    assert len(list(records.glob("*-tessella-*.txt"))) == 1
    assert (records / "journal.sqlite").exists()  # the game is kept to resume
