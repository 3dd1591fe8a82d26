"""The rule catalogue: every :class:`~laizi.rules.RuleSet` option in words, and the rule card.

The types, choices and ranges are read from the RuleSet model's own fields (never copied);
this module adds what a player reads: the Chinese and English name of each option and of
each choice, a one-line explanation in both languages, the group it belongs to and the
section of ``docs/rules.md`` that defines it. ``GET /api/rules``, the create-room form and
``laizi rules`` all read :func:`catalogue`; :func:`rule_card` is the one short text of a
rule set (its preset plus every option that differs from it).

>>> rule_card(RuleSet.preset("kaikoufan", min_points=32, fanbao=True))
'开口番 · 起胡：32 分 · 反包：开'
>>> rule_card(RuleSet.preset("jiayu"), lang="en")
'Jiayu rules (as the preset)'
"""

from __future__ import annotations

import functools
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from laizi.errors import RuleError
from laizi.rules import OPTION_SETS, PRESETS, RuleSet

__all__ = ["GROUPS", "OPTIONS", "PRESET_WORDS", "TEMPLATES", "OptionWords", "catalogue", "option_spec", "rule_card",
           "rule_card_items", "value_words"]

Lang = Literal["zh", "en"]

#: Preset names (the ids of :data:`laizi.rules.PRESETS`) in words.
PRESET_WORDS: dict[str, tuple[str, str]] = {
    "kaikoufan": ("开口番", "open-fan"),
    "kaikoufan_fa": ("开口番·红中发财杠", "open-fan, red and green kongs"),
    "qipisilai": ("七皮四赖", "seven pizi, four laizi"),
    "koukoufan": ("口口番", "every-meld fan"),
    "jiayu": ("嘉鱼红中赖子杠", "Jiayu rules"),
}

#: Named templates: the documented option sets (:data:`laizi.rules.OPTION_SETS`) in words,
#: with the preset each belongs to (None: any preset): id -> (preset, zh, en, help zh, help en).
TEMPLATES: dict[str, tuple[str | None, str, str, str, str]] = {
    "s2_koukoufan_caps": ("koukoufan", "口口番·千分封顶", "every-meld fan, 1000 cap",
                          "口口番，封顶 1000、金顶 1500、阳光顶 2500、哈顶 5500。",
                          "Every-meld fan with caps 1000, golden 1500, sunshine 2500, ha 5500."),
    "s0_strict": (None, "严格规则（对罚、过手）", "strict rules (double pay, no win after passing)",
                  "对罚、过手、风一色将一色要成牌型、从放冲者起算。",
                  "Double pay for unopened, no win after passing, strict all-honours and all-258, "
                  "first winner after the discarder."),
}

#: The groups of the form, in order: id -> (Chinese, English).
GROUPS: dict[str, tuple[str, str]] = {
    "fan": ("起胡 / 番数", "Minimum and fan"),
    "caps": ("封顶", "Caps"),
    "laizi": ("赖子 / 杠", "Laizi and kongs"),
    "win": ("胡牌", "Winning"),
    "liability": ("包赔 / 对罚", "Liability and double pay"),
    "flow": ("流程", "Play"),
}


@dataclass(frozen=True)
class OptionWords:
    """What a player reads about one option."""

    group: str
    zh: str
    en: str
    help_zh: str
    help_en: str
    section: str                                   # of docs/rules.md
    choices: dict[str, tuple[str, str]] = field(default_factory=dict)  # value -> (zh, en)
    unit: tuple[str, str] = ("", "")


_PTS = ("分", "pts")

