"""Two players play from their own phones (two Chromium pages at a phone's size, real taps): classic
Monopoly (a buy, rent, a tax, a trade the other player approves) and City Life (a Bank loan the banker
approves, a landing). The log holds exactly what the same actions from the touchscreen would have made,
and the page passes an accessibility check (axe-core) with no serious violations.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.service import Banker
from tests.web.phones import LiveTable
from tests.web.phones import CHROMIUM_ARGS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# The pictures go to artifacts/screenshots; with DOC_SHOTS=1 they are the docs' own (docs/images), so a
# plain test run leaves the checkout as it found it.
DOCS = Path(__file__).resolve().parents[2] / ("docs/images" if os.environ.get("DOC_SHOTS") else "artifacts/screenshots")
STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def axe_js() -> Path:
    """axe-core's script, from $AXE_CORE_JS or installed from npm into a temporary folder (never vendored)."""
    given = os.environ.get("AXE_CORE_JS")
    if given and Path(given).is_file():
        return Path(given)
    cached = Path(tempfile.gettempdir()) / "table-banker-axe" / "node_modules" / "axe-core" / "axe.min.js"
    if not cached.is_file():
        npm = shutil.which("npm")
        assert npm, "npm is needed to fetch axe-core for the accessibility check"
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(cached.parents[2]), "axe-core@4"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    return cached


def phone(chromium, live: LiveTable, who: str, *, bypass_csp: bool = False):
    context = chromium.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, bypass_csp=bypass_csp
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live.base}/j/{live.token(who)}")
    page.locator("#plays").wait_for()
    return context, page, problems


def start(page, action: str) -> None:
    page.locator(f'#play-list button[data-action="{action}"]').tap()
    page.locator("#play-form").wait_for()


def choose(page, label: str) -> None:
    """Tap a choice button, or pick from the list when the choices are many."""
    buttons = page.locator("#play-fields fieldset.asked button.choice", has_text=label)
    option = page.locator("#play-fields fieldset.asked option", has_text=label).first
    buttons.or_(option).first.wait_for(state="attached")  # the form follows each tap once the server answers
    if buttons.count():
        buttons.first.tap()
        return
    page.locator("#play-fields fieldset.asked select").select_option(value=option.get_attribute("value"))


def ann_offers_bob_boardwalk(page):
    """Ann opens a trade with Bob and puts Boardwalk on her side; the box for Bob's cash is returned."""
    start(page, "trade")
    choose(page, "Bob")
    page.locator("#play-fields fieldset", has_text="first player gives").locator(
        "button.choice", has_text="Boardwalk"
    ).tap()
    return page.locator("#play-fields fieldset", has_text="second player gives").locator("input")


def commit(page, sentence: str) -> None:
    """Tap the button that carries the sentence, once it does."""
    button = page.locator("#play-commit")
    expect(button).to_have_text(sentence)
    expect(button).to_be_enabled()
    button.tap()
    expect(page.locator("#play-form")).to_be_hidden()


def ledger(banker: Banker) -> list[tuple]:
    return [(e.summary, e.events) for e in banker.log()[1:]]


def same_from_the_touchscreen(tmp_path: Path, rules: str, players: list[str], options: dict, actions: list[dict]):
    with Banker.create(tmp_path / f"touch-{rules}.game", rules, players, options) as other:
        for action in actions:
            if action.get("action") == "undo":
                other.undo()
            else:
                other.do(action)
        return ledger(other)


