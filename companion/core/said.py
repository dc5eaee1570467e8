"""A sentence for the log that knows whom it names: "Ann is in jail" at the table, "You are in jail" on Ann's phone.

A rule returns its sentence built from parts: plain words, and each player it names as a slot
(:func:`who`, with the verb that follows the name when its form depends on the person; :func:`whose`
for "Ann's"). The sentence *is* its third-person text (a ``str``: the log, the touchscreen and every
test read it as before), and :meth:`Said.told` says it to one player in the second person from the same
parts. Nothing reads the words back: who is named, and where, is what the rule wrote.

What people typed (a memo) is a part of its own too (:func:`typed`), so a screen can set it, and each
name, apart from the words around it (:meth:`Said.marked`: a name or memo that runs right to left is
isolated on the phones) without searching the sentence for them.

Parts join with ``+`` (either side may be a plain ``str``) and :func:`joined`; an f-string or a ``str``
method would flatten the sentence to its text, so rules compose sentences with these.

The game file keeps each sentence with its parts (:meth:`Said.as_log`, read back by
:meth:`Said.from_log`): a sentence logged by any version is told to its players from what was logged,
whatever the rules say today. Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable, Union

__all__ = ["VERBS", "Said", "Typed", "Who", "does", "joined", "named", "typed", "who", "whose"]

#: A part as the game file keeps it: plain words as a string; a slot as ``{"who": name}`` with ``"verb"``
#: and ``"you"`` (the verb's form after a player's name and after "you"), ``"whose": true``,
#: ``"silent": true`` where they apply; what people typed as ``{"typed": text}``.
LoggedPart = Union[str, dict[str, Any]]

#: Every verb a rule puts right after a player's name whose form changes with the person: the form for
#: a player ("Ann pays") and for "you" ("you pay"). A verb not listed here is refused when the sentence
#: is built, so a rule cannot name one the phones would tell wrongly.
VERBS = {
    "advances": "advance",
    "asks": "ask",
    "cannot": "cannot",
    "collects": "collect",
    "goes": "go",
    "has": "have",
    "is": "are",
    "leaves": "leave",
    "loses": "lose",
    "may": "may",
    "misses": "miss",
    "moves": "move",
    "owes": "owe",
    "owns": "own",
    "pays": "pay",
    "retires": "retire",
    "returns": "return",
    "stays": "stay",
    "was": "were",
    "will": "will",
    "wins": "win",
}


@dataclass(frozen=True)
class Who:
    """A player (or account) a sentence names: ``verb`` is the word after the name, in its third-person
    form (a key of :data:`VERBS`); ``whose`` names the player's own ("Ann's", "your")."""

    name: str
    verb: str = ""
    whose: bool = False
    #: Only the verb is said (the name came earlier: "Ann rolled a double and goes to jail").
    silent: bool = False
    #: The verb's form after "you" ("pay"): :data:`VERBS` gives it, or the logged sentence kept it.
    you: str = ""

    def __post_init__(self) -> None:
        if self.verb and not self.you:
            if self.verb not in VERBS:  # a rule's sentence bug, or a damaged logged one
                raise ValueError(f"the verb {self.verb!r} after a name is not in said.VERBS")
            object.__setattr__(self, "you", VERBS[self.verb])

    @cached_property
    def plain(self) -> str:
        """The slot as the table reads it, no name set apart (``third()``), worked out once."""
        return self.third()

    def third(self, mark: Callable[[str], str] | None = None) -> str:
        if self.silent:
            return self.verb
        name = mark(self.name) if mark is not None else self.name
        name = f"{name}'s" if self.whose else name
        return f"{name} {self.verb}" if self.verb else name

    def second(self, start: bool) -> str:
        if self.silent:
            return self.you
        word = "your" if self.whose else "you"
        if start:
            word = word.capitalize()
        return f"{word} {self.you}" if self.verb else word

    def as_log(self) -> dict[str, Any]:
        """This slot as the game file keeps it (see :data:`LoggedPart`)."""
        return dict(self.logged)

    @cached_property
    def logged(self) -> dict[str, Any]:
        """:meth:`as_log`, worked out once (a slot never changes): read, never changed, by whoever
        writes it out."""
        kept: dict[str, Any] = {"who": self.name}
        if self.verb:
            kept["verb"], kept["you"] = self.verb, self.you
        if self.whose:
            kept["whose"] = True
        if self.silent:
            kept["silent"] = True
        return kept


