"""Tournaments against a real ``laizi serve`` subprocess: a 16-entrant, 3-round Swiss
tournament (players on protocol clients, a no-show, one who leaves, bots) killed with
SIGKILL in round 2 and resumed to its final ranking (SQLite and PostgreSQL); a duplicate
tournament whose tables share every wall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laizi.server.competitions.tournaments.duplicate import hand_commitments, position
from laizi.server.competitions.tournaments.standings import rank
from laizi.server.competitions.tournaments.swiss import repeated, swiss_tables
from support.srvhelpers import Client, LiveServer
from support.tableopen import assert_table_open
from support.tournkit import Player, account, call, query, wait_for

pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

CFG = {"bot_delay": 0.0, "hand_pause": 0.0, "disconnect_grace": 1.0}


def match_scores(db_url: str, match_id: int) -> list[float]:
    row = query(db_url, "SELECT scores FROM matches WHERE id = :m", m=match_id)[0]
    scores = row[0] if isinstance(row[0], list) else json.loads(row[0])
    return [float(x) for x in scores]


def hand_rows(db_url: str, match_id: int) -> list[tuple[int, int, str, str]]:
    return [tuple(r) for r in query(db_url, "SELECT number, dealer, commitment, seed FROM hands "
                                            "WHERE match_id = :m ORDER BY number", m=match_id)]


def run_swiss(db_path: str, tmp_path: Path) -> None:
    # the absent entrant holds its table up until the disconnect grace (6 s) puts it in 托管;
    # the director charges it as a no-show before that (3 s)
    srv = LiveServer(db_path, tmp_path, **{**CFG, "disconnect_grace": 6.0}).start()
    players: list[Player] = []
    try:
        org = account(srv, "organiser")
        names = [f"player{i}" for i in range(5)]
        tokens = [account(srv, n) for n in names]
        st, out = call(srv, "POST", "/api/tournaments", {
            "name": "周末杯", "rounds": 3, "hands_per_round": 2, "seats": 16, "bots_fill": True,
            "continue_seconds": 0, "turn_seconds": 30, "bot_delay": 0, "no_show_seconds": 3}, org)
        assert st == 200, out
        tid = out["id"]
        for t in tokens:
            assert call(srv, "POST", f"/api/tournaments/{tid}/register", {}, t)[0] == 200
            assert call(srv, "POST", f"/api/tournaments/{tid}/check-in", {}, t)[0] == 200
        # clear errors: registering twice, someone else starting, a guest entering
        st, out = call(srv, "POST", f"/api/tournaments/{tid}/register", {}, tokens[0])
        assert st == 409 and "registered already" in out["error"]
        st, out = call(srv, "POST", f"/api/tournaments/{tid}/start", {}, tokens[0])
        assert st == 403 and "organiser" in out["error"]
        _, guest = call(srv, "POST", "/api/guest", {"nickname": "路人"})
        st, out = call(srv, "POST", f"/api/tournaments/{tid}/register", {}, guest["token"])
        assert st == 403 and "account" in out["error"]
        # four players on protocol clients; player4 checked in but never comes (a no-show)
        players = [Player(srv, tid, t, leave_at=3 if i == 3 else 0) for i, t in enumerate(tokens[:4])]
        for p in players:
            p.start()
        st, out = call(srv, "POST", f"/api/tournaments/{tid}/start", {}, org)
        assert st == 200 and out == {"ok": True, "entrants": 16, "bots": 11}, out
        st, out = call(srv, "POST", f"/api/tournaments/{tid}/register", {}, org)
        assert st == 409 and "registration is closed" in out["error"]

        # kill -9 in round 2, with its tables in play
        d = wait_for(srv, tid, lambda d: d["current_round"] == 2 and any(
            t["hands_played"] >= 1 and t["status"] == "playing" for t in d["rounds"][1]["tables"]), 120)
        r2_matches = [t["match_id"] for t in d["rounds"][1]["tables"]]
        for r in d["rounds"][:2]:  # every table of rounds 1 and 2 opened by every step
            for t in r["tables"]:
                if t["match_id"] is not None:
                    assert_table_open(db_path, t["room"], match_id=t["match_id"])
        srv.kill()
        srv.start()
        d = wait_for(srv, tid, lambda d: d["status"] == "finished", 180)
        # tables in play at the kill resumed their matches (not new ones); tables the kill
        # caught before they opened were opened after the restart
        after = [t["match_id"] for t in d["rounds"][1]["tables"]]
        assert all(a == b for a, b in zip(after, r2_matches, strict=True) if b is not None), (after, r2_matches)
        assert all(after)
        for p in players:
            p.stop.set()
        assert all(p.actions > 0 for p in players), [(p.actions, p.rooms, p.errors[:5]) for p in players]
        assert any(p.errors for p in players)  # they were cut off by the kill and came back
        assert not any("join " in e for p in players for e in p.errors)  # only open tables offered

        rounds = d["rounds"]
        assert [r["number"] for r in rounds] == [1, 2, 3]
        assert all(len(r["tables"]) == 4 and r["status"] == "finished" for r in rounds)
        # standings equal the sum of the table results (the matches' own final scores)
        total: dict[int, float] = {}
        for r in rounds:
            for t in r["tables"]:
                scores = match_scores(db_path, t["match_id"])
                assert abs(sum(scores)) < 1e-6  # zero-sum at every table
                for seat in t["seats"]:
                    assert seat["score"] == pytest.approx(scores[seat["seat"]])
                    total[seat["entrant_id"]] = total.get(seat["entrant_id"], 0.0) + scores[seat["seat"]]
        final = d["final"]
        assert len(final) == 16 and [r["rank"] for r in final] == list(range(1, 17))
        for row in final:
            assert row["points"] == pytest.approx(total[row["entrant_id"]], abs=1e-3)  # 4 places
        assert [r["points"] for r in final] == sorted((r["points"] for r in final), reverse=True)
        # Swiss: no four together twice; round 2 seated by the standings after round 1
        seatings = [[[s["entrant_id"] for s in t["seats"]] for t in r["tables"]] for r in rounds]
        assert repeated(seatings) == 0
        # round 2 is the Swiss seating of the standings after round 1 (points, best hand,
        # head-to-head, entry), with the round-1 foursomes excluded
        r1 = [{"round": 1, "table": t, "entrant_id": e, "score": sc, "best_hand": b}
              for t, e, sc, b in query(db_path, "SELECT \"table\", entrant_id, score, best_hand FROM "
                                                "tournament_results WHERE tournament_id = :t AND round = 1",
                                       t=tid)]
        assert len(r1) == 16
        order = [r["entrant_id"] for r in rank(d["entrant_list"], r1)]
        want = swiss_tables(order, [frozenset(t) for t in seatings[0]])
        assert {frozenset(t) for t in want} == {frozenset(t) for t in seatings[1]}
        assert set(want[0]) == {s["entrant_id"] for s in rounds[1]["tables"][0]["seats"]}  # leaders: table 1
        # the no-show was played by 托管 and charged the escape penalty in every round
        absent = next(r for r in final if r["nickname"] == "player4")
        assert absent["escapes"] == 3
        present = [r for r in final if r["nickname"] in names[:4]]
        (tmp_path / "players.txt").write_text(repr(([(r["nickname"], r["escapes"]) for r in present],
            [(p.rooms, p.errors[:2], p.trace) for p in players],
            [[(t["room"], [s["nickname"] for s in t["seats"]]) for t in r["tables"]] for r in rounds])))
        assert players[3].left  # player3 left its round-3 table: an escape, charged like a no-show
        assert [r["escapes"] for r in present if r["nickname"] == "player3"] == [1]
        assert all(r["escapes"] == 0 for r in present if r["nickname"] != "player3"), (
            [(r["nickname"], r["escapes"]) for r in present],
            [(p.rooms, p.errors[:6]) for p in players],
            [[(t["room"], [s["nickname"] for s in t["seats"]]) for t in r["tables"]] for r in rounds])
        # every round's deals check out against the commitments published before play
        st, ver = call(srv, "GET", f"/api/tournaments/{tid}/verify")
        assert st == 200 and ver["ok"], ver
        assert all(r["revealed"] and r["hands_checked"] == 8 for r in ver["rounds"])
    finally:
        for p in players:
            p.stop.set()
        for p in players:
            p.join(10)
        srv.stop()
    assert "Traceback" not in srv.log.read_text(), srv.log.read_text()[-3000:]


def test_swiss_tournament_16_entrants_restart_in_round_2(db_url: str, tmp_path: Path) -> None:
    run_swiss(db_url, tmp_path)


def test_duplicate_tournament_tables_share_every_wall(tmp_path: Path) -> None:
    db_path = str(tmp_path / "d.db")
    srv = LiveServer(db_path, tmp_path, **CFG).start()
    try:
        org = account(srv, "director")
        me = account(srv, "solo")
        st, out = call(srv, "POST", "/api/tournaments", {
            "name": "复式赛", "rounds": 2, "hands_per_round": 3, "seats": 16, "bots_fill": True,
            "duplicate": True, "continue_seconds": 0, "bot_delay": 0, "no_show_seconds": 0}, org)
        assert st == 200, out
        tid = out["id"]
        assert call(srv, "POST", f"/api/tournaments/{tid}/register", {}, me)[0] == 200
        assert call(srv, "POST", f"/api/tournaments/{tid}/check-in", {}, me)[0] == 200
        assert call(srv, "POST", f"/api/tournaments/{tid}/start", {}, org)[0] == 200
        # the commitments are published before play; the seeds are not
        _, d0 = call(srv, "GET", f"/api/tournaments/{tid}")
        r1 = d0["rounds"][0]
        assert len({tuple(t["commitments"]) for t in r1["tables"]}) == 1
        assert all(t["seed"] is None and len(t["commitments"]) == 3 for t in r1["tables"])
        # while the round is played, no table's replay is served: it would show the walls
        # the other tables are still to draw
        d1 = wait_for(srv, tid, lambda d: all(t.get("match_id") for t in d["rounds"][0]["tables"]), 60)
        if d1["rounds"][0]["status"] != "finished":
            for t in d1["rounds"][0]["tables"]:
                st, body = srv.get(f"/api/matches/{t['match_id']}/replay")
                assert st in (403, 200), (st, body)
                if st == 200:  # the round ended between the two reads
                    assert wait_for(srv, tid, lambda d: d["rounds"][0]["status"] == "finished", 30)
                else:
                    assert "round is over" in body["error"] and body["code"] == "replay_withheld", body
        d = wait_for(srv, tid, lambda d: d["status"] == "finished", 150)
        for r in d["rounds"]:
            for t in r["tables"]:
                assert srv.get(f"/api/matches/{t['match_id']}/replay")[0] == 200  # the round is over
        for r in d["rounds"]:
            published = r["tables"][0]["commitments"]
            seed = r["tables"][0]["seed"]
            assert all(t["commitments"] == published and t["seed"] == seed for t in r["tables"])
            # the revealed seed derives the published commitments (anyone can redo this)
            assert hand_commitments(bytes.fromhex(seed), 3) == published
            for t in r["tables"]:
                hands = hand_rows(db_path, t["match_id"])
                assert [h[0] for h in hands] == [1, 2, 3]
                # each table really dealt the committed walls
                assert [h[2] for h in hands] == published
                # each seat's hand of a deal is compared across the field by its position
                # relative to the dealer; deal n is dealt by seat n-1 at every table, whoever
                # won before (no 连庄 in a duplicate round: one wall, one dealer per deal)
                assert [h[1] for h in hands] == [0, 1, 2]
                for _n, dealer, _c, _s in hands:
                    assert sorted(position(s, dealer) for s in range(4)) == [0, 1, 2, 3]
        # the comparison deal by deal: every table's result for each hand of the wall, against
        # the field's average of the same hand of the same deal
        for r in d["rounds"]:
            assert [dl["hand"] for dl in r["deals"]] == [1, 2, 3]
            for dl in r["deals"]:
                assert len(dl["tables"]) == 4 and abs(sum(dl["par"])) < 1e-3
                for pos in range(4):
                    cells = [tab["positions"][pos] for tab in dl["tables"]]
                    assert all((c["seat"] - tab["dealer"]) % 4 == pos
                               for c, tab in zip(cells, dl["tables"], strict=True))
                    assert abs(sum(c["diff"] for c in cells)) < 1e-2
        # the seat rotation of round 2 (Swiss, by the standings after round 1): table k seats
        # its leader at seat k-1, so the tables' leaders hold different hands of each deal
        final = d["final"]
        r1 = {row["entrant_id"]: row["dup_rounds"][0] for row in final}
        for t in d["rounds"][1]["tables"]:
            pts = [r1[s["entrant_id"]] for s in sorted(t["seats"], key=lambda s: s["seat"])]
            assert pts[t["number"] - 1] == max(pts), (t["number"], pts)  # the leader (ties: one of them)
        # duplicate points: the field's comparison, zero-sum
        assert abs(sum(r["dup_points"] for r in final)) < 1e-2  # (rounded to 4 places)
        assert [r["dup_points"] for r in final] == sorted((r["dup_points"] for r in final), reverse=True)
        st, ver = call(srv, "GET", f"/api/tournaments/{tid}/verify")
        assert st == 200 and ver["ok"] and ver["duplicate"]
        assert all(r["same_walls"] for r in ver["rounds"])
        # the solo entrant never came: escaped (no_show_seconds 0) in both rounds
        solo = next(r for r in final if r["nickname"] == "solo")
        assert solo["escapes"] == 2
    finally:
        srv.stop()
    assert "Traceback" not in srv.log.read_text(), srv.log.read_text()[-3000:]


def test_a_duplicate_rounds_tables_are_not_watched_while_it_plays(tmp_path: Path) -> None:
    """Every table of a duplicate round plays the same walls: watching one that finished a hand
    showed that hand's seed and every hand while the other tables still played it (a security
    audit read the whole wall of a live table so). While the round plays, nobody but a table's
    own players joins it; its players come back to their seats. One entrant never comes and
    never lapses into 托管 (grace 300 s), so its table, and the round, stay in play."""
    srv = LiveServer(str(tmp_path / "w.db"), tmp_path, **{**CFG, "disconnect_grace": 300.0}).start()
    try:
        org = account(srv, "watchdir")
        absent = account(srv, "absent1")
        st, out = call(srv, "POST", "/api/tournaments", {
            "name": "复式观战", "rounds": 1, "hands_per_round": 2, "seats": 8, "bots_fill": True,
            "duplicate": True, "continue_seconds": 0, "bot_delay": 0, "no_show_seconds": 300,
            "turn_seconds": 300}, org)
        assert st == 200, out
        tid = out["id"]
        assert call(srv, "POST", f"/api/tournaments/{tid}/register", {}, absent)[0] == 200
        assert call(srv, "POST", f"/api/tournaments/{tid}/check-in", {}, absent)[0] == 200
        assert call(srv, "POST", f"/api/tournaments/{tid}/start", {}, org)[0] == 200
        # the bots' table plays its two hands (its first hand's wall then told to a watcher)
        d = wait_for(srv, tid, lambda d: any(t["status"] == "finished" for t in d["rounds"][0]["tables"]), 120)
        assert d["rounds"][0]["status"] != "finished"  # the absent entrant's table still plays
        watcher = Client(srv.port, "路人")
        for t in d["rounds"][0]["tables"]:
            watcher.send({"type": "join", "room": t["room"], "spectate": True})
            got = watcher.until(lambda m: m["type"] in ("error", "joined"), 20)
            # (the finished table too: it would show every wall of the round)
            assert got["type"] == "error" and got["code"] == "watch_withheld", (t, got)
            assert "round is over" in got["message"], got
        watcher.close()
        # the entrant comes back to its own seat at its table
        mine = call(srv, "GET", f"/api/tournaments/{tid}", token=absent)[1]["me"]["table"]
        assert mine is not None
        back = Client(srv.port, token=absent)
        back.send({"type": "join", "room": mine["room"]})
        got = back.until(lambda m: m["type"] in ("error", "joined"), 20)
        assert got["type"] == "joined" and got["seat"] == mine["seat"], got
        back.close()
    finally:
        srv.stop()
    assert "Traceback" not in srv.log.read_text(), srv.log.read_text()[-3000:]
