"""The web client and owner affinity, in a real Chromium behind the real HAProxy: after a join
relayed through another node, its next reconnect asks the proxy for the owner
(``/ws?node=NAME``, same origin) and it then plays there without a relay."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from support.nodes import HAProxy, NodeProc, haproxy_config
from support.srvhelpers import Client

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(180)]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-features=LocalNetworkAccessChecks"]


def wait(pred: Any, seconds: float = 20, why: Any = None, page: Any = None) -> Any:
    """Poll ``pred``; with ``page``, sleeping in Playwright (its events are delivered only
    while it is called)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        if page is not None:
            page.wait_for_timeout(100)
        else:
            time.sleep(0.1)
    raise AssertionError(f"timed out {why() if why else ''}")


def test_web_client_reconnects_to_its_rooms_owner(make_nodes: Any, tmp_path: Path) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip("no system Chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    n1, n2 = make_nodes(["n1", "n2"], ["--bot-delay", "0.02"])
    backends = [(n.name, n.port) for n in (n1, n2)]
    h = HAProxy(tmp_path, backends)
    h.cfg.write_text("\n".join(line for line in haproxy_config(h.port, backends).splitlines()
                               if "use-server n3" not in line) + "\n")
    h.start()
    nodes: dict[str, NodeProc] = {"n1": n1, "n2": n2}
    hosts = {}
    for n in (n1, n2):  # a room owned by each node
        c = Client(n.port, f"host-{n.name}")
        c.send({"type": "create", "settings": {}})
        hosts[n.name] = (c, c.until("joined", 20)["room"]["code"])
    urls: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = b.new_context(service_workers="block").new_page()
            page.on("websocket", lambda ws: urls.append(ws.url))
            base = f"http://127.0.0.1:{h.port}"
            page.goto(base + "/room/" + hosts["n1"][1])
            page.wait_for_selector("#roomview:not(.hidden)")
            owner = "n1"
            if n2.status()["relayed_out"] == 0:  # the proxy put it on n1: local; go to n2's room
                owner = "n2"
                page.evaluate("c => import('/static/js/net.js').then(m => m.send({type: 'join', "
                              "room: c}))", hosts["n2"][1])
                wait(lambda: page.inner_text("#room-code") == hosts["n2"][1], page=page)
            other = "n2" if owner == "n1" else "n1"
            wait(lambda: nodes[other].status()["relayed_out"] == 1, page=page)
            assert nodes[owner].status()["relayed_in"] == 1
            assert not any("node=" in u for u in urls), urls
            # the socket drops: the client reconnects through the proxy to the owner
            page.evaluate("() => import('/static/js/net.js').then(m => m.dropConnection())")
            wait(lambda: any(u.endswith(f"/ws?node={owner}") for u in urls), page=page,
                 why=lambda: (owner, urls, page.evaluate("() => import('/static/js/net.js')"
                                                         ".then(m => m.isOpen())")))
            wait(lambda: nodes[other].status()["relayed_out"] == 0
                 and nodes[owner].status()["relayed_in"] == 0, page=page)
            page.wait_for_selector("#roomview:not(.hidden)")
            assert page.inner_text("#room-code") == hosts[owner][1]
            # it is in the room, on the owner, without a relay: it sits, the host sees it
            page.click('button[data-sit="1"]')
            hosts[owner][0].until(lambda m: m["type"] == "room"
                                  and m["room"]["seats"][1]["player_id"], 20)
            assert nodes[other].status()["relayed_out"] == 0
            assert nodes[owner].status()["relayed_in"] == 0
            b.close()
    finally:
        for c, _ in hosts.values():
            c.close()
        h.stop()
