"""Playwright (system Chromium) on a live ``laizi serve``: a link to a player, a tournament or a
club that is not there (or, for a club, not for this visitor) shows one card that says why, with
links to go on — not empty cards under a toast that covers the top bar, as before (a club's link
opened by a guest said "登录已过期或无效" (login expired) above an empty head card with a blank
picture). Phone portrait and landscape; Chinese, and English after the club page's switch."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser

PW = "plum blossom 7"
MISSING = "document.querySelector('[data-testid=\"missing\"]:not(.hidden)')"


def missing_card(page: Any, path: str) -> dict[str, Any]:
    """Open ``path`` and wait for its missing-card: what it says, its links, and what else shows."""
    page.goto(page.base + path)
    poll(page, f"() => {MISSING}")
    out: dict[str, Any] = page.evaluate(
        """() => {
      const card = document.querySelector('[data-testid="missing"]');
      const section = card.parentElement;
      const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
      return {
        text: card.querySelector("p").textContent,
        links: [...card.querySelectorAll("a")].map(a => [a.getAttribute("href"), a.textContent]),
        others: [...section.children].filter(c => c !== card && shown(c)).map(c => c.id || c.className),
        toast: shown(document.getElementById("p-error")),
      };
    }""")
    return out


def check(page: Any, got: dict[str, Any], text: str, links: list[tuple[str, str]], name: str) -> None:
    assert got["text"] == text, got
    assert [tuple(x) for x in got["links"]] == links, got
    assert got["others"] == [], f"{name}: other cards still shown: {got['others']}"
    assert not got["toast"], f"{name}: the toast shows too"
    assert overflow_x(page) <= 0, f"{name}: sideways overflow"
    size = page.viewport_size
    page.screenshot(path=str(screens_dir() / f"missing-{name}-{size['width']}x{size['height']}.png"))


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_missing_player_tournament_or_club_says_so(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, size=size)
    page.base = server  # type: ignore[attr-defined]
    check(page, missing_card(page, "/players/p_nobody"), "没有这位玩家",
          [("/leaderboard", "排行榜"), ("/", "大厅")], "player")
    check(page, missing_card(page, "/tournaments/99999"), "没有这个比赛",
          [("/tournaments", "比赛"), ("/", "大厅")], "tournament")
    # a club's page for a guest (the lobby gave this page a guest token): log in first
    login = "亲友圈只对注册账号开放：请先登录或注册。"
    check(page, missing_card(page, "/clubs/99999"), login, [("/account", "账号"), ("/", "大厅")], "club-guest")
    # and with no token at all (storage cleared): the same, not "login expired"
    page.evaluate("() => localStorage.clear()")
    check(page, missing_card(page, "/clubs/99999"), login, [("/account", "账号"), ("/", "大厅")], "club-none")
    assert not page.errors  # type: ignore[attr-defined]
    assert page.evaluate("() => window.__csp") == []
    page.context.close()


def test_a_registered_player_is_told_the_club_is_not_there(browser: Any, server: str) -> None:
    page = new_page(browser, server, size=(390, 844))
    page.base = server  # type: ignore[attr-defined]
    page.click("#nav-account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", "missing_club")
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    check(page, missing_card(page, "/clubs/99999"), "没有这个亲友圈",
          [("/clubs", "我的亲友圈"), ("/", "大厅")], "club-registered")
    # the language switched: the card is made again, in English, and still alone
    page.click("#k-lang")
    poll(page, f"() => {MISSING} && {MISSING}.querySelector('a').textContent === 'My clubs'")
    got = page.evaluate(f"() => [{MISSING}.querySelector('p').textContent, "
                        f"document.querySelectorAll('[data-testid=\"missing\"]').length]")
    assert got[1] == 1 and got[0] and "没有" not in got[0], got
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
