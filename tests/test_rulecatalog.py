"""The rule catalogue (laizi.rulecatalog) and the rule card (规则卡): every RuleSet option is in
the catalogue and in docs/rules.md, the catalogue's choices and ranges are the model's own
(a value it allows validates, one just outside is refused), and a card names every option
that differs from its preset; ``laizi rules`` prints it (a real subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from laizi.errors import RuleError
from laizi.rulecatalog import (
    GROUPS,
    OPTIONS,
    PRESET_WORDS,
    TEMPLATES,
    catalogue,
    rule_card,
    rule_card_items,
)
from laizi.rules import OPTION_SETS, PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[1]
FIELDS = list(RuleSet.model_fields)
CAT = catalogue()
BY_NAME = {o["name"]: o for o in CAT["options"]}


def test_every_field_is_in_the_catalogue_and_in_the_docs() -> None:
    assert set(OPTIONS) == set(FIELDS)
    assert list(BY_NAME) == list(OPTIONS)
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert [f for f in FIELDS if f"`{f}`" not in docs] == []
    assert set(PRESET_WORDS) == set(PRESETS)
    json.dumps(CAT)  # the catalogue is JSON (GET /api/rules)


def test_every_option_has_words_in_both_languages_and_a_group() -> None:
    for o in CAT["options"]:
        assert o["group"] in GROUPS
        for key in ("zh", "en", "help_zh", "help_en"):
            assert o[key].strip(), (o["name"], key)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in o["zh"] + o["help_zh"]), o["name"]
        assert o["section"].startswith("§")
        assert o["source"].strip(), o["name"]  # the source that describes it (rules.md §0)
        for c in o.get("choices", []):
            assert c["zh"] and c["en"], (o["name"], c)


def test_defaults_per_preset_are_the_presets_own() -> None:
    assert [p["id"] for p in CAT["presets"]] == list(PRESETS)
    for p in CAT["presets"]:
        assert p["defaults"] == RuleSet.preset(p["id"]).model_dump(mode="json")
        assert set(p["defaults"]) == set(FIELDS)


def test_every_option_set_is_a_named_template_that_validates() -> None:
    assert set(TEMPLATES) == set(OPTION_SETS)
    for tp in CAT["templates"]:
        assert tp["options"] == OPTION_SETS[tp["id"]] and tp["zh"] and tp["en"] and tp["help_zh"]
        for preset in [tp["preset"]] if tp["preset"] else list(PRESETS):
            rules = RuleSet.preset(preset, **tp["options"])
            assert {i["name"] for i in rule_card_items(rules)} <= set(tp["options"])


def _valid(name: str, value: Any) -> bool:
    try:
        RuleSet.preset("kaikoufan", **{name: value})
    except RuleError as exc:
        assert exc.option == name  # the error names the option (the server passes it on)
        return False
    return True


@pytest.mark.parametrize("name", [f for f in FIELDS if f != "preset_name"])
def test_the_catalogues_values_are_the_models(name: str) -> None:
    o = BY_NAME[name]
    if o["type"] == "bool":
        assert _valid(name, True) and _valid(name, False)
        assert not _valid(name, 1)
    elif o["type"] == "choice":
        values = [c["value"] for c in o["choices"]]
        assert len(values) >= 2
        assert all(_valid(name, v) for v in values)
        assert not _valid(name, "not_a_choice")
    else:
        num = int if o["type"] == "int" else float
        assert ("ge" in o) != ("gt" in o) and "le" in o, o
        low = o.get("ge", o.get("gt"))
        assert _valid(name, num(o["le"]))
        assert not _valid(name, num(o["le"]) + 1)
        if "ge" in o:
            assert _valid(name, num(low))
            assert not _valid(name, num(low) - 1)
        else:
            assert not _valid(name, num(low))
            assert _valid(name, num(low) + 0.5)
        assert not _valid(name, "1")  # strict: no text for numbers


def test_preset_name_choices_are_the_presets() -> None:
    assert [c["value"] for c in BY_NAME["preset_name"]["choices"]] == list(PRESETS)
    with pytest.raises(RuleError) as err:
        RuleSet.preset("nope")
    assert err.value.option == "preset_name"


def _other(name: str, rules: RuleSet) -> Any:
    """A valid value of the option other than the rule set's."""
    o, cur = BY_NAME[name], getattr(rules, name)
    if o["type"] == "bool":
        return not cur
    if o["type"] == "choice":
        return next(c["value"] for c in o["choices"] if c["value"] != cur)
    return cur + 1 if cur + 1 <= o["le"] else cur - 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_card_names_every_option_that_differs(preset: str) -> None:
    base = RuleSet.preset(preset)
    assert rule_card(base) == f"{PRESET_WORDS[preset][0]}（按预设规则）"
    assert rule_card(base, "en") == f"{PRESET_WORDS[preset][1]} (as the preset)"
    for name in FIELDS:
        if name == "preset_name":
            continue
        rules = base.replace(**{name: _other(name, base)})
        items = rule_card_items(rules)
        assert [i["name"] for i in items] == [name]
        zh, en = rule_card(rules), rule_card(rules, "en")
        assert zh.startswith(PRESET_WORDS[preset][0] + " · ") and f"{OPTIONS[name].zh}：" in zh, zh
        assert f"{OPTIONS[name].en}: " in en, en
        assert name not in zh  # words, never the option's id


