"""One English glossary (shared/design/TABLE.md "Words": "The English mode uses one consistent
glossary (e.g. chow, pung, kong, win, self-draw, deal-in), with the Chinese term shown once in a
help page"; the glossary itself: src/laizi/web/README.md, "The English glossary").

Every English string a player reads — i18n.js's tables, each page's word pack (``{zh, en}`` in
any web/js module: howto.js, tutorial.js, tourney.js, …), the server's words (the rule
catalogue, the 复盘 sentences, the hints' reasons and labels) — is checked for a variant the
glossary names otherwise (``peng``, ``self-drawn``, ``dealt in``, ``red-dragon kong``, ``laid
out``, a tile code, Chinese in English text …); the words that name one term in several places
are the same word; every Chinese key has its English one. No browser: Node reads the modules'
word tables (the literals as written), Python the server's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

NODE = shutil.which("node")
JS = Path(__file__).resolve().parents[2] / "src" / "laizi" / "web" / "js"

# (a variant, the glossary's word): case-sensitive unless the pattern says (?i)
BANNED: list[tuple[str, str]] = [
    (r"(?i)\bpengs?\b|\bchis?\b|\bgangs?\b", "pung / chow / kong"),
    (r"(?i)\b(?:ron|tsumo|zimo|hu)\b", "win / self-draw"),
    (r"(?i)\bself[- ]drawn\b|\bself draws?\b|\bselfdraw", "self-draw"),
    (r"(?i)\bdealt in\b|\bdiscard(?:ed)? win\b|\bdiscarder\b|\bfeed(?:er|s|ing)?\b", "deal-in (to deal in)"),
    (r"(?i)\b(?:red|green|white)-dragon\b", "Red Dragon, Green Dragon, White Dragon"),
    (r"\b(?:[Rr]ed|[Gg]reen|[Ww]hite) dragons?\b|\b(?:red|green|white) Dragons?\b", "Red Dragon (a tile's name)"),
    (r"(?i)\bspecial kongs?\b", "Red Dragon kong / laid-aside kong"),
    (r"(?i)\blaid[- ]out\b", "laid aside"),
    (r"\b(?:Man|Pin|Sou|Bams?|Chars?)\b", "Characters, Dots, Bamboo (tileShort's abbreviations only)"),
    (r"(?i)\bshanten\b|\btenpai\b", "ready / n from ready"),
    (r"(?i)\bwin after kong\b", "win after a kong"),
    (r"\b[1-9][mps]\b|\b[1-7]z\b", "a tile's name, not its code"),
    (r"[\u3400-\u9fff]", "English words (the Chinese term is shown on the glossary page only)"),
]
# The calculator's meld lines are a notation to type (``peng 9p from 3``), not words.
NOTATION = re.compile(r"\b(?:chi|peng|kong|addkong|ankong) [1-9][mpsz]\S* from \d")
# English strings that may hold what BANNED catches: the language button (中文)
ALLOWED = {"中文"}

EXTRACT = """
const fs = await import("fs");
const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {};
for (const [key, text] of jobs) {
  try { out[key] = Function(`"use strict"; return (${text});`)(); } catch (e) { out[key] = null; }
}
process.stdout.write(JSON.stringify(out));
"""


def _literal(src: str, start: int) -> str:
    """The object or array literal starting at ``src[start]`` (strings and comments skipped)."""
    depth, i, n = 0, start, len(src)
    while i < n:
        c = src[i]
        if c in "\"'`":
            i += 1
            while src[i] != c:
                i += 2 if src[i] == "\\" else 1
        elif src.startswith("//", i):
            i = src.index("\n", i)
            continue
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 1
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return src[start:i + 1]
        i += 1
    raise ValueError("unbalanced literal")


def _tables() -> dict[str, Any]:
    """Every top-level ``const NAME = {…}`` / ``[…]`` of web/js that is data, by ``file:NAME``."""
    jobs = []
    for path in sorted(JS.glob("*.js")):
        src = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^(?:export )?const ([A-Z_]+) = (?=[{\[])", src, flags=re.M):
            jobs.append([f"{path.name}:{m.group(1)}", _literal(src, m.end())])
    assert NODE is not None
    run = subprocess.run([NODE, "--input-type=module", "-e", EXTRACT], input=json.dumps(jobs),
                         capture_output=True, text=True, timeout=60, check=True)
    return {k: v for k, v in json.loads(run.stdout).items() if v is not None}


def _strings(x: Any) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list | tuple):
        return [s for v in x for s in _strings(v)]
    return []


def _packs(tables: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``{zh, en}`` word packs (a page's words, i18n.js's BIG, PRESETS, ERRORS …)."""
    return {k: v for k, v in tables.items() if isinstance(v, dict) and set(v) >= {"zh", "en"}}


