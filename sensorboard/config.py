"""The service's config file: which game, board and backend, where records go, the page.

Example (``sensorboard run --config board.toml``; a flag on the command line wins)::

    game = "tessella"
    backend = "gpio"            # sim | gpio | serial
    layout = "/etc/sensorboard/tessella.toml"
    records = "/var/lib/sensorboard/records"
    board = "7"                 # the board's name in records and on MQTT
    mqtt = "mqtt://recorder.local:1883"   # a hall of boards reporting to one recorder

    [options]                   # game options, as --option KEY=VALUE (a flag wins)
    dice = "electronic"         # Telec: the board's die (or "physical": the players')

    [tags]                      # record tags of a new game
    Event = "Club championship"
    Round = "3"

    [web]
    enabled = true
    host = "0.0.0.0"            # on the network: every action needs the token
    port = 8080
    token = "change-me"

    [hardware]                  # how the board is driven; every key has a default
    scan_period = 0.002         # seconds between two scans
    debounce = 0.010            # a sensor must hold a new state this long
    scan = "auto"               # auto | group (lgpio) | per-pin (RPi.GPIO API)
    settle_s = 5e-6             # wait after driving a row
    pull = "down"               # down: the Pi's pull-downs; off: resistors on the board
    brightness = 0.3            # LED brightness, 0..1
    led_budget_a = 2.0          # the LEDs' current budget (frames dimmed to fit)
    palette = "standard"        # or "colour-blind"
    frontend = "pins"           # pins | mcp23017 | mcp3008 (docs/hardware.md)

A fault is one :class:`ConfigError` naming the file, the key and what is wrong.
"""

from __future__ import annotations

import rules
from boards import hints
from boards.layout import read_toml
from hardware.backends import HardwareConfig, backend_names, hardware_config
from sensorboard.clocks import TimeControl, TimeControlError

TOP = {"game": str, "backend": str, "layout": str, "records": str, "board": str,
       "mqtt": str}
WEB = {"enabled": bool, "host": str, "port": int, "token": str}


class ConfigError(ValueError):
    pass


def load_config(path: str) -> dict:
    """The settings of ``path`` as ``run`` options: game, backend, layout, records, web,
    host, port, token, hardware (a HardwareConfig), tags, options (game options, checked
    once the game is known) (only those the file sets)."""
    data = read_toml(path, ConfigError)
    web = data.pop("web", {})
    if not isinstance(web, dict):
        raise _fail(path, "web", "must be a table ([web])")
    hardware = _hardware(path, data.pop("hardware", None))
    options = _options(path, data.pop("options", {}))
    tags = _tags(path, data.pop("tags", {}))
    settings = _check(path, data, TOP, "")
    web = _check(path, web, WEB, "web.")
    if "game" in settings and settings["game"] not in rules.GAMES:
        raise _fail(path, "game", f"unknown game {settings['game']!r}; valid games: "
                                  f"{', '.join(sorted(rules.GAMES))}")
    if "backend" in settings and settings["backend"] not in backend_names():
        raise _fail(path, "backend", f"unknown backend {settings['backend']!r}; valid "
                                     f"backends: {', '.join(backend_names())}")
    if "port" in web and not 1 <= web["port"] <= 65535:
        raise _fail(path, "web.port", f"must be 1..65535, got {web['port']}")
    if "enabled" in web:
        settings["web"] = web.pop("enabled")
    settings.update(web)
    if hardware is not None:
        settings["hardware"] = hardware
    if tags:
        settings["tags"] = {k: str(v) for k, v in tags.items()}
    if options:
        settings["options"] = {k: str(v) for k, v in options.items()}
    return settings


def _fail(path: str, key: str, what: str) -> ConfigError:
    return ConfigError(f"{path}: {key}: {what}")


def _check(path: str, table: dict, kinds: dict, prefix: str) -> dict:
    """``table``'s keys, each known to ``kinds`` and of its type there."""
    out = {}
    for key, value in table.items():
        name = prefix + key
        if key not in kinds:
            raise _fail(path, name, f"unknown key; valid keys: {', '.join(kinds)}")
        kind = kinds[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise _fail(path, name, f"must be {'a whole number' if kind is int else kind.__name__}"
                                    f", got {value!r}")
        out[key] = value
    return out


def _hardware(path: str, table: object) -> HardwareConfig | None:
    """The [hardware] table as a HardwareConfig (None without one)."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise _fail(path, "hardware", "must be a table ([hardware])")
    try:
        hardware = hardware_config(table)
        hints.palette(hardware.palette, hardware.colours)
    except ValueError as e:
        raise ConfigError(f"{path}: hardware.{e}") from None
    return hardware


def _options(path: str, table: object) -> dict:
    """The [options] table, its values text or whole numbers."""
    if not isinstance(table, dict):
        raise _fail(path, "options", "must be a table ([options])")
    for key, value in table.items():
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise _fail(path, f"options.{key}", f"must be text or a whole number, got {value!r}")
    return table


def _tags(path: str, table: object) -> dict:
    """The [tags] table, its values text (or numbers), its TimeControl one that parses."""
    if not isinstance(table, dict):
        raise _fail(path, "tags", "must be a table ([tags])")
    for key, value in table.items():
        if not isinstance(value, str | int):
            raise _fail(path, f"tags.{key}", f"must be text, got {value!r}")
    try:
        TimeControl.parse(str(table.get("TimeControl", "")))
    except TimeControlError as e:
        raise _fail(path, "tags.TimeControl", str(e).removeprefix("TimeControl ")) from None
    return table
