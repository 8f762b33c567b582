"""The sensorboard command: run a board, replay recorded events, start a layout."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import rules
from boards.layout import LayoutError, layout_for_game, load_layout, shipped_layouts
from hardware.backends import BackendError, HardwareConfig, backend_names
from sensorboard.config import ConfigError
from sensorboard.folderlock import FolderBusy, FolderLock
from sensorboard.service import ServiceError


class UsageError(Exception):
    pass


MAX_BOUNCE = 0.1  # seconds; a reed switch bounces for a few milliseconds


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message}")


DESCRIPTION = ("Reads a game board with a sensor under every cell, checks each move\n"
               "against the rules, lights the LEDs and records the game.")
EXAMPLES = """examples:
  sensorboard run --game tessella --backend sim --web    play on the simulated board
  sensorboard run --game tessella --demo --web           watch the bundled demo game
  sensorboard replay --game tessella events.jsonl        run recorded events
  sensorboard layout-template --game teblo > board.toml  start a layout for a new board
  sensorboard recorder --broker mqtt://127.0.0.1:1883   gather a hall of boards' games
  sensorboard export recorder.sqlite --round 3          a round's records

'sensorboard COMMAND --help' explains each command."""
RUN_TEXT = ("Run the live service on a board. Unless --no-input or --demo, commands are "
            "read from standard input, one a line: lift CELL, place CELL, "
            "press clock|hint|takeback, choose OPTION, setup SIDE CELL=FIGURE ... (or a "
            "setup file; before the first move), quit.")


def build_parser() -> Parser:
    parser = Parser(prog="sensorboard", description=DESCRIPTION, epilog=EXAMPLES,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser,
                                metavar="COMMAND")
    _add_replay_command(sub)
    _add_run_command(sub)
    _add_recorder_command(sub)
    _add_export_command(sub)
    _add_bring_up_commands(sub)
    _add_wiring_diagram_command(sub)
    _add_layout_template_command(sub)
    return parser


def _add_game_arguments(p: argparse.ArgumentParser) -> None:
    """--game (required), --layout and --option, as replay and wiring-diagram take them."""
    p.add_argument("--game", required=True, help=f"one of {', '.join(sorted(rules.GAMES))}")
    p.add_argument("--layout", help="board layout TOML (default: the shipped one)")
    _add_option_argument(p)


def _add_option_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. dice=electronic (Telec), rank_stones=5 "
                   "(Tulaga); may be given more than once")


def _add_replay_command(sub: argparse._SubParsersAction) -> None:
    rp = sub.add_parser("replay", help="run JSON-lines events through the whole pipeline",
                        description="Run recorded events (JSON lines) through the whole "
                        "pipeline on a virtual clock; print one JSON line per move, error "
                        "and question, then the final position.")
    _add_game_arguments(rp)
    rp.add_argument("--setup", metavar="FILE", help="the start setup (tesulda: each side's "
                    "figures; default: the game's default pattern)")
    rp.add_argument("events", help="events file (JSON lines), or - for standard input")
    rp.add_argument("--bounce", type=float, default=0.003,
                    help=f"switch bounce, seconds (0 to {MAX_BOUNCE:g}; default 0.003)")
    rp.add_argument("--time-control", metavar="TC", help="run the game clock (e.g. 600+5, "
                    "600d5, 40/5400+30:1800+30): prints a clock line at each change")
    rp.add_argument("--seed", type=int, default=0, help="fixes the simulated contacts' "
                    "bounce and the electronic die's rolls (default 0)")


def _add_run_command(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run the live service on a board", description=RUN_TEXT)
    run.add_argument("--config", help="config file (TOML); flags given here win")
    run.add_argument("--game", help=f"one of {', '.join(sorted(rules.GAMES))}")
    run.add_argument("--layout", help="board layout TOML, or a shipped layout's name "
                     "(default: the game's shipped one)")
    _add_option_argument(run)
    run.add_argument("--backend", help=f"one of {', '.join(backend_names())} (default sim)")
    run.add_argument("--setup", metavar="FILE", help="the start setup of a new game "
                     "(tesulda: each side's figures; default: the game's default pattern)")
    run.add_argument("--seed", type=int, help="fixes the electronic die's rolls "
                     "(--option dice=electronic); default: a new sequence every run")
    run.add_argument("--demo", action="store_true", help="play the bundled demo game")
    run.add_argument("--opponent", metavar="WHO", help="a side played from elsewhere: "
                     "engine[:LEVEL] (the board's engine, LEVEL 1-5, default 2), page (a "
                     "person on the web page) or board:NAME (another board)")
    run.add_argument("--opponent-side", metavar="PLAYER",
                     help="the side the opponent plays (default: the game's second player)")
    run.add_argument("--pair", metavar="CODE", help="with --opponent board:NAME: the pairing "
                     "code board NAME shows (without it this board makes one; docs/remote.md)")
    run.add_argument("--speed", type=float, default=1.0,
                     help="demo speed, more than 0 (default 1: real time; 2: twice as fast)")
    run.add_argument("--records", help="folder for the journal and game records "
                     "(default records)")
    run.add_argument("--board", help="this board's name in records and on MQTT "
                     "(kept in the journal)")
    run.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE",
                     help="a record tag for a new game, e.g. --tag Round=3 --tag White='A. Lee'")
    run.add_argument("--mqtt", metavar="URL", help="publish the journal to a broker, e.g. "
                     "mqtt://recorder.local:1883 (a hall of boards, one recorder)")
    run.add_argument("--new", action="store_true",
                     help="start a new game even if the journal holds an unfinished one")
    run.add_argument("--no-input", action="store_true", help="do not read commands from stdin")
    run.add_argument("--web", action="store_true", default=None,
                     help="serve the board as a web page (live view and simulator)")
    run.add_argument("--host",
                     help="address the page listens on (default 127.0.0.1, this machine only)")
    run.add_argument("--port", help="port of the page (default 8080); with --backend "
                     "serial a name instead of a number is the serial port, as --serial-port")
    run.add_argument("--serial-port", help="the serial backend's board: a path, serial=NUMBER, "
                     "VID:PID, auto (default) or emulator (the firmware on a simulated board)")
    run.add_argument("--token", help="token every action on the page needs "
                     "(required with a network --host)")
    run.set_defaults(hardware=None)  # the config file's [hardware] table


def _add_recorder_command(sub: argparse._SubParsersAction) -> None:
    rec = sub.add_parser("recorder", help="gather every board's games from an MQTT broker")
    rec.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                     help="the broker's URL, with the recorder's login on a secured hall: "
                     "mqtts://recorder-1@HOST:8883?ca=FILE&password_file=FILE (docs/hall.md)")
    rec.add_argument("--arbiter", metavar="URL", help="the broker's URL with an arbiter's "
                     "login: corrections are sent with it (required on a hall with logins)")
    rec.add_argument("--store", default="recorder.sqlite", help="SQLite file of all games, "
                     "or a PostgreSQL database's postgresql:// URL")
    rec.add_argument("--share", metavar="GROUP", help="share the load with the other "
                     "recorders of GROUP (MQTT shared subscription; one PostgreSQL store)")
    rec.add_argument("--name", help="the recorder's MQTT client id (default "
                     "sensorboard-recorder; each recorder of a group its own)")
    rec.add_argument("--host", default="127.0.0.1", help="address of the overview page")
    rec.add_argument("--port", type=int, default=8090, help="port of the overview page")
    rec.add_argument("--token", help="the arbiter's token for corrections")
    rec.add_argument("--pairings", metavar="FILE", help="the pairing file (CSV: round, board, "
                     "white, black), shown on each board of the broadcast")


def _add_export_command(sub: argparse._SubParsersAction) -> None:
    ex = sub.add_parser("export", help="a round's records (or its results as CSV)")
    ex.add_argument("store", help="the recorder's store or a board's journal.sqlite")
    ex.add_argument("--round", help="only this round (the Round tag)")
    ex.add_argument("--event", help="only this event (the Event tag)")
    ex.add_argument("--csv", action="store_true", help="the results table instead")


def _add_bring_up_commands(sub: argparse._SubParsersAction) -> None:
    """bench, check-wiring and calibrate: the board's config, then each one's own flags."""
    for name, text in (("bench", "measure the board where it stands: scan time, GPIO calls "
                        "per scan, idle CPU against a bare loop, sensor change to LED frame"),
                       ("check-wiring", "bring-up: a live sensor map, the LED chain walked "
                        "cell by cell, a report of stuck, flickering and ghosting sensors"),
                       ("calibrate", "bring-up: thresholds of analog Hall sensors from "
                        "samples of each piece class")):
        bp = sub.add_parser(name, help=text)
        bp.add_argument("--config", help="the service's config file (TOML)")
        bp.add_argument("--game", help=f"one of {', '.join(sorted(rules.GAMES))}")
        bp.add_argument("--layout", help="board layout TOML, or a shipped layout's name")
        bp.add_argument("--backend", help=f"one of {', '.join(backend_names())} (default sim)")
        if name == "check-wiring":
            bp.add_argument("--seconds", type=float, default=30.0,
                            help="how long to watch the sensors (default 30)")
            bp.add_argument("--walk", type=float, default=0.5,
                            help="seconds each LED stays lit in the walk (0: no walk)")
        elif name == "bench":
            bp.add_argument("--seconds", type=float, default=10.0,
                            help="how long each idle loop runs (default 10)")
            bp.add_argument("--scans", type=int, default=2000, help="scans timed")
            bp.add_argument("--games", type=int, default=3,
                            help="seeded games for the sensor change to LED frame time "
                                 "(default 3; 0 skips it)")
        else:
            bp.add_argument("--scans", type=int, default=50, help="readings per class")


def _add_wiring_diagram_command(sub: argparse._SubParsersAction) -> None:
    wd = sub.add_parser("wiring-diagram", help="print a layout's wiring diagram (SVG)")
    _add_game_arguments(wd)
    wd.add_argument("--config", help="a service config whose [hardware] front end (MCP23017 "
                    "expanders, MCP3008 ADCs) and LED pin the diagram shows")


def _add_layout_template_command(sub: argparse._SubParsersAction) -> None:
    tp = sub.add_parser("layout-template", help="print a starting layout for a new board",
                        description="Print a layout (TOML) for a new board of GAME: every "
                        "cell with a sensor address and an LED index to edit.")
    tp.add_argument("--game", required=True, help=f"one of {', '.join(sorted(rules.GAMES))}")
    tp.add_argument("--name", help="the board's name")


def _layout(args):
    game = args.game
    if game not in rules.GAMES:
        raise UsageError(f"unknown game {game!r}; valid games: {', '.join(sorted(rules.GAMES))}")
    shipped = shipped_layouts()
    if args.layout in shipped:  # a shipped layout by name, e.g. "teblo-hall"
        layout = load_layout(shipped[args.layout])
    else:
        layout = load_layout(args.layout) if args.layout else layout_for_game(game)
    if layout.game != game:
        raise UsageError(f"{layout.path}: this layout is made for {layout.game}, not {game}; "
                         f"use --game {layout.game} or a {game} layout")
    return layout


def new_state(args) -> tuple[rules.GameState, dict]:
    """The start position with the game's options, and the board's options (dice)."""
    from sensorboard.options import start

    return start(args.game, args.option)


def read_setup(args) -> None:
    """``--setup FILE``: read and check the file, then pass it on as the game option
    ``setup`` (kept in the journal with the other options)."""
    if not args.setup:
        return
    path = args.setup
    from sensorboard.options import takes_setup

    if not takes_setup(args.game):
        raise UsageError(f"--setup: {args.game} starts from its fixed position and takes "
                         "no setup")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read the setup file: {e}") from None
    try:
        rules.new_game(args.game, setup=text)
    except rules.RulesError as e:
        raise UsageError(f"{path}: {e}") from None
    args.option.append(f"setup={text}")


def cmd_replay(args) -> int:
    from sensorboard.replay import parse_events, replay

    if not 0 <= args.bounce <= MAX_BOUNCE:  # also refuses nan
        raise UsageError(f"sensorboard replay: --bounce {args.bounce:g}: the switch bounce "
                         f"is 0 to {MAX_BOUNCE:g} seconds")
    check_time_control(args.time_control, "sensorboard replay: --time-control")
    layout = _layout(args)
    read_setup(args)
    state, board_opts = new_state(args)
    where = "<stdin>" if args.events == "-" else args.events
    try:
        f = sys.stdin if args.events == "-" else open(args.events, encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise UsageError(f"{where}: cannot read: {e.strerror}") from None
    with f:
        try:
            lines = f.readlines()
        except UnicodeDecodeError as e:
            raise UsageError(f"{where}: not UTF-8 text ({e.reason})") from None
    events = parse_events(lines, where, state.GEOMETRY.names, state.PLAYERS)

    def emit(item: dict) -> None:
        print(json.dumps(item), flush=True)

    def warn(message: str) -> None:
        print(f"sensorboard: {message}", file=sys.stderr, flush=True)

    emit(replay(state, layout, events, where, emit, bounce=args.bounce, seed=args.seed,
                warn=warn, dice=board_opts.get("dice", "physical"),
                time_control=args.time_control))
    return 0


RUN_DEFAULTS = {"backend": "sim", "records": "records", "web": False, "host": "127.0.0.1",
                "port": 8080, "token": None, "layout": None, "game": None, "board": None,
                "mqtt": None, "hardware": None}


def parse_tags(pairs: list[str], base: dict[str, str]) -> dict[str, str]:
    """``KEY=VALUE`` flags over the config's [tags]."""
    tags = dict(base)
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.isidentifier():
            raise UsageError(f"--tag {pair!r}: expected KEY=VALUE, e.g. Round=3")
        tags[key] = value
    if any(pair.partition("=")[0] == "TimeControl" for pair in pairs):
        check_time_control(tags["TimeControl"], "--tag TimeControl")
    return tags


