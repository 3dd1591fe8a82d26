"""The replay viewer, the calculator with its tap picker, and the installable-app files."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from support.webhelpers import bot_match, new_page, outside, overflow_x, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(180)]

CJK = re.compile(r"[\u3400-\u9fff]")


def test_replay_viewer_steps_through_a_hand(browser: Any, server: str) -> None:
    _, mid = bot_match(server, hands=1)
    page = new_page(browser, server, None, (844, 390))
    page.goto(f"{server}/replay/{mid}")
    page.wait_for_selector("#rp-table .seat .plate .pname")
    names = page.eval_on_selector_all("#rp-table .pname", "els => els.map(e => e.textContent)")
    assert all("机器人" in n for n in names)                     # names, in Chinese
    winds = page.eval_on_selector_all("#rp-table .wind", "els => els.map(e => e.textContent)")
    assert sorted(winds) == sorted(["东", "南", "西", "北"])
    total = int(page.get_attribute("#rp-pos", "max") or 0)
    assert total > 20
    wall0 = page.inner_text('#rp-table [data-testid="wall-count"]')
    for _ in range(12):
        page.click("#rp-next")
    assert page.input_value("#rp-pos") == "12"
    assert page.inner_text('#rp-table [data-testid="wall-count"]') != wall0   # tiles were drawn
    assert page.inner_text("#rp-table .last-event")                         # the step in words
    page.click("#rp-prev")
    assert page.input_value("#rp-pos") == "11"
    page.click("#rp-last")
    assert page.input_value("#rp-pos") == str(total)
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / "replay_844x390.png"))
    page.click("#rp-lang")  # English: no Chinese left on the table
    poll(page, "() => document.documentElement.lang === 'en'")
    text = page.inner_text("#rp-table")
    assert not CJK.search(text), CJK.findall(text)[:10]
    page.click("#rp-lang")
    page.context.close()


def test_calculator_by_tapping_on_a_phone(browser: Any, server: str) -> None:
    page = new_page(browser, server, None, (390, 844))
    page.goto(server + "/calc")
    page.wait_for_selector("#picker [data-pick='9s']")
    assert overflow_x(page) <= 0
    small = page.evaluate("""() => [...document.querySelectorAll('#picker button')]
        .map(b => b.getBoundingClientRect()).filter(r => r.width < 40 || r.height < 40).length""")
    assert small == 0, "picker buttons under 40 px"
    # The example (seat 南 wins 碰碰胡 on 西) scores; tap a hand tile away, the hand is short.
    page.click("#submit")
    page.wait_for_selector("#verdict .pos")
    pays = page.eval_on_selector_all("#result tr:last-child td", "els => els.map(e => +e.textContent)")
    assert len(pays) == 4 and sum(pays) == 0 and max(pays) > 0
    page.locator("#ed-hand .tile-btn").first.click()
    page.click("#submit")
    page.wait_for_selector("#verdict.neg, #verdict .neg")
    said = page.inner_text("#verdict")  # in the page's language (it was the scorer's English)
    assert "胡牌者的牌共 13 张" in said and "winner" not in said, said
    # Put the 四万 back by tapping it in the picker: the win is back.
    page.click("#targets [data-target='hand']")
    page.click("#picker [data-pick='4m']")
    page.click("#submit")
    page.wait_for_selector("#verdict .pos")
    # A meld by tapping: type, source seat, tile.
    page.click("#seat-tabs [data-seat='0']")
    page.click("#targets [data-target='meld']")
    page.select_option("#meld-type", "peng")
    page.select_option("#meld-from", "3")
    page.click("#picker [data-pick='5z']")
    assert "peng 5z from 3" in page.input_value("#raw")
    page.screenshot(path=str(screens_dir() / "calc_390x844.png"), full_page=True)
    page.click("#langbtn")
    page.click("#submit")
    page.wait_for_selector("#verdict b")
    assert not CJK.search(page.inner_text("#result")), page.inner_text("#result")
    page.click("#seat-tabs [data-seat='1']")  # the winner's hand short again: the English words
    page.locator("#ed-hand .tile-btn").first.click()
    page.click("#submit")
    page.wait_for_selector("#verdict.neg")
    said = page.inner_text("#verdict")  # the page's words, not the scorer's field path
    assert "The winner has 13 tiles" in said and "players[" not in said and not CJK.search(said), said
    assert page.errors == []
    assert page.evaluate("window.__csp") == []
    page.context.close()


def test_installable_app_files(server: str) -> None:
    with urllib.request.urlopen(server + "/static/manifest.webmanifest") as r:
        manifest = json.loads(r.read())
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server + icon["src"]) as r:
            assert r.status == 200 and len(r.read()) > 100
    with urllib.request.urlopen(server + "/static/sw.js") as r:
        sw = r.read().decode()
    for asset in re.findall(r'"(/static/[^"]+)"', sw):
        with urllib.request.urlopen(server + asset) as r:
            assert r.status == 200, asset
    with urllib.request.urlopen(server + "/") as r:
        html = r.read().decode()
    assert 'rel="manifest"' in html


def test_no_inline_script_handlers_or_styles_in_the_html(server: str) -> None:
    for path in ("/", "/calc", "/static/tiles.html"):
        with urllib.request.urlopen(server + path) as r:
            html = r.read().decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"{path}: inline <script>"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{path}: inline event handler"
        assert not re.search(r"\sstyle\s*=", html), f"{path}: style attribute"


def test_copy_link_and_qr_code(browser: Any, server: str) -> None:
    page = new_page(browser, server, "分享", (390, 844))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    code = page.inner_text("#room-code")
    page.wait_for_selector("#qr svg path")
    assert page.get_attribute("#qr", "data-text") == f"{server}/room/{code}"
    assert len(page.get_attribute("#qr svg path", "d") or "") > 500       # a real QR matrix
    page.click("#btn-copy")
    page.wait_for_selector("#toast:not(.hidden)")
    # the share message (issue 23): the room, its rule card (规则卡), then the link
    assert page.evaluate("navigator.clipboard.readText()") == f"武汉麻将 房间 {code}\n规则：开口番（按预设规则）\n{server}/room/{code}"
    assert outside(page, "own-hand") is None
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / "room_390x844.png"))
    page.context.close()


def test_service_worker_precaches_the_client(browser: Any, server: str) -> None:
    ctx = browser.new_context(service_workers="allow")
    page = ctx.new_page()
    page.goto(server + "/")
    ok = poll(page, """async () => { const r = await navigator.serviceWorker.getRegistration('/');
        if (!r || !r.active || new URL(r.scope).pathname !== '/') return false;
        const name = (await caches.keys()).find(k => k.startsWith('laizi-'));
        if (!name) return false;
        const c = await caches.open(name);
        return !!(await c.match('/static/js/main.js')) && !!(await c.match('/static/vendor/qrcode.mjs')); }""",
              timeout=20)
    assert ok
    ctx.close()


def test_the_creator_of_a_room_sits_down_at_once(browser: Any, server: str) -> None:
    """Issue 21: the creator started as a spectator and had to find 坐下. Now it sits at the
    first seat by itself; one who joins by the code still chooses its seat."""
    page = new_page(browser, server, "开房的人", (390, 844))
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    page.wait_for_selector('li.seat-row[data-seat="0"] >> text=★')
    assert page.locator('[data-testid="ready"]').count() == 1  # seated: its own 准备 button
    code = page.inner_text("#room-code")
    other = new_page(browser, server, "来玩的人", (390, 844))
    other.fill("#j-code", code)
    other.click("#btn-join")
    other.wait_for_selector("#roomview:not(.hidden)")
    other.wait_for_selector('button[data-sit="1"]')
    assert "★" not in other.inner_text("#roomview")  # not seated until it says so
    page.context.close()
    other.context.close()
