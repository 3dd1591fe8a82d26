"""A room's seats: who sits where (:class:`Seat`), the bot that plays a seat (:class:`SeatBot`),
and hints computed from a seat's own view."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from laizi.bots import BOT_NAMES, SeatView, make_bot
from laizi.game import Action
from laizi.game.play import auto_action
from laizi.hints import hints_for
from laizi.server.common.protocol import BOT_LEVELS
from laizi.server.tables.engine import GameSession

__all__ = ["AUTO_BOT", "Seat", "SeatBot", "bot_levels", "hints_for_view"]

log = logging.getLogger("laizi.server")

AUTO_BOT = "greedy"  # plays a 托管 or escaped seat


def bot_levels() -> list[str]:
    """The bot levels a room offers: the registry's that the protocol lists (BOT_LEVELS);
    ``expert`` is offered with its default (no search: p99 ~13 ms per decision)."""
    return [b for b in BOT_NAMES if b in BOT_LEVELS]


@dataclass
class Seat:
    player_id: str | None = None
    nickname: str = ""
    bot: str | None = None        # a bot sits here (level)
    escaped: bool = False         # the player left for good: its bot plays
    disconnected_at: float | None = None
    ready: bool = False           # 准备 pressed for the next match (a bot is always ready)
    continued: str | None = None  # polish: 继续 pressed after hand "match:hand" (laizi.server.tables.flow.vote_key)
    rematch: int | None = None    # 再来一局 accepted after match (its id): survives a restart
    dissolve: int | None = None   # 解散 agreed during match (its id): survives a restart

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"player_id": self.player_id, "nickname": self.nickname, "bot": self.bot,
                             "escaped": self.escaped, "ready": self.is_ready}
        if self.continued:  # polish: stored with the room, so the vote survives a restart
            d["continued"] = self.continued
        if self.rematch is not None:
            d["rematch"] = self.rematch
        if self.dissolve is not None:
            d["dissolve"] = self.dissolve
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        continued = d.get("continued")
        rematch, dissolve = d.get("rematch"), d.get("dissolve")
        return cls(player_id=d.get("player_id"), nickname=d.get("nickname", ""),
                   bot=d.get("bot"), escaped=bool(d.get("escaped")), ready=bool(d.get("ready")),
                   continued=continued if isinstance(continued, str) else None,
                   rematch=rematch if isinstance(rematch, int) and not isinstance(rematch, bool) else None,
                   dissolve=dissolve if isinstance(dissolve, int) and not isinstance(dissolve, bool) else None)

    @property
    def is_ready(self) -> bool:
        return self.bot is not None or (self.player_id is not None and self.ready)

    @property
    def human(self) -> bool:
        """A player (not a bot) still sitting here."""
        return self.player_id is not None and self.bot is None and not self.escaped

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None


class SeatBot:
    """The bot of one seat (``laizi.bots.make_bot``). A bot that fails or picks an illegal
    action is replaced for that move by the engine's auto-play: a bot bug never stops a table."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self._bot = make_bot(level, seed)

    def choose(self, game: GameSession, seat: int) -> Action:
        hand = game.match.hand
        assert hand is not None
        legal = hand.legal_actions(seat)
        try:
            a: Action = self._bot.act(SeatView.from_state(hand, seat, legal))
            if a in legal:
                return a
            log.warning("bot %s chose an illegal action %s", self.level, a)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.exception("bot %s failed; using auto_action", self.level)
        return auto_action(hand, seat)


def hints_for_view(view: SeatView | None) -> list[dict[str, Any]] | None:
    """Hints for a seat, computed from that seat's own snapshot only (``laizi.hints``);
    None without a snapshot or when the hint engine fails (hints are advice, never a
    reason to stop a table)."""
    if view is None:
        return None
    try:
        return hints_for(view)
    except Exception:  # noqa: BLE001 - hints are optional
        log.exception("hints failed")
        return None
