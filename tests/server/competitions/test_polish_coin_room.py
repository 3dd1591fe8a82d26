"""The room info of a quick-match table names its 场次 (``coin``: level, label, stake) — in
``GET /api/rooms/{code}`` and in the ``joined`` message a player gets —, and keeps it after a
kill -9 and a restart on the same database; other rooms have ``coin: null``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer

CFG: dict[str, Any] = {"bot_delay": 0.5, "hand_pause": 0.0, "disconnect_grace": 30}
JUNIOR = {"level": "junior", "label": "初级场", "stake": 10}


@pytest.mark.slow
def test_coin_table_room_info_survives_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_QUICK_WAIT", "0.3")
    url = str(tmp_path / "live.db")
    srv = LiveServer(url, tmp_path, **CFG).start()
    try:
        tok, _ = register(srv, "coinroom")
        call(srv, "GET", "/api/coins", tok)  # the welcome grant: enough for 初级场
        c = Client(srv.port, token=tok)
        assert call(srv, "POST", "/api/quick", tok, {"level": "junior"})[0] == 200
        code = c.until("quick_match", 10)["room"]
        c.send({"type": "join", "room": code})
        joined = c.until("joined", 10)
        assert joined["room"]["coin"] == JUNIOR
        assert srv.get(f"/api/rooms/{code}", tok)[1]["coin"] == JUNIOR
        # an ordinary room is no coin table
        c.send({"type": "leave"})
        c.send({"type": "create", "settings": {}})
        own = c.until("joined", 10)["room"]
        assert own["coin"] is None
        c.close()
        srv.kill()
        srv = LiveServer(url, tmp_path, port=srv.port, **CFG).start()
        st, info = srv.get(f"/api/rooms/{code}", tok)
        assert st == 200 and info["status"] == "playing"
        assert info["coin"] == JUNIOR
        assert srv.get(f"/api/rooms/{own['code']}")[1]["coin"] is None
    finally:
        srv.stop()