def test_ann_and_bob_play_a_round_of_classic_from_their_phones(chromium, new_game, tmp_path, axe_js):
    table = new_game("classic", "Ann", "Bob")
    live = LiveTable(table.banker)
    try:
        ann_ctx, ann, ann_problems = phone(chromium, live, "Ann")
        bob_ctx, bob, bob_problems = phone(chromium, live, "Bob")

        start(ann, "buy")  # Ann lands on Boardwalk and buys it
        choose(ann, "Boardwalk")
        commit(ann, "Ann bought Boardwalk for $400")
        expect(ann.locator("#me-cash")).to_have_text("$1,100")

        start(bob, "rent")  # Bob lands on it: the rule computes the rent, Bob's own tap approves
        choose(bob, "Boardwalk")
        commit(bob, "Bob paid Ann $50 rent for Boardwalk")
        expect(ann.locator("#me-cash")).to_have_text("$1,150")  # live on Ann's phone too

        start(bob, "tax")  # Income Tax: a flat $200
        choose(bob, "income tax")
        choose(bob, "Pay $200")
        commit(bob, "Bob paid $200 income tax")
        expect(bob.locator("#me-cash")).to_have_text("$1,250")

        cash = ann_offers_bob_boardwalk(ann)  # Ann offers Boardwalk for $500; Bob approves on his phone
        cash.tap()
        cash.fill("500")
        cash.press("Enter")
        cash.blur()
        sentence = ann.locator("#play-commit")
        expect(sentence).to_contain_text("Boardwalk")
        expect(sentence).to_contain_text("$500")  # the sentence follows the typed sum once the server answers
        offered = sentence.text_content()
        expect(ann.locator("#play-why")).to_have_text("Then Bob approves.")
        sentence.tap()
        expect(ann.locator("#my-plays")).to_contain_text("Waiting for Bob")
        approve = bob.locator("#to-approve button.commit")
        expect(approve).to_have_text("Approve: " + offered)
        DOCS.mkdir(parents=True, exist_ok=True)
        bob.screenshot(path=str(DOCS / "phone-approve.jpg"), type="jpeg", quality=55)
        approve.tap()
        expect(ann.locator("#my-plays")).to_contain_text("Done")
        expect(ann.locator("#me-cash")).to_have_text("$1,650")
        assert table.owner("Boardwalk") == "Bob"
        assert not ann_problems and not bob_problems, ann_problems + bob_problems
        ann_ctx.close()
        bob_ctx.close()

        a11y_ctx, page, _ = phone(chromium, live, "Ann", bypass_csp=True)
        start(page, "rent")
        page.add_script_tag(path=str(axe_js))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        serious = [
            (v["id"], v["impact"], v["help"]) for v in result["violations"] if v["impact"] in ("serious", "critical")
        ]
        assert not serious, serious
        a11y_ctx.close()
    finally:
        live.stop()
    entries = table.banker.log()[1:]
    assert {e.action.get("by") for e in entries} == {"Ann", "Bob"}  # every entry says whose phone started it
    assert ledger(table.banker) == same_from_the_touchscreen(
        tmp_path,
        "classic",
        ["Ann", "Bob"],
        {},
        [
            {"action": "buy", "player": "Ann", "deed": "Boardwalk"},
            {"action": "rent", "payer": "Bob", "deed": "Boardwalk"},
            {"action": "tax", "player": "Bob", "tax": "income", "choice": "flat"},
            {"action": "trade", "a": "Ann", "b": "Bob", "give": {"deeds": ["Boardwalk"]}, "get": {"cash": 500}},
        ],
    )


def test_ann_and_bob_play_a_round_of_city_life_from_their_phones(chromium, new_game, tmp_path):
    table = new_game("city-life", "Ann", "Bob", advanced=True)
    live = LiveTable(table.banker)
    try:
        ann_ctx, ann, _ = phone(chromium, live, "Ann")
        bob_ctx, bob, _ = phone(chromium, live, "Bob")
        banker_ctx = chromium.new_context(viewport=PHONE)
        banker = banker_ctx.new_page()
        banker.goto(f"{live.base}/j/{live.token('banker')}")

        start(bob, "borrow")  # a Bank loan: the bank's money waits for the banker
        expect(bob.locator("#play-why")).to_have_text("Then the banker approves.")
        commit(bob, "Bob borrowed $1,000 from the Bank: $1,200 due in 7 turns")
        expect(bob.locator("#my-plays")).to_contain_text("Waiting for banker")
        waiting = live.call(lambda: live.server.plays.waiting())
        assert [p.player for p in waiting] == ["Bob"]
        asked = banker.locator("#b-plays li", has_text="Bob\u2019s phone: Bob borrowed $1,000")
        expect(asked).to_be_visible()  # the banker's own phone shows it with its sentence
        asked.locator("button.yes").click()
        expect(bob.locator("#my-plays")).to_contain_text("Done")
        expect(banker.locator("#b-pause")).to_have_text("Pause phones")

        start(ann, "land")  # Ann, to play, lands on Ernie's Garage and pays for the repair
        choose(ann, "Ernie's Garage")
        button = ann.locator("#play-commit")
        expect(button).to_be_enabled()
        landing = button.text_content()
        assert "Ann" in landing and "$400" in landing
        DOCS.mkdir(parents=True, exist_ok=True)
        ann.screenshot(path=str(DOCS / "phone-play.jpg"), type="jpeg", quality=55)
        button.tap()
        expect(ann.locator("#play-form")).to_be_hidden()
        expect(ann.locator("#my-plays")).to_contain_text("Done")
        for ctx in (ann_ctx, bob_ctx, banker_ctx):
            ctx.close()
    finally:
        live.stop()
    assert ledger(table.banker) == same_from_the_touchscreen(
        tmp_path,
        "city-life",
        ["Ann", "Bob"],
        {"advanced": True},
        [
            {"action": "borrow", "player": "Bob"},
            {"action": "land", "player": "Ann", "square": 19},
        ],
    )


