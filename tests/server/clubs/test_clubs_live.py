"""Clubs (亲友圈) over a live server, on SQLite and PostgreSQL: every role and every refusal
(a guest, a stranger at a private club, a pending player, a member, an admin, the owner),
joining by code with approval and by invitation, hand-over, templates checked by the
RuleSet, a table opened from a template (filled with bots and played over a real
WebSocket), quick-seat, the ranking of a season and a new season; then the limits with
their numbers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from laizi.server.clubs.service import (
    CLUBS_OWNED_PER_PLAYER,
    CREATES_PER_DAY,
    JOINS_PER_HOUR,
    TEMPLATES_PER_CLUB,
)
from support.socialkit import call, guest, register
from support.srvhelpers import Client, LiveServer, step
from support.tableopen import assert_table_open


def _ok(st_out: tuple[int, Any]) -> Any:
    st, out = st_out
    assert st == 200, out
    return out


def _refused(st_out: tuple[int, Any], status: int, words: str = "") -> None:
    st, out = st_out
    assert st == status, (st, out)
    # the one error answer: its English words and request id, and for a refusal a player meets
    # its code (and params) for the client's words (tests/server/net/test_error_codes.py)
    assert {"error", "request_id"} <= set(out) <= {"error", "request_id", "code", "params"}, out
    assert words in out["error"], out


def journey(srv: LiveServer) -> None:
    ta, pa = register(srv, "amei")
    tb, pb = register(srv, "bobo")
    tc, pc = register(srv, "cici")
    td, _ = register(srv, "dada")
    tg, _ = guest(srv)

    # guests and strangers
    _refused(call(srv, "GET", "/api/clubs", tg), 403, "register")
    _refused(call(srv, "POST", "/api/clubs", tg, {"name": "x"}), 403, "register")
    _refused(call(srv, "GET", "/api/clubs", None), 401)
    _refused(call(srv, "POST", "/api/clubs", ta, {"name": "  "}), 400, "empty")
    _refused(call(srv, "POST", "/api/clubs", ta, {"name": "x" * 25}), 400, "24")
    _refused(call(srv, "POST", "/api/clubs", ta, {"name": "x", "avatar": "nope"}), 400, "avatar")
    _refused(call(srv, "POST", "/api/clubs", ta, {"name": "x", "bots": "god"}), 400, "bot level")
    _refused(call(srv, "POST", "/api/clubs", ta, {"name": "x", "approval": "yes"}), 400, "true or false")
    club = _ok(call(srv, "POST", "/api/clubs", ta, {
        "name": "汉口牌友", "avatar": "crane", "description": "<b>周末</b>", "approval": True,
        "bots": "greedy"}))
    cid, code = club["id"], club["code"]
    assert club["role"] == "owner" and club["members"] == 1 and club["private"]
    assert club["description"] == "<b>周末</b>"  # stored as text; the page renders it as text
    _refused(call(srv, "GET", "/api/clubs/abc", ta), 400, "bad club id")
    _refused(call(srv, "GET", "/api/clubs/999999", ta), 404)
    for path in ("", "/members", "/tables", "/ranking"):
        _refused(call(srv, "GET", f"/api/clubs/{cid}{path}", td), 403, "private")

    # join by code, with approval
    _refused(call(srv, "POST", "/api/clubs/join", tb, {"code": "ZZZZZZ"}), 404, "no club")
    _refused(call(srv, "POST", "/api/clubs/join", tb, {"code": 7}), 400)
    out = _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": code.lower()}))
    assert out["status"] == "pending" and "code" not in out["club"]
    _refused(call(srv, "POST", "/api/clubs/join", tb, {"code": code}), 409, "approval")
    _refused(call(srv, "GET", f"/api/clubs/{cid}/tables", tb), 403)  # pending: not a member
    assert _ok(call(srv, "GET", f"/api/clubs/{cid}", tb))["role"] == "pending"
    assert [c["id"] for c in _ok(call(srv, "GET", "/api/clubs", tb))["pending"]] == [cid]
    ms = _ok(call(srv, "GET", f"/api/clubs/{cid}/members", ta))
    assert [m["username"] for m in ms["pending"]] == ["bobo"]
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "approve",
                                                                 "player": "cici"}), 404)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "ban",
                                                                 "player": "bobo"}), 400)
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "approve", "player": "bobo"}))
    mb = _ok(call(srv, "GET", f"/api/clubs/{cid}/members", tb))
    assert [(m["username"], m["role"]) for m in mb["members"]] == [("amei", "owner"), ("bobo", "member")]
    assert mb["pending"] == [] and mb["invited"] == []  # a member does not see requests

    # an invitation (no approval needed)
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "invite", "player": "cici"}))
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "invite",
                                                                 "player": "cici"}), 409)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "invite",
                                                                 "player": "nobody"}), 404)
    assert [c["id"] for c in _ok(call(srv, "GET", "/api/clubs", tc))["invited"]] == [cid]
    _refused(call(srv, "POST", f"/api/clubs/{cid}/accept", td), 404, "no invitation")
    _ok(call(srv, "POST", f"/api/clubs/{cid}/accept", tc))

    # a member may do none of the staff's work
    for body in ({"action": "kick", "player": "cici"}, {"action": "approve", "player": "dada"},
                 {"action": "invite", "player": "dada"},
                 {"action": "role", "player": "cici", "role": "admin"},
                 {"action": "transfer", "player": "cici"}):
        _refused(call(srv, "POST", f"/api/clubs/{cid}/members", tb, body), 403, "only")
    _refused(call(srv, "POST", f"/api/clubs/{cid}/templates", tb,
                  {"name": "t", "settings": {"preset": "kaikoufan"}}), 403)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/season", tb), 403, "owner")
    # the owner: not before a table of this season (asked in a loop, seasons ran past 900)
    st, out = call(srv, "POST", f"/api/clubs/{cid}/season", ta)
    assert st == 409 and out["code"] == "season_empty", (st, out)
    _refused(call(srv, "POST", f"/api/clubs/{cid}", tb, {"bots": None}), 403, "owner")

    # an admin: kicks members, not the owner; cannot name admins
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "role", "player": "bobo",
                                                            "role": "admin"}))
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "kick",
                                                                 "player": "amei"}), 403)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "role", "player": "cici",
                                                                 "role": "admin"}), 403)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "kick",
                                                                 "player": "bobo"}), 400, "yourself")
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "kick", "player": "cici"}))
    _refused(call(srv, "GET", f"/api/clubs/{cid}/tables", tc), 403)  # kicked: a stranger again
    assert _ok(call(srv, "POST", "/api/clubs/join", tc, {"code": code}))["status"] == "pending"
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "reject", "player": "cici"}))
    assert _ok(call(srv, "GET", "/api/clubs", tc)) ["pending"] == []

    # hand-over, and back
    _refused(call(srv, "POST", f"/api/clubs/{cid}/leave", ta), 409, "transfer")
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "transfer", "player": "bobo"}))
    assert _ok(call(srv, "GET", f"/api/clubs/{cid}", tb))["owner"]["player_id"] == pb
    _refused(call(srv, "POST", f"/api/clubs/{cid}/season", ta), 403)
    _ok(call(srv, "POST", f"/api/clubs/{cid}/members", tb, {"action": "transfer", "player": "amei"}))
    roles = {m["username"]: m["role"] for m in _ok(call(srv, "GET", f"/api/clubs/{cid}/members",
                                                        ta))["members"]}
    assert roles == {"amei": "owner", "bobo": "admin"}

    # templates: checked by the protocol and the RuleSet
    url = f"/api/clubs/{cid}/templates"
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"preset": "nope"}}), 400, "preset")
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"preset": "kaikoufan",
                                                                   "options": {"no_such": 1}}}), 400)
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"seed": "x"}}), 400, "seed")
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"rounds": 99}}), 400, "rounds")
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": []}), 400)
    tpl = _ok(call(srv, "POST", url, tb, {"name": "一局定胜负", "settings": {
        "preset": "kaikoufan", "max_hands": 1, "turn_seconds": 10}}))  # an admin may
    assert tpl["card"]["text"].startswith("开口番") and tpl["settings"]["max_hands"] == 1
    assert tpl["card_en"]["text"]
    assert [t["id"] for t in _ok(call(srv, "GET", f"/api/clubs/{cid}", tb))["templates"]] == [tpl["id"]]

    # tables: a lobby table, quick-seat; a stranger cannot
    tables = f"/api/clubs/{cid}/tables"
    _refused(call(srv, "POST", tables, ta, {"template": 999999}), 404, "template")
    _refused(call(srv, "POST", tables, ta, {"template": "1"}), 400)
    for big in (2**63, -1, 10**29):  # (2**63 was a 500: too large for the database's integer)
        _refused(call(srv, "POST", tables, ta, {"template": big}), 400, "template id")
    _refused(call(srv, "POST", tables, td, {"template": tpl["id"]}), 403)
    _refused(call(srv, "POST", f"/api/clubs/{cid}/quick", tb), 404, "open one")
    t1 = _ok(call(srv, "POST", tables, ta, {"template": tpl["id"], "fill": False}))
    assert t1["status"] == "lobby" and t1["seat"] == 0
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"club": cid}}), 400, "club")
    _refused(call(srv, "POST", url, ta, {"name": "t", "settings": {"bots_fill": "greedy"}}), 400,
             "bots_fill")  # the club's own setting, not a template's
    assert _ok(call(srv, "POST", f"/api/clubs/{cid}/quick", tb)) == {"code": t1["code"], "seat": 1}
    assert _ok(call(srv, "POST", f"/api/clubs/{cid}/quick", tb)) == {"code": t1["code"], "seat": 1}
    _refused(call(srv, "POST", f"/api/clubs/{cid}/quick", td), 403)
    listed = _ok(call(srv, "GET", tables, tb))["tables"]
    assert [t["code"] for t in listed] == [t1["code"]]
    assert listed[0]["free"] == 2 and listed[0]["seats"][0]["player_id"] == pa
    assert listed[0]["seats"][1]["player_id"] == pb and listed[0]["card"] == tpl["card"]
    st, room = call(srv, "GET", f"/api/rooms/{t1['code']}")
    assert st == 404  # a club table is private: not found by strangers asking its code

    # a table the club's bots fill: started at once, played over a real WebSocket
    t2 = _ok(call(srv, "POST", tables, ta, {"template": tpl["id"]}))
    assert t2["status"] == "playing"
    assert_table_open(srv.db_url, t2["code"])  # every step of the start taken
    listed = {t["code"]: t for t in _ok(call(srv, "GET", tables, ta))["tables"]}
    assert [s["bot"] for s in listed[t2["code"]]["seats"]] == [None, "greedy", "greedy", "greedy"]
    c = Client(srv.port, token=ta)
    try:
        c.send({"type": "join", "room": t2["code"]})
        c.until("joined")
        end = time.monotonic() + 120
        while step([c]) and time.monotonic() < end:
            pass
        assert c.last is not None and c.last["view"].get("match_over")
    finally:
        c.close()
    deadline = time.monotonic() + 20
    while True:
        rank = _ok(call(srv, "GET", f"/api/clubs/{cid}/ranking", tb))
        if rank["ranking"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert rank["season"] == 1 and [r["username"] for r in rank["ranking"]] == ["amei"]
    me = rank["ranking"][0]
    assert me["matches"] == 1 and me["hands"] == 1 and me["rank"] == 1
    assert me["win_rate"] == me["wins"] / me["hands"]
    assert t2["code"] not in {t["code"] for t in _ok(call(srv, "GET", tables, ta))["tables"]}

    # a new season: the ranking starts over; the old one stays readable
    assert _ok(call(srv, "POST", f"/api/clubs/{cid}/season", ta))["season"] == 2
    assert _ok(call(srv, "GET", f"/api/clubs/{cid}/ranking", ta))["ranking"] == []
    old = _ok(call(srv, "GET", f"/api/clubs/{cid}/ranking?season=1", ta))
    assert old["ranking"] == rank["ranking"]
    _refused(call(srv, "GET", f"/api/clubs/{cid}/ranking?season=3", ta), 400, "season")

    # a public club: a stranger sees it, but may not open tables
    _ok(call(srv, "POST", f"/api/clubs/{cid}", ta, {"private": False, "description": "公开"}))
    assert _ok(call(srv, "GET", f"/api/clubs/{cid}/tables", td))["role"] is None
    _refused(call(srv, "POST", tables, td, {"template": tpl["id"]}), 403)

    # leaving
    _ok(call(srv, "POST", f"/api/clubs/{cid}/leave", tb))
    _refused(call(srv, "POST", f"/api/clubs/{cid}/leave", tb), 404)
    _ok(call(srv, "POST", f"/api/clubs/{cid}/templates/{tpl['id']}/delete", ta))
    _refused(call(srv, "POST", f"/api/clubs/{cid}/templates/{tpl['id']}/delete", ta), 404)
    assert pc and _ok(call(srv, "GET", "/api/clubs", tb))["clubs"] == []


@pytest.fixture
def sqlite_srv(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = LiveServer(str(tmp_path / "clubs.db"), tmp_path, bot_delay=0.0).start()
    yield s
    s.stop()


@pytest.mark.slow
def test_clubs_roles_tables_ranking(db_url: str, tmp_path: Path) -> None:
    s = LiveServer(db_url, tmp_path, bot_delay=0.0).start()
    try:
        journey(s)
    finally:
        s.stop()


@pytest.mark.slow
def test_club_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_MAX_CLUBS", "4")     # docs: CLUBS_PER_PLAYER = 10
    monkeypatch.setenv("LAIZI_CLUB_MEMBERS", "2")  # docs: MEMBERS_PER_CLUB = 200
    monkeypatch.setenv("LAIZI_CLUB_PENDING", "1")  # docs: PENDING_PER_CLUB = 50
    monkeypatch.setenv("LAIZI_CLUB_TABLES", "2")   # docs: OPEN_TABLES_PER_CLUB = 20
    srv = LiveServer(str(tmp_path / "limits.db"), tmp_path, bot_delay=0.0).start()
    try:
        ta, _ = register(srv, "amei")
        tb, _ = register(srv, "bobo")
        tc, _ = register(srv, "cici")
        td, _ = register(srv, "dada")
        # clubs owned: CLUBS_OWNED_PER_PLAYER
        codes = [_ok(call(srv, "POST", "/api/clubs", ta, {"name": f"c{i}"}))["code"]
                 for i in range(CLUBS_OWNED_PER_PLAYER)]
        _refused(call(srv, "POST", "/api/clubs", ta, {"name": "more"}), 409,
                 f"at most {CLUBS_OWNED_PER_PLAYER}")
        # new clubs per player per day: every attempt counts (4 so far)
        for _ in range(CREATES_PER_DAY - 4):
            assert call(srv, "POST", "/api/clubs", ta, {"name": "more"})[0] == 409
        _refused(call(srv, "POST", "/api/clubs", ta, {"name": "more"}), 429, f"at most {CREATES_PER_DAY}")
        # members per club (the owner counts)
        first = _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": codes[0]}))["club"]["id"]
        _refused(call(srv, "POST", "/api/clubs/join", tc, {"code": codes[0]}), 409, "at most 2 members")
        # clubs per player: bobo in 4, then refused
        for code in codes[1:]:
            _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": code}))
        other = _ok(call(srv, "POST", "/api/clubs", tc, {"name": "c-cici"}))["code"]
        _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": other}))
        dd = _ok(call(srv, "POST", "/api/clubs", td, {"name": "c-dada"}))["code"]
        _refused(call(srv, "POST", "/api/clubs/join", tb, {"code": dd}), 409, "at most 4")
        _refused(call(srv, "POST", "/api/clubs", tb, {"name": "mine"}), 409, "at most 4")
        assert len(_ok(call(srv, "GET", "/api/clubs", tb))["clubs"]) == 4
        # templates per club
        for i in range(TEMPLATES_PER_CLUB):
            _ok(call(srv, "POST", f"/api/clubs/{first}/templates", ta,
                     {"name": f"t{i}", "settings": {"preset": "kaikoufan"}}))
        _refused(call(srv, "POST", f"/api/clubs/{first}/templates", ta,
                      {"name": "one more", "settings": {}}), 409, f"at most {TEMPLATES_PER_CLUB}")
        # open tables per club (LAIZI_CLUB_TABLES = 2)
        tpl = _ok(call(srv, "GET", f"/api/clubs/{first}", ta))["templates"][0]["id"]
        for _ in range(2):
            _ok(call(srv, "POST", f"/api/clubs/{first}/tables", ta, {"template": tpl, "fill": False}))
        _refused(call(srv, "POST", f"/api/clubs/{first}/tables", ta, {"template": tpl, "fill": False}),
                 409, "at most 2 open tables")
        # requests and invitations waiting per club (LAIZI_CLUB_PENDING = 1)
        dada = _ok(call(srv, "GET", "/api/clubs", td))["clubs"][0]["id"]  # dada's own club, alone
        _ok(call(srv, "POST", f"/api/clubs/{dada}", td, {"approval": True}))
        assert _ok(call(srv, "POST", "/api/clubs/join", tc, {"code": dd}))["status"] == "pending"
        _refused(call(srv, "POST", "/api/clubs/join", ta, {"code": dd}), 409, "1 requests waiting")
        _refused(call(srv, "POST", f"/api/clubs/{dada}/members", td,
                      {"action": "invite", "player": "amei"}), 409, "at most 1 open requests")
        # join-by-code attempts per player per hour (found or not)
        left = JOINS_PER_HOUR - 5  # bobo used 5 attempts above
        for _ in range(left):
            assert call(srv, "POST", "/api/clubs/join", tb, {"code": "QQQQQQ"})[0] == 404
        st, out = call(srv, "POST", "/api/clubs/join", tb, {"code": "QQQQQQ"})
        assert st == 429 and f"at most {JOINS_PER_HOUR}" in out["error"]
    finally:
        srv.stop()


@pytest.mark.slow
def test_dissolve_by_vote_at_a_club_table(sqlite_srv: LiveServer) -> None:
    """A club table over real WebSockets: a stranger cannot join or watch it (nor make a room
    that claims a club); two members at it (the club's bots fill the two empty seats when the
    host starts) play a little; 解散:
    one agrees (the other is told who still must), a refusal drops it, then both agree: the
    match ends as finished early with the scores so far, stored; the ranking counts it; the
    journal replays (``laizi check``)."""
    import subprocess
    import sys

    srv = sqlite_srv
    ta, pa = register(srv, "amei")
    tb, pb = register(srv, "bobo")
    club = _ok(call(srv, "POST", "/api/clubs", ta, {"name": "解散俱乐部", "bots": "random"}))
    cid = club["id"]
    _ok(call(srv, "POST", "/api/clubs/join", tb, {"code": club["code"]}))
    tpl = _ok(call(srv, "POST", f"/api/clubs/{cid}/templates", ta,
                   {"name": "两圈", "settings": {"preset": "kaikoufan", "rounds": 2}}))
    code = _ok(call(srv, "POST", f"/api/clubs/{cid}/tables", ta, {"template": tpl["id"],
                                                                  "fill": False}))["code"]
    assert _ok(call(srv, "POST", f"/api/clubs/{cid}/quick", tb)) == {"code": code, "seat": 1}
    tc, _ = register(srv, "cici")  # not a member: the table's door is shut to her
    stranger = Client(srv.port, token=tc)
    try:
        assert stranger.request({"type": "join", "room": code}, "joined")["code"] == "club_only"
        assert stranger.request({"type": "join", "room": code, "spectate": True},
                                "joined")["code"] == "club_only"
        out = stranger.request({"type": "create", "settings": {"club": cid}}, "joined")
        assert out["code"] == "bad_settings" and "club" in out["message"]
    finally:
        stranger.close()
    a, b = Client(srv.port, token=ta), Client(srv.port, token=tb)
    try:
        for c in (a, b):
            c.send({"type": "join", "room": code})
            c.until("joined")
        # before the match: nothing to vote on
        assert a.request({"type": "dissolve"}, "dissolve")["code"] == "not_playing"
        b.send({"type": "ready"})
        b.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])
        a.send({"type": "start"})  # the club's bots take the two empty seats
        room = a.until(lambda m: m["type"] == "room" and m["room"]["status"] == "playing")["room"]
        assert [s["bot"] for s in room["seats"]] == [None, None, "random", "random"]
        for c in (a, b):
            c.until(lambda m: m["type"] in ("snapshot", "update"))
        for _ in range(30):  # a few moves
            step([a, b])
        a.send({"type": "dissolve"})
        m = b.until("dissolve")
        assert m == {"type": "dissolve", "agreed": [0], "waiting": [1], "done": False}
        b.send({"type": "dissolve", "on": False})  # a refusal drops the proposal
        m = a.until(lambda m: m["type"] == "dissolve" and "refused" in m)
        assert m["agreed"] == [] and m["refused"] == 1 and not m["done"]
        a.send({"type": "dissolve"})
        b.until(lambda m: m["type"] == "dissolve" and m["agreed"] == [0])
        b.send({"type": "dissolve"})
        m = a.until(lambda m: m["type"] == "dissolve" and m["done"])
        assert m["agreed"] == [0, 1] and m["waiting"] == []
        # the last frame (shown before the vote's result is announced) says the match is over
        assert a.last is not None and a.last["view"]["match_over"]
        b.send({"type": "dissolve"})
        assert b.until("error")["code"] == "not_playing"
    finally:
        a.close()
        b.close()
    end = time.monotonic() + 20
    while True:
        st, info = call(srv, "GET", f"/api/rooms/{code}", ta)
        if (st == 200 and info["status"] == "finished") or time.monotonic() > end:
            break
        time.sleep(0.1)
    assert info["status"] == "finished", info
    # the ranking is read from what the end stored, a moment after the room says finished
    # (waited for, as the ranking above is: read at once, a busy server had not stored it yet)
    end = time.monotonic() + 20
    while True:
        rank = _ok(call(srv, "GET", f"/api/clubs/{cid}/ranking", tb))["ranking"]
        if len(rank) >= 2 or time.monotonic() > end:
            break
        time.sleep(0.1)
    assert {r["username"] for r in rank} == {"amei", "bobo"}
    assert all(r["matches"] == 1 for r in rank)
    assert _ok(call(srv, "GET", f"/api/clubs/{cid}/tables", ta))["tables"] == []
    srv.stop()  # every write is in: the audit replays the journal to the stored events
    from sqlalchemy import create_engine, text

    eng = create_engine(f"sqlite:///{srv.db_url}")
    with eng.connect() as conn:
        kinds = [(k, d) for k, d in conn.execute(text(
            "SELECT e.kind, e.data FROM events e JOIN matches m ON m.id = e.match_id "
            "WHERE m.room_code = :c ORDER BY e.n"), {"c": code})]
        status = conn.execute(text("SELECT status FROM matches WHERE room_code = :c"), {"c": code}).scalar()
    eng.dispose()
    end = json.loads(kinds[-1][1])
    assert status == "finished" and kinds[-1][0] == "end_match" and end["reason"] == "dissolved"
    cut = [json.loads(d).get("reason") for k, d in kinds if k == "ryukyoku"]
    ended = sum(1 for k, _ in kinds if k == "end_hand")
    # the hand in play (if any) ended as a dissolved draw; it is no hand played in the ranking
    assert all(r["hands"] == ended - cut.count("dissolved") for r in rank)
    assert cut.count("dissolved") <= 1
    out = subprocess.run([sys.executable, "-m", "laizi", "check", "--db", srv.db_url],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "no problem found" in out.stdout, out.stdout + out.stderr


def test_stored_settings_carry_the_club_fields_only_when_set() -> None:
    """A room's stored settings name ``club`` and ``bots_fill`` only at a club table, so a
    server of the previous version (its settings forbid unknown fields) loads every other room."""
    from laizi.server.common.protocol import RoomSettings
    from laizi.server.tables.room import stored_settings

    plain = stored_settings(RoomSettings.model_validate({"max_hands": 2}))
    assert "club" not in plain and "bots_fill" not in plain and plain["max_hands"] == 2
    club = stored_settings(RoomSettings.model_validate({"club": 3, "bots_fill": "random", "private": True}))
    assert club["club"] == 3 and club["bots_fill"] == "random"
    assert RoomSettings.model_validate(club).club == 3  # read back by this version
