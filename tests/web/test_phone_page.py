"""The phone page players enjoy, in a real phone browser (headless Chromium with touch) at 320, 375 and
412 px, light and dark, portrait and landscape; axe-core finds nothing of moderate impact or above.

Screenshots land in artifacts/screenshots/page-<width>x<height>-<scheme>.png for people to look at.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.core.model import cash
from tests.table import AtTheTable
from tests.web.phones import CHROMIUM_ARGS, LiveTable

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONES = {320: 568, 375: 667, 412: 915}  # width: height in portrait
AXE_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "table-banker" / "axe"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
# Records what the page asks of the phone (a buzz, the screen kept awake) where a test can read it.
RECORDER = """
window.__buzzes = [];
Object.defineProperty(navigator, "vibrate", {value: function (p) { window.__buzzes.push(p); return true; }, configurable: true});
window.__locks = 0;
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: function () {
  window.__locks += 1; return Promise.resolve({addEventListener: function () {}, release: function () {}}); }}});
"""


def axe_script() -> str:
    """axe-core's axe.min.js, installed once into a cache folder with npm."""
    found = AXE_CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not found.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is needed to fetch axe-core")
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(AXE_CACHE), "axe-core@4"],
            check=True,
            timeout=300,
        )
    return found.read_text()


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def live():
    """Ann, Bob, Cat and Dan at classic Monopoly after a few turns, with their phones' server."""
    folder = Path(tempfile.mkdtemp(prefix="phone-page-"))
    t = AtTheTable.new(folder, "classic", "Ann", "Bob", "Cat", "Dan")
    table = LiveTable(t.banker)
    for action in (
        {"action": "buy", "player": "Ann", "deed": "Mediterranean Avenue"},
        {"action": "buy", "player": "Ann", "deed": "Baltic Avenue"},
        {"action": "build", "player": "Ann", "deed": "Mediterranean Avenue"},
        {"action": "buy", "player": "Cat", "deed": "Park Place"},
        {"action": "buy", "player": "Dan", "deed": "Boardwalk"},
        {"action": "trade", "a": "Cat", "b": "Dan", "give": {"deeds": ["Park Place"]}, "get": {"cash": 150}},
        {"action": "next_turn"},
        {"action": "jail", "player": "Cat"},
        {"action": "rent", "payer": "Bob", "deed": "Mediterranean Avenue"},
        {"action": "salary", "player": "Ann"},
    ):
        table.banker_do(action)
    try:
        yield table
    finally:
        table.stop()
        t.close()
        shutil.rmtree(folder, ignore_errors=True)


def phone(chromium, width: int, height: int, scheme: str = "light", **more):
    context = chromium.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
        **more,
    )
    context.add_init_script(RECORDER)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: page.problems.append(f"a browser dialog: {d.message}") or d.dismiss())
    return context, page


def join(page, live: LiveTable, who: str) -> None:
    page.goto(f"{live.base}/j/{live.token(who)}")
    if who != "banker":
        expect(page.locator("#me-cash")).to_have_text(re.compile(r"\d"))
    else:
        expect(page.locator("#b-title")).not_to_be_empty()


def serious_findings(page) -> list[str]:
    page.evaluate(axe_script() + "\n;true")  # evaluated by the test, so the page's CSP stays as it is
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.filter(v => ["moderate", "serious", "critical"].includes(v.impact))
            .map(v => v.impact + " " + v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
    }""")
    return found


def one_line(page, selector: str) -> list[str]:
    """The texts of ``selector`` that wrap onto a second line or overflow their box."""
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => {
        if (!e.offsetParent || !e.textContent.trim()) return false;
        const r = document.createRange(); r.selectNodeContents(e);
        const lines = new Set(Array.from(r.getClientRects()).map(b => Math.round(b.top)));
        return lines.size > 1 || e.scrollWidth > e.clientWidth + 1;
    }).map(e => e.textContent)""",
    )


SIZES = [(w, scheme, turn) for w in PHONES for scheme in ("light", "dark") for turn in ("portrait", "landscape")]


