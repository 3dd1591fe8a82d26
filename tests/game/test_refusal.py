"""The engine's win offers and HandState.tsumo_refusal agree with from-scratch calls of
the scorer (the engine's cheap pre-checks must never hide a legal win)."""

from __future__ import annotations

from collections import Counter

from laizi.analysis import can_win
from laizi.bots import make_bot
from laizi.bots.base import SeatView
from laizi.game import Action, HandState
from laizi.rules import RuleSet
from laizi.scoring import PlayerTable, WinContext, score


def tables(state: HandState, winner: int, hand: list[int], ready_seat: int | None = None,
           ) -> tuple[PlayerTable, PlayerTable, PlayerTable, PlayerTable]:
    """The four players' tables for a win of ``winner`` holding ``hand`` (counts)."""
    t = [
        PlayerTable(
            hand=tuple(k for k in range(34) for _ in range((hand if s == winner else state.hands[s])[k])),
            melds=tuple(state.melds[s]), special_kongs=tuple(state.special_kongs[s]),
            special_discards=tuple(state.special_discards[s]),
            ready=s == ready_seat, fanbao=state.fanbao[winner] == s)
        for s in range(4)
    ]
    return (t[0], t[1], t[2], t[3])


def reference(state: HandState) -> str | None:
    """The scorer's reason for refusing 自摸 on a complete, opened, special-free hand."""
    seat = state.turn
    if state.phase != "turn" or state.after_claim or state.last_draw is None:
        return None
    if not state.opened(seat) or any(state.hands[seat][k] for k in state.setup.special):
        return None
    h = state.hands[seat]
    nat = list(h)
    lz = state.setup.laizi
    nat[lz] = 0
    if not can_win(nat, h[lz]):
        return None
    without = list(h)
    without[state.last_draw] -= 1
    ctx = WinContext(rules=state.rules, setup=state.setup, dealer=state.dealer, winner=seat,
                     tile=state.last_draw, by="self_draw",
                     players=tables(state, seat, without),
                     after_kong=state.after_kong)
    res = score(ctx)
    return "ok" if res.ok else (res.reason or "not_a_win")


def ron_ok(state: HandState, seat: int) -> bool:
    """Whether the scorer accepts ``seat`` winning on the tile under claim."""
    tile = state.pending
    assert tile is not None
    h = list(state.hands[seat])
    ready = False
    melds = state.melds[seat]
    if len(melds) == 4 and all(m.type != "ankong" for m in melds):
        ready = state.is_ready(state.turn)
    players = tables(state, seat, h, ready_seat=state.turn if ready else None)
    by = "discard" if state.phase == "claim" else "rob_kong"
    ctx = WinContext(rules=state.rules, setup=state.setup, dealer=state.dealer, winner=seat,
                     tile=tile, by=by, players=players,  # type: ignore[arg-type]
                     from_seat=state.turn)
    return score(ctx).ok


def test_win_offers_and_refusals_match_the_scorer() -> None:
    reasons: Counter[str] = Counter()
    wins_offered = 0
    for preset in ("kaikoufan", "koukoufan", "qipisilai"):
        rules = RuleSet.preset(preset)
        for i in range(60):
            st = HandState.new(rules, i % 4, seed=bytes([i, len(preset)]) * 16)
            bots = [make_bot("strong" if s % 2 else "greedy", s) for s in range(4)]
            while not st.over:
                for seat in st.to_act():
                    legal = st.legal_actions(seat)
                    if st.phase == "turn":
                        got = st.tsumo_refusal()
                        want = reference(st)
                        assert (Action("tsumo") in legal) == (want == "ok")
                        assert got == (None if want == "ok" else want)
                        if got is not None:
                            reasons[got] += 1
                    elif st.phase in ("claim", "rob") and not st.rules.guoshou:
                        offered = any(a.type == "ron" for a in legal)
                        assert offered == ron_ok(st, seat)
                        wins_offered += offered
                    st.apply(seat, bots[seat].act(SeatView.from_state(st, seat, legal)))
                    if st.over:
                        break
    # the comparison covered refusals of more than one kind
    assert len(reasons) >= 2, reasons
    assert wins_offered > 20
