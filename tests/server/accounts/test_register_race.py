"""One guest registering eight times at once (eight names, one guest token): exactly one
registration wins and its token works; the others are told the player is registered already
(issue: the winner got a dead token, the rest "username taken"). Real ``laizi serve``,
concurrent HTTP."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from support.socialkit import call, guest
from support.srvhelpers import LiveServer

pytestmark = pytest.mark.timeout(120)


def test_eight_concurrent_registrations_of_one_guest(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "r.db"), tmp_path).start()
    try:
        tok, pid = guest(srv, "八次")
        out: list[tuple[int, Any]] = []
        go = threading.Barrier(8)

        def reg(i: int) -> None:
            go.wait()
            out.append(srv.post("/api/account/register", {"username": f"racer{i}",
                                                          "password": "tile-wall-42", "token": tok}))

        ts = [threading.Thread(target=reg, args=(i,)) for i in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(60)
        won = [b for st, b in out if st == 200]
        lost = [b for st, b in out if st != 200]
        assert len(out) == 8 and len(won) == 1, out
        assert won[0]["player_id"] == pid and won[0]["converted"]
        assert all(st == 409 for st, _ in out if st != 200), out
        assert all("registered already" in b["error"] for b in lost), lost
        st, me = call(srv, "GET", "/api/account/me", won[0]["token"])
        assert st == 200 and me["player_id"] == pid, (st, me)  # the winner's token works
    finally:
        srv.stop()
