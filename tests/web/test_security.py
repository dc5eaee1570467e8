"""Each security promise of the phone server, tried the way an attacker on the table's network would."""

from __future__ import annotations

import gzip
import json
import re
import socket
from html.parser import HTMLParser

import pytest

from companion.web.app import STATIC
from companion.web.limits import Limits
from companion.web.security import CSP
from companion.web.shelf import shrink
from companion.web.server import PhoneServer

ASYNC = pytest.mark.asyncio


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def limited(phones, aiohttp_server, aiohttp_client, **limits):
    """A second server for the same game with tight limits and a clock the test moves."""
    clock = FakeClock()
    server = PhoneServer(
        phones.table.banker,
        "127.0.0.1",
        0,
        advertise=False,
        lan_address="127.0.0.1",
        limits=Limits(clock=clock, **limits),
    )
    http = await aiohttp_server(server.app)
    server.port = http.port
    from tests.web.phones import Phone

    async def phone(who=None):
        p = Phone(await aiohttp_client(http), server)
        if who:
            assert (await p.join(who)).status == 303
        return p

    return server, phone, clock


def version(phones) -> int:
    return phones.table.banker.version


def waiting(phones) -> list:
    return phones.server.requests.pending()


# -- Host header allow-list (DNS rebinding) --------------------------------------------------------
@ASYNC
@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example", "evil.example:80", "10.9.9.9", "", "a b"])
async def test_a_page_asked_for_by_another_host_name_gets_421(phones, host):
    phone = await phones.phone("Ann")
    for path in ("/", "/api/v1/state", "/static/phone.css", "/j/whatever", "/api/v1/openapi.json"):
        r = await phone.get(path, headers={"Host": host}, allow_redirects=False)
        assert r.status == 421, (path, host)
        assert r.headers["Content-Security-Policy"] == CSP
        assert host not in (await r.text()) or not host


@ASYNC
async def test_the_pis_own_names_are_accepted(phones):
    phone = await phones.phone("Ann")
    name = socket.gethostname().split(".")[0]
    for host in (
        f"127.0.0.1:{phones.port}",
        f"localhost:{phones.port}",
        f"{name}.local:{phones.port}",
        f"{name.upper()}.LOCAL",
        "127.0.0.1",
        "[::1]:8080",
    ):
        r = await phone.get("/api/v1/openapi.json", headers={"Host": host})
        assert r.status == 200, host


@ASYNC
async def test_a_guest_making_up_a_hundred_host_names_changes_no_answer(phones):
    phone = await phones.phone("Ann")
    own = f"127.0.0.1:{phones.port}"
    assert (await phone.get("/api/v1/state", headers={"Host": own})).status == 200
    for n in range(100):  # more names than the guard keeps the verdict of
        r = await phone.get("/api/v1/state", headers={"Host": f"guest{n}.example"})
        assert r.status == 421
    for host, status in ((own, 200), ("localhost", 200), ("guest1.example", 421), ("guest100.example", 421)):
        assert (await phone.get("/api/v1/state", headers={"Host": host})).status == status, host


# -- authority comes from the cookie or token only --------------------------------------------------
@ASYNC
async def test_a_request_from_the_pi_itself_without_a_token_gets_nothing(phones):
    stranger = await phones.phone()
    for headers in ({}, {"X-Forwarded-For": "127.0.0.1"}, {"X-Real-IP": "127.0.0.1"}, {"Forwarded": "for=127.0.0.1"}):
        assert (await stranger.get("/api/v1/state", headers=headers)).status == 401
        assert (await stranger.get("/api/v1/log", headers=headers)).status == 401
        r = await stranger.post("/api/v1/actions", {"action": "salary", "player": "Ann"}, headers=headers)
        assert r.status == 401
    assert version(phones) == 1


@ASYNC
async def test_a_bearer_token_works_like_the_cookie_and_carries_its_role(phones):
    stranger = await phones.phone()
    ann = {"Authorization": "Bearer " + phones.server.tokens.for_player("Ann")}
    r = await stranger.get("/api/v1/state", headers=ann)
    assert r.status == 200 and (await r.json())["me"]["name"] == "Ann"
    r = await stranger.post("/api/v1/actions", {"action": "salary", "player": "Ann"}, origin=False, headers=ann)
    assert r.status == 403
    assert (await stranger.get("/api/v1/state", headers={"Authorization": "Basic YW5uOmFubg=="})).status == 401