@pytest.mark.parametrize("width,scheme,turn", SIZES, ids=[f"{w}-{s}-{t}" for w, s, t in SIZES])
def test_anns_page_fits_her_phone_in_every_way_she_holds_it(chromium, live, width, scheme, turn):
    w, h = (width, PHONES[width]) if turn == "portrait" else (PHONES[width], width)
    context, page = phone(chromium, w, h, scheme)
    try:
        join(page, live, "Ann")
        assert page.evaluate("document.documentElement.scrollWidth") <= w, "nothing scrolls sideways"
        assert one_line(page, "#me-cash, #me-worth, .rows .r, .legend .sum") == []
        dark = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        lightness = sum(int(x) for x in dark[dark.index("(") + 1 : dark.index(")")].split(",")[:3])
        assert (lightness < 200) == (scheme == "dark"), dark
        latest = page.locator("#latest-card h2").bounding_box()
        assert latest["y"] + latest["height"] < h, "'Latest' shows without scrolling"
        if turn == "landscape":  # the cash sits beside the rest and leaves room for it
            cash = page.locator("#me-cash").bounding_box()
            assert cash["height"] < h * 0.3
            assert page.locator("#latest-card").bounding_box()["x"] > cash["x"] + cash["width"] - 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"page-{w}x{h}-{scheme}.png"), full_page=True)
        assert serious_findings(page) == []
        assert page.problems == []
    finally:
        context.close()


def test_the_bankers_phone_passes_axe_in_light_and_dark(chromium, live):
    for scheme in ("light", "dark"):
        context, page = phone(chromium, 375, 667, scheme)
        try:
            join(page, live, "banker")
            expect(page.locator("#b-undo")).to_contain_text("Undo: ")
            page.screenshot(path=str(SHOTS / f"banker-375-{scheme}.png"), full_page=True)
            assert serious_findings(page) == []
            assert one_line(page, "#b-players .r") == []
        finally:
            context.close()


def test_the_cash_never_breaks_with_large_text_or_monopoly_city_millions(chromium, tmp_path):
    t = AtTheTable.new(tmp_path, "monopoly-city", "Ann", "Bob")
    t.do("transfer", **{"from": "Ann", "to": "bank", "amount": "125K"})  # ₩37.575M, as once shown ₩37,575K
    table = LiveTable(t.banker)
    try:
        context, page = phone(chromium, 320, 568)
        join(page, table, "Ann")
        for size in ("100%", "150%", "200%"):
            page.evaluate(
                f"document.documentElement.style.fontSize = '{size}'; window.dispatchEvent(new Event('resize'))"
            )
            page.wait_for_timeout(250)  # the page fits its sums 120 ms after a resize
            assert one_line(page, "#me-cash, #me-worth, .rows .r") == [], size
        text = page.locator("#me-cash").text_content()
        assert text == "\u20a937.575M", text  # millions in one style, the game's own
        context.close()
    finally:
        table.stop()
        t.close()


def test_the_chart_tells_the_truth_a_small_loss_looks_small_and_undone_moves_are_left_out(chromium, new_game):
    t = new_game("classic", "Dan", "Eve")
    table = LiveTable(t.banker)
    try:
        table.banker_do({"action": "salary", "player": "Dan"})
        table.banker_do({"action": "transfer", "from": "Dan", "to": "bank", "amount": 50, "memo": "doctor's fee"})
        table.banker_do({"action": "transfer", "from": "Dan", "to": "bank", "amount": 500, "memo": "a mistake"})
        table.banker_do({"action": "undo"})
        context, page = phone(chromium, 320, 568)
        join(page, table, "Dan")
        series = page.evaluate("fetch('/api/v1/state').then(r => r.json()).then(p => p.me.worth_series)")
        assert [w for _, w in series] == [1500, 1700, 1650], "the undone mistake is not on the chart"
        ys = page.eval_on_selector(
            "#chart polyline", "p => p.getAttribute('points').split(' ').map(xy => +xy.split(',')[1])"
        )
        plot = page.eval_on_selector_all("#chart line.tick", "ls => ls.map(l => +l.getAttribute('y1'))")
        height = max(plot) - min(plot)
        assert abs(ys[2] - ys[1]) < 0.1 * height, "a 3% loss moves the line a little"
        labels = page.locator("#chart .tick-label").all_text_contents()
        assert any(label.startswith("$") for label in labels) and "first move" in labels and "now" in labels
        assert page.locator("#chart line.base").count() == 1  # where Dan started
        assert "started at $1,500" in page.locator("#chart svg").get_attribute("aria-label")
        assert page.locator("#chart svg").bounding_box()["width"] <= 320
        context.close()
    finally:
        table.stop()


