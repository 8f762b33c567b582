"""Where the page is served: loopback or the network, the address to open, the socket.

A board bound to this machine only (loopback) is served without a token; one served to
the network needs a token for every action (:func:`check_bind`).
"""

from __future__ import annotations

import ipaddress
import socket

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_address(family: int = socket.AF_INET) -> str | None:
    """This machine's address on its network (the one its default route leaves from)."""
    probe = "192.0.2.1" if family == socket.AF_INET else "2001:db8::1"  # documentation nets
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))  # a UDP connect sends nothing; it only picks the route
            return s.getsockname()[0]
    except OSError:
        return None


def url_for(host: str, port: int, token: str | None) -> str:
    """The address to open: on every address (0.0.0.0, ::) the machine's network one."""
    if host in ("0.0.0.0", "::"):
        host = (network_address() or (network_address(socket.AF_INET6) if host == "::"
                                      else None) or "127.0.0.1")
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def listening_socket(host: str, port: int) -> socket.socket:
    """The page's socket, bound and listening; raises OSError when ``host:port`` cannot be
    served (in use, no such address). Taken before the board is set up and held until
    :func:`serve` serves on it, so a port that cannot be had leaves nothing behind."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def check_bind(host: str, token: str | None) -> str | None:
    """An error text when serving on ``host`` would not be safe, else None."""
    if not is_loopback(host) and not token:
        return (f"--host {host} serves the network: give --token TOKEN "
                "(every action on the page will need it)")
    return None
