"""Registrations racing across two real nodes (private PostgreSQL + Redis): one username
posted to both nodes at once is taken exactly once, the others told "taken" (a 409, never a
500 with an IntegrityError); eight registrations of one guest token on both nodes give one
account whose token works; and a guest who becomes an account on node A can no longer use
its guest token on node B from the moment A answered."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from laizi.server.tables.audit import check_url
from support.srvhelpers import http

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # argon2 under load (see _at_once)

PASSWORD = "hot dry noodles 9"


def _at_once(calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[int, Any]]:
    """POST every (url, body) at the same moment (one thread each, a barrier). Each
    registration hashes a password (argon2: memory-hard, by design slow): several at once on
    a loaded machine take far longer than one, hence the long wait for each answer."""
    out: list[tuple[int, Any]] = [(0, None)] * len(calls)
    go = threading.Barrier(len(calls))

    def one(i: int) -> None:
        go.wait()
        out[i] = http(calls[i][0], calls[i][1], timeout=150)

    ts = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(160)
    return out


def test_one_username_registered_on_two_nodes_at_once(make_nodes: Any, pg_url: str) -> None:
    na, nb = make_nodes(["na", "nb"])
    for k in range(4):  # a few rounds: the race is won by either node
        name = f"racer{k}"
        out = _at_once([(n.url + "/api/account/register", {"username": name, "password": PASSWORD})
                        for n in (na, nb, na, nb)])
        won = [b for st, b in out if st == 200]
        assert len(won) == 1, out
        lost = [(st, b) for st, b in out if st != 200]
        assert all(st == 409 and "taken" in b["error"] for st, b in lost), out
        for n in (na, nb):  # the winner's token works on both nodes
            st, me = http(n.url + "/api/account/me", token=won[0]["token"])
            assert st == 200 and me["player_id"] == won[0]["player_id"], (st, me)
    for n in (na, nb):
        assert "Traceback" not in n.log_text() and "IntegrityError" not in n.log_text()
    assert check_url(pg_url) == []


def test_one_guest_registering_eight_times_on_two_nodes(make_nodes: Any, pg_url: str) -> None:
    na, nb = make_nodes(["na", "nb"])
    st, g = http(na.url + "/api/guest", {"nickname": "八次"})
    assert st == 200, g
    out = _at_once([((na, nb)[i % 2].url + "/api/account/register",
                     {"username": f"eight{i}", "password": PASSWORD, "token": g["token"]})
                    for i in range(8)])
    won = [b for st, b in out if st == 200]
    assert len(won) == 1 and won[0]["player_id"] == g["player_id"] and won[0]["converted"], out
    assert all(st == 409 for st, _ in out if st != 200), out
    for n in (na, nb):
        st, me = http(n.url + "/api/account/me", token=won[0]["token"])
        assert st == 200 and me["player_id"] == g["player_id"] and me["registered"], (st, me)
        assert "Traceback" not in n.log_text()
    assert check_url(pg_url) == []


def test_an_upgraded_guests_token_is_refused_on_the_other_node_at_once(make_nodes: Any) -> None:
    na, nb = make_nodes(["na", "nb"])
    for k in range(5):
        st, g = http(na.url + "/api/guest", {"nickname": f"游客{k}"})
        assert st == 200, g
        st, me = http(nb.url + "/api/account/me", token=g["token"])
        assert st == 200 and not me["registered"], (st, me)  # the guest, known on node B
        st, reg = http(na.url + "/api/account/register",
                       {"username": f"upgraded{k}", "password": PASSWORD, "token": g["token"]})
        assert st == 200 and reg["converted"], reg
        # the moment node A answered, node B refuses the guest token (no window)
        seen = [http(nb.url + "/api/account/me", token=g["token"])[0] for _ in range(5)]
        assert seen == [401] * 5, (k, seen)
        st, me = http(nb.url + "/api/account/me", token=reg["token"])
        assert st == 200 and me["registered"], (st, me)


def _silent_session(pg_url: str, pid: str) -> str:
    """A token of a new session of ``pid`` that only the database knows: written straight to
    PostgreSQL and signed with the cluster's secret, as if the node that opened it had
    crashed before its announcement left (or the announcement was late)."""
    import secrets
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from laizi.server.accounts.auth import GuestAuth, session_hash
    from laizi.server.persistence import db

    engine = create_engine(pg_url)
    try:
        with Session(engine) as s:
            secret = s.get(db.Meta, "token_secret")
            assert secret is not None
            sid = secrets.token_urlsafe(18)
            s.add(db.SessionRow(id_hash=session_hash(sid), player_id=pid,
                                expires_at=datetime.now(UTC) + timedelta(days=1)))
            s.commit()
            return GuestAuth(secret.value).issue(pid, sid)
    finally:
        engine.dispose()


def test_a_session_node_b_was_never_told_of_works_there_at_once(make_nodes: Any,
                                                                 pg_url: str) -> None:
    """Node B honours a token of a session opened elsewhere before any announcement or
    periodic sync reached it, on every token-checked API (the account, the avatar, coins,
    token rotation, tournaments): an unknown but well-signed token makes B read the
    database once before it answers. (CI saw a fresh registration's token refused by the
    other node: the announcement was still on its way.) A forged token stays refused."""
    na, nb = make_nodes(["na", "nb"])
    st, reg = http(na.url + "/api/account/register", {"username": "silent1", "password": PASSWORD})
    assert st == 200, reg
    pid = reg["player_id"]
    st, out = http(nb.url + "/api/tournaments", {"name": "x"}, token=_silent_session(pg_url, pid))
    assert st == 200 and out["id"] == 1, (st, out)  # an account's: it may organise
    calls: list[tuple[str, Any]] = [("/api/account/me", None), ("/api/avatar", None),
                                    ("/api/coins", None), ("/api/tournaments/1", None),
                                    ("/api/token/rotate", "token")]  # (last: it ends gen 0)
    for path, body in calls:
        tok = _silent_session(pg_url, pid)
        st, out = http(nb.url + path, {"token": tok} if body else None, token=tok)
        if path.startswith("/api/tournaments/"):
            assert st == 200 and out["organiser_id"] == pid, (path, st, out)
        else:
            assert st == 200, (path, st, out)
            assert out.get("player_id") == pid, (path, out)
    forged = _silent_session(pg_url, pid)[:-3] + "abc"
    for path in ("/api/account/me", "/api/avatar", "/api/coins"):
        assert http(nb.url + path, token=forged)[0] == 401, path
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
