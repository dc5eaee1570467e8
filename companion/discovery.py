"""Zeroconf (mDNS/DNS-SD): the table announces its phone server on the local network.

Phones and laptops browsing for ``_http._tcp`` services find "Table Banker on <hostname>" without
typing an address. The TXT record carries only the page's path - never a join token: anyone on the
network can read it.

Threading: an :class:`Advertisement` lives on the app's asyncio loop; every method is a coroutine
named ``async_*`` or plain ``start``/``stop`` awaited there. ``stop`` sends the goodbye packets and is
safe to call twice.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field
from typing import Sequence

from zeroconf import IPVersion, InterfaceChoice
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

__all__ = ["Advertisement", "SERVICE_TYPE", "table_service_name", "find_table"]

SERVICE_TYPE = "_http._tcp.local."


def table_service_name(label: str | None = None) -> str:
    """The instance name shown to people browsing: "Table Banker on <hostname>" unless given."""
    label = label or f"Table Banker on {socket.gethostname().split('.')[0]}"
    label = " ".join(label.replace(".", " ").split())[:63] or "Table Banker"  # one DNS label, no dots
    return f"{label}.{SERVICE_TYPE}"


@dataclass
class Advertisement:
    """One registered ``_http._tcp`` service for the phone server.

    ``address`` is the IPv4 phones should use; ``interfaces`` limits where mDNS listens and answers
    (``["127.0.0.1"]`` in tests; default: every interface).
    """

    address: str
    port: int
    label: str | None = None
    path: str = "/"
    interfaces: Sequence[str] | None = None
    hostname: str = field(default_factory=lambda: socket.gethostname().split(".")[0])
    _zc: AsyncZeroconf | None = field(default=None, init=False, repr=False)
    _info: AsyncServiceInfo | None = field(default=None, init=False, repr=False)

    @property
    def name(self) -> str:
        """The registered instance name (may gain a " (2)" suffix if the name was taken)."""
        return self._info.name if self._info else table_service_name(self.label)

    async def start(self) -> None:
        """Register the service; returns once the announcements are sent (a second or two)."""
        if self._zc is not None:
            return
        interfaces = list(self.interfaces) if self.interfaces else InterfaceChoice.All
        self._zc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self._info = AsyncServiceInfo(
            SERVICE_TYPE,
            table_service_name(self.label),
            addresses=[socket.inet_aton(self.address)],
            port=self.port,
            properties={"path": self.path},
            server=f"{self.hostname}.local.",
        )
        try:
            waiter = await self._zc.async_register_service(self._info, allow_name_change=True)
            await waiter
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Unregister (goodbye packets) and close; safe to call twice."""
        zc, info = self._zc, self._info
        self._zc = None
        if zc is None:
            return
        try:
            if info is not None:
                waiter = await zc.async_unregister_service(info)
                await waiter
        finally:
            await zc.async_close()


async def find_table(name: str, *, interfaces: Sequence[str] | None = None, timeout: float = 3.0) -> dict | None:
    """Resolve a table's service by instance name: ``{"address", "port", "path", "server"}`` or None."""
    zc = AsyncZeroconf(interfaces=list(interfaces) if interfaces else InterfaceChoice.All, ip_version=IPVersion.V4Only)
    try:
        info = await zc.async_get_service_info(SERVICE_TYPE, name, timeout=int(timeout * 1000))
    finally:
        await zc.async_close()
    if info is None:
        return None
    props = {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()}
    addresses = info.parsed_addresses(IPVersion.V4Only)
    return {
        "address": addresses[0] if addresses else None,
        "port": info.port,
        "path": props.get("path"),
        "server": info.server,
        "properties": props,
    }


async def _demo() -> None:  # pragma: no cover - manual check: python -m companion.discovery
    ad = Advertisement("127.0.0.1", 8080, interfaces=["127.0.0.1"])
    await ad.start()
    print(await find_table(ad.name, interfaces=["127.0.0.1"]))
    await ad.stop()


if __name__ == "__main__":  # pragma: no cover
    asyncio.run(_demo())
