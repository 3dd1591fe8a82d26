"""The scorer: RULES.md §6 checks 1-7 and §7 scoring, with an itemised breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from laizi.analysis.decompose import decompositions, has_sets_only, seven_pairs_wilds
from laizi.analysis.fast import can_win
from laizi.rules import RuleSet
from laizi.scoring.model import (
    REASONS,
    PlayerTable,
    ScoreResult,
    WinContext,
)
from laizi.scoring.patterns import BIG_HAND_NAMES, PATTERNS
from laizi.scoring.reading import FENG_KINDS, JIANG_KINDS, Reading
from laizi.scoring.tablefan import table_fan_items
from laizi.tiles import NUM_KINDS

__all__ = ["score", "score_variants", "readings", "seat_fan", "is_open_for_sunshine",
           "payer_key", "settlement_bound"]

WAIVES_258: Final = frozenset({"pengpeng", "qingyise", "fengyise", "jiangyise", "qidui"})


# ----------------------------------------------------------------------------- readings
def readings(ctx: WinContext) -> list[Reading]:
    """Every distinct way the winner's tiles make a winning shape (check 1)."""
    table = ctx.players[ctx.winner]
    laizi = ctx.setup.laizi
    counts = _counts(ctx)
    meld_counts = [0] * NUM_KINDS
    meld_kinds: set[int] = set()
    for m in table.melds:
        for t in m.tiles():
            meld_counts[t] += 1
            meld_kinds.add(t)
    n_laizi = counts[laizi]
    rules = ctx.rules
    out: list[Reading] = []
    seen: set[tuple[object, ...]] = set()

    def add(r: Reading) -> None:
        d = r.decomposition
        key = (r.shape, r.hard, r.kinds, None if d is None else (d.code or d.groups))
        if key not in seen:
            seen.add(key)
            out.append(r)

    for wild in range(n_laizi + 1):
        nat = list(counts)
        nat[laizi] = n_laizi - wild
        if can_win(nat, wild):
            limit = None
            if not rules.laizi_may_be_fifth:
                limit = [4 - x - y if x + y < 4 else 0 for x, y in zip(nat, meld_counts, strict=True)]
            for d in decompositions(nat, wild, forbidden=ctx.setup.special, limit=limit):
                kinds = set(meld_kinds)
                for g in d.groups:
                    kinds.update(g.kinds())
                add(Reading("regular", wild == 0, frozenset(kinds), d))
        if rules.jiayu_hands and not table.melds and seven_pairs_wilds(nat, wild):
            kinds = {k for k in range(NUM_KINDS) if nat[k]}
            add(Reading("qidui", wild == 0, frozenset(kinds)))
    if rules.luan_feng_jiang:
        natural_kinds = {k for k in range(NUM_KINDS) if counts[k] and k != laizi} | meld_kinds
        for shape, category in (("luan_feng", FENG_KINDS), ("luan_jiang", JIANG_KINDS)):
            if not natural_kinds <= category:
                continue
            if n_laizi and laizi in category:
                add(Reading(shape, True, frozenset(natural_kinds | {laizi})))  # type: ignore[arg-type]
            else:
                add(Reading(shape, n_laizi == 0, frozenset(natural_kinds)))  # type: ignore[arg-type]
    return out


# -------------------------------------------------------------------------------- fan
def is_open_for_sunshine(p: PlayerTable, rules_kong_avoids: bool) -> bool:
    """Opened (开口) for 阳光: a chi, peng or exposed kong (or any kong with the option)."""
    if p.opened:
        return True
    if rules_kong_avoids:
        return bool(p.special_kongs or p.special_discards or any(m.is_kong for m in p.melds))
    return False


def seat_fan(ctx: WinContext, seat: int) -> list[tuple[str, int]]:
    """A seat's own-table fan items (opening, kongs, special and laizi kongs):
    :func:`laizi.scoring.tablefan.table_fan_items` of its table."""
    p = ctx.players[seat]
    return table_fan_items(ctx.rules, ctx.setup.laizi, p.melds, p.special_kongs,
                           p.special_discards)


