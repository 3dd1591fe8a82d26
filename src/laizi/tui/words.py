"""The terminal table's words, in Chinese (default) and English.

The same glossary as the web client and docs/TABLE conventions: tiles 一万…九万, 一筒…,
一条…, 东风 南风 西风 北风 红中 发财 白板; actions 吃 碰 杠 明杠 暗杠 蓄杠 红中杠 赖子杠
胡 自摸 放冲 抢杠 杠上开花 过; seat winds 东南西北 rotating with the dealer (the dealer is 东).
English uses one glossary: chow, pung, kong, win, self-draw, deal-in.

Everything here is pure (no I/O): the terminal app and the line-mode fallback both
turn actions and events into text with these functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from laizi.game.actions import Action, tile_from_str
from laizi.scoring.patterns import BIG_HAND_NAMES
from laizi.tiles import GREEN_DRAGON, RED_DRAGON

__all__ = [
    "Lang", "W", "action_label", "big_hand_name", "describe_event", "seat_label", "strip_cjk",
    "tile_long", "tile_short", "wind_of",
]

Lang = Literal["zh", "en"]

_NUM_CN = "一二三四五六七八九"
_SUIT_CN = {"m": "万", "p": "筒", "s": "条"}
_SUIT_EN = {"m": "Char", "p": "Dot", "s": "Bam"}
_SUIT_EN_SHORT = {"m": "C", "p": "D", "s": "B"}
_HONOR_CN_SHORT = "东南西北白发中"
_HONOR_CN_LONG = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_HONOR_EN_LONG = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")
_HONOR_EN_SHORT = ("E", "S", "W", "N", "Wh", "G", "R")
_WINDS = {"zh": ("东", "南", "西", "北"), "en": ("East", "South", "West", "North")}

# UI words. Keys are the same in both languages.
W: dict[str, dict[str, str]] = {
    "zh": {
        "title": "武汉麻将 · 红中赖子杠", "you": "你", "bot": "机器人", "dealer": "庄",
        "wall": "剩余 {n} 张", "round": "第{r}圈", "hand_no": "第{n}局", "indicator": "翻牌",
        "laizi": "赖子", "special": "杠牌", "concealed": "手牌 {n}", "melds": "副露",
        "kongs": "杠出", "river": "牌河", "score": "分", "auto_mark": "托管",
        "log": "牌局记录", "your_turn": "轮到你出牌：←→ 选牌，回车打出，或点两下",
        "claim_turn": "{who} 打出 {tile}：选择 吃/碰/杠/胡/过", "rob_turn": "{who} 蓄杠 {tile}：可抢杠",
        "haidi_turn": "海底：可以自摸", "replace_turn": "杠后：补牌，还是不补（不用打牌）", "waiting": "等待其他玩家…",
        "auto_on": "托管中 — 按 a 取消托管", "auto_started": "托管：机器人替你出牌（按 a 取消）",
        "auto_ended": "取消托管：你自己出牌", "keys": "←→ 选牌  回车 出牌  数字 选动作  h 提示  a 托管  q 退出  ? 帮助",
        "typed": "输入：{text}", "not_understood": "看不懂：{text}", "no_option": "没有选项 {n}（1-{m}）",
        "not_held": "你没有 {tile}", "cannot_discard": "现在不能出牌，请选择动作",
        "not_legal": "现在不能打出 {tile}", "one_tile": "请输入一张牌，例如 5m 或 五万",
        "hints": "提示", "hint_unavailable": "提示暂不可用：{err}", "shanten": "向听 {n}",
        "waits": "听 {tiles}", "reach_min": "够起胡", "below_min": "不够起胡",
        "seat_fan": "{n}番·{standing}", "st_sunshine": "阳光", "st_golden": "金顶", "ting": "听",
        "wait_pts": "{tile}×{unseen} 自摸 {sd} / 放冲 {dc} {enough}", "enough": "够番", "short": "不够番",
        "no_win": "不能胡", "pts": "{n}分",
        "recommended": "推荐", "settlement": "第{n}局 结算", "continue": "继续",
        "match_over": "比赛结束", "match_table": "比分表", "total": "合计", "rank": "名次",
        "quit": "退出", "quit_again": "再按 q 退出（这局不会保存）", "drawn_hand": "荒庄：牌墙摸完，本局无人胡牌",
        "wins": "{who} 胡 {tile}", "self_draw": "自摸", "deal_in": "{who} 放冲",
        "robbed": "抢 {who} 的杠", "after_kong": "杠上开花", "haidi": "海底捞月",
        "small": "屁胡", "big": "大胡", "hard": "硬胡", "soft": "软胡", "base": "底分 {n}",
        "winner_fan": "赢家番数 {n}", "fan": "番", "amount": "原分", "payment": "得分",
        "liable": "承包：{who} 一家付", "topped": "封顶", "golden": "金顶", "sunshine": "阳光顶",
        "ha": "哈顶", "cap": "封顶 {n}", "winning_hand": "胡牌", "seat": "座位",
        "details": "明细", "goodbye": "再见 — 已退出牌局", "press_continue": "回车 / 点击 继续",
        "scores_line": "本局得分：{items}", "hand_start": "—— {hand} · {round} · 庄 {who} · 翻牌 {ind} · 赖子 {lz} ——",
        "auto_continue": "托管中：{n} 秒后自动继续", "menu_help": "（编号、牌如 5m、h 提示、a 托管、q 退出）",
        "your_hand": "你的手牌", "seat_line": "{label} ({score:+g})  手牌 {n}  副露 {melds}",
        "choose": "请选择", "pending": "{who} 打出 {tile}", "pending_rob": "{who} 蓄杠 {tile}",
        "hand_over": "第{n}局 结束", "help": "帮助", "glossary": "术语", "close": "关闭（回车）",
    },
    "en": {
        "title": "Wuhan Mahjong · Red-Dragon Laizi", "you": "You", "bot": "bot", "dealer": "dealer",
        "wall": "{n} tiles left", "round": "round {r}", "hand_no": "hand {n}", "indicator": "indicator",
        "laizi": "laizi", "special": "kong tiles", "concealed": "hand {n}", "melds": "melds",
        "kongs": "kongs out", "river": "discards", "score": "pts", "auto_mark": "auto",
        "log": "Game log", "your_turn": "Your turn: ←→ pick a tile, Enter discards, or click it twice",
        "claim_turn": "{who} discards {tile}: chow/pung/kong/win/pass", "rob_turn": "{who} adds a kong with {tile}: you may rob it",
        "haidi_turn": "Last tiles (haidi): you may win",
        "replace_turn": "After your kong: draw the replacement, or not (and discard nothing)", "waiting": "Waiting for the others…",
        "auto_on": "Auto-play on — press a to cancel", "auto_started": "Auto-play: a bot plays for you (press a to cancel)",
        "auto_ended": "Auto-play off: you play again", "keys": "←→ pick  Enter discard  digits action  h hints  a auto-play  q quit  ? help",
        "typed": "typed: {text}", "not_understood": "not understood: {text}", "no_option": "no option {n} (choose 1-{m})",
        "not_held": "you do not hold {tile}", "cannot_discard": "you cannot discard now: choose an action",
        "not_legal": "discarding {tile} is not legal now", "one_tile": "type one tile to discard, e.g. 5m",
        "hints": "Hints", "hint_unavailable": "hints unavailable: {err}", "shanten": "{n} from ready",
        "waits": "waits {tiles}", "reach_min": "reaches the minimum", "below_min": "below the minimum",
        "seat_fan": "{n} fan · {standing}", "st_sunshine": "unopened", "st_golden": "opened", "ting": "Ready:",
        "wait_pts": "{tile}×{unseen} self-draw {sd} / on a discard {dc} {enough}", "enough": "enough", "short": "below minimum",
        "no_win": "no win", "pts": "{n} pts",
        "recommended": "recommended", "settlement": "Hand {n} settlement", "continue": "Continue",
        "match_over": "Match over", "match_table": "Match table", "total": "Total", "rank": "Rank",
        "quit": "Quit", "quit_again": "Press q again to quit (this game is not saved)", "drawn_hand": "Drawn hand: the wall is exhausted, nobody won",
        "wins": "{who} wins on {tile}", "self_draw": "self-draw", "deal_in": "deal-in by {who}",
        "robbed": "robbing {who}'s kong", "after_kong": "win after a kong", "haidi": "last-tile win",
        "small": "small hand", "big": "big hand", "hard": "hard", "soft": "soft", "base": "base {n}",
        "winner_fan": "winner fan {n}", "fan": "fan", "amount": "raw", "payment": "payment",
        "liable": "liable: {who} pays for everyone", "topped": "topped out", "golden": "golden top",
        "sunshine": "sunshine top", "ha": "ha top", "cap": "cap {n}", "winning_hand": "winning hand",
        "seat": "seat", "details": "details", "goodbye": "Goodbye — game left.",
        "press_continue": "Enter / click Continue", "scores_line": "hand score: {items}",
        "hand_start": "— {hand} · {round} · dealer {who} · indicator {ind} · laizi {lz} —",
        "auto_continue": "auto-play: continuing in {n} s", "menu_help": "(number, a tile like 5m, h hints, a auto-play, q quit)",
        "your_hand": "your hand", "seat_line": "{label} ({score:+g})  hand {n}  melds {melds}",
        "choose": "choose", "pending": "{who} discards {tile}", "pending_rob": "{who} adds a kong with {tile}",
        "hand_over": "hand {n} over", "help": "Help", "glossary": "Glossary",
        "close": "Close (Enter)",
    },
}

# The glossary of the help page: (English, Chinese) — the Chinese term shown once, there.
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("chow", "吃"), ("pung", "碰"), ("kong", "杠"), ("exposed kong", "明杠"),
    ("concealed kong", "暗杠"), ("added kong", "蓄杠"), ("Red Dragon kong", "红中杠"),
    ("laizi kong", "赖子杠"), ("win", "胡"), ("self-draw", "自摸"), ("deal-in", "放冲 (点炮)"),
    ("robbing a kong", "抢杠"), ("win after a kong", "杠上开花"), ("last-tile win", "海底捞月"),
    ("small hand", "屁胡"), ("big hand", "大胡"), ("hard", "硬胡"), ("soft", "软胡"),
    ("opened", "开口"), ("cap", "封顶"), ("golden top", "金顶"), ("liable", "承包"),
    ("auto-play", "托管"), ("indicator", "翻牌"), ("laizi (wild tile)", "赖子"),
    ("dealer", "庄"), ("East South West North", "东 南 西 北"),
    ("Char / Dot / Bam", "万 / 筒 / 条"), ("Red Green White", "中 发 白"),
)
HELP_KEYS = {
    "zh": ("←/→ 选牌（认领时选动作），回车 打出 / 执行", "数字 选择动作栏的动作（吃 碰 杠 胡 过）",
           "输入牌再回车：如 5m、五万、中", "鼠标：点一下牌抬起，再点打出；点动作执行",
           "h 提示（写在牌局记录里）  a 托管 / 取消托管  q 退出  ? 帮助"),
    "en": ("←/→ pick a tile (an action in a claim window), Enter discards / takes it",
           "digits take an action of the bar (chow pung kong win pass)",
           "type a tile then Enter: 5C 5D 5B (or 5m 5p 5s), E S W N Wh G R",
           "mouse: click a tile to raise it, click again to discard; click an action",
           "h hints (in the game log)  a auto-play on/off  q quit  ? help"),
}

_BIG_EN = {
    "pengpeng": "all pungs", "qingyise": "pure suit", "fengyise": "all honours",
    "jiangyise": "all 2-5-8", "quanqiuren": "all melded", "gangkai": "win after a kong",
    "qianggang": "robbing a kong", "haidi": "last-tile win", "menqing": "concealed hand",
    "qidui": "seven pairs",
}
_POSITIONS = {"zh": ("下家", "对家", "上家"), "en": ("Right", "Across", "Left")}
_BOT_NAMES = {"zh": {"strong": "高手", "greedy": "贪心", "random": "随机"},
              "en": {"strong": "strong", "greedy": "greedy", "random": "random"}}

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
_CJK_WORD = re.compile(r"\s*[^\s\w]*[\u3400-\u9fff][\u3400-\u9fff\w]*[^\s\w]*")


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def strip_cjk(text: str) -> str:
    """Drop the Chinese words of a bilingual line (``硬胡 hard ×2`` → ``hard ×2``)."""
    out = _CJK_WORD.sub("", text)
    return re.sub(r"\s{2,}", " ", out).strip()


def _kind(tile: int | str) -> int:
    return tile if isinstance(tile, int) else tile_from_str(tile)


def tile_short(tile: int | str, lang: Lang) -> str:
    """A compact label for the table: 五万 / 中 (zh), 5C / R (en)."""
    k = _kind(tile)
    if k >= 27:
        return _HONOR_CN_SHORT[k - 27] if lang == "zh" else _HONOR_EN_SHORT[k - 27]
    suit = "mps"[k // 9]
    n = k % 9
    if lang == "zh":
        return _NUM_CN[n] + _SUIT_CN[suit]
    return f"{n + 1}{_SUIT_EN_SHORT[suit]}"


def tile_long(tile: int | str, lang: Lang) -> str:
    """A tile in a sentence: 五万 / 红中 (zh), 5 Char / Red (en)."""
    k = _kind(tile)
    if k >= 27:
        return _HONOR_CN_LONG[k - 27] if lang == "zh" else _HONOR_EN_LONG[k - 27]
    suit = "mps"[k // 9]
    if lang == "zh":
        return _NUM_CN[k % 9] + _SUIT_CN[suit]
    return f"{k % 9 + 1} {_SUIT_EN[suit]}"


def run_label(base: int | str, lang: Lang) -> str:
    """A chow: 五六七条 (zh), 5-6-7 Bam (en)."""
    k = _kind(base)
    suit = "mps"[k // 9]
    n = k % 9
    if lang == "zh":
        return "".join(_NUM_CN[n + i] for i in range(3)) + _SUIT_CN[suit]
    return f"{n + 1}-{n + 2}-{n + 3} {_SUIT_EN[suit]}"


def wind_of(seat: int, dealer: int, lang: Lang) -> str:
    """The seat wind (the dealer is 东 / East)."""
    return _WINDS[lang][(seat - dealer) % 4]


def bot_name(name: str, lang: Lang) -> str:
    return _BOT_NAMES[lang].get(name, name)


def position_name(seat: int, human: int, lang: Lang) -> str:
    """下家 / 对家 / 上家 (Right / Across / Left) of a seat seen from the human."""
    return _POSITIONS[lang][(seat - human) % 4 - 1]


_SEAT_RE = re.compile(r"\bseats? (\d(?:, \d)*)")
_CODE_RE = re.compile(r"\b([1-9][mps]|[1-7]z)\b")


# English phrases of the scorer's breakdown lines that have no Chinese twin on the line.
_ZH_PHRASES = (
    ("all three unopened", "三家未开口"), ("pays for everyone", "包三家"), ("each pays", "每家付"),
    ("winner fan", "赢家番"), ("no fan", "无番"), ("unopened", "未开口"), ("pays", "付"),
    ("base", "底分"),
)
# A Chinese word followed by its English gloss: 开口 opened → 开口.
_GLOSS_RE = re.compile(r"([\u3400-\u9fff])( [A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z()-]*)*)")


def localize_line(line: str, dealer: int, names: Sequence[str], lang: Lang) -> str:
    """A scorer breakdown line (bilingual, ``开口 opened ×2``) in one language, with seats
    as labels and tile codes as words."""
    line = _SEAT_RE.sub(lambda m: ", ".join(seat_label(int(x), dealer, names, lang)
                                            for x in m.group(1).split(", ")), line)
    line = _CODE_RE.sub(lambda m: tile_long(m.group(1), lang), line)
    if lang == "en":
        line = re.sub(r"\b(" + "|".join(_BIG_EN) + r")\b", lambda m: _BIG_EN[m.group(1)], line)
        line = re.sub(r"\bdiscarder\b", "deal-in", line)  # the glossary's word (web/README.md)
        return strip_cjk(line)
    for en, zh in _ZH_PHRASES:
        line = re.sub(rf"\b{en}\b", zh, line)
    return _GLOSS_RE.sub(r"\1", line.replace("(half)", "(半)"))


def seat_label(seat: int, dealer: int, names: Sequence[str], lang: Lang) -> str:
    """东·你 / 南·高手 (zh); East·You (en)."""
    return f"{wind_of(seat, dealer, lang)}·{names[seat]}"


def special_kong_word(tile: int | str, lang: Lang) -> str:
    """A laid-aside tile's kong by its tile: 红中杠 / Red Dragon kong, 发财杠, 皮子杠 / pizi kong."""
    k = _kind(tile)
    if lang == "en":
        return "Red Dragon kong" if k == RED_DRAGON else ("Green Dragon kong" if k == GREEN_DRAGON else "pizi kong")
    return "红中杠" if k == RED_DRAGON else ("发财杠" if k == GREEN_DRAGON else "皮子杠")


