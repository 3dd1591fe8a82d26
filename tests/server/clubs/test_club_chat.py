"""Club chat over a live server (SQLite): members talk in the club lobby; the words are kept
as text; a stranger (even at a public club), a pending player, a guest and no token are
refused; empty and over-long messages are refused with their number; the budget is the
table chat's (5 per 10 s); a muted player's lines are left out for who muted it; a read
returns at most PAGE lines and a club keeps its newest KEEP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from laizi.server.clubs.clubchat import KEEP, PAGE
from laizi.server.common.chat import MAX_CHARS, RATE_COUNT
from laizi.server.persistence.etiquettedb import ChatMuteRow, ClubChatRow
from support.socialkit import call, guest, register
from support.srvhelpers import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def _ok(st_out: tuple[int, Any]) -> Any:
    st, out = st_out
    assert st == 200, out
    return out


def _refused(st_out: tuple[int, Any], status: int, words: str) -> None:
    st, out = st_out
    assert st == status and words in out["error"], (st, out)


def test_club_chat(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "clubchat.db"), tmp_path).start()
    eng = create_engine(f"sqlite:///{srv.db_url}")
    try:
        ta, pa = register(srv, "amei")
        tb, pb = register(srv, "bobo")
        tc, _ = register(srv, "cici")
        td, _ = register(srv, "dada")
        tg, _ = guest(srv)
        club = _ok(call(srv, "POST", "/api/clubs", ta, {"name": "聊天圈", "private": False,
                                                       "approval": True}))
        cid = club["id"]
        path = f"/api/clubs/{cid}/chat"
        _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "invite", "player": "bobo"}))
        _ok(call(srv, "POST", f"/api/clubs/{cid}/accept", tb))
        assert _ok(call(srv, "POST", "/api/clubs/join", td, {"code": club["code"]}))["club"]["role"] == "pending"

        first = _ok(call(srv, "POST", path, ta, {"text": "  <b>周末</b>打牌  "}))
        assert first["text"] == "<b>周末</b>打牌"
        got = _ok(call(srv, "GET", path, tb))["messages"]
        assert [(m["nickname"], m["text"]) for m in got] == [("amei", "<b>周末</b>打牌")]
        assert got[0]["player_id"] == pa
        assert _ok(call(srv, "GET", f"{path}?after={first['id']}", tb))["messages"] == []
        # who may not
        for tok, status, words in ((tc, 403, "member"), (td, 403, "member"), (tg, 403, "register"),
                                   (None, 401, "")):
            _refused(call(srv, "GET", path, tok), status, words)
            _refused(call(srv, "POST", path, tok, {"text": "hi"}), status, words)
        _refused(call(srv, "GET", "/api/clubs/9999/chat", ta), 404, "no club")
        _refused(call(srv, "GET", f"{path}?after=-1", ta), 400, "after")
        # what may not be said
        _refused(call(srv, "POST", path, tb, {"text": " \u200b "}), 400, "empty")
        _refused(call(srv, "POST", path, tb, {"text": "字" * (MAX_CHARS + 1)}), 400, str(MAX_CHARS))
        _refused(call(srv, "POST", path, tb, {"text": 7}), 400, "string")
        # the chat budget (shared with the tables): RATE_COUNT in 10 s
        for i in range(RATE_COUNT):
            _ok(call(srv, "POST", path, tb, {"text": f"第{i}句"}))
        _refused(call(srv, "POST", path, tb, {"text": "再一句"}), 429, f"at most {RATE_COUNT}")
        # muted: left out for who muted
        with Session(eng) as s, s.begin():
            s.add(ChatMuteRow(player_id=pb, muted_id=pa))
        assert all(m["player_id"] != pa for m in _ok(call(srv, "GET", path, tb))["messages"])
        assert any(m["player_id"] == pa for m in _ok(call(srv, "GET", path, ta))["messages"])
        # a page; what a club keeps
        with Session(eng) as s, s.begin():
            s.add_all(ClubChatRow(club_id=cid, player_id=pa, text=f"旧{i}") for i in range(KEEP + 10))
        page = _ok(call(srv, "GET", path, ta))["messages"]
        assert len(page) == PAGE and page[-1]["text"] == f"旧{KEEP + 9}"
        _ok(call(srv, "POST", path, ta, {"text": "最新"}))
        with Session(eng) as s:
            n = s.scalar(select(func.count()).select_from(ClubChatRow).where(ClubChatRow.club_id == cid))
        assert n == KEEP
        assert _ok(call(srv, "GET", path, ta))["messages"][-1]["text"] == "最新"
    finally:
        eng.dispose()
        srv.stop()
