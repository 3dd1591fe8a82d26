"""What a room tells about itself (``joined``/``room`` messages, ``GET /api/rooms/{code}``):
its code, status, host, settings, rules, seats (who, connected, 托管), match and 场次 — from a
room in memory (:func:`live_info`) or only in the database (:func:`stored_info`)."""

from __future__ import annotations

import functools
from typing import Any

from laizi.rulecatalog import rule_card
from laizi.rules import RuleSet
from laizi.server.common.config import room_rules
from laizi.server.common.protocol import RoomSettings
from laizi.server.persistence.store import RoomRecord

__all__ = ["card", "live_info", "stored_info"]


def card(rules: RuleSet) -> dict[str, str]:
    """The rule card (规则卡) of a room in both languages (shown before 准备, in the share text)."""
    return {"zh": rule_card(rules, "zh"), "en": rule_card(rules, "en")}


@functools.lru_cache(maxsize=512)
def _rules_parts(rules: RuleSet) -> tuple[dict[str, Any], dict[str, str]]:
    """A rule set's JSON and its card, once per rule set (a room's info is built at every
    join, leave, sit and 准备: a reconnect storm of 4,000 clients built both 8,000 times,
    ``benchmarks/bench_conn_storm.py``). Shared values: nobody changes them (the info is
    serialised as it is sent: ``roomwire``)."""
    return rules.model_dump(mode="json"), card(rules)


def live_info(room: Any) -> dict[str, Any]:
    """The info of a :class:`laizi.server.tables.room.Room` in memory."""
    connected = {c.player_id for c in room.conns if not c.closed}
    rules_json, rule_card_both = _rules_parts(room.rules)
    seats = []
    for i, s in enumerate(room.seats):
        d = s.to_json()
        d["seat"] = i
        d["connected"] = s.player_id in connected if s.player_id else False
        d["auto"] = bool(room.game and room.game.match.auto[i])
        d["tier"] = room.tiers.get(s.player_id) if s.player_id else None  # 段位 on the plate
        seats.append(d)
    return {
        "code": room.code, "status": room.status, "owner": room.owner_id, "host": room.owner_id,
        "private": room.settings.private,
        # A fixed deal (a seed chosen by the creator) is announced to everyone and cannot
        # be hidden: whoever knows the seed knows every wall and hand.
        "settings": room.settings.model_dump(), "fixed_deal": room.settings.seed,
        "rules": rules_json, "rule_card": rule_card_both,
        "seats": seats, "match_id": room.match_id, "coin": room.coin,  # polish: 场次 or None
        # watchers: players here without a seat (a seated player in the lobby has no c.seat yet)
        "spectators": len({c.player_id or f"c{c.id}" for c in room.conns
                           if not c.closed and room.seat_of(c.player_id) is None}),
    }


def stored_info(rec: RoomRecord) -> dict[str, Any]:
    """Room info of a room that is only in the database (a finished one)."""
    settings = RoomSettings(**rec.settings)
    rules = room_rules(settings)
    seats = [{**d, "seat": i, "connected": False, "auto": False} for i, d in enumerate(rec.seats)]
    return {"code": rec.code, "status": rec.status, "owner": rec.owner_id, "host": rec.owner_id,
            "private": settings.private, "settings": settings.model_dump(),
            "fixed_deal": settings.seed, "rules": rules.model_dump(mode="json"),
            "rule_card": card(rules), "seats": seats, "match_id": rec.match_id, "spectators": 0}