def action_label(a: Action, lang: Lang) -> str:
    """A button: 吃 五六七条, 碰 五万, 打出 红中, 自摸, 过 (zh); Chow 5-6-7 Bam … (en)."""
    t = a.tile
    zh = lang == "zh"
    if a.type == "pass":
        return "过" if zh else "Pass"
    if a.type == "tsumo":
        return "自摸" if zh else "Self-draw win"
    if a.type == "draw":
        return "补牌" if zh else "Draw replacement"
    if a.type == "nodraw":
        return "不补" if zh else "No replacement"
    assert t is not None
    tl = tile_long(t, lang)
    if a.type == "chi":
        return f"吃 {run_label(t, lang)}" if zh else f"Chow {run_label(t, lang)}"
    if a.type == "special_kong":
        word = special_kong_word(t, lang)
        if zh:
            return f"{word} {tl}"
        # (a dragon's kong names its tile: "Red Dragon kong"; a pizi's says which: "Pizi kong 5 Char")
        return word if t in (RED_DRAGON, GREEN_DRAGON) else f"Pizi kong {tl}"
    words = {
        "discard": ("打出", "Discard"), "ron": ("胡", "Win on"), "peng": ("碰", "Pung"),
        "kong": ("杠", "Kong"), "ankong": ("暗杠", "Concealed kong"),
        "addkong": ("蓄杠", "Added kong"), "laizi_kong": ("赖子杠", "Laizi kong"),
    }
    w = words[a.type][0 if zh else 1]
    return f"{w} {tl}"