def check_time_control(text: str | None, where: str) -> None:
    """A TimeControl tag the board's clock can run, or a one-line error naming it."""
    from sensorboard.clocks import TimeControl, TimeControlError

    try:
        TimeControl.parse(text or "")
    except TimeControlError as e:
        raise UsageError(f"{where}: {e}") from None


def settle_run_options(args) -> None:
    """Flags given on the command line, else the config file, else the defaults."""
    from sensorboard.config import load_config

    settings = load_config(args.config) if args.config else {}
    records_key = f"{args.config}: records" if args.records is None and "records" in settings \
        else "records"
    if args.port is not None and not args.port.isdigit():
        serial_port(args, args.backend or settings.get("backend", RUN_DEFAULTS["backend"]))
    if args.port is not None:
        args.port = int(args.port)
    for key, default in RUN_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, settings.get(key, default))
    args.tags = parse_tags(args.tag, settings.get("tags", {}))
    if args.mqtt:
        from sensorboard.mqtt import MqttUrlError, parse_url

        try:
            parse_url(args.mqtt)
        except MqttUrlError as e:
            raise UsageError(str(e)) from None
    if args.game is None:
        raise UsageError("sensorboard run: --game is required (or 'game' in the config file)")
    args.option = [*config_options(args, settings.get("options", {})), *args.option]
    from sensorboard.options import die_seed, start

    first, _ = start(args.game, args.option)  # every value the game takes, before anything is made
    args.opponent = against(args, first)
    paired(args)
    if args.backend not in backend_names():
        raise UsageError(f"unknown backend {args.backend!r}; valid backends: "
                         f"{', '.join(backend_names())}")
    if not 1 <= args.port <= 65535:
        raise UsageError(f"sensorboard run: --port {args.port}: a port is 1..65535")
    if not args.speed > 0:  # also refuses nan
        raise UsageError(f"sensorboard run: --speed {args.speed:g}: the demo speed must be "
                         "more than 0 (1 is real time, 2 twice as fast)")
    if args.serial_port is not None:
        args.hardware = replace(args.hardware or HardwareConfig(), serial_port=args.serial_port)
    if args.seed is not None or (args.command == "run" and not (args.hardware
                                                                 and args.hardware.seed)):
        # the electronic die rolls from the hardware's seed: --seed, else a new one a run
        args.hardware = replace(args.hardware or HardwareConfig(), seed=die_seed(args.seed))
    fault = records_fault(args.records)
    if fault:
        raise UsageError(f"{records_key}: cannot write game records in {args.records} "
                         f"({fault})")


