"""Who sits at a match about to start, and how it starts (:class:`Seating`): the one value
every way of opening a match fills in — the host's start (a club's bots on the seats still
empty), 再来一局, a quick-match table, a tournament table, a club table its bots fill at
once. The caller says who sits and with what settings; the steps of the start are the
room's alone (:meth:`laizi.server.tables.room.Room.seat_and_start`: this node holds the room,
coin seats with the stake check, the match stored and shown, absent players' grace) and, for
a room the server opens itself, the hub's (:meth:`laizi.server.tables.hub.Hub.open_table`:
the room opened or claimed, a coin table recorded, the match started once under the room's
lock, a refused coin seat answered).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from laizi.server.tables.seats import Seat

__all__ = ["Seating", "bot_seat", "player_seat"]


def bot_seat(level: str, nickname: str | None = None) -> Seat:
    """A seat for a bot of ``level``, named ``bot·{level}`` unless ``nickname`` is given."""
    return Seat(bot=level, nickname=f"bot·{level}" if nickname is None else nickname)


def player_seat(player_id: str, nickname: str, *, ready: bool = False) -> Seat:
    """A seat for player ``player_id``."""
    return Seat(player_id=player_id, nickname=nickname, ready=ready)


@dataclass(frozen=True)
class Seating:
    """A match's start: ``seats`` the four seats (None: as they sit now), ``fill`` a bot
    level for the seats still empty (a club's bots), ``deal_seed`` the match's secret seed
    (a tournament table; else from the room's settings), ``fixed_dealers`` a duplicate
    round (no 连庄), ``started_by`` the address whose start it is (the cap on tables of four
    bots), ``absent_wait`` seated players not here yet get the disconnect grace (then 托管)."""

    seats: tuple[Seat, ...] | None = None
    fill: str | None = None
    deal_seed: bytes | None = None
    fixed_dealers: bool = False
    started_by: str | None = None
    absent_wait: bool = False

    def __post_init__(self) -> None:
        if self.seats is not None and len(self.seats) != 4:
            raise ValueError(f"a table has four seats, not {len(self.seats)}")

    def seated(self, now: Sequence[Seat]) -> list[Seat]:
        """The seats the match starts with (``now``: the room's seats as they are)."""
        out = list(self.seats if self.seats is not None else now)
        if self.fill is not None:
            out = [bot_seat(self.fill) if s.empty else s for s in out]
        return out

    def instead(self, refused: Collection[str], bot: Seat) -> Seating:
        """The same start with the players of ``refused`` replaced by copies of ``bot``."""
        assert self.seats is not None
        seats = tuple(Seat(bot=bot.bot, nickname=bot.nickname) if s.player_id in refused else s
                      for s in self.seats)
        return replace(self, seats=seats)

    def players(self) -> list[str]:
        """The players seated (in seat order)."""
        return [s.player_id for s in self.seats or () if s.player_id is not None]