ACTION_ORDER = {"chi": 0, "peng": 1, "kong": 2, "ankong": 2, "addkong": 2, "special_kong": 2,
                "laizi_kong": 2, "ron": 3, "tsumo": 3, "draw": 3, "pass": 4, "nodraw": 4, "discard": 5}


def big_hand_name(key: str, lang: Lang) -> str:
    return BIG_HAND_NAMES.get(key, key) if lang == "zh" else _BIG_EN.get(key, key)


class _Ctx:
    """What a log line needs: the event, the language and the seat labels."""

    def __init__(self, e: Mapping[str, Any], me: int, dealer: int, names: Sequence[str],
                 lang: Lang) -> None:
        self.e, self.me, self.dealer, self.names, self.lang = e, me, dealer, names, lang
        self.zh = lang == "zh"

    def who(self, s: int) -> str:
        return seat_label(s, self.dealer, self.names, self.lang)

    def tl(self, key: str = "tile") -> str:
        return tile_long(self.e[key], self.lang)


def _start_hand(c: _Ctx) -> str:
    w = W[c.lang]
    e = c.e
    return w["hand_start"].format(
        hand=w["hand_no"].format(n=e["hand"]), round=w["round"].format(r=e.get("round", 1)),
        who=c.who(int(e["dealer"])), ind=c.tl("indicator"), lz=c.tl("laizi"))


