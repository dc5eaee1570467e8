"""Done when, end to end: the touchscreen app runs the phones' server on its own loop (as on the Pi),
two players play a round of classic Monopoly from two Chromium pages at a phone's size with real taps
(a buy, rent, a tax, a trade the other player approves), then a round of City Life (a Bank loan the
banker approves on the touchscreen, a landing). The touchscreen shows each entry the moment it is
committed, with whose phone started it, and the banker undoes one with the real pointer (xdotool under
Xvfb). The ledger is exactly what the same actions from the touchscreen make.

Everything runs on one thread and one asyncio loop, like the app itself: Kivy's frames, the phones'
server and Playwright's async client; the phones' server listens on loopback only.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = [pytest.mark.gui, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def ledger(banker: Banker) -> list[tuple]:
    return [(e.summary, e.events) for e in banker.log()[1:]]


def same_from_the_touchscreen(folder: Path, rules: str, options: dict, actions: list[dict]) -> list[tuple]:
    with Banker.create(folder / f"touch-{rules}.game", rules, ["Ann", "Bob"], options, backup_every=0) as other:
        for action in actions:
            other.undo() if action == "undo" else other.do(action)
        return ledger(other)


class Table:
    """The app and its loop: ``await until(...)`` keeps Kivy's frames turning while the server serves."""

    def __init__(self, hands) -> None:
        self.hands = hands
        self.app = hands.app

    async def frames(self) -> None:
        while True:
            self.hands.turn()
            await asyncio.sleep(0.005)

    async def until(self, what: str, ready, seconds: float = 30.0) -> None:
        end = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > end:
                raise AssertionError(f"waited {seconds:.0f} s for {what} (last: {self.app.last_text!r})")
            await asyncio.sleep(0.02)

    async def shows(self, sentence: str, by: str) -> None:
        """The touchscreen tells the entry the moment it is committed, with whose phone started it."""
        await self.until(
            f"the touchscreen to show {sentence!r}", lambda: self.app.last_text == f"{by}'s phone: {sentence}"
        )


async def phone(browser, app, who: str):
    from playwright.async_api import expect

    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = await context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    await page.goto(app.phones.join_url(who))
    await expect(page.locator("#play-list button").first).to_be_visible()
    return context, page, problems


async def start(page, action: str) -> None:
    await page.locator(f'#play-list button[data-action="{action}"]').tap()
    await page.locator("#play-form").wait_for()


async def choose(page, label: str) -> None:
    buttons = page.locator("#play-fields fieldset.asked button.choice", has_text=label)
    option = page.locator("#play-fields fieldset.asked option", has_text=label).first
    await buttons.or_(option).first.wait_for(state="attached")
    if await buttons.count():
        await buttons.first.tap()
        return
    await page.locator("#play-fields fieldset.asked select").select_option(value=await option.get_attribute("value"))


async def commit(page, sentence: str) -> None:
    from playwright.async_api import expect

    button = page.locator("#play-commit")
    await expect(button).to_have_text(sentence)
    await expect(button).to_be_enabled()
    await button.tap()
    await expect(page.locator("#play-form")).to_be_hidden()


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    from tests.gui.conftest import need_phone_server

    need_phone_server()
    folder = tmp_path_factory.mktemp("games")
    Banker.create(folder / "classic-night.game", "classic", ["Ann", "Bob"], {}).close()
    hands = start_app(folder, real_pointer=True)
    yield hands, folder
    stop_app(hands)


async def open_phones(table: Table, game: Path):
    from companion.appliance import phone_server
    from companion.ui.phones import Phones

    app = table.app
    await app.phones.stop()
    if app.desk is None or app.desk.path != game:
        app.open_game(game)
    app.settings_store = app.settings_store.change("host", "127.0.0.1").change("port", 0)
    app.phones = Phones(app.settings_store, server_factory=phone_server(), advertise=False, lan_address="127.0.0.1")
    assert await app.phones.start(app.desk.banker, on_change=lambda r: app.refresh()) is None
    app.show("table")