def _server_english() -> dict[str, str]:
    """The English the server sends a player: the rule catalogue, the 复盘 words and sentences,
    the hints' reasons and labels, the tiles' names."""
    from laizi import rulecatalog
    from laizi.bots import outlook_words as ow
    from laizi.hints import _KONG_LABEL, DIFFERS
    from laizi.review import _KIND_EN
    from laizi.tiles import Tile

    out: dict[str, str] = {}
    for name, w in rulecatalog.OPTIONS.items():
        out[f"option {name}"] = w.en
        out[f"option {name} help"] = w.help_en
        out[f"option {name} unit"] = w.unit[1]
        for v, (_, en) in w.choices.items():
            out[f"option {name}={v}"] = en
    for g, (_, en) in rulecatalog.GROUPS.items():
        out[f"group {g}"] = en
    for t, (_, _, en, _, help_en) in rulecatalog.TEMPLATES.items():
        out[f"template {t}"], out[f"template {t} help"] = en, help_en
    for k, v in _KIND_EN.items():
        out[f"review {k}"] = v
    for k, v in _KONG_LABEL.items():  # (``laizi hint``'s labels: the Chinese term, then the English)
        out[f"hint label {k}"] = re.sub(r"^[\u3400-\u9fff]+ ", "", v)
    out["hints differs"] = DIFFERS["en"]
    hand = {"improving_tiles": 12, "improving_unseen": 9, "win_prob": 0.31, "expected_points": 18.0}
    for sh in (0, 1, 2):
        o = {**hand, "shanten_258": sh}
        out[f"reason hand {sh}"] = ow.hand_reason(o)["en"]
        out[f"reason pass {sh}"] = ow.pass_reason(o)["en"]
        out[f"reason kong {sh}"] = ow.kong_reason(o)["en"]
        for kind in ("peng", "chi", "kong"):
            c = {**o, "action": {"type": kind}}
            out[f"reason {kind} {sh}"] = ow.claim_reason(c, o)["en"]
        for level in ("low", "medium", "high"):
            d = {**o, "danger": {"level": level, "cost": 24.0, "feed_prob": 0.12}, "counts_as_kong": True,
                 "kong_fan": 2}
            out[f"reason discard {sh} {level}"] = ow.discard_reason(d)["en"]
    out["reason win"] = ow.win_reason(30)["en"]
    for k in range(34):
        out[f"tile {k}"] = Tile(k).english
    return out


def _variants(text: str) -> list[tuple[str, str]]:
    if text in ALLOWED:
        return []
    plain = NOTATION.sub("", text)
    return [(m.group(0), word) for pat, word in BANNED for m in re.finditer(pat, plain)]


# "ready" is 听牌's word (听 "Ready:", 向听 "n from ready"); the room's 准备 has its own ("I'm in").
READY = re.compile(r"(?i)\bready\b")


def _pairs(zh: Any, en: Any, key: str) -> list[tuple[str, str, str]]:
    """(key, Chinese, English) for each string of two parallel word tables (dicts by key, lists
    by place)."""
    if isinstance(zh, str) and isinstance(en, str):
        return [(key, zh, en)]
    if isinstance(zh, dict) and isinstance(en, dict):
        return [p for k in zh if k in en for p in _pairs(zh[k], en[k], f"{key}.{k}")]
    if isinstance(zh, list) and isinstance(en, list):
        return [p for i, (z, e) in enumerate(zip(zh, en, strict=False)) for p in _pairs(z, e, f"{key}[{i}]")]
    return []


