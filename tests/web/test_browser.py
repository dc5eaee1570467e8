"""A real phone browser (headless Chromium) at the table: join by the QR link, watch money move live.

Screenshots land in artifacts/screenshots/ (phone 390x844, tablet 820x1180) for people to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from playwright.sync_api import expect

from tests.web.phones import CHROMIUM_ARGS, LiveTable

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def open_phone(chromium, viewport=PHONE):
    context = chromium.new_context(
        viewport=viewport, device_scale_factor=2, is_mobile=viewport is PHONE, has_touch=True
    )
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, problems


def a_few_turns(live: LiveTable) -> None:
    """Ann builds a little empire, Bob owns the expensive side, Cy is in jail with a mortgage."""
    for action in (
        {"action": "buy", "player": "Ann", "deed": "Mediterranean Avenue"},
        {"action": "buy", "player": "Ann", "deed": "Baltic Avenue"},
        {"action": "build", "player": "Ann", "deed": "Mediterranean Avenue"},
        {"action": "buy", "player": "Ann", "deed": "Reading Railroad"},
        {"action": "buy", "player": "Bob", "deed": "Boardwalk"},
        {"action": "buy", "player": "Bob", "deed": "Park Place"},
        {"action": "salary", "player": "Ann"},
        {"action": "buy", "player": "Cy", "deed": "Oriental Avenue"},
        {"action": "mortgage", "player": "Cy", "deed": "Oriental Avenue"},
        {"action": "jail", "player": "Cy"},
        {"action": "rent", "payer": "Bob", "deed": "Mediterranean Avenue"},
        {"action": "next_turn"},
    ):
        live.banker_do(action)


def test_ann_joins_by_her_link_and_watches_her_balance_change_live(chromium, table):
    live = LiveTable(table.banker)
    try:
        a_few_turns(live)
        context, page, problems = open_phone(chromium)
        page.goto(f"{live.base}/j/{live.token('Ann')}")
        assert page.url == f"{live.base}/", "the token must leave the address bar"
        cash = page.locator("#me-cash")
        cash.wait_for()
        expect(page.locator("#me-cash")).to_contain_text("$")
        before = cash.text_content()
        assert page.locator("#me-name").text_content() == "Ann"
        assert "Mediterranean Avenue" in page.locator("#deeds").text_content()
        assert "1 house" in page.locator("#deeds").text_content()
        assert "Bob paid you $10 rent for Mediterranean Avenue" in page.locator("#story").text_content()
        page.evaluate("window.sameDocument = true")

        live.banker_do({"action": "rent", "payer": "Cy", "deed": "Reading Railroad"})
        expect(cash).not_to_have_text(before, timeout=5000)
        assert page.evaluate("window.sameDocument") is True, "the page changed without a reload"
        assert "Cy paid you $25 rent for Reading Railroad" in page.locator("#story").text_content()
        assert page.locator("#chart svg polyline").count() == 1

        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-player.png"), full_page=True)

        # Ann asks the banker to pay Cy $40; the banker approves; her page says so.
        page.locator("#ask-box summary").click()
        page.select_option("#ask-to", "Cy")
        page.fill("#ask-amount", "40")
        page.fill("#ask-memo", "the pizza")
        page.screenshot(path=str(SHOTS / "phone-ask.png"), full_page=False)
        page.locator("#ask button[type=submit]").click()
        expect(page.locator("#my-requests")).to_contain_text("waiting")
        pending = live.call(live.server.requests.pending)
        assert [(r.player, r.payee, r.amount) for r in pending] == [("Ann", "Cy", 40)]
        expect(page.locator("#ask-note")).to_contain_text("Sent")
        live.call(live.server.requests.approve, pending[0].id)
        expect(page.locator("#my-requests")).to_contain_text("approved")
        expect(page.locator("#ask-note")).to_have_text("")  # the banker answered: no more "will answer"
        expect(page.locator("#story")).to_contain_text("You paid Cy $40")

        # The tablet size shows the same page in two columns.
        tablet_ctx, tablet, tablet_problems = open_phone(chromium, TABLET)
        tablet.goto(f"{live.base}/j/{live.token('Ann')}")
        expect(tablet.locator("#me-cash")).to_contain_text("$")
        tablet.screenshot(path=str(SHOTS / "tablet-player.png"), full_page=True)
        tablet_ctx.close()

        # The banker's own phone: requests to answer, every player, join codes.
        bank_ctx, bank, bank_problems = open_phone(chromium)
        if not page.locator("#ask-box").evaluate("d => d.open"):
            page.locator("#ask-box summary").click()
        page.fill("#ask-amount", "15")
        page.select_option("#ask-to", "bank")
        page.fill("#ask-memo", "")
        page.locator("#ask button[type=submit]").click()
        bank.goto(f"{live.base}/j/{live.token('banker')}")
        expect(bank.locator("#pending")).to_contain_text("pays")
        bank.locator("#codes button", has_text="Show code").first.click()
        bank.locator("#code-img").wait_for()
        expect(bank.locator("#code-img")).to_have_attribute("src", re.compile("/qr.svg"))
        bank.wait_for_timeout(300)
        assert bank.locator("#code-img").evaluate("img => img.naturalWidth") > 0
        bank.screenshot(path=str(SHOTS / "phone-banker.png"), full_page=True)
        bank.locator("#pending button.no").click()  # the reason is typed in the page, not in a browser prompt
        bank.locator("#pending .decline-form input").fill("not now")
        bank.locator("#pending .decline-form button[type=submit]").click()
        expect(page.locator("#my-requests")).to_contain_text("not now")
        bank_ctx.close()

        assert not [
            p for p in problems + tablet_problems + bank_problems if "Content Security Policy" in p or "Refused" in p
        ]
        context.close()
    finally:
        live.stop()


def test_the_page_says_when_the_connection_is_lost_and_comes_back_after_a_restart(chromium, table):
    live = LiveTable(table.banker)
    try:
        context, page, _ = open_phone(chromium)
        page.goto(f"{live.base}/j/{live.token('Bob')}")
        expect(page.locator("#me-cash")).to_have_text("$1,500")
        live.run(live.server.stop())  # the app is stopped (or the Pi rebooted)
        expect(page.locator("#status")).to_contain_text("Connection lost", timeout=15000)
        assert page.locator("#status").is_visible()
        expect(page.locator("body")).to_have_class(re.compile("stale"))  # old figures are greyed out
        page.screenshot(path=str(SHOTS / "phone-connection-lost.png"))
        live.restart()  # back on the same port; Bob's cookie still works: tokens survive restarts
        live.banker_do({"action": "salary", "player": "Bob"})
        expect(page.locator("#status")).to_contain_text("Connected again", timeout=20000)
        expect(page.locator("#me-cash")).to_have_text("$1,700", timeout=5000)
        expect(page.locator("body")).not_to_have_class(re.compile("stale"))
        context.close()
    finally:
        live.stop()


def test_hostile_names_are_shown_as_text(chromium, new_game):
    t = new_game("classic", "Ann", "<img src=x onerror=1>", "\u05e9\u05dc\u05d5\u05dd Bob")
    live = LiveTable(t.banker)
    try:
        context, page, problems = open_phone(chromium)
        page.goto(f"{live.base}/j/{live.token('Ann')}")
        expect(page.locator("#players")).to_contain_text("onerror")
        names = page.locator("#players bdi").all_text_contents()
        assert "<img src=x onerror=1>" in names and "\u05e9\u05dc\u05d5\u05dd Bob" in names
        assert page.locator("#players img").count() == 0
        assert not re.search(r"onerror", page.content().split("<main", 1)[1].replace("&lt;img src=x onerror=1&gt;", ""))
        context.close()
    finally:
        live.stop()


def test_a_right_to_left_name_cannot_scramble_the_bankers_log(chromium, new_game):
    hebrew, taxi = "\u05e9\u05dc\u05d5\u05dd Bob", "\u05de\u05d5\u05e0\u05d9\u05ea"  # a Hebrew name and memo
    t = new_game("classic", "Ann", hebrew, "Cy")
    t.do("transfer", **{"from": hebrew, "to": "Ann", "amount": 5, "memo": taxi})
    live = LiveTable(t.banker)
    try:
        context, page, _ = open_phone(chromium)
        page.goto(f"{live.base}/j/{live.token('banker')}")
        expect(page.locator("#log")).to_contain_text("#2")
        lines = page.locator("#log li .l bdi").all_text_contents()
        assert any(f"\u2068{hebrew}\u2069" in text and f"\u2068{taxi}\u2069" in text for text in lines), lines
        assert page.locator("#log li .r").first.text_content() == "#2"  # the number stays outside the line
        line = page.locator("#log li .l bdi").first
        assert line.evaluate("e => getComputedStyle(e).direction") == "ltr"  # the app's sentence reads left to right
        paid = line.evaluate("""e => { const r = document.createRange(); const t = e.firstChild;
            const at = t.data.indexOf("paid"); r.setStart(t, at); r.setEnd(t, at + 4); return r.getBoundingClientRect().x; }""")
        name = line.evaluate("""e => { const r = document.createRange(); const t = e.firstChild;
            const at = t.data.indexOf("Bob"); r.setStart(t, at); r.setEnd(t, at + 3); return r.getBoundingClientRect().x; }""")
        assert name < paid  # the payer's name comes first, then "paid", as the sentence is written
        colours = page.locator("#b-players .dot").evaluate_all("ds => ds.map(d => d.style.getPropertyValue('--c'))")
        assert len(set(colours)) == 3, colours  # three players, three colours
        page.screenshot(path=str(SHOTS / "phone-banker-bidi.png"), full_page=True)
        context.close()
    finally:
        live.stop()
