"""The public room list (GET /api/rooms, Hub.list_rooms): lobbies first, then by code, at most
ROOM_LIST_MAX rooms; a private room and a lobby nobody is in are left out; a room that joins
the first ROOM_LIST_MAX by its code shows at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from laizi.server.common.config import ServerConfig
from laizi.server.common.connection import Conn
from laizi.server.common.protocol import RoomSettings, RoomStatus
from laizi.server.tables.hub import ROOM_LIST_MAX, Hub
from laizi.server.tables.room import Room


def test_the_list_shows_the_first_rooms_lobbies_first(tmp_path: Path) -> None:
    async def run() -> None:
        hub = Hub(ServerConfig(db_url=f"sqlite:///{tmp_path / 'list.db'}"))
        await hub.start()
        try:
            await check(hub)
        finally:
            await hub.stop()

    async def check(hub: Hub) -> None:

        def room(code: str, status: RoomStatus, *, here: bool = True, private: bool = False) -> Room:
            r = Room(code, RoomSettings(private=private), None, **hub.room_kw())
            r.status = status
            if here:
                c = Conn(None)
                c.player_id = f"p{code}"
                r.conns.add(c)
            hub.rooms[code] = r
            return r

        for i in range(ROOM_LIST_MAX):  # more than the list holds: playing ones, then lobbies
            room(f"P{i:04d}", RoomStatus.PLAYING)
        for i in range(ROOM_LIST_MAX // 2):
            room(f"L{i:04d}", RoomStatus.LOBBY)
        room("A0000", RoomStatus.LOBBY, here=False)  # nobody in it
        room("A0001", RoomStatus.LOBBY, private=True)
        listed = hub.list_rooms()
        codes = [r["code"] for r in listed]
        assert len(codes) == ROOM_LIST_MAX
        assert codes == sorted(f"L{i:04d}" for i in range(ROOM_LIST_MAX // 2)) + \
            sorted(f"P{i:04d}" for i in range(ROOM_LIST_MAX // 2))
        assert listed[0]["status"] == "lobby" and listed[-1]["status"] == "playing"
        room("B0000", RoomStatus.LOBBY)  # a new lobby comes first, at once
        assert hub.list_rooms()[0]["code"] == "B0000" and len(hub.list_rooms()) == ROOM_LIST_MAX

    asyncio.run(run())