def against(args, state: rules.GameState):
    """``--opponent`` and ``--opponent-side`` as a :class:`sensorboard.opponent.Choice`
    (None without ``--opponent``)."""
    from sensorboard.opponent import ChoiceError, parse_choice

    if args.opponent is None:
        if args.opponent_side is not None:
            raise UsageError("--opponent-side: give --opponent too (engine, page or board:NAME)")
        return None
    try:
        choice = parse_choice(args.opponent, args.opponent_side)
        choice.side_in(state)
    except ChoiceError as e:
        raise UsageError(str(e)) from None
    return choice


def paired(args) -> None:
    """``--opponent board:NAME`` needs a broker, a name other than this board's and a
    well-formed ``--pair`` code (made canonical here); ``--pair`` needs it."""
    from sensorboard.remote import PairingError, check_name, normal_code

    choice = args.opponent
    if choice is None or choice.kind != "board":
        if args.pair is not None:
            raise UsageError("--pair: a pairing code goes with --opponent board:NAME")
        return
    try:
        check_name(choice.name, f"--opponent board:{choice.name}:")
        args.pair = None if args.pair is None else normal_code(args.pair)
    except PairingError as e:
        raise UsageError(str(e)) from None
    if not args.mqtt:
        raise UsageError(f"--opponent board:{choice.name}: give --mqtt URL, the broker both "
                         "boards reach (docs/remote.md)")
    from sensorboard.options import split_options

    if split_options(args.game, args.option)[1].get("dice") == "electronic":
        raise UsageError(f"--opponent board:{choice.name}: each board's electronic die would "
                         "roll its own; play with dice=physical (the other board's roll is "
                         "part of its turn)")
    if choice.name == args.board:
        raise UsageError(f"--opponent board:{choice.name}: that is this board's own name")


