"""The 玩法说明 page's examples (src/laizi/web/howto-examples.json) are what they say: each is a
score request the scorer accepts as a win, each big hand's example scores that big hand, the
2/5/8 pair example is a small hand, the laizi kong lays the laizi aside and the cap tops out."""

from __future__ import annotations

import json
from pathlib import Path

from laizi.scoring.request import score_json

EXAMPLES = json.loads((Path(__file__).resolve().parents[2] / "src/laizi/web/howto-examples.json")
                      .read_text(encoding="utf-8"))["examples"]
BIG = {"pengpeng", "qingyise", "fengyise", "jiangyise", "quanqiuren", "gangkai", "qianggang", "haidi",
       "menqing", "qidui"}


def test_every_example_scores_as_it_is_drawn() -> None:
    ids = [e["id"] for e in EXAMPLES]
    assert set(ids) == BIG | {"pair258", "laizi_kong", "cap"} and len(ids) == len(set(ids))
    for e in EXAMPLES:
        req = e["request"]
        out = score_json(req)
        assert out["ok"], (e["id"], out)
        assert sum(out["payments"]) == 0
        if e["id"] in BIG:
            assert e["id"] in out["big_hands"], (e["id"], out["big_hands"])
        winner = req["players"][req["winner"]]
        if e["id"] == "pair258":
            assert out["big_hands"] == [] and winner["hand"].count("5s") + (req["win"]["tile"] == "5s") >= 1
        if e["id"] == "laizi_kong":
            assert req["laizi"] in winner["special_kongs"] and out["big_hands"] == []
        if e["id"] == "cap":
            assert out["topped_out"]
