"""A player made on one node uses every token-checked JSON API of another node at once
(two real nodes, private PostgreSQL + Redis): coins, the daily bonus, friends, invites,
quick match, token rotation. A node that had not seen the player answered 401 ("unknown
token") for a valid token — only the socket hello and the club API looked the player up."""

from __future__ import annotations

from typing import Any

import pytest

from support.srvhelpers import http

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_player_made_on_node_a_is_known_to_node_bs_apis(make_nodes: Any) -> None:
    na, nb = make_nodes(["na", "nb"])
    st, g = http(na.url + "/api/guest", {"nickname": "汉口"})
    assert st == 200, g
    tok = g["token"]
    for path, body in (("/api/coins", None), ("/api/friends", None), ("/api/invites", None),
                       ("/api/quick", None), ("/api/coins/daily", {})):
        st, out = http(nb.url + path, body, token=tok)
        assert st != 401, (path, st, out)
        assert st < 500, (path, st, out)
    st, coins = http(nb.url + "/api/coins", token=tok)
    assert st == 200 and coins["player_id"] == g["player_id"], coins
    # a second player, also made on node A, then rotates its token on node B
    st, h = http(na.url + "/api/guest", {"nickname": "武昌"})
    assert st == 200, h
    st, r = http(nb.url + "/api/token/rotate", {"token": h["token"]})
    assert st == 200 and r["player_id"] == h["player_id"] and r["nickname"] == "武昌", (st, r)
    # a forged token is still refused
    st, out = http(nb.url + "/api/coins", token=tok[:-2] + "xx")
    assert st == 401, (st, out)
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