#: Every option of RuleSet in words (the preset itself is ``preset_name``).
OPTIONS: dict[str, OptionWords] = {
    "preset_name": OptionWords(
        "flow", "玩法", "Rules", "预设的整套规则；下面的选项在它的基础上修改。",
        "The preset rule set; the options below change it.", "§7.6",
        dict(PRESET_WORDS)),
    "min_points": OptionWords(
        "fan", "起胡", "Minimum to win", "胡牌时输家要付的分至少达到这个数，不够不能胡。",
        "A win must make the losers pay at least this much; below it is no win.", "§7.4", unit=_PTS),
    "min_rule": OptionWords(
        "fan", "起胡算法", "Minimum counted on", "起胡看每家、任一家，还是某两家合计。",
        "Whether every loser, any loser or two losers together must reach the minimum.", "§7.4",
        {"each": ("每家都够", "every loser"), "any": ("任一家够", "any loser"),
         "two_sum": ("两家合计", "two losers together")}),
    "opening_fan": OptionWords(
        "fan", "开口番", "Opening fan", "吃、碰、明杠开口后怎样加番。",
        "How opening (chi, peng, exposed kong) adds fan.", "§7.2",
        {"once": ("开口算一番", "one fan if opened"), "per_opening": ("每口一番（口口番）", "one fan per opening"),
         "none": ("开口不加番", "no fan for opening")}),
    "big_stack": OptionWords(
        "fan", "大胡叠加", "Several big hands", "同时有几个大胡时底分翻倍还是相加。",
        "Whether several big hands double or add their base.", "§7.1",
        {"double": ("翻倍", "double"), "add": ("相加", "add")}),
    "big_factor": OptionWords(
        "fan", "大胡自摸/放冲", "Big-hand self-draw", "大胡自摸或放冲者乘 1.5，还是各加一番。",
        "A big hand's self-draw and discarder pay ×1.5, or one more fan.", "§7.2",
        {"multiply": ("乘 1.5", "×1.5"), "fan": ("加一番", "+1 fan")}),
    "small_hand_fan": OptionWords(
        "fan", "屁胡本身番数", "Small hand's own fan", "小胡（屁胡）本身算几番。",
        "How many fan a small hand counts by itself.", "§7.2", unit=("番", "fan")),
    "kong_avoids_sunshine": OptionWords(
        "fan", "杠过不算阳光", "A kong ends sunshine", "只杠过牌的输家也不算没开口（阳光）。",
        "A loser who only declared kongs no longer counts as unopened (sunshine).", "§7.3"),
    "selfdraw_bonus_on_gangkai_haidi": OptionWords(
        "fan", "杠开海底也算自摸", "Self-draw on 杠开 and 海底", "杠上开花和海底捞月另算自摸的加成。",
        "Win after a kong and last-tile wins also get the self-draw factor.", "§7.2"),
    "cap": OptionWords(
        "caps", "封顶", "Cap", "每家最多付这么多分。", "The most one loser pays.", "§7.3", unit=_PTS),
    "golden": OptionWords(
        "caps", "金顶", "Golden cap", "三家都到封顶时，开过口的输家付这么多。",
        "When all three reach the cap, an opened loser pays this.", "§7.3", unit=_PTS),
    "sunshine": OptionWords(
        "caps", "阳光顶", "Sunshine cap", "三家都到封顶时，没开口的输家付这么多。",
        "When all three reach the cap, an unopened loser pays this.", "§7.3", unit=_PTS),
    "ha": OptionWords(
        "caps", "哈顶", "Ha cap", "三家都到封顶且都没开口时，每家付这么多。",
        "When all three reach the cap and none opened, each pays this.", "§7.3", unit=_PTS),
    "special_tiles": OptionWords(
        "laizi", "杠牌", "Kong-out tiles", "哪些牌必须杠出去（手里有就不能胡）。",
        "Which tiles must be laid aside (holding one, you cannot win).", "§3",
        {"zhong": ("红中", "red dragons"), "zhong_fa": ("红中和发财", "red and green dragons"),
         "zhong_pizi": ("红中和七皮", "red dragons and the seven pizi")}),
    "laizi_discard": OptionWords(
        "laizi", "打出赖子", "Discarding a laizi", "打出赖子算赖子杠、算半个杠，还是不许打。",
        "A discarded laizi counts as a laizi kong, a one-fan kong, or is not allowed.", "§4",
        {"kong": ("算赖子杠", "a laizi kong"), "half": ("算一番", "one fan"),
         "forbidden": ("不许打出", "not allowed")}),
    "laizi_may_be_fifth": OptionWords(
        "laizi", "赖子可做第五张", "Laizi as a fifth copy", "手里已有四张时，赖子还能当第五张。",
        "A laizi may stand for a fifth copy of a kind you already hold four of.", "§4"),
    "jianzi_hu": OptionWords(
        "win", "见字胡", "Honour-hand self-draw only", "见字胡：这种胡牌只能自摸，不能胡别人打的牌。",
        "The 见字胡 hand wins only by self-draw, never on a discard.", "§6"),
    "luan_feng_jiang": OptionWords(
        "win", "乱风乱将", "Loose all-honours / all-258", "风一色、将一色只要全是风牌或将牌就能胡。",
        "All honours or all 2-5-8 wins without a regular shape.", "§6"),
    "jiayu_hands": OptionWords(
        "win", "门前清和七对", "Concealed hand and seven pairs", "门前清、七对算大胡，不开口也能胡。",
        "Concealed hand and seven pairs are big hands and win unopened.", "§6"),
    "fanbao": OptionWords(
        "liability", "反包", "Reverse liability", "清一色由没打出该门牌的人包，而不是给第三口的人。",
        "A full flush is paid by who held back the suit, not the third opening's feeder.", "§7.5"),
    "quanqiuren_liability": OptionWords(
        "liability", "全求人包赔", "All-melded liability", "全求人胡了别人打的牌时，放冲者包不包。",
        "Whether the discarder pays for an all-melded win on its discard.", "§7.5",
        {"unless_ready": ("听牌时不包（下小雨）", "not if it was ready"), "always": ("总是包（下大雨）", "always"),
         "none": ("不包", "never")}),
    "liable_pays": OptionWords(
        "liability", "包赔金额", "Liable player pays", "包赔的人付三家之和，还是付一次金顶。",
        "The liable player pays the three payments' sum, or the golden cap once.", "§7.5",
        {"sum": ("三家之和", "the sum"), "golden": ("一个金顶", "one golden cap")}),
    "sunshine_double": OptionWords(
        "liability", "对罚", "Double for unopened", "没开口（阳光）的输家付双倍。",
        "Unopened (sunshine) losers pay double.", "§7.3"),
    "win_priority": OptionWords(
        "flow", "一炮多响", "Several winners", "几家都能胡同一张牌时，谁胡。",
        "Who wins when several players can win on one tile.", "§5",
        {"dealer": ("从庄家起算", "first from the dealer"), "discarder": ("从放冲者起算", "first after the discarder")}),
    "guoshou": OptionWords(
        "flow", "过手", "No win after passing", "放过一次胡，摸牌前不能再胡同一线的牌。",
        "After passing a win, no win on the same line before your next draw.", "§5"),
    "claim_seconds": OptionWords(
        "flow", "抢牌秒数", "Claim seconds", "别人打牌后，可以吃碰胡的等待秒数。",
        "Seconds to claim another player's discard.", "§5", unit=("秒", "s")),
    "escape_penalty": OptionWords(
        "flow", "逃跑扣分", "Escape penalty", "比赛中离开的玩家扣这么多分。",
        "Points a player who leaves the match loses.", "§9", unit=_PTS),
    "rounds": OptionWords(
        "flow", "圈数", "Rounds", "一场比赛打几圈。", "Rounds in a match.", "§9", unit=("圈", "rounds")),
}


