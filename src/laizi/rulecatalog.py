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
import json
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from laizi.errors import RuleError
from laizi.rules import OPTION_SETS, PRESETS, RuleSet

__all__ = ["GROUPS", "MAX_RULES_TEXT", "OPTIONS", "PRESET_WORDS", "SOURCES", "TEMPLATES", "OptionWords", "card_of",
           "catalogue", "option_spec", "rule_card", "rule_card_items", "value_words"]

Lang = Literal["zh", "en"]

#: Preset names (the ids of :data:`laizi.rules.PRESETS`) in words.
PRESET_WORDS: dict[str, tuple[str, str]] = {
    "kaikoufan": ("开口番", "open-fan"),
    "kaikoufan_fa": ("开口番·红中发财杠", "open-fan, Red and Green Dragon kongs"),
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
                  "Double pay for unopened, no win after passing, strict all-honours and all-2-5-8, "
                  "first winner after the player who deals in."),
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
        "How opening (chow, pung, exposed kong) adds fan.", "§7.2",
        {"once": ("开口算一番", "one fan if opened"), "per_opening": ("每口一番（口口番）", "one fan per opening"),
         "none": ("开口不加番", "no fan for opening")}),
    "big_stack": OptionWords(
        "fan", "大胡叠加", "Several big hands", "同时有几个大胡时底分翻倍还是相加。",
        "Whether several big hands double or add their base.", "§7.1",
        {"double": ("翻倍", "double"), "add": ("相加", "add")}),
    "big_factor": OptionWords(
        "fan", "大胡自摸/放冲", "Big-hand self-draw / deal-in", "大胡自摸或放冲者乘 1.5，还是各加一番。",
        "On a big hand, a self-draw or the player who deals in pays ×1.5, or one more fan.", "§7.2",
        {"multiply": ("乘 1.5", "×1.5"), "fan": ("加一番", "+1 fan")}),
    "small_hand_fan": OptionWords(
        "fan", "屁胡本身番数", "Small hand's own fan", "小胡（屁胡）本身算几番。",
        "How many fan a small hand counts by itself.", "§7.2", unit=("番", "fan")),
    "kong_avoids_sunshine": OptionWords(
        "fan", "杠过不算阳光", "A kong ends sunshine", "只杠过牌的输家也不算没开口（阳光）。",
        "A loser who only declared kongs no longer counts as unopened (sunshine).", "§7.3"),
    "selfdraw_bonus_on_gangkai_haidi": OptionWords(
        "fan", "杠开海底也算自摸", "Self-draw factor on win after a kong and last tile", "杠上开花和海底捞月另算自摸的加成。",
        "A win after a kong and a last tile also get the self-draw factor.", "§7.2"),
    "pay_min_fan": OptionWords(
        "fan", "不到几番不用付", "Losers under n fan pay nothing",
        "输家应付的分不到 2 的这么多次方（这么多番）就不用付；0 表示都要付。",
        "A loser whose amount is below 2 to this power (this many fan) pays nothing; 0: all pay.",
        "§7.4", unit=("番", "fan")),
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
    "fengyise_golden": OptionWords(
        "caps", "风一色算金顶", "All honours pays the golden cap", "风一色不用算分，直接按金顶（阳光顶、哈顶）付。",
        "An all-honours win counts as reaching the cap: the golden (sunshine, ha) cap is paid.", "§7.3"),
    "special_tiles": OptionWords(
        "laizi", "杠牌", "Kong-out tiles", "哪些牌必须杠出去（手里有就不能胡）。",
        "Which tiles must be laid aside (holding one, you cannot win).", "§3",
        {"zhong": ("红中", "Red Dragons"), "zhong_fa": ("红中和发财", "Red and Green Dragons"),
         "zhong_pizi": ("红中和七皮", "Red Dragons and the seven pizi")}),
    "laizi_discard": OptionWords(
        "laizi", "打出赖子", "Discarding a laizi", "打出赖子算赖子杠、算半个杠，还是不许打。",
        "A discarded laizi counts as a laizi kong, a one-fan kong, or is not allowed.", "§4",
        {"kong": ("算赖子杠", "a laizi kong"), "half": ("算一番", "one fan"),
         "forbidden": ("不许打出", "not allowed")}),
    "laizi_may_be_fifth": OptionWords(
        "laizi", "赖子可做第五张", "Laizi as a fifth copy", "手里已有四张时，赖子还能当第五张。",
        "A laizi may stand for a fifth copy of a kind you already hold four of.", "§4"),
    "haidi_kongs": OptionWords(
        "laizi", "海底可杠", "Kongs at the end of the wall", "快到海底和海底时仍可杠牌，但不补牌（轮到下家）。",
        "Kongs stay allowed near and at the haidi, without a replacement tile (the next player goes on).",
        "§8"),
    "kong_draw_choice": OptionWords(
        "laizi", "杠后可不补牌", "Kong without the replacement",
        "杠牌后可以选择不从牌堆后面补牌：不补就不用打牌，直接轮到下家摸牌。",
        "After a kong you may decline the replacement tile: then you discard nothing and the next "
        "player draws.", "§5"),
    "jianzi_hu": OptionWords(
        "win", "见字胡", "Lone laizi: no win on a discard",
        "见字胡：手里只剩一张赖子单吊、胡什么牌都行时，只能自摸或抢杠胡，不能胡别人打的牌。",
        "A hand of complete sets and one lone laizi (it waits on any tile) wins only by "
        "self-draw or by robbing a kong, never on a discard.", "§6"),
    "luan_feng_jiang": OptionWords(
        "win", "乱风乱将", "Loose all honours / all 2-5-8", "风一色、将一色只要全是风牌或将牌就能胡。",
        "All honours or all 2-5-8 wins without a regular shape.", "§6"),
    "jiayu_hands": OptionWords(
        "win", "门前清和七对", "Concealed hand and seven pairs", "门前清、七对算大胡，不开口也能胡。",
        "Concealed hand and seven pairs are big hands and win unopened.", "§6"),
    "fanbao": OptionWords(
        "liability", "反包", "Reverse liability", "清一色由没打出该门牌的人包，而不是给第三口的人。",
        "A full flush is paid by who held back the suit, not by the player whose discard made the third opening.", "§7.5"),
    "quanqiuren_liability": OptionWords(
        "liability", "全求人包赔", "All-melded liability", "全求人胡了别人打的牌时，放冲者包不包。",
        "Whether the player who deals in pays for an all-melded win.", "§7.5",
        {"unless_ready": ("听牌时不包（下小雨）", "not if it was ready"), "always": ("总是包（下大雨）", "always"),
         "none": ("不包", "never")}),
    "liable_pays": OptionWords(
        "liability", "包赔金额", "Liable player pays", "包赔的人付三家之和，还是付一次金顶。",
        "The liable player pays the three payments' sum, or the golden cap once.", "§7.5",
        {"sum": ("三家之和", "the sum"), "golden": ("一个金顶", "one golden cap")}),
    "kuangfeng_baoyu": OptionWords(
        "liability", "狂风暴雨", "Two liable players", "清一色又是全求人时，包清一色的人付清一色那份，放冲的人付全求人那份。",
        "A full flush that is also all-melded: the flush's liable player pays the flush's share, "
        "the player who deals in pays the all-melded share.", "§7.5"),
    "xiaoyu_258": OptionWords(
        "liability", "下小雨全258不包", "No liability on an all-2-5-8 hand",
        "下小雨时，放冲者手里全是 2、5、8（赖子不算）也不包全求人。",
        "Under 'not if ready', a player dealing in with only twos, fives and eights (a laizi is not one) is not "
        "liable for an all-melded win either.", "§7.5"),
    "qianggang_fixed": OptionWords(
        "liability", "抢杠固定赔付", "Robbed kong pays a fixed amount", "被抢杠的人直接付这么多分；0 表示照常算分。",
        "The robbed player pays exactly this; 0: scored as usual.", "§7.5", unit=_PTS),
    "sunshine_double": OptionWords(
        "liability", "对罚", "Double for unopened", "没开口（阳光）的输家付双倍。",
        "Unopened (sunshine) losers pay double.", "§7.3"),
    "win_priority": OptionWords(
        "flow", "一炮多响", "Several winners", "几家都能胡同一张牌时，谁胡。",
        "Who wins when several players can win on one tile.", "§5",
        {"dealer": ("从庄家起算", "first from the dealer"), "discarder": ("从放冲者起算", "first after the player who deals in")}),
    "guoshou": OptionWords(
        "flow", "过手", "No win after passing", "放过一次胡，摸牌前不能再胡同一线的牌。",
        "After passing a win, no win on the same line before your next draw.", "§5"),
    "claim_seconds": OptionWords(
        "flow", "抢牌秒数", "Claim seconds", "别人打牌后，可以吃碰胡的等待秒数。",
        "Seconds to claim another player's discard.", "§5", unit=("秒", "s")),
    "escape_penalty": OptionWords(
        "flow", "逃跑扣分", "Escape penalty", "比赛中离开的玩家扣这么多分。",
        "Points a player who leaves the match loses.", "§9", unit=_PTS),
    "haidi_start": OptionWords(
        "flow", "海底", "Haidi", "剩几墩牌时开始海底，每人摸一张只能自摸。",
        "How many stacks are left when the haidi starts (one last tile each, self-draw only).", "§8",
        {"seven_stacks": ("剩 7 墩开始（留 5 墩）", "7 stacks left (5 stay)"),
         "five_stacks": ("最后 5 墩的前 2 墩", "the first 2 of the last 5 stacks")}),
    "rounds": OptionWords(
        "flow", "圈数", "Rounds", "一场比赛打几圈（按风数算时为 1）。", "Rounds in a match (1 when counted in winds).",
        "§9", unit=("圈", "rounds")),
    "winds": OptionWords(
        "flow", "风数", "Winds", "一场比赛打几个风；0 表示按圈数算。", "Winds in a match; 0: counted in rounds.",
        "§9", unit=("风", "winds")),
    "rounds_per_wind": OptionWords(
        "flow", "每风圈数", "Rounds per wind", "一个风打几圈：小风 4 圈，大风 5 圈。",
        "Rounds in a wind: 4 (small wind) or 5 (big wind).", "§9", unit=("圈", "rounds")),
    "seating_ceremony": OptionWords(
        "flow", "摸牌定东", "Draw for seats", "开局每人摸一张牌定东南西北，掷骰子定东坐哪里，东先坐庄。",
        "Each player turns up a tile to rank the winds, dice place East, who deals first.", "§2"),
}

