"""Fixtures of the cluster tests: real ``laizi serve --node`` processes sharing a private
PostgreSQL and a private Redis (tests/server/conftest.py), and Debian's HAProxy in front
with deploy/haproxy.cfg (its bind and server lines pointed at loopback ports)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from support.srvhelpers import free_port  # noqa: E402

pytest.importorskip("redis")

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "deploy" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


class NodeProc:
    """``laizi serve --node NAME --redis … --db postgresql://…`` on its own loopback port."""

    def __init__(self, name: str, pg_url: str, redis_url: str, tmp: Path, args: list[str]) -> None:
        self.name = name
        self.port = free_port()
        self.cmd = [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port",
                    str(self.port), "--db", pg_url, "--redis", redis_url, "--node", name, *args]
        self.log = tmp / f"node-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> NodeProc:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "LAIZI_RATE_EXEMPT": "127.0.0.1"}
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(self.cmd, stdout=fh, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + "/cluster", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"node {self.name} did not start: {self.log_text()[-3000:]}")

    def status(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/cluster", timeout=5) as r:
            out: dict[str, Any] = json.loads(r.read())
            return out

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def haproxy_config(front: int, backends: list[tuple[str, int]]) -> str:
    """deploy/haproxy.cfg with its bind line on ``front`` and one server line per backend."""
    lines = []
    servers_done = False
    for line in TEMPLATE.read_text().splitlines():
        if re.match(r"\s+bind ", line):
            line = f"    bind 127.0.0.1:{front}"
        elif re.match(r"\s+server ", line):
            if servers_done:
                continue
            servers_done = True
            for name, port in backends:
                lines.append(f"    server {name} 127.0.0.1:{port} check")
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


class HAProxy:
    def __init__(self, tmp: Path, backends: list[tuple[str, int]]) -> None:
        self.port = free_port()
        self.cfg = tmp / "haproxy.cfg"
        self.cfg.write_text(haproxy_config(self.port, backends))
        self.log = tmp / "haproxy.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> HAProxy:
        check = subprocess.run([HAPROXY, "-c", "-q", "-f", str(self.cfg)], capture_output=True,
                               text=True, timeout=30)
        assert check.returncode == 0, check.stderr + check.stdout
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen([HAPROXY, "-db", "-f", str(self.cfg)], stdout=fh,
                                         stderr=subprocess.STDOUT)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("haproxy did not start: " + self.log.read_text(errors="replace")[-2000:])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture
def make_nodes(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[..., list[NodeProc]]]:
    """Start nodes ``names`` (extra ``laizi serve`` args: ``args``); all stopped at the end."""
    started: list[NodeProc] = []

    def make(names: list[str], args: list[str] | None = None) -> list[NodeProc]:
        nodes = [NodeProc(n, pg_url, redis_url, tmp_path, args or []) for n in names]
        for n in nodes:
            started.append(n.start())
        return nodes

    try:
        yield make
    finally:
        for n in started:
            n.stop()


@pytest.fixture
def haproxy(tmp_path: Path) -> Iterator[Callable[[list[NodeProc]], HAProxy]]:
    if not Path(HAPROXY).exists():
        pytest.skip("no haproxy binary (apt-get install haproxy)")
    started: list[HAProxy] = []

    def make(nodes: list[NodeProc]) -> HAProxy:
        h = HAProxy(tmp_path, [(n.name, n.port) for n in nodes]).start()
        started.append(h)
        return h

    try:
        yield make
    finally:
        for h in started:
            h.stop()