# -- roles and objects -----------------------------------------------------------------------------
@ASYNC
async def test_every_forbidden_combination_is_403_and_writes_nothing(phones):
    ann = await phones.phone("Ann")
    bob = await phones.phone("Bob")
    banker = await phones.phone("banker")
    r = await bob.ask("Cy", 30, "lunch")
    assert r.status == 201
    bobs = (await r.json())["request"]["id"]
    before = (version(phones), [r.id for r in waiting(phones)], phones.server.tokens.active())
    forbidden = [
        (ann, "POST", "/api/v1/actions", {"action": "transfer", "from": "Bob", "to": "Ann", "amount": 500}),
        (ann, "POST", "/api/v1/actions", {"action": "salary", "player": "Ann"}),
        (ann, "GET", "/api/v1/log", None),
        (ann, "POST", f"/api/v1/requests/{bobs}/approve", {}),
        (ann, "POST", f"/api/v1/requests/{bobs}/decline", {"reason": "ha"}),
        (ann, "POST", f"/api/v1/requests/{bobs}/cancel", {}),
        (ann, "POST", "/api/v1/requests", {"from": "Bob", "to": "Ann", "amount": 100}),
        (ann, "POST", "/api/v1/requests", {"from": "bank", "to": "Ann", "amount": 100}),
        (ann, "GET", "/api/v1/players/Bob/join", None),
        (ann, "GET", "/api/v1/players/Bob/qr.svg", None),
        (ann, "POST", "/api/v1/players/Bob/revoke", {}),
        (banker, "POST", "/api/v1/requests", {"to": "Ann", "amount": 100}),
        (banker, "POST", f"/api/v1/requests/{bobs}/cancel", {}),
    ]
    for phone, method, path, body in forbidden:
        r = await (phone.post(path, body) if method == "POST" else phone.get(path))
        assert r.status == 403, (method, path, r.status)
        assert (await r.json())["detail"]
    assert (version(phones), [r.id for r in waiting(phones)], phones.server.tokens.active()) == before


@ASYNC
async def test_ann_sees_her_own_money_in_full_and_only_what_is_public_of_bob(phones):
    phones.table.do("buy", player="Bob", deed="Boardwalk")
    phones.table.do("buy", player="Ann", deed="Baltic Avenue")
    ann = await phones.phone("Ann")
    bob = await phones.phone("Bob")
    assert (await bob.ask("bank", 12, "secret-memo-of-bob")).status == 201
    page = await ann.page()
    raw = json.dumps(page)
    assert "Boardwalk" not in raw and "secret-memo-of-bob" not in raw and "Bob bought" not in raw
    others = {p["name"]: p for p in page["players"]}
    assert others["Bob"] == {
        "name": "Bob",
        "colour": "blue",
        "bankrupt": False,
        "in_jail": False,
        "me": False,
        "to_play": False,
        "cash": 1100,
        "cash_text": "$1,100",
        "deed_count": 1,
    }
    assert [d["name"] for d in page["me"]["deeds"]] == ["Baltic Avenue"]
    r = await ann.get("/api/v1/requests")
    assert (await r.json())["requests"] == []


# -- CSRF: JSON POSTs from our own page only; GET changes nothing ------------------------------------
@ASYNC
async def test_cross_site_and_form_posts_are_refused(phones):
    ann = await phones.phone("Ann")
    body = {"to": "Bob", "amount": 10}
    attempts = [
        ({"Origin": "http://evil.example"}, json.dumps(body), "application/json", 403),
        ({"Origin": "null"}, json.dumps(body), "application/json", 403),
        ({"Origin": f"http://127.0.0.1:{phones.port + 1}"}, json.dumps(body), "application/json", 403),
        ({}, json.dumps(body), "application/json", 403),  # no Origin with a cookie: refused
        ({"Sec-Fetch-Site": "cross-site"}, json.dumps(body), "application/json", 403),
        ({"Origin": ann.origin}, "to=Bob&amount=10", "application/x-www-form-urlencoded", 415),
        ({"Origin": ann.origin}, "to=Bob&amount=10", "multipart/form-data; boundary=x", 415),
        ({"Origin": ann.origin}, json.dumps(body), "text/plain", 415),
    ]
    for headers, data, ctype, status in attempts:
        r = await ann.client.post("/api/v1/requests", data=data, headers={"Content-Type": ctype, **headers})
        assert r.status == status, (headers, ctype)
    assert waiting(phones) == []
    assert (await ann.ask("Bob", 10)).status == 201  # the page's own request goes through


