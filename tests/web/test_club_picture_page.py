"""Playwright (system Chromium) on a live ``laizi serve``: a club's owner uploads a picture on
the club page (the file input of 圈子图片): the head shows the server's 128×128 re-encoding,
the club list shows it beside the club's name, a member sees it too and gets no upload form;
a file that is no image is refused with the server's message; 改用头像 brings the drawn
avatar back. Screenshots at 844×390 and 390×844 in the screens dir. And the room link a
club quick-seat on another cluster node answers, ``/room/<code>?sit=1``, takes a seat."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from support.webhelpers import (
    create_room,
    live_server,
    new_page,
    overflow_x,
    poll,
    register_here,
    screens_dir,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("clubpic")) as base:
        yield base


def ready(page: Any) -> None:
    poll(page, "() => document.body.dataset.ready === '1'")


def shot(page: Any, name: str) -> None:
    assert overflow_x(page) <= 0, name
    page.screenshot(path=str(screens_dir() / f"{name}.png"), full_page=True)


def picture(tmp: Path) -> Path:
    im = Image.new("RGB", (640, 480), (250, 240, 220))
    d = ImageDraw.Draw(im)
    d.ellipse((170, 90, 470, 390), fill=(190, 20, 30))  # a red disc, centred
    d.rectangle((300, 150, 340, 330), fill=(255, 255, 255))
    path = tmp / "club.png"
    im.save(path)
    return path


SHOWN = """() => { const i = document.getElementById('o-avatar');
  return i.dataset.picture === 'upload' && i.complete && i.naturalWidth === 128; }"""


@pytest.mark.slow
def test_owner_uploads_a_club_picture(browser: Any, pserver: str, tmp_path: Path) -> None:
    base = pserver
    owner = new_page(browser, base, nick="圈主", size=(844, 390))
    register_here(owner, base, "picowner")
    owner.goto(base + "/clubs")
    ready(owner)
    owner.fill("#n-name", "黄鹤楼牌友")
    owner.select_option("#n-avatar", "tower")
    owner.click("#btn-create")
    owner.wait_for_url("**/clubs/*")
    ready(owner)
    poll(owner, "() => document.getElementById('o-name').textContent === '黄鹤楼牌友'")
    assert owner.get_attribute("#o-avatar", "src").endswith("/static/avatars/tower.svg")
    assert owner.is_visible("#o-picture-card") and owner.is_hidden("#btn-picture-reset")

    bad = tmp_path / "notes.png"
    bad.write_bytes(b"this is no picture")
    owner.set_input_files("#p-file", str(bad))
    poll(owner, "() => /读不出这张图片/.test(document.getElementById('p-error').textContent)")  # (not a readable image)
    assert owner.get_attribute("#o-avatar", "data-picture") == "drawn"

    owner.set_input_files("#p-file", str(picture(tmp_path)))
    poll(owner, SHOWN)
    assert owner.is_visible("#btn-picture-reset")
    src = owner.get_attribute("#o-avatar", "src")
    assert src.startswith(base + "/clubs/") and "/picture/" in src
    # the server's picture: a centred square of the upload, 128×128 (red in the middle)
    body = owner.evaluate("async u => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer()))", src)
    with Image.open(io.BytesIO(bytes(body))) as im:
        assert im.size == (128, 128)
        r, g, b = im.convert("RGB").getpixel((30, 64))
        assert r > 150 and g < 80 and b < 80
    shot(owner, "club-picture-844x390")
    owner.set_viewport_size({"width": 390, "height": 844})
    owner.reload()
    ready(owner)
    poll(owner, SHOWN)
    shot(owner, "club-picture-390x844")

    # the club list shows it
    owner.goto(base + "/clubs")
    ready(owner)
    poll(owner, """() => { const i = document.querySelector('#v-list li[data-club] img');
      return i && i.dataset.picture === 'upload' && i.complete && i.naturalWidth === 128; }""")
    shot(owner, "club-picture-list-390x844")
    code = owner.evaluate("async () => (await (await fetch('/api/clubs', {headers: {Authorization: 'Bearer ' + "
                          "localStorage.getItem('laizi.token')}})).json()).clubs[0].code")

    # a member sees the picture and no upload form
    mate = new_page(browser, base, nick="圈友", size=(844, 390))
    register_here(mate, base, "picmate")
    mate.goto(base + "/clubs")
    ready(mate)
    mate.fill("#j-code", code)
    mate.click("#btn-join")  # joined: on to the club's page
    mate.wait_for_url("**/clubs/*")
    ready(mate)
    poll(mate, SHOWN)
    assert mate.is_hidden("#o-picture-card")
    mate.goto(base + "/clubs")
    ready(mate)
    poll(mate, """() => { const i = document.querySelector('#v-list li[data-club] img');
      return i && i.dataset.picture === 'upload' && i.complete && i.naturalWidth === 128; }""")
    mate.context.close()

    # back to the drawn avatar
    owner.goto(base + "/clubs")
    ready(owner)
    owner.click("#v-list li[data-club] a")
    ready(owner)
    poll(owner, SHOWN)
    owner.click("#btn-picture-reset")
    poll(owner, "() => document.getElementById('o-avatar').dataset.picture === 'drawn'")
    assert owner.get_attribute("#o-avatar", "src").endswith("/static/avatars/tower.svg")
    owner.context.close()


@pytest.mark.slow
def test_room_link_with_sit_takes_a_free_seat(browser: Any, pserver: str) -> None:
    """The page a club quick-seat on another cluster node sends the player to,
    ``/room/<code>?sit=1``, joins the room and takes its first free seat (the sit goes through
    the socket: on a cluster, to the node that holds the room); without ``?sit`` it only
    joins."""
    base = pserver
    host = new_page(browser, base, nick="东家", size=(844, 390))
    code = create_room(host)
    poll(host, "() => document.body.dataset.autosit === 'sent'")
    watcher = new_page(browser, base, nick="看客", size=(844, 390))
    watcher.goto(f"{base}/room/{code}")
    watcher.wait_for_selector("#roomview:not(.hidden)")
    mate = new_page(browser, base, nick="圈友", size=(390, 844))
    mate.goto(f"{base}/room/{code}?sit=1")
    mate.wait_for_selector("#roomview:not(.hidden)")
    poll(mate, "() => document.body.dataset.autosit === 'sent'")
    mate.wait_for_selector('li.seat-row[data-seat="1"] >> text=★')  # ★: my seat
    host.wait_for_selector('li.seat-row[data-seat="1"] >> text=圈友')
    assert watcher.evaluate("() => document.body.dataset.autosit") is None  # only watching
    assert "圈友" in (watcher.locator('li.seat-row[data-seat="1"]').text_content() or "")
    for p in (host, watcher, mate):
        p.context.close()
