"""``companion serve GAME``: the phone server without the touchscreen.

For a Pi without a screen, and for tests. It opens the game, prints the banker's link and each
player's link (scan them from the terminal with ``--qr``), serves until Ctrl-C, and picks up actions
written by other programs (``companion do``) every half second.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys

__all__ = ["add_parser", "serve"]


def add_parser(subparsers) -> None:
    """Register ``serve`` on the ``companion`` command's subparsers."""
    s = subparsers.add_parser("serve", help="serve the players' phone pages for a game (no touchscreen)")
    s.add_argument("game")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    s.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    s.add_argument("--lan-address", help="IPv4 to put in the join links (default: found automatically)")
    s.add_argument("--no-zeroconf", action="store_true", help="do not announce the table on the network")
    s.add_argument("--zeroconf-interface", action="append", default=[], metavar="ADDRESS",
                   help="announce only on this interface address; repeat (default: all)")
    s.add_argument("--name", help='the name phones see when browsing (default "Table Banker on <hostname>")')
    s.add_argument("--qr", action="store_true", help="also draw each link as a QR code in the terminal")
    s.set_defaults(func=run)


def _terminal_qr(url: str) -> str:
    from companion.qr import qr_matrix

    rows = qr_matrix(url)
    lines = []
    for y in range(0, len(rows), 2):  # two modules per character cell
        top, bottom = rows[y], rows[y + 1] if y + 1 < len(rows) else [False] * len(rows[y])
        lines.append("".join(" " if not a and not b else "\u2580" if a and not b else "\u2584" if b and not a else "\u2588"
                             for a, b in zip(top, bottom)))
    return "\n".join(lines)


async def serve(args, *, ready: asyncio.Event | None = None, stop: asyncio.Event | None = None) -> int:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM)."""
    from companion.service import WATCH_SECONDS, Banker

    from .server import PhoneServer

    banker = Banker.open(args.game)
    server = PhoneServer(
        banker, args.host, args.port,
        advertise=not args.no_zeroconf,
        interfaces=args.zeroconf_interface or None,
        table_name=args.name,
        lan_address=args.lan_address,
        poll_interval=WATCH_SECONDS,
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
                print(_terminal_qr(url), file=out)
        out.flush()
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
    try:
        return asyncio.run(serve(args))
    except KeyboardInterrupt:
        return 130
