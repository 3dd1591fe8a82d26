"""The room's seat list before the start, in English on a phone: the seats' wind names (East,
South, West, North) fit their column, so the empty seats' "empty" and the players' names stand in
one column (before, "South" and "North" ran wider than the column made for 东南西北 and pushed
their row's words right of the others').

Real `laizi serve`, the system Chromium, 390×844."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import create_room, new_page, poll, screens_dir

pytestmark = pytest.mark.browser

ROWS = """() => [...document.querySelectorAll('li.seat-row')].map(r => {
  const w = r.querySelector('.wind'), who = r.querySelector('.who');
  return {wind: w.textContent, fits: w.scrollWidth <= w.clientWidth, left: Math.round(who.getBoundingClientRect().left),
          avatar: [...r.querySelectorAll('img')].some(i => i.getClientRects().length > 0)};
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_seat_names_stand_in_one_column(browser: Any, server: str, lang: str) -> None:
    page = new_page(browser, server, size=(390, 844))
    if lang == "en":
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
    create_room(page)
    # (four rows, the host's with its avatar shown: it comes with the host's own profile)
    poll(page, """() => { const rows = [...document.querySelectorAll('li.seat-row')];
      return rows.length === 4 && rows.some(r => [...r.querySelectorAll('img')]
        .some(i => i.getClientRects().length > 0)); }""")
    rows = page.evaluate(ROWS)
    assert all(r["fits"] for r in rows), rows
    empty = [r["left"] for r in rows if not r["avatar"]]  # (the host's row has its avatar first)
    assert len(empty) == 3 and len(set(empty)) == 1, rows
    page.screenshot(path=str(screens_dir() / f"seat-rows-{lang}.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
