"""智能提示 — hints for one seat, computed from that seat's view only.

:func:`hints_for` returns a JSON-ready list, best first:

- on the seat's own turn, one entry per legal discard: the shanten it leaves, its
  waits (each with the copies still unseen from the seat's point of view and what a
  win on it would pay — self-drawn and on a discard — from the scorer, so whether
  it reaches the minimum 起胡), and an estimated value; plus entries for the kongs
  and a self-drawn win when legal;
- in a claim window, one entry per claim (win, kong, peng, chi, pass) with the
  shanten before and after and whether to take it.

Each entry has ``action`` (the action's JSON, ready to send back), ``label``,
``recommended`` (exactly one entry is), and ``kind`` (``discard``, ``kong``,
``win``, ``claim``, ``pass``). The recommendation is the ``expert`` bot's choice
(``strong`` with discards broken by tile acceptance: :mod:`laizi.bots.expert_rules`).
The figures below come from another model; when another entry shows at least
:data:`DIFFERS_BY` more expected points than the ★, the ★'s entry has ``differs``
(``{"zh", "en"}``: why they differ), shown under the hint panel.

**Numbers** (:mod:`laizi.bots.outlook`, a model fitted on simulated hands and checked
for calibration on fresh ones; every figure from the seat's view only). Discards,
kongs, claims and pass carry, for the hand they leave (claims: after the claim and
its best discard, ``then_discard``):

- ``shanten_258``: shanten with a 2/5/8 pair (0 = ready); ``shanten`` keeps its old
  meaning (any pair);
- ``improving``: ``[{"tile", "copies", "unseen"}]`` — the tiles that lower it (when
  ready: the winning tiles), copies not in the seat's own hand and melds, and copies
  still unseen; ``improving_tiles`` / ``improving_unseen`` their sums;
- ``win_prob``: the chance to win the hand before the wall runs out;
- ``expected_points``: the seat's expected settlement for the hand (losses included),
  never beyond what a hand can move a seat's points (:func:`shown_points`: the model's
  estimate held to the rules' :func:`laizi.scoring.settlement_bound`);
- discards: ``danger`` = ``{"feed_prob", "cost", "expected_loss", "level"}`` — the
  chance the tile is won on at once, the mean loss if it is (held to the same bound), their
  product, and
  ``low`` / ``medium`` / ``high``; ``counts_as_kong`` for a laizi or special tile, and
  ``kong_fan``: the table fan that discard adds (§7.2: a special tile +1, a laizi +2 or
  +1 by ``laizi_discard``; 0 for another tile);
- claims: ``vs_pass`` = the differences in ``win_prob`` and ``expected_points``;
- wins: ``win_prob`` 1 and, when scored, ``expected_points`` = what the win pays;
- ``reason``: ``{"zh", "en"}`` — the same in words, e.g. ``一向听，进张 12 张（还剩 9 张），
  胡牌率 31%，期望 +18 分；此牌危险度低``.

The chances and points assume the rest of the hand is played about as well as the
``strong`` bot plays it (the fit's players) under the kaikoufan preset; for other
presets they are an approximation.

:func:`hand_hints` is the same for a hand given as text (``laizi hint``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from laizi.analysis.profiles import HandEval
from laizi.bots.expert import ExpertBot
from laizi.bots.outlook import Outlook, danger_of, hand_outlook
from laizi.bots.outlook_words import (
    claim_reason,
    discard_reason,
    hand_reason,
    kong_reason,
    pass_reason,
    win_reason,
)
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import completing_kinds, natural, tiles_after_claim
from laizi.game.actions import Action
from laizi.rules import RuleSet, TableSetup
from laizi.scoring import (
    Meld,
    PlayerTable,
    WinContext,
    payer_key,
    score_variants,
    settlement_bound,
    table_fan,
)
from laizi.scoring.request import check_meld
from laizi.tiles import NUM_KINDS, TILE_STR, Tile, parse_tiles
from laizi.views import SeatView

__all__ = ["WaitsMemo", "hand_hints", "hints_for", "may_wait", "ready_waits", "shown_points",
           "win_outcomes"]

_TILE = TILE_STR  # the one tile-string table (laizi.tiles)


def _as_view(view: SeatView | Mapping[str, Any], rules: RuleSet | None) -> SeatView:
    if isinstance(view, SeatView):
        return view
    return SeatView.from_json(view, rules)


def ready_waits(view: SeatView, *, scores: bool = False,
                memo: WaitsMemo | None = None) -> list[dict[str, Any]]:
    """听牌: when the seat's own 3n+1 hand is ready, its winning tiles with the copies still
    unseen from its view (``[{"tile", "unseen"}]``, the table's 听牌 line); [] otherwise —
    on its own turn (3n+2 tiles) too.

    ``scores``: each wait also carries what a win on it would pay, from the scorer on the hand
    completed with that tile and the seat's view only (:func:`win_outcomes` with the
    breakdown): ``self_draw`` and ``discard`` (the worst discarder) as ``{"ok", "reason",
    "total", "big_hands", "breakdown"}``, and ``enough`` (够番: one of them reaches 起胡).
    Waits that are no win at all (a shape the scorer refuses outright) are left out.
    ``memo``: the table's own :class:`WaitsMemo` (a server room keeps one), else a cache
    shared by every caller."""
    if view.spectator or sum(view.hand) % 3 != 1:
        return []
    if not scores:
        kinds = completing_kinds(view, view.hand)
        unseen = view.unseen() if kinds else []
        return [{"tile": _TILE[k], "unseen": unseen[k]} for k in kinds]
    scored = _scored_waits(view, memo)
    if not scored:  # (most hands wait on nothing)
        return []
    unseen = view.unseen()
    counts = tuple(unseen[k] for k, _ in scored)
    if memo is not None:  # the same waits as last time: the same list (a frame's diff is then free)
        shown = memo.shown.get(view.seat)
        if shown is not None and shown[0] is scored and shown[1] == counts:
            return shown[2]
    out = [{"tile": _TILE[k], "unseen": n, **o} for (k, o), n in zip(scored, counts, strict=True)]
    if memo is not None:
        memo.shown[view.seat] = (scored, counts, out)
    return out


# The waits' scores depend only on the seat's hand and every seat's public table: a frame is
# built for each seat at every change of the table, so they are kept for the tables last seen
# (benchmarks/bench_waits.py, results/bench_waits.txt: a ready view scored afresh takes 0.7 ms
# CPU at the median, 8 ms for a hand waiting on 33 kinds).
_SCORED: OrderedDict[tuple[Any, ...], list[tuple[int, dict[str, Any]]]] = OrderedDict()
_SCORED_MAX = 512


class WaitsMemo:
    """The scored waits last found for each seat of one table. A server keeps one per room:
    with hundreds of tables the shared cache would drop a seat's entry before the table's
    next change (benchmarks/bench_frames.py: 500 tables, 1.6× the frame CPU)."""

    __slots__ = ("kinds", "last", "shown")

    def __init__(self) -> None:
        # each seat's waiting kinds, with the hand (and own melds) they were found for
        self.kinds: dict[int, tuple[tuple[Any, ...], list[int]]] = {}
        # each seat's scored waits, with the view they were scored from and the other seats'
        # payer keys then (another seat's table that pays alike changes nothing)
        self.last: dict[int, tuple[tuple[Any, ...], list[tuple[int, dict[str, Any]]],
                                   tuple[object, ...]]] = {}
        # the list last returned for each seat, with the scored waits and unseen counts it was
        # made of (callers do not change it: a server's frames keep it as their base)
        self.shown: dict[int, tuple[list[tuple[int, dict[str, Any]]], tuple[int, ...],
                                    list[dict[str, Any]]]] = {}


def may_wait(view: SeatView, hand: Sequence[int], memo: WaitsMemo | None = None) -> list[int]:
    """:func:`~laizi.bots.toolkit.completing_kinds` of the seat's 3n+1 ``hand`` ([]: no waits
    whatever the table), kept per seat in ``memo`` for the hand last asked about."""
    if memo is None:
        return completing_kinds(view, hand)
    own = (view.rules, view.setup, tuple(hand), tuple(view.melds[view.seat]))
    got = memo.kinds.get(view.seat)
    if got is not None and got[0] == own:
        return got[1]
    kinds = completing_kinds(view, hand)
    memo.kinds[view.seat] = (own, kinds)
    return kinds


def _scored_waits(view: SeatView, memo: WaitsMemo | None = None) -> list[tuple[int, dict[str, Any]]]:
    kinds = may_wait(view, view.hand, memo)
    if not kinds:  # (most hands: no waits, whatever the table)
        return []
    key = (view.rules, view.setup, view.dealer, view.seat, tuple(view.hand),
           tuple(tuple(ms) for ms in view.melds), tuple(tuple(x) for x in view.special_kongs),
           tuple(tuple(x) for x in view.special_discards))
    payers: tuple[object, ...] = ()
    if memo is not None:
        got = memo.last.get(view.seat)
        if got is not None:
            if got[0] == key:
                return got[1]
            if got[0][:5] == key[:5] and _own(got[0], view.seat) == _own(key, view.seat):
                # only the other seats' tables changed: the same scores while each pays alike
                payers = _payers(view)
                if payers == got[2]:
                    memo.last[view.seat] = (key, got[1], payers)
                    return got[1]
    else:
        hit = _SCORED.get(key)
        if hit is not None:
            _SCORED.move_to_end(key)
            return hit
    out: list[tuple[int, dict[str, Any]]] = []
    for k in kinds:
        o = win_outcomes(view, view.hand, k, breakdown=True)
        sd, dc = o["self_draw"], o["discard"]
        if not sd["ok"] and not dc["ok"] and sd["reason"] == "not_a_win":
            continue
        out.append((k, {"self_draw": sd, "discard": dc, "enough": bool(sd["ok"] or dc["ok"])}))
    if memo is not None:
        memo.last[view.seat] = (key, out, payers or _payers(view))
        return out
    _SCORED[key] = out
    while len(_SCORED) > _SCORED_MAX:
        _SCORED.popitem(last=False)
    return out


def _own(key: tuple[Any, ...], seat: int) -> tuple[Any, ...]:
    """The seat's own melds and laid-aside tiles in a :func:`_scored_waits` key."""
    return key[5][seat], key[6][seat], key[7][seat]


