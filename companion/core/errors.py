"""The errors a banker can meet. One root, each also a builtin so callers can catch either.

Every refusal carries one clear line that says why; the game is left exactly as it was. Each class also
declares its *kind*: a short stable name (``not-enough-money``) and a title for people, which is what an
adapter tells a program (the phones' API answers it as a problem type, docs/api.md), so nothing ever
reads a reason's words to learn what happened.
"""

from __future__ import annotations

__all__ = [
    "BankerError",
    "BadAction",
    "Refused",
    "NotEnoughMoney",
    "UnknownName",
    "GameFileError",
    "GameBusy",
    "ERRORS",
]


class BankerError(Exception):
    "Base class for every error the companion raises on purpose."

    exit_code = 2
    #: The kind of refusal, stable across versions and languages (a problem type's last word).
    kind = "game-error"
    #: What every refusal of this kind means, for people.
    title = "The game refused this"

    #: The longest reason shown to people, whatever the input that caused it.
    MAX_REASON = 200

    def __str__(self) -> str:  # one line of at most MAX_REASON characters, always
        text = " ".join(super().__str__().split())
        return text if len(text) <= self.MAX_REASON else text[: self.MAX_REASON - 1] + "…"


class BadAction(BankerError, ValueError):
    "The action is malformed: not JSON, a missing or mistyped field, an unknown action."

    exit_code = 2
    kind = "bad-action"
    title = "The action is malformed"


class Refused(BankerError, ValueError):
    "The action is well formed, but a rule of the game forbids it now."

    exit_code = 1
    kind = "refused"
    title = "A rule of the game forbids this now"


class UnknownName(Refused, LookupError):
    "A player, deed, pot or option named in the action does not exist in this game."

    kind = "unknown-name"
    title = "No player, deed, pot or option of that name in this game"


class NotEnoughMoney(Refused):
    "A payer has less cash than the payment; the message says what they could raise."

    kind = "not-enough-money"
    title = "Not enough cash for this payment"


class GameFileError(BankerError, OSError):
    "The game file is missing, damaged, foreign, or cannot be written."

    exit_code = 2
    kind = "game-file"
    title = "The game file cannot be used"


class GameBusy(BankerError, TimeoutError):
    "Another program holds the game file's write lock for too long."

    exit_code = 1
    kind = "game-busy"
    title = "The game file is busy; try again"


#: Every kind of error the game raises on purpose, most general first.
ERRORS: tuple[type[BankerError], ...] = (
    BankerError,
    BadAction,
    Refused,
    UnknownName,
    NotEnoughMoney,
    GameFileError,
    GameBusy,
)
