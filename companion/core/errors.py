"""The errors a banker can meet. One root, each also a builtin so callers can catch either.

Every refusal carries one clear line that says why; the game is left exactly as it was.
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
]


class BankerError(Exception):
    "Base class for every error the companion raises on purpose."

    exit_code = 2

    #: The longest reason shown to people, whatever the input that caused it.
    MAX_REASON = 200

    def __str__(self) -> str:  # one line of at most MAX_REASON characters, always
        text = " ".join(super().__str__().split())
        return text if len(text) <= self.MAX_REASON else text[: self.MAX_REASON - 1] + "…"


class BadAction(BankerError, ValueError):
    "The action is malformed: not JSON, a missing or mistyped field, an unknown action."

    exit_code = 2


class Refused(BankerError, ValueError):
    "The action is well formed, but a rule of the game forbids it now."

    exit_code = 1


class UnknownName(Refused, LookupError):
    "A player, deed, pot or option named in the action does not exist in this game."


class NotEnoughMoney(Refused):
    "A payer has less cash than the payment; the message says what they could raise."


class GameFileError(BankerError, OSError):
    "The game file is missing, damaged, foreign, or cannot be written."

    exit_code = 2


class GameBusy(BankerError, TimeoutError):
    "Another program holds the game file's write lock for too long."

    exit_code = 1
