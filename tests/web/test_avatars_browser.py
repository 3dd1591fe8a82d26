"""Playwright (system Chromium) on a live ``laizi serve``: a guest opens its profile from the
lobby's avatar link, picks a drawn avatar, uploads a picture (and a bogus one), then sees its
avatar in the room's seat list and on the table plate — at 844×390 and on a desktop."""

from __future__ import annotations

import io
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from support.webhelpers import add_bots, create_room, new_page, poll, screens_dir, sit

pytestmark = pytest.mark.browser

LOADED = "sel => { const i = document.querySelector(sel); return i && !i.hidden && i.complete && i.naturalWidth > 0 && i.getAttribute('src'); }"


def picture(path: Path) -> Path:
    im = Image.new("RGB", (400, 300), (220, 40, 40))
    for x in range(200, 400):
        for y in range(300):
            im.putpixel((x, y), (30, 90, 220))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    path.write_bytes(buf.getvalue())
    return path


@pytest.mark.slow
@pytest.mark.parametrize("size", [(844, 390), (1366, 900)])
def test_avatar_in_profile_lobby_and_table(browser: Any, server: str, tmp_path: Path,
                                           size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"
    shots = screens_dir()
    page = new_page(browser, server, nick=f"头像{size[0]}", size=size)
    # the lobby: one's own avatar (the default one of the drawn set), a link to the profile
    src = poll(page, LOADED, "a.my-avatar img.avatar")
    pid = page.evaluate("() => new URL(document.querySelector('a.my-avatar').href).pathname.split('/')[2]")
    assert src.startswith(f"/avatars/{pid}")
    page.click("a.my-avatar")
    page.wait_for_url(f"**/players/{pid}")
    poll(page, "() => document.getElementById('pf-choose').dataset.ready === '1'")
    poll(page, LOADED, "#pf-avatar")
    assert page.locator(".av-grid button").count() >= 12

    # a drawn one
    page.click('.av-grid button[data-avatar="panda"]')
    poll(page, "() => document.querySelector('.av-grid button[data-avatar=\"panda\"]').getAttribute('aria-pressed') === 'true'")
    assert "v=d-panda" in poll(page, "() => { const s = document.getElementById('pf-avatar').getAttribute('src'); return s.includes('panda') && s; }")

    # a bogus upload: a clear error, the avatar stays
    bogus = tmp_path / "notes.png"
    bogus.write_bytes(b"these are my notes, not a picture")
    page.set_input_files('input[data-testid="avatar-file"]', str(bogus))
    poll(page, "() => !document.getElementById('p-error').classList.contains('hidden')")
    assert "读不出这张图片" in page.text_content("#p-error")  # (the server's "not a readable image", in Chinese)

    # a real picture: stored as 128×128 and shown at once
    page.set_input_files('input[data-testid="avatar-file"]', str(picture(tmp_path / "me.png")))
    poll(page, "() => !document.getElementById('p-ok').classList.contains('hidden')")
    poll(page, "() => { const i = document.getElementById('pf-avatar'); return !i.getAttribute('src').includes('panda') && i.complete && i.naturalWidth === 128; }")
    assert page.locator('.av-grid button[aria-pressed="true"]').count() == 0
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"avatar_profile_{tag}.png"))
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.screenshot(path=str(shots / f"avatar_chooser_{tag}.png"))

    # the lobby and the room: beside the names
    page.goto(server + "/")
    poll(page, "() => document.getElementById('me').textContent.length > 0")
    poll(page, "() => { const i = document.querySelector('a.my-avatar img'); return i && i.complete && i.naturalWidth === 128; }")
    page.screenshot(path=str(shots / f"avatar_lobby_{tag}.png"))
    create_room(page)
    sit(page, 0)
    add_bots(page, [1, 2, 3])
    poll(page, "() => { const i = document.querySelector('li.seat-row[data-seat=\"0\"] img.avatar'); return i && i.complete && i.naturalWidth === 128; }")
    bots = page.evaluate("() => [1, 2, 3].map(s => document.querySelector(`li.seat-row[data-seat=\"${s}\"] img.avatar`).getAttribute('src'))")
    assert bots == ["/static/avatars/bot.svg"] * 3
    page.screenshot(path=str(shots / f"avatar_room_{tag}.png"))

    # the table: the own plate and the bots' plates
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_selector("#hand .tile")
    poll(page, "() => { const i = document.querySelector('.seat[data-seat=\"0\"] .plate img.avatar'); return i && !i.hidden && i.complete && i.naturalWidth === 128; }")
    for s in (1, 2, 3):
        assert poll(page, LOADED, f'.seat[data-seat="{s}"] .plate img.avatar') == "/static/avatars/bot.svg"
    box = page.locator('.seat[data-seat="0"] .plate img.avatar').bounding_box()
    assert box is not None and 14 <= box["width"] <= 30 and box["y"] >= 0 and box["y"] + box["height"] <= size[1]
    page.screenshot(path=str(shots / f"avatar_table_{tag}.png"))
    assert page.errors == []
    assert page.evaluate("window.__csp") == []

    # someone else's profile: the avatar, no chooser
    with urllib.request.urlopen(urllib.request.Request(
            server + "/api/guest", data=json.dumps({"nickname": "other"}).encode(),
            headers={"Content-Type": "application/json"})) as r:
        other = json.loads(r.read())["player_id"]
    page.goto(f"{server}/players/{other}")
    poll(page, LOADED, "#pf-avatar")
    page.wait_for_timeout(300)
    assert page.locator("#pf-choose").is_hidden()
    assert page.errors == []
    page.context.close()


@pytest.mark.slow
def test_the_chooser_passes_axe(browser: Any, server: str) -> None:
    axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright",
                                  reason="axe-playwright-python not installed (pip install -e '.[dev]')")
    page = new_page(browser, server, "无障碍头像", (844, 390), csp=False)
    poll(page, LOADED, "a.my-avatar img.avatar")
    page.click("a.my-avatar")
    poll(page, "() => document.getElementById('pf-choose').dataset.ready === '1'")
    results = axe_mod.Axe().run(page)
    bad = [f"{v['impact']}: {v['id']} {v['help']}" for v in results.response["violations"]
           if v.get("impact") in ("critical", "serious")]
    assert bad == [], bad
    page.context.close()
