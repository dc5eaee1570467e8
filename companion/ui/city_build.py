"""Build in Monopoly City from the table: Build, then the district.

Tapping Build presses the trading unit's build button when the player to play has not spun this turn:
the spinner turns on the chooser while the banker finds the district, and where it stops is recorded
as the ``spin`` action (by the unit link, as for the unit's own button). The Build form is then filled
from the allowance (residential blocks, as many as the spin allows, or the railroad it gave), so the
district's tap builds; its tile shows the cost before, the log's sentence shows after. A district
tapped while the spinner still turns is asked about the moment it stops, with the build's sentence (what
the spin allows was not on its tile when it was tapped: the law of the screen, companion.ui.shown). With a spin already recorded
this roll, Build and the district build from what is left; after a double the spinner turns again.
"""

from __future__ import annotations

from companion.trading_unit import PressRefused

from . import flows

__all__ = ["start_build"]


def start_build(app, near=None) -> None:
    """The table's Build, in a family whose builds draw on the build spinner."""
    desk = app.desk
    form = app.start("build")
    if form is None:
        app.refuse("Build is not part of this game", near)
        return
    spec = desk.specs[form.action]
    player = form.values.get(form.actor)
    spin = desk.build_spin(player, flows.spin_building(form, spec))  # this roll's: after a double it spins again
    screen = app.screens["ask"]
    link = app.unit_link
    if not spin["spun"] and link is not None:
        pressed = link.unit.press_build(link.clock())
        if isinstance(pressed, PressRefused):
            _record_last_spin(app, player)  # the unit spun this turn already (an undone spin): its result stands
            spin = desk.build_spin(player, flows.spin_building(form, spec), this_roll=False)
    screen.ask(flows.with_spin(form, spin, spec), flows.fields_of_kind(spec, "deed")[0])
    if not spin["spun"] and link is not None and link.unit.view(link.clock()).get("spinner") == "spinning":
        screen.spin(link)
    elif spin["spun"]:
        screen.ids.spinner.show_result(spin["text"].capitalize())
    app.show("ask")


def _record_last_spin(app, player: str | None) -> None:
    link = app.unit_link
    last = link.unit.spins[-1] if link.unit.spins else None
    if player and last is not None and last.turn == link.unit.turn:
        app.act({"action": "spin", "player": player, "result": last.face})
