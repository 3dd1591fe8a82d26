"""Trust findings against a real ``laizi serve`` (uvicorn in a subprocess, real WebSockets):
fixed deals are announced, only the host runs the lobby, identities do not change
mid-session, schema bounds match protocol bounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from srvhelpers import Client, LiveServer, seated_room

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("trust")
    srv = LiveServer(str(tmp / "trust.db"), tmp, bot_delay=0.0, hand_pause=0.0,
                     disconnect_grace=30.0).start()
    yield srv
    srv.stop()


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    opened: list[Client] = []
    yield opened
    for c in opened:
        c.close()


def joined(c: Client, code: str, **kw: Any) -> dict[str, Any]:
    return c.request({"type": "join", "room": code, **kw}, "joined")


# ----------------------------------------------------------------- finding 1: fixed deals
def test_fixed_deal_is_announced_to_every_seat_and_spectator(server: LiveServer,
                                                             clients: list[Client]) -> None:
    host = Client(server.port, "host")
    other = Client(server.port, "other")
    clients += [host, other]
    host.send({"type": "create", "settings": {"seed": "rigged", "max_hands": 1}})
    code = host.until("joined")["room"]["code"]
    info = joined(other, code)["room"]
    assert info["fixed_deal"] == "rigged" and info["settings"]["seed"] == "rigged"
    status, http_info = server.get(f"/api/rooms/{code}")
    assert status == 200 and http_info["fixed_deal"] == "rigged"
    for s in (1, 2, 3):
        host.send({"type": "bot", "seat": s, "level": "random"})
    host.send({"type": "sit", "seat": 0})
    host.send({"type": "start"})
    snap = host.until("snapshot")
    assert snap["fixed_deal"] == "rigged"
    other_snap = other.until("snapshot")
    assert other_snap["fixed_deal"] == "rigged"


def test_deals_without_a_fixed_seed_come_from_the_server(server: LiveServer,
                                                        clients: list[Client]) -> None:
    hands = []
    for _ in range(2):
        cs, code = seated_room(server.port, 1, max_hands=1, turn_seconds=600)
        clients.extend(cs)
        snap = cs[0].last
        assert snap is not None and "fixed_deal" not in snap
        assert server.get(f"/api/rooms/{code}")[1]["fixed_deal"] is None
        hands.append(snap["view"]["hand"])
    assert hands[0] != hands[1]