def payer_key(rules: RuleSet, laizi: int, p: PlayerTable) -> tuple[object, ...]:
    """All that a seat's table counts for when *another* seat wins: the scorer reads a
    loser's table only through its fan items (:func:`seat_fan`), whether it is open for
    阳光 (:func:`is_open_for_sunshine`) and the liability facts (``ready``, ``fanbao``, its
    hand for 下小雨). Two wins of the same winner's tiles whose losers' tables have equal
    keys, seat by seat, score alike; two discarders with equal keys, neither the dealer,
    pay alike (the same amounts, the seats' numbers aside)."""
    items = table_fan_items(rules, laizi, p.melds, p.special_kongs, p.special_discards)
    return (tuple(items), is_open_for_sunshine(p, rules.kong_avoids_sunshine), p.ready, p.fanbao,
            p.hand)


def _fmt(x: float) -> float | int:
    r = round(x, 1)
    return int(r) if r == int(r) else r


def _mult(n: int) -> str:
    return f"×{2 ** n}" if n else "×1"


# ------------------------------------------------------------------------- payments
def _price(ctx: WinContext, big: list[str], hard: bool) -> ScoreResult:
    """Price one reading (RULES.md §7): base, fan, raw amounts, caps, 对罚, liability."""
    small = not big
    base, base_line = _base(ctx, big)
    lines = [base_line]
    selfdraw_factor = ctx.by == "self_draw" and (
        not (ctx.after_kong or ctx.haidi) or ctx.rules.selfdraw_bonus_on_gangkai_haidi
    )
    w_items = _winner_fan(ctx, small, hard, selfdraw_factor)
    wfan = sum(n for _, n in w_items)
    for name, n in w_items:
        lines.append(f"{name} {_mult(n)}")
    lines.append(f"winner fan {wfan}: {base} × 2^{wfan} = {_fmt(base * 2 ** wfan)}")
    loser_fan, raw = _loser_raws(ctx, small, base, wfan, selfdraw_factor, lines)
    if ctx.rules.fengyise_golden and "fengyise" in big:
        cap = ctx.rules.cap
        raw = [r if s == ctx.winner else max(r, float(cap)) for s, r in enumerate(raw)]
        lines.append(f"风一色算金顶 all-honours counts as reaching the cap {cap}")
    pay, topped = _capped(ctx, raw, lines)
    liable = _liable(ctx, big)
    storm = _storm(ctx, big, liable)
    payments = _settle(ctx, pay, liable, lines, storm, len(big))
    return ScoreResult(
        ok=True,
        reason=None,
        big_hands=list(big),
        small=small,
        hard=hard,
        base=base,
        winner_fan=wfan,
        loser_fan=loser_fan,
        raw=[-_fmt(x) if x else 0 for x in raw],
        payments=[_fmt(x) + 0 for x in payments],
        liable=liable,
        topped_out=topped,
        breakdown=lines,
    )


def _base(ctx: WinContext, big: list[str]) -> tuple[int, str]:
    """§7.1: the base and its breakdown line."""
    if not big:
        return 1, "屁胡 small hand: base 1"
    n = len(big)
    base = 10 * (2 ** (n - 1)) if ctx.rules.big_stack == "double" else 10 * n
    names = " + ".join(f"{BIG_HAND_NAMES[b]} {b}" for b in big)
    return base, f"{names}: base {base}"


def _winner_fan(
    ctx: WinContext, small: bool, hard: bool, selfdraw_factor: bool,
) -> list[tuple[str, int]]:
    """§7.2: the winner's fan items."""
    rules = ctx.rules
    items = seat_fan(ctx, ctx.winner)
    if hard:
        items.append(("硬胡 hard", 1))
    if small and rules.small_hand_fan:
        items.append(("屁胡 small-hand fan", rules.small_hand_fan))
    if small and ctx.by == "self_draw":
        items.append(("自摸 self-draw", 1))
    if not small and rules.big_factor == "fan" and selfdraw_factor:
        items.append(("自摸 self-draw", 1))
    return items


