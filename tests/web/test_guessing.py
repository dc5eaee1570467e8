"""Someone on the Wi-Fi guesses join links from many addresses at once. The guessing is slowed down
per device, per game and on every game the Pi serves, while Ann, whose phone never guessed, still
joins with her code at once.

The guesser's addresses are 127.0.1.x (this machine's loopback), the players' 127.0.0.1; the server
listens on 127.0.0.1 only.
"""

from __future__ import annotations

import socket
from collections import Counter

import pytest

from companion.web.limits import Guessing, Limiter, Limits
from tests.web.phones import LiveTable


def visit(port: int, source: str, path: str) -> int:
    """One GET from ``source``; the status it is answered with."""
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        head = b""
        while b"\r\n" not in head and (chunk := s.recv(4096)):
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_six_hundred_wrong_links_over_sixty_addresses_are_slowed_and_ann_still_joins(table):
    frozen = lambda: 0.0  # noqa: E731 - time stands still: however slowly the machine runs, nothing refills
    live = LiveTable(table.banker, limits=Limits(clock=frozen, every_game=Limiter(200, 1.0, frozen)))
    try:
        port = live.server.port
        ann = live.token("Ann")
        answers: list[int] = []
        for i in range(600):  # round the sixty addresses, ten guesses each
            answers.append(visit(port, f"127.0.1.{1 + i % 60}", f"/j/guess{i:027d}"))
            if i == 300:  # in the middle of it, Ann scans her code
                assert visit(port, "127.0.0.1", f"/j/{ann}") == 303
        counted = Counter(answers)
        assert counted[429] > 400, counted  # each address guessed ten at most, yet most guesses waited
        assert set(counted) == {403, 429}
        first = answers.index(429)
        assert first <= 60, first  # one round of the addresses spends the game's budget
        assert visit(port, "127.0.0.1", f"/j/{ann}") == 303  # and after it, too
        assert visit(port, "127.0.2.9", f"/j/{live.token('Bob')}") == 303  # a phone new to the table too
        assert visit(port, "127.0.1.7", f"/j/{live.token('Cy')}") == 429  # a guesser's right token is not tried
    finally:
        live.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_guesses_on_one_game_slow_the_guesser_on_another_and_back_off_ends():
    clock = Clock()
    every_game = Limiter(5, 1.0, clock)
    sunday = Guessing(Limits(clock=clock, every_game=every_game, game_bad_tokens=100))
    monday = Guessing(Limits(clock=clock, every_game=every_game, game_bad_tokens=100))
    for i in range(5):
        assert sunday.wait(f"10.0.0.{i}") is None
        sunday.wrong(f"10.0.0.{i}")
    assert monday.wait("10.0.0.1") is None  # never guessed on Monday's game: tried
    monday.wrong("10.0.0.1")
    wait = monday.wait("10.0.0.1")
    assert wait is not None and wait >= 6  # every game's budget is spent: back off until its own is whole
    assert monday.wait("10.0.0.99") is None  # a device that never guessed is always tried
    clock.now += 3  # every game's budget is back, the guesser's own is not yet
    assert monday.wait("10.0.0.1") is None
    monday.wrong("10.0.0.1")
    clock.now += 1
    assert monday.wait("10.0.0.1") is None


@pytest.mark.asyncio
async def test_right_tokens_and_withdrawn_links_are_not_guesses(phones):
    """Ann scans her code again and again, Bob scans the code the banker withdrew: neither is a guess."""
    old_bob = phones.server.tokens.for_player("Bob")
    phones.server.revoke("Bob")
    ann = await phones.phone()
    for _ in range(30):
        assert (await ann.join("Ann")).status == 303
    bob = await phones.phone()
    for _ in range(30):
        assert (await bob.get(f"/j/{old_bob}", allow_redirects=False)).status == 403
    guessing = phones.server.desk.guessing
    assert not guessing.by_address.used("127.0.0.1") and not guessing.game.used("game")