def option_spec(name: str) -> dict[str, Any]:
    """Type and choices or range of one option, read from the RuleSet field."""
    info = RuleSet.model_fields[name]
    ann = info.annotation
    if name == "preset_name":
        return {"type": "choice", "choices": list(PRESETS)}
    if typing.get_origin(ann) is Literal:
        return {"type": "choice", "choices": list(typing.get_args(ann))}
    if ann is bool:
        return {"type": "bool"}
    if ann in (int, float):
        spec: dict[str, Any] = {"type": ann.__name__}
        for m in info.metadata:
            for key in ("ge", "gt", "le", "lt"):
                if getattr(m, key, None) is not None:
                    spec[key] = getattr(m, key)
        return spec
    raise AssertionError(f"RuleSet.{name}: no catalogue type for {ann!r}")


def catalogue() -> dict[str, Any]:
    """Presets with every option's value, the groups, every option and the named templates
    (``GET /api/rules``)."""
    presets = [{"id": p, "zh": PRESET_WORDS[p][0], "en": PRESET_WORDS[p][1],
                "defaults": RuleSet.preset(p).model_dump(mode="json")} for p in PRESETS]
    options = []
    for name, w in OPTIONS.items():
        spec = option_spec(name)
        if spec["type"] == "choice":
            spec["choices"] = [{"value": c, "zh": w.choices[c][0], "en": w.choices[c][1]} for c in spec["choices"]]
        options.append({"name": name, **spec, "group": w.group, "zh": w.zh, "en": w.en,
                        "help_zh": w.help_zh, "help_en": w.help_en, "section": w.section,
                        "unit_zh": w.unit[0], "unit_en": w.unit[1]})
    templates = [{"id": t, "preset": pre, "zh": zh, "en": en, "help_zh": hz, "help_en": he,
                  "options": OPTION_SETS[t]} for t, (pre, zh, en, hz, he) in TEMPLATES.items()]
    return {"presets": presets, "groups": [{"id": g, "zh": zh, "en": en} for g, (zh, en) in GROUPS.items()],
            "options": options, "templates": templates}