def _draw(c: _Ctx, s: int) -> str:
    back = c.e.get("src") == "back"
    if "tile" in c.e:
        if c.zh:
            return f"{c.who(s)} {'补牌' if back else '摸到'} {c.tl()}"
        return f"{c.who(s)} {'draws a replacement' if back else 'draws'} {c.tl()}"
    if c.zh:
        return f"{c.who(s)} {'补牌' if back else '摸牌'}"
    return f"{c.who(s)} {'draws a replacement tile' if back else 'draws a tile'}"


def _discard(c: _Ctx, s: int) -> str:
    line = f"{c.who(s)} 打出 {c.tl()}" if c.zh else f"{c.who(s)} discards {c.tl()}"
    if c.e.get("as") == "laizi":
        line += "（赖子杠）" if c.zh else " (laizi kong)"
    elif c.e.get("as") == "special":
        line += f"（{special_kong_word(c.e['tile'], c.lang)}）" if c.zh else f" ({special_kong_word(c.e['tile'], c.lang)})"
    return line


def _claim(c: _Ctx, s: int) -> str:
    t = c.e["type"]
    frm = c.who(int(c.e["from"]))
    me = c.who(s)
    if t == "chi":
        run = run_label(c.e["run"], c.lang)
        return f"{me} 吃 {run}（{frm} 的 {c.tl()}）" if c.zh else f"{me} chows {run} ({c.tl()} from {frm})"
    if t == "peng":
        return f"{me} 碰 {c.tl()}（{frm}）" if c.zh else f"{me} pungs {c.tl()} from {frm}"
    return f"{me} 杠 {c.tl()}（明杠，{frm}）" if c.zh else f"{me} kongs {c.tl()} (exposed, from {frm})"


