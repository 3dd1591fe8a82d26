"""The words of an action on the table's buttons and in the hints (``actionLabel``, i18n.js),
run in Node: a kong of a special tile whose word names the tile says it once (the hints
said "Red Dragon kong Red Dragon", found by playing it, stop 48); a 皮子 kong names its tile."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
JS = (Path(__file__).resolve().parents[2] / "src" / "laizi" / "web" / "js" / "i18n.js").as_uri()
SAY = """
globalThis.document = {documentElement: {}, querySelectorAll: () => []};
const m = await import(process.argv[1]);
const acts = [{type: "special_kong", tile: "7z"}, {type: "special_kong", tile: "6z"},
  {type: "special_kong", tile: "3m"}, {type: "laizi_kong", tile: "5p"}, {type: "discard", tile: "7z"}];
const out = {zh: acts.map(a => m.actionLabel(a))};
m.setLang("en");
out.en = acts.map(a => m.actionLabel(a));
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_a_special_kong_names_its_tile_once() -> None:
    assert NODE is not None
    out = json.loads(subprocess.run([NODE, "--input-type=module", "-e", SAY, JS], capture_output=True,
                                    text=True, timeout=60, check=True).stdout)
    assert out["zh"] == ["红中杠", "发财杠", "皮子杠 三万", "赖子杠 五筒", "打出 中"], out
    assert out["en"] == ["Red Dragon kong", "Green Dragon kong", "Pizi kong 3 Characters",
                         "Laizi kong 5 Dots", "Discard Red Dragon"], out
