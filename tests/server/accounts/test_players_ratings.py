"""Profiles, history and ratings from matches played over a real server (protocol clients and
bots), on SQLite and on the private PostgreSQL: the figures equal what the stored event log
says, a rated room's ratings equal openskill's own computation, casual rooms stay unrated."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from laizi.server.persistence import db
from support.eventfigures import figures_from_events
from support.srvhelpers import Client, LiveServer, eventually, seated_room, step

FAST_CFG = {"bot_delay": 0.0, "hand_pause": 0.0, "disconnect_grace": 60.0}


def play_out(clients: list[Client], timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while step(clients):
        assert time.monotonic() < end, "the match did not finish"


def final_match(url: str, match_id: int) -> tuple[list[dict[str, Any]], list[float]]:
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            m = conn.execute(select(db.MatchRow.seats, db.MatchRow.scores, db.MatchRow.status)
                             .where(db.MatchRow.id == match_id)).one()
    finally:
        eng.dispose()
    assert m.status == "finished"
    return list(m.seats), [float(x) for x in m.scores]


def _finished(url: str, match_id: int) -> bool:
    try:
        final_match(url, match_id)
    except AssertionError:
        return False
    return True


def check_profile(srv: LiveServer, url: str, pid: str, matches: dict[int, int],
                  played: bool = True) -> dict[str, Any]:
    st, prof = srv.get(f"/api/players/{pid}")
    assert st == 200, prof
    f = prof["figures"]
    want = figures_from_events(url, list(matches), matches)
    assert f["hands"] == want.get("hands", 0)
    assert (f["hands"] > 0) == played
    assert f["wins"] == want.get("wins", 0)
    assert f["self_draws"] == want.get("self_draws", 0)
    assert f["escapes"] == want.get("escapes", 0)
    assert f["points"] == pytest.approx(want["points"])
    assert f["liability_paid"] == pytest.approx(want["liability_paid"])
    assert f["big_hand_counts"] == want["big_hand_counts"]
    assert f["big_hands"] == sum(want["big_hand_counts"].values())
    if f["hands"]:
        assert f["win_rate"] == pytest.approx(f["wins"] / f["hands"], abs=1e-4)
        assert f["points_per_hand"] == pytest.approx(f["points"] / f["hands"], abs=1e-3)
    else:
        assert f["win_rate"] is None and f["points_per_hand"] is None
    assert f["matches"] == len(matches)
    listed = {m["match_id"]: m for m in prof["recent"]}
    assert set(listed) == set(matches)
    for mid, seat in matches.items():
        assert listed[mid]["seat"] == seat and listed[mid]["replay"] == f"/replay/{mid}"
        st, rep = srv.get(listed[mid]["replay_api"])
        assert st == 200 and rep["match_id"] == mid
    return prof


def run_rated_and_casual(srv: LiveServer, url: str) -> None:
    model = PlackettLuce()
    # 1. a rated room: three humans and a bot; one human escapes during the first hand
    toks = [srv.post("/api/account/register", {"username": f"rated{i}{srv.port}",
                                               "password": "tile-wall-42"})[1]["token"]
            for i in range(3)]
    clients, code = seated_room(srv.port, 3, rated=True, max_hands=2, tokens=toks)
    leaver = clients[2]
    leaver.send({"type": "leave"})
    leaver.until("left")
    play_out(clients[:2])
    st, room = srv.get(f"/api/rooms/{code}")
    mid = room["match_id"]
    seats, scores = final_match(url, mid)
    assert seats[2]["escaped"] and seats[3]["bot"]
    # openskill's own computation: the three registered players ranked by final score, the
    # one who escaped last whatever its score (the bot is not rated)
    humans = [0, 1, 2]
    ranks = [4 if h == 2 else 1 + sum(1 for o in range(4) if scores[o] > scores[h]) for h in humans]
    expect = model.rate([[model.rating()] for _ in humans], ranks=ranks)
    st, board = srv.get("/api/leaderboard")
    assert st == 200
    got = {p["player_id"]: p for p in board["players"]}
    assert len(got) == 3
    for h, team in zip(humans, expect, strict=True):
        pid = clients[h].pid
        assert got[pid]["mu"] == pytest.approx(team[0].mu, abs=1e-3)
        assert got[pid]["sigma"] == pytest.approx(team[0].sigma, abs=1e-3)
        assert got[pid]["rating"] == pytest.approx(team[0].ordinal(), abs=1e-2)
        assert got[pid]["matches"] == 1
    order = [p["player_id"] for p in board["players"]]
    assert [p["rating"] for p in board["players"]] == sorted((p["rating"] for p in board["players"]),
                                                             reverse=True)
    assert [p["rank"] for p in board["players"]] == [1, 2, 3]
    prof = check_profile(srv, url, clients[2].pid, {mid: 2}, played=False)  # escaped in hand 1
    assert prof["figures"]["escapes"] == 1 and prof["recent"][0]["escaped"]
    assert prof["recent"][0]["rated"] and "rating_change" in prof["recent"][0]
    assert prof["rating"]["rank"] == order.index(clients[2].pid) + 1
    for c in clients:
        c.close()

    # 2. the same two players, now in a casual room: figures grow, ratings do not move
    p0 = Client(srv.port, token=clients[0].token)
    p1 = Client(srv.port, token=clients[1].token)
    assert (p0.pid, p1.pid) == (clients[0].pid, clients[1].pid)
    p0.send({"type": "create", "settings": {"max_hands": 1}})
    code2 = p0.until("joined")["room"]["code"]
    p1.send({"type": "join", "room": code2})
    p1.until("joined")
    for i, c in enumerate((p1, p0)):  # p1 takes seat 0 this time
        c.send({"type": "sit", "seat": i})
        c.until(lambda m, i=i, pid=c.pid: m["type"] == "room" and m["room"]["seats"][i]["player_id"] == pid)
        c.send({"type": "ready"})  # 准备: the host's start needs every seated human ready
        c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["ready"])
    for s in (2, 3):
        p0.send({"type": "bot", "seat": s, "level": "random"})
        p0.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"])
    p0.send({"type": "start"})
    for c in (p0, p1):
        c.until("snapshot")
    play_out([p0, p1])
    mid2 = srv.get(f"/api/rooms/{code2}")[1]["match_id"]
    final_match(url, mid2)
    st, board2 = srv.get("/api/leaderboard")
    assert board2["players"] == board["players"]
    prof0 = check_profile(srv, url, p0.pid, {mid: 0, mid2: 1})
    assert prof0["figures"]["rated_matches"] == 1
    assert not [m for m in prof0["recent"] if m["match_id"] == mid2][0]["rated"]
    check_profile(srv, url, p1.pid, {mid: 1, mid2: 0})
    for c in (p0, p1):
        c.close()
    assert srv.get("/api/players/p_nobody")[0] == 404
    assert srv.get("/api/leaderboard?limit=0")[0] == 400
    assert srv.get(f"/api/players/{p0.pid}?limit=x")[0] == 400
    assert "Traceback" not in srv.log.read_text()


@pytest.mark.slow
def test_profile_and_ratings(tmp_path: Path, db_url: str) -> None:
    srv = LiveServer(db_url, tmp_path, **FAST_CFG).start()
    try:
        run_rated_and_casual(srv, db_url)
    finally:
        srv.stop()


@pytest.mark.slow
def test_throwaway_guests_do_not_feed_a_rating(tmp_path: Path) -> None:
    """One account and three guests who escape every match: the account gains nothing (the
    issue measured 0 → 15.9 in six matches, first on the leaderboard); nor does a match of
    one account and two guests who stay."""
    url = str(tmp_path / "farm.db")
    srv = LiveServer(url, tmp_path, **FAST_CFG).start()
    try:
        st, reg = srv.post("/api/account/register", {"username": "farmer", "password": "tile-wall-42"})
        assert st == 200
        for leavers in (3, 0):
            guests = [srv.post("/api/guest", {"nickname": f"g{i}"})[1]["token"] for i in range(3)]
            clients, code = seated_room(srv.port, 4, rated=True, max_hands=1,
                                        tokens=[reg["token"], *guests])
            for c in clients[4 - leavers:] if leavers else []:
                c.send({"type": "leave"})
                c.until("left")
            play_out(clients[:4 - leavers] if leavers else clients)
            mid = srv.get(f"/api/rooms/{code}")[1]["match_id"]
            eventually(lambda mid=mid: _finished(url, mid), 30, "the match's end")
            for c in clients:
                c.close()
        st, board = srv.get("/api/leaderboard")
        assert st == 200 and board["players"] == [], board
        prof = srv.get(f"/api/players/{reg['player_id']}")[1]
        assert prof["figures"]["matches"] == 2 and prof["figures"]["rated_matches"] == 0
    finally:
        srv.stop()