def test_a_card_with_three_options_in_words() -> None:
    rules = RuleSet.preset("kaikoufan", min_points=32, fanbao=True, quanqiuren_liability="always")
    assert rule_card(rules) == "开口番 · 起胡：32 分 · 反包：开 · 全求人包赔：总是包（下大雨）"
    assert rule_card(rules, "en") == ("open-fan · Minimum to win: 32 pts · Reverse liability: on"
                                      " · All-melded liability: always")
    with pytest.raises(RuleError):
        rule_card(rules, "fr")  # type: ignore[arg-type]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laizi", "rules", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def test_the_cli_prints_the_card() -> None:
    r = _cli("--preset", "qipisilai", "--options", '{"min_points": 64, "sunshine_double": true}')
    assert r.returncode == 0 and r.stdout == "七皮四赖 · 起胡：64 分 · 对罚：开\n", r
    r = _cli("--preset", "jiayu", "--lang", "en")
    assert r.stdout == "Jiayu rules (as the preset)\n"
    r = _cli("--options", '{"cap": 320}', "--json")
    out = json.loads(r.stdout)
    assert out["card"] == "开口番 · 封顶：320 分" and out["changed"][0]["name"] == "cap"
    assert out["rules"] == RuleSet.preset("kaikoufan", cap=320).model_dump(mode="json")


@pytest.mark.parametrize("args", [("--preset", "nope"), ("--options", '{"cap": -1}'), ("--options", "[1"),
                                  ("--options", '{"bogus": 1}'), ("--options", "[]")])
def test_the_cli_refuses_bad_input_in_one_line(args: tuple[str, ...]) -> None:
    r = _cli(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("laizi rules: error: "), r.stderr


def test_card_of_a_rule_set_as_json_text() -> None:
    """GET /api/rules?rules=…: a room's whole rules or a preset with changed options, in words;
    bad input refused naming the option; at most MAX_RULES_TEXT characters."""
    from laizi.rulecatalog import MAX_RULES_TEXT, card_of

    whole = RuleSet.preset("jiayu", cap=170, fanbao=True).model_dump(mode="json")
    a = card_of(json.dumps(whole))
    b = card_of('{"preset_name": "jiayu", "cap": 170, "fanbao": true}')
    assert a == b and a["zh"] == "嘉鱼红中赖子杠 · 封顶：170 分 · 反包：开"
    assert a["rules"] == whole and [it["name"] for it in a["items"]["en"]] == ["cap", "fanbao"]
    assert a["values"]["zh"]["fanbao"] == "开" and a["values"]["en"]["cap"] == "170 pts"
    assert set(a["values"]["zh"]) == set(RuleSet.model_fields)  # every option in words
    with pytest.raises(RuleError) as bad:
        card_of('{"cap": -1}')
    assert bad.value.option == "cap"
    for text in ("[1", "[]", '{"bogus": 1}', '{"preset_name": "nope"}', " " * (MAX_RULES_TEXT + 1)):
        with pytest.raises(RuleError):
            card_of(text)
