"""The Kivy workarounds: each behaviour is still there on the Kivy installed, the workaround lets go of
what Kivy kept, and on a Kivy it was not verified on it does nothing and says so once."""

from __future__ import annotations

import gc
import logging
import weakref

import pytest

from companion.ui import kivy_fixes

pytestmark = pytest.mark.gui


@pytest.fixture
def verified_kivy():
    if kivy_fixes.kivy_version() not in kivy_fixes.VERIFIED:
        pytest.skip(f"Kivy {kivy_fixes.kivy_version()} is not one the workarounds were verified on")


def test_every_workaround_names_its_upstream_report_or_says_none_was_found():
    for w in kivy_fixes.WORKAROUNDS:
        assert w.behaviour and w.verified_on
        assert w.upstream is None or w.upstream.startswith("https://github.com/kivy/kivy/")


def test_a_text_box_off_the_window_is_kept_by_kivy_and_let_go_by_the_fix(verified_kivy, window, frame):
    """The banker types a memo on a form, the form is let go: Kivy's TextInput still holds the box."""
    from kivy.uix.textinput import TextInput

    box = TextInput(text="Rent for Boardwalk, " * 20, size_hint=(None, None), size=(200, 40))
    window.add_widget(box)
    frame()
    box.cursor = (len(box.text), 0)  # scrolls the text: _adjust_viewport is called with the box
    TextInput._adjust_viewport(*_last_viewport_args(box))
    window.remove_widget(box)
    gone = weakref.ref(box)
    del box
    gc.collect()
    assert gone() is not None  # the behaviour worked around: Kivy keeps the last box
    assert kivy_fixes.forget_last_text_box() is True
    gc.collect()
    assert gone() is None
    assert kivy_fixes.forget_last_text_box() is False  # nothing kept any more


def _last_viewport_args(box) -> tuple:
    """The arguments Kivy's own call passes (the box, then the cursor's column and row)."""
    col, row = box.cursor
    return (box, col, row)


def test_a_screen_that_left_is_kept_by_the_finished_transition_and_let_go_by_the_fix(verified_kivy, window, frame):
    from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

    manager = ScreenManager(transition=NoTransition())
    table, form = Screen(name="table"), Screen(name="form")
    manager.add_widget(table)
    manager.add_widget(form)
    window.add_widget(manager)
    try:
        manager.current = "form"
        frame()
        manager.current = "table"
        frame()
        manager.remove_widget(form)
        assert manager.transition.screen_out is form  # the behaviour worked around
        assert kivy_fixes.release_left_screen(manager, form) is True
        assert manager.transition.screen_out is table
        gone = weakref.ref(form)
        del form
        gc.collect()
        assert gone() is None
    finally:
        window.remove_widget(manager)


def test_a_list_that_left_while_its_scroll_bar_fades_is_kept_by_kivy_and_let_go_by_the_fix(
    verified_kivy, window, frame
):
    """The banker swipes the history and goes back at once: the list's scroll bar is still due to fade."""
    from kivy.animation import Animation
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    screen = BoxLayout()
    rows = ScrollView()
    rows.add_widget(Label(text="Ann collected $200 salary\n" * 40, size_hint_y=None, height=2000))
    screen.add_widget(rows)
    blinking = Label(text="Undo")
    screen.add_widget(blinking)
    window.add_widget(screen)
    frame()
    rows.scroll_y = 0  # the swipe: the bar shows, and is due to fade half a second later
    frame()
    Animation(opacity=0.5, d=60).start(blinking)  # and something of the screen's own still animating
    window.remove_widget(screen)
    gone = weakref.ref(screen)
    gc.collect()
    assert gone() is not None  # the behaviour worked around: Kivy's clock and animations hold it
    assert kivy_fixes.stop_what_runs_on(screen) >= 2  # the fade due, and the animation
    del screen, rows, blinking
    gc.collect()
    assert gone() is None


def test_on_a_kivy_not_verified_nothing_is_patched_and_it_says_so_once(monkeypatch, caplog):
    monkeypatch.setattr(kivy_fixes, "kivy_version", lambda: "9.0.0")
    monkeypatch.setattr(kivy_fixes, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=kivy_fixes.__name__):
        assert kivy_fixes.forget_last_text_box() is False
        assert kivy_fixes.forget_last_text_box() is False

        class Manager:
            class transition:
                screen_out = "form"
                screen_in = "table"

        assert kivy_fixes.release_left_screen(Manager, "form") is False
        assert Manager.transition.screen_out == "form"  # untouched
        from kivy.uix.scrollview import ScrollView

        assert kivy_fixes.stop_what_runs_on(ScrollView()) == 0  # animations are Kivy's API: stopped all the same
        assert kivy_fixes.stop_what_runs_on(ScrollView()) == 0
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 3  # once for each workaround, however often it is asked
    assert all("Kivy 9.0.0" in w and "not applied" in w for w in warnings)