@ASYNC
async def test_no_get_changes_anything_and_no_cors_is_offered(phones):
    banker = await phones.phone("banker")
    ann = await phones.phone("Ann")
    assert (await ann.ask("Bob", 10)).status == 201
    rid = waiting(phones)[0].id
    before = (version(phones), [r.status for r in phones.server.requests.of_player("Ann")])
    for path in (
        "/api/v1/actions",
        f"/api/v1/requests/{rid}/approve",
        f"/api/v1/requests/{rid}/decline",
        f"/api/v1/requests/{rid}/cancel",
        "/api/v1/players/Ann/revoke",
    ):
        r = await banker.get(path + "?action=salary&player=Ann")
        assert r.status == 405, path
    for path in (
        "/",
        "/api/v1/state",
        "/api/v1/log",
        "/api/v1/requests",
        "/api/v1/players/Ann/join",
        "/api/v1/players/Ann/qr.svg",
        "/api/v1/openapi.json",
    ):
        assert (await banker.get(path)).status == 200
    assert (version(phones), [r.status for r in phones.server.requests.of_player("Ann")]) == before
    r = await ann.client.options(
        "/api/v1/requests", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in r.headers


# -- rate limits -----------------------------------------------------------------------------------
@ASYNC
async def test_guessing_links_is_slowed_to_a_crawl(phones, aiohttp_server, aiohttp_client):
    server, phone, clock = await limited(phones, aiohttp_server, aiohttp_client, bad_tokens=5)
    guesser = await phone()
    for i in range(5):
        assert (await guesser.get(f"/j/guess{i:027d}", allow_redirects=False)).status == 403
    r = await guesser.get("/j/guess-number-six-xxxxxxxxxxxxxx", allow_redirects=False)
    assert r.status == 429 and int(r.headers["Retry-After"]) >= 1
    # while blocked, even a right token is not tried from that device (that is what a guesser wants)
    assert (await guesser.join("Ann")).status == 429
    bearer = {"Authorization": "Bearer " + server.tokens.for_player("Ann")}
    assert (await guesser.get("/api/v1/state", headers=bearer)).status == 429
    clock.now += 60  # the bucket refills at one guess per six seconds
    assert (await guesser.join("Ann")).status == 303


@ASYNC
async def test_wrong_api_tokens_count_as_guesses_too(phones, aiohttp_server, aiohttp_client):
    _, phone, _ = await limited(phones, aiohttp_server, aiohttp_client, bad_tokens=3)
    guesser = await phone()
    codes = [
        (await guesser.get("/api/v1/state", headers={"Authorization": f"Bearer wrong{i:030d}"})).status
        for i in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]


@ASYNC
async def test_one_busy_phone_is_limited_without_slowing_the_others(phones, aiohttp_server, aiohttp_client):
    _, phone, clock = await limited(phones, aiohttp_server, aiohttp_client, player_burst=5, player_rate=1.0)
    ann, bob, banker = await phone("Ann"), await phone("Bob"), await phone("banker")
    codes = [(await ann.get("/api/v1/state")).status for _ in range(7)]
    assert codes == [200] * 5 + [429, 429]
    assert (await bob.get("/api/v1/state")).status == 200
    assert (await banker.get("/api/v1/state")).status == 200
    clock.now += 2
    assert (await ann.get("/api/v1/state")).status == 200


@ASYNC
async def test_a_phone_cannot_open_endless_live_streams(phones, aiohttp_server, aiohttp_client):
    _, phone, _ = await limited(phones, aiohttp_server, aiohttp_client, streams_per_pass=2)
    ann = await phone("Ann")
    streams = [await ann.get("/api/v1/events") for _ in range(2)]
    assert all(s.status == 200 for s in streams)
    assert (await ann.get("/api/v1/events")).status == 429
    for s in streams:
        s.close()


@ASYNC
async def test_a_big_body_is_refused_before_it_is_read_as_json(phones):
    banker = await phones.phone("banker")
    r = await banker.post(
        "/api/v1/actions", data=json.dumps({"action": "salary", "player": "Ann", "memo": "x" * 40_000})
    )
    assert r.status == 413 and "too large" in (await r.json())["detail"]
    assert version(phones) == 1


# -- names escaped everywhere ----------------------------------------------------------------------
@ASYNC
async def test_hostile_names_and_memos_reach_pages_as_inert_text(new_game, aiohttp_server, aiohttp_client):
    t = new_game("classic", "<script>x</script>", "\u05e9\u05dc\u05d5\u05dd Bob", "Ann")
    server = PhoneServer(t.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    http = await aiohttp_server(server.app)
    server.port = http.port
    from tests.web.phones import Phone

    try:
        ann = Phone(await aiohttp_client(http), server)
        await ann.join("Ann")
        r = await ann.ask("<script>x</script>", 5, "<img src=x onerror=alert(1)>\u202e\u2066hi")
        assert r.status == 400  # a direction override in typed text is refused, never stored
        r = await ann.ask("<script>x</script>", 5, "<img src=x onerror=alert(1)> hi")
        assert r.status == 201
        raw = await (await ann.get("/api/v1/state")).read()
        assert b"<" not in raw and b">" not in raw and b"&" not in raw  # \u003c and friends
        page = json.loads(raw)
        assert {p["name"] for p in page["players"]} == {"<script>x</script>", "\u05e9\u05dc\u05d5\u05dd Bob", "Ann"}
        memo = page["requests"][0]["memo"]
        assert memo == "<img src=x onerror=alert(1)> hi"
        bad = await ann.get("/j/%3Cscript%3Ealert(1)%3C%2Fscript%3Exxxxxxxxxxx", allow_redirects=False)
        assert "<script>alert" not in await bad.text()
    finally:
        server.close()


# -- static files stay in their folder -------------------------------------------------------------
@ASYNC
@pytest.mark.parametrize(
    "path",
    [
        "/static/../server.py",
        "/static/%2e%2e/server.py",
        "/static/..%2fserver.py",
        "/static/%2e%2e%2fserver.py",
        "/static/....//server.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/",
        "/static/.",
        "/static/..%5cserver.py",
    ],
)
async def test_static_files_cannot_escape_their_folder(phones, path):
    phone = await phones.phone()
    r = await phone.client.get(path, allow_redirects=False)
    assert r.status in (400, 403, 404), (path, r.status)
    body = await r.text()
    assert "PhoneServer" not in body and "root:" not in body


# -- headers and the page itself -------------------------------------------------------------------
EVERY_RESPONSE = {
    "Server": "Table Banker",
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


def carries_every_header(r, what) -> None:
    for name, value in EVERY_RESPONSE.items():
        assert r.headers.getall(name) == [value], (what, name)


@ASYNC
async def test_every_response_carries_the_content_security_policy(phones):
    assert "default-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    ann = await phones.phone("Ann")
    for path in ("/", "/static/phone.js", "/static/phone.css", "/api/v1/state", "/api/v1/nothing", "/j/x"):
        r = await ann.get(path, allow_redirects=False)
        carries_every_header(r, path)
    assert (await ann.get("/api/v1/state")).headers["Cache-Control"] == "no-store"
    banker = await phones.phone("banker")
    paid = await banker.post("/api/v1/actions", {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5})
    assert paid.status == 201 and paid.headers["Cache-Control"] == "no-store"
    assert paid.headers["Content-Type"] == "application/json"
    carries_every_header(paid, "the banker's action")
    refused = await banker.post("/api/v1/actions", {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 10**6})
    assert refused.status == 409
    carries_every_header(refused, "a refused action")
    async with ann.client.get("/api/v1/events") as live:
        assert live.status == 200
        carries_every_header(live, "a live page")
        assert live.headers["Cache-Control"] == "no-store"


class _Inline(HTMLParser):
    def __init__(self):
        super().__init__()
        self.problems = []

    def handle_starttag(self, tag, attrs):
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self.problems.append("inline script")
        if tag == "style":
            self.problems.append("style element")
        if "style" in names or any(k.startswith("on") for k in names):
            self.problems.append(f"{tag} has {names}")
        for k, v in attrs:
            if k in ("src", "href") and v and re.match(r"(https?:)?//", v):
                self.problems.append(f"{tag} loads {v} from elsewhere")


def test_the_page_has_no_inline_code_no_cdn_and_stays_small():
    parser = _Inline()
    parser.feed((STATIC / "index.html").read_text())
    assert parser.problems == []
    js = "".join(p.read_text() for p in sorted(STATIC.glob("*.js")))
    for risky in (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
        'setAttribute("style"',
        "http://",
        "https://",
    ):
        assert risky not in js.replace('"http://www.w3.org/2000/svg"', ""), risky
    # what the phones are sent, as the shelf shrinks it: the sources keep their comments
    sent = [shrink(p.name, p.read_bytes()) for p in STATIC.iterdir() if p.is_file()]
    assert sum(len(body) for body in sent) < 60 * 1024
    assert sum(len(gzip.compress(body)) for body in sent) < 24 * 1024  # what goes over the air


@ASYNC
async def test_the_server_names_no_versions_and_trace_is_not_a_method_here(phones):
    ann = await phones.phone("Ann")
    for path in ("/", "/api/v1/state", "/static/phone.css", "/nowhere"):
        r = await ann.get(path)
        assert r.headers["Server"] == "Table Banker", path
    for path in ("/", "/api/v1/state", "/api/v1/actions"):
        r = await ann.client.request("TRACE", path, headers={"Origin": ann.origin})
        assert r.status == 405, (path, r.status)
        assert "Allow" in r.headers