def serial_port(args, backend: str) -> None:
    """``--port NAME`` names the serial backend's board (as ``--serial-port``); with any
    other backend the port is the page's, a number."""
    if backend != "serial":
        raise UsageError(f"sensorboard run: --port {args.port}: the page's port is a number "
                         "1..65535 (a serial port name goes with --backend serial)")
    if args.serial_port is not None:
        raise UsageError("sensorboard run: --port names a serial port and so does "
                         "--serial-port; give one")
    args.serial_port, args.port = args.port, None


def config_options(args, options: dict[str, str]) -> list[str]:
    """The config file's [options] as ``KEY=VALUE`` (those no ``--option`` flag gives),
    each checked for the game: a fault names the file and the key."""
    from sensorboard.options import OptionError, start

    flagged = {pair.partition("=")[0].strip() for pair in args.option}
    pairs = []
    for key, value in options.items():
        if key in flagged:
            continue
        try:
            start(args.game, [f"{key}={value}"])
        except OptionError as e:
            why = str(e).removeprefix(f"option {key}: ").removeprefix(f"option {key!r}: ")
            why = why.removeprefix("option: ")
            raise UsageError(f"{args.config}: options.{key}: {why}") from None
        pairs.append(f"{key}={value}")
    return pairs


def records_fault(folder: str) -> str | None:
    """Why game records cannot be written in ``folder`` (created if missing), or None.
    Checked before anything starts, and nothing is created here."""
    probe = Path(folder).absolute()
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} is not writable"
    return None


