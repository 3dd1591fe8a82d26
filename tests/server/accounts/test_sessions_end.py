"""Sessions end everywhere: a WebSocket opened with a token keeps working only while that
token would (issue: a thief's open socket kept acting as the victim after log-out-everywhere,
a password change or a guest's upgrade, and escaped the victim's coin table). Real ``laizi
serve``, real WebSockets: each of the three closes the other sockets within a moment
(measured from the HTTP answer), with a ``session_ended`` error; the socket of the session
that made the change stays open."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.socialkit import PASSWORD, call, guest
from support.srvhelpers import Client, LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

# The sweep looks every SESSION_SWEEP (0.25 s): about that, idle. 3 s, not 1.5 s: a busy CI
# machine may be a second late, and a socket left open until its next message or the token's
# expiry still fails by far (as test_cluster_accounts bounds the same on another node).
CLOSED_WITHIN = 3.0


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("sessions")
    s = LiveServer(str(tmp / "s.db"), tmp, bot_delay=0.0, hand_pause=0.0).start()
    yield s
    s.stop()


def login(srv: LiveServer, name: str, password: str = PASSWORD) -> str:
    st, out = srv.post("/api/account/login", {"username": name, "password": password})
    assert st == 200, out
    return str(out["token"])


def closed_within(c: Client, seconds: float) -> float:
    """Seconds until the server said ``session_ended`` and closed the socket."""
    t0 = time.monotonic()
    err = c.until(lambda m: m["type"] == "error" and m["code"] == "session_ended", 10)
    took = time.monotonic() - t0
    assert "sign in again" in err["message"]
    with pytest.raises(Exception):  # noqa: B017 - closed: nothing more comes, sending fails
        c.send({"type": "ping"})
        c.recv(5)
    assert took < seconds, took
    return took


def test_logout_everywhere_closes_every_other_socket(srv: LiveServer) -> None:
    st, out = srv.post("/api/account/register", {"username": "victim1", "password": PASSWORD})
    assert st == 200
    mine = out["token"]
    thief = login(srv, "victim1")
    c_thief = Client(srv.port, token=thief)
    assert c_thief.pid == out["player_id"]
    c_thief.send({"type": "create", "settings": {}})
    c_thief.until("joined")
    st, _ = call(srv, "POST", "/api/account/logout-all", mine)
    assert st == 200
    closed_within(c_thief, CLOSED_WITHIN)
    # the stolen token no longer opens anything
    again = Client(srv.port, hello=False)
    w = again.hello(token=thief)
    assert w.get("player_id") != out["player_id"]
    again.close()


def test_a_password_change_closes_the_other_sessions_sockets(srv: LiveServer) -> None:
    st, out = srv.post("/api/account/register", {"username": "victim2", "password": PASSWORD})
    mine = out["token"]
    c_mine = Client(srv.port, token=mine)
    c_thief = Client(srv.port, token=login(srv, "victim2"))
    st, res = call(srv, "POST", "/api/account/password", mine,
                   {"old_password": PASSWORD, "new_password": "a-new-wall-77"})
    assert st == 200, res
    closed_within(c_thief, CLOSED_WITHIN)
    # the session that changed it keeps its socket
    c_mine.send({"type": "create", "settings": {}})
    assert c_mine.until(lambda m: m["type"] in ("joined", "error"))["type"] == "joined"
    c_mine.close()


def test_a_guests_upgrade_closes_the_guest_tokens_sockets(srv: LiveServer) -> None:
    tok, pid = guest(srv, "将升级")
    c_old = Client(srv.port, token=tok)
    assert c_old.pid == pid
    st, out = srv.post("/api/account/register", {"username": "upgraded1", "password": PASSWORD,
                                                 "token": tok})
    assert st == 200 and out["player_id"] == pid, out
    closed_within(c_old, CLOSED_WITHIN)
    c_new = Client(srv.port, token=out["token"])  # the account's own token works
    assert c_new.pid == pid
    c_new.close()