def value_words(name: str, value: Any, lang: Lang = "zh") -> str:
    """One option's value in words: 开/关, a choice's name, or the number with its unit."""
    w = OPTIONS[name]
    i = 0 if lang == "zh" else 1
    if isinstance(value, bool):
        return ("开", "on")[i] if value else ("关", "off")[i]
    if isinstance(value, str):
        return w.choices[value][i] if value in w.choices else value
    number = f"{value:g}" if isinstance(value, float) else str(value)
    unit = w.unit[i]
    return f"{number} {unit}" if unit else number


@functools.lru_cache(maxsize=16)
def _reference(preset: str) -> RuleSet:
    return RuleSet.preset(preset) if preset in PRESETS else RuleSet()


def rule_card_items(rules: RuleSet, lang: Lang = "zh", versus: str | None = None) -> list[dict[str, Any]]:
    """The options of ``rules`` that differ from its preset (or from preset ``versus``), in
    catalogue order, in words."""
    if lang not in ("zh", "en"):
        raise RuleError(f"unknown language {lang!r} (choose zh or en)")
    ref = _reference(versus or rules.preset_name)
    i = 0 if lang == "zh" else 1
    out = []
    for name, w in OPTIONS.items():
        if name == "preset_name":
            continue
        value = getattr(rules, name)
        if value != getattr(ref, name):
            out.append({"name": name, "value": value, "label": (w.zh, w.en)[i],
                        "words": value_words(name, value, lang)})
    return out


def rule_card(rules: RuleSet, lang: Lang = "zh", versus: str | None = None) -> str:
    """The rule card (规则卡): the preset and every option that differs from it, one short line
    (``versus``: what differs from that preset instead — how one rule set stands apart).

    >>> rule_card(RuleSet.preset("qipisilai", fanbao=True, cap=500), lang="en")
    'seven pizi, four laizi · Cap: 500 pts · Reverse liability: on'
    """
    items = rule_card_items(rules, lang, versus)
    i = 0 if lang == "zh" else 1
    preset = PRESET_WORDS.get(rules.preset_name, (rules.preset_name, rules.preset_name))[i]
    if not items:
        return preset + ("（按预设规则）", " (as the preset)")[i]
    sep = ("：", ": ")[i]
    return " · ".join([preset, *(f"{it['label']}{sep}{it['words']}" for it in items)])
