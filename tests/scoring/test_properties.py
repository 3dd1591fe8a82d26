"""Property tests: the scorer never crashes, and every result is zero-sum and consistent.

The generator builds hands of sets + pair (some sets laid as melds) and, without melds,
seven pairs; the tiles come from one pool per hand (any kind, one suit, 风 or 将) so the
one-category big hands and 七对 actually occur. ``jiayu`` (七对, 门前清, unopened wins,
``liable_pays=golden``) gets a test of its own so it is always well covered.
"""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from laizi.rules import PRESETS, RuleSet
from laizi.scoring import (
    REASONS,
    Meld,
    PlayerTable,
    WinContext,
    payer_key,
    score,
    score_variants,
    settlement_bound,
)
from laizi.scoring.reading import FENG_KINDS, JIANG_KINDS

SUITED = list(range(27))
POOLS: dict[str, list[int]] = {
    "any": list(range(34)), "m": list(range(9)), "p": list(range(9, 18)),
    "s": list(range(18, 27)), "feng": sorted(FENG_KINDS), "jiang": sorted(JIANG_KINDS),
}
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.filter_too_much])


#: The sources' house rules (docs/rules.md §7.3-§7.5), drawn on top of a preset.
HOUSE = st.fixed_dictionaries({}, optional={
    "kuangfeng_baoyu": st.booleans(), "xiaoyu_258": st.booleans(),
    "qianggang_fixed": st.sampled_from([0, 100, 500]), "fengyise_golden": st.booleans(),
    "pay_min_fan": st.integers(0, 7), "sunshine_double": st.booleans(), "fanbao": st.booleans(),
    "quanqiuren_liability": st.sampled_from(["unless_ready", "always", "none"]),
    "liable_pays": st.sampled_from(["sum", "golden"]),
})


