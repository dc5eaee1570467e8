"""Phones at the table, for tests: a phone joins with its link and then reads and asks like a person.

``Phone`` wraps an aiohttp test client (one cookie jar per phone). ``LiveTable`` runs a real
PhoneServer on 127.0.0.1 in a background thread with its own loop, for the browser, the fuzzer and
the command-line tests.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request
from typing import Any

from companion.web.server import PhoneServer

#: Headless Chromium for the phone-page tests: no sandbox (root in CI), no GPU, nothing fetched from outside.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy


class Phone:
    """One phone: ``await phone.join("Ann")``, ``await phone.page()``, ``await phone.ask("Bob", 50)``."""

    def __init__(self, client, server: PhoneServer) -> None:
        self.client = client
        self.server = server

    @property
    def origin(self) -> str:
        return str(self.client.make_url("/")).rstrip("/")

    async def join(self, who: str):
        """Open the join link of a player (or "banker"), as a scan of the QR code would."""
        token = self.server.tokens.for_banker() if who == "banker" else self.server.tokens.for_player(who)
        return await self.client.get(f"/j/{token}", allow_redirects=False)

    async def get(self, path: str, **kw):
        return await self.client.get(path, **kw)

    async def post(self, path: str, body: Any = None, *, origin: bool = True, headers: dict | None = None, **kw):
        """A JSON POST as the page's own script sends it (with the page's Origin)."""
        h = {"Content-Type": "application/json"}
        if origin:
            h["Origin"] = self.origin
        h.update(headers or {})
        data = kw.pop("data", None)
        if data is None:
            data = json.dumps(body if body is not None else {})
        return await self.client.post(path, data=data, headers=h, **kw)

    async def page(self) -> dict:
        r = await self.client.get("/api/v1/state")
        assert r.status == 200, await r.text()
        return await r.json()

    async def ask(self, to: str, amount, memo: str = "", **extra):
        return await self.post("/api/v1/requests", {"to": to, "amount": amount, "memo": memo, **extra})


class LiveTable:
    """A PhoneServer listening on 127.0.0.1 on its own loop thread; ``stop()`` when done."""

    def __init__(self, banker, **options) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="phone-server", daemon=True)
        self.thread.start()
        options.setdefault("advertise", False)
        options.setdefault("lan_address", "127.0.0.1")

        async def make() -> PhoneServer:
            server = PhoneServer(banker, "127.0.0.1", 0, **options)
            await server.start()
            return server

        self.server: PhoneServer = self.run(make())

    def restart(self) -> None:
        """Stop the server and start a new one on the same port, as when the app restarts."""
        old = self.server
        self.run(old.stop())
        self.call(old.close)

        async def make() -> PhoneServer:
            server = PhoneServer(old.banker, "127.0.0.1", old.port, advertise=False, lan_address="127.0.0.1")
            await server.start()
            return server

        self.server = self.run(make())

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn, *args, **kwargs):
        """Call ``fn`` on the server's loop (the Banker's owner) and return its result."""

        async def go():
            return fn(*args, **kwargs)

        return self.run(go())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def token(self, who: str) -> str:
        return self.call(
            lambda: self.server.tokens.for_banker() if who == "banker" else self.server.tokens.for_player(who)
        )

    def banker_do(self, action: dict) -> dict:
        """Apply an action through the banker's JSON API (a Bearer token, as a script would)."""
        req = urllib.request.Request(
            f"{self.base}/api/v1/actions",
            data=json.dumps(action).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token('banker')}"},
        )
        with _DIRECT.open(req, timeout=10) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        try:
            self.run(self.server.stop())
            self.call(self.server.close)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
