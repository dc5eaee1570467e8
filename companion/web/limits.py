"""Rate limits: token buckets keyed by who is asking, with time as a parameter (tests need no sleeping).

Two uses: wrong join tokens from one network address (someone guessing links gets 429 long before a
guess could succeed), and requests per token holder (a stuck phone cannot flood the Pi). The address is
only ever used to slow guessing down, never to grant anything.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Bucket", "Limiter", "Limits"]


@dataclass
class Bucket:
    """``capacity`` tokens, refilled at ``rate`` per second; each use takes one."""

    capacity: float
    rate: float
    level: float
    stamp: float

    def _fill(self, now: float) -> None:
        if now > self.stamp:
            self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float, n: float = 1.0) -> bool:
        self._fill(now)
        if self.level >= n:
            self.level -= n
            return True
        return False

    def empty(self, now: float) -> bool:
        self._fill(now)
        return self.level < 1.0

    def wait(self, now: float) -> float:
        """Seconds until one token is back."""
        self._fill(now)
        return 0.0 if self.level >= 1 else (1 - self.level) / self.rate


class Limiter:
    """Buckets by key, forgetting the full ones now and then so memory stays small."""

    def __init__(self, capacity: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = per_second
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}
        self._last_sweep = clock()

    def _bucket(self, key: str) -> Bucket:
        now = self.clock()
        if now - self._last_sweep > 60:
            self._sweep(now)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.capacity, self.rate, self.capacity, now)
        return bucket

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        for key, b in list(self._buckets.items()):
            b._fill(now)
            if b.level >= b.capacity:
                del self._buckets[key]

    def allow(self, key: str) -> bool:
        """Take one from ``key``'s bucket; False when it is empty (answer 429)."""
        return self._bucket(key).take(self.clock())

    def blocked(self, key: str) -> bool:
        """True while ``key``'s bucket is empty, without taking anything."""
        bucket = self._buckets.get(key)
        return bucket is not None and bucket.empty(self.clock())

    def retry_after(self, key: str) -> int:
        bucket = self._buckets.get(key)
        return max(1, round(bucket.wait(self.clock()))) if bucket else 1


@dataclass
class Limits:
    """The server's limits; tests and benchmarks may loosen or tighten them."""

    bad_tokens: int = 10  # wrong tokens one address may try ...
    bad_token_refill: float = 1 / 6  # ... then one more every 6 seconds
    player_burst: int = 40  # requests a player's phones may make at once ...
    player_rate: float = 10.0  # ... and per second after that
    banker_burst: int = 200
    banker_rate: float = 100.0
    asks_burst: int = 6  # payment requests a player may make at once, cancelled or not ...
    asks_per_minute: float = 6.0  # ... and per minute after that
    plays_burst: int = 20  # actions a player's phone may commit or approve at once ...
    plays_per_minute: float = 20.0  # ... and per minute after that: a phone cannot flood the table
    streams_per_pass: int = 16  # live streams open at once per token
    request_bytes: int = 16 * 1024  # largest request body (client_max_size)
    header_seconds: float = 10.0  # a connection that has not sent a whole request head by then is closed
    body_seconds: float = 10.0  # ... nor the whole body once the head is in (408)
    connections_per_address: int = 32  # open at once from one device (a phone needs about 8) ...
    connections: int = 512  # ... and from everyone (never more than the open-files limit allows)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    def make(self) -> tuple[Limiter, Limiter, Limiter]:
        """(bad tokens by address, player requests, banker requests)."""
        return (
            Limiter(self.bad_tokens, self.bad_token_refill, self.clock),
            Limiter(self.player_burst, self.player_rate, self.clock),
            Limiter(self.banker_burst, self.banker_rate, self.clock),
        )

    def plays(self) -> Limiter:
        """Players' own actions per player: every commit and approval counts, refused or not."""
        return Limiter(self.plays_burst, self.plays_per_minute / 60, self.clock)

    def asks(self) -> Limiter:
        """Payment requests per player: every ask counts, whatever becomes of it."""
        return Limiter(self.asks_burst, self.asks_per_minute / 60, self.clock)
