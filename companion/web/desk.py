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
from .jsontext import dumps_safe, safe_text
from .limits import Guessing, Limits
from .plays import Plays
from .requests import PaymentRequests, requests_allowed
from .roleview import (
    DEFAULT_PUBLIC,
    banker_view,
    common,
    currency_of,
    may_request,
    payees_of,
    player_me,
    player_row,
    player_view,
)
from .sidecar import open_sidecar
from .sse import Broadcast, event_frame, sse_message
from .tokens import WITHDRAWN, JoinTokens, Pass

__all__ = ["PhoneDesk", "dumps_safe"]


class _Written:
    """One player's parts of the players' pages as JSON text, kept from one change to the next while
    what they are made of reads the same (compared by value): their row as the others see it, their own
    row, and their ``me`` without the chart and the story. An action changes one or two players' money:
    the others' parts are not written again."""

    __slots__ = ("row_key", "others", "own", "me_key", "me")

    def __init__(self, row_key: tuple, others: str) -> None:
        self.row_key = row_key  # (the player's public row, whether they are to play, what is public, the currency)
        self.others = others
        self.own: str | None = None
        self.me_key: tuple | None = None
        self.me = ""


class _Head:
    """The common members of every page (:func:`~.roleview.common`) as JSON text without the closing
    brace. An action moves the version; the rest (the title, the pack, the currency, the turn, whether
    it is over, the pots) is written again only when it reads different (compared by value)."""

    __slots__ = ("key", "rest")

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.rest = ""  # the members after the version, with the comma before them

    def text(self, state: dict) -> str:
        key = (state["title"], state["rules"], state["currency"], state["turn"], state.get("over"), state["pots"])
        if key != self.key:
            whole = safe_text(common(state))  # the version first: '{"version":N,...}'
            self.rest = whole[whole.index(",") : -1]
            self.key = key
        return '{"version":%d%s' % (state["version"], self.rest)


