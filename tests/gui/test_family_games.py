"""A short evening of every installed game, played on the touchscreen with the real pointer: a new
game from the start screen (the players' names typed on the keyboard), salary, buying, rent, a
mortgage, building, an auction, undo, redo and the end of the game. City Life is played twice, with
its basic and its advanced rules.

The banker taps with the X server's pointer (xdotool under Xvfb), 150 to 600 ms apart, jittered, and
goes from screen to screen by tapping, as at the table. Each tap waits for its button to be drawn,
enabled and still; after each tap that moves money the test waits for the ledger's version to move
(or for the refusal's reason), then checks the ledger, and the tiles must show what the ledger says.
Nothing waits on a sleep.

Steps a family does not have (The Game of Life has no deeds to buy) are skipped for that family; the
rest still run. One app serves the whole module: each game starts from the screen the last one ended on.
"""

from contextlib import contextmanager

import pytest

from companion.rules import pack_names

pytestmark = [pytest.mark.gui, pytest.mark.slow, pytest.mark.spread]  # each evening is a new game on the shared app

EVENINGS = [pytest.param(pack, {}, id=pack) for pack in pack_names()]
if "city-life" in pack_names():
    EVENINGS.append(pytest.param("city-life", {"advanced": True}, id="city-life-advanced"))


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    """The touchscreen app on an empty games folder, at 800x480, tapped by the real pointer."""
    from tests.gui.hands import start_app, stop_app

    hands = start_app(tmp_path_factory.mktemp("games"), real_pointer=True)
    yield hands
    stop_app(hands)


def tiles(bank):
    return {w.name: w for w in bank.all() if type(w).__name__ == "PlayerTile"}


#: How the banker leaves each screen for the table.
WAY_BACK = {
    "deeds": "back",
    "more": "back",
    "history": "back",
    "over": "back",
    "ask": "cancel",
    "amount": "cancel",
    "card": "back",
}


def to_table(bank):
    """Tap the way back to the table from wherever the last step left the screen."""
    for _ in range(4):
        if bank.screen == "table":
            return
        screen = bank.screen
        bank.tap(WAY_BACK[screen])
        bank.until(f"the {screen} screen to close", lambda screen=screen: bank.screen != screen)
    assert bank.screen == "table"


def answered(bank, desk, version, what):
    """Wait for the tap's answer: the ledger moved, or a refusal with its reason."""
    bank.until(what, lambda: desk.version != version or bank.bubble())


def screen_follows_ledger(bank):
    desk = bank.app.desk
    to_table(bank)
    ledger = {p: desk.fmt(desk.table["accounts"][p]) for p in desk.table["order"]}
    shown = {}

    def drawn():
        shown.update({name: tile.cash_text for name, tile in tiles(bank).items()})
        return shown == ledger

    bank.until("the tiles to show the ledger's balances", drawn, seconds=5)


def any_live_choice(bank):
    return any((getattr(w, "name", "") or "").startswith("choice-") and not w.refused for w in bank.all())


def first_live_choice(bank):
    live = [w for w in bank.all() if (getattr(w, "name", "") or "").startswith("choice-") and not w.refused]
    assert live, f"no possible answer on {bank.screen}"
    return live[0]