def test_money_moving_is_marked_told_buzzed_and_read_out(chromium, new_game):
    t = new_game("classic", "Ann", "Bob")
    t.do("buy", player="Ann", deed="Baltic Avenue")
    table = LiveTable(t.banker)
    try:
        context, page = phone(chromium, 375, 667)
        join(page, table, "Ann")
        before = page.locator("#me-cash").text_content()
        table.banker_do({"action": "rent", "payer": "Bob", "deed": "Baltic Avenue"})
        expect(page.locator("#me-cash")).not_to_have_text(before)
        expect(page.locator("#me-news")).to_contain_text("Bob paid you $4 rent for Baltic Avenue")
        expect(page.locator("#me-news")).to_contain_text("+$4")
        assert page.locator("#me-news").get_attribute("aria-live") == "polite"
        assert "moved-up" in page.locator("#me-cash").get_attribute("class")
        assert page.evaluate("window.__buzzes.length") == 1
        assert page.evaluate("window.__locks") >= 1, "the screen is kept awake"
        assert "fresh" in page.locator("#story li").first.get_attribute("class")
        context.close()
    finally:
        table.stop()


def test_cats_phone_tells_her_game_in_the_second_person_with_every_deed_of_a_trade(chromium, live):
    context, page = phone(chromium, 375, 667)
    try:
        join(page, live, "Cat")
        story = page.locator("#story")
        expect(story).to_contain_text("You went to jail")
        expect(story).to_contain_text("Trade with Dan: you gave Park Place; you got $150")
        assert "Cat went to jail" not in story.text_content()
        assert page.locator("#story .turn").first.text_content().startswith("Turn ")
        page.locator("#whole-game").click()
        whole = page.locator("#whole")
        expect(whole).to_be_visible()
        expect(whole).to_contain_text("The bank paid you $1,500 starting cash")  # the very first line
        assert page.locator("#whole-game").get_attribute("aria-expanded") == "true"
    finally:
        context.close()


def test_asking_sends_once_says_what_to_do_and_takes_the_games_k_and_m(chromium, new_game):
    t = new_game("classic", "Ann", "Bob")
    table = LiveTable(t.banker)
    try:
        context, page = phone(chromium, 375, 667)
        join(page, table, "Ann")
        posts = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.locator("#ask-box summary").click()
        assert page.locator("#ask-amount").get_attribute("inputmode") == "decimal"
        for wrong in ("abc", "0", "1.5", "99999"):  # each refused with what to do; none counts against the limit
            page.fill("#ask-amount", wrong)
            page.locator("#ask-send").click()
            expect(page.locator("#ask-note")).not_to_have_text("Sending to the banker\u2026")
            note = page.locator("#ask-note").text_content()
            assert note and "many times" not in note, note
        assert "ask for less" in page.locator("#ask-note").text_content().lower()
        page.fill("#ask-amount", "40")
        page.evaluate(
            "const f = document.getElementById('ask'); f.requestSubmit(); f.requestSubmit(); f.requestSubmit();"
        )
        expect(page.locator("#ask-note")).to_have_text("Sent. The banker will answer on this page.")
        page.locator("#ask-send").click()  # the second tap of a double tap, after the form emptied
        assert page.locator("#ask-note").text_content() == "Sent. The banker will answer on this page."
        assert len([u for u in posts if u.endswith("/api/v1/requests")]) == 5, posts  # 4 refused + 1, never 3 at once
        assert [r.amount for r in table.call(table.server.requests.pending)] == [40]
        assert page.problems == []
        context.close()
    finally:
        table.stop()
    city = new_game("monopoly-city", "Ann", "Bob")
    table = LiveTable(city.banker)
    try:
        context, page = phone(chromium, 375, 667)
        join(page, table, "Ann")
        page.locator("#ask-box summary").click()
        assert page.locator("#ask-amount").get_attribute("inputmode") == "text"  # a keyboard with K and M
        page.fill("#ask-amount", "1.5M")
        page.locator("#ask-send").click()
        expect(page.locator("#ask-note")).to_contain_text("Sent")
        assert [r.amount for r in table.call(table.server.requests.pending)] == [1_500_000]
        context.close()
    finally:
        table.stop()


