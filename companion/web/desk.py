"""The phones' desk: everything the web handlers share for one open game.

Join tokens, payment requests, the chronicle (worth over time, each player's story), the broadcast
that wakes live streams, the rate limiters, and a cache of each role's page per change, so fifty
phones watching eight players cost eight page renders per action, not fifty - and none for a role
no phone is watching: a page is made when a stream or a request first asks for it.

A page is made from what changed only: the public state without the deeds' cards
(:func:`companion.views.public_state`), the worth the chronicle already counted for the action, and
the story and chart as JSON text the chronicle wrote once per line and point, spliced into the page.

Threading: belongs to the app's asyncio loop, like the Banker it serves.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from companion.views import public_state

from .chronicle import Chronicle, whole_story
from .jsontext import dumps_safe, safe_text, with_members
from .limits import Guessing, Limits
from .plays import Plays
from .requests import PaymentRequests, requests_allowed
from .roleview import DEFAULT_PUBLIC, banker_view, player_view
from .sidecar import open_sidecar
from .sse import Broadcast, sse_message
from .tokens import WITHDRAWN, JoinTokens, Pass

__all__ = ["PhoneDesk", "dumps_player_page", "dumps_safe"]

#: The parts of a player's page (under ``me``) that the chronicle writes as JSON text once.
SPLICED = ("worth_series", "story")


def dumps_player_page(page: dict, series: str, story: str | None = None, plays: str | None = None) -> bytes:
    """A player's page as :func:`dumps_safe` writes it, with the worth chart (and the story and the
    part about their own plays, its last member, when given) spliced in as the chronicle and the plays
    wrote them instead of encoded again."""
    page = dict(page)
    me = dict(page.pop("me"))
    parts = {"worth_series": series, "story": story}
    for key in SPLICED:
        if parts[key] is not None:
            me.pop(key, None)
    me_text = with_members(safe_text(me), ((k, text) for k in SPLICED if (text := parts[k]) is not None))
    after = [("me", me_text)]
    if plays is not None and next(reversed(page), None) == "plays":  # its last member, written as before
        del page["plays"]
        after.insert(0, ("plays", plays))
    return with_members(safe_text(page), after).encode("ascii")


class PhoneDesk:
    """Shared state of the phone server for one :class:`~companion.service.Banker`."""

    def __init__(self, banker, *, limits: Limits | None = None) -> None:
        self.banker = banker
        self.limits = limits or Limits()
        self.player_calls, self.banker_calls = self.limits.make()
        self.guessing = Guessing(self.limits)
        self.asks = self.limits.asks()
        self._con = open_sidecar(banker.path)
        self.tokens = JoinTokens(self._con)
        self.requests = PaymentRequests(self._con, banker)
        self.plays = Plays(self._con, banker)
        self.play_budget = self.limits.plays()  # a player's phone cannot flood the table
        self.chronicle = Chronicle(banker)
        self._whole: tuple | None = None
        self.hub = Broadcast()
        self.streams: Counter[str] = Counter()
        digest = hashlib.sha256(str(banker.path.resolve()).encode()).hexdigest()[:10]
        self.cookie_name = f"tb_{digest}"
        self._pages: dict[tuple[str, str | None], tuple[bytes, int]] = {}
        self._messages: dict[tuple[str, str | None], bytes] = {}
        self._live: dict[str, tuple[bytes | None, str | None]] = {}  # per token: what its streams send now
        self._expiry: dict[str, str | None] = {}
        self._standing: tuple | None = None  # what the answers in _expiry depend on
        self._asked: dict[tuple, list] = {}
        self._asked_at = -1
        self._pages_generation: tuple[int, int | None] = (-1, None)
        self._state: dict | None = None
        self._unsubscribe: list = []

    # -- lifetime ----------------------------------------------------------------------------------
    def open(self) -> None:
        """Start following the game and the requests (idempotent)."""
        if self._unsubscribe:
            return
        if self.chronicle.seq != self.banker.version:
            self.chronicle.rebuild()  # reopened after a while: catch up with the log
        self._unsubscribe = [
            self.banker.subscribe(self._on_outcome),
            self.requests.subscribe(self._on_request),
            self.plays.subscribe(self._on_request),
        ]
        self.hub.closed = False
        self.hub.bump()

    def close(self) -> None:
        """Stop following, wake every stream so it ends; safe twice."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self.hub.close()

    def close_file(self) -> None:
        self.close()
        self._con.close()

    def _on_outcome(self, outcome) -> None:
        self.chronicle.see(outcome.entry)
        self.requests.prune()  # the game moved on: old answers go, the banker's last 50 stay
        self.hub.bump()

    def _on_request(self, request) -> None:
        self.hub.bump()

    # -- who is asking -----------------------------------------------------------------------------
    def authorise(self, token: object) -> Pass | None:
        """The pass behind a token if it is valid now: known, not revoked, and (for players) the game
        is still on and they are in it."""
        found = self.tokens.check(token)
        if found is None:
            return None
        if found.role == "player" and self.expired(found):
            return None
        return found

    def expired(self, holder: Pass) -> str | None:
        """Why a pass stopped working (one line), or None while it works."""
        self._refresh_cache()
        return self._expired(holder)

    def _expired(self, holder: Pass) -> str | None:
        try:
            return self._expiry[holder.token]  # asked by every stream on every change: once per token
        except KeyError:
            reason = self._expiry[holder.token] = self._why_expired(holder)
            return reason

    def _why_expired(self, holder: Pass) -> str | None:
        if self.tokens.check(holder.token) is None:
            return WITHDRAWN
        if holder.role == "player":
            table = self.banker.table
            if holder.player not in table["players"]:
                return "this link is for a player who is not in this game"
            if table.get("over"):
                return "the game is over"
        return None

    # -- pages -------------------------------------------------------------------------------------
    def state(self) -> dict:
        """The public state of the game at the current generation (:func:`companion.views.public_state`;
        its worth is the count the chronicle made for the same entry, :func:`companion.views.worth`)."""
        self._refresh_cache()
        if self._state is None:
            banker = self.banker
            self._state = public_state(banker.table, banker.rules, banker.version)
        return self._state

    def _refresh_cache(self) -> None:
        # a waiting play's seconds left: a phone that comes later gets a page made later
        generation = (self.hub.generation, self.plays.freshness())
        if self._pages_generation != generation:
            self._pages.clear()
            self._messages.clear()
            self._live.clear()
            self._state = None
            self._pages_generation = generation
            table = self.banker.table
            standing = (self.tokens.refresh(), bool(table.get("over")), tuple(table["players"]))
            if standing != self._standing:  # a link issued or withdrawn, the game over: ask again
                self._expiry.clear()
                self._standing = standing

    def page(self, holder: Pass) -> tuple[bytes, int]:
        """The holder's page as JSON bytes, and the game version it shows."""
        self._refresh_cache()
        return self._page(holder)

    def _page(self, holder: Pass) -> tuple[bytes, int]:
        key = (holder.role, holder.player)
        cached = self._pages.get(key)
        if cached is None:
            if holder.role == "player":
                chronicle, player = self.chronicle, holder.player
                assert player is not None, "a player's pass names the player"
                body = dumps_player_page(
                    self.page_data(holder, whole=False),
                    chronicle.worth_series_json(player),
                    chronicle.story_json(player),
                    self.plays.page_text(player),
                )
            else:
                body = dumps_safe(self.page_data(holder))
            cached = (body, self.banker.version)
            self._pages[key] = cached
        return cached

    def _undo_text(self) -> str | None:
        """What the banker's Undo button says, as on the touchscreen: "Undo: <the action>"."""
        entry = self.banker.next_undo()
        return f"Undo: {entry.summary}" if entry else None

    def page_data(self, holder: Pass, *, whole: bool = True) -> dict:
        """The holder's page as data. ``whole=False``: a player's page without its chart and story
        (but the chart's first point), which :meth:`page` splices in as the chronicle wrote them."""
        state = self.state()
        if holder.role == "banker":
            view = banker_view(
                state,
                log=self.chronicle.log_lines(),
                pending=self._requests("pending"),
                answered=self._requests("recent", 8),
                deed_fields=self.banker.rules.extras.get("deed_fields"),
                undo_text=self._undo_text(),
            )
            view["plays"] = self.plays.banker_page()
            return view
        public = self.banker.rules.extras.get("phone_public", DEFAULT_PUBLIC)
        player = holder.player
        assert player is not None, "a player's pass names the player"
        view = player_view(
            state,
            player,
            worth=self.chronicle.worth_of(player) if whole else self.chronicle.first_worth(player),
            story=self.chronicle.story_of(player) if whole else [],
            requests=self._requests("of_player", holder.player, 6),
            can_request=requests_allowed(self.banker.table),
            public=public,
            deed_fields=self.banker.rules.extras.get("deed_fields"),
        )
        view["plays"] = self.plays.page(player)
        return view

    def whole_story(self, holder: Pass) -> list[dict]:
        """The whole game in words for the holder: a player's own story with turns, or every log
        summary for the banker; newest first, worked out once per game version."""
        key = (holder.role, holder.player, self.banker.version)
        if self._whole is None or self._whole[0] != key:
            if holder.role == "player":
                assert holder.player is not None, "a player's pass names the player"
                lines = whole_story(self.banker, holder.player, self.chronicle.reading)
            else:
                lines = [{"seq": e.seq, "text": e.summary, "kind": e.kind} for e in reversed(self.banker.log())]
            self._whole = (key, lines)
        return self._whole[1]

    def message(self, holder: Pass) -> bytes:
        """The holder's page as a whole ``state`` event, made once per change for every stream of
        the same role."""
        self._refresh_cache()
        return self._message(holder)

    def _message(self, holder: Pass) -> bytes:
        key = (holder.role, holder.player)
        made = self._messages.get(key)
        if made is None:
            body, version = self._page(holder)
            made = self._messages[key] = sse_message("state", body, version)
        return made

    def _requests(self, which: str, *args) -> list[dict]:
        """Payment requests as pages show them, read from the phones file only after they changed."""
        if self._asked_at != self.requests.changes:
            self._asked.clear()
            self._asked_at = self.requests.changes
        key = (which, *args)
        if key not in self._asked:
            currency = self.banker.currency
            held = self.requests.held
            self._asked[key] = [
                {**r.as_json(currency), "held": held[r.id]} if r.id in held else r.as_json(currency)
                for r in getattr(self.requests, which)(*args)
            ]
        return self._asked[key]

    def live_page(self, holder: Pass) -> tuple[bytes | None, str | None]:
        """For a stream: ``(state event, reason)``; a reason means this is the last message (the
        game ended: the final page still goes out; the link was withdrawn: no page). Every stream
        asks after every change: the answer is worked out once per token and change."""
        self._refresh_cache()
        live = self._live.get(holder.token)
        if live is None:
            reason = self._expired(holder)
            if reason and (
                holder.role != "player" or not self.banker.table.get("over") or self.tokens.check(holder.token) is None
            ):
                live = (None, reason)
            else:
                live = (self._message(holder), reason)
            self._live[holder.token] = live
        return live
