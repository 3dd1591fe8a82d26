"""A tournament's settings, checked with pydantic (numbers with limits, clear messages)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from laizi.errors import LaiziError
from laizi.server.common.config import room_rules
from laizi.server.common.protocol import BOT_LEVELS, RoomSettings

__all__ = [
    "HANDS_MAX", "NAME_MAX", "NO_SHOW_MAX", "ROUNDS_MAX", "SEATS_MAX", "START_YEARS", "SettingsError",
    "TournamentSettings", "parse_settings",
]

NAME_MAX = 40
ROUNDS_MAX = 10       # rounds of a tournament
HANDS_MAX = 32        # hands per round (each table's match)
SEATS_MAX = 64        # entrants (16 tables)
NO_SHOW_MAX = 600.0   # seconds a table waits for an absent player before its escape
START_YEARS = (2000, 2999)  # a start_at's year (9999 with an offset overflowed in UTC)


class SettingsError(ValueError):
    pass


class TournamentSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1, max_length=NAME_MAX)
    preset: str = "kaikoufan"
    options: dict[str, Any] = Field(default_factory=dict)
    rounds: int = Field(3, ge=1, le=ROUNDS_MAX)
    hands_per_round: int = Field(4, ge=1, le=HANDS_MAX)
    seats: int = Field(16, ge=4, le=SEATS_MAX)
    bots_fill: bool = False       # empty seats at the start are filled with bots
    bot_level: str = "greedy"
    duplicate: bool = False       # every table of a round plays the same walls
    start_at: datetime | None = None
    turn_seconds: float = Field(20.0, ge=5.0, le=600.0)
    continue_seconds: float = Field(15.0, ge=0.0, le=300.0)
    bot_delay: float | None = Field(None, ge=0.0, le=10.0)
    no_show_seconds: float = Field(120.0, ge=0.0, le=NO_SHOW_MAX)
    club: int | None = Field(None, ge=1, le=2**31 - 1)  # a club's event: its members only

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v or any(ord(c) < 32 for c in v):
            raise ValueError("the name must be visible text")
        return v

    @field_validator("start_at")
    @classmethod
    def _start_at(cls, v: datetime | None) -> datetime | None:
        # (the last year with an offset to UTC past it: 500 from the database writer)
        if v is not None and not START_YEARS[0] <= v.year <= START_YEARS[1]:
            raise ValueError(f"start_at must be in the years {START_YEARS[0]}-{START_YEARS[1]}")
        return v

    @model_validator(mode="after")
    def _checks(self) -> TournamentSettings:
        if not self.bots_fill and self.seats % 4:
            raise ValueError("seats must be a multiple of 4 (tables of four), or allow bots to fill")
        for key in ("seating_ceremony", "winds"):  # the director seats and times every table
            if self.options.get(key):
                raise ValueError(f"rules: {key} is not for tournaments (the director seats the "
                                 "entrants and sets the hands per round)")
        if self.bot_level not in BOT_LEVELS:
            raise ValueError(f"bot_level must be one of {', '.join(BOT_LEVELS)}")
        try:
            room_rules(self.room_settings(0))
        except (LaiziError, ValidationError, ValueError) as exc:
            raise ValueError(f"rules: {str(exc).splitlines()[0][:200]}") from None
        return self

    @property
    def tables_max(self) -> int:
        return (self.seats + 3) // 4

    def room_settings(self, table: int) -> RoomSettings:
        """The settings of a table's room (private: reached from the tournament page). Its
        match ends at ``hands_per_round`` hands; its rounds (圈) are the fewest that hold them
        (a 圈 is 4 hands at least), so that its rule card does not say 16 圈 for one hand."""
        return RoomSettings.model_validate({
            "preset": self.preset, "options": self.options,
            "rounds": max(1, -(-self.hands_per_round // 4)),
            "max_hands": self.hands_per_round, "turn_seconds": self.turn_seconds,
            "continue_seconds": self.continue_seconds, "bot_delay": self.bot_delay,
            "private": True, "rated": False})


def parse_settings(data: Any) -> TournamentSettings:
    """Settings from JSON; a :class:`SettingsError` naming the field and its limit."""
    if not isinstance(data, dict):
        raise SettingsError("settings: expected a JSON object")
    try:
        return TournamentSettings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "settings"
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise SettingsError(f"{loc}: {msg}"[:240]) from None
