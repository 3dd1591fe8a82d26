"""Trust over real HTTP and WebSockets against a ``laizi serve`` subprocess: body limits
(refused on Content-Length, stopped while streaming), strict JSON (deep nesting, NaN,
Infinity, huge numbers) on /api/score and WebSocket frames, room-setting ranges, security
headers, request ids, guest-token expiry and rotation; the server log stays free of
tracebacks for all of these client mistakes."""

from __future__ import annotations

import contextlib
import hashlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import LiveServer, tracebacks

websockets_sync = pytest.importorskip("websockets.sync.client")
itsdangerous = pytest.importorskip("itsdangerous")

pytestmark = pytest.mark.timeout(180)

SECRET = "test-secret-for-token-forging"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
GOOD_SCORE = {
    "preset": "kaikoufan", "laizi": "6m", "dealer": 0, "winner": 1,
    "win": {"tile": "3z", "by": "discard", "from": 2},
    "players": [
        {"hand": "", "melds": ["peng 8m from 2"], "special_kongs": ""},
        {"hand": "444m3z", "melds": ["peng 9p from 3", "peng 2s from 0", "peng 1z from 2"],
         "special_kongs": "7z7z7z"},
        {"hand": "", "melds": ["chi 567p from 1"], "special_kongs": ""},
        {"hand": "", "melds": [], "special_kongs": "7z"},
    ],
}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    s = LiveServer.plain(tmp_path_factory.mktemp("http"), env={"LAIZI_SECRET": SECRET},
                         args=["--bot-delay", "0"]).start()
    try:
        yield s
    finally:
        s.stop()
        log = s.log_text()
        assert tracebacks(log) == 0, log[-4000:]


def raw_http(port: int, head: bytes, body_chunks: list[bytes] | None = None,
             timeout: float = 10) -> tuple[bytes, int]:
    """Send a request head (and body pieces, stopping when the server has answered);
    return the response and how many body bytes went out."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        response = b""
        for chunk in body_chunks or []:
            with contextlib.suppress(BlockingIOError):
                response += sock.recv(65536)
            if response:
                break
            view = memoryview(chunk)
            deadline = time.time() + 2
            while view and time.time() < deadline:
                try:
                    n = sock.send(view)
                    sent += n
                    view = view[n:]
                except BlockingIOError:
                    time.sleep(0.005)
                except OSError:  # the server closed the connection
                    view = view[:0]
                    break
            if view:  # the server stopped reading
                break
        sock.setblocking(True)
        deadline = time.time() + timeout
        while b"\r\n\r\n" not in response and time.time() < deadline:
            try:
                part = sock.recv(65536)
            except OSError:
                break
            if not part:
                break
            response += part
    return response, sent


# ----------------------------------------------------------------- bodies (finding 10)
def test_huge_content_length_is_refused_before_reading(srv: LiveServer) -> None:
    rss0 = srv.rss_kb()
    for path in ("/api/score", "/api/guest", "/api/token/rotate"):
        head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {200 * 1024 * 1024}\r\n\r\n").encode()
        t0 = time.perf_counter()
        response, _ = raw_http(srv.port, head, [b"{" * 4096])
        assert response.startswith(b"HTTP/1.1 413"), response[:200]
        assert time.perf_counter() - t0 < 5
        assert b"x-request-id" in response.lower()
    assert srv.rss_kb() - rss0 < 20_000


def test_chunked_body_is_cut_off_at_the_limit(srv: LiveServer) -> None:
    """No Content-Length: the server stops at 64 KiB and answers 413; of 50 MB offered it
    reads far less, and its memory does not grow by the body's size."""
    rss0 = srv.rss_kb()
    head = (b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    piece = b" " * (1024 * 1024)
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    response, sent = raw_http(srv.port, head, [chunk] * 50)
    assert response.startswith(b"HTTP/1.1 413"), response[:200]
    assert sent < 20 * 1024 * 1024, sent
    assert srv.rss_kb() - rss0 < 20_000


def test_small_bodies_still_work(srv: LiveServer) -> None:
    status, _, out = srv.json("POST", "/api/score", GOOD_SCORE)
    assert status == 200 and out["ok"] is True


# ----------------------------------------------------------------- strict JSON (9, 12)
@pytest.mark.parametrize("raw", [
    b"[" * 4000 + b"]" * 4000,
    b'{"preset": "kaikoufan", "x": ' + b'{"a":' * 2000 + b"1" + b"}" * 2000 + b"}",
    b'{"preset": "kaikoufan", "options": {"claim_seconds": NaN}}',
    b'{"preset": "kaikoufan", "options": {"cap": Infinity}}',
    b'{"preset": "kaikoufan", "dealer": 1e999}',
    b'{"preset": "kaikoufan", "dealer": ' + b"9" * 5000 + b"}",
    b"\xff\xfe{}",
])
def test_score_api_refuses_bad_json_with_400(srv: LiveServer, raw: bytes) -> None:
    status, headers, out = srv.json("POST", "/api/score", raw=raw)
    assert status == 400, out
    assert out["error"].startswith("input: ") and "\n" not in out["error"]
    assert out["request_id"] == headers["x-request-id"]


@pytest.mark.parametrize("option, value", [
    ("claim_seconds", float("nan")), ("claim_seconds", float("inf")), ("cap", 1e308 * 10),
])
def test_score_api_refuses_non_finite_options(srv: LiveServer, option: str, value: float) -> None:
    raw = json.dumps({**GOOD_SCORE, "options": {option: value}}).encode()  # NaN / Infinity
    status, _, out = srv.json("POST", "/api/score", raw=raw)
    assert status == 400 and "finite" in out["error"], out


def test_laizi_score_cli_exits_2_on_deep_or_non_finite_json(tmp_path: Path) -> None:
    for text in ["[" * 100_000 + "]" * 100_000, '{"options": {"claim_seconds": NaN}}',
                 '{"dealer": -Infinity}', '{"dealer": 1e400}']:
        path = tmp_path / "in.json"
        path.write_text(text)
        proc = subprocess.run([sys.executable, "-m", "laizi", "score", str(path)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("laizi score: error: input: ")
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


# ----------------------------------------------------------------- websocket frames
class WS:
    def __init__(self, srv: LiveServer, nickname: str | None = "t", token: str | None = None) -> None:
        self._cm = websockets_sync.connect(srv.ws_url, max_size=2**22)
        self.ws = self._cm.__enter__()
        hello: dict[str, Any] = {"type": "hello", "proto": PROTOCOL}
        if nickname:
            hello["nickname"] = nickname
        if token:
            hello["token"] = token
        self.send(hello)
        self.welcome = self.until("welcome")

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            m = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.time())))
            if m.get("type") == kind:
                return m

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def test_ws_deep_nesting_and_non_finite_numbers_are_malformed_frames(srv: LiveServer) -> None:
    c = WS(srv)
    bad = [
        "[" * 4000 + "]" * 4000,  # 8 KB of nesting
        '{"type": "ping", "t": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"type": "ping", "t": NaN}',
        '{"type": "ping", "t": Infinity}',
        '{"type": "ping", "t": 1e999}',
        '{"type": "action", "seq": 1, "action": {}, "version": ' + "9" * 400 + "}",
    ]
    for text in bad:
        c.ws.send(text)
        err = c.until("error")
        assert err["code"] == "bad_json", err
    c.send({"type": "ping", "t": 1.5})
    assert c.until("pong")["t"] == 1.5
    c.close()
    assert tracebacks(srv.log_text()) == 0