def test_the_bankers_phone_undoes_declines_in_the_page_and_says_why_an_approval_failed(chromium, new_game):
    t = new_game("classic", "Ann", "Bob")
    table = LiveTable(t.banker)
    try:
        table.banker_do({"action": "salary", "player": "Ann"})
        bank_ctx, bank = phone(chromium, 375, 667)
        join(bank, table, "banker")
        touchscreen = "Undo: " + t.banker.next_undo().summary  # what the touchscreen's Undo button says
        expect(bank.locator("#b-undo")).to_have_text(touchscreen)
        bank.locator("#b-undo").click()
        bank.locator("#b-undo-yes").click()
        expect(bank.locator("#b-undo")).to_have_text("Nothing to undo")
        assert cash(t.banker.table, "Ann") == 1500

        ann_ctx, ann = phone(chromium, 375, 667)
        join(ann, table, "Ann")
        ann.locator("#ask-box summary").click()
        ann.select_option("#ask-to", "Bob")
        ann.fill("#ask-amount", "1400")
        ann.locator("#ask-send").click()
        expect(bank.locator("#pending")).to_contain_text("Ann pays Bob $1,400")
        expect(bank.locator("#b-news")).to_contain_text("New request")
        assert bank.title().startswith("(1) ")
        table.banker_do({"action": "transfer", "from": "Ann", "to": "bank", "amount": 200, "memo": "tax"})
        bank.locator("#pending button.yes").click()
        expect(bank.locator("#pending .held")).to_contain_text("Could not approve")
        expect(ann.locator("#my-requests")).to_contain_text("The banker could not approve it")

        bank.locator("#pending button.no").click()
        bank.locator("#pending .decline-form input").fill("you are short; ask for less")
        bank.locator("#pending .decline-form button[type=submit]").click()
        expect(ann.locator("#my-requests")).to_contain_text("you are short; ask for less")
        expect(bank.locator("#pending")).to_contain_text("No requests waiting")
        assert bank.problems == [] and ann.problems == []  # no browser prompt, no alert
        bank_ctx.close()
        ann_ctx.close()
    finally:
        table.stop()


def test_the_page_is_an_app_compressed_and_its_first_state_comes_once(chromium, live):
    manifest = json.loads(DIRECT.open(f"{live.base}/manifest.webmanifest", timeout=10).read())
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["icons"]
    for path in ("/static/phone.js", "/static/phone.css", "/"):
        r = DIRECT.open(urllib.request.Request(f"{live.base}{path}", headers={"Accept-Encoding": "gzip"}), timeout=10)
        assert r.headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(r.read())
    state = DIRECT.open(
        urllib.request.Request(
            f"{live.base}/api/v1/state",
            headers={"Accept-Encoding": "gzip", "Authorization": f"Bearer {live.token('banker')}"},
        ),
        timeout=10,
    )
    assert state.headers["Content-Encoding"] == "gzip" and json.loads(gzip.decompress(state.read()))["role"] == "banker"
    context, page = phone(chromium, 375, 667)
    try:
        asked = []
        page.on("request", lambda r: asked.append(r.url.split("/", 3)[-1]))
        join(page, live, "Ann")
        expect(page.locator("#story li").first).to_be_visible()
        assert "api/v1/state" not in asked, "the stream's first message is the page: not fetched as well"
        assert asked.count("api/v1/events") == 1
        assert page.evaluate("document.querySelector('link[rel=manifest]').href").endswith("/manifest.webmanifest")
    finally:
        context.close()


def test_a_phone_without_a_code_is_told_to_scan_one_though_the_page_starts_with_the_stream(chromium, live):
    context, page = phone(chromium, 320, 568)
    try:
        page.goto(f"{live.base}/")
        expect(page.locator("#join")).to_be_visible()
        expect(page.locator("#join-reason")).not_to_be_empty()
        assert serious_findings(page) == []
    finally:
        context.close()