@st.composite
def contexts(draw: st.DrawFn, presets: tuple[str, ...] = tuple(sorted(PRESETS)),
             house: bool = False, fixed: dict[str, object] | None = None) -> WinContext:
    """``house``: draw the house rules too (``fixed`` of them set)."""
    preset = draw(st.sampled_from(presets))
    rules = RuleSet.preset(preset, **({**draw(HOUSE), **(fixed or {})} if house else {}))
    setup = rules.setup(indicator=draw(st.integers(0, 33)))
    used = [0] * 34
    if setup.indicator is not None:
        used[setup.indicator] += 1

    def take(kinds: list[int]) -> bool:
        for k in kinds:
            if used[k] + kinds.count(k) > 4 or (k in setup.special and draw(st.booleans())):
                return False
        for k in kinds:
            used[k] += 1
        return True

    winner = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    melds: list[Meld] = []
    concealed: list[int] = []
    pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    run_lows = [k for k in pool if k in SUITED and k % 9 <= 6 and k + 2 in pool]
    # (the house rules are mostly about 全求人: four melds and a discard, more often)
    n_melds = draw(st.sampled_from([4, 4, 4, 0, 1, 2, 3]) if house else st.integers(0, 4))
    pairs = n_melds == 0 and draw(st.booleans())  # seven pairs instead of sets + pair
    for i in range(0 if pairs else 4):
        shape = draw(st.sampled_from(["run", "triplet"] if run_lows else ["triplet"]))
        if shape == "run":
            low = draw(st.sampled_from(run_lows))
            kinds = [low, low + 1, low + 2]
        else:
            kinds = [draw(st.sampled_from(pool))] * 3
        if not take(kinds):
            kinds = []
        if i < n_melds and kinds and not any(k in setup.special or k == setup.laizi for k in kinds):
            if shape == "run":
                melds.append(Meld("chi", kinds[0], (winner - 1) % 4))
            else:
                mtype = draw(st.sampled_from(["peng", "kong", "ankong"]))
                if mtype != "peng":
                    if used[kinds[0]] >= 4:
                        mtype = "peng"
                    else:
                        used[kinds[0]] += 1
                frm = None if mtype == "ankong" else draw(
                    st.sampled_from([s for s in range(4) if s != winner]))
                melds.append(Meld(mtype, kinds[0], frm))  # type: ignore[arg-type]
        else:
            concealed.extend(kinds)
    for _ in range(7 if pairs else 1):
        pair = draw(st.sampled_from(pool))
        if take([pair, pair]):
            concealed.extend([pair, pair])
    # Turn some tiles into laizi (wildcards).
    for j in range(len(concealed)):
        if draw(st.integers(0, 9)) == 0 and used[setup.laizi] < 4:
            used[concealed[j]] -= 1
            used[setup.laizi] += 1
            concealed[j] = setup.laizi
    while len(concealed) + 3 * len(melds) < 14:
        free = [k for k in pool if used[k] < 4] or list(range(34))
        k = draw(st.sampled_from(free))
        if used[k] < 4:
            used[k] += 1
            concealed.append(k)
    while len(concealed) + 3 * len(melds) > 14:
        k = concealed.pop()
        used[k] -= 1
    if not concealed:
        melds.pop()
        for _ in range(3):
            k = next(k for k in range(34) if used[k] < 4)
            used[k] += 1
            concealed.append(k)
    idx = draw(st.integers(0, len(concealed) - 1))
    tile = concealed.pop(idx)
    by = draw(st.sampled_from(["discard", "discard", "self_draw", "rob_kong"] if house
                              else ["discard", "self_draw", "rob_kong"]))
    if by != "self_draw" and (tile == setup.laizi or tile in setup.special):
        by = "self_draw"
    from_seat = None if by == "self_draw" else draw(st.sampled_from([s for s in range(4) if s != winner]))
    players = []
    for s in range(4):
        if s == winner:
            players.append(PlayerTable(tuple(concealed), tuple(melds)))
            continue
        sk: tuple[int, ...] = ()
        omelds: tuple[Meld, ...] = ()
        if draw(st.booleans()) and used[33] < 4:
            used[33] += 1
            sk = (33,)
        if by == "rob_kong" and s == from_seat:
            if used[tile] < 4:
                used[tile] += 0  # the robbed peng holds the other copies (not counted here)
            omelds = (Meld("peng", tile, (s + 1) % 4 if (s + 1) % 4 != s else (s + 2) % 4),)
        elif draw(st.booleans()):
            k = draw(st.integers(0, 26))
            if used[k] <= 1 and k not in setup.special and k != setup.laizi:
                used[k] += 3
                omelds = (Meld("peng", k, (s + 2) % 4),)
        ohand: tuple[int, ...] = ()
        if house and s == from_seat and draw(st.booleans()):  # 下小雨's all-258 discarder
            ohand = tuple(k for k in draw(st.lists(st.sampled_from(sorted(JIANG_KINDS)), min_size=1,
                                                   max_size=4)) if take([k]))
        players.append(PlayerTable(ohand, omelds, sk, (), draw(st.booleans()),
                                   house and s == from_seat and draw(st.booleans())))
    return WinContext(
        rules=rules, setup=setup, dealer=dealer, winner=winner, tile=tile, by=by,  # type: ignore[arg-type]
        players=(players[0], players[1], players[2], players[3]), from_seat=from_seat,
        after_kong=by == "self_draw" and any(m.is_kong for m in melds) and draw(st.booleans()),
    )


