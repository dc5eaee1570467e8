"""Money shown before it moves: the law of the banker's screen.

No tap moves money unless the screen already shows who pays whom how much: on the button itself
("Mortgage: Ann gets $30"), or on a confirming step that carries the preview's sentence with its
amounts. A widget that shows what an action would do carries that preview's :func:`promise`; when
a tap completes an action, the app compares the Banker's preview on the table as it stands with the
promise of the widget tapped, and asks first, with the sentence, whenever they differ: nothing was
shown, or the table moved since it was drawn (a phone paid meanwhile). Undo and Redo keep one tap:
their labels name exactly what they take back (:func:`taking_back`), and their promise is that entry,
so a tap on a label that named another entry (the log moved under the finger) asks first.

The words come from the action contract (:func:`companion.core.contract.money_words`, read from the
preview's postings), never from code written for one screen. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Preview, money_words

from . import flows

__all__ = ["Face", "face", "moves_money", "promise", "said", "taking_back"]

#: What a widget promises: the sentence and every posting of the preview it shows.
Promise = tuple


def promise(preview: Preview | None) -> Promise | None:
    """The key of what a preview would do: its sentence and its postings (None for no preview)."""
    if preview is None:
        return None
    return (preview.summary, tuple((p.payer, p.payee, p.amount) for p in preview.postings))


def moves_money(preview: Preview) -> bool:
    """Whether the action changes anyone's balance."""
    accounts = {p.payer for p in preview.postings} | {p.payee for p in preview.postings}
    return any(preview.moved(a) for a in accounts)


def said(label: str, words: str, *, apart: bool = False) -> str:
    """A button's words with the money it moves: "Mortgage: Ann gets $30" ("Build: 1 house, Ann pays
    $50" when the label already has its colon); ``apart``, the money on a line of its own below the
    label ("Bank loan\nAnn gets $1,000"), for a narrow button."""
    if apart:
        return f"{label}\n{words}"
    return f"{label}{', ' if ':' in label else ': '}{words}"


class Face(dict):
    """How a button that may complete an action in one tap reads: ``text`` and its ``promise``."""


def face(desk: Any, button: str, label: str, player: str | None, *, apart: bool = False) -> Face:
    """A table or More button in one game's words: when its flow is complete as soon as it opens (the
    player to play filled in: Salary, Pay day, a Bank loan, Pay to leave jail) and it would move money,
    the button says who gets or pays how much, and promises that preview; otherwise its label (the
    screens that follow show the money, or the tap shows the rule's reason). ``apart``: the money on
    its own line (:func:`said`)."""
    form = flows.start_flow(button, desk.specs, player=player)
    if form is None or desk.next_field(form.action, form.values) is not None:
        return Face(text=label, promise=None)
    found, _why = desk.preview(form.as_action())
    if found is None or not moves_money(found):
        return Face(text=label, promise=None)
    return Face(text=said(label, money_words(found, desk.table), apart=apart), promise=promise(found))


def taking_back(desk: Any, kind: str) -> Face:
    """Undo's or Redo's face (``kind``): its label names the entry it takes back or brings back
    ("Undo: Ann collected $200 salary"), and it promises that very entry; "Nothing to undo" and no
    promise when there is none. Every Undo and Redo on every screen reads this way."""
    found = desk.taken_back(kind)
    word = kind.capitalize()
    if found is None:
        return Face(text=f"Nothing to {kind}", promise=None)
    return Face(text=f"{word}: {found[1]}", promise=(kind, *found))
