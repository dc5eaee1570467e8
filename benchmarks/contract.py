"""What a screen costs: listing a field's choices, each decided by the rule, against one decision.

A touchscreen list of deeds runs the rule once per deed (28 in a classic game) so that each line can show
its rent or why not. This prints the time of one such list and of one preview, each as a ratio to one plain
decision of the same action measured in the same run, on a mid-game table (every deed owned, some built).

``rent_chooser_open``: what opening the Rent chooser asks of the Banker on a table of 4 players with 8
deeds owned (Ann 3, Bob 2, Cy 2, Di 1), Bob to play: the deeds Bob could owe rent on (the list), the same
list again (the strip of other players' chips asks it too), and the deeds each other player could owe on,
as ``companion/ui/ask_view.py`` asks them; how many rule decisions that made and how many names were
looked up, and its time as a ratio to one decision in the same run. A fresh table version each time.

``views_after_action``: what the views cost after one action when the touchscreen and the phones both
follow the game in one process (as ``companion run`` with its phones' server): the phones' chronicle
takes the entry in, the phones' state and the touchscreen's whole state are made; the time per action
and how many times a player's worth was counted (``worth_counts_per_action``; 4 players).

    .venv/bin/python benchmarks/contract.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core import engine  # noqa: E402
from companion.service import Banker  # noqa: E402


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def fresh(b: Banker) -> Banker:
    """The Banker with a new version of the same table (nothing decided for it yet)."""
    b.table = dict(b.table)
    return b


def mid_game(folder: Path) -> Banker:
    b = Banker.create(folder / "bench.game", "classic", ["Ann", "Bob", "Cy", "Di"], backup_every=0)
    owners = ["Ann", "Bob", "Cy"]
    b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 20_000})
    b.do({"action": "transfer", "from": "bank", "to": "Bob", "amount": 20_000})
    b.do({"action": "transfer", "from": "bank", "to": "Cy", "amount": 20_000})
    for i, deed in enumerate(b.table["pack"]["deed_order"]):
        b.do({"action": "buy", "player": owners[i % 3], "deed": deed})
    return b


def chooser_table(folder: Path) -> Banker:
    b = Banker.create(folder / "chooser.game", "classic", ["Ann", "Bob", "Cy", "Di"], backup_every=0)
    order = b.table["pack"]["deed_order"]
    for owner, deeds in (("Ann", order[0:3]), ("Bob", order[5:7]), ("Cy", order[10:12]), ("Di", order[15:16])):
        for deed in deeds:
            b.do({"action": "buy", "player": owner, "deed": deed})
    return b


def open_rent_chooser(b: Banker) -> None:
    """What the touchscreen asks when the Rent chooser opens with Bob to play (ask_view.py)."""
    fresh(b)
    b.next_field("rent", {"payer": "Bob"})
    b.choices("rent", "deed", {"payer": "Bob"})  # the list of deeds
    b.choices("rent", "deed", {"payer": "Bob"})  # the chips' strip asks for the acting player's list
    for other in ("Ann", "Cy", "Di"):  # and for each other player's
        b.choices("rent", "deed", {"payer": other})


def counted_chooser(b: Banker) -> tuple[int, int]:
    """(rule decisions, name look-ups) of opening the chooser once."""
    from companion.core import model

    counts = {"decisions": 0, "look-ups": 0}
    patched = {}

    def counting(module, name, what):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            counts[what] += 1
            return original(*args, **kwargs)

        patched[(module, name)] = original
        setattr(module, name, wrapper)

    counting(engine, "check_conservation", "decisions")  # once at the end of every decision
    counting(model, "_match", "look-ups")
    try:
        open_rent_chooser(b)
    finally:
        for (module, name), original in patched.items():
            setattr(module, name, original)
    return counts["decisions"], counts["look-ups"]


def views_after_action(b: Banker, actions: int = 200) -> tuple[list[float], float]:
    """(seconds per action for the views, worth counts per action) with the phones and the touchscreen watching."""
    from companion.views import state_json
    from companion.web.desk import PhoneDesk

    desk = PhoneDesk(b)
    counts = [0]
    family_worth = b.rules.worth

    def counted(table, name):
        counts[0] += 1
        return family_worth(table, name)

    b.rules.worth = counted
    players = b.table["order"]
    samples = []
    try:
        for i in range(actions):
            # the action itself is not timed: only the views after it
            outcome = b.do({"action": "transfer", "from": players[i % 3], "to": players[(i + 1) % 3], "amount": 1})
            start = time.perf_counter()
            desk.chronicle.see(outcome.entry)
            desk.hub.bump()
            desk.state()
            state_json(b.table, b.rules, b.version)
            samples.append(time.perf_counter() - start)
        return samples, counts[0] / actions
    finally:
        b.rules.worth = family_worth
        desk.close_file()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        b = mid_game(Path(folder))
        action = {"action": "rent", "payer": "Di", "deed": "Boardwalk"}
        one = timed(lambda: engine.decide(b.table, action, b.rules), 300)
        # each on a new version of the table: the Banker keeps what it decided for one version
        preview = timed(lambda: fresh(b).preview(action), 300)
        listing = timed(lambda: fresh(b).choices("rent", "deed", {"payer": "Di"}), 60)
        candidates = len(b.choices("rent", "deed", {"payer": "Di"}))
        base = statistics.median(one)
        for name, samples in (("decide_ms", one), ("preview_ms", preview), ("choices_rent_deed_ms", listing)):
            print(
                json.dumps(
                    {
                        "figure": name,
                        "p50": round(statistics.median(samples) * 1000, 3),
                        "ratio_to_one_decide": round(statistics.median(samples) / base, 2),
                        **({"candidates": candidates} if name.startswith("choices") else {}),
                    }
                )
            )
        chooser = chooser_table(Path(folder))
        decisions, lookups = counted_chooser(chooser)
        opened = timed(lambda: open_rent_chooser(chooser), 100)
        print(
            json.dumps(
                {
                    "figure": "rent_chooser_open",
                    "p50_ms": round(statistics.median(opened) * 1000, 3),
                    "ratio_to_one_decide": round(statistics.median(opened) / base, 2),
                    "decisions": decisions,
                    "name_lookups": lookups,
                    "players": 4,
                    "deeds_owned": 8,
                }
            )
        )
        chooser.close()
        views, worth_counts = views_after_action(b)
        print(
            json.dumps(
                {
                    "figure": "views_after_action",
                    "p50_ms": round(statistics.median(views) * 1000, 3),
                    "worth_counts_per_action": worth_counts,
                    "players": len(b.table["order"]),
                }
            )
        )
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