def test_ann_types_her_offer_while_bob_collects_his_salary_and_keeps_every_digit(chromium, new_game):
    """The form is drawn again whenever the table moves: what Ann has typed and not yet left stays in its
    box, with the caret, and leaving the box hands it on."""
    table = new_game("classic", "Ann", "Bob")
    table.give("Ann", "Boardwalk")
    live = LiveTable(table.banker)
    try:
        ann_ctx, ann, ann_problems = phone(chromium, live, "Ann")
        cash = ann_offers_bob_boardwalk(ann)
        expect(ann.locator("#play-why")).to_have_text("Your tap approves it.")
        cash.tap()
        cash.press_sequentially("50")
        redrawn = ann.evaluate("() => { window.box = document.activeElement; return window.box.value; }")
        assert redrawn == "50"
        live.call(table.do, "salary", player="Bob")  # Bob passes Go: every phone's page moves
        expect(ann.locator("#me-cash")).to_be_visible()
        ann.wait_for_function("() => window.box && !window.box.isConnected")  # the form was drawn anew
        expect(cash).to_have_value("50")
        expect(cash).to_be_focused()  # her finger is still in the box: the next digit goes on the 50
        cash.press_sequentially("0")
        expect(cash).to_have_value("500")
        cash.blur()
        expect(ann.locator("#play-why")).to_have_text("Then Bob approves.")
        expect(ann.locator("#play-commit")).to_contain_text("$500")
        assert not ann_problems, ann_problems
        ann_ctx.close()
    finally:
        live.stop()


def test_a_trade_waiting_for_bob_counts_down_on_both_phones_and_both_say_it_expired(chromium, new_game):
    table = new_game("classic", "Ann", "Bob")
    table.give("Ann", "Boardwalk")
    live = LiveTable(table.banker)
    live.call(lambda: setattr(live.server.plays, "expires", 14))  # fourteen seconds here, three minutes at a table
    try:
        ann_ctx, ann, ann_problems = phone(chromium, live, "Ann")
        bob_ctx, bob, bob_problems = phone(chromium, live, "Bob")
        cash = ann_offers_bob_boardwalk(ann)
        cash.fill("500")
        cash.blur()
        expect(ann.locator("#play-why")).to_have_text("Then Bob approves.")
        ann.locator("#play-commit").tap()
        asked, waiting = ann.locator("#my-plays .left"), bob.locator("#to-approve .left")
        expect(asked).to_have_text(re.compile(r"^0:1[0-4] left$"))
        expect(waiting).to_have_text(re.compile(r"^0:1[0-4] left$"))
        first = asked.text_content()
        expect(asked).not_to_have_text(first)  # it counts down, second by second
        expect(asked).to_have_text(re.compile(r"^0:0\d left$"), timeout=15_000)
        DOCS.mkdir(parents=True, exist_ok=True)
        bob.screenshot(path=str(DOCS / "phone-countdown.jpg"), type="jpeg", quality=55)
        # at the deadline both phones say so (the server's own answer follows within seconds)
        expect(ann.locator("#my-plays li.play")).to_contain_text("Expired", timeout=20_000)
        expect(bob.locator("#approve-card")).to_contain_text("Expired", timeout=20_000)
        expect(ann.locator("#my-plays li.play.expired")).to_contain_text(
            "not approved within 14 seconds", timeout=20_000
        )
        expect(bob.locator("#to-approve li.play.expired")).to_contain_text("Ann\u2019s: ", timeout=20_000)
        expect(bob.locator("#to-approve button.commit")).to_have_count(0)
        assert table.owner("Boardwalk") == "Ann"
        assert not ann_problems and not bob_problems, ann_problems + bob_problems
        ann_ctx.close()
        bob_ctx.close()
    finally:
        live.stop()
