"""Table etiquette over a live server (SQLite): mute and report (issue 26).

Mute: a muted player's chat is not delivered to who muted it — live, and in the chat history
a new join sends —, the other way still is; it is stored (a rejoin brings the list back);
unmuting delivers again; refusals: oneself, a player not at the table, the
MUTES_PER_PLAYER-th + 1. Report: stored with the reported player's chat lines as
evidence and the club of the table; read by the club's owner (not a member, a stranger or a
guest) and by the server's admins (``LAIZI_ADMINS``; nobody else); refusals with their
numbers: REPORTS_PER_HOUR, REPORT_CHARS, a reason outside the list, oneself, twice, a room
not known, a reporter or a player not at that table."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from laizi.server.clubs.etiquette import MUTES_PER_PLAYER, REPORT_CHARS, REPORTS_PER_HOUR
from laizi.server.persistence.etiquettedb import ChatMuteRow, ReportRow
from support.socialkit import call, guest, register
from support.srvhelpers import Client, LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def _ok(st_out: tuple[int, Any]) -> Any:
    st, out = st_out
    assert st == 200, out
    return out


def _refused(st_out: tuple[int, Any], status: int, words: str, code: str | None = None) -> None:
    st, out = st_out
    assert st == status and words in out["error"], (st, out)
    if code is not None:  # what the page words in its language (i18n.js API_ERRORS)
        assert out.get("code") == code, (code, out)


def _said(c: Client, text: str) -> None:
    c.send({"type": "chat", "text": text})
    c.until(lambda m: m["type"] == "chat" and m["text"] == text)


def _none_from(c: Client, pid: str) -> None:
    c.drain(0.3)
    assert not [m for m in c.frames if m["type"] == "chat" and m["player_id"] == pid]


def test_mute_and_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_ADMINS", "boss, nobody-here")
    srv = LiveServer(str(tmp_path / "etiquette.db"), tmp_path, bot_delay=0.0).start()
    eng = create_engine(f"sqlite:///{srv.db_url}")
    try:
        ta, pa = register(srv, "amei")
        tb, pb = register(srv, "bobo")
        tc, pc = register(srv, "cici")
        tboss, _ = register(srv, "boss")
        tg, _ = guest(srv)
        club = _ok(call(srv, "POST", "/api/clubs", ta, {"name": "礼貌俱乐部"}))
        cid = club["id"]
        _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": club["code"]}))
        tpl = _ok(call(srv, "POST", f"/api/clubs/{cid}/templates", ta,
                       {"name": "一圈", "settings": {"preset": "kaikoufan"}}))
        code = _ok(call(srv, "POST", f"/api/clubs/{cid}/tables", ta,
                        {"template": tpl["id"], "fill": False}))["code"]
        _ok(call(srv, "POST", f"/api/clubs/{cid}/quick", tb))
        a, b = Client(srv.port, token=ta), Client(srv.port, token=tb)
        for c in (a, b):
            c.request({"type": "join", "room": code}, "joined")
        _said(a, "早上好")
        b.until(lambda m: m["type"] == "chat" and m["text"] == "早上好")

        # --- mute
        assert b.request({"type": "mute", "player_id": pb}, "muted")["code"] == "bad_mute"
        assert b.request({"type": "mute", "player_id": pc}, "muted")["code"] == "bad_mute"  # not here
        assert b.request({"type": "mute", "player_id": pa}, "muted") == {"type": "muted", "players": [pa]}
        b.frames.clear()
        _said(a, "你打得真臭")  # amei sees her own words; bobo muted her
        _none_from(b, pa)
        _said(b, "不理你")  # the other way is not muted
        a.until(lambda m: m["type"] == "chat" and m["text"] == "不理你")
        b.close()  # stored: the next join brings the list, and a history without her
        b = Client(srv.port, token=tb)
        b.send({"type": "join", "room": code})
        joined = b.until("joined")
        assert [e["text"] for e in joined["chat"]] == ["不理你"]
        assert b.until("muted") == {"type": "muted", "players": [pa]}
        b.frames.clear()
        _said(a, "还在吗")
        _none_from(b, pa)
        assert b.request({"type": "mute", "player_id": pa, "on": False}, "muted")["players"] == []
        _said(a, "好的")
        b.until(lambda m: m["type"] == "chat" and m["text"] == "好的")
        # the limit: MUTES_PER_PLAYER players (the last ones stored as if muted before)
        with Session(eng) as s, s.begin():
            s.add_all(ChatMuteRow(player_id=pb, muted_id=f"p_x{i}")
                      for i in range(MUTES_PER_PLAYER))
        out = b.request({"type": "mute", "player_id": pa}, "muted")
        assert out["code"] == "too_many_mutes" and f"at most {MUTES_PER_PLAYER}" in out["message"]

        # --- report
        body = {"player_id": pa, "room": code.lower(), "reason": "abuse", "text": "<b>骂人</b>"}
        _refused(call(srv, "POST", "/api/reports", None, body), 401, "")
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "reason": "ugly"}), 400, "reason")
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "text": "x" * (REPORT_CHARS + 1)}),
                 400, str(REPORT_CHARS), "report_words_long")
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "player_id": pb}), 400, "yourself", "report_self")
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "room": "ZZZZZZ"}), 404, "no room")
        _refused(call(srv, "POST", "/api/reports", tc, body), 403, "not at that table", "report_not_there")
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "player_id": pc}), 404, "not at that table",
                 "report_they_not_there")
        rep = _ok(call(srv, "POST", "/api/reports", tb, body))
        assert rep["reported"]["player_id"] == pa and rep["club"] == cid and rep["room"] == code
        assert rep["text"] == "<b>骂人</b>"  # stored as text (pages render it as text)
        assert [e["text"] for e in rep["evidence"]] == ["早上好", "你打得真臭", "还在吗", "好的"]
        _refused(call(srv, "POST", "/api/reports", tb, body), 409, "already", "report_again")
        with Session(eng) as s, s.begin():  # four more in the hour: the limit is reached
            s.add_all(ReportRow(reporter_id=pb, reported_id=f"p_y{i}", room_code="QQQQQQ",
                                reason="spam", text="", evidence=[], created_at=datetime.now(UTC))
                      for i in range(REPORTS_PER_HOUR - 1))
        _refused(call(srv, "POST", "/api/reports", tb, {**body, "reason": "spam"}), 429,
                 f"at most {REPORTS_PER_HOUR}", "report_rate")
        # who reads them
        listed = _ok(call(srv, "GET", f"/api/clubs/{cid}/reports", ta))["reports"]
        assert [r["id"] for r in listed] == [rep["id"]]  # the club's tables only
        _refused(call(srv, "GET", f"/api/clubs/{cid}/reports", tb), 403, "owner or an admin")
        _refused(call(srv, "GET", f"/api/clubs/{cid}/reports", tc), 403, "owner or an admin")
        _refused(call(srv, "GET", f"/api/clubs/{cid}/reports", tg), 403, "register")
        _refused(call(srv, "GET", "/api/clubs/999/reports", ta), 404, "no club")
        everything = _ok(call(srv, "GET", "/api/reports", tboss))["reports"]
        assert len(everything) == REPORTS_PER_HOUR and everything[-1]["id"] == rep["id"]
        for tok in (ta, tb, tg):
            _refused(call(srv, "GET", "/api/reports", tok), 403, "admins")
        a.close()
        b.close()
    finally:
        eng.dispose()
        srv.stop()


def test_mutes_hold_while_the_player_has_another_connection_in_a_room(tmp_path: Path) -> None:
    """The node keeps a player's mutes while any connection of theirs is in one of its rooms
    (laizi.server.common.connset): bobo at the table on two connections mutes amei, one of
    them closes — the other still gets nothing of hers; a connection of bobo's outside every
    room does not keep them, and a rejoin reads them again from the database."""
    srv = LiveServer(str(tmp_path / "mutes.db"), tmp_path, bot_delay=0.0).start()
    try:
        ta, pa = register(srv, "amei")
        tb, _ = register(srv, "bobo")
        a = Client(srv.port, token=ta)
        code = a.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
        b1, b2 = Client(srv.port, token=tb), Client(srv.port, token=tb)
        for c in (b1, b2):
            c.request({"type": "join", "room": code}, "joined")
        assert b1.request({"type": "mute", "player_id": pa}, "muted")["players"] == [pa]
        b1.close()
        b2.frames.clear()
        _said(a, "听得到吗")
        _none_from(b2, pa)  # the mutes held: b2 is still at the table
        lobby = Client(srv.port, token=tb)  # a third, in no room: it keeps nothing
        b2.close()
        b3 = Client(srv.port, token=tb)
        b3.send({"type": "join", "room": code})
        assert b3.until("muted") == {"type": "muted", "players": [pa]}  # read again, stored
        b3.frames.clear()
        _said(a, "现在呢")
        _none_from(b3, pa)
        lobby.close()
        b3.close()
        a.close()
    finally:
        srv.stop()