def new_game(bank, pack, options):
    """From the screen the last evening ended on (its game over, or the start screen): a new game of
    ``pack`` for Ann and Bob, with ``options`` switched on."""
    if bank.screen not in ("over", "start"):  # the last evening failed half-way: start from a clean screen
        for child in list(bank.app.root_window.children):
            if type(child).__name__ in ("ConfirmBox", "DeclineBox"):
                child.dismiss()
        bank.app.show("start")
    if bank.screen == "over":
        bank.tap("new-game")
        bank.until("the start screen", lambda: bank.screen == "start")
    bank.tap("new-game")
    bank.until("the new game's screen", lambda: bank.screen == "setup")
    bank.tap(f"pack-{pack}")
    setup = bank.app.screens["setup"]
    bank.until(f"{pack} chosen", lambda: setup.form.pack == pack)
    for key, on in options.items():
        if bool(setup.form.options.get(key)) != on:
            bank.tap(f"option-{key}")
        bank.until(f"{key} {'on' if on else 'off'}", lambda key=key, on=on: bool(setup.form.options.get(key)) == on)
    names = [w for w in bank.all() if type(w).__name__ == "Entry" and w.hint_text.startswith("Player")]
    bank.type("Ann", widget=names[0])
    bank.type("Bob", widget=names[1])
    bank.tap("start-game")
    bank.until("the table of the new game", lambda: bank.screen == "table" or bank.bubble())
    assert bank.screen == "table", bank.bubble()
    desk = bank.app.desk
    assert desk.table["pack"]["name"] == pack and desk.table["order"] == ["Ann", "Bob"]
    assert all(bool(desk.table["options"].get(k)) == on for k, on in options.items())
    screen_follows_ledger(bank)
    return desk


def refused_without_change(bank, desk, version):
    """A refusal: its reason is on screen, and the ledger did not move."""
    reason = bank.bubble()
    assert reason and desk.version == version
    return f"refused: {reason}"


#: What each family does on Ann's first turn beyond the classic steps, from More, with the answers the
#: banker picks (the rest: the first possible one): Greenopoly's character card comes before any
#: salary, The Game of Life's career before its pay day; in City Life Ann lands on House 4, for sale.
FAMILY_FIRST = {
    "greenopoly": [("choose_character", {})],
    "game-of-life": [("career", {}), ("pay_day", {})],
    "city-life": [("land", {"square": 4})],
}
#: ... and on Bob's turn, before the rent: in City Life Bob lands on Ann's House 4 and pays her its fee.
FAMILY_BOBS_TURN = {"city-life": [("land", {"square": 4})]}


def answer_on_screen(bank, answers):
    """Answer what the flow asks: the banker's pick in ``answers`` (by field), else the first possible
    choice (an amount: 100 on the keypad; a note: none; a question: yes)."""
    asked = bank.app.screens["ask"].field if bank.screen == "ask" else None
    if bank.has("confirm-yes"):
        bank.tap("confirm-yes")
    elif asked in answers:
        bank.tap(f"choice-{answers[asked]}")
    elif bank.screen == "ask" and any_live_choice(bank):
        bank.tap(widget=first_live_choice(bank))
    elif bank.screen == "ask" and bank.has("done"):
        bank.tap("done")
    elif bank.screen == "amount":
        bank.keys("100")
        bank.tap("confirm")
    else:
        return False
    return True


def step_from_more(bank, desk, action, answers):
    """The player to play does the family's ``action`` from More, each question answered by a tap;
    no money is made or lost on the way (what one pays, the others get)."""
    to_table(bank)
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    if not bank.has(f"action-{action}"):
        return f"no {action}"
    version, before = desk.version, dict(desk.table["accounts"])
    bank.tap(f"action-{action}")
    for _ in range(6):  # one tap per question the flow asks
        if desk.version != version or bank.bubble():
            break
        if not answer_on_screen(bank, answers):
            break
    answered(bank, desk, version, f"{action} on the ledger")
    if desk.version == version:
        return refused_without_change(bank, desk, version)
    entry = desk.banker.log()[-1].action
    assert entry["action"] == action and all(entry[k] == v for k, v in answers.items() if k in entry), entry
    moved = {p: desk.table["accounts"].get(p, 0) - before.get(p, 0) for p in desk.table["accounts"]}
    assert sum(moved.values()) == 0  # every dollar came from somewhere: the bank, a pot, a player
    if moved["Ann"] > 0 > moved["Bob"]:
        assert moved["Ann"] <= -moved["Bob"]  # Ann gets what Bob paid, less any tax to the pot
    return None


