"""The sd_notify protocol, without libsystemd: one datagram to $NOTIFY_SOCKET.

``notify("READY=1")`` tells systemd (Type=notify) the daemon is up; the watchdog
pings ``WATCHDOG=1`` at half the interval systemd asked for (``WATCHDOG_USEC``).
Outside systemd both do nothing.
"""

from __future__ import annotations

import os
import socket


def notify(message: str, env=os.environ) -> bool:
    """Send one notification; False when not under systemd or the socket is gone."""
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
        return True
    except OSError:
        return False


def watchdog(env=os.environ):
    """(interval seconds, ping) for the loop, or None when systemd set no watchdog for us."""
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        interval = int(usec) / 1e6 / 2
    except ValueError:
        return None
    if interval <= 0:
        return None
    return interval, lambda: notify("WATCHDOG=1", env)
