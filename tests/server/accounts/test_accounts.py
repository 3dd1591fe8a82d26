"""Accounts over a real ``laizi serve``: register, log in, log out (here and everywhere), change
the password, a guest who registers keeps its id, sessions survive a restart and end when
revoked or expired, brute force is limited, passwords never leave the server."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from laizi.server.accounts.accounts import (
    LOGINS_PER_USERNAME,
    PASSWORD_MAX,
    PASSWORD_MIN,
    check_password,
    clean_username,
)
from laizi.server.accounts.auth import GuestAuth, session_hash
from support.srvhelpers import Client, LiveServer

PW = "green tea 42"


def call(srv: LiveServer, path: str, body: Any = None, token: str | None = None,
         ) -> tuple[int, dict[str, str], Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(srv.url + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), json.loads(exc.read() or b"null")


@pytest.fixture
def srv(tmp_path: Path) -> Any:
    s = LiveServer(str(tmp_path / "acc.db"), tmp_path).start()
    try:
        yield s
    finally:
        s.stop()


def test_register_login_logout_and_password(srv: LiveServer) -> None:
    st, _, reg = call(srv, "/api/account/register", {"username": "Mei", "password": PW,
                                                     "nickname": "美美"})
    assert st == 200, reg
    assert reg["username"] == "Mei" and reg["nickname"] == "美美" and not reg["converted"]
    assert 0 < reg["expires_in"] <= 14 * 24 * 3600
    pid, tok1 = reg["player_id"], reg["token"]
    assert PW not in json.dumps(reg)
    # the token plays: a WebSocket hello with it is this player
    c = Client(srv.port, token=tok1)
    assert c.pid == pid
    c.close()
    # duplicate usernames (case and width do not matter)
    for name in ("mei", "ＭＥＩ"):
        st, _, err = call(srv, "/api/account/register", {"username": name, "password": PW})
        assert st == 409 and "taken" in err["error"]
    # wrong password, unknown user: the same answer
    st, _, e1 = call(srv, "/api/account/login", {"username": "mei", "password": "wrong one!"})
    st2, _, e2 = call(srv, "/api/account/login", {"username": "nobody", "password": "wrong one!"})
    assert st == st2 == 401 and e1["error"] == e2["error"] == "wrong username or password"
    st, _, log2 = call(srv, "/api/account/login", {"username": "MEI", "password": PW})
    assert st == 200 and log2["player_id"] == pid
    tok2 = log2["token"]
    st, _, me = call(srv, "/api/account/me", token=tok2)
    assert st == 200 and me["registered"] and me["username"] == "Mei" and me["sessions"] == 2
    # log out ends that session only
    assert call(srv, "/api/account/logout", {"token": tok1})[0] == 200
    assert call(srv, "/api/account/me", token=tok1)[0] == 401
    assert call(srv, "/api/account/me", token=tok2)[0] == 200
    c = Client(srv.port, token=tok1)
    assert c.pid != pid  # an ended session's token no longer names the player
    c.close()
    # change the password: wrong current one refused; other sessions end; this one goes on
    st, _, log3 = call(srv, "/api/account/login", {"username": "mei", "password": PW})
    tok3 = log3["token"]
    st, _, err = call(srv, "/api/account/password", {"token": tok2, "old_password": "nope nope",
                                                     "new_password": "black tea 43"})
    assert st == 403 and "current password" in err["error"]
    st, _, err = call(srv, "/api/account/password", {"token": tok2, "old_password": PW,
                                                     "new_password": "short"})
    assert st == 400 and f"at least {PASSWORD_MIN}" in err["error"]
    st, _, ch = call(srv, "/api/account/password", {"token": tok2, "old_password": PW,
                                                    "new_password": "black tea 43"})
    assert st == 200 and ch["sessions_ended"] == 1
    assert call(srv, "/api/account/me", token=tok3)[0] == 401
    assert call(srv, "/api/account/me", token=ch["token"])[0] == 200
    assert call(srv, "/api/account/login", {"username": "mei", "password": PW})[0] == 401
    st, _, log4 = call(srv, "/api/account/login", {"username": "mei", "password": "black tea 43"})
    assert st == 200
    # log out everywhere
    st, _, out = call(srv, "/api/account/logout-all", {"token": log4["token"]})
    assert st == 200 and out["sessions_ended"] == 2
    for t in (ch["token"], log4["token"]):
        assert call(srv, "/api/account/me", token=t)[0] == 401
    log = srv.log.read_text()
    assert PW not in log and "black tea 43" not in log and "Traceback" not in log


def test_guest_converts_and_keeps_its_id(srv: LiveServer) -> None:
    c = Client(srv.port, "小明")
    gpid, gtok = c.pid, c.token
    c.close()
    st, _, reg = call(srv, "/api/account/register", {"username": "xiaoming", "password": PW,
                                                     "token": gtok})
    assert st == 200 and reg["player_id"] == gpid and reg["converted"] and reg["nickname"] == "小明"
    # registering the same player twice
    st, _, err = call(srv, "/api/account/register", {"username": "xm2", "password": PW,
                                                     "token": reg["token"]})
    assert st == 409 and "registered already" in err["error"]
    # the old guest token no longer names the (now protected) player
    st, guest = srv.post("/api/guest", {"token": gtok})
    assert st == 200 and guest["player_id"] != gpid
    # a forged/unknown guest token is a clear error
    st, _, err = call(srv, "/api/account/register", {"username": "xm3", "password": PW,
                                                     "token": "garbage"})
    assert st == 401 and "guest token" in err["error"]
    # guests still play without registering
    g = Client(srv.port, "路人")
    assert g.pid.startswith("p_")
    st, prof = srv.get(f"/api/players/{gpid}")
    assert st == 200 and prof["username"] == "xiaoming" and prof["registered"]
    st, gp = srv.get(f"/api/players/{g.pid}")
    assert st == 200 and not gp["registered"]
    g.close()


@pytest.mark.parametrize(("username", "password", "msg"), [
    ("ab", PW, "3 to 20 characters"),
    ("a" * 21, PW, "3 to 20 characters"),
    ("bad name", PW, "letters, digits"),
    ("<script>", PW, "letters, digits"),
    ("okname", "1234567", f"at least {PASSWORD_MIN}"),
    ("okname", "x" * (PASSWORD_MAX + 1), f"at most {PASSWORD_MAX}"),
    ("okname", "aaaaaaaaaa", "repeated"),
    ("okname", "Password123", "common"),
    ("okname99", "OKNAME99", "the username"),
    ("okname", 12345678, "must be text"),
    (None, PW, "must be text"),
])
def test_bad_input_is_a_clear_error(username: Any, password: Any, msg: str) -> None:
    with pytest.raises(Exception) as info:
        name, _ = clean_username(username)
        check_password(password, name)
    assert msg in str(info.value)


def test_bad_requests_over_http(srv: LiveServer) -> None:
    for body in ([1, 2], "x", {"username": "ab", "password": PW},
                 {"username": "okname", "password": "x" * (PASSWORD_MAX + 1)}):
        st, _, err = call(srv, "/api/account/register", body)
        assert st == 400 and err["error"]
    st, _, err = call(srv, "/api/account/login", {"username": "u", "password": None})
    assert st == 400
    assert call(srv, "/api/account/me")[0] == 401
    assert call(srv, "/api/account/logout", {"token": "forged"})[0] == 401
    # a guest token is not a login session
    c = Client(srv.port, "g")
    assert call(srv, "/api/account/logout", {"token": c.token})[0] == 401
    c.close()
    assert "Traceback" not in srv.log.read_text()


def test_sessions_survive_a_restart_and_revocations_too(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "r.db"), tmp_path).start()
    try:
        _, _, reg = call(srv, "/api/account/register", {"username": "Lan", "password": PW})
        _, _, other = call(srv, "/api/account/login", {"username": "lan", "password": PW})
        assert call(srv, "/api/account/logout", {"token": other["token"]})[0] == 200
    finally:
        srv.stop()
    srv = LiveServer(str(tmp_path / "r.db"), tmp_path).start()
    try:
        st, _, me = call(srv, "/api/account/me", token=reg["token"])
        assert st == 200 and me["player_id"] == reg["player_id"]
        assert call(srv, "/api/account/me", token=other["token"])[0] == 401
        assert call(srv, "/api/account/login", {"username": "LAN", "password": PW})[0] == 200
    finally:
        srv.stop()


def test_sessions_expire() -> None:
    auth = GuestAuth("k" * 32)
    auth.accounts.add("p_1")
    sid, _ = auth.open_session("p_1", ttl=1.0)  # (0.3 s: a busy machine could outlast it before the checks)
    tok = auth.issue("p_1", sid)
    assert auth.check(tok) == "p_1" and auth.session_of(tok) == sid
    assert auth.check(auth.issue("p_1")) is None  # no session: not a registered player's token
    time.sleep(1.1)
    assert auth.check(tok) is None
    assert auth.check(auth.reissue(tok, "p_1")) is None


def test_which_refused_tokens_are_worth_a_database_read() -> None:
    """``GuestAuth.stale``: a cluster node reads the database once for a token it refuses
    only for what it knows of sessions and generations (a login or rotation elsewhere, a
    moment ago), never for a forged, malformed or foreign one (no read an attacker can force
    with junk)."""
    auth = GuestAuth("k" * 32)
    elsewhere = GuestAuth("k" * 32)  # another node: same secret, its own memory
    auth.accounts.add("p_1")
    sid, _ = elsewhere.open_session("p_1")
    tok = elsewhere.issue("p_1", sid)
    assert auth.check(tok) is None and auth.stale(tok)  # a session this node has not heard of
    auth.load_sessions([(session_hash(sid), "p_1", time.time() + 60)])
    assert auth.check(tok) == "p_1" and not auth.stale(tok)  # known: nothing to read
    newer, _gen = elsewhere.rotate("p_2")
    assert auth.check(newer) is None and auth.stale(newer)  # a generation raised elsewhere
    assert not auth.stale(tok[:-3] + "abc")  # forged
    assert not auth.stale(GuestAuth("x" * 32).issue("p_3"))  # another server's secret
    for junk in (None, "", 42, "a.b.c", "x" * 5000):
        assert not auth.stale(junk)


def test_brute_force_is_limited(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "b.db"), tmp_path, rate_limited=True).start()
    try:
        assert call(srv, "/api/account/register", {"username": "Tao", "password": PW})[0] == 200
        for _ in range(LOGINS_PER_USERNAME.count):
            assert call(srv, "/api/account/login", {"username": "tao", "password": "guess 1234"})[0] == 401
        st, headers, err = call(srv, "/api/account/login", {"username": "tao", "password": PW})
        assert st == 429 and "too many" in err["error"]
        retry = int({k.lower(): v for k, v in headers.items()}["retry-after"])
        assert 1 <= retry <= LOGINS_PER_USERNAME.window
        # another username from the same address is still fine (the per-address limit is higher)
        assert call(srv, "/api/account/register", {"username": "Tao2", "password": PW})[0] == 200
        assert call(srv, "/api/account/login", {"username": "tao2", "password": PW})[0] == 200
    finally:
        srv.stop()


def test_expired_sessions_are_forgotten() -> None:
    from laizi.server.accounts import auth as auth_mod

    a = GuestAuth("k" * 32)
    old = auth_mod.SESSION_SWEEP_AT
    a._sweep_at = 5
    try:
        for i in range(5):
            a.open_session(f"p_{i}", ttl=-1)  # already over
        sid, _ = a.open_session("p_live")
        assert a.sessions_of("p_live") == 1 and len(a._sessions) == 1
    finally:
        auth_mod.SESSION_SWEEP_AT = old
