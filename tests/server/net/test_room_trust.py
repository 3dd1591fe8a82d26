"""Trust findings against a real ``laizi serve`` (uvicorn in a subprocess, real WebSockets):
fixed deals are announced, only the host runs the lobby, identities do not change
mid-session, schema bounds match protocol bounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import Client, LiveServer, seated_room

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


# ----------------------------------------------------------------- finding 5: the host
def lobby(port: int, clients: list[Client], n: int = 3, **settings: Any) -> tuple[list[Client], str]:
    """A lobby: its host (the creator) and ``n - 1`` others who joined."""
    cs = [Client(port, f"h{i}") for i in range(n)]
    clients += cs
    cs[0].send({"type": "create", "settings": settings})
    code = cs[0].until("joined")["room"]["code"]
    for c in cs[1:]:
        joined(c, code)
    return cs, code


def test_only_the_host_adds_bots_kicks_and_starts(server: LiveServer, clients: list[Client]) -> None:
    (host, guest, spec), code = lobby(server.port, clients)
    assert joined(Client(server.port, "peek"), code)["room"]["host"] == host.pid
    guest.send({"type": "sit", "seat": 1})  # sitting is everyone's right
    guest.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == guest.pid)
    for intruder in (guest, spec):
        for msg in ({"type": "bot", "seat": 2, "level": "random"}, {"type": "start"},
                    {"type": "kick", "player_id": host.pid},
                    {"type": "host", "player_id": intruder.pid}):
            err = intruder.request(msg, "never")
            assert err["type"] == "error" and err["code"] == "not_host", (msg, err)
    # The host fills the seats and starts.
    host.send({"type": "sit", "seat": 0})
    for s in (2, 3):
        host.send({"type": "bot", "seat": s, "level": "random"})
    host.until(lambda m: m["type"] == "room" and all(x["player_id"] or x["bot"] for x in m["room"]["seats"]))
    guest.send({"type": "ready"})  # 准备: the host starts once every seated player is ready
    host.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])
    host.send({"type": "start"})
    assert guest.until("snapshot")["seat"] == 1


def test_kicked_player_loses_the_seat_and_cannot_return(server: LiveServer,
                                                       clients: list[Client]) -> None:
    (host, pest), code = lobby(server.port, clients, 2)
    pest.send({"type": "sit", "seat": 2})
    host.until(lambda m: m["type"] == "room" and m["room"]["seats"][2]["player_id"] == pest.pid)
    host.send({"type": "kick", "player_id": pest.pid})
    assert pest.until("kicked")["room"] == code
    room = host.until(lambda m: m["type"] == "room" and m["room"]["seats"][2]["player_id"] is None)
    assert pest.pid not in {s["player_id"] for s in room["room"]["seats"]}
    err = pest.request({"type": "join", "room": code}, "joined")
    assert err["type"] == "error" and err["code"] == "kicked"
    again = Client(server.port, token=pest.token)  # a new socket is the same identity
    clients.append(again)
    assert again.request({"type": "join", "room": code}, "joined")["code"] == "kicked"


def test_host_role_passes_on_when_the_host_leaves_or_hands_it(server: LiveServer,
                                                             clients: list[Client]) -> None:
    (host, a, b), code = lobby(server.port, clients)
    b.send({"type": "sit", "seat": 3})
    b.until(lambda m: m["type"] == "room" and m["room"]["seats"][3]["player_id"] == b.pid)
    host.send({"type": "host", "player_id": a.pid})
    assert a.until(lambda m: m["type"] == "room" and m["room"]["host"] == a.pid)
    assert host.request({"type": "start"}, "never")["code"] == "not_host"
    a.send({"type": "leave"})
    a.until("left")
    # The seated player comes first.
    assert b.until(lambda m: m["type"] == "room" and m["room"]["host"] != a.pid)["room"]["host"] == b.pid
    b.close()  # the host's socket goes away: the role passes on again
    assert host.until(lambda m: m["type"] == "room" and m["room"]["host"] != b.pid)["room"]["host"] == host.pid
    assert server.get(f"/api/rooms/{code}")[1]["host"] == host.pid


def test_private_rooms_are_not_listed(server: LiveServer, clients: list[Client]) -> None:
    (host,), code = lobby(server.port, clients, 1, private=True)
    (host2,), public = lobby(server.port, clients, 1)
    listed = {r["code"] for r in server.get("/api/rooms")[1]["rooms"]}
    assert public in listed and code not in listed
    visitor = Client(server.port, "v")
    clients.append(visitor)
    assert joined(visitor, code)["room"]["private"] is True  # the code still lets you in


# ----------------------------------------------------------------- finding 13: identity, chat
def chat_until_limited(c: Client, n: int) -> list[str]:
    """Send ``n`` chat lines; the codes of the errors that came back."""
    codes = []
    for i in range(n):
        c.send({"type": "chat", "text": f"line {i}"})
        m = c.until(lambda m, i=i: m["type"] == "error" or (m["type"] == "chat" and m["text"] == f"line {i}"))
        if m["type"] == "error":
            codes.append(m["code"])
    return codes


def test_identity_cannot_change_mid_session(server: LiveServer, clients: list[Client]) -> None:
    (a, b), code = lobby(server.port, clients, 2)
    assert chat_until_limited(a, 5) == []
    for hello in ({"type": "hello", "proto": PROTOCOL, "nickname": "someone else"},
                  {"type": "hello", "proto": PROTOCOL, "token": b.token},
                  {"type": "hello", "proto": PROTOCOL}):
        err = a.request(hello, "welcome")
        assert err["type"] == "error" and err["code"] == "identity_locked", (hello, err)
    assert chat_until_limited(a, 1) == ["chat_rate"]  # the limit did not reset
    # Renaming oneself (own token) keeps the identity.
    w = a.request({"type": "hello", "proto": PROTOCOL, "token": a.token, "nickname": "a2", "rename": True}, "welcome")
    assert w["type"] == "welcome" and w["player_id"] == a.pid and w["nickname"] == "a2"


def test_chat_limit_follows_the_player_across_sockets_and_rooms(server: LiveServer,
                                                               clients: list[Client]) -> None:
    (a, _), code = lobby(server.port, clients, 2)
    (_, ), other = lobby(server.port, clients, 1)
    twin = Client(server.port, token=a.token)  # the same player on a second socket
    clients.append(twin)
    joined(twin, other)
    assert chat_until_limited(a, 3) == []
    assert chat_until_limited(twin, 3) == ["chat_rate"]  # 5 per player, whatever the room


def test_a_kick_survives_a_restart(tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("kick")
    srv = LiveServer(str(tmp / "kick.db"), tmp).start()
    opened: list[Client] = []
    try:
        (host, pest), code = lobby(srv.port, opened, 2)
        host.send({"type": "kick", "player_id": pest.pid})
        pest.until("kicked")
        srv.kill()
        srv.start()
        again = Client(srv.port, token=pest.token)
        opened.append(again)
        assert again.request({"type": "join", "room": code}, "joined")["code"] == "kicked"
        boss = Client(srv.port, token=host.token)
        opened.append(boss)
        assert joined(boss, code)["room"]["host"] == host.pid
    finally:
        for c in opened:
            c.close()
        srv.stop()