@dataclass(frozen=True)
class Typed:
    """Words people typed (a memo), told as they are."""

    text: str

    @property
    def logged(self) -> dict[str, Any]:
        """These words as the game file keeps them (see :data:`LoggedPart`): made when asked (typed
        words are a sentence's own, asked for once)."""
        return {"typed": self.text}


Part = Union[str, Who, Typed]
#: How a screen sets a name or typed words apart from the sentence around them (identity: not at all).
Mark = Callable[[str], str]


def _same(text: str) -> str:
    return text


class Said(str):
    """A sentence of the log with the players it names as slots: its ``str`` value is the sentence as
    the table reads it; :meth:`told` is the same sentence said to one of them."""

    parts: tuple[Part, ...]
    _names: frozenset[str]

    def __new__(cls, *parts: Part | "Said") -> "Said":
        flat: list[Part] = []
        texts: list[str] = []  # the sentence as the table reads it: a Said's own text is its parts' already
        for part in parts:
            if type(part) is str:  # words: the commonest part, told as they are
                if part:
                    flat.append(part)
                    texts.append(part)
            elif type(part) is Who:
                flat.append(part)
                texts.append(part.plain)
            elif isinstance(part, Said):
                flat.extend(part.parts)
                texts.append(str.__str__(part))
            elif isinstance(part, (Who, Typed)):
                flat.append(part)
                texts.append(_third(part, _same))
            elif part:
                text = str(part)
                flat.append(text)
                texts.append(text)
        self = str.__new__(cls, "".join(texts))  # as super() would, without making a super object
        self.parts = tuple(flat)
        return self

    def __add__(self, other: str) -> "Said":
        return Said(self, other)

    def __radd__(self, other: str) -> "Said":
        return Said(other, self)

    def __reduce__(self) -> tuple[type["Said"], tuple[Part, ...]]:
        return (Said, self.parts)

    def as_log(self) -> list[LoggedPart]:
        """The parts as the game file keeps them (JSON: see :data:`LoggedPart`), so the sentence can be
        told to its players as it was logged whatever the rules say later."""
        return [part if isinstance(part, str) else dict(part.logged) for part in self.parts]

    def logged(self) -> list[LoggedPart]:
        """:meth:`as_log` for writing out at once: its slots' parts are shared with every sentence
        naming the same slot, so nothing may change them."""
        kept: list[LoggedPart] = []
        for part in self.parts:
            kept.append(part if type(part) is str else part.logged)  # type: ignore[union-attr]  # a Who or Typed
        return kept

    @classmethod
    def from_log(cls, kept: object) -> "Said":
        """The sentence whose parts the game file kept (:meth:`as_log`); ValueError for anything that is
        not such a list (a damaged entry)."""
        if not isinstance(kept, list):
            raise ValueError("a logged sentence is a list of parts")
        # What ``cls(*parts)`` makes, in one pass: every entry read from a game file comes through here.
        flat: list[Part] = []
        texts: list[str] = []
        for kept_part in kept:
            part = _from_log(kept_part)
            if isinstance(part, str):
                if part:
                    flat.append(part)
                    texts.append(part)
            else:
                flat.append(part)
                texts.append(_third(part, _same))
        self = str.__new__(cls, "".join(texts))
        self.parts = tuple(flat)
        return self

    @property
    def names(self) -> frozenset[str]:
        """The players and accounts this sentence names (worked out once: a sentence never changes)."""
        found: frozenset[str] | None = self.__dict__.get("_names")  # no exception made to find it missing
        if found is None:
            found = self._names = frozenset([p.name for p in self.parts if isinstance(p, Who)])
        return found

    def told(self, me: str, mark: Mark = _same) -> str:
        """This sentence said to ``me``: each slot naming them reads "you" (or "your"), with its verb in
        the second person; "You" when the sentence starts with it. ``mark``: how every other name and
        what people typed are set apart (see :meth:`marked`)."""
        if me not in self.names:
            return self.marked(mark)
        out: list[str] = []
        for part in self.parts:
            if type(part) is str:  # words: told as they are (what _third gives them)
                out.append(part)
            elif isinstance(part, Who) and part.name == me:
                out.append(part.second(start=not out))
            else:
                out.append(_third(part, mark))
        return "".join(out)

    def marked(self, mark: Mark) -> str:
        """The sentence as the table reads it, with each name and each memo passed through ``mark``
        (the phones isolate the ones that run right to left)."""
        if mark is _same:
            return str(self)
        out: list[str] = []
        for part in self.parts:
            out.append(part if type(part) is str else _third(part, mark))  # words: as they are
        return "".join(out)


