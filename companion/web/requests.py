"""Payment requests: what a player asks for from their phone, waiting for the banker's answer.

A phone never moves money. A player asks "I pay Bob $50 (the pizza)"; the request waits in the phones
file until the banker approves it - then one ``transfer`` goes through the Banker, with an action id
tied to the request, so approving twice (a double tap, a retry after a crash) moves the money once -
or declines it with a reason that goes back to the phone.

The banker's touchscreen uses :meth:`PaymentRequests.pending`, :meth:`~PaymentRequests.approve`,
:meth:`~PaymentRequests.decline` and :meth:`~PaymentRequests.subscribe` (called with the changed
request after every change, on the app's loop).
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from companion.core import contract
from companion.core.common import MONEY, switch_is_on
from companion.core.errors import BadAction, BankerError, Refused
from companion.core.model import cash
from companion.core.money import Currency
from companion.core.text import clean_text as core_clean_text

from .sidecar import now

__all__ = ["PaymentRequest", "PaymentRequests", "MAX_WAITING", "KEEP_ANSWERED", "requests_allowed"]

MAX_WAITING = 3  # requests one player may have waiting at once
KEEP_ANSWERED = 50  # answered and cancelled requests kept for the banker's history


class TransferFields(NamedTuple):
    """The fields of the transfer a request becomes, found by their declared roles and kinds."""

    payer: str
    payee: str
    amount: str
    memo: str


def _transfer_fields() -> TransferFields:
    spec = MONEY.specs["transfer"]  # every family lists the money actions whole (core/common.py)
    (payer,), (payee,) = contract.role_fields(spec, "payer"), contract.role_fields(spec, "payee")
    amount = next(f for f in spec.fields if f.kind == "amount")
    memo = next(f for f in spec.fields if f.kind == "text")
    return TransferFields(payer.name, payee.name, amount.name, memo.name)


#: The transfer's fields a request fills: who pays (the asking player), who receives, how much, why.
TRANSFER = _transfer_fields()
MAX_MEMO = 60

_COLUMNS = "id, player, payee, amount, memo, status, reason, client_id, created, decided, seq"


@dataclass(frozen=True)
class PaymentRequest:
    """One request: ``player`` asks to pay ``payee`` ("bank" or a player) ``amount``."""

    id: str
    player: str
    payee: str
    amount: int
    memo: str
    status: str  # pending, approved, declined, cancelled
    reason: str
    client_id: str | None
    created: str
    decided: str | None
    seq: int | None  # the game log entry of the approved transfer

    @property
    def action(self) -> dict:
        """The transfer this request becomes when approved (its id makes it idempotent)."""
        memo = self.memo or "asked from a phone"
        return {
            "action": "transfer",
            TRANSFER.payer: self.player,
            TRANSFER.payee: self.payee,
            TRANSFER.amount: self.amount,
            TRANSFER.memo: memo,
            "id": f"phone-request-{self.id}",
        }

    def as_json(self, currency: Currency) -> dict[str, Any]:
        return {
            "id": self.id,
            "player": self.player,
            "to": self.payee,
            "amount": self.amount,
            "amount_text": currency.format(self.amount),
            "memo": self.memo,
            "status": self.status,
            "reason": self.reason,
            "created": self.created,
            "decided": self.decided,
            "seq": self.seq,
        }


def requests_allowed(table: dict) -> bool:
    """The game option ``phone_requests`` (default on) lets players ask from their phones."""
    return switch_is_on(table, "phone_requests")


def clean_text(text: object, what: str, most: int) -> str:
    """Text typed on a phone, read by the one text cleaner every adapter shares (nothing typed: empty)."""
    return "" if text is None else core_clean_text(text, what, most)


class PaymentRequests:
    """The requests of one game. ``banker`` is the open :class:`~companion.service.Banker`."""

    def __init__(self, con: sqlite3.Connection, banker) -> None:
        self.con = con
        self.banker = banker
        self._subscribers: list[Callable[[PaymentRequest], None]] = []
        self._answered = 1  # answers since the last prune (1: look once at the start)
        self.changes = 0  # counts every change, so readers can keep what they read until it moves
        self.held: dict[str, str] = {}  # request id -> why the banker's approval was refused (it still waits)

    # -- subscribers -------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[PaymentRequest], None]) -> Callable[[], None]:
        """Call ``callback(request)`` after every new, approved, declined or cancelled request."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _changed(self, request: PaymentRequest) -> PaymentRequest:
        self.changes += 1
        for callback in list(self._subscribers):
            callback(request)
        return request

    # -- reading -----------------------------------------------------------------------------------
    def _rows(self, where: str, args: tuple = (), limit: int = 100) -> list[PaymentRequest]:
        sql = f"SELECT {_COLUMNS} FROM requests WHERE {where} ORDER BY created DESC, rowid DESC LIMIT ?"
        return [PaymentRequest(*row) for row in self.con.execute(sql, (*args, limit))]

    def get(self, request_id: object) -> PaymentRequest | None:
        if not isinstance(request_id, str) or len(request_id) > 40:
            return None
        rows = self._rows("id = ?", (request_id,), 1)
        return rows[0] if rows else None

    def pending(self) -> list[PaymentRequest]:
        """Requests waiting for the banker, oldest first."""
        return list(reversed(self._rows("status = 'pending'")))

    def recent(self, limit: int = 10) -> list[PaymentRequest]:
        """The latest answered requests, newest first."""
        return self._rows("status != 'pending'", (), limit)

    def of_player(self, player: str, limit: int = 10) -> list[PaymentRequest]:
        """A player's own requests, newest first."""
        return self._rows("player = ?", (player,), limit)

    # -- the player asks ---------------------------------------------------------------------------
    def ask(
        self, player: str, to: object, amount: object, memo: object = "", client_id: object = None
    ) -> PaymentRequest:
        """Record a player's request to pay ``to`` ("bank" or another player). Refused clearly if not allowed.

        The same ``client_id`` from the same player returns the first request (a phone retrying).
        """
        table = self.banker.table
        if not requests_allowed(table):
            raise Refused("the banker has turned off requests from phones in this game")
        if table.get("over"):
            raise Refused("the game is over")
        if not isinstance(to, str) or not to.strip():
            raise BadAction("to names a player or the bank")
        # The transfer's own contract reads the request: the names found, the amount read, a player
        # out of the game refused, each with the reason the same transfer would get at the table.
        typed = self.banker.read(
            {"action": "transfer", TRANSFER.payer: player, TRANSFER.payee: to, TRANSFER.amount: amount}
        )
        player, payee, value = typed[TRANSFER.payer], typed[TRANSFER.payee], typed[TRANSFER.amount]
        if client_id is not None:
            if not isinstance(client_id, str) or not 1 <= len(client_id) <= 40:
                raise BadAction("id is text of 1 to 40 characters")
            seen = self._rows("player = ? AND client_id = ?", (player, client_id), 1)
            if seen:
                return seen[0]
        if payee.startswith("pot:"):
            raise BadAction("to names a player or the bank")
        if payee == player:
            raise Refused("you cannot pay yourself")
        currency = self.banker.currency
        have = cash(table, player)
        if value > have:
            raise Refused(f"you have {currency.format(have)}, not {currency.format(value)}")
        memo = clean_text(memo, "memo", MAX_MEMO)
        waiting = self.con.execute(
            "SELECT count(*) FROM requests WHERE player = ? AND status = 'pending'", (player,)
        ).fetchone()[0]
        if waiting >= MAX_WAITING:
            raise Refused(f"you already have {waiting} requests waiting for the banker")
        request = PaymentRequest(
            "r" + secrets.token_hex(6), player, payee, value, memo, "pending", "", client_id, now(), None, None
        )
        self.con.execute(
            f"INSERT INTO requests ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", _values(request)
        )
        return self._changed(request)

    def cancel(self, request_id: str, player: str) -> PaymentRequest:
        """The player withdraws their own waiting request."""
        request = self.get(request_id)
        if request is None:
            raise LookupError(f"no request {request_id!r}")
        if request.player != player:
            raise PermissionError("that is another player's request")
        request = self._waiting(request_id)
        return self._answer(request, "cancelled", "withdrawn by the player")

    # -- the banker answers ------------------------------------------------------------------------
    def _waiting(self, request_id: str) -> PaymentRequest:
        request = self.get(request_id)
        if request is None:
            raise LookupError(f"no request {request_id!r}")
        if request.status != "pending":
            raise Refused(f"that request was already {request.status}")
        return request

    def approve(self, request_id: str):
        """Apply the transfer through the banker; returns the Banker's Outcome.

        If a rule refuses it (not enough cash now, a player left the game), the request stays waiting
        and the refusal is raised, so the banker can decline it with that reason or try again later.
        """
        request = self.get(request_id)
        if request is None:
            raise LookupError(f"no request {request_id!r}")
        if request.status not in ("pending", "approved"):
            raise Refused(f"that request was already {request.status}")
        # The transfer's id ties it to the request: approved before (a double tap, or just before a
        # crash) the Banker answers its first outcome and nothing moves twice.
        try:
            outcome = self.banker.do(request.action)
        except BankerError as e:  # both phones say why it still waits
            self.held[request.id] = str(e)
            self._changed(request)
            raise
        self.held.pop(request.id, None)
        if request.status == "pending":
            self._answer(request, "approved", "", seq=outcome.entry.seq)
        return outcome

    def decline(self, request_id: str, reason: object = "") -> PaymentRequest:
        """Refuse the request; ``reason`` (one line) goes back to the player's phone."""
        request = self._waiting(request_id)
        text = clean_text(reason, "reason", 120) or "declined by the banker"
        return self._answer(request, "declined", text)

    def _answer(self, request: PaymentRequest, status: str, reason: str, seq: int | None = None) -> PaymentRequest:
        decided = now()
        cur = self.con.execute(
            "UPDATE requests SET status = ?, reason = ?, decided = ?, seq = ? WHERE id = ? AND status = 'pending'",
            (status, reason, decided, seq, request.id),
        )
        if cur.rowcount != 1:
            raise Refused("that request was answered meanwhile")
        self._answered += 1
        self.held.pop(request.id, None)
        return self._changed(
            PaymentRequest(
                request.id,
                request.player,
                request.payee,
                request.amount,
                request.memo,
                status,
                reason,
                request.client_id,
                request.created,
                decided,
                seq,
            )
        )

    @property
    def prunes_next(self) -> bool:
        """Whether the next :meth:`prune` forgets anything (something was answered since the last)."""
        return bool(self._answered)

    def prune(self, keep: int = KEEP_ANSWERED) -> int:
        """Forget answered and cancelled requests but the latest ``keep``; how many went.

        Called when the game moves on; does nothing (not even a read) if nothing was answered since.
        """
        if not self._answered:
            return 0
        self._answered = 0
        self.changes += 1
        cur = self.con.execute(
            "DELETE FROM requests WHERE status != 'pending' AND rowid NOT IN "
            "(SELECT rowid FROM requests WHERE status != 'pending' ORDER BY created DESC, rowid DESC LIMIT ?)",
            (keep,),
        )
        return cur.rowcount


def _values(r: PaymentRequest) -> tuple:
    return (r.id, r.player, r.payee, r.amount, r.memo, r.status, r.reason, r.client_id, r.created, r.decided, r.seq)
