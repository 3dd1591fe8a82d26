"""The HTTP API's refusals a player meets carry a ``code`` (and its ``params``) beside the English
``error``, so the web client can word them in the player's language; and every code the server
sends has its Chinese words in ``web/js/i18n.js`` (``API_ERRORS``), and no word there names a
code the server never sends."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from laizi.server.accounts.accounts import PASSWORD_MIN

SRC = Path(__file__).resolve().parents[3] / "src" / "laizi"
PW = "correct horse battery"


def _err(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == code and isinstance(body["error"], str) and body["error"], body
    return body  # type: ignore[no-any-return]


def _guest(client: TestClient, nick: str) -> str:
    r = client.post("/api/guest", json={"nickname": nick})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def test_refusals_carry_their_code_and_params(client: TestClient) -> None:
    _err(client.get("/api/matches/99999/replay"), 404, "unknown_match")
    _err(client.get("/api/tournaments/99999"), 404, "unknown_tournament")
    _err(client.get("/api/players/p_nobody"), 404, "unknown_player")
    short = _err(client.post("/api/account/register", json={"username": "mei", "password": "x"}),
                 400, "password_short")
    assert short["params"] == {"min": PASSWORD_MIN} and str(PASSWORD_MIN) in short["error"]
    _err(client.post("/api/account/register", json={"username": "m", "password": PW}), 400, "username_length")
    assert client.post("/api/account/register", json={"username": "Mei", "password": PW}).status_code == 200
    taken = _err(client.post("/api/account/register", json={"username": "MEI", "password": PW}),
                 409, "username_taken")
    assert taken["params"] == {"name": "MEI"}
    _err(client.post("/api/account/login", json={"username": "mei", "password": "wrong password"}),
         401, "wrong_login")
    guest = {"Authorization": "Bearer " + _guest(client, "游客甲")}
    _err(client.post("/api/coins/daily", headers=guest), 403, "coins_guest")
    _err(client.get("/api/clubs", headers=guest), 403, "clubs_guest")
    _err(client.get("/api/coins", headers={"Authorization": "Bearer nonsense"}), 401, "token_refused")



def test_the_calculators_refusals_carry_their_code(client: TestClient) -> None:
    """``POST /api/score``: a table that cannot exist says which mistake (the web calculator words
    it); ``laizi score``'s one-line message (SCORE_API.md) is the same English as before."""
    from laizi.errors import IllegalHandError
    from laizi.scoring.request import score_json

    base = {"preset": "kaikoufan", "laizi": "6m", "dealer": 0, "winner": 1,
            "win": {"tile": "3z", "by": "discard", "from": 2},
            "players": [{}, {"hand": "444m3z", "melds": ["peng 9p from 3", "peng 2s from 0",
                                                           "peng 1z from 2"]}, {}, {}]}
    assert score_json(base)["ok"] is True
    short = {**base, "players": [{}, {**base["players"][1], "hand": "44m3z"}, {}, {}]}
    with pytest.raises(IllegalHandError) as exc:
        score_json(short)
    assert exc.value.code == "score_tile_count" and exc.value.params == {"n": 13}
    assert str(exc.value) == ("players[1].hand: the winner's tiles make 13, not 14 (hand without the "
                              "winning tile, kongs count 3)")
    c = client
    r = c.post("/api/score", json=short)
    assert r.status_code == 400 and r.json()["code"] == "score_tile_count", r.text
    assert r.json()["params"] == {"n": 13} and r.json()["error"] == str(exc.value)
    five = {**base, "players": [{"hand": "3z3z3z3z"}, *base["players"][1:]]}
    body = c.post("/api/score", json=five).json()
    # 3z: four in seat 0's hand, the winner's own and the winning tile
    assert body["code"] == "score_copies" and body["params"] == {"n": 6, "tile": "3z"}, body
    body = c.post("/api/score", json={**base, "win": {"tile": "3z", "by": "discard", "from": 1}}).json()
    assert body["code"] == "score_from_winner", body
    body = c.post("/api/score", json={**base, "hand": "x"}).json()  # not a table: no code
    assert "code" not in body and body["error"] == "hand: unknown field", body


