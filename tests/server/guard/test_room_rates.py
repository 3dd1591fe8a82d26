"""Finding 14: floods. New guests, new rooms and joins are rate-limited per client address
and per identity (named constants in :mod:`laizi.server.guard.limits`), with clear error codes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from laizi.server.guard import limits
from support.srvhelpers import Client, LiveServer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(str(tmp_path / "rates.db"), tmp_path, rate_limited=True, max_connections=500,
                     hello_timeout=30.0).start()
    yield srv
    srv.stop()


def test_room_creation_is_limited_per_player_and_per_address(server: LiveServer) -> None:
    per_player, per_ip = limits.ROOMS_PER_PLAYER.count, limits.ROOMS_PER_IP.count
    assert per_player < per_ip
    makers = [Client(server.port, f"m{i}") for i in range(per_ip // per_player + 1)]
    try:
        made = 0
        for c in makers[:-1]:
            for _ in range(per_player):
                assert c.request({"type": "create", "settings": {}}, "joined")["type"] == "joined"
                made += 1
            err = c.request({"type": "create", "settings": {}}, "joined")
            assert err["type"] == "error" and err["code"] == "too_many_rooms", err
            assert "wait" in err["message"]
            if made < per_ip:
                assert "per player" in err["message"]
        assert made == per_ip
        err = makers[-1].request({"type": "create", "settings": {}}, "joined")
        assert err["code"] == "too_many_rooms" and "address" in err["message"]
    finally:
        for c in makers:
            c.close()


def test_join_guessing_is_limited(server: LiveServer) -> None:
    per_player, per_ip = limits.JOINS_PER_PLAYER.count, limits.JOINS_PER_IP.count
    guessers = [Client(server.port, f"g{i}") for i in range(per_ip // per_player + 1)]
    try:
        tried = 0
        for c in guessers[:-1]:
            codes = [c.request({"type": "join", "room": f"Z{n:04d}"}, "joined")["code"]
                     for n in range(per_player + 1)]
            assert codes[:-1] == ["unknown_room"] * per_player and codes[-1] == "too_many_joins"
            tried += per_player
        assert tried == per_ip
        err = guessers[-1].request({"type": "join", "room": "ZZZZZ"}, "joined")
        assert err["code"] == "too_many_joins" and "address" in err["message"]
    finally:
        for c in guessers:
            c.close()


def test_new_guests_are_limited_per_address(server: LiveServer) -> None:
    opened = []
    try:
        first = Client(server.port, "first")
        opened.append(first)
        for i in range(limits.GUESTS_PER_IP.count - 1):
            opened.append(Client(server.port, f"n{i}"))
        extra = Client(server.port, hello=False)
        opened.append(extra)
        err = extra.hello("one too many")
        assert err["type"] == "error" and err["code"] == "too_many_guests"
        # A known player (a token) is not a new guest.
        back = Client(server.port, hello=False)
        opened.append(back)
        assert back.hello(token=first.token)["type"] == "welcome"
    finally:
        for c in opened:
            c.close()


def test_http_guests_share_the_address_limit(server: LiveServer) -> None:
    for i in range(limits.GUESTS_PER_IP.count):
        status, body = server.post("/api/guest", {"nickname": f"h{i}"})
        assert status == 200, body
    status, body = server.post("/api/guest", {"nickname": "one more"})
    assert status == 429 and body["code"] == "too_many_guests" and "wait" in body["error"]
    c = Client(server.port, hello=False)
    try:
        assert c.hello("ws too")["code"] == "too_many_guests"
    finally:
        c.close()