_SLOT_KEYS = {"who", "verb", "you", "whose", "silent"}


def _from_log(part: object) -> Part:
    """One logged part, checked for its shape: a damaged one raises ValueError."""
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        raise ValueError("a logged part is words, a slot or typed words")
    if set(part) == {"typed"} and isinstance(part["typed"], str):
        return Typed(part["typed"])
    name, verb, you = part.get("who"), part.get("verb", ""), part.get("you", "")
    flags = [part.get(flag, False) for flag in ("whose", "silent")]
    if (
        not set(part) <= _SLOT_KEYS
        or not (isinstance(name, str) and name)
        or not (isinstance(verb, str) and isinstance(you, str) and bool(verb) == bool(you))
        or any(flag is not True and flag is not False for flag in flags)
        or (flags[1] and not verb)
    ):
        raise ValueError("a logged slot is a name, with its verb's two forms, whose or silent")
    return Who(name, verb, whose=flags[0], silent=flags[1], you=you)


def _third(part: Part, mark: Mark) -> str:
    if isinstance(part, Who):
        return part.third(mark)
    if isinstance(part, Typed):
        return mark(part.text)
    return part


def who(name: str, verb: str = "") -> Said:
    """A sentence naming ``name``, followed by ``verb`` in the form its person needs ("Ann pays",
    "you pay"): ``who(player, "is") + " in jail"``."""
    return Said(named(name) if not verb else Who(name, verb))


_NAMED: dict[str, Who] = {}


def named(name: str) -> Who:
    """The slot of ``name`` with no verb after it, made once per name (a slot never changes): a table
    names the same few players and accounts in every sentence."""
    found = _NAMED.get(name)
    if found is None:
        found = Who(name)
        if len(_NAMED) < 1024:
            _NAMED[name] = found
    return found


def does(name: str, verb: str) -> Said:
    """A verb whose subject ``name`` came earlier in the sentence: ``who(player) + " rolled a double and "
    + does(player, "goes") + " to jail"`` ("and go to jail" on the player's phone)."""
    return Said(Who(name, verb, silent=True))


def whose(name: str) -> Said:
    """ "Ann's" at the table, "your" on Ann's phone: ``whose(player) + " turn ended"``."""
    return Said(Who(name, whose=True))


def typed(text: str) -> Said:
    """What people typed (a memo) inside a rule's sentence: ``" (" + typed(memo) + ")"``."""
    return Said(Typed(text))


def joined(separator: str, items: Iterable[str]) -> Said:
    """``separator.join(items)`` keeping the slots of every sentence among them."""
    parts: list[str] = []
    for i, item in enumerate(items):
        if i:
            parts.append(separator)
        parts.append(item)
    return Said(*parts)
