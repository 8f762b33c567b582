"""``python -m firmware_bridge info|stop [PORT]``: ask a board what it is, or send it back
to the MicroPython REPL (for ``mpremote``: the bridge switches Ctrl-C off while it runs).

PORT is a path, serial=NUMBER, VID:PID or auto (the default); see firmware_bridge.ports.
"""

from __future__ import annotations

import sys

from firmware_bridge.link import Link
from firmware_bridge.ports import PortError, PortSpec


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ("info", "stop") or len(args) > 2:
        print("usage: python -m firmware_bridge info|stop [PORT]", file=sys.stderr)
        return 2
    try:
        spec = PortSpec.parse(args[1] if len(args) > 1 else "auto")
    except PortError as e:
        print(f"firmware_bridge: {e}", file=sys.stderr)
        return 2
    link = Link(spec, on_error=lambda text: None)
    link.start()
    try:
        if not link.wait_ready(5.0):
            print(f"firmware_bridge: no board answered on {spec}", file=sys.stderr)
            return 2
        hello = link.hello
        print(f"{link.device}: board {hello.board_id}, firmware {hello.firmware}, protocol "
              f"{hello.protocol}, {hello.rows}x{hello.cols} matrix, {hello.leds} LEDs, "
              f"buttons {', '.join(hello.buttons) or 'none'}")
        if args[0] == "stop":
            if not link.stop_firmware():
                print(f"firmware_bridge: the link to {link.device} went down before the stop "
                      "was sent; try again", file=sys.stderr)
                return 2
            print("the bridge has stopped; the REPL is back (mpremote can connect)")
        return 0
    finally:
        link.close(flush=0.0)


if __name__ == "__main__":
    sys.exit(main())
