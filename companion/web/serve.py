"""``companion serve GAME``: the phone server without the touchscreen.

For a Pi without a screen, and for tests. It opens the game, prints the banker's link and each
player's link (scan them from the terminal with ``--qr``), serves until Ctrl-C, and picks up actions
written by other programs (``companion do``) as the kernel reports their writes to the game file
(:mod:`companion.watch`), without looking at the file while nothing happens.

Where it listens and whether it announces the table come from the same settings file as the
touchscreen's (``touchscreen.json`` in the data folder: ``host``, ``port``, ``advertise``); the
command's options override them for one run.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # asyncio only once it serves: every `companion` command builds serve's options
    import asyncio

__all__ = ["add_parser", "serve"]


def add_parser(subparsers) -> None:
    """Register ``serve`` on the ``companion`` command's subparsers."""
    s = subparsers.add_parser(
        "serve",
        help="serve the players' phone pages for a game (no touchscreen)",
        description="Serve the players' phone pages for a game, without the touchscreen; prints the banker's and "
        "each player's link and serves until Ctrl-C.",
        epilog="example:\n  companion serve friday.game --host 127.0.0.1 --port 8080",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("game", help="the game file (relative to --data when that is given)")
    s.add_argument(
        "--data",
        default=argparse.SUPPRESS,
        help="folder of games and the touchscreen's settings (default: $COMPANION_DATA or the user data folder)",
    )
    s.add_argument("--host", help="address to listen on (default: the settings' host, else every interface)")
    s.add_argument("--port", type=int, help="port (default: the settings' port, else 8080; 0 picks a free one)")
    s.add_argument(
        "--lan-address",
        help="IPv4 to put in the join links when listening on every interface (default: found automatically)",
    )
    s.add_argument("--no-zeroconf", action="store_true", help="do not announce the table on the network")
    s.add_argument(
        "--zeroconf-interface",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="announce on this interface address; repeat (default: where the server listens)",
    )
    s.add_argument("--name", help='the name phones see when browsing (default "Table Banker on <hostname>")')
    s.add_argument("--qr", action="store_true", help="also draw each link as a QR code in the terminal")
    s.set_defaults(func=run)


def settings_for(args: argparse.Namespace):
    """The touchscreen's settings with this run's options laid over them: (host, port, advertise)."""
    from companion.paths import data_dir
    from companion.settings import UiSettings

    saved = UiSettings.load(data_dir(args.data))
    host = args.host if args.host is not None else saved.host
    port = args.port if args.port is not None else saved.port
    return host, port, saved.advertise and not args.no_zeroconf


async def serve(
    args, *, ready: asyncio.Event | None = None, stop: asyncio.Event | None = None, settle_heap: bool = False
) -> int:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM). ``settle_heap``: this process is the server's
    alone, so once it listens, what start-up built is frozen out of the collector's way
    (:mod:`companion.heap`)."""
    import asyncio

    from companion.qr import qr_terminal
    from companion.service import Banker

    from .server import PhoneServer

    host, port, advertise = settings_for(args)
    banker = Banker.open(args.game)
    banker.settle_in()  # served for the evening: the -wal's room, made before the server's watch starts
    server = PhoneServer(
        banker,
        host,
        port,
        advertise=advertise,
        interfaces=args.zeroconf_interface or None,
        table_name=args.name,
        lan_address=args.lan_address,
        watch=True,
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await server.start()
        out = sys.stdout
        print(f"Serving {banker.meta.get('title', banker.path.name)} at {server.url} (Ctrl-C to stop)", file=out)
        links = [("banker", server.banker_url())] + [(p, server.join_url(p)) for p in banker.table["order"]]
        for who, url in links:
            print(f"  {who}: {url}", file=out)
            if args.qr:
                print(qr_terminal(url), file=out)
        out.flush()
        if settle_heap:
            from companion.heap import settle

            settle()
        if ready is not None:
            ready.set()
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        await server.stop()
        server.close()
        banker.close()
    return 0


def run(args: argparse.Namespace) -> int:
    import asyncio

    try:
        return asyncio.run(serve(args, settle_heap=True))
    except KeyboardInterrupt:
        return 130
