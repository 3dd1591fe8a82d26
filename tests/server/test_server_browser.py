"""Browser tests (Playwright + system Chromium) against a real uvicorn server on loopback."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(300),
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"system Chromium not found at {CHROMIUM} "
                       "(apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python package) not installed")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("browser")
    port = free_port()
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp / "b.db"), "--bot-delay", "0.05", "--hand-pause", "4"],
        stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).close()
            break
        except OSError:
            if time.time() > deadline:
                proc.kill()
                raise RuntimeError("server did not start: " + Path(tmp / "server.log").read_text()) from None
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(10)
    log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def new_page(browser: Any, base: str, nick: str) -> Any:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(base + "/")
    page.wait_for_function("document.getElementById('me').textContent.length > 0")  # welcomed
    page.fill("#nick", nick)
    page.click("#btn-nick")
    page.wait_for_function(f"document.getElementById('me').textContent === {nick!r}")
    return page


def create_room(page: Any) -> str:
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    page.wait_for_function("document.getElementById('room-code').textContent.length === 5")
    return page.inner_text("#room-code")


def sit(page: Any, seat: int) -> None:
    page.click(f'button[data-sit="{seat}"]')
    page.wait_for_selector(f'tr.seat-row[data-seat="{seat}"] >> text=★')


def add_bots(page: Any, seats: list[int]) -> None:
    page.select_option("#botlevel", "random")
    for s in seats:
        page.click(f'button[data-bot="{s}"]')
        page.wait_for_selector(f'tr.seat-row[data-seat="{s}"] >> text=random')


def act_once(page: Any) -> bool:
    """Make one move if the page offers one (win > pass > discard); True if it acted."""
    for sel in ('#actions button[data-act="tsumo"]', '#actions button[data-act="ron"]',
                '#actions button[data-act="pass"]', "#hand .tile.clickable >> nth=-1"):
        loc = page.locator(sel)
        if loc.count():
            try:
                loc.first.click(timeout=1000)
                return True
            except Exception:  # noqa: BLE001 - the table moved on meanwhile
                return False
    return False


def test_one_player_plays_a_hand_against_bots_to_settlement(browser: Any, server: str) -> None:
    page = new_page(browser, server, "一号")
    create_room(page)
    sit(page, 0)
    add_bots(page, [1, 2, 3])
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_selector("#laizi-tile.laizi")  # the laizi is marked
    assert page.locator("#indicator").get_attribute("data-tile")
    deadline = time.time() + 240
    while not page.locator("#hand-result").count():
        assert time.time() < deadline, "hand did not finish"
        if not act_once(page):
            page.wait_for_timeout(50)
    text = page.inner_text("#overlay-body")
    assert "本局结束" in text
    assert page.locator("#overlay-body table.grid td").count() == 4  # payments per seat
    assert page.locator("#scoretable tr").count() >= 3  # header, hand 1, total
    # English switch.
    page.click("#langbtn")
    page.wait_for_selector("text=Match table")


def test_four_browsers_join_by_code_and_see_consistent_tables(browser: Any, server: str) -> None:
    pages = [new_page(browser, server, f"P{i}") for i in range(4)]
    code = create_room(pages[0])
    sit(pages[0], 0)
    for i, p in enumerate(pages[1:], start=1):
        p.fill("#j-code", code.lower())
        p.click("#btn-join")
        p.wait_for_selector("#roomview:not(.hidden)")
        sit(p, i)
    pages[0].wait_for_function("!document.getElementById('btn-start').disabled")
    pages[0].click("#btn-start")
    for p in pages:
        p.wait_for_selector("#laizi-tile")
    ind = {p.locator("#indicator").get_attribute("data-tile") for p in pages}
    lz = {p.locator("#laizi-tile").get_attribute("data-tile") for p in pages}
    walls = {p.inner_text("#wall-count") for p in pages}
    assert len(ind) == 1 and len(lz) == 1 and len(walls) == 1
    for i, p in enumerate(pages):
        assert p.locator(".seat.me").get_attribute("data-seat") == str(i)
        n = p.locator("#hand .tile").count()
        assert n == (14 if i == 0 else 13)
        # Other seats are shown face down with the right counts.
        for o in range(4):
            if o != i:
                backs = p.locator(f'.seat[data-seat="{o}"] .concealed .tile.back').count()
                assert backs == (14 if o == 0 else 13)
    # The dealer discards; every table shows it in seat 0's river.
    tile = pages[0].locator("#hand .tile.clickable").last.get_attribute("data-tile")
    pages[0].locator("#hand .tile.clickable").last.click()
    for p in pages:
        p.wait_for_selector(f'.seat[data-seat="0"] .river .tile[data-tile="{tile}"]')
    # Chat reaches everyone.
    pages[2].fill("#chat-input", "你好")
    pages[2].click("#btn-chat")
    for p in pages:
        p.wait_for_selector("#chatlog >> text=你好")


def test_reload_mid_hand_resumes_the_same_seat(browser: Any, server: str) -> None:
    page = new_page(browser, server, "重连")
    create_room(page)
    add_bots(page, [0, 2, 3])
    sit(page, 1)
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    # Wait for our own turn (a discard to make), make a few moves, then reload on our turn.
    moves = 0
    deadline = time.time() + 120
    while moves < 3:
        assert time.time() < deadline
        v = int(page.inner_text("#ver") or 0)
        if act_once(page):
            moves += 1
            with contextlib.suppress(Exception):  # a refused action leaves the version as is
                page.wait_for_function(f"+document.getElementById('ver').textContent > {v}",
                                       timeout=5000)
        page.wait_for_timeout(50)
    # Our turn, and the table settled (no frame in flight). Claims offered meanwhile are
    # answered so the seat never times out into 托管.
    while True:
        assert time.time() < deadline
        if page.locator("#auto-toggle").is_checked():
            page.locator("#auto-toggle").uncheck()
        if not page.locator("#your-turn").count():
            if page.locator("#actions button").count():
                act_once(page)
            page.wait_for_timeout(100)
            continue
        ver = int(page.inner_text("#ver"))
        page.wait_for_timeout(400)
        if int(page.inner_text("#ver")) == ver and page.locator("#your-turn").count():
            break
    before = [t.get_attribute("data-tile") for t in page.locator("#hand .tile").all()]
    page.reload()
    page.wait_for_selector("#hand .tile.clickable")
    assert page.locator(".seat.me").get_attribute("data-seat") == "1"
    after = [t.get_attribute("data-tile") for t in page.locator("#hand .tile").all()]
    assert after == before
    assert int(page.inner_text("#ver")) == ver
    # And play continues from the reloaded page.
    page.locator("#hand .tile.clickable").last.click()
    page.wait_for_function(f"+document.getElementById('ver').textContent > {ver}")
