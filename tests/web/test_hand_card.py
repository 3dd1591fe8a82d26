"""The big-hand card (战绩 of a big hand, issue 25) in the browser: bot matches until a hand is
won with a big hand; its replay, at the hand's end, offers 晒大胡 in the settlement, which draws
the card (the winning hand in the project's SVG tiles, the 番 and their breakdown, the
payments, the rule card line) and downloads it as a PNG whose QR code reads back as the share
link; the share link opens the replay at that hand with the card shown. 844×390 and 390×844,
the system Chromium, a real server."""

from __future__ import annotations

import io
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from support.handcard import card_slots, empty_slots
from support.webhelpers import (
    bot_match,
    live_server,
    new_page,
    outside,
    overflow_x,
    poll,
    screens_dir,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(500)]

HANDS = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("handcard"), "--hand-pause", "0", "--bot-delay", "0") as base:
        yield base


def hand_card(base: str, mid: int, hand: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{base}/api/matches/{mid}/hands/{hand}/card", timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def big_hand(base: str) -> tuple[int, int, dict[str, Any]]:
    """(match id, hand, card data) of a hand won with a big hand, from bot matches."""
    for _ in range(5):
        _, mid = bot_match(base, hands=HANDS, level="strong")
        for n in range(1, HANDS + 1):
            st, card = hand_card(base, mid, n)
            if st == 200 and card["score"]["big_hands"]:
                return mid, n, card
    raise AssertionError("no big hand in five bot matches")


DRAWN = """document.querySelector('[data-testid="card-image"]')"""


def drawn_tiles(page: Any, data: dict[str, Any]) -> None:
    """The card shows the winner's whole hand, in order, every tile in its slot with its art
    (the ivory face read back from the canvas slot by slot: tests/support/handcard.py), none
    drawn as a plain stand-in."""
    rest = list(data["tiles"])
    if data["tile"] in rest:  # the winning tile, set apart at the concealed tiles' end
        del rest[len(rest) - 1 - rest[::-1].index(data["tile"])]
    want = [*rest, data["tile"], *(c for m in data["melds"] for c in m["tiles"]), *data["special_kongs"]]
    assert [s["code"] for s in card_slots(page)] == want, data
    assert page.evaluate(f"{DRAWN}.dataset.plain") == "0"
    assert empty_slots(page) == [], (empty_slots(page), data)


def test_a_big_hand_card(browser: Any, server: str) -> None:
    mid, hand, data = big_hand(server)
    page = new_page(browser, server, size=(844, 390))
    page.goto(f"{server}/replay/{mid}")
    page.wait_for_selector("#rp-hand option", state="attached")
    page.select_option("#rp-hand", label=str(hand))
    page.click("#rp-last")
    button = page.locator('[data-testid="hand-card-button"]')
    button.wait_for()
    assert button.inner_text() == "晒大胡"
    page.screenshot(path=str(screens_dir() / "hand_card_settle_844x390.png"))
    button.click()
    page.wait_for_selector('[data-testid="card-sheet"]:not(.hidden)')
    size = poll(page, """() => { const c = document.querySelector('[data-testid="card-image"]');
        return c && c.dataset.drawn ? [c.width, c.height] : null; }""", timeout=30)
    assert size == [1200, 630]
    drawn_tiles(page, data)
    link = page.input_value("#card-link")
    assert re.search(rf"/replay/{mid}\?hand={hand}&card=hand$", link), link
    for tid in ("card-image", "card-download"):
        assert outside(page, tid) is None, outside(page, tid)
    page.screenshot(path=str(screens_dir() / "hand_card_844x390.png"))
    with page.expect_download() as dl:
        page.click('[data-testid="card-download"]')
    png = open(dl.value.path(), "rb").read()  # noqa: SIM115 - a small file
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    assert dl.value.suggested_filename == f"laizi-match-{mid}-hand-{hand}.png"
    import zxingcpp
    from PIL import Image

    img = Image.open(io.BytesIO(png))
    assert img.size == (1200, 630)
    open(screens_dir() / "hand_card.png", "wb").write(png)  # noqa: SIM115 - for the eye
    codes = zxingcpp.read_barcodes(img.convert("L"))
    assert [c.text for c in codes] == [link], [c.text for c in codes]
    assert data["score"]["big_hands"]  # what made it a card
    # two cards asked for at once (the match's, then this hand's): the later one is what the
    # sheet ends with, whole, whichever finished loading first; and the other way round
    for first, last, tail in (("openCard", "openHandCard", f"hand={hand}&card=hand"),
                              ("openHandCard", "openCard", "card=1")):
        page.evaluate("""async ([mid, hand, first, last]) => {  // until both have settled
            const card = await import('/static/js/card.js');
            const args = { openCard: [mid, 8], openHandCard: [mid, hand] };
            await Promise.all([card[first](...args[first]), card[last](...args[last])]); }""",
                      [mid, hand, first, last])
        assert page.evaluate(f"{DRAWN}.dataset.drawn") == "1"
        assert page.input_value("#card-link").endswith(tail)
        if last == "openHandCard":
            drawn_tiles(page, data)
        else:
            assert page.evaluate(f"{DRAWN}.dataset.slots") is None
    page.click("#card-close")
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()

    # the share link on a phone held upright: the replay at that hand, the card open
    page = new_page(browser, server, size=(390, 844))
    page.goto(link)
    page.wait_for_selector('[data-testid="card-sheet"]:not(.hidden)')
    poll(page, """() => document.querySelector('[data-testid="card-image"]').dataset.drawn""", timeout=30)
    drawn_tiles(page, data)
    assert page.input_value("#rp-hand") != "" and page.locator("#rp-hand option:checked").inner_text() == str(hand)
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / "hand_card_390x844.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
