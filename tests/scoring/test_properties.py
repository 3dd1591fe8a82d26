"""Property tests: the scorer never crashes, and every result is zero-sum and consistent."""

from __future__ import annotations

from dataclasses import asdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laizi.rules import PRESETS, RuleSet
from laizi.scoring import REASONS, Meld, PlayerTable, WinContext, score

SUITED = list(range(27))


@st.composite
def contexts(draw: st.DrawFn) -> WinContext:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = RuleSet.preset(preset)
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
    n_melds = draw(st.integers(0, 4))
    for i in range(4):
        shape = draw(st.sampled_from(["run", "triplet"]))
        if shape == "run":
            low = draw(st.sampled_from([k for k in SUITED if k % 9 <= 6]))
            kinds = [low, low + 1, low + 2]
        else:
            kinds = [draw(st.integers(0, 33))] * 3
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
    pair = draw(st.integers(0, 33))
    if take([pair, pair]):
        concealed.extend([pair, pair])
    # Turn some tiles into laizi (wildcards).
    for j in range(len(concealed)):
        if draw(st.integers(0, 9)) == 0 and used[setup.laizi] < 4:
            used[concealed[j]] -= 1
            used[setup.laizi] += 1
            concealed[j] = setup.laizi
    while len(concealed) + 3 * len(melds) < 14:
        k = draw(st.integers(0, 33))
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
    by = draw(st.sampled_from(["discard", "self_draw", "rob_kong"]))
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
        players.append(PlayerTable((), omelds, sk, (), draw(st.booleans())))
    return WinContext(
        rules=rules, setup=setup, dealer=dealer, winner=winner, tile=tile, by=by,  # type: ignore[arg-type]
        players=(players[0], players[1], players[2], players[3]), from_seat=from_seat,
        after_kong=by == "self_draw" and any(m.is_kong for m in melds) and draw(st.booleans()),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.filter_too_much])
@given(contexts())
def test_scores_are_zero_sum_and_consistent(ctx: WinContext) -> None:
    res = score(ctx)
    assert res.to_dict() == asdict(res)  # the engine's cheap copy keeps every field
    assert res.reason is None or res.reason in REASONS
    assert res.ok == (res.reason is None)
    assert abs(sum(res.payments)) < 1e-9
    if res.ok or res.reason == "below_minimum":
        assert res.payments[ctx.winner] > 0
        assert all(p <= 0 for s, p in enumerate(res.payments) if s != ctx.winner)
        assert res.small == (not res.big_hands)
        assert res.breakdown
        if res.liable is not None:
            assert [s for s, p in enumerate(res.payments) if p < 0] == [res.liable]
        cap_ceiling = 2 * max(ctx.rules.ha, ctx.rules.sunshine, ctx.rules.golden, ctx.rules.cap)
        assert all(-p <= 3 * cap_ceiling for p in res.payments)
    else:
        assert res.payments == [0, 0, 0, 0]
