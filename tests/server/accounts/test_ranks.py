"""Named ranks (段位): the documented thresholds; the profile and the leaderboard carry each
player's rank; a room limited to a rank range seats only players within it (a live server:
a new player, 新手, is refused ``rank_out_of_range`` at a 雀士+ table and may still watch; a
player whose stored rating is an Adept's sits; a 新手-only table refuses the Adept)."""

from __future__ import annotations

from pathlib import Path

from laizi.server.accounts.ranks import RANK_MAX, RANKS, rank_of
from laizi.server.persistence import db
from support.socialkit import register
from support.srvhelpers import Client, LiveServer


def test_thresholds() -> None:
    assert [r.zh for r in RANKS] == ["新手", "雀士一", "雀士二", "雀士三", "雀杰一", "雀杰二", "雀杰三",
                                     "雀豪一", "雀豪二", "雀豪三", "雀圣"]
    assert RANK_MAX == 10 and [r.index for r in RANKS] == list(range(11))
    assert rank_of(None).key == "novice" and rank_of(0.0).key == "novice"  # a new player: 0
    assert rank_of(4.99).index == 0 and rank_of(5.0).zh == "雀士一" and rank_of(7.99).zh == "雀士一"
    assert rank_of(8.0).en == "Adept II" and rank_of(14.0).zh == "雀杰一" and rank_of(29.5).zh == "雀豪三"
    assert rank_of(32.0).zh == "雀圣" and rank_of(80.0).en == "Saint" and rank_of(-9.0).index == 0


def _rate(url: str, pid: str, ordinal: float) -> None:
    eng = db.make_engine(url)
    ratings = db.Base.metadata.tables["ratings"]
    try:
        with eng.begin() as conn:
            conn.execute(ratings.insert().values(player_id=pid, mu=ordinal + 3.0, sigma=1.0,
                                                 ordinal=ordinal, matches=3))
    finally:
        eng.dispose()


def test_rank_range_of_a_room(tmp_path: Path) -> None:
    url = str(tmp_path / "ranks.db")
    srv = LiveServer(url, tmp_path).start()
    try:
        tok_a, pid_a = register(srv, "adeptone")
        tok_n, pid_n = register(srv, "newcomer")
        _rate(url, pid_a, 9.5)  # 雀士二
        prof = srv.get(f"/api/players/{pid_a}")[1]
        assert prof["tier"] == {"index": 2, "key": "adept", "level": 2, "zh": "雀士二", "en": "Adept II"}
        assert srv.get(f"/api/players/{pid_n}")[1]["tier"]["zh"] == "新手"  # no rating yet
        board = srv.get("/api/leaderboard")[1]["players"]
        assert [(p["player_id"], p["tier"]["zh"]) for p in board] == [(pid_a, "雀士二")]

        host = Client(srv.port, token=tok_a)
        host.send({"type": "create", "settings": {"rank_min": 1, "rank_max": 4}})
        room = host.until("joined")["room"]
        assert room["settings"]["rank_min"] == 1 and room["settings"]["rank_max"] == 4
        code = room["code"]
        host.send({"type": "sit", "seat": 0})
        got = host.until(lambda m: m["type"] == "room" and m["room"]["seats"][0]["player_id"] == pid_a)
        assert got["room"]["seats"][0]["tier"]["zh"] == "雀士二"  # on the table plate
        new = Client(srv.port, token=tok_n)
        new.send({"type": "join", "room": code})
        new.until("joined")  # watching is open to anyone
        new.send({"type": "sit", "seat": 1})
        err = new.until("error")
        assert err["code"] == "rank_out_of_range" and "Novice" in err["message"], err
        assert "Adept I to Expert I" in err["message"]
        # a 新手-only table refuses the Adept
        new.send({"type": "create", "settings": {"rank_max": 0}})
        code2 = new.until("joined")["room"]["code"]
        host.send({"type": "join", "room": code2})
        host.until("joined")
        host.send({"type": "sit", "seat": 2})
        assert host.until("error")["code"] == "rank_out_of_range"
        # a bad range is a bad setting
        host.send({"type": "create", "settings": {"rank_min": 5, "rank_max": 2}})
        assert host.until("error")["code"] in ("bad_message", "bad_settings")
        host.send({"type": "create", "settings": {"rank_min": 11}})
        assert host.until("error")["code"] in ("bad_message", "bad_settings")
        for c in (host, new):
            c.close()
        assert "Traceback" not in srv.log.read_text()
    finally:
        srv.stop()


def test_a_club_tables_rank_range_holds_on_the_clubs_api(tmp_path: Path) -> None:
    """The clubs API seats players without the socket's ``sit``: a club's quick seat and the
    host of a table opened from a template. Both keep the template's 段位 range (a security
    audit seated two 新手 at a 雀士+ club table through them)."""
    from support.socialkit import call

    url = str(tmp_path / "clubranks.db")
    srv = LiveServer(url, tmp_path).start()
    try:
        tok_a, pid_a = register(srv, "adepthost")
        tok_b, _ = register(srv, "newbie")
        _rate(url, pid_a, 9.5)  # 雀士二
        st, club = call(srv, "POST", "/api/clubs", tok_a, {"name": "高手圈", "private": True})
        assert st == 200, club
        cid = club["id"]
        st, tpl = call(srv, "POST", f"/api/clubs/{cid}/templates", tok_a,
                       {"name": "雀士场", "settings": {"preset": "kaikoufan", "rank_min": 1}})
        assert st == 200, tpl
        assert call(srv, "POST", "/api/clubs/join", tok_b, {"code": club["code"]})[0] == 200
        # the 新手 may not open (and so host, at seat 0) a 雀士+ table
        st, out = call(srv, "POST", f"/api/clubs/{cid}/tables", tok_b, {"template": tpl["id"], "fill": False})
        assert st == 403 and "Novice" in out["error"], (st, out)
        # the Adept opens one; the 新手's quick seat does not take its free seats
        st, tab = call(srv, "POST", f"/api/clubs/{cid}/tables", tok_a, {"template": tpl["id"], "fill": False})
        assert st == 200 and tab["seat"] == 0, tab
        st, out = call(srv, "POST", f"/api/clubs/{cid}/quick", tok_b, {})
        assert st == 403 and "Novice" in out["error"], (st, out)
        st, tables = call(srv, "GET", f"/api/clubs/{cid}/tables", tok_a)
        assert st == 200
        seats = next(t for t in tables["tables"] if t["code"] == tab["code"])["seats"]
        assert [s and s["player_id"] for s in seats] == [pid_a, None, None, None], seats
        assert "Traceback" not in srv.log.read_text()
    finally:
        srv.stop()
