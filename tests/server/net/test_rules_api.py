"""GET /api/rules serves the rule catalogue; a room's info carries its rule card; a bad rule
option is refused with an error that names the option (a real ``laizi serve`` subprocess,
real WebSockets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from websockets.sync.client import connect  # noqa: E402

from laizi.rulecatalog import catalogue  # noqa: E402
from laizi.rules import RuleSet  # noqa: E402
from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import live_server  # noqa: E402


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg.get("type") == kind:
            return msg


def test_api_rules_and_the_room_card(tmp_path: Path) -> None:
    with live_server(tmp_path) as srv:
        status, headers, body = srv.json("GET", "/api/rules")
        assert status == 200 and headers["content-type"].startswith("application/json")
        assert {k: body[k] for k in ("presets", "groups", "options", "templates")} == json.loads(json.dumps(catalogue()))
        assert {o["name"] for o in body["options"]} == set(RuleSet.model_fields)
        assert body["room_fields"] == ["rounds", "claim_seconds"]
        with connect(srv.ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "规则"}))
            _until(ws, "welcome")
            ws.send(json.dumps({"type": "create", "settings": {"preset": "kaikoufan", "options": {"min_points": -4}}}))
            err = _until(ws, "error")
            assert err["code"] == "bad_settings" and err["option"] == "min_points", err
            ws.send(json.dumps({"type": "create", "settings": {"preset": "kaikoufan", "options": {"bogus": 1}}}))
            err = _until(ws, "error")
            assert err["code"] == "bad_settings" and err["option"] == "bogus", err
            ws.send(json.dumps({"type": "create", "settings": {
                "preset": "qipisilai", "rounds": 2, "options": {"fanbao": True, "cap": 400, "min_points": 64}}}))
            joined = _until(ws, "joined")
            room = joined["room"]
            assert room["rule_card"] == {
                "zh": "七皮四赖 · 起胡：64 分 · 封顶：400 分 · 反包：开 · 圈数：2 圈",
                "en": "seven pizi, four laizi · Minimum to win: 64 pts · Cap: 400 pts · Reverse liability: on"
                      " · Rounds: 2 rounds"}
            status, _, info = srv.json("GET", f"/api/rooms/{room['code']}")
            assert status == 200 and info["rule_card"] == room["rule_card"]


def test_api_rules_names_one_rule_set(tmp_path: Path) -> None:
    """GET /api/rules?rules=<JSON>: that rule set in words (the menu's card, 玩法说明, replays); a
    bad option is refused naming it, and so is a text over the limit."""
    from urllib.parse import quote

    from laizi.rulecatalog import MAX_RULES_TEXT

    with live_server(tmp_path) as srv:
        q = quote(json.dumps({"preset_name": "qipisilai", "min_points": 64}))
        status, _, body = srv.json("GET", f"/api/rules?rules={q}")
        assert status == 200 and body["card"]["zh"] == "七皮四赖 · 起胡：64 分"
        assert body["card"]["values"]["en"]["min_points"] == "64 pts"
        status, _, body = srv.json("GET", "/api/rules?rules=" + quote('{"cap": -1}'))
        assert status == 400 and body["option"] == "cap"
        assert body["code"] == "bad_rules" and body["params"] == {"option": "cap"}  # (玩法说明 words it)
        status, _, body = srv.json("GET", "/api/rules?rules=" + quote("{" + " " * MAX_RULES_TEXT + "}"))
        assert status == 400 and "longer than" in body["error"]