def _loser_raws(
    ctx: WinContext, small: bool, base: int, wfan: int, selfdraw_factor: bool,
    lines: list[str],
) -> tuple[list[int], list[float]]:
    """§7.2: each loser's fan and raw amount (the winner's stay 0); appends the lines."""
    rules = ctx.rules
    loser_fan = [0, 0, 0, 0]
    raw = [0.0, 0.0, 0.0, 0.0]
    for s in range(4):
        if s == ctx.winner:
            continue
        items = seat_fan(ctx, s)
        discarder = ctx.by in ("discard", "rob_kong") and ctx.from_seat == s
        if small:
            if ctx.by == "discard" and discarder:
                items.append(("放冲 discarder", 1))
            if ctx.winner == ctx.dealer or s == ctx.dealer:
                items.append(("庄 dealer", 1))
        elif rules.big_factor == "fan" and discarder:
            items.append(("放冲 discarder" if ctx.by == "discard" else "被抢杠 robbed", 1))
        lf = sum(n for _, n in items)
        loser_fan[s] = lf
        factor = 1.0
        if not small and rules.big_factor == "multiply" and (selfdraw_factor or discarder):
            factor = 1.5
        amount = base * 2 ** (wfan + lf) * factor
        raw[s] = amount
        desc = ", ".join(f"{name} +{n}" for name, n in items) or "no fan"
        extra = " ×1.5" if factor != 1.0 else ""
        lines.append(f"seat {s}: {desc} → {base} × 2^{wfan + lf}{extra} = {_fmt(amount)}")
    return loser_fan, raw


def _capped(ctx: WinContext, raw: list[float], lines: list[str]) -> tuple[dict[int, float], bool]:
    """§7.3: each loser's payment after the caps (封顶, 金顶, 阳光顶, 哈顶) and 对罚, and
    whether the hand topped out (all three raw amounts ≥ cap); appends the lines."""
    rules = ctx.rules
    losers = [s for s in range(4) if s != ctx.winner]
    pay = {s: min(raw[s], float(rules.cap)) for s in losers}
    opened = {s: is_open_for_sunshine(ctx.players[s], rules.kong_avoids_sunshine) for s in losers}
    topped = all(raw[s] >= rules.cap for s in losers)
    if topped:
        if not any(opened.values()):
            for s in losers:
                pay[s] = float(rules.ha)
            lines.append(f"哈顶 ha: all three unopened, each pays {rules.ha}")
        else:
            for s in losers:
                pay[s] = float(rules.golden if opened[s] else rules.sunshine)
            sun = [s for s in losers if not opened[s]]
            msg = f"金顶 golden {rules.golden}"
            if sun:
                msg += f" · 阳光顶 sunshine {rules.sunshine} (seat {', '.join(map(str, sun))} unopened)"
            lines.append(msg)
    elif any(raw[s] > rules.cap for s in losers):
        capped = [s for s in losers if raw[s] > rules.cap]
        lines.append(f"封顶 cap {rules.cap} (seat {', '.join(map(str, capped))})")
    if rules.pay_min_fan:
        floor = 2 ** rules.pay_min_fan
        free = [s for s in losers if raw[s] < floor]
        for s in free:
            pay[s] = 0.0
        if free:
            lines.append(f"不到{rules.pay_min_fan}番不用付 under {floor} pays nothing "
                         f"(seat {', '.join(map(str, free))})")
    if rules.sunshine_double:
        for s in losers:
            if not opened[s]:
                pay[s] *= 2
                lines.append(f"对罚 seat {s} unopened pays ×2 = {_fmt(pay[s])}")
    return pay, topped


def settlement_bound(rules: RuleSet) -> float:
    """The most one hand's settlement can move for one seat under ``rules``: a seat never
    receives nor pays more than this in a hand (RULES.md §7.3 and §7.5, as :func:`_capped`
    and :func:`_settle` price it).

    A loser pays at most ``golden`` (opened, topped out) or, unopened, ``cap``, ``sunshine``
    or ``ha``, doubled under ``sunshine_double``; the winner receives the three payments — or
    a liable seat's one (their sum, ``golden`` under ``liable_pays=golden``, or
    ``qianggang_fixed`` for a robbed kong) —, and a liable seat pays what the winner receives.

    >>> settlement_bound(RuleSet.preset("jiayu"))
    600.0
    """
    double = 2 if rules.sunshine_double else 1
    per_loser = max(rules.golden, double * max(rules.cap, rules.sunshine, rules.ha))
    return float(max(3 * per_loser, rules.qianggang_fixed))