#: The source of each option (docs/rules.md §0 and §11 quote their words).
SOURCES: dict[str, str] = {
    "preset_name": "S0–S4", "min_points": "S0", "min_rule": "S0 每家, S3 任一家, S1 两家合计",
    "opening_fan": "S2, S4 (口口翻), S1 (none)", "big_stack": "S3, S4 (double), S1 (add)",
    "big_factor": "S0, S3 (×1.5), S1 (+1 fan)", "small_hand_fan": "S1", "pay_min_fan": "S1 不到3番不用付钱",
    "kong_avoids_sunshine": "S0", "selfdraw_bonus_on_gangkai_haidi": "S2", "cap": "S4, S1, S2",
    "golden": "S4, S1, S2", "sunshine": "S2, S0", "ha": "S2, S0", "fengyise_golden": "S0 风一色直接算金顶",
    "special_tiles": "S0, S2", "laizi_discard": "S2 (kong), S3 (half), S1 (forbidden)",
    "laizi_may_be_fifth": "S0", "haidi_kongs": "S0 到海底时可以继续杠牌",
    "kong_draw_choice": "S0 杠牌后可以选择不从牌堆后面起牌", "jianzi_hu": "S0",
    "luan_feng_jiang": "S1–S4 (loose), S0 (strict)", "jiayu_hands": "S1", "fanbao": "S0",
    "quanqiuren_liability": "S0 下小雨/下大雨, S1", "liable_pays": "S4 (sum), S1 (golden)",
    "kuangfeng_baoyu": "S0 狂风暴雨", "xiaoyu_258": "S0 下小雨…手牌都是258也不包胡",
    "qianggang_fixed": "S0 抢杠…约定了一个固定的数", "sunshine_double": "S0 对罚",
    "win_priority": "S1, S2, S4 (dealer), S0 (discarder)", "guoshou": "S0 过手", "claim_seconds": "S3",
    "escape_penalty": "S4, S1", "haidi_start": "S1–S4 (7 stacks), S0 (5 stacks)",
    "rounds": "online play (laizi)", "winds": "S0, S2 风", "rounds_per_wind": "S0, S2 大风/小风",
    "seating_ceremony": "S0 摸牌定东",
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
                        "source": SOURCES[name], "unit_zh": w.unit[0], "unit_en": w.unit[1]})
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


