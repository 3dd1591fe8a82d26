"""The profile figures and ratings computed by SQL from what the real recorder stores: matches
of the real engine (greedy bots choosing for four players) written through
:class:`laizi.server.tables.recorder.Recorder`, on SQLite and on the private PostgreSQL. The deal
(seed ``s10``) has self-draws, big hands and a liable seat, so every figure is non-trivial."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy.orm import Session

from laizi.rules import RuleSet
from laizi.server.accounts import ratings
from laizi.server.accounts.players import profile
from laizi.server.accounts.ratings import leaderboard
from laizi.server.persistence import db
from laizi.server.persistence.store import RoomRecord, Store
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.recorder import Recorder
from laizi.server.tables.seats import SeatBot
from support.eventfigures import figures_from_events
from support.srvhelpers import bot_step

PIDS = ["p_a", "p_b", "p_c", None]  # seat 3: a bot


async def play_match(store: Store, code: str, seed: str, rated: bool, escape_at: int | None = None,
                     fixed_deal: str | None = None) -> int:
    rules = RuleSet.preset("kaikoufan")
    seats: list[dict[str, Any]] = [{"player_id": p, "nickname": p or "", "bot": None if p else "greedy",
                                    "escaped": False} for p in PIDS]
    settings = {"preset": "kaikoufan", "rated": rated, "seed": fixed_deal, "max_hands": 8}
    rec = RoomRecord(code=code, owner_id="p_a", status="playing", settings=settings, seats=seats)
    g = GameSession(rules, seed_from_text(seed), max_hands=8)
    mid = await store.create_match(rec, rules.model_dump(mode="json"), seed_from_text(seed), 8)
    recorder = Recorder(code, store, lambda m: None)
    bots = [SeatBot("greedy", i) for i in range(4)]
    steps = 0
    while not g.over:
        if bot_step(g, bots) is not None:
            steps += 1
            if steps == escape_at:
                g.escape(1)
                seats[1]["escaped"] = True
        if steps % 25 == 0 or g.over:
            await recorder.persist(g, mid, seats, PIDS, "finished" if g.over else "playing")
    return mid


def run(url: str) -> None:
    async def go() -> tuple[int, int, int]:
        store = await Store.open(url)
        ratings.register(store)  # the server's hub registers it
        for pid in PIDS:
            if pid:
                await store.add_player(pid, pid)
        with Session(store.engine) as s:  # registered players: only they are rated
            s.add_all([db.AccountRow(player_id=pid, username=pid, username_key=pid,
                                     password_hash="-") for pid in PIDS if pid])
            s.commit()
        try:
            m1 = await play_match(store, "AAAAA", "s10", rated=True)
            m2 = await play_match(store, "BBBBB", "s11", rated=False, escape_at=40)
            m3 = await play_match(store, "CCCCC", "s12", rated=True)
        finally:
            await store.close()
        return m1, m2, m3

    m1, m2, m3 = asyncio.run(go())
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            profs = {pid: profile(conn, pid) for pid in PIDS if pid}
            page1 = profile(conn, "p_a", limit=1)
            page2 = profile(conn, "p_a", limit=1, before=m3)
            board = leaderboard(conn)
            finals = {r.id: [float(x) for x in r.scores] for r in conn.execute(
                db.Base.metadata.tables["matches"].select())}
    finally:
        eng.dispose()
    assert page1 is not None and [m["match_id"] for m in page1["recent"]] == [m3]
    assert page2 is not None and [m["match_id"] for m in page2["recent"]] == [m2]
    assert page2["figures"]["matches"] == 3  # the figures do not depend on the page
    total_big = total_liable = total_tsumo = 0
    for seat, pid in enumerate(PIDS[:3]):
        assert pid is not None
        prof = profs[pid]
        assert prof is not None
        f = prof["figures"]
        want = figures_from_events(url, [m1, m2, m3], {m1: seat, m2: seat, m3: seat})
        for key in ("hands", "wins", "self_draws", "escapes"):
            assert f[key] == want.get(key, 0), key
        assert f["points"] == pytest.approx(want["points"])
        assert f["liability_paid"] == pytest.approx(want["liability_paid"])
        assert f["big_hand_counts"] == want["big_hand_counts"]
        assert f["matches"] == 3 and f["rated_matches"] == 2
        assert [m["match_id"] for m in prof["recent"]] == [m3, m2, m1]
        assert [m["score"] for m in prof["recent"]] == [finals[m][seat] for m in (m3, m2, m1)]
        total_big += f["big_hands"]
        total_liable += f["liability_paid"] > 0
        total_tsumo += f["self_draws"]
    assert total_big > 0 and total_liable > 0 and total_tsumo > 0  # the deal exercises them
    assert profs["p_b"]["figures"]["escapes"] == 1  # type: ignore[index]
    # ratings: two rated matches, bots not rated, as openskill computes them
    model = PlackettLuce()
    cur = {p: model.rating() for p in PIDS if p}
    for mid in (m1, m3):
        sc = finals[mid]
        ranks = [1 + sum(1 for o in range(4) if sc[o] > sc[h]) for h in range(3)]
        teams = model.rate([[cur[p]] for p in PIDS[:3] if p], ranks=ranks)
        cur = {p: t[0] for p, t in zip(["p_a", "p_b", "p_c"], teams, strict=True)}
    assert {r["player_id"] for r in board} == {"p_a", "p_b", "p_c"}
    for r in board:
        assert r["mu"] == pytest.approx(cur[r["player_id"]].mu, abs=1e-3)
        assert r["sigma"] == pytest.approx(cur[r["player_id"]].sigma, abs=1e-3)
        assert r["matches"] == 2
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)


def test_figures_and_ratings(db_url: str) -> None:
    run(db_url)


def test_a_fixed_deal_is_never_rated(tmp_path: Path) -> None:
    url = str(tmp_path / "fx.db")

    async def go() -> int:
        store = await Store.open(url)
        ratings.register(store)  # the server's hub registers it
        await store.add_player("p_a", "a")
        try:
            return await play_match(store, "FIXED", "s10", rated=True, fixed_deal="known seed")
        finally:
            await store.close()

    mid = asyncio.run(go())
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            assert leaderboard(conn) == []
            prof = profile(conn, "p_a")
    finally:
        eng.dispose()
    assert prof is not None and prof["figures"]["matches"] == 1
    assert prof["figures"]["rated_matches"] == 0 and prof["rating"] is None
    assert prof["recent"][0]["match_id"] == mid and not prof["recent"][0]["rated"]


def test_equal_ratings_take_the_leaderboards_places_on_the_profile(tmp_path: Path) -> None:
    """Two players with one rating (the last human and the one who escaped can tie): the
    profile's rank is the player's place on the leaderboard, not a shared one."""
    eng = db.make_engine(str(tmp_path / "tie.db"))
    db.migrate(eng)
    with eng.begin() as conn:
        for pid, nick in (("p_b", "乙"), ("p_a", "甲"), ("p_c", "丙")):
            conn.execute(db.PlayerRow.__table__.insert(), [{"id": pid, "nickname": nick}])
        conn.execute(db.RatingRow.__table__.insert(), [
            {"player_id": "p_a", "mu": 20.0, "sigma": 5.0, "ordinal": 5.0, "matches": 1},
            {"player_id": "p_b", "mu": 20.0, "sigma": 5.0, "ordinal": 5.0, "matches": 1},
            {"player_id": "p_c", "mu": 30.0, "sigma": 5.0, "ordinal": 15.0, "matches": 1}])
    with eng.connect() as conn:
        board = leaderboard(conn)
        for row in board:
            prof = profile(conn, row["player_id"])
            assert prof is not None and prof["rating"]["rank"] == row["rank"], (row, prof["rating"])
    assert [r["player_id"] for r in board] == ["p_c", "p_a", "p_b"]
    eng.dispose()