def _settle(
    ctx: WinContext, pay: dict[int, float], liable: int | None, lines: list[str],
    storm: int | None = None, n_big: int = 0,
) -> list[float]:
    """§7.5: the signed payments per seat, the liable seat paying for everyone; under
    狂风暴雨 the 全求人 feeder ``storm`` pays one big hand's share of it."""
    payments = [0.0, 0.0, 0.0, 0.0]
    rules = ctx.rules
    if liable is not None:
        if ctx.by == "rob_kong" and rules.qianggang_fixed:
            total = float(rules.qianggang_fixed)
            lines.append(f"抢杠固定 robbed kong pays the fixed {rules.qianggang_fixed}")
        elif rules.liable_pays == "golden":
            total = float(rules.golden)
        else:
            total = sum(pay.values())
        if storm is not None:
            share = total / n_big
            payments[storm] = -share
            payments[liable] = -(total - share)
            lines.append(f"狂风暴雨 two liable: seat {liable} pays 清一色 {_fmt(total - share)}, "
                         f"seat {storm} pays 全求人 {_fmt(share)} (1/{n_big} of {_fmt(total)})")
        else:
            payments[liable] = -total
            lines.append(f"包 liable: seat {liable} pays for everyone {_fmt(total)}")
    else:
        for s, amount in pay.items():
            payments[s] = -amount
    payments[ctx.winner] = -sum(payments)
    return payments


def _liable(ctx: WinContext, big: list[str]) -> int | None:
    rules = ctx.rules
    if ctx.by == "rob_kong":
        return ctx.from_seat
    if "qingyise" in big:
        if rules.fanbao:
            for s in range(4):
                if s != ctx.winner and ctx.players[s].fanbao:
                    return s
        openings = [m for m in ctx.players[ctx.winner].melds if m.opens]
        if len(openings) >= 3:
            return openings[2].from_seat
    if big == ["quanqiuren"]:
        return _quanqiuren_feeder(ctx)
    return None


def _quanqiuren_feeder(ctx: WinContext) -> int | None:
    """The discarder liable for a 全求人 (§7.5 step 3), or None: per
    ``quanqiuren_liability``; 下小雨 spares a ready discarder and, with ``xiaoyu_258``,
    one whose concealed hand is all natural suited 2/5/8 (a laizi is not a 258 tile)."""
    d = ctx.from_seat
    if ctx.by != "discard" or d is None:
        return None
    mode = ctx.rules.quanqiuren_liability
    if mode == "none":
        return None
    if mode == "unless_ready":
        p = ctx.players[d]
        if p.ready:
            return None
        if ctx.rules.xiaoyu_258 and p.hand and all(
                t in JIANG_KINDS and t != ctx.setup.laizi for t in p.hand):
            return None
    return d


def _storm(ctx: WinContext, big: list[str], liable: int | None) -> int | None:
    """狂风暴雨 (``kuangfeng_baoyu``, S0): a 清一色 that is also 全求人 has a second liable
    seat, the 全求人 feeder, when it is another seat than the 清一色 liable one."""
    if not ctx.rules.kuangfeng_baoyu or liable is None or ctx.by == "rob_kong":
        return None
    if "qingyise" not in big or "quanqiuren" not in big:
        return None
    feeder = _quanqiuren_feeder(ctx)
    return feeder if feeder is not None and feeder != liable else None


def _minimum_ok(ctx: WinContext, raw: list[float]) -> bool:
    amounts = sorted((-r for s, r in enumerate(raw) if s != ctx.winner), reverse=True)
    m = ctx.rules.min_points
    if ctx.rules.min_rule == "each":
        return all(a >= m for a in amounts)
    if ctx.rules.min_rule == "any":
        return amounts[0] >= m
    return amounts[0] + amounts[1] >= m


# ------------------------------------------------------------------------------ score
def score(ctx: WinContext) -> ScoreResult:
    """Check and score a declared win (RULES.md §6-§7)."""
    return _score(ctx, readings(ctx))


