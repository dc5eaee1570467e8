"""The app's screens: thin Kivy classes that show a view-model and turn each tap into one call.

Each screen has a kv file of the same name in ``kv/`` for its layout. Decisions live in the
``companion.ui.*_view`` modules (pure, tested without a window) and in the app.
"""

from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

__all__ = ["BankScreen", "let_go_of_children"]


def let_go_of_children(box) -> int:
    """Take every widget off ``box``; how many widgets that let go, theirs included."""
    count = sum(1 for child in box.children for _ in child.walk(restrict=True))
    box.clear_widgets()
    return count


class BankScreen(Screen):
    """A screen that redraws itself from the game whenever it is shown or the ledger moves."""

    @property
    def app(self):
        return App.get_running_app()

    @property
    def desk(self):
        return self.app.desk

    #: Shown since it was made or last set back (a screen kept made is set back once per visit).
    visited = False

    def on_pre_enter(self, *args):
        self.visited = True
        self.refresh()

    def set_back(self) -> int:
        """Back to as it was made, keeping its widgets: for a screen kept made between visits
        (``companion.ui.letting_go.MADE_ONCE``), once the banker is done with it. Nothing of the visit
        may show on the next one (an amount, a payer, a question's answers, a scroll position, a
        focused box), and what only that visit needed is let go. Returns how many widgets it let go
        (a question's tiles, a payment's rows: garbage for the collector now), 0 if none."""
        raise NotImplementedError(f"{type(self).__name__} is not kept made between visits")

    def set_back_once(self) -> int:
        """Set back once after a visit; the widgets that let go (0 when it was not shown since it
        was last set back)."""
        if not self.visited:
            return 0
        self.visited = False
        return self.set_back()

    def refresh(self) -> None:
        """Show the current state; called on entering and after every committed entry."""

    def note_y(self) -> float | None:
        """Where the note of money just moved is centred (window y), or None for the window's top."""
        return None

    def busy(self) -> bool:
        """Something runs here that a fresh screen would not pick up: the screen stays while it does."""
        return False
