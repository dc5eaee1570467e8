"""Rate limits: token buckets keyed by who is asking, with time as a parameter (tests need no sleeping).

Two uses: wrong join tokens (someone guessing links gets 429 long before a guess could succeed:
:class:`Guessing`), and requests per token holder (a stuck phone cannot flood the Pi). The address is
only ever used to slow guessing down, never to grant anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["EVERY_GAME", "Bucket", "Guessing", "Limiter", "Limits"]


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

    def until_full(self, now: float) -> float:
        """Seconds until the bucket is full again (0 when it is)."""
        self._fill(now)
        return (self.capacity - self.level) / self.rate


class Limiter:
    """Buckets by key, forgetting the full ones now and then so memory stays small.

    ``buckets``: the keys that used something lately (a key not in it has its whole budget); read it,
    never change it."""

    def __init__(self, capacity: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = per_second
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}
        self._last_sweep = clock()

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        for key, b in list(self.buckets.items()):
            b._fill(now)
            if b.level >= b.capacity:
                del self.buckets[key]

    def allow(self, key: str) -> bool:
        """Take one from ``key``'s bucket; False when it is empty (answer 429)."""
        now = self.clock()
        if now - self._last_sweep > 60:
            self._sweep(now)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.capacity, self.rate, self.capacity, now)
        return bucket.take(now)

    def blocked(self, key: str) -> bool:
        """True while ``key``'s bucket is empty, without taking anything."""
        bucket = self.buckets.get(key)
        return bucket is not None and bucket.empty(self.clock())

    def retry_after(self, key: str) -> int:
        bucket = self.buckets.get(key)
        return max(1, round(bucket.wait(self.clock()))) if bucket else 1

    def used(self, key: str) -> bool:
        """True while ``key``'s bucket is not full: it took something within the refill time."""
        bucket = self.buckets.get(key)
        return bucket is not None and bucket.until_full(self.clock()) > 0

    def until_full(self, key: str) -> int:
        """Whole seconds until ``key``'s bucket is full again (at least 1)."""
        bucket = self.buckets.get(key)
        return max(1, round(bucket.until_full(self.clock()))) if bucket else 1


@dataclass
class Limits:
    """The server's limits; tests and benchmarks may loosen or tighten them."""

    bad_tokens: int = 10  # wrong tokens one address may try ...
    bad_token_refill: float = 1 / 6  # ... then one more every 6 seconds
    game_bad_tokens: int = 50  # wrong tokens every address together may try on this game ...
    game_bad_token_refill: float = 0.5  # ... then one more every 2 seconds (see Guessing)
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
    every_game: Limiter | None = field(default=None, repr=False)  # wrong tokens on every game (EVERY_GAME)

    def make(self) -> tuple[Limiter, Limiter]:
        """(player requests, banker requests); wrong tokens are :class:`Guessing`'s."""
        return (
            Limiter(self.player_burst, self.player_rate, self.clock),
            Limiter(self.banker_burst, self.banker_rate, self.clock),
        )

    def plays(self) -> Limiter:
        """Players' own actions per player: every commit and approval counts, refused or not."""
        return Limiter(self.plays_burst, self.plays_per_minute / 60, self.clock)

    def asks(self) -> Limiter:
        """Payment requests per player: every ask counts, whatever becomes of it."""
        return Limiter(self.asks_burst, self.asks_per_minute / 60, self.clock)


#: Wrong join tokens on every game this process serves, one after another or side by side.
EVERY_GAME = Limiter(200, 1.0)


class Guessing:
    """Wrong join tokens, counted per device address, per game, and on every game of this process.

    A token is only *tried* (looked up) when its sender may guess now:

    * an address that guessed wrong too often waits (**429**) - its own budget, ``bad_tokens``, refills
      slowly (``bad_token_refill``);
    * while the game's budget (``game_bad_tokens``) or every game's (:data:`EVERY_GAME`) is spent, a
      guesser spread over many addresses is slowed the same way: an address that guessed wrong
      recently waits until its own budget is whole again (a back-off of up to a minute).

    A right token is never counted, and an address that has not guessed wrong lately is always tried:
    a flood of guesses from other devices never keeps a player's phone from joining with its code.
    Withdrawn and expired links are known tokens, not guesses, and are not counted either.
    """

    def __init__(self, limits: Limits) -> None:
        self.by_address = Limiter(limits.bad_tokens, limits.bad_token_refill, limits.clock)
        self.game = Limiter(limits.game_bad_tokens, limits.game_bad_token_refill, limits.clock)
        self.every_game = limits.every_game if limits.every_game is not None else EVERY_GAME
        #: The addresses that guessed wrong lately: only they may have to wait (:meth:`wait` is None
        #: for any other), so a right token from anyone else is tried without asking.
        self.suspects = self.by_address.buckets

    def spent(self) -> bool:
        """True while this game's or every game's budget of wrong tokens is used up."""
        return self.game.blocked("game") or self.every_game.blocked("all")

    def wait(self, address: str) -> int | None:
        """Seconds ``address`` must wait before a token it sends is tried; None: try it now."""
        if address not in self.suspects:  # it has not guessed wrong lately
            return None
        if self.by_address.blocked(address):
            return self.by_address.retry_after(address)
        if self.by_address.used(address) and self.spent():
            return self.by_address.until_full(address)
        return None

    def wrong(self, address: str) -> None:
        """``address`` sent a token that is not one of this game's: count it everywhere."""
        self.by_address.allow(address)
        self.game.allow("game")
        self.every_game.allow("all")
