"""The pure core: integer money, the table, the two reversible events, and the engine.

Standard library only; no clock, no randomness, no I/O. Adapters and the service build on it.
"""

from .engine import Registry, Rules, Tx, decide, fold, start
from .errors import BadAction, BankerError, GameBusy, GameFileError, NotEnoughMoney, Refused, UnknownName
from .money import Currency

__all__ = [
    "BadAction",
    "BankerError",
    "Currency",
    "GameBusy",
    "GameFileError",
    "NotEnoughMoney",
    "Refused",
    "Registry",
    "Rules",
    "Tx",
    "UnknownName",
    "decide",
    "fold",
    "start",
]