@pytest.mark.parametrize("settings, field", [
    ('{"claim_seconds": NaN}', "JSON"),
    ('{"claim_seconds": Infinity}', "JSON"),
    ('{"claim_seconds": 1e-9}', "claim_seconds"),
    ('{"claim_seconds": 121}', "claim_seconds"),
    ('{"turn_seconds": 0}', "turn_seconds"),
    ('{"turn_seconds": 1e308}', "turn_seconds"),
    ('{"bot_delay": -1}', "bot_delay"),
    ('{"rounds": 1000000}', "rounds"),
    ('{"max_hands": 0}', "max_hands"),
    ('{"options": {"claim_seconds": 0.000001}}', "claim_seconds"),
    ('{"options": {"claim_seconds": 1e300}}', "claim_seconds"),
    ('{"options": {"cap": [1, 2]}}', "cap"),
    ('{"options": {"rounds": 99999}}', "rounds"),
    ('{"options": {"winds": 100000}}', "winds"),
    ('{"options": {"winds": 5}}', "winds"),
])
def test_ws_room_settings_out_of_range_are_refused(srv: LiveServer, settings: str, field: str) -> None:
    c = WS(srv)
    c.ws.send('{"type": "create", "settings": ' + settings + "}")
    err = c.until("error")
    assert err["code"] in ("bad_json", "bad_message", "bad_settings"), err
    assert field in err["message"], err
    c.send({"type": "ping"})
    c.until("pong")
    c.close()


def test_ws_valid_settings_create_a_room(srv: LiveServer) -> None:
    c = WS(srv)
    c.send({"type": "create", "settings": {"claim_seconds": 5, "turn_seconds": 15,
                                           "options": {"min_points": 8}}})
    joined = c.until("joined")
    assert joined["room"]["code"]
    c.close()


# ----------------------------------------------------------------- headers and ids
@pytest.mark.parametrize("path", ["/", "/calc", "/replay/1", "/room/ABCDE", "/api/rooms",
                                  "/api/presets", "/healthz", "/static/app.js", "/nope"])
def test_security_headers_on_every_response(srv: LiveServer, path: str) -> None:
    status, headers, _ = srv.request("GET", path)
    assert status in (200, 404)
    assert headers["content-security-policy"] == CSP
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert len(headers["x-request-id"]) == 12
    if path in ("/", "/calc"):
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "unsafe-inline" not in headers["content-security-policy"]


