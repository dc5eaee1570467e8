"""The Pi's address on the table's local network, and the host names phones may use to reach it.

The QR codes hold ``http://<LAN IPv4>:<port>/...``. The address is found without sending a packet:
``connect()`` on a UDP socket only asks the kernel which interface would route to a private address
(nothing goes on the wire); if that fails the interfaces are read with ``ifaddr``. An explicit
address (``--lan-address``, or ``COMPANION_LAN_ADDRESS``) always wins.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import re
import socket

__all__ = ["lan_ipv4", "allowed_hosts", "host_of"]

_PROBE = "10.254.254.254"  # any private address: the kernel picks the route, no packet is sent
_VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "tun", "tap", "wg", "zt")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return ip.is_private and not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified


def _by_route() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((_PROBE, 9))
            address = s.getsockname()[0]
    except OSError:
        return None
    return address if _usable(address) else None


def _by_interfaces() -> str | None:
    try:
        import ifaddr  # installed with zeroconf
    except ImportError:  # pragma: no cover
        return None
    found = []
    for adapter in ifaddr.get_adapters():
        name = adapter.nice_name or adapter.name or ""
        if name.startswith(_VIRTUAL):
            continue
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and _usable(ip.ip):
                # prefer wired, then wireless, then anything else private
                rank = 0 if name.startswith(("eth", "en")) else 1 if name.startswith(("wl", "wlan")) else 2
                found.append((rank, ip.ip))
    return min(found)[1] if found else None


def lan_ipv4(override: str | None = None) -> str:
    """The IPv4 address phones should use; 127.0.0.1 when the Pi has no network at all."""
    chosen = override or os.environ.get("COMPANION_LAN_ADDRESS")
    if chosen:
        ipaddress.IPv4Address(chosen)  # refuse a typo early: ValueError with the bad text
        return chosen
    return _by_route() or _by_interfaces() or "127.0.0.1"


_SPACE = re.compile(r"\s")  # what str.isspace calls a space, anywhere


def host_of(header: str | None) -> str | None:
    """The host part of a Host header (port dropped, IPv6 brackets kept), lower-cased; None if malformed."""
    if not header or len(header) > 255:
        return None
    return _host_of(header)


@functools.lru_cache(maxsize=64)  # every request asks; a phone sends the same header every time
def _host_of(header: str) -> str | None:
    if _SPACE.search(header):
        return None
    header = header.lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        rest = header[end + 1 :]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return header[: end + 1]
    host, sep, port = header.partition(":")
    if sep and not port.isdigit():
        return None
    return host.rstrip(".") or None


def allowed_hosts(lan_address: str, bind_host: str | None = None, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """Names a phone's browser may put in the Host header: anything else is a DNS-rebinding attempt.

    The LAN address, the bind address (when specific), the machine's name and its ``.local`` mDNS
    name, and localhost in its spellings.
    """
    name = socket.gethostname().split(".")[0].lower()
    hosts = {"localhost", "127.0.0.1", "[::1]", lan_address.lower(), name, f"{name}.local"}
    if bind_host and bind_host not in ("0.0.0.0", "::", ""):
        hosts.add(bind_host.lower() if ":" not in bind_host else f"[{bind_host.lower()}]")
    hosts.update(h.lower().rstrip(".") for h in extra if h)
    return frozenset(hosts)