def _payers(view: SeatView) -> tuple[object, ...]:
    """The other seats' :func:`~laizi.scoring.payer_key` (as :func:`win_outcomes` builds
    their tables): all the waits' scores read of them."""
    laizi = view.setup.laizi
    return tuple(payer_key(view.rules, laizi, PlayerTable(
        melds=tuple(view.melds[s]), special_kongs=tuple(view.special_kongs[s]),
        special_discards=tuple(view.special_discards[s]))) for s in range(4) if s != view.seat)


def win_outcomes(view: SeatView, hand: Sequence[int], tile: int, *,
                 discarded: int | None = None, from_seat: int | None = None,
                 breakdown: bool = False) -> dict[str, Any]:
    """What a win on ``tile`` would pay, scored from the seat's view.

    ``hand``: the concealed counts before the winning tile (3n+1 tiles).
    ``discarded``: the tile just discarded to reach ``hand``; a special tile or laizi
    discarded counts as a kong (RULES.md §3-§4), so it is added to the seat's table.
    Returns ``self_draw`` and ``discard`` (the worst case over the possible
    discarders, or ``from_seat`` when given) as ``{"ok", "reason", "total", "big_hands"}``
    (``breakdown``: with the scorer's ``breakdown`` lines too).
    """
    me = view.seat
    tiles = tuple(k for k in range(NUM_KINDS) for _ in range(hand[k]))
    tables = []
    extra: tuple[int, ...] = ()
    if discarded is not None and (discarded == view.setup.laizi or discarded in view.setup.special):
        extra = (discarded,)
    for s in range(4):
        tables.append(PlayerTable(
            hand=tiles if s == me else (),
            melds=tuple(view.melds[s]),
            special_kongs=tuple(view.special_kongs[s]),
            special_discards=tuple(view.special_discards[s]) + (extra if s == me else ()),
        ))
    players = (tables[0], tables[1], tables[2], tables[3])
    out: dict[str, Any] = {}
    ctxs = [WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer, winner=me,
                       tile=tile, by="self_draw", players=players)]
    never_claimed = tile == view.setup.laizi or tile in view.setup.special
    if not never_claimed:
        tried: set[tuple[object, ...]] = set()
        for d in range(4):
            if d == me or (from_seat is not None and d != from_seat):
                continue
            if d != view.dealer:
                # Two discarders with the same payer key, neither the dealer, pay alike (the
                # worst is the first of equals: the one tried).
                pk = payer_key(view.rules, view.setup.laizi, players[d])
                if pk in tried:
                    continue
                tried.add(pk)
            ctxs.append(WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer,
                                   winner=me, tile=tile, by="discard", players=players,
                                   from_seat=d))
    results = score_variants(ctxs)  # the hand's readings found once for every variant
    res = results[0]
    out["self_draw"] = {"ok": res.ok, "reason": res.reason, "total": res.total if res.ok else 0,
                        "big_hands": list(res.big_hands)}
    if breakdown:
        out["self_draw"]["breakdown"] = list(res.breakdown)
    if never_claimed:
        out["discard"] = {"ok": False, "reason": "never_claimed", "total": 0, "big_hands": []}
        if breakdown:
            out["discard"]["breakdown"] = []
        return out
    worst: dict[str, Any] | None = None
    for ctx, r in zip(ctxs[1:], results[1:], strict=True):
        entry = {"ok": r.ok, "reason": r.reason, "total": r.total if r.ok else 0,
                 "big_hands": list(r.big_hands), "from": ctx.from_seat}
        if breakdown:
            entry["breakdown"] = list(r.breakdown)
        if worst is None or (not r.ok and worst["ok"]) or (r.ok == worst["ok"] and entry["total"] < worst["total"]):
            worst = entry
    assert worst is not None
    out["discard"] = worst
    return out


