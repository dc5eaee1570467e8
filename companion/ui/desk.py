"""The banker's desk: the one open game every screen shares, and the answers the screens need from it.

A :class:`Desk` owns the :class:`~companion.service.Banker` of the game on the table. Screens ask it to
do an action and get back a :class:`Result` (done, with the log's sentence; or refused, with the
rule's one-line reason and nothing changed). For putting an action together it passes on the action
contract the Banker reads from the family's declarations: the next field to ask, every choice for it
judged on the table, and the preview of what an action would do (the same decision, nothing written).

No Kivy here: the app subscribes to :meth:`Desk.subscribe` and batches screen refreshes itself.
Threading: like the Banker, a Desk belongs to the app's loop thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.core import engine
from companion.core.errors import BadAction, BankerError
from companion.core.model import BANK
from companion.core.money import Currency
from companion.service import Banker, Outcome
from companion.views import state_json

__all__ = ["Desk", "Result"]


@dataclass(frozen=True)
class Result:
    """What became of a tap: ``ok`` with the log's sentence, or refused with the reason."""

    ok: bool
    text: str
    version: int = 0
    malformed: bool = False  # the action itself was incomplete or wrong (BadAction), not a rule

    def __bool__(self) -> bool:
        return self.ok


def _plain(values: dict) -> dict:
    """An action or its fields without the idempotency id (which only ``do`` takes)."""
    return {k: v for k, v in values.items() if k != "id"}


class Desk:
    """The open game: do, undo, redo, check, and the public state (cached per version)."""

    def __init__(self, banker: Banker) -> None:
        self.banker = banker
        self._state: dict | None = None
        self._state_version = -1

    @classmethod
    def open(cls, path: str | Path) -> "Desk":
        return cls(Banker.open(path))

    @classmethod
    def create(cls, path: str | Path, pack: str, people: list[dict], options: dict) -> "Desk":
        return cls(Banker.create(path, pack, people, options))

    def close(self) -> None:
        self.banker.close()

    # -- reading -----------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.banker.path

    @property
    def table(self) -> dict:
        return self.banker.table

    @property
    def rules(self) -> engine.Rules:
        return self.banker.rules

    @property
    def specs(self) -> dict:
        """The family's declared actions by name, in the family's order."""
        if getattr(self, "_specs", None) is None:
            self._specs = {spec.name: spec for spec in self.banker.actions()}
        return self._specs

    # -- the action contract: what to ask, what may be chosen, what it would do ---------------------
    def next_field(self, action: str, values: dict):
        """The next field to ask for ``action`` (a contract Field), or None when it is ready."""
        return self.banker.next_field(action, _plain(values))

    def current(self, action: str, field: str, values: dict):
        """What ``field`` corrects holds now on the table (a card's printed values), or None."""
        return self.banker.current(action, field, _plain(values))

    def choices(self, action: str, field: str, values: dict) -> list:
        """Every candidate of ``field`` on the table as it stands, each judged (contract Choices)."""
        return self.banker.choices(action, field, _plain(values))

    def in_or_out(self, action: str, field: str, values: dict) -> list:
        """Each candidate of a list field asked both ways, each judged (contract InOrOut)."""
        return self.banker.in_or_out(action, field, _plain(values))

    def preview(self, action: dict):
        """(preview, None) if the action would be accepted now, else (None, the one-line reason)."""
        try:
            return self.banker.preview(_plain(action)), None
        except BankerError as e:
            return None, str(e)

    @property
    def version(self) -> int:
        return self.banker.version

    @property
    def pack(self) -> dict:
        return self.banker.table["pack"]

    def state(self) -> dict[str, Any]:
        """The public state (:func:`companion.views.state_json`), rebuilt only when the game moved."""
        if self._state is None or self._state_version != self.banker.version:
            self._state = state_json(self.banker.table, self.banker.rules, self.banker.version)
            self._state_version = self.banker.version
        return self._state

    def build_spin(self, player: str | None, building: str | None = None, *, this_roll: bool = True) -> dict:
        """What the player's build spin gives a Build now, as the family describes it
        (``rules.extras["build_spin"]``: Monopoly City); a family without a build spinner: never spun."""
        described = self.banker.rules.extras.get("build_spin")
        if described is None:
            never = {"count": None, "allowance": None, "blocks": (), "spun_only": ()}
            return {"spun": False, "text": "", "building": building, **never}
        return described(self.banker.table, player, building, this_roll=this_roll)

    @property
    def currency(self) -> Currency:
        """How the game writes and reads money (K and M in Monopoly City)."""
        return self.banker.currency

    def fmt(self, amount: int) -> str:
        return self.banker.fmt(amount)

    def undo_text(self) -> str | None:
        entry = self.banker.next_undo()
        return entry.summary if entry else None

    def redo_text(self) -> str | None:
        entry = self.banker.next_redo()
        return entry.summary.removeprefix("Undone: ") if entry else None

    def taken_back(self, kind: str) -> tuple[int, str] | None:
        """The entry the next ``kind`` ("undo" or "redo") would take back or bring back: its number
        and its sentence (None when there is none)."""
        entry = self.banker.next_undo() if kind == "undo" else self.banker.next_redo()
        return (entry.seq, entry.summary.removeprefix("Undone: ")) if entry else None

    def closed(self, name: str) -> str | None:
        """Why no ``name`` can be done now, whatever is chosen for it (None when one may): the
        engine's reason (a finished game takes nothing but undo); ending a finished game, its own
        rule's reason."""
        why = engine.closed(self.banker.table, name)
        if why is None and name == engine.ENDING and self.banker.table.get("over"):
            _found, why = self.preview({"action": name})
        return why

    def check(self, action: dict) -> Result:
        """Would the action be accepted now? The Banker's preview: nothing is written."""
        try:
            found = self.banker.preview(_plain(action))
        except BadAction as e:
            return Result(False, str(e), self.banker.version, malformed=True)
        except BankerError as e:
            return Result(False, str(e), self.banker.version)
        return Result(True, found.summary, self.banker.version)

    def moved(self, action: dict) -> dict[str, int]:
        """What each account would gain (+) or lose (-) if ``action`` were done now ({} if refused)."""
        found, _ = self.preview(action)
        if found is None:
            return {}
        accounts = {p.payer for p in found.postings} | {p.payee for p in found.postings}
        return {a: found.moved(a) for a in accounts if found.moved(a)}

    def account_name(self, account: str) -> str:
        """'the bank', 'the Free Parking pot' or the player's name, for sentences on screen."""
        if account == BANK:
            return "the bank"
        if account.startswith("pot:"):
            pot = self.banker.table["pots"].get(account[4:], {})
            return f"the {pot.get('label', account[4:])} pot"
        return account

    # -- writing -----------------------------------------------------------------------------------
    def do(self, action: dict) -> Result:
        """Apply an action; a refusal (or a malformed action) comes back as a Result, never raised."""
        try:
            outcome = self.banker.do(action)
        except BadAction as e:
            return Result(False, str(e), self.banker.version, malformed=True)
        except BankerError as e:
            return Result(False, str(e), self.banker.version)
        return Result(True, outcome.summary, outcome.version)

    def undo(self) -> Result:
        return self.do({"action": "undo"})

    def redo(self) -> Result:
        return self.do({"action": "redo"})

    def refresh(self, *_: object) -> bool:
        """Pick up what another process committed (phones' server, the command line); True if any."""
        try:
            return self.banker.refresh()
        except BankerError:
            return False

    def subscribe(self, callback: Callable[[Outcome], None], *, first: bool = False) -> Callable[[], None]:
        return self.banker.subscribe(callback, first=first)
