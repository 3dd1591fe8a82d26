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
``win``, ``claim``, ``pass``). The recommendation is the ``strong`` bot's choice.

:func:`hand_hints` is the same for a hand given as text (``laizi hint``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from laizi.analysis import waits as raw_waits
from laizi.bots.evaluate import FENG, JIANG, HandEval
from laizi.bots.greedy import natural
from laizi.bots.strong import StrongBot
from laizi.game.actions import Action
from laizi.rules import RuleSet
from laizi.scoring import Meld, PlayerTable, WinContext, score
from laizi.tiles import NUM_KINDS, Tile, parse_tiles
from laizi.views import SeatView

__all__ = ["hand_hints", "hints_for", "win_outcomes"]

_TILE = tuple(str(Tile(k)) for k in range(NUM_KINDS))


def _as_view(view: SeatView | Mapping[str, Any], rules: RuleSet | None) -> SeatView:
    if isinstance(view, SeatView):
        return view
    return SeatView.from_json(view, rules)


def _candidates(view: SeatView, hand: Sequence[int]) -> list[int]:
    """Kinds that may complete a 3n+1 concealed hand (regular shape or loose 风/将一色)."""
    nat, wilds = natural(view, hand)
    kinds = set(raw_waits(nat, wilds))
    if view.rules.luan_feng_jiang:
        meld_kinds = {t for m in view.melds[view.seat] for t in m.tiles()}
        held = {k for k in range(NUM_KINDS) if nat[k]} | meld_kinds
        for cat in (FENG, JIANG):
            if held <= cat:
                kinds |= set(cat)
    return sorted(kinds)


def win_outcomes(view: SeatView, hand: Sequence[int], tile: int, *,
                 discarded: int | None = None) -> dict[str, Any]:
    """What a win on ``tile`` would pay, scored from the seat's view.

    ``hand``: the concealed counts before the winning tile (3n+1 tiles).
    ``discarded``: the tile just discarded to reach ``hand``; a special tile or laizi
    discarded counts as a kong (RULES.md §3-§4), so it is added to the seat's table.
    Returns ``self_draw`` and ``discard`` (the worst case over the possible
    discarders) as ``{"ok", "reason", "total", "big_hands"}``.
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
    ctx = WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer, winner=me,
                     tile=tile, by="self_draw", players=players)
    res = score(ctx)
    out["self_draw"] = {"ok": res.ok, "reason": res.reason, "total": res.total if res.ok else 0,
                        "big_hands": list(res.big_hands)}
    if tile == view.setup.laizi or tile in view.setup.special:
        out["discard"] = {"ok": False, "reason": "never_claimed", "total": 0, "big_hands": []}
        return out
    worst: dict[str, Any] | None = None
    for d in range(4):
        if d == me:
            continue
        ctx = WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer, winner=me,
                         tile=tile, by="discard", players=players, from_seat=d)
        r = score(ctx)
        entry = {"ok": r.ok, "reason": r.reason, "total": r.total if r.ok else 0,
                 "big_hands": list(r.big_hands), "from": d}
        if worst is None or (not r.ok and worst["ok"]) or (r.ok == worst["ok"] and entry["total"] < worst["total"]):
            worst = entry
    assert worst is not None
    out["discard"] = worst
    return out


def _wait_list(view: SeatView, hand: Sequence[int], unseen: Sequence[int], *,
               with_scores: bool, discarded: int | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for k in _candidates(view, hand):
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
    choice = bot.act(v)
    if v.phase == "turn":
        entries = _turn_hints(v, bot, scores)
    else:
        entries = _claim_hints(v)
    for e in entries:
        e["recommended"] = Action.from_json(e["action"]) == choice
    entries.sort(key=lambda e: (not e["recommended"], -float(e.get("value", 0.0))))
    return entries


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
            entries.append({"kind": "win", "action": a.to_json(), "label": "自摸 self-drawn win",
                            "value": 1e6})
        elif a.type == "discard":
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
                note = " (counts as a special kong)"
            entries.append({
                "kind": "discard", "action": a.to_json(), "tile": _TILE[k],
                "label": f"discard {_TILE[k]}{note}",
                "shanten": sh, "waits": ws, "unseen_total": sum(w["unseen"] for w in ws),
                "reaches_minimum": reach, "expected_payment": round(pay, 1),
                "value": round(values.get(k, 0.0), 3),
            })
        else:
            label = {"ankong": "暗杠 concealed kong", "addkong": "蓄杠 added kong",
                     "special_kong": "special kong (lay aside)", "laizi_kong": "癞子杠 laizi kong"}
            entries.append({"kind": "kong", "action": a.to_json(), "tile": _TILE[a.tile or 0],
                            "label": f"{label.get(a.type, a.type)} {_TILE[a.tile or 0]}",
                            "value": 0.0})
    return entries


def _claim_hints(v: SeatView) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    t = v.pending
    nat, wilds = natural(v)
    n = 4 - len(v.melds[v.seat])
    before = HandEval(nat, wilds, n).shanten
    for a in v.legal:
        e: dict[str, Any] = {"action": a.to_json(), "shanten_before": before}
        if a.type == "ron":
            e.update(kind="win", label=f"胡 win on {_TILE[t or 0]}", value=1e6)
        elif a.type == "pass":
            e.update(kind="pass", label="pass", shanten_after=before, value=0.0)
        else:
            c = list(nat)
            if a.type == "kong":
                c[t or 0] -= 3
            elif a.type == "peng":
                c[t or 0] -= 2
            else:
                base = a.tile or 0
                for x in (base, base + 1, base + 2):
                    if x != t:
                        c[x] -= 1
            after = HandEval(c, wilds, n - 1).shanten
            e.update(kind="claim", label=str(a), shanten_after=after,
                     value=float(before - after))
        entries.append(e)
    return entries


# ------------------------------------------------------------------------ text hands
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
) -> dict[str, Any]:
    """Hints for a hand given in notation (no table around it).

    With 3n+2 tiles (14 with no melds) every discard is rated; with 3n+1 tiles the
    hand's own waits are listed. ``visible``: other tiles already seen (rivers…),
    for the unseen counts.
    """
    rules = rules or RuleSet.preset(preset)
    ind = Tile.parse(indicator).index if indicator else None
    lz = Tile.parse(laizi).index if laizi else None
    if ind is None and lz is None:
        raise ValueError("give --laizi or --indicator")
    setup = rules.setup(indicator=ind, laizi=lz) if ind is not None else rules.setup(laizi=lz)
    counts = [0] * NUM_KINDS
    for t in parse_tiles(hand):
        counts[t.index] += 1
    meld_objs: list[Meld] = []
    for m in melds:
        meld_objs.append(Meld.parse(m))
    size = sum(counts) + 3 * len(meld_objs)
    if size not in (13, 14):
        raise ValueError(f"the hand has {sum(counts)} tiles and {len(meld_objs)} melds: "
                         f"expected 13 or 14 counting melds as 3")
    seen = [0] * NUM_KINDS
    for t in parse_tiles(visible) if visible else []:
        seen[t.index] += 1
    all_melds: list[list[Meld]] = [[], [], [], []]
    all_melds[seat] = meld_objs
    for k in range(NUM_KINDS):
        on_table = counts[k] + seen[k] + sum(m.tiles().count(k) for m in meld_objs)
        if on_table > 4:
            raise ValueError(f"more than four {_TILE[k]} in hand, melds and visible tiles")
    rivers: list[list[int]] = [[], [], [], []]
    rivers[(seat + 1) % 4] = [k for k in range(NUM_KINDS) for _ in range(seen[k])]
    legal: list[Action] = []
    phase = "turn"
    if size == 14:
        legal = [Action("discard", k) for k in range(NUM_KINDS) if counts[k]]
    view = SeatView(
        seat=seat, rules=rules, setup=setup, dealer=dealer, phase=phase, turn=seat,
        hand=counts, melds=all_melds, rivers=rivers, special_kongs=[[], [], [], []],
        special_discards=[[], [], [], []], hand_sizes=[13, 13, 13, 13], wall_remaining=60,
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
    return out