def _ready_clashes(pairs: list[tuple[str, str, str]], ting: str) -> list[str]:
    """Where 准备 and 听 share the English "ready": a string whose Chinese says 准备 and whose
    English says ready, or 听's own word (``ting``, the table's 听 label) not "ready"."""
    bad = [f"{k}: {zh!r} -> {en!r} (准备 is not 听's ready)" for k, zh, en in pairs
           if "准备" in zh and READY.search(en)]
    if not READY.fullmatch(re.sub(r"[:：]\s*$", "", ting)):
        bad.append(f"听 is {ting!r}, not ready")
    return bad


@pytest.fixture(scope="module")
def tables() -> dict[str, Any]:
    if NODE is None:
        pytest.skip("needs node")
    return _tables()


def test_every_english_string_uses_the_glossary(tables: dict[str, Any]) -> None:
    english: dict[str, str] = {}
    for key, pack in _packs(tables).items():
        for i, s in enumerate(_strings(pack["en"])):
            english[f"{key}.en[{i}]"] = s
    for key in ("i18n.js:EN", "i18n.js:HONOR_EN", "i18n.js:SUIT_EN", "i18n.js:SUIT_EN_ONE"):
        for i, s in enumerate(_strings(tables[key])):
            english[f"{key}[{i}]"] = s
    for key, pair in tables["emotes.js:EMOTES"].items():
        english[f"emotes.js:EMOTES.{key}"] = pair[1]
    english.update(_server_english())
    # the modules whose words the glossary covers are all read (a literal Node could not
    # evaluate would drop out silently)
    for need in ("howto.js:W", "tutorial.js:W", "tourney.js:W", "sound.js:VOICE", "i18n.js:BIG",
                 "i18n.js:PRESETS", "i18n.js:ERRORS", "players.js:W", "clubs.js:W", "quick.js:WORDS"):
        assert need in tables, need
    bad = {k: v for k, s in english.items() if (v := _variants(s))}
    assert not bad, "\n".join(f"{k}: {english[k]!r} -> {v}" for k, v in bad.items())


def test_one_term_is_one_word_wherever_it_is_named(tables: dict[str, Any]) -> None:
    from laizi.bots.outlook_words import _CLAIM_EN, shanten_words
    from laizi.review import _KIND_EN
    from laizi.tiles import Tile

    en = tables["i18n.js:EN"]
    howto = tables["howto.js:W"]["en"]
    tutorial = tables["tutorial.js:W"]["en"]
    big = tables["i18n.js:BIG"]["en"]
    # TABLE.md's own examples, as the buttons say them
    assert [en[k] for k in ("chi", "peng", "kong", "ron", "tsumo")] == ["Chow", "Pung", "Kong", "Win", "Self-draw"]
    # 放冲: the settlement's, the log's, the calculator's and the examples' word
    assert en["win_by"]["discard"] == en["by_discard"] == howto["discard"] == "deal-in"
    assert en["from_line"] == "deal-in by {0}"
    assert en["win_by"]["self_draw"] == en["by_self_draw"] == howto["self_draw"] == en["tsumo"].lower()
    assert en["win_by"]["rob_kong"] == en["by_rob_kong"] == howto["rob"] == big["qianggang"] == "robbing a kong"
    assert en["gangkai"] == big["gangkai"] == howto["after_kong"].replace("after", "win after") == "win after a kong"
    assert en["haidi"] == big["haidi"] == howto["last_tile"] == "last tile"
    # 红中杠 and 杠出: the button, the tutorial's lesson, the tile's name
    assert en["special_kong"] == tutorial["red_h"] == f"{tables['i18n.js:HONOR_EN'][6]} kong" == "Red Dragon kong"
    assert en["fa_kong"] == "Green Dragon kong"
    assert howto["laid"] == "laid aside" and en["spk_short"] == "Laid-aside kongs"
    # the server's words are the table's: 复盘's actions, the hints' claims, the tiles' names
    for kind in ("chi", "peng", "kong", "ron", "tsumo", "ankong", "addkong", "laizi_kong", "pass", "discard"):
        assert _KIND_EN[kind] == en[kind].lower(), kind
    for kind, word in _CLAIM_EN.items():
        assert word == en[kind].lower(), kind
    assert [Tile(k).english for k in range(27, 34)] == tables["i18n.js:HONOR_EN"]
    assert Tile(0).english == "1 Character" and Tile(4).english == f"5 {tables['i18n.js:SUIT_EN']['m']}"
    assert shanten_words(2)["en"] == en["shanten"].replace("{0}", "2")
    # the sound's voice says the button's word
    voice = tables["sound.js:VOICE"]["en"]
    assert [voice[k] for k in ("chi", "peng", "kong", "tsumo")] == [en[k].lower() for k in ("chi", "peng", "kong", "tsumo")]