def check_result(ctx: WinContext) -> None:
    """Zero-sum and consistent; big hands as the tiles say (RULES.md §6-§7)."""
    res = score(ctx)
    assert res.to_dict() == asdict(res)  # the engine's cheap copy keeps every field
    assert res.reason is None or res.reason in REASONS
    assert res.ok == (res.reason is None)
    assert abs(sum(res.payments)) < 1e-9
    if res.ok or res.reason == "below_minimum":
        # a winner always receives something, unless pay_min_fan spared every loser
        assert res.payments[ctx.winner] > 0 or (
            ctx.rules.pay_min_fan and all(r > -(2 ** ctx.rules.pay_min_fan) for r in res.raw))
        assert all(p <= 0 for s, p in enumerate(res.payments) if s != ctx.winner)
        assert res.small == (not res.big_hands)
        assert res.breakdown
        if res.liable is not None:
            payers = {s for s, p in enumerate(res.payments) if p < 0}
            if ctx.rules.kuangfeng_baoyu and len(payers) == 2:  # 狂风暴雨: + the 全求人 feeder
                assert {"qingyise", "quanqiuren"} <= set(res.big_hands)
                assert payers == {res.liable, ctx.from_seat} and ctx.by == "discard"
            else:
                assert payers <= {res.liable}
        # no seat receives or pays more than the rules' bound (what the hints clamp their
        # estimates to)
        assert all(abs(p) <= settlement_bound(ctx.rules) for p in res.payments)
        assert not {"qidui", "menqing"} <= set(res.big_hands)  # 七对 is never also 门前清
    else:
        assert res.payments == [0, 0, 0, 0]
    if res.ok:
        # Tile patterns hold whatever the winning shape (七对 included). Without a laizi every
        # reading represents exactly the tiles held, so the scored one must carry them.
        table = ctx.players[ctx.winner]
        kinds = {ctx.tile, *table.hand} | {t for m in table.melds for t in m.tiles()}
        if ctx.setup.laizi not in kinds:
            if len({k // 9 for k in kinds}) == 1 and max(kinds) < 27:
                assert "qingyise" in res.big_hands
            if ctx.rules.luan_feng_jiang and kinds <= FENG_KINDS:
                assert "fengyise" in res.big_hands
            if ctx.rules.luan_feng_jiang and kinds <= JIANG_KINDS:
                assert "jiangyise" in res.big_hands


@SETTINGS
@given(contexts())
def test_scores_are_zero_sum_and_consistent(ctx: WinContext) -> None:
    check_result(ctx)


@SETTINGS
@given(contexts(house=True))
def test_scores_with_house_rules_are_zero_sum_and_consistent(ctx: WinContext) -> None:
    check_result(ctx)


@SETTINGS
@given(contexts(presets=("jiayu",)))
def test_jiayu_scores_are_zero_sum_and_consistent(ctx: WinContext) -> None:
    check_result(ctx)


def test_jiayu_generator_reaches_stacked_seven_pairs() -> None:
    """The jiayu property test does meet 七对 wins stacked with a tile pattern (so the
    consistency checks above bite on them). Deterministic, no shrinking: the first hit."""
    tile_patterns = {"qingyise", "fengyise", "jiangyise"}

    def stacked(c: WinContext) -> bool:
        res = score(c)
        return res.ok and "qidui" in res.big_hands and bool(tile_patterns & set(res.big_hands))

    ctx = find(contexts(presets=("jiayu",)), stacked, settings=settings(
        max_examples=3000, database=None, deadline=None, derandomize=True,
        phases=[Phase.generate]))
    assert stacked(ctx)


def test_house_generator_reaches_the_house_rules() -> None:
    """The house-rule generator meets a 狂风暴雨 split, a 下小雨 all-258 exemption and a
    loser spared by pay_min_fan (so the checks above bite on them). Deterministic."""
    def storm(c: WinContext) -> bool:
        res = score(c)
        return res.ok and sum(1 for p in res.payments if p < 0) == 2 and res.liable is not None

    def spared(c: WinContext) -> bool:
        res = score(c)
        return res.ok and any(line.startswith("不到") for line in res.breakdown)

    def exempt(c: WinContext) -> bool:
        res = score(c)
        d = c.from_seat
        return (res.ok and res.big_hands == ["quanqiuren"] and res.liable is None
                and d is not None and bool(c.players[d].hand) and not c.players[d].ready)

    for goal, fixed in ((storm, {"kuangfeng_baoyu": True, "quanqiuren_liability": "always"}),
                        (spared, {"pay_min_fan": 7}),
                        (exempt, {"xiaoyu_258": True, "quanqiuren_liability": "unless_ready"})):
        ctx = find(contexts(house=True, fixed=fixed), goal, settings=settings(
            max_examples=4000, database=None, deadline=None, derandomize=True,
            phases=[Phase.generate]))
        assert goal(ctx)


@SETTINGS
@given(contexts(house=True), st.data())
def test_score_variants_equal_score_for_each_way_of_winning(ctx: WinContext, data: st.DataObject) -> None:
    """score_variants (the readings found once, hints.win_outcomes) = score() of each: the
    same tiles won by self-draw and from every other seat, with other tables varied."""
    variants = [replace(ctx, by="self_draw", from_seat=None)]
    for d in range(4):
        if d == ctx.winner:
            continue
        others = list(ctx.players)
        if data.draw(st.booleans()):  # another seat's table changes (its kongs): same tiles
            others[d] = replace(others[d], special_kongs=others[d].special_kongs + (ctx.setup.laizi,))
        variants.append(replace(ctx, by="discard", from_seat=d, players=tuple(others)))  # type: ignore[arg-type]
    got = score_variants(variants)
    assert [asdict(r) for r in got] == [asdict(score(c)) for c in variants]


def _alike(m: Meld, seat: int) -> Meld:
    """Another meld of the same type (its tiles and discarder changed)."""
    if m.type == "chi":
        return replace(m, tile=(m.tile + 9) % 27, from_seat=(seat + 3) % 4)
    tile = (m.tile + 9) % 27 if m.tile < 27 else 27 + (m.tile - 27 + 1) % 4
    return replace(m, tile=tile, from_seat=None if m.from_seat is None else (seat + 3) % 4)


@SETTINGS
@given(contexts(house=True), st.data())
def test_losers_tables_with_equal_payer_keys_score_alike(ctx: WinContext, data: st.DataObject) -> None:
    """payer_key is all the scorer reads of a loser's table (hints.WaitsMemo keeps a seat's
    scored waits while the others' keys stay): other melds of the same types, from other
    seats, and under 开口翻 (one opening's fan) a second chi of an opened seat, change no
    key and no score — and a key that changes is noticed by the scorer's payments."""
    players = list(ctx.players)
    for s in range(4):
        if s == ctx.winner or (ctx.by == "rob_kong" and s == ctx.from_seat):
            continue  # (the robbed seat's peng is the kong robbed: its tile is the win's)
        p = players[s]
        melds = tuple(_alike(m, s) for m in p.melds)
        if (ctx.rules.opening_fan == "once" and any(m.opens for m in melds)
                and data.draw(st.booleans())):
            melds += (Meld("chi", 0, (s + 1) % 4),)
        q = replace(p, melds=melds)
        laizi = ctx.setup.laizi
        assert payer_key(ctx.rules, laizi, q) == payer_key(ctx.rules, laizi, p)
        players[s] = q
    other = replace(ctx, players=tuple(players))
    assert asdict(score(other)) == asdict(score(ctx))


def test_payer_keys_differ_where_a_loser_pays_differently() -> None:
    """A peng opens a seat (开口: +1 under kaikoufan; 阳光 no more), an exposed kong adds a
    fan, a second peng under 口口翻 one more: each changes the key."""
    for preset, tables in (("kaikoufan", [(), ("peng",), ("peng", "kong")]),
                           ("koukoufan", [(), ("peng",), ("peng", "peng")])):
        rules = RuleSet.preset(preset)
        keys = [payer_key(rules, 31, PlayerTable(melds=tuple(Meld(t, 2 + 3 * i, 0) for i, t in enumerate(ts))))
                for ts in tables]
        assert len(set(keys)) == len(keys), preset


def test_score_variants_refuse_different_tiles() -> None:
    rules = RuleSet()
    setup = rules.setup(indicator=0)
    table = PlayerTable(hand=tuple([2, 2, 2, 3, 4, 5, 10, 11, 12, 20, 20, 20, 7]))
    ctx = WinContext(rules=rules, setup=setup, dealer=0, winner=0, tile=7, by="self_draw",
                     players=(table, PlayerTable(), PlayerTable(), PlayerTable()))
    assert score_variants([]) == []
    with pytest.raises(ValueError, match="differ"):
        score_variants([ctx, replace(ctx, tile=8)])