def score_variants(ctxs: Sequence[WinContext]) -> list[ScoreResult]:
    """:func:`score` of each of several declared wins of the same tiles — the same rules,
    table setup, winner, hand, melds and winning tile; how it is won (self-draw or which
    discarder) and the other seats' tables may differ. The winner's readings (check 1, most
    of a score's cost) are found once for all of them."""
    if not ctxs:
        return []
    first = ctxs[0]
    mine = first.players[first.winner]
    for c in ctxs[1:]:
        t = c.players[c.winner]
        if ((c.rules is not first.rules and c.rules != first.rules)
                or (c.setup is not first.setup and c.setup != first.setup) or c.winner != first.winner
                or c.tile != first.tile or t.hand != mine.hand or t.melds != mine.melds):
            raise ValueError("score_variants: the wins differ in more than how they are won")
    found = readings(first)
    # Checks 2-5 and the big hands read the winner's own table and how the hand was won, never
    # the losers' tables or who discarded: wins from different discarders share them.
    checked: dict[tuple[object, ...], list[tuple[int, Reading, list[str]]]] = {}
    out = []
    for c in ctxs:
        k = (c.by, c.after_kong, c.haidi, c.players[c.winner])
        ev = checked.get(k)
        if ev is None:
            ev = checked[k] = _evaluate(c, found, _counts(c))
        out.append(_score(c, found, ev))
    return out


def _counts(ctx: WinContext) -> list[int]:
    """The winner's concealed tiles with the winning tile, as counts."""
    counts = [0] * NUM_KINDS
    for t in ctx.players[ctx.winner].hand:
        counts[t] += 1
    counts[ctx.tile] += 1
    return counts


def _evaluate(ctx: WinContext, all_readings: list[Reading],
              counts: list[int]) -> list[tuple[int, Reading, list[str]]]:
    """Each reading with its big hands and how many of checks 1-5 it passes (in order);
    ``counts``: :func:`_counts` of the win."""
    rules = ctx.rules
    table = ctx.players[ctx.winner]
    holds_special = any(counts[k] for k in ctx.setup.special)
    opened = table.opened or rules.jiayu_hands
    n_laizi = counts[ctx.setup.laizi]
    evaluated: list[tuple[int, Reading, list[str]]] = []  # (checks passed, reading, big)
    for r in all_readings:
        big = [p.ID for p in PATTERNS if p.detect(r, ctx)]
        passed = 1
        for ok in (
            not holds_special,
            opened,
            n_laizi < 2 or bool(big),
            bool(WAIVES_258.intersection(big)) or r.pair_258_natural(),
        ):
            if not ok:
                break
            passed += 1
        evaluated.append((passed, r, big))
    return evaluated


def _score(ctx: WinContext, all_readings: list[Reading],
           evaluated: list[tuple[int, Reading, list[str]]] | None = None) -> ScoreResult:
    if not all_readings:
        return ScoreResult(ok=False, reason="not_a_win")
    rules = ctx.rules
    counts = _counts(ctx)
    if evaluated is None:
        evaluated = _evaluate(ctx, all_readings, counts)

    # Check 6, 见字胡: decided on the whole hand.
    if ctx.by == "discard" and rules.jianzi_hu:
        through5 = [(r, big) for passed, r, big in evaluated if passed == 5]
        pre = list(counts)
        pre[ctx.tile] -= 1
        laizi = ctx.setup.laizi
        if through5 and pre[laizi] == 1:
            pre[laizi] = 0
            if has_sets_only(pre) and all(
                r.pairs_win_tile_with_wild(ctx.tile) and WAIVES_258.intersection(big)
                for r, big in through5
            ):
                r, big = through5[0]
                return ScoreResult(
                    ok=False, reason="jianzi_on_discard", big_hands=list(big), small=not big,
                    hard=r.hard,
                    breakdown=["见字胡 a lone laizi waiting on any tile wins only by self-draw"],
                )

    candidates: list[tuple[tuple[bool, float, int, bool], ScoreResult]] = []
    priced: set[tuple[tuple[str, ...], bool]] = set()
    for passed, r, big in evaluated:
        if passed < 5 or (tuple(big), r.hard) in priced:
            continue
        priced.add((tuple(big), r.hard))
        res = _price(ctx, big, r.hard)
        min_ok = _minimum_ok(ctx, res.raw)
        if not min_ok:
            res.ok = False
            res.reason = "below_minimum"
            res.breakdown.append(f"起胡 below the minimum {rules.min_points} ({rules.min_rule})")
        candidates.append(((min_ok, res.total, len(big), r.hard), res))
    if candidates:
        return max(candidates, key=lambda c: c[0])[1]
    passed, r, big = max(evaluated, key=lambda e: e[0])
    return ScoreResult(ok=False, reason=REASONS[passed], big_hands=list(big), small=not big, hard=r.hard)

