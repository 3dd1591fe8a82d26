"""The lobby's first screen (TABLE.md): the apps' big buttons — 创建房间, 加入房间, 比赛, 亲友圈 — with
新手教程 and 玩法说明 above them and 快速开始's three tables under them, held upright (390×844),
sideways (844×390) and on a desktop — and on small phones (320×568, 667×375) —, in Chinese and
English; the two forms behind their buttons.

Each button and link is whole (not cut, inside the screen), a finger's target (at least 44 px
high for a big button, 36 for a link) and on the first screen. The create and join forms are not
on the page until their button is tapped; a tap opens the form under the buttons (its button says
so: aria-expanded), 加入房间 puts the cursor in the room code, a second tap closes it.

Before (stop 51): the lobby was a long page of cards — 创建房间 and 加入房间 forms below the fold,
比赛 and 亲友圈 small links.

A real `laizi serve`, the system Chromium. Screenshots go to screens_dir()."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import create_room, lobby_panel, new_page, overflow_x, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The first screen's buttons and links: text, box, whether the words are cut (wider than the box).
TOP = """() => [...document.querySelectorAll('#lobby .learn-links > a, #lobby .lobby-menu > .big-btn')].map(e => {
  const r = e.getBoundingClientRect();
  return { text: e.textContent.trim(), big: e.classList.contains('big-btn'), id: e.id, l: r.left, t: r.top, r: r.right,
           b: r.bottom, w: r.width, h: r.height, cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 };
})"""

WORDS = {"zh": ["创建房间", "加入房间", "比赛", "亲友圈"], "en": ["Create room", "Join room", "Tournaments", "Clubs"]}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lobby_opens_on_its_big_buttons(browser: Any, server: str, lang: str) -> None:
    for size in ((390, 844), (844, 390), (1366, 900), (320, 568), (667, 375)):
        page = new_page(browser, server, size=size, panels=False)
        if lang == "en":
            page.click("#langbtn")
            poll(page, "() => document.documentElement.lang === 'en'")
        page.evaluate("scrollTo(0, 0)")
        items = poll(page, TOP)
        at = f"{lang} {size[0]}x{size[1]}"
        page.screenshot(path=str(screens_dir() / f"lobby-buttons-{lang}-{size[0]}x{size[1]}.png"))
        assert overflow_x(page) <= 0, at
        big = [a for a in items if a["big"]]
        assert [a["text"] for a in big] == WORDS[lang], f"{at}: {items}"
        assert len(items) == 6, f"{at}: {items}"  # and 新手教程, 玩法说明
        for a in items:
            assert a["l"] >= -0.5 and a["r"] <= size[0] + 0.5, f"{at}: {a} off the screen"
            assert a["t"] >= 0 and a["b"] <= size[1], f"{at}: {a} below the first screen"
            assert not a["cut"], f"{at}: {a} cut"
            assert a["h"] >= (44 if a["big"] else 36) and a["w"] >= 44, f"{at}: {a} smaller than a finger"
        # the forms are behind their buttons
        for which in ("create", "join"):
            assert page.locator(f"#{which}-card").is_hidden(), f"{at}: the {which} form shows"
            assert page.get_attribute(f"#open-{which}", "aria-expanded") == "false"
        page.click("#open-create")
        page.wait_for_selector("#create-card:not(.hidden)")
        assert page.get_attribute("#open-create", "aria-expanded") == "true"
        page.locator("#btn-create").scroll_into_view_if_needed()
        assert page.locator("#btn-create").is_visible()
        page.click("#open-join")
        page.wait_for_selector("#join-card:not(.hidden)")
        poll(page, "() => document.activeElement && document.activeElement.id === 'j-code'")  # the keyboard comes up
        page.screenshot(path=str(screens_dir() / f"lobby-forms-{lang}-{size[0]}x{size[1]}.png"))
        page.click("#open-create")  # a second tap closes it
        page.wait_for_selector("#create-card.hidden", state="attached")
        assert page.get_attribute("#open-create", "aria-expanded") == "false"
        page.click("#join-card .panel-close")
        page.wait_for_selector("#join-card.hidden", state="attached")
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.evaluate("window.__csp") == []
        page.context.close()


LEVELS = """() => { const b = [...document.querySelectorAll('#levels .level-btn')];
  return b.length ? b.map(e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, h: innerHeight}; }) : null; }"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_quick_match_on_the_first_screen(browser: Any, server: str, lang: str) -> None:
    """快速开始's three tables lie on the lobby's first screen, held upright and sideways
    (TABLE.md: the lobby's first screen is its big buttons). At 844×390 they lay below the
    fold, under the intro line and the nickname (stop 51); at 740×360 in English 2 px below it,
    under the tutorial link's two lines (stop 53)."""
    for size in ((844, 390), (390, 844), (740, 360), (667, 375)):
        page = new_page(browser, server, size=size, panels=False)
        if lang == "en":
            page.click("#langbtn")
            poll(page, "() => document.documentElement.lang === 'en'")
        page.evaluate("scrollTo(0, 0)")
        levels = poll(page, LEVELS)
        assert len(levels) == 3, levels
        for b in levels:
            assert b["top"] >= 0 and b["bottom"] <= b["h"], f"{lang} {size}: {levels} below the fold"
        page.screenshot(path=str(screens_dir() / f"lobby-first-screen-{lang}-{size[0]}x{size[1]}.png"))
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_a_room_opens_at_its_top_and_the_lobby_comes_back_on_its_buttons(browser: Any, server: str) -> None:
    """Created from the form (scrolled down to it), the room opens at its top; left, the lobby
    comes back on its first screen, the form closed (before: the room opened scrolled, and the
    lobby came back on the form)."""
    page = new_page(browser, server, size=(844, 390), panels=False)
    page.click("#open-create")
    page.locator("#btn-create").scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 0
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    poll(page, "() => document.getElementById('room-code').textContent.length >= 4")
    assert page.evaluate("scrollY") == 0
    page.click("#btn-leave")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert page.locator("#create-card").is_hidden()
    assert page.get_attribute("#open-create", "aria-expanded") == "false"
    assert page.evaluate("scrollY") == 0
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_desktop_lobby_lists_the_open_rooms_on_its_first_screen(browser: Any, server: str) -> None:
    """On a desktop (wide and tall) the open rooms are a card of the lobby's first screen, under
    快速开始, and a room is joined from it in one click; a phone keeps them behind 加入房间 (the
    first screen is its big buttons), in the join form. Before: on a desktop too, the list was
    behind 加入房间, under the room-code field."""
    host = new_page(browser, server, "开房的", size=(844, 390))
    code = create_room(host)
    desk = new_page(browser, server, "桌面的", size=(1366, 900), panels=False)
    desk.evaluate("scrollTo(0, 0)")
    box = poll(desk, """code => { const c = document.getElementById('rooms-card');
      const row = [...c.querySelectorAll('.room-row')].find(r => r.querySelector('b').textContent === code);
      if (!row) return null;
      const r = row.getBoundingClientRect(), q = document.getElementById('quick-card').getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, quick: q.bottom, h: innerHeight}; }""", code)
    assert box["top"] >= box["quick"] and box["bottom"] <= box["h"], f"not on the first screen, under 快速开始: {box}"
    assert desk.locator("#join-card").is_hidden()  # (the form stays behind its button)
    desk.screenshot(path=str(screens_dir() / "lobby-rooms-1366x900.png"))
    desk.locator("#rooms-card .room-row", has_text=code).get_by_role("button", name="加入").click()
    poll(desk, "code => location.pathname === '/room/' + code", code)
    for size in ((844, 390), (390, 844)):
        phone = new_page(browser, server, size=size, panels=False)
        assert phone.locator("#rooms-card").is_hidden(), size
        lobby_panel(phone, "join")
        poll(phone, "code => [...document.querySelectorAll('#roomlist .room-row b')].some(b => b.textContent === code)", code)
        assert phone.locator("#roomlist").is_visible(), size
        assert phone.errors == []  # type: ignore[attr-defined]
        phone.context.close()
    assert desk.errors == [] and host.errors == []  # type: ignore[attr-defined]
    desk.context.close()
    host.context.close()
