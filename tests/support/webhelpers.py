"""Helpers for the browser tests: a real `laizi serve` on loopback, the system Chromium, and the
moves a person makes on the table (tap a tile twice to discard, take a claim or a win)."""

from __future__ import annotations

import collections
import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from laizi.server.common.delta import Mirror
from laizi.server.common.protocol import PROTOCOL
from laizi.server.net.middleware import CSP
from support.srvhelpers import LiveServer

CHROMIUM = "/usr/bin/chromium"
# LocalNetworkAccessChecks: a document that Playwright fulfils (a test's own route) counts as
# "public", and Chromium would then refuse its WebSocket to the loopback server.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-features=LocalNetworkAccessChecks"]
SIZES = [(844, 390), (390, 844), (1366, 900)]

_MIRRORS: dict[int, tuple[Any, Mirror]] = {}
# the frame tables by id, as a browser keeps them (localStorage "laizi.kept"): a page's next
# socket says hello ``have`` and its welcome leaves them out
_KEPT: dict[str, tuple[list[str], list[list[str]]]] = {}


def viewed(sock: Any, m: Any) -> Any:
    """``m`` (a frame received on ``sock``) with its whole ``view``: an update's patch applied
    to the view the socket's earlier frames built (one Mirror per socket)."""
    if not isinstance(m, dict) or m.get("type") not in ("update", "snapshot", "welcome", "joined", "room"):
        return m  # (a welcome: the frames' tables; a room: a patch — when the hello asked for them)
    held = _MIRRORS.get(id(sock))
    if held is None or held[0] is not sock:
        held = _MIRRORS[id(sock)] = (sock, Mirror(kept=_KEPT))
    return held[1].take(m)


def screens_dir() -> Path:
    d = Path(os.environ.get("LAIZI_SCREENS_DIR") or Path(__file__).resolve().parents[1] / "web" / "screens")
    d.mkdir(parents=True, exist_ok=True)
    return d


def poll(page: Any, js: str, arg: Any = None, timeout: float = 15.0) -> Any:
    """Wait until the JS function js(arg) returns a truthy value (page.wait_for_function evaluates
    strings with eval, which the Content-Security-Policy forbids; page.evaluate does not).
    A page still on its way to the next one counts as "not yet": its old document without the
    element (reading a property of null) or no document at all (the context destroyed by the
    navigation). A CI run once failed that way, a tap on a link then a poll of the new page."""
    deadline = time.time() + timeout
    last_error = ""
    while True:
        try:
            value = page.evaluate(js, arg)
        except Exception as exc:  # noqa: BLE001 - only a page between documents is waited out
            text = str(exc)
            if not any(w in text for w in NOT_YET):
                raise
            value, last_error = None, text.splitlines()[0]
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {js}" + (f" (last: {last_error})" if last_error else ""))
        page.wait_for_timeout(50)


# What page.evaluate raises while a page is between two documents (poll waits these out).
NOT_YET = ("Cannot read properties of null", "Execution context was destroyed",
           "Cannot find context with specified id")


@contextlib.contextmanager
def live_server(tmp: Path, *extra: str, port: int | None = None,
                env: dict[str, str] | None = None) -> Iterator[str]:
    """``laizi serve`` on a free loopback port (``env``: more environment for it alone), as
    shipped but for its bots' delay (0.02 s); yields its base URL."""
    srv = LiveServer.plain(tmp, str(tmp / "web.db"), port=port, env=env,
                           args=["--bot-delay", "0.02", *extra]).start()
    try:
        yield srv.url
    finally:
        srv.stop()


