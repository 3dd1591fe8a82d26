"""A cluster's processes for the tests: real ``laizi serve --node`` nodes sharing a private
PostgreSQL and a private Redis, and Debian's HAProxy in front with deploy/haproxy.cfg (its bind
and server lines pointed at loopback ports). Fixtures: tests/server/cluster/conftest.py."""

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
from pathlib import Path
from typing import Any

from support.srvhelpers import free_port

ROOT = Path(__file__).resolve().parents[2]
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

    def wait_exit(self, timeout: float) -> int:
        """The node's exit code once it ends within ``timeout`` seconds; else its threads'
        stacks (SIGUSR1: faulthandler) and its log's end in the failure."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGUSR1)  # threads (faulthandler)
            self.proc.send_signal(signal.SIGUSR2)  # asyncio tasks
            time.sleep(1)  # the dump is written by the node itself (nothing to wait on)
            raise AssertionError(f"node {self.name} still running {timeout} s later:\n"
                                 + self.log_text()[-30000:]) from None

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
    """deploy/haproxy.cfg with its bind line on ``front`` and one server line per backend
    (the ``use-server`` lines of the other names left out)."""
    lines = []
    servers_done = False
    names = {name for name, _ in backends}
    for line in TEMPLATE.read_text().splitlines():
        m = re.match(r"\s+use-server (\S+) ", line)
        if m and m.group(1) not in names:
            continue
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


async def until_true(pred: Any, timeout: float) -> bool:
    """Whether ``pred()`` came true within ``timeout`` seconds, asked every 20 ms on the running
    event loop (in-process cluster tests: a condition waited for, never a fixed time)."""
    import asyncio

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        await asyncio.sleep(0.02)
    return bool(pred())
