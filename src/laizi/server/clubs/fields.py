"""What the clubs read from a request — names and descriptions as plain text, flags, a bot
level, a rule template's room settings (checked by the protocol and the ``RuleSet``) — the
rule card of stored settings, the one refusal (:class:`ClubError`), and the membership
check a club table's door asks (:func:`club_member`; a club event's table: :func:`event_club`)."""

from __future__ import annotations

import os
import unicodedata
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.engine import Engine

from laizi.errors import LaiziError
from laizi.rulecatalog import Lang, rule_card, rule_card_items
from laizi.server.common import protocol as proto
from laizi.server.common.config import room_rules
from laizi.server.common.errors import ApiError
from laizi.server.persistence.clubdb import ClubMemberRow, ClubRow
from laizi.server.persistence.tournamentdb import TournamentRow

__all__ = ["MEMBER_ROLES", "ClubError", "bot_level", "card", "club_member", "env_int", "event_club", "flag", "template_settings",
           "text_field"]

MEMBER_ROLES = ("owner", "admin", "member")


class ClubError(ApiError):
    """A refused club request."""


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    try:
        return max(1, int(raw)) if raw else default
    except ValueError:
        return default


def text_field(raw: object, field: str, limit: int, *, required: bool) -> str:
    if raw is None and not required:
        return ""
    if not isinstance(raw, str):
        raise ClubError(f"{field} must be a string")
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw)
                   if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")).strip()
    if required and not text:
        raise ClubError(f"{field} is empty")
    if len(text) > limit:
        raise ClubError(f"{field} is longer than {limit} characters")
    return text


def flag(raw: object, field: str, default: bool) -> bool:
    if raw is None:
        return default
    if not isinstance(raw, bool):
        raise ClubError(f"{field} must be true or false")
    return raw


def bot_level(raw: object) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or raw not in proto.BOT_LEVELS:
        raise ClubError(f"bots must be null or a bot level ({', '.join(proto.BOT_LEVELS)})")
    return raw


def template_settings(raw: object) -> proto.RoomSettings:
    """A template's room settings (preset, options, rounds, hands, timers), checked by the
    protocol and the RuleSet: a club table is private, unrated, dealt from a fresh seed."""
    if not isinstance(raw, dict):
        raise ClubError("settings must be an object: {preset, options, rounds, max_hands, ...}")
    for key in ("seed", "private", "rated", "bots_fill", "club"):
        if key in raw:
            raise ClubError(f"a club template cannot set {key}")
    try:
        settings = proto.RoomSettings.model_validate({**raw, "private": True})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "settings"
        raise ClubError(f"settings.{where}: {err.get('msg', 'invalid')}") from None
    try:
        room_rules(settings)
    except LaiziError as exc:
        raise ClubError(f"settings: {exc}") from None
    return settings


def club_member(engine: Engine, cid: int, pid: str | None) -> bool:
    """Is ``pid`` an owner, admin or member of club ``cid`` (a club table's door: the hub)."""
    if pid is None:
        return False
    with engine.connect() as conn:
        return conn.execute(select(ClubMemberRow.id).where(
            ClubMemberRow.club_id == cid, ClubMemberRow.player_id == pid,
            ClubMemberRow.role.in_(MEMBER_ROLES))).first() is not None


def event_club(engine: Engine, tid: int) -> tuple[int, bool] | None:
    """The club of tournament ``tid`` and whether it is private; None: a public tournament
    (or no such tournament, or the club is gone)."""
    with engine.connect() as conn:
        row = conn.execute(select(ClubRow.id, ClubRow.private)
                           .join(TournamentRow, TournamentRow.club_id == ClubRow.id)
                           .where(TournamentRow.id == tid)).first()
    return None if row is None else (int(row[0]), bool(row[1]))


def card(settings: dict[str, Any], lang: str = "zh") -> dict[str, Any]:
    """The rule card of stored settings: its line (:func:`laizi.rulecatalog.rule_card`) and
    the options that differ from the preset (``rule_card_items``)."""
    rules = room_rules(proto.RoomSettings.model_validate(settings))
    which: Lang = "en" if lang == "en" else "zh"
    return {"text": rule_card(rules, which), "items": rule_card_items(rules, which)}