def cmd_run(args) -> int:
    from sensorboard.live import run_live

    settle_run_options(args)
    if args.setup and args.demo:
        raise UsageError("--setup: the demo plays its game from the default setup; give one "
                         "of them")
    read_setup(args)
    layout = _layout(args)
    try:
        with FolderLock(args.records):  # one run per records folder
            if not args.web:
                return run_live(args, layout)
            from sensorboard.web import WebError, run_web

            try:
                return run_web(args, layout)
            except WebError as e:
                raise UsageError(str(e)) from None
    except FolderBusy as e:
        raise UsageError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    from sensorboard.options import OptionError
    from sensorboard.replay import InputError

    try:
        args = build_parser().parse_args(argv)
        if args.command == "replay":
            return cmd_replay(args)
        if args.command in ("recorder", "export"):
            from sensorboard.recorder import command

            return command(args)
        if args.command in ("check-wiring", "calibrate", "bench"):
            from sensorboard.bringup import run_bringup

            base = build_parser().parse_args(["run"])  # run's options, as in the config
            base.__dict__.update({k: v for k, v in vars(args).items() if v is not None})
            args = base
            settle_run_options(args)
            if getattr(args, "seconds", 1) <= 0 or getattr(args, "scans", 1) < 1:
                raise UsageError(f"sensorboard {args.command}: --seconds must be > 0 and "
                                 "--scans at least 1")
            if args.command == "bench":
                from sensorboard.benchcmd import run_bench

                return run_bench(args, _layout(args))
            return run_bringup(args, _layout(args))
        if args.command == "wiring-diagram":
            from sensorboard.config import load_config
            from sensorboard.wiring import wiring_svg

            hardware = load_config(args.config).get("hardware") if args.config else None
            print(wiring_svg(_layout(args), hardware), end="")
            return 0
        if args.command == "layout-template":
            from boards.template import template

            print(template(rules.game_module(args.game).NAME, args.name), end="")
            return 0
        return cmd_run(args)
    except (UsageError, LayoutError, InputError, ServiceError, BackendError, ConfigError,
            OptionError, rules.RulesError) as e:
        print(f"sensorboard: {e}" if not str(e).startswith("sensorboard") else str(e),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`sensorboard replay ... | head`): stop quietly, as a Unix
        # tool does, and keep Python from complaining about the closed pipe at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
