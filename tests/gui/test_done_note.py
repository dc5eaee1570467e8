"""The note of money just moved: who, how much, why, for a moment, where it hides nothing the banker
needs next (the turn, Deeds, History, the balances and the big buttons stay in sight)."""

import pytest

from companion.service import Banker

pytestmark = pytest.mark.gui


def note_on_show(bank):
    from companion.ui.widgets import DoneNote

    notes = [w for w in bank.app.layer.children if isinstance(w, DoneNote)]
    return notes[-1] if notes else None


def overlaps(a, b) -> bool:
    ax, ay = a.to_window(a.x, a.y)
    bx, by = b.to_window(b.x, b.y)
    return ax < bx + b.width and bx < ax + a.width and ay < by + b.height and by < ay + a.height


def test_ann_collects_her_salary_and_the_note_leaves_the_turn_and_the_menu_in_sight(bank, tmp_path):
    path = tmp_path / "evening.game"
    Banker.create(path, "classic", ["Ann", "Bob", "Cy", "Dee"], {"free_parking": "true"}, backup_every=0).close()
    assert bank.app.open_game(path) is None
    bank.tap("salary")
    bank.until("the note of the salary", lambda: note_on_show(bank) is not None)
    note = note_on_show(bank)
    assert note.text == "Ann collected $200 salary"
    bank.shot("table-note")
    table = bank.current
    for name in ("menu-deeds", "menu-history", "menu-unit"):
        assert not overlaps(note, bank.find(name)), name
    assert not overlaps(note, table.ids.tiles.children[-1]) or note.top <= table.ids.tiles.y + 12


def test_a_payment_made_on_the_keypad_is_noted_on_the_table_it_goes_back_to(bank, tmp_path):
    path = tmp_path / "keypad.game"
    Banker.create(path, "classic", ["Ann", "Bob"], {}, backup_every=0).close()
    assert bank.app.open_game(path) is None
    bank.tap("pay")
    assert bank.screen == "amount"
    bank.keys("50")
    bank.tap("confirm")
    bank.until("back at the table with the note", lambda: bank.screen == "table" and note_on_show(bank) is not None)
    note = note_on_show(bank)
    assert "$50" in note.text
    assert not overlaps(note, bank.find("menu-deeds"))
