"""Friends, presence and invites over a live server with real WebSocket clients: requests,
accept / decline / remove, who is online and in which room, an invite pushed to the
invitee's connection and listed by the API, accepting it and joining; the errors (self,
duplicate, unknown, guest, not friends, not in a room, expired) and the limits."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from laizi.server.social.friends import FRIEND_REQUESTS_PER_HOUR, INVITES_PER_MINUTE
from support.socialkit import call, guest, register
from support.srvhelpers import Client, LiveServer


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LAIZI_MAX_FRIENDS", "2")
    monkeypatch.setenv("LAIZI_INVITE_TTL", "2")
    s = LiveServer(str(tmp_path / "live.db"), tmp_path, bot_delay=0.0).start()
    yield s
    s.stop()


def srv_headers(srv: LiveServer, token: str) -> dict[str, str]:
    """The headers of one more (refused) invite."""
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(srv.url + "/api/invites", data=json.dumps({"player": "amei"}).encode(),
                                 method="POST", headers={"Content-Type": "application/json",
                                                         "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as exc:
        assert exc.code == 429
        return {k.lower(): v for k, v in exc.headers.items()}


def names(listing: dict, key: str = "friends") -> set[str]:  # type: ignore[type-arg]
    return {f["username"] for f in listing[key]}


@pytest.mark.slow
def test_friends_presence_invites(srv: LiveServer) -> None:
    ta, pa = register(srv, "amei")
    tb, pb = register(srv, "bobo")
    tc, pc = register(srv, "cici")
    td, _ = register(srv, "dada")
    tg, pg = guest(srv)

    # errors first
    assert call(srv, "POST", "/api/friends/request", ta, {"player": "amei"})[0] == 400   # self
    assert call(srv, "POST", "/api/friends/request", ta, {"player": pa})[0] == 400       # self by id
    st, out = call(srv, "POST", "/api/friends/request", ta, {"player": "nobody-here"})
    assert st == 404 and "no registered player" in out["error"]
    assert call(srv, "POST", "/api/friends/request", ta, {"player": pg})[0] == 404       # a guest
    assert call(srv, "POST", "/api/friends/request", tg, {"player": "amei"})[0] == 403   # as a guest
    assert call(srv, "POST", "/api/friends/request", ta, {"player": 5})[0] == 400
    assert call(srv, "POST", "/api/friends/request", None, {"player": "bobo"})[0] == 401

    # a request, pushed to b's open connection; a duplicate is refused
    cb = Client(srv.port, token=tb)
    st, out = call(srv, "POST", "/api/friends/request", ta, {"player": "BOBO"})  # any case
    assert st == 200 and out["status"] == "pending" and out["player_id"] == pb
    push = cb.until("friends")
    assert push["event"] == "request" and push["from"]["player_id"] == pa
    st, out = call(srv, "POST", "/api/friends/request", ta, {"player": "bobo"})
    assert st == 409 and "already sent" in out["error"]
    st, lb = call(srv, "GET", "/api/friends", tb)
    assert names(lb, "incoming") == {"amei"} and lb["friends"] == []
    st, la = call(srv, "GET", "/api/friends", ta)
    assert names(la, "outgoing") == {"bobo"}
    # decline, then a new request accepted
    assert call(srv, "POST", "/api/friends/decline", tb, {"player": "amei"})[0] == 200
    assert call(srv, "POST", "/api/friends/decline", tb, {"player": "amei"})[0] == 404
    assert call(srv, "GET", "/api/friends", ta)[1]["outgoing"] == []
    assert call(srv, "POST", "/api/friends/request", ta, {"player": "bobo"})[0] == 200
    st, out = call(srv, "POST", "/api/friends/accept", tb, {"player": pa})  # by player id
    assert st == 200 and out["status"] == "accepted"
    assert call(srv, "POST", "/api/friends/request", tb, {"player": "amei"})[1]["error"] == "already friends"
    # c asks a, a asks c: that accepts c's request
    assert call(srv, "POST", "/api/friends/request", tc, {"player": "amei"})[0] == 200
    st, out = call(srv, "POST", "/api/friends/request", ta, {"player": "cici"})
    assert st == 200 and out["status"] == "accepted"
    # a has 2 friends = LAIZI_MAX_FRIENDS: full
    st, out = call(srv, "POST", "/api/friends/request", td, {"player": "amei"})
    assert st == 409 and "full" in out["error"]

    # presence: b is online (lobby), c is offline; then b is in a room
    st, la = call(srv, "GET", "/api/friends", ta)
    by = {f["username"]: f for f in la["friends"]}
    assert by["bobo"]["online"] and by["bobo"]["room"] is None
    assert not by["cici"]["online"]
    code = cb.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
    by = {f["username"]: f for f in call(srv, "GET", "/api/friends", ta)[1]["friends"]}
    assert by["bobo"]["room"] == code and by["bobo"]["status"] == "lobby"

    # invites: b (in room) invites a; a's lobby connection gets it; a accepts and joins
    st, out = call(srv, "POST", "/api/invites", tb, {"player": "dada"})
    assert st == 403 and "only invite friends" in out["error"]
    st, out = call(srv, "POST", "/api/invites", ta, {"player": "bobo"})  # a is in no room
    assert st == 409 and "room" in out["error"]
    assert call(srv, "POST", "/api/invites", tb, {"player": "bobo"})[0] == 400  # self
    # a room b is not in: the same answer whether it exists or not (no oracle for codes)
    st, out = call(srv, "POST", "/api/invites", tb, {"player": "amei", "room": "ZZZZZ"})
    assert st == 409 and "not in that room" in out["error"]
    ca = Client(srv.port, token=ta)
    st, out = call(srv, "POST", "/api/invites", tb, {"player": "amei"})
    assert st == 200 and out["delivered"] and out["invite"]["room"] == code
    inv = ca.until("invite")["invite"]
    assert inv["room"] == code and inv["from"]["player_id"] == pb
    st, listed = call(srv, "GET", "/api/invites", ta)
    assert [i["id"] for i in listed["invites"]] == [inv["id"]]
    assert call(srv, "POST", f"/api/invites/{inv['id']}/accept", tc)[0] == 404  # not c's
    st, out = call(srv, "POST", f"/api/invites/{inv['id']}/accept", ta)
    assert st == 200 and out["room"] == code
    assert cb.until("invite_reply")["accepted"] is True
    assert call(srv, "POST", f"/api/invites/{inv['id']}/accept", ta)[0] == 409   # answered
    joined = ca.request({"type": "join", "room": out["room"]}, "joined")
    assert joined["type"] == "joined" and joined["room"]["code"] == code
    # an invite expires (LAIZI_INVITE_TTL=2 here)
    cc = Client(srv.port, token=tc)
    cc.request({"type": "join", "room": code}, "joined")
    st, out = call(srv, "POST", "/api/invites", tc, {"player": "amei"})
    assert st == 200
    time.sleep(2.2)
    assert call(srv, "GET", "/api/invites", ta)[1]["invites"] == []
    st, out = call(srv, "POST", f"/api/invites/{out['invite']['id']}/accept", ta)
    assert st == 410 and "expired" in out["error"]
    assert call(srv, "POST", "/api/invites/abc/accept", ta)[0] == 400

    # invites per minute (c has sent 1)
    for i in range(INVITES_PER_MINUTE - 1):
        assert call(srv, "POST", "/api/invites", tc, {"player": "amei"})[0] == 200, i
    st, out = call(srv, "POST", "/api/invites", tc, {"player": "amei"})
    assert st == 429 and "per minute" in out["error"]
    assert 1 <= int(srv_headers(srv, tc)["retry-after"]) <= 60

    # remove: both sides lose the friendship; removing again is 404
    assert call(srv, "POST", "/api/friends/remove", tb, {"player": "amei"})[0] == 200
    assert names(call(srv, "GET", "/api/friends", ta)[1]) == {"cici"}
    assert names(call(srv, "GET", "/api/friends", tb)[1]) == set()
    assert call(srv, "POST", "/api/friends/remove", tb, {"player": "amei"})[0] == 404
    st, out = call(srv, "POST", "/api/invites", tb, {"player": "amei"})
    assert st == 403  # not friends any more: no invite

    # friend requests per hour: every attempt counts, found or not (d has made 1)
    for i in range(FRIEND_REQUESTS_PER_HOUR - 1):
        assert call(srv, "POST", "/api/friends/request", td, {"player": f"ghost{i}"})[0] == 404
    st, out = call(srv, "POST", "/api/friends/request", td, {"player": "bobo"})
    assert st == 429 and "per hour" in out["error"]
    for c in (ca, cb, cc):
        c.close()