def _wait_list(view: SeatView, hand: Sequence[int], unseen: Sequence[int], *,
               with_scores: bool, discarded: int | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for k in completing_kinds(view, hand):
        entry: dict[str, Any] = {"tile": _TILE[k], "unseen": unseen[k]}
        if with_scores:
            o = win_outcomes(view, hand, k, discarded=discarded)
            if not o["self_draw"]["ok"] and not o["discard"]["ok"] and o["self_draw"]["reason"] == "not_a_win":
                continue
            entry.update(o)
        out.append(entry)
    return out


def _summary(waits: list[dict[str, Any]]) -> tuple[bool | None, float]:
    """(reaches the minimum on some wait, expected payment weighted by unseen copies)."""
    if not waits:
        return None, 0.0
    reach = False
    total = 0.0
    copies = 0
    for w in waits:
        sd = w.get("self_draw", {})
        dc = w.get("discard", {})
        if sd.get("ok") or dc.get("ok"):
            reach = True
        best = max(float(sd.get("total", 0)), float(dc.get("total", 0)))
        total += best * w["unseen"]
        copies += w["unseen"]
    return reach, (total / copies if copies else 0.0)


def hints_for(view: SeatView | Mapping[str, Any], rules: RuleSet | None = None, *,
              scores: bool = True) -> list[dict[str, Any]]:
    """Hints for the seat that owns ``view`` (its snapshot, a :class:`SeatView`, or
    the snapshot's JSON view, :func:`laizi.views.view`; pass ``rules`` with a JSON view). ``scores=False``
    skips the scorer (faster; no minimum/payment figures)."""
    v = _as_view(view, rules)
    if not v.legal:
        return []
    bot = StrongBot()
    choice = ExpertBot(seed=0).act(v)  # deterministic: its default searches nothing
    if v.phase == "turn":
        entries = _turn_hints(v, bot, scores)
    elif v.phase == "replace":
        entries = _replace_hints(v)
    else:
        entries = _claim_hints(v, scores)
    for e in entries:
        e["recommended"] = Action.from_json(e["action"]) == choice
    entries.sort(key=lambda e: (not e["recommended"], -float(e.get("value", 0.0))))
    _say_why_they_differ(entries)
    return entries


DIFFERS_BY = 1.0  # expected points: a gap this large between ★ and the best figure is explained
DIFFERS = {
    "zh": "★ 是专家机器人的选择，它还顾及牌型和后手；各项的胡牌率与期望分来自另一个估算模型，所以这里不一致。",
    "en": "★ is the expert bot's choice, which also weighs the hand's shape and later turns; the "
          "win chances and expected points come from a separate estimate, so here they disagree.",
}


def _say_why_they_differ(entries: list[dict[str, Any]]) -> None:
    """The ★ follows ``expert``; the figures come from :mod:`laizi.bots.outlook`, a separate
    model. When another entry shows :data:`DIFFERS_BY` expected points more than the ★, the
    ★'s entry carries ``differs`` (words in both languages) so the panel says why."""
    rec = next((e for e in entries if e["recommended"]), None)
    if rec is None or not isinstance(rec.get("expected_points"), int | float):
        return
    best = max((float(e["expected_points"]) for e in entries
                if isinstance(e.get("expected_points"), int | float)), default=None)
    if best is not None and best - float(rec["expected_points"]) >= DIFFERS_BY:
        rec["differs"] = dict(DIFFERS)


def shown_points(rules: RuleSet, points: float) -> float:
    """A figure of the outlook model (points a seat gains or loses in a hand) as a hint shows
    it: held within what one hand can move a seat's points under ``rules``
    (:func:`laizi.scoring.settlement_bound`). The model is a fit, on kaikoufan's caps; it can
    estimate more than a hand can pay (jiayu's cap, a room's own caps), and a hint never shows
    a figure that cannot happen. Display only: the bots read the model itself."""
    bound = settlement_bound(rules)
    return max(-bound, min(bound, points))


def _outlook_fields(v: SeatView, hand: Sequence[int], *, n_sets: int | None = None,
                    openings: int | None = None) -> dict[str, Any]:
    """The outlook figures of a 3n+1 ``hand`` (:func:`laizi.bots.outlook.hand_outlook`)."""
    return _fields(v, hand_outlook(v, hand, n_sets=n_sets, openings=openings))


def _fields(v: SeatView, o: Outlook) -> dict[str, Any]:
    imp = o.improving(v)
    return {
        "shanten_258": o.shanten,
        "improving": [{"tile": _TILE[k], "copies": c, "unseen": u} for k, c, u in imp],
        "improving_tiles": sum(c for _k, c, _u in imp),
        "improving_unseen": sum(u for _k, _c, u in imp),
        "win_prob": round(o.win_prob, 3),
        "expected_points": round(shown_points(v.rules, o.expected_points), 1),
    }


def _danger_fields(v: SeatView, k: int) -> dict[str, Any]:
    d = danger_of(v, k)
    cost = -shown_points(v.rules, -d.cost)  # a loss: no more than a hand can cost
    return {"feed_prob": round(d.feed_prob, 3), "cost": round(cost, 1),
            "expected_loss": round(d.feed_prob * cost, 1), "level": d.level}


def _win_entry(v: SeatView, a: Action, label: str, scores: bool) -> dict[str, Any]:
    """A win (self-drawn or on the discard): what it pays when the scorer is asked."""
    total: float | None = None
    if scores and a.type == "tsumo" and v.last_draw is not None:
        hand = list(v.hand)
        hand[v.last_draw] -= 1
        sd = win_outcomes(v, hand, v.last_draw)["self_draw"]
        total = float(sd["total"]) if sd["ok"] else None
    elif scores and a.type == "ron" and v.phase == "claim" and v.pending is not None:
        dc = win_outcomes(v, v.hand, v.pending, from_seat=v.turn)["discard"]
        total = float(dc["total"]) if dc["ok"] else None
    e: dict[str, Any] = {"kind": "win", "action": a.to_json(), "label": label, "value": 1e6,
                         "win_prob": 1.0, "reason": win_reason(total)}
    if total is not None:
        e["expected_points"] = total
    return e


def _turn_hints(v: SeatView, bot: StrongBot, scores: bool) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    unseen = v.unseen()
    nat, wilds = natural(v)
    discards = [a for a in v.legal if a.type == "discard"]
    values: dict[int, float] = {}
    if discards:
        ranked = bot.rank_discards_strong(v, discards, nat, wilds)
        values = {a.tile or 0: val for val, a in ranked}
    n = 4 - len(v.melds[v.seat])
    for a in v.legal:
        if a.type == "tsumo":
            entries.append(_win_entry(v, a, "自摸 self-draw", scores))
        elif a.type == "discard":
            entries.append(_discard_entry(v, a, n, unseen, values, scores))
        else:
            entries.append(_kong_entry(v, a))
    return entries


def _discard_entry(v: SeatView, a: Action, n: int, unseen: Sequence[int],
                   values: Mapping[int, float], scores: bool) -> dict[str, Any]:
    k = a.tile or 0
    hand = list(v.hand)
    hand[k] -= 1
    h_nat, h_wilds = natural(v, hand)
    sh = HandEval(h_nat, h_wilds, n).shanten
    ws = _wait_list(v, hand, unseen, with_scores=scores, discarded=k) if sh <= 0 else []
    if sh <= 0 and not ws:
        sh = 1  # no legal winning shape (258 pair, special tile…)
    reach, pay = _summary(ws)
    note = ""
    if k == v.setup.laizi:
        note = " (counts as a laizi kong)"
    elif k in v.setup.special:
        note = " (counts as a laid-aside kong)"
    e: dict[str, Any] = {
        "kind": "discard", "action": a.to_json(), "tile": _TILE[k],
        "label": f"discard {_TILE[k]}{note}",
        "shanten": sh, "waits": ws, "unseen_total": sum(w["unseen"] for w in ws),
        "reaches_minimum": reach, "expected_payment": round(pay, 1),
        "value": round(values.get(k, 0.0), 3),
    }
    e.update(_outlook_fields(v, hand))
    e["danger"] = _danger_fields(v, k)
    e["counts_as_kong"] = bool(note)
    e["kong_fan"] = table_fan(v.rules, v.setup.laizi, (), (), (k,), opening=False) if note else 0
    e["reason"] = discard_reason(e)
    return e


_KONG_LABEL = {"ankong": "暗杠 concealed kong", "addkong": "蓄杠 added kong",
               "special_kong": "杠出 lay aside", "laizi_kong": "赖子杠 laizi kong"}  # TABLE.md's words


def _kong_entry(v: SeatView, a: Action) -> dict[str, Any]:
    k = a.tile or 0
    e: dict[str, Any] = {"kind": "kong", "action": a.to_json(), "tile": _TILE[k],
                         "label": f"{_KONG_LABEL.get(a.type, a.type)} {_TILE[k]}", "value": 0.0}
    hand = list(v.hand)
    n_sets = None
    if a.type == "ankong":
        hand[k] -= 4
        n_sets = 3 - len(v.melds[v.seat])
    else:
        hand[k] -= 1
    if min(hand) >= 0 and (n_sets is None or n_sets >= 0):
        e.update(_outlook_fields(v, hand, n_sets=n_sets))
        e["reason"] = kong_reason(e)
    return e


def _claim_outlook(v: SeatView, a: Action, t: int) -> dict[str, Any]:
    """The best outlook after a claim (and, for peng/chi, the discard that follows)."""
    c = tiles_after_claim(v.hand, a, t)
    n_sets = 3 - len(v.melds[v.seat])
    openings = sum(1 for m in v.melds[v.seat] if m.opens) + 1
    if a.type == "kong":  # a replacement tile follows: the hand is already 3n+1
        return _outlook_fields(v, c, n_sets=n_sets, openings=openings)
    best: tuple[Outlook, int] | None = None
    for k in range(NUM_KINDS):
        if c[k] <= 0:
            continue
        c[k] -= 1
        o = hand_outlook(v, c, n_sets=n_sets, openings=openings)
        c[k] += 1
        # the model's own figure picks the discard (as rounded, the first of a tie wins)
        if best is None or round(o.expected_points, 1) > round(best[0].expected_points, 1):
            best = (o, k)
    assert best is not None
    return {**_fields(v, best[0]), "then_discard": _TILE[best[1]]}


def _claim_hints(v: SeatView, scores: bool = True) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    t = v.pending
    nat, wilds = natural(v)
    n = 4 - len(v.melds[v.seat])
    before = HandEval(nat, wilds, n).shanten
    passing = _outlook_fields(v, v.hand) if sum(v.hand) % 3 == 1 else None
    for a in v.legal:
        e: dict[str, Any] = {"action": a.to_json(), "shanten_before": before}
        if a.type == "ron":
            e.update(_win_entry(v, a, f"胡 win on {_TILE[t or 0]}", scores))
        elif a.type == "tsumo":  # the haidi tile
            e.update(_win_entry(v, a, "海底自摸 last-tile self-draw", scores))
        elif a.type == "pass":
            e.update(kind="pass", label="pass", shanten_after=before, value=0.0)
            if passing is not None:
                e.update(passing)
                e["reason"] = pass_reason(e)
        else:
            c = tiles_after_claim(nat, a, t or 0)
            after = HandEval(c, wilds, n - 1).shanten
            e.update(kind="claim", label=str(a), shanten_after=after,
                     value=float(before - after))
            if t is not None:
                e.update(_claim_outlook(v, a, t))
                if passing is not None:
                    e["vs_pass"] = {
                        "win_prob": round(e["win_prob"] - passing["win_prob"], 3),
                        "expected_points": round(e["expected_points"] - passing["expected_points"], 1),
                    }
                e["reason"] = claim_reason(e, passing)
        entries.append(e)
    return entries


def _replace_hints(v: SeatView) -> list[dict[str, Any]]:
    """After a kong (``kong_draw_choice``): draw the replacement or not. Not drawing keeps
    the hand as it is (its outlook); drawing adds a tile and then owes a discard."""
    nat, wilds = natural(v)
    before = HandEval(nat, wilds, 4 - len(v.melds[v.seat])).shanten
    keep = _outlook_fields(v, v.hand)
    entries: list[dict[str, Any]] = []
    for a in v.legal:
        e: dict[str, Any] = {"action": a.to_json(), "kind": a.type, "shanten_before": before,
                             "shanten_after": before, "value": 0.0}
        if a.type == "draw":
            e["label"] = "补牌 draw the replacement"
        else:
            e.update(keep, label="不补 no replacement, no discard")
        entries.append(e)
    return entries


# ------------------------------------------------------------------------ text hands
def _melds(texts: Sequence[str], seat: int, setup: TableSetup) -> list[Meld]:
    """``seat``'s melds in notation, each held to the rules a score request's is."""
    out = []
    for text in texts:
        meld = Meld.parse(text)
        check_meld(meld, seat, setup, f"seat {seat}'s meld {text!r}")
        out.append(meld)
    return out


def hand_hints(
    hand: str,
    *,
    laizi: str | None = None,
    indicator: str | None = None,
    melds: Sequence[str] = (),
    preset: str = "kaikoufan",
    rules: RuleSet | None = None,
    seat: int = 0,
    dealer: int = 0,
    visible: str = "",
    scores: bool = True,
    wall: int = 60,
    others: Mapping[int, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """Hints for a hand given in notation (no table around it).

    With 3n+2 tiles (14 with no melds) every discard is rated; with 3n+1 tiles the
    hand's own waits and outlook are listed. ``visible``: other tiles already seen
    (rivers…), for the unseen counts (put in the next seat's river); ``wall``: tiles
    left in the wall; ``others``: the other seats' melds (seat → melds), which make
    them able to win (an unopened hand cannot) and so make discards dangerous.
    """
    if not 0 <= wall <= 136:
        raise ValueError(f"the wall must hold 0-136 tiles, not {wall}")
    rules = rules or RuleSet.preset(preset)
    ind = Tile.parse(indicator).index if indicator else None
    lz = Tile.parse(laizi).index if laizi else None
    if ind is None and lz is None:
        raise ValueError("give --laizi or --indicator")
    setup = rules.setup(indicator=ind, laizi=lz) if ind is not None else rules.setup(laizi=lz)
    counts = [0] * NUM_KINDS
    for t in parse_tiles(hand):
        counts[t.index] += 1
    meld_objs = _melds(melds, seat, setup)
    size = sum(counts) + 3 * len(meld_objs)
    if size not in (13, 14):
        raise ValueError(f"the hand has {sum(counts)} tiles and {len(meld_objs)} melds: "
                         f"expected 13 or 14 counting melds as 3")
    seen = [0] * NUM_KINDS
    for t in parse_tiles(visible) if visible else []:
        seen[t.index] += 1
    all_melds: list[list[Meld]] = [[], [], [], []]
    all_melds[seat] = meld_objs
    for s, ms in (others or {}).items():
        if not 0 <= s <= 3 or s == seat:
            raise ValueError(f"other seats' melds need a seat 0-3 other than {seat}, not {s}")
        all_melds[s] = _melds(ms, s, setup)
        if len(all_melds[s]) > 4:
            raise ValueError(f"seat {s} has more than four melds")
    on_table_melds = [t for ms in all_melds for m in ms for t in m.tiles()]
    for k in range(NUM_KINDS):
        on_table = counts[k] + seen[k] + on_table_melds.count(k)
        if on_table > 4:
            raise ValueError(f"more than four {_TILE[k]} in hand, melds and visible tiles")
    rivers: list[list[int]] = [[], [], [], []]
    rivers[(seat + 1) % 4] = [k for k in range(NUM_KINDS) for _ in range(seen[k])]
    legal: list[Action] = []
    phase = "turn"
    if size == 14:
        legal = [Action("discard", k) for k in range(NUM_KINDS)
                 if counts[k] and (k != setup.laizi or rules.laizi_discardable)]
    view = SeatView(
        seat=seat, rules=rules, setup=setup, dealer=dealer, phase=phase, turn=seat,
        hand=counts, melds=all_melds, rivers=rivers, special_kongs=[[], [], [], []],
        special_discards=[[], [], [], []], wall_remaining=wall,
        hand_sizes=[sum(counts) if s == seat else 13 - 3 * len(all_melds[s]) for s in range(4)],
        legal=legal, indicator=ind,
    )
    out: dict[str, Any] = {
        "hand": hand, "laizi": _TILE[setup.laizi],
        "special": [_TILE[k] for k in sorted(setup.special)],
        "melds": [str(m) for m in meld_objs],
    }
    if size == 14:
        out["hints"] = hints_for(view, scores=scores)
    else:
        nat, wilds = natural(view)
        sh = HandEval(nat, wilds, 4 - len(meld_objs)).shanten
        ws = _wait_list(view, counts, view.unseen(), with_scores=scores) if sh <= 0 else []
        reach, pay = _summary(ws)
        out["shanten"] = sh if (sh > 0 or ws) else 1
        out["waits"] = ws
        out["reaches_minimum"] = reach
        out["expected_payment"] = round(pay, 1)
        out.update(_outlook_fields(view, counts))
        out["reason"] = hand_reason(out)
    return out
