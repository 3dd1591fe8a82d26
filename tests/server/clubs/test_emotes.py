"""Emotes and the Wuhan-flavoured quick phrases (issue 26): the pictures are the project's
own SVG (one per emote id, no script, nothing fetched from elsewhere), the web client knows
the same ids and names as the server; over a live server an emote reaches the table as
``{emote, text: "[名字]"}``, an unknown one is refused, text and an emote together are
refused, emotes spend the chat budget (5 per 10 s), and the Wuhan phrases come with the
welcome and can be sent."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import laizi
from laizi.server.common.chat import EMOTES, QUICK_PHRASES, RATE_COUNT
from support.srvhelpers import Client, LiveServer

WEB = Path(laizi.__file__).parent / "web"


def test_emote_pictures_and_the_client_list() -> None:
    assert 5 <= len(EMOTES) <= 12
    for eid in EMOTES:
        svg = (WEB / "emotes" / f"{eid}.svg").read_text()
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 64 64"
        assert "<script" not in svg and "href" not in svg and "url(" not in svg, eid
    assert sorted(p.stem for p in (WEB / "emotes").glob("*.svg")) == sorted(EMOTES)
    js = (WEB / "js" / "emotes.js").read_text()
    found = dict(re.findall(r'(\w+): \["([^"]+)", "[^"]+"\]', js))
    assert found == {k: v[0] for k, v in EMOTES.items()}
    wuhan = [k for k, (zh, _) in QUICK_PHRASES.items() if re.search("撒|蛮狠|过早|莫慌|扎实|搞么斯", zh)]
    assert len(wuhan) >= 4


@pytest.mark.slow
def test_emotes_at_the_table(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "emotes.db"), tmp_path).start()
    try:
        a, b = Client(srv.port, "甲"), Client(srv.port, "乙")
        a.send({"type": "create", "settings": {}})
        code = a.until("joined")["room"]["code"]
        b.send({"type": "join", "room": code})
        b.until("joined")
        a.send({"type": "chat", "emote": "zan"})
        m = b.until("chat")
        assert m["emote"] == "zan" and m["text"] == "[赞]" and m["player_id"] == a.pid
        assert a.request({"type": "chat", "emote": "<img>"}, "never")["code"] == "bad_emote"
        assert a.request({"type": "chat", "emote": "zan", "text": "hi"}, "never")["code"] == "bad_chat"
        assert a.request({"type": "chat"}, "never")["code"] == "bad_chat"
        b.send({"type": "chat", "phrase": "manhen"})
        assert a.until(lambda m: m["type"] == "chat" and m.get("phrase") == "manhen")["text"] == "你蛮狠咧！"
        for _ in range(RATE_COUNT - 1):  # the first emote was one of the budget
            a.send({"type": "chat", "emote": "haha"})
            b.until(lambda m: m["type"] == "chat" and m.get("emote") == "haha")
        assert a.request({"type": "chat", "emote": "huo"}, "never")["code"] == "chat_rate"
        a.close()
        b.close()
    finally:
        srv.stop()


@pytest.mark.slow
def test_wuhan_phrases_in_the_welcome(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "phrases.db"), tmp_path).start()
    try:
        c = Client(srv.port, hello=False)
        w = c.hello("过早")
        assert w["phrases"]["guozao"] == list(QUICK_PHRASES["guozao"])
        assert "热干面" in w["phrases"]["guozao"][0]
        c.close()
    finally:
        srv.stop()
