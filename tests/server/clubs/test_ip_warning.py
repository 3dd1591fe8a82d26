"""The same-network warning (issue 26): the comparison of addresses (the same address, an
IPv4 /24, an IPv6 /64, an IPv4-mapped IPv6 address; a proxy's address or no address is
unknown, never compared), then over a live server: two players on one address at a table
that asks for the warning — the host's start is refused once (``same_network``; everyone
is told which seats, never the addresses), ``confirm`` starts it; a club that requires the
warning gives its tables the setting; behind a proxy (``LAIZI_PROXY_ADDRS``) the seats are
unknown and the table starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laizi.server.guard.netcheck import SUBNET_V4, SUBNET_V6, network_pairs
from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer


def test_pairs() -> None:
    assert SUBNET_V4 == 24 and SUBNET_V6 == 64
    pairs, unknown = network_pairs({0: ["203.0.113.5"], 1: ["203.0.113.5"], 2: ["203.0.113.77"],
                                    3: ["198.51.100.5"]})
    assert pairs == [{"seats": [0, 1], "same": "address"}, {"seats": [0, 2], "same": "network"},
                     {"seats": [1, 2], "same": "network"}] and unknown == []
    assert network_pairs({0: ["203.0.113.5"], 1: ["203.0.114.5"]}) == ([], [])  # another /24
    v6 = network_pairs({0: ["2001:db8:1:2::1"], 1: ["2001:db8:1:2:ffff::9"], 2: ["2001:db8:1:3::1"]})
    assert v6 == ([{"seats": [0, 1], "same": "network"}], [])
    mapped = network_pairs({0: ["::ffff:192.0.2.1"], 1: ["192.0.2.1"]})
    assert mapped == ([{"seats": [0, 1], "same": "address"}], [])
    # a player with two connections: any of them counts
    assert network_pairs({0: ["192.0.2.1", "198.51.100.1"], 1: ["198.51.100.1"]})[0] == [
        {"seats": [0, 1], "same": "address"}]
    # unknown: the proxy's own address, no connection, not an address
    assert network_pairs({0: ["10.0.0.1"], 1: ["10.0.0.1"], 2: [], 3: ["testclient"]},
                         frozenset({"10.0.0.1"})) == ([], [0, 1, 2, 3])


def _table(srv: LiveServer, settings: dict[str, object]) -> tuple[Client, Client]:
    a, b = Client(srv.port, "甲"), Client(srv.port, "乙")
    a.send({"type": "create", "settings": settings})
    code = a.until("joined")["room"]["code"]
    b.request({"type": "join", "room": code}, "joined")
    for i, c in enumerate((a, b)):
        c.send({"type": "sit", "seat": i})
        c.until(lambda m, i=i, c=c: m["type"] == "room" and m["room"]["seats"][i]["player_id"] == c.pid)
    for s in (2, 3):
        a.send({"type": "bot", "seat": s, "level": "random"})
        a.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"])
    b.send({"type": "ready"})
    a.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])
    return a, b


@pytest.mark.slow
def test_warning_then_confirm(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "ipw.db"), tmp_path, bot_delay=0.0).start()
    try:
        a, b = _table(srv, {"ip_warning": True})
        err = a.request({"type": "start"}, "never")
        assert err["type"] == "error" and err["code"] == "same_network", err
        assert "0 and 1 (address)" in err["message"] and "start again" in err["message"]
        warn = b.until("same_network")
        assert warn == {"type": "same_network", "pairs": [{"seats": [0, 1], "same": "address"}],
                        "unknown": []}
        assert "127.0.0.1" not in json.dumps(warn)  # seats, never addresses
        a.send({"type": "start", "confirm": True})
        b.until("snapshot")
        a.close()
        b.close()
        a, b = _table(srv, {})  # not asked for: no warning
        a.send({"type": "start"})
        b.until("snapshot")
        a.close()
        b.close()
        # a club that requires it: its tables carry the setting
        ta, _ = register(srv, "amei")
        club = call(srv, "POST", "/api/clubs", ta, {"name": "同网", "ip_warning": "yes"})
        assert club[0] == 400 and "true or false" in club[1]["error"]
        club = call(srv, "POST", "/api/clubs", ta, {"name": "同网", "ip_warning": True})[1]
        assert club["ip_warning"] is True
        tpl = call(srv, "POST", f"/api/clubs/{club['id']}/templates", ta,
                   {"name": "一圈", "settings": {"preset": "kaikoufan"}})[1]
        code = call(srv, "POST", f"/api/clubs/{club['id']}/tables", ta, {"template": tpl["id"], "fill": False})[1]["code"]
        c = Client(srv.port, token=ta)
        assert c.request({"type": "join", "room": code}, "joined")["room"]["settings"]["ip_warning"] is True
        c.close()
        off = call(srv, "POST", f"/api/clubs/{club['id']}", ta, {"ip_warning": False})[1]
        assert off["ip_warning"] is False
    finally:
        srv.stop()


@pytest.mark.slow
def test_behind_a_proxy_the_seats_are_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_PROXY_ADDRS", "127.0.0.1")
    srv = LiveServer(str(tmp_path / "ipw2.db"), tmp_path, bot_delay=0.0).start()
    try:
        a, b = _table(srv, {"ip_warning": True})
        a.send({"type": "start"})
        b.until("snapshot")
        assert not [m for m in a.frames + b.frames if m["type"] in ("same_network", "error")]
        a.close()
        b.close()
    finally:
        srv.stop()