def new_page(browser: Any, base: str, nick: str | None = None, size: tuple[int, int] = (1366, 900),
             csp: bool = True, setup: Any = None, panels: bool = True) -> Any:
    """A fresh context (own localStorage) on the lobby; with csp, the page is checked to come
    with the server's own Content-Security-Policy (its middleware sends it on every response,
    so the client runs under it) and violations are recorded in window.__csp. (The policy
    used to be added by a Playwright route on every request: a round trip through this
    process per file, and the browser's cache off.)
    setup(page), if given, runs before the page is first loaded. ``panels``: the lobby's forms
    behind 创建房间 and 加入房间 are opened (tapped open, as a player does), so that a test can
    fill them."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, service_workers="block")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.sockets = []  # type: ignore[attr-defined]  # what each of its WebSockets did (register_here's report)

    def socket_opened(ws: Any) -> None:
        seen = {"url": ws.url[-40:], "page": page.url[-60:], "at": round(time.monotonic(), 1),
                "sent": 0, "received": 0, "first": None, "closed": False,
                "last_sent": collections.deque(maxlen=6), "last_received": collections.deque(maxlen=12)}
        page.sockets.append(seen)  # type: ignore[attr-defined]

        def received(payload: Any) -> None:
            seen["received"] += 1
            if seen["first"] is None:
                seen["first"] = str(payload)[:60]
            seen["last_received"].append(str(payload)[:160])

        def sent(payload: Any) -> None:
            seen["sent"] += 1
            seen["last_sent"].append(str(payload)[:120])
        ws.on("framesent", sent)
        ws.on("framereceived", received)
        ws.on("close", lambda _: seen.__setitem__("closed", True))
    page.on("websocket", socket_opened)
    if csp:
        page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                             " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    if setup is not None:  # before the first load: e.g. listen to the page's WebSocket frames
        setup(page)
    resp = page.goto(base + "/")
    if csp:  # the server's own policy, on the page and (the same middleware) on every file it serves
        got = None if resp is None else resp.header_value("content-security-policy")
        assert got == CSP, f"the page came without the server's Content-Security-Policy: {got!r}"
    poll(page, "() => document.getElementById('me').textContent.length > 0")
    if nick:
        page.fill("#nick", nick)
        page.click("#btn-nick")
        poll(page, "n => document.getElementById('me').textContent === n", nick)
    if panels:
        lobby_panel(page, "create")
        lobby_panel(page, "join")
    return page


def lobby_panel(page: Any, which: str) -> None:
    """Open the lobby's form behind its big button, as a player taps it: ``"create"`` (创建房间)
    or ``"join"`` (加入房间); nothing when it is open already."""
    page.wait_for_selector(f"#open-{which}")
    if page.locator(f"#{which}-card").is_hidden():
        page.click(f"#open-{which}")
        page.wait_for_selector(f"#{which}-card:not(.hidden)")


def create_room(page: Any, hands: int | None = None) -> str:
    lobby_panel(page, "create")
    if hands:
        page.fill("#c-hands", str(hands))
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    poll(page, "() => document.getElementById('room-code').textContent.length >= 4")
    return str(page.inner_text("#room-code"))


def join_seat(page: Any, code: str, seat: int) -> None:
    """From the lobby: join room ``code`` by its code and sit at ``seat`` (its 准备 button shown)."""
    lobby_panel(page, "join")
    page.fill("#j-code", code)
    page.click("#btn-join")
    page.wait_for_selector("#roomview:not(.hidden)")
    page.click(f'button[data-sit="{seat}"]')
    page.wait_for_selector('[data-testid="ready"]')


def sit(page: Any, seat: int) -> None:
    """Sit at ``seat`` (the creator of a room sits at the first free seat by itself: wait for
    that first, then move if another seat is wanted)."""
    poll(page, """() => { const a = document.body.dataset.autosit;
        const seated = [...document.querySelectorAll('li.seat-row')].some(r => r.textContent.includes('★'));
        return a === 'sent' ? seated : true; }""")
    row = page.locator(f'li.seat-row[data-seat="{seat}"]')
    if "★" in (row.text_content() or ""):
        return
    page.click(f'button[data-sit="{seat}"]')
    page.wait_for_selector(f'li.seat-row[data-seat="{seat}"] >> text=★')


def add_bots(page: Any, seats: list[int], level: str = "random") -> None:
    page.select_option("#botlevel", level)
    for s in seats:
        page.click(f'button[data-bot="{s}"]')
        page.wait_for_selector(f'button[data-unbot="{s}"]')


def start_table(page: Any, seat: int = 0, level: str = "random", hands: int | None = None) -> str:
    code = create_room(page, hands)
    sit(page, seat)
    add_bots(page, [s for s in range(4) if s != seat], level)
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_selector("#hand .tile")
    return code


def start_fixed_deal(page: Any, seed: str, *, lang: str = "zh", turn: int | None = None, seat: int = 0,
                     level: str = "random", hands: int | None = None) -> str:
    """``start_table`` on the fixed deal ``seed``: with ``lang="en"`` the page switches to English
    first (the lobby's #langbtn, then waits until <html lang> says so); the create form's further
    options (``details.more``) are opened and the deal seed filled in, and ``turn`` (seconds a
    turn, #c-turn) too if given. Then the room is created, ``seat`` taken, bots of ``level`` on
    the others and the match (of ``hands`` hands) started; returns the room's code."""
    if lang == "en":
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
    elif lang != "zh":
        raise ValueError(f"lang {lang!r}: the client speaks zh and en")
    lobby_panel(page, "create")
    page.click("details.more > summary")  # the fixed deal is among the further options
    page.fill("#c-seed", seed)
    if turn is not None:
        page.fill("#c-turn", str(turn))
    return start_table(page, seat=seat, level=level, hands=hands)


CLAIM_ORDER = ("tsumo", "ron", "kong", "addkong", "ankong", "peng", "chi")
# the claims the action bar folds into one button when several are on offer (吃 ▾, 杠 ▾)
CLAIM_GROUP = {"chi": "chi", "kong": "kong", "ankong": "kong", "addkong": "kong"}


def tap_twice(page: Any, tile: str) -> None:
    """Play ``tile`` from the own hand as a player does: a tap raises it, a second tap plays it."""
    page.locator(f'#hand .tile.clickable[data-tile="{tile}"]').first.click()
    page.locator("#hand .tile.raised").first.click()


def press_claim(page: Any, kind: str, tile: str | None = None) -> None:
    """Press the claim ``kind`` (of ``tile`` when given): its own button, or — several 吃 or
    杠 on offer — the one button that shows them as tile groups, then the group."""
    sel = f'#actions button[data-act="{kind}"]' + (f'[data-tile="{tile}"]' if tile else "")
    group = page.locator(f'#actions button[data-choose="{CLAIM_GROUP.get(kind)}"]')
    if not page.locator(sel).count() and group.count():
        group.first.click()
    page.locator(sel).first.click()


def auto_on(page: Any, timeout: float = 30.0) -> bool:
    """Switch 托管 on from the table's menu. False when the hand ended first (a bot's quick
    win: the settlement, over the table, takes the taps) and there was nothing left to play."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    settled = '[data-testid="settlement"]:not(.hidden)'
    menu_open = "#sheet-menu:not(.hidden)"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator(settled).count():
            # (the hand ended while the menu was open — its 托管 switch then timed out —:
            # closed as a player would, or it stays over the results and takes their taps)
            if page.locator(menu_open).count():
                page.click('[data-close="sheet-menu"]', timeout=5000)
            return False
        try:
            page.click("#btn-menu", timeout=2000)
            page.check("#auto-toggle", timeout=2000)
            page.click('[data-close="sheet-menu"]', timeout=2000)
            return True
        except PlaywrightTimeout:
            continue
    raise AssertionError("托管 could not be switched on, and the hand did not end")


def act_once(page: Any, take_claims: bool = True) -> str | None:
    """Make one move if the table offers one: a win, then (optionally) a claim, then pass, then a
    discard by tapping the drawn (last) tile twice. Returns what was done, or None."""
    if page.locator('[data-testid="settlement"]:not(.hidden)').count():
        return None
    if page.locator('[data-testid="cancel-auto"]').count():
        try:
            page.locator('[data-testid="cancel-auto"]').click(timeout=1000)
        except Exception:  # noqa: BLE001 - the hand ended meanwhile (the settlement takes the taps)
            return None
        return "cancel-auto"
    kinds = CLAIM_ORDER if take_claims else ("tsumo", "ron")
    for kind in (*kinds, "pass"):
        loc = page.locator(f'#actions button[data-act="{kind}"]')
        group = page.locator(f'#actions button[data-choose="{CLAIM_GROUP.get(kind)}"]')
        if loc.count() or group.count():
            try:
                if not loc.count():  # several 吃 / 杠: the first tap shows them as tile groups
                    group.first.click(timeout=1000)
                loc.first.click(timeout=1000)
                return kind
            except Exception:  # noqa: BLE001 - the table moved on meanwhile
                return None
    tiles = page.locator('#hand .tile.clickable[data-act="discard"]')  # (a 红中/laizi tap lays it aside)
    if not tiles.count():
        tiles = page.locator("#hand .tile.clickable")  # only kongs to tap (the 海底)
    if tiles.count():
        try:
            tiles.last.click(timeout=1000)       # first tap raises the tile
            raised = page.locator("#hand .tile.raised")
            if not raised.count():
                return None
            raised.first.click(timeout=1000)     # second tap discards it
            return "discard"
        except Exception:  # noqa: BLE001 - the table moved on meanwhile
            return None
    return None


def winning_row(page: Any) -> dict[str, Any] | None:
    """The winner's row on the open settlement: its tiles (melds included, special kongs not),
    the 4-tile melds among them and the marked winning tiles; None without a winner."""
    return page.evaluate(
        """() => { const row = document.getElementById("winning-hand"); if (!row) return null;
             const tiles = [...row.querySelectorAll(".tile:not(.spk-tile)")];
             return { tiles: tiles.map(e => e.dataset.tile), kongs: [...row.querySelectorAll(".meld")]
                        .filter(m => m.querySelectorAll(".tile").length === 4).length,
                      win: [...row.querySelectorAll(".tile.win-tile")].map(e => e.dataset.tile) }; }""")


def outside(page: Any, testid: str) -> str | None:
    """None when the element with data-testid lies inside the viewport (or is not shown)."""
    return page.evaluate(
        """id => { const e = document.querySelector(`[data-testid="${id}"]`);
             if (!e) return null; const r = e.getBoundingClientRect();
             if (r.width === 0 || r.height === 0) return null;
             const ok = r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
             return ok ? null : `${id} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`; }""",
        testid)


def overflow_x(page: Any) -> int:
    return int(page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth"))


def bot_match(base: str, hands: int = 1, level: str = "random",
              options: dict[str, Any] | None = None) -> tuple[str, int]:
    """A room with four bots playing `hands` hands to the end, made over the WebSocket protocol
    (``options``: rule options changed on the preset, as the lobby's form sends them);
    returns (room code, match id) once the match is over."""
    import asyncio
    import json

    import websockets

    async def run() -> tuple[str, int]:
        async with websockets.connect(base.replace("http", "ws") + "/ws") as ws:
            async def until(pred: Any, timeout: float = 60) -> dict[str, Any]:
                end = time.time() + timeout
                while True:
                    m = viewed(ws, json.loads(await asyncio.wait_for(ws.recv(), max(0.1, end - time.time()))))
                    if m.get("type") == "error":
                        raise AssertionError(m)
                    if pred(m):
                        return dict(m)

            await ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "bots"}))
            await until(lambda m: m["type"] == "welcome")
            settings: dict[str, Any] = {"max_hands": hands}
            if options:
                settings["options"] = options
            await ws.send(json.dumps({"type": "create", "settings": settings}))
            code = (await until(lambda m: m["type"] == "joined"))["room"]["code"]
            for seat in range(4):
                await ws.send(json.dumps({"type": "bot", "seat": seat, "level": level}))
            await until(lambda m: m["type"] == "room" and all(s["bot"] for s in m["room"]["seats"]))
            await ws.send(json.dumps({"type": "start"}))
            m = await until(lambda m: m["type"] in ("update", "snapshot") and m["view"].get("match_over"), 120)
            return str(code), int(m["match_id"])

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as ex:  # Playwright's sync API owns this thread's event loop
        return ex.submit(lambda: asyncio.run(run())).result()


def review_built(base: str, match_id: int, seat: int = 0, timeout: float = 300.0) -> dict[str, Any]:
    """The server's review (复盘) of a seat of a finished match, once built: asks
    ``/api/matches/{id}/review`` as the web client does, waiting out a 202 (being built), 429
    or 503 by its Retry-After. A build is a worker process replaying every decision with the
    expert; on two loaded cores it has taken minutes, so a page test asks for it first and
    its page then reads it from the server's cache."""
    import json
    import urllib.error
    import urllib.request

    deadline = time.time() + timeout
    url = f"{base}/api/matches/{match_id}/review?seat={seat}"
    said: list[str] = []  # each answer: its status and body (the progress of a 202)
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                body = r.read()
                if r.status == 200:
                    return dict(json.loads(body))
                wait = float(r.headers.get("Retry-After") or 1)
        except urllib.error.HTTPError as exc:
            body = exc.read()
            if exc.code not in (429, 503):
                raise AssertionError(f"the review of match {match_id}: {exc.code} {body[:300]!r}") from None
            wait = float(exc.headers.get("Retry-After") or 1)
        said.append(body[:80].decode(errors="replace"))
        assert time.time() + wait < deadline, \
            f"the review of match {match_id} not built in {timeout:.0f} s; the server said {said[:3]} … {said[-3:]}"
        time.sleep(max(wait, 2.0))  # (every ask counts against the address's 60 a minute)


PW = "plum blossom 7"  # the password of the accounts the browser tests register


def register_here(page: Any, base: str, user: str) -> None:
    """Register ``user`` on the account page (the page's guest becomes the account), then back
    to the lobby with the welcome coins shown."""
    page.click("#nav-account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", user)
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    page.goto(base + "/")
    try:
        # (40 s: a hello unanswered — or refused by an error the server may not say again — is
        # given up after 6 s, then 12 s; then the welcome, then the balance)
        poll(page, "() => document.getElementById('coins-bal').textContent === '5000'", timeout=40)
    except AssertionError:  # say what the page holds (a flake once in CI: which step failed?)
        seen = page.evaluate("""async () => {
          const token = localStorage.getItem('laizi.token');
          let coins = null;
          try { const r = await fetch('/api/coins', {headers: {Authorization: 'Bearer ' + token}});
                coins = r.status + ' ' + (await r.text()).slice(0, 160); } catch (e) { coins = String(e); }
          const err = document.getElementById('error');
          return {shown: document.getElementById('coins-bal').textContent, me: document.getElementById('me').textContent,
                  token: !!token, coins, now: Math.round(performance.now()), url: location.pathname,
                  error: err ? [err.textContent, err.dataset.code, err.className] : null,
                  lost: document.getElementById('conn-lost') ? document.getElementById('conn-lost').className : null};
        }""")
        raise AssertionError(f"{user}: the lobby does not show the welcome coins (at {time.monotonic():.1f}): {seen}; its sockets "
                             f"{getattr(page, 'sockets', None)}; page errors {getattr(page, 'errors', None)}") from None


# What the hint panel must never cover (test_hint_layout.py, test_small_phones_layout.py) (a seat's plate, melds and tiles, rivers, the centre's
# wall count and indicator, the claim card, the action buttons, the HUD and status line).
HINT_BLOCKERS = (".seat .plate, .seat .meld, .seat .concealed .tile, .river .tile, #hand .tile, #wall-count, "
            ".ctile .tile, .claim:not(.hidden), #actions button, .hud-btn, .status-line:not(:empty)")

HINT_COVERS = """sel => {
  const box = document.getElementById("hintbox");
  if (!box || box.classList.contains("hidden")) return null;
  const h = box.getBoundingClientRect();
  const bad = [];
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const w = Math.min(h.right, r.right) - Math.max(h.left, r.left);
    const ht = Math.min(h.bottom, r.bottom) - Math.max(h.top, r.top);
    if (w > 1 && ht > 1) bad.push(`${e.className || e.id}@${Math.round(r.left)},${Math.round(r.top)}`);
  }
  if (h.left < 0 || h.top < 0 || h.right > innerWidth || h.bottom > innerHeight) bad.push("hintbox outside the screen");
  return bad;
}"""

# ... and HINT_COVERS(HINT_BLOCKERS): the boxes of those it lies over (and whether it runs off the
# screen); null while it does not show.


# The table's regions, for the layout tests of the live table and the replay (one copy: the
# late-hand, small-landscape and hint tests all read the same boxes). ``opts``: ``root``, the
# table's element ("#game" or "#rp-table"); ``note``, whether the fixed-deal note must show
# whole. Each region is the union of its visible boxes (a tile in its drop-in or lift animation
# is skipped); every pair must be apart, every region on the screen. The hint panel counts as a
# region of its own when it shows, and must keep off the action buttons too; so does the own
# 听 line (ready). Null while the settlement is open.
TABLE_REGIONS = """opts => {
  const root = opts.root;
  if (document.querySelector('[data-testid="settlement"]:not(.hidden)')) return null;
  const moving = e => e.getAnimations().some(a => a.playState === "running");
  const all = sel => document.querySelectorAll(sel.split(",").map(s => `${root} ${s.trim()}`).join(","));
  const union = sel => {
    let b = null;
    for (const e of all(sel)) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || moving(e)) continue;
      b = b ? {l: Math.min(b.l, r.left), t: Math.min(b.t, r.top), r: Math.max(b.r, r.right), b: Math.max(b.b, r.bottom)}
            : {l: r.left, t: r.top, r: r.right, b: r.bottom};
    }
    return b;
  };
  const P = ["bottom", "right", "top", "left"];
  const reg = {centre: union(".center"), status: union(".status-line:not(:empty)"), hud: union(".hud-btn"),
               hand: union(".seat.pos-bottom .hand .tile, .seat.pos-bottom .concealed .tile"),
               hint: union(".hintbox:not(.hidden)"), actions: union("#actions button"),
               ready: union(".seat.pos-bottom .ready-row .b-ready")};
  for (const p of P) {
    reg[`river-${p}`] = union(`.river.rpos-${p} .tile`);
    reg[`plate-${p}`] = union(`.seat.pos-${p} .plate`);
    reg[`melds-${p}`] = union(`.seat.pos-${p} .meld`);
    if (p !== "bottom") reg[`hidden-${p}`] = union(`.seat.pos-${p} .concealed .tile`);
  }
  const bad = [];
  const keys = Object.keys(reg).filter(k => reg[k]);
  const at = a => `${Math.round(a.l)},${Math.round(a.t)}-${Math.round(a.r)},${Math.round(a.b)}`;
  for (const k of keys) {
    const a = reg[k];
    if (a.l < -1 || a.t < -1 || a.r > innerWidth + 1 || a.b > innerHeight + 1) bad.push(`${k} off the screen: ${at(a)}`);
  }
  // (the action buttons stand over the own side of the table by design: only the hint panel
  // must keep off them)
  const skip = (x, y) => (x === "actions" && y !== "hint") || (y === "actions" && x !== "hint");
  for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) {
    const a = reg[keys[i]], b = reg[keys[j]];
    const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (w > 1 && h > 1 && !skip(keys[i], keys[j])) bad.push(`${keys[i]} over ${keys[j]}: ${at(a)} / ${at(b)}`);
  }
  if (opts.note) {
    const note = document.querySelector(`${root} .fixed-deal`);
    if (!note || note.classList.contains("hidden") || !note.textContent) bad.push("no fixed-deal note");
    else if (note.scrollWidth > note.clientWidth + 1 || note.scrollHeight > note.clientHeight + 1) bad.push(`fixed-deal note cut: ${note.textContent}`);
  }
  const tiles = p => all(`.river.rpos-${p} .tile`);
  return {bad, rivers: P.map(p => tiles(p).length), rows: P.map(p => new Set([...tiles(p)].map(t => t.offsetTop)).size),
          melds: all(".seat .meld").length, hints: !!document.querySelector(`${root}.has-hint`)};
}"""


def table_regions(page: Any, root: str = "#game", note: bool = False) -> dict[str, Any] | None:
    """The table's regions at this moment (TABLE_REGIONS): ``bad`` (overlaps, regions off the
    screen), ``rivers`` (tiles a river), ``rows`` (rows a river), ``melds``, ``hints``; None while
    the settlement is open."""
    value: dict[str, Any] | None = page.evaluate(TABLE_REGIONS, {"root": root, "note": note})
    return value


# The replay's own seat (the bottom seat of #rp-table: the reviewed seat in 复盘): each tile of its
# hand on the screen, and the topmost thing at its centre (nothing lies over it); null while
# there is no hand yet. For the replay and review layout tests.
REPLAY_HAND = """() => {
  const tiles = [...document.querySelectorAll('#rp-table .seat.pos-bottom .tile')];
  if (tiles.length < 13) return null;
  const bad = [];
  for (const e of tiles) {
    const r = e.getBoundingClientRect();
    const at = `${e.dataset.tile || "?"} ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) { bad.push(`${at} off the screen`); continue; }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(e === top || e.contains(top))) bad.push(`${at} under ${top ? top.id || top.className || top.tagName : "nothing"}`);
  }
  return { n: tiles.length, bad };
}"""


# The replay's control bar: how many rows its shown controls take (not counting the narration
# beside 复盘's timeline, read out only: out of the bar's flow).
BAR_ROWS = """() => new Set([...document.querySelectorAll('.rp-bar > *')].filter(e => e.getBoundingClientRect().height > 0
  && getComputedStyle(e).display !== 'none' && getComputedStyle(e).position !== 'absolute').map(e => { const r = e.getBoundingClientRect(); return Math.round(r.top + r.height / 2) >> 4; })).size"""

# The replay bar's title and rule card (``ids``: the ids of those to check, by default both):
# shown, on the screen, inside the box around them, their words whole — not cut with "…" nor
# clamped to a number of lines, nothing running out sideways; a card longer than its box must
# scroll in it. The title was hidden and the English card cut to "open-fan…" (polish7); a room's
# changed options made the card end in "…" on a small phone sideways (stop 38).
BAR_WORDS = """ids => (ids || ['rp-title', 'rp-rules']).flatMap(id => {
  const what = id === 'rp-title' ? 'title' : id === 'rp-rules' ? 'rule card' : id;
  const e = document.getElementById(id), r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  const at = `${what} "${e.textContent}" ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
  if (!e.textContent || r.width < 1 || r.height < 1 || cs.visibility === 'hidden') return [`${at} not shown`];
  if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) return [`${at} off the screen`];
  if (cs.textOverflow === 'ellipsis' && (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)) return [`${at} cut with an ellipsis`];
  if (cs.webkitLineClamp && cs.webkitLineClamp !== 'none' && e.scrollHeight > e.clientHeight + 1) return [`${at} clamped to ${cs.webkitLineClamp} lines`];
  if (e.scrollWidth > e.clientWidth + 1) return [`${at} cut sideways (${e.scrollWidth} in ${e.clientWidth})`];
  if (e.scrollHeight > e.clientHeight + 1 && !/(auto|scroll)/.test(cs.overflowY))
    return [`${at} cut (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight})`];
  for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {  // nor by a box around it
    const b = box.getBoundingClientRect(), o = getComputedStyle(box);
    if (o.overflow !== 'visible' && (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1))
      return [`${at} cut by its ${box.className || box.tagName} ${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)}`];
  }
  return [];
})"""


# ---------------------------------------------------------------- several sizes on one table
# The layout tests check a table at several sizes at the same moments of one hand: a page turned
# to each size in turn (``resize``: a phone turned round, a window resized), and pages of their
# own where a size's form is drawn by a render (``same_player_page``).

# The page measures the size asked (innerWidth/innerHeight) and two animation frames have run
# since (its resize handlers, media queries and the new layout applied, a frame painted).
SIZE_SETTLED = """async ([w, h]) => {
  if (innerWidth !== w || innerHeight !== h) return false;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return innerWidth === w && innerHeight === h;
}"""


def resize(page: Any, size: tuple[int, int], timeout: float = 15.0) -> None:
    """Turn ``page`` to ``size`` (width, height) and wait until its layout has settled there
    (SIZE_SETTLED). What CSS lays out follows at once, exactly as on a page opened at that size;
    what a render draws by the size in JS (the own 听 line's chips and words, fan.js; a placed
    announcement, table.js placeAnnounce) follows at the render the turn asks for (main.js, one
    animation frame later; test_turned_phone.py) — a page of that size of its own
    (``same_player_page``) is what a player who never turned the phone sees."""
    if page.viewport_size != {"width": size[0], "height": size[1]}:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    poll(page, SIZE_SETTLED, [size[0], size[1]], timeout)


# resize_all: after a page's viewport is set, two animation frames record the size it measures
# (window.__sized); settled once that is the size asked (else, the recording over, it is asked again).
ARM_SIZED = """() => { window.__sized = null; window.__sizing = true;
  requestAnimationFrame(() => requestAnimationFrame(() => { window.__sized = [innerWidth, innerHeight]; window.__sizing = false; })); }"""
SIZED = """async ([w, h]) => {
  for (let i = 0; i < 4; i++) {
    const s = window.__sized;
    if (s && s[0] === w && s[1] === h) return true;
    if (!window.__sizing) (""" + ARM_SIZED + """)();
    await new Promise(r => requestAnimationFrame(r));
  }
  return false;
}"""


def resize_all(pages: list[tuple[Any, tuple[int, int]]], timeout: float = 15.0) -> None:
    """``resize`` for several pages at once: each page not at its size is turned to it, then each is
    waited for until it measures that size two animation frames after the turn (the pages' frames
    run meanwhile: one wait for all). A page already at its size is left as it is."""
    turning = [(page, size) for page, size in pages if page.viewport_size != {"width": size[0], "height": size[1]}]
    for page, size in turning:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.evaluate(ARM_SIZED)
    for page, size in turning:
        poll(page, SIZED, [size[0], size[1]], timeout)


def turned(page: Any, sizes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``sizes`` in the order to turn ``page`` through them: its present size first (no resize
    for it), then the others in their order."""
    now = page.viewport_size
    here = [s for s in sizes if now == {"width": s[0], "height": s[1]}]
    return here + [s for s in sizes if s not in here]


def same_player_page(browser: Any, page: Any, base: str, code: str, size: tuple[int, int],
                     lang: str = "zh", setup: Any = None) -> Any:
    """Another page of the player of ``page`` (a second tab or device: the same identity, its
    token, in a fresh context of its own) at ``size``, in ``lang`` (switched in the lobby, as
    start_fixed_deal does), joined to room ``code`` by the lobby's join form; once the table shows.
    Seated, it is that seat's view — its own hand, 听 line, claims and hints — drawn at its size
    from every frame, as a page opened at that size. (A player may hold four connections at once:
    MAX_CONNS_PER_PLAYER.) ``setup(page)``, if given, runs before the page is first loaded."""
    import json

    ident = page.evaluate("() => [localStorage.getItem('laizi.token'), localStorage.getItem('laizi.nick')]")
    script = (f"try {{ localStorage.setItem('laizi.token', {json.dumps(ident[0])}); "
              f"localStorage.setItem('laizi.nick', {json.dumps(ident[1] or '')}); }} catch (e) {{}}")
    def prepare(p: Any) -> None:
        p.add_init_script(script)
        if setup is not None:
            setup(p)

    other = new_page(browser, base, size=size, setup=prepare)
    if lang == "en":
        other.click("#langbtn")
        poll(other, "() => document.documentElement.lang === 'en'")
    elif lang != "zh":
        raise ValueError(f"lang {lang!r}: the client speaks zh and en")
    other.fill("#j-code", code)
    other.click("#btn-join")
    other.wait_for_selector("#game:not(.hidden)")
    return other


VERSION = "() => +document.getElementById('ver').textContent"  # the table's version on screen (the last frame rendered)


def caught_up(page: Any, other: Any, timeout: float = 15.0) -> None:
    """Wait until ``other`` shows the table at least at the version ``page`` shows (VERSION), so
    both show the same moment while the table waits for a move."""
    if other is not page:
        poll(other, "v => +document.getElementById('ver').textContent >= v", page.evaluate(VERSION), timeout)


# The move act_once would make on the page now, found in one evaluation (act_once looks for each
# kind of move in turn, up to twenty look-ups): nothing (null) while the settlement is open or
# nothing is offered; else 取消托管 ({cancel}), the first of ``kinds`` offered ({kind, folded}:
# folded when only its folded 吃 ▾ / 杠 ▾ button shows) or a tile to tap twice ({tiles}: the
# selector of the tiles whose last one act_once taps).
NEXT_MOVE = """([kinds, groups]) => {
  if (document.querySelector('[data-testid="settlement"]:not(.hidden)')) return null;
  if (document.querySelector('[data-testid="cancel-auto"]')) return {cancel: true};
  for (const kind of kinds) {
    const own = document.querySelector(`#actions button[data-act="${kind}"]`);
    const group = kind in groups && document.querySelector(`#actions button[data-choose="${groups[kind]}"]`);
    if (own || group) return {kind, folded: !own};
  }
  for (const sel of ['#hand .tile.clickable[data-act="discard"]', '#hand .tile.clickable'])
    if (document.querySelector(sel)) return {tiles: sel};
  return null;
}"""


def act_quick(page: Any, take_claims: bool = True) -> str | None:
    """act_once's move, by the same taps, but found in one evaluation (NEXT_MOVE): a win, then
    (optionally) a claim, then pass, then a discard by tapping the drawn (last) tile twice; None
    at once when there is nothing to do (a player whose turn it is not). Returns what was done."""
    kinds = CLAIM_ORDER if take_claims else ("tsumo", "ron")
    move = page.evaluate(NEXT_MOVE, [[*kinds, "pass"], CLAIM_GROUP])
    if not move:
        return None
    try:
        if move.get("cancel"):
            page.locator('[data-testid="cancel-auto"]').click(timeout=1000)
            return "cancel-auto"
        if move.get("kind"):
            kind = str(move["kind"])
            if move["folded"]:  # several 吃 / 杠: the first tap shows them as tile groups
                page.locator(f'#actions button[data-choose="{CLAIM_GROUP[kind]}"]').first.click(timeout=1000)
            page.locator(f'#actions button[data-act="{kind}"]').first.click(timeout=1000)
            return kind
        page.locator(move["tiles"]).last.click(timeout=1000)  # first tap raises the tile
        raised = page.locator("#hand .tile.raised")
        if not raised.count():
            return None
        raised.first.click(timeout=1000)  # second tap discards it
        return "discard"
    except Exception:  # noqa: BLE001 - the table moved on meanwhile (the hand ended: the settlement takes the taps)
        return None


# ---------------------------------------------------------------- a table held still
def _frame_version(message: Any) -> int | None:
    """The table version of a frame from the server (an update or a snapshot), else None."""
    import json

    if not isinstance(message, str) or '"v"' not in message:
        return None
    try:
        m = json.loads(message)
    except ValueError:
        return None
    if isinstance(m, dict) and m.get("type") in ("update", "snapshot") and isinstance(m.get("v"), int):
        return int(m["v"])
    return None


class HeldFrames:
    """The frames the server sends a page over its WebSocket (Playwright's WebSocket routing):
    passed on at once until ``hold()``, then held back until the test lets them through
    (``release``, ``step_until``) — the page then shows one moment of the table (a bot's turn, a
    claim window) for as long as the test looks at it, whatever the server plays meanwhile; the
    page's own messages go to the server at once. Made in the page's ``setup`` (before it opens its
    socket): ``new_page(browser, base, setup=lambda p: gates.append(HeldFrames(p)))``."""

    def __init__(self, page: Any) -> None:
        from urllib.parse import urlparse

        self.page = page
        self.holding = False
        self.held: list[tuple[Any, Any, int | None]] = []  # (the page's socket, the frame, its version)
        page.route_web_socket(lambda url: urlparse(url).path == "/ws", self._open)

    def _open(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: self._from_server(ws, message))

    def _from_server(self, ws: Any, message: Any) -> None:
        if self.holding or self.held:  # (in order: nothing overtakes a held frame)
            self.held.append((ws, message, _frame_version(message)))
        else:
            ws.send(message)

    def hold(self, on: bool = True) -> None:
        """Hold the frames from now on; ``on=False``: let every held frame through, and the next
        ones at once."""
        self.holding = on
        if not on:
            self.release()

    def release(self, upto: int | None = None) -> int | None:
        """Let the held frames through in order: all of them, or up to the first of version
        ``upto`` or later (with the frames before it). Returns the last version let through."""
        last = None
        while self.held:
            ws, message, v = self.held.pop(0)
            with contextlib.suppress(Exception):  # (a socket the page has closed)
                ws.send(message)
            if v is not None:
                last = v
                if upto is not None and v >= upto:
                    break
        return last

    def release_one(self) -> int | None:
        """Let the held frames through up to the next table version; None when none is held."""
        if not any(v is not None for _, _, v in self.held):
            return None
        return self.release(upto=0)

    def catch_up(self, v: int, timeout: float = 30.0) -> None:
        """Let the held frames through until the page shows table version ``v`` (or a later one,
        the first at or after it): waiting for the server's frames when they have not come yet."""
        deadline = time.time() + timeout
        last = self.page.evaluate(VERSION)
        while last < v:
            got = self.release(upto=v)
            if got is not None:
                last = got
            elif time.time() > deadline:
                raise AssertionError(f"table version {v} not sent in {timeout:.0f} s (the page shows {last})")
            else:
                self.page.wait_for_timeout(10)  # (Playwright hands the server's frames over meanwhile)
        poll(self.page, "v => +document.getElementById('ver').textContent >= v", v)

    def step_until(self, js: str, arg: Any = None, now: bool = True, timeout: float = 60.0) -> Any:
        """One table version at a time (waiting for the server's next one when none is held),
        until the JS function js(arg), evaluated on what the page shows, is truthy — first on what
        it shows now (``now=False``: only from the next version on), then once it shows each next
        version; returns that value."""
        deadline = time.time() + timeout
        value = self.page.evaluate(js, arg) if now else None
        while not value:
            v = self.release_one()
            if v is None:  # the server's next frame: Playwright hands it over meanwhile
                if time.time() > deadline:
                    raise AssertionError(f"no table version for {js} in {timeout:.0f} s")
                self.page.wait_for_timeout(10)
                continue
            poll(self.page, "v => +document.getElementById('ver').textContent >= v", v)
            value = self.page.evaluate(js, arg)
        return value