def _own_kong(c: _Ctx, s: int) -> str:
    t = c.e["type"]
    if t == "special_kong":
        word = special_kong_word(c.e["tile"], c.lang)
    else:
        word = {"ankong": ("暗杠", "concealed kong"), "addkong": ("蓄杠", "added kong"),
                "laizi_kong": ("赖子杠", "laizi kong")}[t][0 if c.zh else 1]
    return f"{c.who(s)} {word} {c.tl()}"


def _win(c: _Ctx, s: int) -> str:
    e = c.e
    by = e.get("by")
    if by == "self_draw":
        extra = ""
        if e.get("after_kong"):
            extra = "杠上开花" if c.zh else "after a kong"
        elif e.get("haidi"):
            extra = "海底捞月" if c.zh else "last tile"
        if c.zh:
            return f"{c.who(s)} 自摸 {c.tl()}！" + (f"（{extra}）" if extra else "")
        return f"{c.who(s)} self-draw win on {c.tl()}!" + (f" ({extra})" if extra else "")
    frm = c.who(int(e["from"]))
    if by == "rob_kong":
        return (f"{c.who(s)} 抢杠 胡 {c.tl()}（{frm}）" if c.zh
                else f"{c.who(s)} robs {frm}'s kong: wins on {c.tl()}!")
    return (f"{c.who(s)} 胡 {c.tl()}！{frm} 放冲" if c.zh
            else f"{c.who(s)} wins on {c.tl()}! deal-in by {frm}")


