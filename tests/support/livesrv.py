"""A real ``laizi serve`` subprocess for HTTP/WebSocket tests, with its log and RSS."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``python -m laizi serve`` on a free loopback port; stdout+stderr go to ``self.log``."""

    def __init__(self, tmp: Path, db_url: str | None = None, env: dict[str, str] | None = None,
                 args: list[str] | None = None) -> None:
        self.port = free_port()
        self.db_url = db_url or str(tmp / "live.db")
        self.log = tmp / f"serve-{self.port}.log"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.args = args or []
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> LiveServer:
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.db_url, *self.args],
                stdout=fh, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log_text()[-3000:])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def rss_kb(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    # ------------------------------------------------------------- http
    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()

    def json(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
             ) -> tuple[int, dict[str, str], Any]:
        status, headers, content = self.request(method, path, body, raw)
        return status, headers, json.loads(content) if content else None


@contextlib.contextmanager
def live_server(tmp: Path, **kw: Any) -> Any:
    srv = LiveServer(tmp, **kw).start()
    try:
        yield srv
    finally:
        srv.stop()


def tracebacks(text: str) -> int:
    return text.count("Traceback (most recent call last)")