def test_the_clients_words_and_the_servers_codes_are_in_step() -> None:
    sent = set()
    for path in [*(SRC / "server").rglob("*.py"), SRC / "scoring" / "request.py"]:  # (+ the calculator's)
        if path.name == "protocol.py":  # the socket's error frames: their words are ERRORS
            continue
        sent |= set(re.findall(r'code="([a-z_]+)"', path.read_text()))
        sent |= set(re.findall(r'"code": "([a-z_]+)"', path.read_text()))
        sent |= set(re.findall(r'code="([a-z_]+)" if', path.read_text()))
        sent |= set(re.findall(r'else "([a-z_]+)"\)', path.read_text()))
    js = (SRC / "web" / "js" / "i18n.js").read_text()
    table = re.search(r"const API_ERRORS = \{(.*?)\n\};", js, re.S)
    assert table, "API_ERRORS not found in i18n.js"
    worded = set(re.findall(r"\b([a-z_]+):\s*\"", table.group(1)))
    protocol = re.search(r"const ERRORS = \{(.*?)\n\};", js, re.S)
    assert protocol
    protocol_words = set(re.findall(r"\b([a-z_]+):\s*\"", protocol.group(1)))
    # a code the server sends on the HTTP API: worded here or among the socket's error words
    unworded = sorted(c for c in sent - worded - protocol_words)
    assert not unworded, f"codes without Chinese words in i18n.js: {unworded}"
    dead = sorted(worded - sent)
    assert not dead, f"API_ERRORS words for codes the server never sends: {dead}"
    for code, words in re.findall(r"\b([a-z_]+):\s*\"([^\"]*)\"", table.group(1)):
        assert re.search(r"[\u3400-\u9fff]", words), (code, words)


def _words_of(js: str, table: str, lang: str) -> set[str]:
    block = re.search(rf"const {table} = \{{(.*?)\n\}};", js, re.S)
    assert block, table
    zh, en = re.split(r"\n\s*en: \{", block.group(1), maxsplit=1)
    return set(re.findall(r"\b([a-z_]+):\s*\"", zh if lang == "zh" else en))


def test_every_socket_error_code_has_words_in_both_languages() -> None:
    """The socket's error frames (``{"type": "error", "code"}``) are worded by ``ERRORS``; a code
    without words showed the catch-all "操作没有成功" (``server_full``, ``bad_emote`` did)."""
    sent: dict[str, str] = {}
    for path in [*(SRC / "server").rglob("*.py"), SRC / "scoring" / "request.py"]:  # (+ the calculator's)
        text = path.read_text()
        for pat in (r'ProtocolError\(\s*"([a-z_]+)"', r'\.error\(\s*"([a-z_]+)"',
                    r'(?:Chat|Mute|Op)Error\(\s*"([a-z_]+)"', r'error_msg\(\s*"([a-z_]+)"'):
            for code in re.findall(pat, text):
                sent.setdefault(code, path.name)
    assert len(sent) > 40, sorted(sent)  # (the scan finds them)
    js = (SRC / "web" / "js" / "i18n.js").read_text()
    for lang in ("zh", "en"):
        words = _words_of(js, "ERRORS", lang)
        missing = sorted(f"{c} ({f})" for c, f in sent.items() if c not in words)
        assert not missing, f"socket error codes without {lang} words in i18n.js ERRORS: {missing}"


NODE = shutil.which("node")
WORDING = """
globalThis.document = {documentElement: {}, querySelectorAll: () => []};
const m = await import(process.argv[1]);
const out = [m.apiErrorText("password_short", {min: 8}, "password too short: at least 8 characters"),
  m.apiErrorText("username_taken", {name: "<b>Mei</b>"}, "username 'Mei' is taken"),
  m.apiErrorText("password_short", null, "password too short: at least 8 characters"),
  m.apiErrorText("rate_limited", null, "too many new guests"),
  m.apiErrorText("no_such_code", null, "the server's words"),
  m.apiErrorText(null, null, "HTTP 502")];
m.setLang("en");
out.push(m.apiErrorText("password_short", {min: 8}, "password too short: at least 8 characters"));
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_the_client_words_a_refusal() -> None:
    """``apiErrorText`` (the page's words for a refusal), run in Node: the code's Chinese words
    with its params; a param missing, the socket's words for that code, else the server's message;
    an unknown code or none, the server's message; in English, the server's message."""
    assert NODE is not None
    js = (SRC / "web" / "js" / "i18n.js").as_uri()
    out = subprocess.run([NODE, "--input-type=module", "-e", WORDING, js], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    zh_short, taken, no_param, socket_words, unknown, none, en = json.loads(out)
    assert zh_short == "密码太短：至少 8 个字符"
    assert taken == "用户名「<b>Mei</b>」已被占用"  # (a text node: the page sets textContent)
    assert no_param == "password too short: at least 8 characters"
    assert socket_words and re.search(r"[\u3400-\u9fff]", socket_words), socket_words  # ERRORS.zh.rate_limited
    assert unknown == "the server's words" and none == "HTTP 502"
    assert en == "password too short: at least 8 characters"