def step_salary(bank, desk):
    if not bank.has("salary"):
        return "no salary"
    before, version = desk.table["accounts"]["Ann"], desk.version
    bank.tap("salary")
    answered(bank, desk, version, "Ann's salary, or why not")
    if desk.version == version:
        return refused_without_change(bank, desk, version)
    assert desk.table["accounts"]["Ann"] > before
    assert desk.banker.log()[-1].action["action"] == "salary"


def step_buy(bank, desk, who="Ann"):
    if not bank.has("buy"):
        return "no buying"
    owned = {d for d, s in desk.table["deeds"].items() if s.get("owner") == who}
    bank.tap("buy")
    if bank.screen != "ask":
        return f"buy went to {bank.screen}: {bank.bubble()}"
    if not any_live_choice(bank):
        bank.tap("cancel")
        return "nothing to buy now"
    choice = first_live_choice(bank)
    deed, version = choice.value, desk.version
    bank.tap(widget=choice)
    answered(bank, desk, version, f"{who} buying {deed}")
    assert bank.screen == "table", bank.bubble()
    assert desk.banker.log()[-1].summary.startswith(f"{who} bought {deed}")
    if "owner" not in desk.table["deeds"][deed]:
        return None  # an item the player holds (The Game of Life's insurance), not a deed on the board
    assert desk.table["deeds"][deed]["owner"] == who
    assert {d for d, s in desk.table["deeds"].items() if s.get("owner") == who} == owned | {deed}
    return deed


def step_next_turn(bank, desk):
    turn = desk.state()["turn"]["player"]
    bank.tap("next_turn")
    bank.until("the next player's turn", lambda: desk.state()["turn"]["player"] != turn)


def step_rent(bank, desk):
    if not bank.has("rent") or not any(s.get("owner") == "Ann" for s in desk.table["deeds"].values()):
        return "no rent to pay"
    assert desk.state()["turn"]["player"] == "Bob"
    ann, bob, version = desk.table["accounts"]["Ann"], desk.table["accounts"]["Bob"], desk.version
    bank.tap("rent")
    if bank.screen == "ask":
        bank.tap(widget=first_live_choice(bank))
    if bank.screen == "ask":  # the dice, or another answer the family asks for
        bank.tap(widget=first_live_choice(bank))
    answered(bank, desk, version, "Bob's rent to Ann")
    assert bank.screen == "table", bank.bubble()
    paid = bob - desk.table["accounts"]["Bob"]
    assert paid >= 0 and desk.table["accounts"]["Ann"] == ann + paid


def open_card(bank, deed):
    to_table(bank)
    bank.tap("menu-deeds")
    bank.tap(f"deed-{deed}")
    bank.until(f"{deed}'s card", lambda: bank.app.screens["deeds"].deed == deed)


def step_mortgage(bank, desk, deed):
    if deed is None:
        return "no deed"
    open_card(bank, deed)
    if not bank.has("do-mortgage"):
        return "no mortgages"
    version = desk.version
    bank.tap("do-mortgage")
    answered(bank, desk, version, f"{deed} mortgaged")
    if desk.version == version:  # mortgages the family keeps for other rules (City Life's advanced)
        return refused_without_change(bank, desk, version)
    assert desk.table["deeds"][deed].get("mortgaged"), bank.bubble()
    assert bank.screen == "deeds"
    if not bank.has("undo"):
        to_table(bank)  # Undo is on the table
    bank.tap("undo")
    bank.until(f"{deed}'s mortgage undone", lambda: not desk.table["deeds"][deed].get("mortgaged"))