def test_ready_is_ting_and_not_the_rooms_zhunbei(tables: dict[str, Any]) -> None:
    """准备 (the room's button, a seat's state, the host's wait, the error, 玩法说明's line) says
    "I'm in", never ready: "ready" is 听牌's word (the 听 line's "Ready:", "n from ready"), and a
    player reading "Ready" beside their name and "Ready" on the room's button took them for one."""
    pairs = _pairs(tables["i18n.js:ZH"], tables["i18n.js:EN"], "i18n.js")
    for key, pack in _packs(tables).items():
        pairs += _pairs(pack["zh"], pack["en"], key)
    en = tables["i18n.js:EN"]
    assert _ready_clashes(pairs, en["ting"]) == []
    # every 准备 string was read (the pairing dropped none of them)
    said = {k for k, zh, _ in pairs if "准备" in zh}
    assert {"i18n.js.ready", "i18n.js.unready", "i18n.js.is_ready", "i18n.js.not_ready", "i18n.js.need_ready",
            "i18n.js:ERRORS.not_ready", "howto.js:W.gm_ready"} <= said, sorted(said)
    # the glossary's two rows (玩法说明 shows the table's words: 听's without its colon) differ
    assert en["ready"] == "I'm in" and re.sub(r"[:：]\s*$", "", en["ting"]) == "Ready"
    assert en["shanten"] == "{0} from ready" and tables["tutorial.js:W"]["en"]["ready_h"] == "You are ready"


def test_every_chinese_word_has_its_english_one(tables: dict[str, Any]) -> None:
    zh, en = tables["i18n.js:ZH"], tables["i18n.js:EN"]
    assert set(zh) - set(en) == set(), sorted(set(zh) - set(en))
    assert set(en) - set(zh) == set(), sorted(set(en) - set(zh))
    for key in zh:
        assert type(zh[key]) is type(en[key]), key
        if isinstance(zh[key], list):
            assert len(zh[key]) == len(en[key]), key
        if isinstance(zh[key], dict):
            assert set(zh[key]) == set(en[key]), key
        if isinstance(zh[key], str):  # the same placeholders
            assert sorted(re.findall(r"\{\d\}", zh[key])) == sorted(re.findall(r"\{\d\}", en[key])), key
    packs = _packs(tables)
    assert len(packs) >= 10, sorted(packs)
    for name, pack in packs.items():
        if not isinstance(pack["zh"], dict):  # (BOT_LETTERS: 甲乙丙丁 / ABCD)
            assert len(pack["zh"]) == len(pack["en"]), name
            continue
        missing = set(pack["zh"]) - set(pack["en"])
        assert not missing, (name, sorted(missing))


def test_the_checks_catch_the_old_words() -> None:
    """The variants this glossary replaced are caught (the test would have failed on them)."""
    for old in ("dealt in by {0}", "Red-dragon kong", "Red-dragon/laizi kongs laid out", "Discarder seat",
                "win after kong", "Win after a kong: self-drawn on the replacement tile.",
                "1-shanten", "12% to feed a win", "下家's hand", "How opening (chi, peng, exposed kong) adds fan.",
                "A red dragon may not stay in your hand", "self draw", "counts as a special kong"):
        assert _variants(old), old
    old_zhunbei = [("ready", "准备", "Ready"), ("unready", "取消准备", "Not ready"), ("is_ready", "已准备", "ready"),
                   ("not_ready", "未准备", "not ready"), ("need_ready", "等待所有玩家准备", "Waiting for everyone to be ready"),
                   ("ERRORS.not_ready", "还有玩家没有准备", "Someone is not ready")]
    assert len(_ready_clashes(old_zhunbei, "Ready:")) == len(old_zhunbei)
    assert _ready_clashes([("ready", "准备", "I'm in")], "Ready:") == []
    assert _ready_clashes([], "Tenpai:") != []  # 听 keeps "ready"
    assert not _variants("Melds (one per line, e.g. peng 9p from 3)")
    assert not _variants("A Red Dragon laid aside: 1 fan, then a replacement.")