#: The longest rule set accepted as JSON text by :func:`card_of` (``GET /api/rules?rules=``);
#: every option of a RuleSet written out is about 900 characters.
MAX_RULES_TEXT = 4000


def card_of(text: str) -> dict[str, Any]:
    """A rule set given as JSON text (a room's whole ``rules``, or ``preset_name`` and the options
    changed on that preset) in words: the rule
    set itself, its card in both languages, the items that differ from its preset and every
    option's value in words (``GET /api/rules?rules=…``: the table's menu, 玩法说明, replays).
    Raises :class:`RuleError` (naming the option) on bad input.

    >>> card_of('{"preset_name": "kaikoufan", "fanbao": true}')["zh"]
    '开口番 · 反包：开'
    """
    if len(text) > MAX_RULES_TEXT:
        raise RuleError(f"rules longer than {MAX_RULES_TEXT} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise RuleError("rules must be a JSON object of options") from None
    if not isinstance(data, dict):
        raise RuleError("rules must be a JSON object of options")
    # a whole rule set (a room's, a log's) as saved; else a preset and the options changed on it
    rules = (RuleSet.from_dict(data) if set(RuleSet.model_fields) <= set(data)
             else RuleSet.preset(str(data.get("preset_name", "kaikoufan")),
                                 **{k: v for k, v in data.items() if k != "preset_name"}))
    dump = rules.model_dump(mode="json")
    return {
        "rules": dump, "zh": rule_card(rules, "zh"), "en": rule_card(rules, "en"),
        "items": {lang: rule_card_items(rules, lang) for lang in ("zh", "en")},
        "values": {lang: {name: value_words(name, dump[name], lang) for name in OPTIONS}
                   for lang in ("zh", "en")},
    }