def test_two_phones_play_classic_and_city_life_and_the_touchscreen_sees_every_entry_and_undoes_one(bank):
    from playwright.async_api import async_playwright, expect

    from tests.web.phones import CHROMIUM_ARGS

    hands, folder = bank
    table = Table(hands)
    app = table.app

    async def classic(browser) -> None:
        await open_phones(table, folder / "classic-night.game")
        ann_ctx, ann, ann_problems = await phone(browser, app, "Ann")
        bob_ctx, bob, bob_problems = await phone(browser, app, "Bob")

        await start(ann, "buy")
        await choose(ann, "Boardwalk")
        await commit(ann, "Ann bought Boardwalk for $400")
        await table.shows("Ann bought Boardwalk for $400", "Ann")

        await start(bob, "rent")
        await choose(bob, "Boardwalk")
        await commit(bob, "Bob paid Ann $50 rent for Boardwalk")
        await table.shows("Bob paid Ann $50 rent for Boardwalk", "Bob")
        await expect(ann.locator("#me-cash")).to_have_text("$1,150")

        await start(bob, "tax")
        await choose(bob, "income tax")
        await choose(bob, "Pay $200")
        await commit(bob, "Bob paid $200 income tax")
        await table.shows("Bob paid $200 income tax", "Bob")

        # the banker takes the tax back on the touchscreen, with the real pointer: Bob's phone follows
        await table.until("Undo names the tax", lambda: "Bob paid $200 income tax" in hands.find("undo").text)
        hands.tap("undo")
        await table.until("the tax is back", lambda: app.desk.table["accounts"]["Bob"] == 1450)
        await expect(bob.locator("#me-cash")).to_have_text("$1,450")

        await start(ann, "trade")
        await choose(ann, "Bob")
        await (
            ann.locator("#play-fields fieldset", has_text="first player gives")
            .locator("button.choice", has_text="Boardwalk")
            .tap()
        )
        cash = ann.locator("#play-fields fieldset", has_text="second player gives").locator("input")
        await cash.fill("500")
        await cash.blur()
        await expect(ann.locator("#play-why")).to_have_text("Then Bob approves.")
        offered = await ann.locator("#play-commit").text_content()
        await ann.locator("#play-commit").tap()
        approve = bob.locator("#to-approve button.commit")
        await expect(approve).to_have_text("Approve: " + offered)
        await approve.tap()
        await table.shows(offered, "Ann")
        assert app.desk.table["deeds"]["Boardwalk"]["owner"] == "Bob"
        assert not ann_problems and not bob_problems, ann_problems + bob_problems
        await ann_ctx.close()
        await bob_ctx.close()

    async def city_life(browser) -> None:
        game = folder / "city-night.game"
        Banker.create(game, "city-life", ["Ann", "Bob"], {"advanced": "true"}).close()
        await open_phones(table, game)
        ann_ctx, ann, _ = await phone(browser, app, "Ann")
        bob_ctx, bob, _ = await phone(browser, app, "Bob")

        await start(bob, "borrow")  # the bank's money: it waits for the banker's tap on the touchscreen
        await expect(bob.locator("#play-why")).to_have_text("Then the banker approves.")
        await commit(bob, "Bob borrowed $1,000 from the Bank: $1,200 due in 7 turns")
        await table.until("the badge", lambda: hands.has("phones-waiting"))
        hands.tap("phones-waiting")
        await table.until("the requests screen", lambda: hands.screen == "requests")
        waiting = app.phones.plays_waiting()
        assert [p.player for p in waiting] == ["Bob"]
        hands.tap(f"approve-{waiting[0].id}")
        await table.shows("Bob borrowed $1,000 from the Bank: $1,200 due in 7 turns", "Bob")
        await expect(bob.locator("#my-plays")).to_contain_text("Done")
        hands.tap("back")

        await start(ann, "land")
        await choose(ann, "Ernie's Garage")
        button = ann.locator("#play-commit")
        await expect(button).to_be_enabled()
        landing = await button.text_content()
        await button.tap()
        await table.shows(landing, "Ann")
        await ann_ctx.close()
        await bob_ctx.close()

    async def evening() -> None:
        frames = asyncio.get_running_loop().create_task(table.frames())
        try:
            async with async_playwright() as p:
                browser = await p.chromium.launch(
                    executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True
                )
                try:
                    await classic(browser)
                    classic_log = ledger(app.desk.banker)
                    app.show("history")  # every entry there, each with whose phone started it
                    await table.until("the history", lambda: hands.screen == "history")
                    rows = app.screens["history"].ids.rows.data
                    told = {(r["words"], r["note"]) for r in rows}
                    assert ("Ann bought Boardwalk for $400", "Ann's phone") in told
                    assert ("Bob paid Ann $50 rent for Boardwalk", "Bob's phone") in told
                    assert ("Bob paid $200 income tax", "taken back") in told
                    hands.shot("history-phones")
                    await city_life(browser)
                finally:
                    await browser.close()
            await app.phones.stop()
        finally:
            frames.cancel()
        return classic_log

    loop = asyncio.new_event_loop()
    try:
        classic_log = loop.run_until_complete(evening())
    finally:
        loop.close()

    assert classic_log == same_from_the_touchscreen(
        folder,
        "classic",
        {},
        [
            {"action": "buy", "player": "Ann", "deed": "Boardwalk"},
            {"action": "rent", "payer": "Bob", "deed": "Boardwalk"},
            {"action": "tax", "player": "Bob", "tax": "income", "choice": "flat"},
            "undo",
            {"action": "trade", "a": "Ann", "b": "Bob", "give": {"deeds": ["Boardwalk"]}, "get": {"cash": 500}},
        ],
    )
    assert ledger(app.desk.banker) == same_from_the_touchscreen(
        folder,
        "city-life",
        {"advanced": True},
        [{"action": "borrow", "player": "Bob"}, {"action": "land", "player": "Ann", "square": 19}],
    )
