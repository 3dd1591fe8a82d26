"""Playwright (system Chromium) on a live ``laizi serve``, at 844×390 (a phone held sideways):
an owner registers, creates a club (approval on, its bots set) and a rule template with the
rule form; one player joins by the club's code and is approved, another is invited and
accepts; the owner opens a table from the template, the approved member quick-seats, gets
ready, the host starts and the club's bots take the empty seats; both play a little; the
owner proposes 解散 from the menu, the member agrees on the vote bar: the match ends; the
ranking on the club page shows both. Then the club page at 390×844 and 1366×900.
Screenshots go to the screens dir."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from support.webhelpers import (
    act_once,
    live_server,
    new_page,
    overflow_x,
    poll,
    register_here,
    screens_dir,
)

pytestmark = pytest.mark.browser


def call(base: str, path: str, token: str) -> tuple[int, Any]:
    req = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def cserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("clubs"), "--hand-pause", "0") as base:
        yield base


def ready(page: Any) -> None:
    poll(page, "() => document.body.dataset.ready === '1'")


def shot(page: Any, name: str) -> None:
    assert overflow_x(page) <= 0, name
    page.screenshot(path=str(screens_dir() / f"{name}.png"), full_page=True)


@pytest.mark.slow
def test_club_journey_phone(browser: Any, cserver: str) -> None:
    base = cserver
    size = (844, 390)
    owner = new_page(browser, base, nick="圈主", size=size)
    register_here(owner, base, "quanzhu")
    otok = owner.evaluate("() => localStorage.getItem('laizi.token')")

    # the lobby links to the clubs; create one
    owner.click("#nav-clubs")
    ready(owner)
    assert owner.is_visible("#f-create") and owner.is_hidden("#k-login")
    # the name up top is the one the player chose, as in the lobby (it was the username)
    poll(owner, "() => document.getElementById('me').textContent === '圈主'")
    shot(owner, "clubs-list-844x390")
    owner.fill("#n-name", "汉口牌友")
    owner.select_option("#n-avatar", "crane")
    owner.fill("#n-desc", "<b>周末</b>一起打")  # shown as text
    owner.select_option("#n-bots", "random")
    owner.check("#n-approval")
    owner.click("#btn-create")
    owner.wait_for_url("**/clubs/*")
    ready(owner)
    poll(owner, "() => document.getElementById('o-name').textContent === '汉口牌友'")
    assert owner.inner_text("#o-desc") == "<b>周末</b>一起打"
    cid = int(owner.url.rstrip("/").split("/")[-1])
    code = call(base, f"/api/clubs/{cid}", otok)[1]["code"]
    assert code in owner.inner_text("#o-tags")

    # a rule template made with the rule form
    owner.click("#o-new-template summary")
    poll(owner, "() => document.querySelectorAll('#c-rules .rule-opt').length > 3")
    owner.fill("#m-name", "一圈到底")
    owner.click("#btn-template")
    owner.wait_for_selector("#o-templates li[data-template] >> text=一圈到底")
    shot(owner, "club-template-844x390")

    # one player joins by code (approval), another by invitation
    amei = new_page(browser, base, nick="阿梅", size=size)
    register_here(amei, base, "amei")
    amei.goto(base + "/clubs")
    ready(amei)
    amei.fill("#j-code", code.lower())
    amei.click("#btn-join")
    amei.wait_for_selector(f"#k-pending li[data-club='{cid}']")
    owner.reload()
    ready(owner)
    owner.click("#o-pending li[data-player='amei'] button[data-k='approve']")
    owner.wait_for_selector("#o-members li[data-player='amei'] >> text=成员")
    bobo = new_page(browser, base, nick="波波", size=size)
    register_here(bobo, base, "bobo")
    owner.fill("#i-name", "bobo")
    owner.click("#btn-invite")
    owner.wait_for_selector("#o-members li[data-player='bobo'] >> text=已邀请")
    bobo.goto(base + "/clubs")
    ready(bobo)
    bobo.click(f"#k-invited li[data-club='{cid}'] button[data-k='accept']")
    bobo.wait_for_selector(f"#k-mine li[data-club='{cid}']")
    owner.reload()
    ready(owner)
    owner.wait_for_selector("#o-members li[data-player='bobo'] >> text=成员")
    shot(owner, "club-members-844x390")

    # a table from the template: the owner hosts it, amei quick-seats and gets ready
    owner.click("#o-templates li[data-template] button[data-k='open_table']")
    owner.wait_for_url("**/room/*")
    owner.wait_for_selector("#roomview:not(.hidden)")
    room = owner.url.rstrip("/").split("/")[-1]
    amei.goto(base + f"/clubs/{cid}")
    ready(amei)
    amei.wait_for_selector(f"#o-tables [data-table='{room}']")
    shot(amei, "club-tables-844x390")
    amei.click("#btn-quick")
    amei.wait_for_url(f"**/room/{room}")
    amei.wait_for_selector("#roomview:not(.hidden)")
    amei.click('[data-testid="ready"]')
    poll(owner, "() => !document.getElementById('btn-start').disabled")  # the club's bots fill the rest
    owner.click("#btn-start")
    for p in (owner, amei):
        p.wait_for_selector("#game:not(.hidden)")
        p.wait_for_selector("#hand .tile")
    seats = call(base, f"/api/clubs/{cid}/tables", otok)[1]["tables"][0]["seats"]
    assert [s["bot"] for s in seats] == [None, None, "random", "random"]
    # the club's list names the bots as the table does (it said 机器人·随机)
    bobo.goto(base + f"/clubs/{cid}")
    ready(bobo)
    poll(bobo, f"() => document.querySelector(\"#o-tables [data-table='{room}']\").textContent.includes('机器人乙')")
    listed = bobo.inner_text(f"#o-tables [data-table='{room}']")
    assert "机器人甲" in listed and "·" not in listed.split("机器人甲")[1][:2], listed

    # play a little
    moves = 0
    end = time.monotonic() + 60
    while moves < 4 and time.monotonic() < end:
        for p in (owner, amei):
            if act_once(p):
                moves += 1
        owner.wait_for_timeout(100)
    assert moves >= 2

    # 解散: the owner proposes, amei agrees
    owner.click("#btn-menu")
    owner.click("#btn-dissolve")
    owner.click("#btn-dissolve")  # (确定解散？)
    amei.wait_for_selector("#dissolve-bar:not(.hidden) #dissolve-yes:not(.hidden)")
    shot(amei, "club-dissolve-vote-844x390")
    assert owner.is_hidden("#dissolve-yes")  # the proposer agreed already
    amei.click("#dissolve-yes")
    deadline = time.monotonic() + 20
    while call(base, f"/api/rooms/{room}", otok)[1].get("status") != "finished":
        assert time.monotonic() < deadline, "the table did not close"
        time.sleep(0.2)
    poll(amei, "() => document.getElementById('dissolve-bar').classList.contains('hidden')")
    shot(amei, "club-dissolved-844x390")
    # the ranking is what the end stored, a moment after the room says finished (its status
    # changes before its last write): the page below draws it once, so wait until it is there
    deadline = time.monotonic() + 20
    while len(call(base, f"/api/clubs/{cid}/ranking", otok)[1].get("ranking") or []) < 2:
        assert time.monotonic() < deadline, "the ranking was not stored"
        time.sleep(0.2)

    # the ranking shows the result (points of the finished hands; the hand in play was not paid)
    bobo.goto(base + f"/clubs/{cid}")
    ready(bobo)
    bobo.wait_for_selector("#o-ranking tr[data-player='amei']")
    bobo.wait_for_selector("#o-ranking tr[data-player='quanzhu']")
    assert bobo.is_hidden("#btn-season") and bobo.is_hidden("#o-settings-card")  # a member
    assert not bobo.locator("#o-members button[data-k='kick']").count()
    shot(bobo, "club-ranking-844x390")
    for w, h in ((390, 844), (1366, 900)):
        owner.set_viewport_size({"width": w, "height": h})
        owner.goto(base + f"/clubs/{cid}")
        ready(owner)
        owner.wait_for_selector("#o-ranking tr[data-player='amei']")
        shot(owner, f"club-page-{w}x{h}")
    owner.click("#k-lang")  # every word from the page's word table, in English too
    poll(owner, "() => document.querySelector('#o-ranking-card h2').textContent.startsWith('Ranking')")
    owner.wait_for_selector("#o-templates button[data-k='open_table'] >> text=Open a table")
    # the head (圈号, tags) is drawn again when the club's data comes back: wait for it
    poll(owner, "() => document.getElementById('o-tags').textContent.includes('code')")
    # (the players' names are theirs: 圈主 is the owner's nickname, the ranking shows it)
    poll(owner, """() => { const card = document.getElementById('o-ranking-card').cloneNode(true);
        card.querySelectorAll('tbody td:nth-child(2)').forEach(td => td.remove());
        return !card.textContent.includes('圈'); }""")
    shot(owner, "club-page-en-1366x900")
    owner.click("#k-lang")
    # a new season: the picker and the ranking move to it at once (they kept season 1's table)
    poll(owner, "() => document.querySelector('#o-ranking tr[data-player=\"amei\"]') !== null")
    owner.on("dialog", lambda d: d.accept())
    owner.click("#btn-season")
    poll(owner, "() => document.getElementById('r-season').value === '2'")
    poll(owner, "() => !document.getElementById('o-no-ranking').classList.contains('hidden')")
    assert owner.locator("#o-ranking tr[data-player='amei']").count() == 0
    for p in (owner, amei, bobo):
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