def step_build(bank, desk):
    """Ann buys a whole group (through the Buy flow) and builds once on the deed's card."""
    from companion.ui.ask_view import deed_groups

    to_table(bank)
    if not bank.has("buy"):
        return "no building"

    state = desk.state()
    for group in deed_groups(state):
        names = [d["name"] for d in group["deeds"]]
        if all(not d.get("owner") or d.get("owner") == "Ann" for d in group["deeds"]) and len(names) <= 3:
            break
    else:
        return "no free group"
    desk.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": desk.pack.get("start_cash", 1500) * 5})
    for name in names:
        if desk.table["deeds"][name].get("owner") is None:
            bank.tap("buy")
            bank.until("the Buy chooser", lambda: bank.screen == "ask")
            acting = bank.app.screens["ask"].form.actor
            if acting:
                bank.tap(f"{acting}-Ann")  # Ann buys in this one action, whoever is to play
            version = desk.version
            bank.tap(f"choice-{name}")
            answered(bank, desk, version, f"Ann buying {name}")
            if desk.table["deeds"][name].get("owner") != "Ann":
                return f"could not buy {name}: {bank.bubble()}"
    open_card(bank, names[0])
    live = [
        w
        for w in bank.all()
        if (getattr(w, "name", "") or "").startswith("do-")
        and w.opacity == 1
        and w.value
        and w.value.get("action") in ("build", "improve")
        and not w.value.get("refused")
    ]
    if not live:
        return "nothing can be built here now"
    version = desk.version
    bank.tap(widget=live[0])
    if bank.screen == "ask":
        bank.tap(widget=first_live_choice(bank))
    answered(bank, desk, version, "Ann's building")
    assert desk.version == version + 1, bank.bubble()
    assert desk.banker.log()[-1].action["action"] in ("build", "improve")


@contextmanager
def the_units_time_held(bank):
    """The trading unit's time stands still while the banker bids. Its 50 seconds are a person's: four
    taps at a person's pace take a few of them, but the test's hands wait for every screen to settle
    before each tap, and on a loaded machine four such taps have taken longer than 50 seconds, so the
    light went off before Record or Sold. The light going off is tested on its own (test_auction.py)."""
    link = bank.app.unit_link
    running = link.clock
    held = running()
    link.clock = lambda: held
    try:
        yield
    finally:
        link.clock = running


def step_auction(bank, desk):
    to_table(bank)
    if not bank.has("auction"):
        return "no auctions"
    with the_units_time_held(bank):
        return _auction(bank, desk)


