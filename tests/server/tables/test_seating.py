"""Seat these players and start has one home (laizi.server.tables.seating): the callers only
say who sits (:class:`Seating`), the room and the hub take the steps. Outside ``tables/`` no
module starts a match or writes a room's seats itself (the way the last two cluster bugs came
in: a caller's own copy of the start that missed the lease); the hub's ``open_table`` gives a
refused coin seat to a bot, gives the table up when nobody is left to play, and leaves the
refusal to a caller that names no answer."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

import laizi.server
from laizi.server.common.config import ServerConfig
from laizi.server.common.protocol import RoomSettings
from laizi.server.ledger import coins
from laizi.server.tables.hub import Hub
from laizi.server.tables.seating import Seating, bot_seat, player_seat
from laizi.server.tables.seats import AUTO_BOT, Seat
from support.tableopen import assert_table_open
from support.tournkit import query

PKG = Path(laizi.server.__file__).parent
ROOM_STATE = {"seats", "status", "game", "match_id", "coin", "started_by", "owner_id"}
STARTS = {"Room", "seat_and_start", "_start_match"}


def _roomish(x: ast.expr) -> bool:
    return ((isinstance(x, ast.Name) and "room" in x.id.lower())
            or (isinstance(x, ast.Attribute) and "room" in x.attr.lower()))


def starts_outside_tables(source: str) -> list[str]:
    """What a module outside ``tables/`` does that only the room and the hub may: build a
    room, start its match, or write its seats, status, match or 场次."""
    out = []
    for n in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, ast.AugAssign | ast.AnnAssign):
            targets = [n.target]
        for tg in targets:
            x = tg
            while isinstance(x, ast.Subscript):
                x = x.value
            if isinstance(x, ast.Attribute) and x.attr in ROOM_STATE and _roomish(x.value):
                out.append(f"{n.lineno}: {ast.unparse(tg)} =")
        if isinstance(n, ast.Call):
            fn = n.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if name in STARTS:
                out.append(f"{n.lineno}: {ast.unparse(fn)}(…)")
    return out


@pytest.mark.parametrize("path", sorted(str(f.relative_to(PKG)) for f in PKG.rglob("*.py")
                                        if f.relative_to(PKG).parts[0] != "tables"))
def test_no_table_is_started_outside_the_tables(path: str) -> None:
    assert starts_outside_tables((PKG / path).read_text()) == []


def test_the_check_catches_a_caller_that_starts_a_table_itself() -> None:
    src = ("async def open(hub, seats):\n"
           "    room = await hub.open_room(settings)\n"
           "    room.seats[0] = seats[0]\n"
           "    room.coin = info\n"
           "    await room.seat_and_start(Seating(seats))\n")
    assert starts_outside_tables(src) == ["3: room.seats[0] =", "4: room.coin =",
                                          "5: room.seat_and_start(…)"]


def test_a_seating_names_four_seats_fills_the_empty_ones_and_replaces_the_refused() -> None:
    with pytest.raises(ValueError, match="four seats"):
        Seating((Seat(),) * 3)
    host = player_seat("p1", "甲")
    now = [host, Seat(), bot_seat("random"), Seat()]
    assert Seating(fill="greedy").seated(now) == [host, bot_seat("greedy"), bot_seat("random"),
                                                  bot_seat("greedy")]
    assert bot_seat("greedy").nickname == "bot·greedy" and bot_seat("greedy", "").nickname == ""
    assert Seating().seated(now) == now and Seating().seated(now) is not now
    start = Seating((host, player_seat("p2", "乙"), bot_seat("random"), Seat()),
                    deal_seed=b"s", absent_wait=True)
    after = start.instead(["p2"], bot_seat(AUTO_BOT, ""))
    assert after.seats is not None and after.seats[1] == Seat(bot=AUTO_BOT, nickname="")
    assert after.seats[0] is host and (after.deal_seed, after.absent_wait) == (b"s", True)
    assert after.players() == ["p1"] and start.players() == ["p1", "p2"]


def test_open_table_answers_a_refused_coin_seat(tmp_path: Path) -> None:
    url = str(tmp_path / "seating.db")
    settings = RoomSettings.model_validate({"rounds": 1, "private": True, "rated": True})

    def seats(*pids: str) -> tuple[Seat, ...]:
        return tuple(player_seat(p, p) if p else bot_seat(AUTO_BOT, "") for p in pids)

    async def run() -> None:
        hub = Hub(ServerConfig(db_url=url, bot_delay=60.0))  # the bots wait: nothing moves
        await hub.start()
        try:
            with hub.store.engine.begin() as conn:
                coins.grant_welcome(conn, "p_rich")  # 5000 coins; p_poor has none
            asked: list[list[str]] = []

            def to_a_bot(seating: Seating, exc: coins.CoinError) -> Seating | None:
                asked.append(exc.refused)
                left = [p for p in seating.players() if p not in exc.refused]
                return seating.instead(exc.refused, bot_seat(AUTO_BOT, "")) if left else None

            room = await hub.open_table(settings, Seating(seats("p_rich", "p_poor", "", "")),
                                        coin_level="junior", refused=to_a_bot)
            assert room is not None and asked == [["p_poor"]]
            assert room.seat_of("p_poor") is None and room.seat_of("p_rich") is not None
            assert room.coin == coins.table_info("junior")
            assert_table_open(url, room.code, coin_players=["p_rich"])
            assert query(url, "SELECT level, stake FROM coin_tables WHERE room_code = :c",
                         c=room.code) == [("junior", 10)]
            # nobody left to play: no table of bots alone — the room is closed, no match
            before = set(hub.rooms)
            gone = await hub.open_table(settings, Seating(seats("p_poor", "", "", "")),
                                        coin_level="junior", refused=to_a_bot)
            assert gone is None and set(hub.rooms) == before and asked[-1] == ["p_poor"]
            closed = query(url, "SELECT status, match_id FROM rooms WHERE status = 'closed'")
            assert closed == [("closed", None)], closed
            # a caller that names no answer gets the refusal itself
            with pytest.raises(coins.CoinError) as err:
                await hub.open_table(settings, Seating(seats("p_poor", "", "", "")),
                                     coin_level="junior")
            assert err.value.refused == ["p_poor"]
        finally:
            await hub.stop()

    asyncio.run(run())