def test_request_ids_differ_and_errors_carry_them(srv: LiveServer) -> None:
    status, headers, out = srv.json("GET", "/api/rooms/NOPE1")
    assert status == 404 and out["request_id"] == headers["x-request-id"]
    _, headers2, _ = srv.request("GET", "/api/rooms/NOPE1")
    assert headers2["x-request-id"] != headers["x-request-id"]
    status, _, out = srv.json("GET", "/api/matches/99999999999999999999/replay")
    assert status == 400 and out["error"] == "bad match id"


# ----------------------------------------------------------------- tokens (finding 2)
def forged(pid: str, age_seconds: float, gen: int = 0) -> str:
    class OldSigner(itsdangerous.TimestampSigner):  # type: ignore[misc]
        def get_timestamp(self) -> int:
            return int(time.time() - age_seconds)

    ser = itsdangerous.URLSafeTimedSerializer(SECRET, salt="laizi-guest-v2", signer=OldSigner,
                                              signer_kwargs={"digest_method": hashlib.sha256})
    return str(ser.dumps({"pid": pid, "g": gen}))


def test_guest_token_expires_after_30_days(srv: LiveServer) -> None:
    status, _, g = srv.json("POST", "/api/guest", {"nickname": "expiry"})
    assert status == 200 and g["expires_in"] == 30 * 24 * 3600
    pid = g["player_id"]
    fresh = WS(srv, nickname=None, token=forged(pid, 29 * 24 * 3600))
    assert fresh.welcome["player_id"] == pid  # 29 days old: still valid
    fresh.close()
    stale = WS(srv, nickname="someone", token=forged(pid, 31 * 24 * 3600))
    assert stale.welcome["player_id"] != pid  # 31 days old: a new guest
    stale.close()
    status, _, out = srv.json("POST", "/api/guest", {"token": forged(pid, 31 * 24 * 3600)})
    assert status == 200 and out["player_id"] != pid


def test_rotation_revokes_old_tokens(srv: LiveServer) -> None:
    _, _, g = srv.json("POST", "/api/guest", {"nickname": "rotator"})
    pid, old = g["player_id"], g["token"]
    status, _, r = srv.json("POST", "/api/token/rotate", {"token": old})
    assert status == 200 and r["player_id"] == pid and r["token"] != old
    new = r["token"]
    # the old token no longer names the player, anywhere
    status, _, out = srv.json("POST", "/api/token/rotate", {"token": old})
    assert status == 401 and "revoked" in out["error"]
    thief = WS(srv, nickname="thief", token=old)
    assert thief.welcome["player_id"] != pid
    thief.close()
    owner = WS(srv, nickname=None, token=new)
    assert owner.welcome["player_id"] == pid and owner.welcome["nickname"] == "rotator"
    owner.close()
    # a forged token of the old generation is refused too
    status, _, _ = srv.json("POST", "/api/token/rotate", {"token": forged(pid, 10, gen=0)})
    assert status == 401
    for bad in [None, "", "x" * 600, 12, "abc.def.ghi"]:
        status, _, out = srv.json("POST", "/api/token/rotate", {"token": bad})
        assert status == 401


def test_rotation_survives_a_restart(tmp_path: Path) -> None:
    srv = LiveServer.plain(tmp_path, env={"LAIZI_SECRET": SECRET}).start()
    try:
        _, _, g = srv.json("POST", "/api/guest", {"nickname": "persist"})
        _, _, r = srv.json("POST", "/api/token/rotate", {"token": g["token"]})
    finally:
        srv.stop()
    srv2 = LiveServer.plain(tmp_path, db_url=srv.db_url, env={"LAIZI_SECRET": SECRET}).start()
    try:
        status, _, _ = srv2.json("POST", "/api/token/rotate", {"token": g["token"]})
        assert status == 401
        status, _, out = srv2.json("POST", "/api/token/rotate", {"token": r["token"]})
        assert status == 200 and out["player_id"] == g["player_id"]
    finally:
        srv2.stop()
    assert tracebacks(srv.log_text() + srv2.log_text()) == 0


def test_ws_frames_past_the_rate_are_throttled_not_fatal(srv: LiveServer) -> None:
    """40 frames a second per socket (burst 80): a flood gets rate_limited errors, then the
    socket works again."""
    c = WS(srv)
    for i in range(200):
        c.send({"type": "ping", "t": i})
    codes: list[str] = []
    pongs = 0
    deadline = time.time() + 10
    while pongs + len(codes) < 200 and time.time() < deadline:
        m = json.loads(c.ws.recv(timeout=5))
        if m["type"] == "pong":
            pongs += 1
        elif m["type"] == "error":
            codes.append(m["code"])
    assert set(codes) == {"rate_limited"} and 75 <= pongs < 200, (pongs, len(codes))
    time.sleep(1.0)
    c.send({"type": "ping", "t": -1})
    assert c.until("pong")["t"] == -1
    c.close()