def _auction(bank, desk):
    bank.tap("auction")
    bank.until("the auction's chooser", lambda: bank.screen == "ask")
    if not any_live_choice(bank):
        bank.tap("cancel")
        return "nothing to auction now"
    choice = first_live_choice(bank)
    deed = choice.value
    bank.tap(widget=choice)
    auction = bank.app.screens["auction"]
    bank.until(f"the auction of {deed}", lambda: bank.screen == "auction" and auction.lot == deed)
    bank.tap("start-timer")
    bank.tap("bidder-Bob")
    if auction.keys_shown:
        bank.tap("bid-keys")  # the pack's steps instead of the keypad
        bank.until("the pack's steps", lambda: not auction.keys_shown)
    quick = sorted(
        (w for w in bank.all() if (getattr(w, "name", "") or "").startswith("raise-")), key=lambda w: w.value
    )
    bank.tap(widget=quick[len(quick) // 2])
    bank.tap("record-bid")
    unit = bank.app.unit_link.unit
    bank.until("Bob's bid on the unit", lambda: unit.highest_bid is not None and unit.highest_bid.bidder == "Bob")
    bid = unit.highest_bid
    cash, version = desk.table["accounts"]["Bob"], desk.version
    bank.tap("sold")
    answered(bank, desk, version, f"{deed} sold to Bob")
    bank.until("the table", lambda: bank.screen == "table" or bank.bubble())
    assert bank.screen == "table", bank.bubble()
    assert desk.table["deeds"][deed]["owner"] == "Bob"
    assert desk.table["accounts"]["Bob"] == cash - bid.amount
    return deed


def step_undo_redo(bank, desk, deed):
    to_table(bank)
    version = desk.version
    bank.tap("undo")
    bank.until("the undo on the ledger", lambda: desk.version != version)
    assert desk.version == version + 1
    if deed:
        assert desk.table["deeds"][deed].get("owner") is None
    bank.tap("redo")
    bank.until("the redo on the ledger", lambda: desk.version != version + 1)
    assert desk.version == version + 2
    if deed:
        assert desk.table["deeds"][deed]["owner"] == "Bob"


def step_collect_from_all(bank, desk):
    """An action from More, put together by the generic flow: Ann collects 100 from every player."""
    to_table(bank)
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    if not bank.has("action-collect_from_all"):
        return "no collecting"
    before = {p: desk.table["accounts"][p] for p in desk.table["order"]}
    bank.tap("action-collect_from_all")
    bank.until("the keypad", lambda: bank.screen == "amount")
    acting = bank.app.screens["amount"].form.actor
    if acting:
        bank.tap(f"{acting}-Ann")  # Ann collects in this one action, whoever is to play
    bank.keys("100")
    version = desk.version
    bank.tap("confirm")
    answered(bank, desk, version, "Ann collecting from every player")
    assert bank.screen == "table", bank.bubble()
    unit = desk.table["accounts"]["Ann"] - before["Ann"]
    assert unit == 100 * (len(before) - 1)
    assert all(desk.table["accounts"][p] == before[p] - 100 for p in before if p != "Ann")


def step_game_over(bank, desk):
    to_table(bank)
    bank.tap("more")
    bank.tap("action-end_game")
    if bank.screen == "ask":  # the optional reason: skipped
        bank.tap("done")
    bank.tap("confirm-yes")
    bank.until("the game over", lambda: desk.table.get("over") or bank.bubble())
    assert desk.table.get("over"), bank.bubble()
    bank.until("the game-over screen", lambda: bank.screen == "over")
    ranks = [w.player for w in bank.all() if type(w).__name__ == "RankRow"]
    assert ranks == [r["player"] for r in desk.table["over"]["ranking"]]


@pytest.mark.parametrize(("pack", "options"), EVENINGS)
def test_a_short_game_at_the_table(bank, pack, options):
    skipped = {}
    desk = new_game(bank, pack, options)
    for action, answers in FAMILY_FIRST.get(pack, []):
        skipped[action] = step_from_more(bank, desk, action, answers)
        screen_follows_ledger(bank)
    skipped["salary"] = step_salary(bank, desk)
    screen_follows_ledger(bank)
    bought = step_buy(bank, desk)
    skipped["buy"] = bought if not (bought and bought in desk.table["deeds"]) else None
    deed = bought if skipped["buy"] is None else None
    screen_follows_ledger(bank)
    step_next_turn(bank, desk)
    for action, answers in FAMILY_BOBS_TURN.get(pack, []):
        skipped[f"Bob's {action}"] = step_from_more(bank, desk, action, answers)
        screen_follows_ledger(bank)
    skipped["rent"] = step_rent(bank, desk)
    screen_follows_ledger(bank)
    skipped["mortgage"] = step_mortgage(bank, desk, deed)
    skipped["build"] = step_build(bank, desk) if deed else "no deeds"
    screen_follows_ledger(bank)
    sold = step_auction(bank, desk)
    skipped["auction"] = sold if not (sold and sold in desk.table["deeds"]) else None
    step_undo_redo(bank, desk, sold if skipped["auction"] is None else None)
    screen_follows_ledger(bank)
    skipped["collect from all"] = step_collect_from_all(bank, desk)
    screen_follows_ledger(bank)
    evening = pack + "".join(f"-{k}" for k, on in options.items() if on)
    bank.shot(f"game-{evening}")
    step_game_over(bank, desk)
    bank.shot(f"over-{evening}")
    assert desk.banker.verify() == []
    skipped = {k: v for k, v in skipped.items() if v}
    print(evening, skipped)
    if pack == "classic":
        assert not skipped  # the family every step was written for: nothing may be left out