class _Shared:
    """What every player's page shares after one change, written once: the common members (the head of
    every page), and each player's row as the other players see it (the same whoever looks)."""

    __slots__ = (
        "state",
        "head",
        "public",
        "currency",
        "to_play",
        "mine",
        "can_request",
        "deed_fields",
        "written",
        "rows_of",
        "others",
        "places",
    )

    def __init__(self, state: dict, rules, can_request: bool, written: dict[str, _Written], head: _Head) -> None:
        self.state = state
        self.head = head.text(state)
        self.public = frozenset(rules.extras.get("phone_public", DEFAULT_PUBLIC))
        self.currency = currency_of(state)
        self.to_play = state["turn"]["player"]
        self.mine = {p["name"]: p for p in state["players"]}
        self.can_request = can_request
        self.deed_fields = rules.extras.get("deed_fields")
        self.written = written  # the desk's, from the changes before: each player's parts by name
        self.rows_of: dict[str, _Written] | None = None  # every player's, checked against this change
        self.others: list[str] = []  # every player's row as the others see it, in the players' order
        self.places: dict[str, int] = {}  # each player's place in that order

    def parts(self) -> dict[str, _Written]:
        """Every player's :class:`_Written`, their row as the others see it written again only if the
        row's parts changed (their public row, whether they are to play, what is public, the currency)."""
        rows_of = self.rows_of
        if rows_of is None:
            rows_of = self.rows_of = {}
            others, places = self.others, self.places
            written, to_play, public, currency = self.written, self.to_play, self.public, self.currency
            for p in self.state["players"]:
                name = p["name"]
                key = (p, name == to_play, public, currency)
                kept = written.get(name)
                if kept is None or kept.row_key != key:
                    kept = written[name] = _Written(key, safe_text(player_row(p, None, to_play, public, currency)))
                rows_of[name] = kept
                places[name] = len(others)
                others.append(kept.others)
        return rows_of

    def rows(self, me: str) -> str:
        """The list of players on ``me``'s page, as JSON text: their own row, and every other player's
        as the others see it."""
        mine = self.parts()[me]
        if mine.own is None:
            mine.own = safe_text(player_row(self.mine[me], me, self.to_play, self.public, self.currency))
        rows = self.others.copy()
        rows[self.places[me]] = mine.own
        return ",".join(rows)

    def me(self, player: str, first_worth: list) -> str:
        """Player's ``me`` (:func:`~.roleview.player_me`) as JSON text without its closing brace (the
        chart and the story follow), written again only when what it is made of changed: their public
        row, the deeds' lines, the turn's number (a loan's due date), where their chart starts."""
        state, mine, written = self.state, self.mine[player], self.parts()[player]
        key = (mine, state["deeds"], state["turn"]["number"], first_worth, self.currency, self.deed_fields)
        if written.me_key != key:
            written.me = safe_text(player_me(state, mine, self.currency, first_worth, self.deed_fields))[:-1]
            written.me_key = key
        return written.me


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
        self.hub = Broadcast(self.plays.freshness)  # the pages stand while the generation and this stay
        self.streams: Counter[str] = Counter()
        self._staged: int | None = None  # the entry whose pages were made before its COMMIT
        digest = hashlib.sha256(str(banker.path.resolve()).encode()).hexdigest()[:10]
        self.cookie_name = f"tb_{digest}"
        self._pages: dict[tuple[str, str | None], tuple[bytes, int]] = {}
        self._messages: dict[tuple[str, str | None], bytes] = {}
        self._live: dict[str, tuple[bytes | None, str | None]] = {}  # per token: what its streams send now
        self._expiry: dict[str, str | None] = {}
        self._standing: tuple | None = None  # what the answers in _expiry depend on
        self._asked: dict[tuple, list] = {}
        self._asked_text: dict[tuple, str] = {}
        self._asked_at = -1
        self._pages_generation: tuple[int, int | None] = (-1, None)
        self._state: dict | None = None
        self._shared: _Shared | None = None
        self._payees: tuple[list | None, dict[str, str]] = (None, {})
        self._written: dict[str, _Written] = {}  # each player's parts of the pages, kept while they read the same
        self._head = _Head()  # the common members but the version, kept while they read the same
        self._allowed: tuple[object, bool] = (None, False)  # the options read, whether players may ask
        self._unsubscribe: list = []

    # -- lifetime ----------------------------------------------------------------------------------
    def open(self) -> None:
        """Start following the game and the requests (idempotent)."""
        if self._unsubscribe:
            return
        if self.chronicle.seq != self.banker.version:
            self.chronicle.rebuild()  # reopened after a while: catch up with the log
        self.requests.prune()  # its look at the start, so that the first entry's pages are made early too
        self._unsubscribe = [
            self.banker.stage(self._on_stage, self._on_abandon),
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

    def _on_stage(self, entry) -> None:
        """The Banker's entry is appended and its COMMIT (the fsync) comes next: the chronicle takes it in
        and the page of every stream that will send at once is made now (:meth:`Broadcast.prepare`), on
        caches still warm from deciding it, so that after the fsync only the writes are left. Nothing
        made here is sent before the entry is durable: the streams are woken by :meth:`_on_outcome`,
        which the Banker calls only after the COMMIT, and a failed COMMIT throws it all away
        (:meth:`_on_abandon`)."""
        self.chronicle.see(entry)
        if self.requests.prunes_next:  # the prune after the commit changes what pages show: make them then
            return
        self.hub.advance()
        self._staged = entry.seq
        self.hub.prepare()  # the pages of the streams that will send at once (none in a burst's interval)

    def _on_abandon(self, entry) -> None:
        """The COMMIT of a staged entry failed: its pages and its place in the chronicle go."""
        self._staged = None
        self._pages_generation = (-1, None)  # no page made for the entry is ever sent
        self.chronicle.forget(entry)
        self.hub.bump()

    def _on_outcome(self, outcome) -> None:
        entry = outcome.entry
        if self._staged is not None and self._staged == entry.seq and not outcome.elsewhere:
            self._staged = None
            self.hub.announce()  # its pages were made before the COMMIT (_on_stage)
            return
        self._staged = None
        self.chronicle.see(entry)
        self.requests.prune()  # the game moved on: old answers go, the banker's last 50 stay
        self.hub.bump()

    def _on_request(self, request) -> None:
        self.hub.bump()

    # -- who is asking -----------------------------------------------------------------------------
    def authorise(self, token: object) -> Pass | None:
        """The pass behind a token if it is valid now: known, not revoked, and (for players) the game
        is still on and they are in it."""
        found = self.tokens.check(token)
        if found is None or found.role != "player":
            return found  # the banker's pass works while the game is on and after it
        self._refresh_cache()
        return None if self._expired(found) else found

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
        return self._state or self._public_state()

    def _public_state(self) -> dict:
        """:meth:`state`, the cache known to be fresh (a page is being made)."""
        state = self._state
        if state is None:
            banker = self.banker
            state = self._state = public_state(banker.table, banker.rules, banker.version)
        return state

    def _refresh_cache(self) -> None:
        # a waiting play's seconds left: a phone that comes later gets a page made later
        generation = (self.hub.generation, self.plays.freshness())
        if self._pages_generation != generation:
            self._pages.clear()
            self._messages.clear()
            self._live.clear()
            self._state = None
            self._shared = None
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
                assert holder.player is not None, "a player's pass names the player"
                body = self._player_page(holder.player, "", "}}")
            else:
                body = dumps_safe(self.page_data(holder))
            cached = (body, self.banker.version)
            self._pages[key] = cached
        return cached

    def _player_page(self, player: str, before: str, end: str) -> bytes:
        """A player's page (:func:`~.roleview.player_view` with its plays) as JSON text, put together from
        parts: the common members and the other players' rows written once for every player's page, the
        chart and the story as the chronicle wrote them, the plays as :meth:`Plays.page_text` wrote them,
        the requests once per change of the requests. ``me`` comes last. ``before`` and ``end``: what the
        bytes begin with before the page and end with ("}}" closes it): a stream's event is made in the
        same step (:meth:`_message`)."""
        shared = self._shared
        if shared is None:
            banker = self.banker
            table = banker.table
            options = table.get("options")  # whether players may ask, read again only when the options changed
            if options is None or options is not self._allowed[0]:  # (a table is never changed in place)
                self._allowed = (options, requests_allowed(table))
            shared = self._shared = _Shared(
                self._public_state(), banker.rules, self._allowed[1], self._written, self._head
            )
        state, chronicle = shared.state, self.chronicle
        mine = shared.mine[player]
        text = "".join(
            (
                before,
                shared.head,
                ',"role":"player","players":[',
                shared.rows(player),
                '],"requests":',
                self._requests_text("of_player", player, 6),
                ',"can_request":',
                "true" if may_request(state, mine, shared.can_request) else "false",
                ',"payees":',
                self._payees_text(state, player),
                ',"plays":',
                self.plays.page_text(player, self._pages_generation),
                ',"me":',
                shared.me(player, chronicle.first_worth(player)),  # then ME_LAST, as the chronicle wrote them
                ',"worth_series":',
                chronicle.worth_series_json(player),
                ',"story":',
                chronicle.story_json(player),
                end,
            )
        )
        return text.encode("ascii")

    def _payees_text(self, state: dict, player: str) -> str:
        """:func:`~.roleview.payees_of` as JSON text, written once while the players still in stay the
        same (whom a player may pay is the bank and every other player still in)."""
        active = state["active"]
        if self._payees[0] != active:
            self._payees = (active, {})
        text = self._payees[1].get(player)
        if text is None:
            text = self._payees[1][player] = safe_text(payees_of(state, player))
        return text

    def _undo_text(self) -> str | None:
        """What the banker's Undo button says, as on the touchscreen: "Undo: <the action>"."""
        entry = self.banker.next_undo()
        return f"Undo: {entry.summary}" if entry else None

    def page_data(self, holder: Pass) -> dict:
        """The holder's page as data (what :meth:`page` sends, made whole)."""
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
            worth=self.chronicle.worth_of(player),
            story=self.chronicle.story_of(player),
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
            if holder.role == "player":
                assert holder.player is not None, "a player's pass names the player"
                # sse_message's bytes, the page joined into them (no copy of the page's bytes)
                before, after = event_frame("state", self.banker.version)
                made = self._player_page(holder.player, before, "}}" + after)
            else:
                body, version = self._page(holder)
                made = sse_message("state", body, version)
            self._messages[key] = made
        return made

    def _requests(self, which: str, *args) -> list[dict]:
        """Payment requests as pages show them, read from the phones file only after they changed."""
        if self._asked_at != self.requests.changes:
            self._asked.clear()
            self._asked_text.clear()
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

    def _requests_text(self, which: str, *args) -> str:
        """:meth:`_requests` as JSON text, written once per change of the requests."""
        key = (which, *args)
        if self._asked_at == self.requests.changes:
            text = self._asked_text.get(key)
            if text is not None:
                return text
        listed = self._requests(which, *args)  # clears the texts too when the requests changed
        text = self._asked_text[key] = safe_text(listed)
        return text

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