def _seat_flags(c: _Ctx, s: int) -> str | None:
    t = c.e["type"]
    if t == "auto":
        if s != c.me:
            return None  # the bots' seats are switched on at the start
        on = bool(c.e.get("on"))
        if c.zh:
            return f"{c.who(s)} {'托管' if on else '取消托管'}"
        return f"{c.who(s)} {'auto-play on' if on else 'auto-play off'}"
    if t == "escape":
        return f"{c.who(s)} 逃跑" if c.zh else f"{c.who(s)} left the match"
    if t == "response" and s == c.me and c.e["action"].get("type") == "pass":
        return f"{c.who(s)} 过" if c.zh else f"{c.who(s)} passes"
    if t == "replace" and not c.e.get("draw"):  # 补 shows as its draw from the back
        return f"{c.who(s)} 杠后不补牌" if c.zh else f"{c.who(s)} takes no replacement"
    return None


_SEAT_EVENTS = {
    "draw": _draw, "discard": _discard, "chi": _claim, "peng": _claim, "kong": _claim,
    "ankong": _own_kong, "addkong": _own_kong, "special_kong": _own_kong,
    "laizi_kong": _own_kong, "win": _win, "auto": _seat_flags, "escape": _seat_flags,
    "response": _seat_flags, "replace": _seat_flags,
}


def describe_event(e: Mapping[str, Any], me: int, dealer: int, names: Sequence[str],
                   lang: Lang) -> str | None:
    """One log line for one event of the seat's stream (``None``: not worth a line)."""
    c = _Ctx(e, me, dealer, names, lang)
    t = e["type"]
    if t == "start_hand":
        return _start_hand(c)
    if t == "ryukyoku":
        return W[lang]["drawn_hand"]
    if t == "end_match":
        return W[lang]["match_over"]
    fn = _SEAT_EVENTS.get(t)
    if fn is None or e.get("seat") is None:
        return None
    return fn(c, int(e["seat"]))


def scores_line(deltas: Sequence[float], dealer: int, names: Sequence[str], lang: Lang) -> str:
    items = "  ".join(f"{seat_label(s, dealer, names, lang)} {d:+g}" for s, d in enumerate(deltas))
    return W[lang]["scores_line"].format(items=items)
