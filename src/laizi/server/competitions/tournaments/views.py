"""A tournament as JSON (``GET /api/tournaments/{id}``): settings, entrants, rounds with
their tables, commitments (seeds once a round is over) and checks, standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from laizi.server.competitions.tournaments import records
from laizi.server.competitions.tournaments.director import settings_of, standings_of
from laizi.server.competitions.tournaments.duplicate import position, verify_round
from laizi.server.persistence.tournamentdb import TableRow

__all__ = ["detail", "verify"]


def _rounds(s: Session, tid: int, duplicate: bool, names: Mapping[int, dict[str, Any]],
            scores: Mapping[tuple[int, int], float]) -> list[dict[str, Any]]:
    tables = records.table_rows(s, tid)
    played = records.played_hands(s, [t.match_id for t in tables if t.match_id is not None])
    out = []
    for rnd in records.round_rows(s, tid):
        over = rnd.status == "finished"
        tabs = []
        checks = []
        for t in (t for t in tables if t.round == rnd.number):
            hands = played.get(t.match_id, []) if t.match_id is not None else []
            seats = []
            for seat, eid in enumerate(t.entrants):
                e = names.get(int(eid), {})
                seats.append({"seat": seat, "entrant_id": int(eid), "nickname": e.get("nickname"),
                              "player_id": e.get("player_id"), "bot": e.get("bot"),
                              "score": scores.get((rnd.number, int(eid)))})
            tabs.append({"number": t.number, "room": t.room_code, "status": t.status,
                         "match_id": t.match_id, "seats": seats,
                         "replay": f"/replay/{t.match_id}" if t.match_id else None,
                         "commitments": list(t.commitments), "seed": t.seed if over else None,
                         "hands_played": len(hands)})
            checks.append({"number": t.number, "commitments": list(t.commitments),
                           "played": hands, "seed": t.seed if over else None})
        item = {"number": rnd.number, "status": rnd.status, "tables": tabs,
                "verify": verify_round(checks, duplicate)}
        if duplicate:
            item["deals"] = deals([t for t in tables if t.round == rnd.number], names)
        out.append(item)
    return out


def deals(tables: list[TableRow], names: Mapping[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The duplicate comparison of a round, deal by deal: each finished table's result for
    each position of the wall (0: the dealer's hand, 1: 下家's, 2: 对家's, 3: 上家's), the
    field's average (``par``) and each result's difference from it."""
    rows: dict[int, list[tuple[int, int, list[Any], list[Any]]]] = {}
    for t in tables:
        for h in t.hands or []:
            rows.setdefault(int(h["hand"]), []).append((t.number, int(h["dealer"]), h["deltas"], t.entrants))
    out = []
    for hand in sorted(rows):
        by_pos: list[list[float]] = [[], [], [], []]
        for _n, dealer, deltas, _e in rows[hand]:
            for seat in range(4):
                by_pos[position(seat, dealer)].append(float(deltas[seat]))
        par = [sum(v) / len(v) for v in by_pos]
        tabs = []
        for number, dealer, deltas, ents in rows[hand]:
            cells: list[dict[str, Any]] = [{} for _ in range(4)]
            for seat in range(4):
                pos = position(seat, dealer)
                eid = int(ents[seat])
                cells[pos] = {"seat": seat, "entrant_id": eid,
                              "nickname": names.get(eid, {}).get("nickname"),
                              "delta": float(deltas[seat]), "diff": round(float(deltas[seat]) - par[pos], 4)}
            tabs.append({"number": number, "dealer": dealer, "positions": cells})
        out.append({"hand": hand, "par": [round(x, 4) for x in par], "tables": tabs})
    return out


def detail(s: Session, tid: int, players: Mapping[str, str], viewer: str | None) -> dict[str, Any] | None:
    t = records.tournament(s, tid)
    if t is None:
        return None
    st = settings_of(t)
    ents = records.entrants(s, tid)
    names = {e["id"]: e for e in ents}
    res = records.results(s, tid)
    scores = {(r["round"], r["entrant_id"]): r["score"] for r in res}
    out = records.tournament_json(t, sum(1 for e in ents if e["player_id"]),
                                  sum(1 for e in ents if not e["player_id"]))
    out["organiser"] = {"player_id": t.organiser_id, "nickname": players.get(t.organiser_id, "")}
    out["entrant_list"] = ents
    out["rounds"] = _rounds(s, tid, st.duplicate, names, scores)
    out["standings"] = standings_of(s, tid, st) if t.status != "registration" else []
    out["final"] = out["standings"] if t.status == "finished" else None
    me: dict[str, Any] | None = None
    if viewer is not None:
        mine = next((e for e in ents if e["player_id"] == viewer), None)
        me = {"player_id": viewer, "organiser": viewer == t.organiser_id,
              "registered": mine is not None, "checked_in": bool(mine and mine["checked_in"]),
              "table": None}
        if mine is not None and out["rounds"]:
            for tab in out["rounds"][-1]["tables"]:
                for seat in tab["seats"]:
                    if seat["entrant_id"] == mine["id"] and tab["status"] == "playing":  # its room is open
                        me["table"] = {"room": tab["room"], "seat": seat["seat"], "number": tab["number"]}
    out["me"] = me
    return out


def verify(s: Session, tid: int) -> dict[str, Any] | None:
    """Every round's check (``ok``, ``problems``, ``same_walls``, ``revealed``)."""
    t = records.tournament(s, tid)
    if t is None:
        return None
    st = settings_of(t)
    rounds = _rounds(s, tid, st.duplicate, {}, {})
    return {"id": tid, "duplicate": st.duplicate, "club": t.club_id,
            "ok": all(r["verify"]["ok"] for r in rounds),
            "rounds": [{"number": r["number"], "status": r["status"], **r["verify"],
                        "tables": [{"number": tab["number"], "commitments": tab["commitments"],
                                    "seed": tab["seed"], "match_id": tab["match_id"]}
                                   for tab in r["tables"]]} for r in rounds]}
