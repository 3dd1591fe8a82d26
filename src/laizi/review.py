"""复盘 — a look back at a finished game, decision by decision, from one seat's view.

:func:`review_events` replays a log (a match or stand-alone hands, :mod:`laizi.game.replay`)
and, before each recorded decision of a seat that had a choice (a discard, a kong, a
claim, a pass, a win or not), rebuilds that seat's :class:`~laizi.views.SeatView` through
:mod:`laizi.views` and rates the choice with the hints (:func:`laizi.hints.hints_for`,
called, not copied):

- ``expert``: the ``expert`` bot's choice (the hints' ★);
- ``value`` of an option: the hints' ``expected_points`` (the outlook model's expected
  settlement for the hand; a win: what it pays), minus, for a discard, its
  ``danger.expected_loss`` (the chance it feeds a win at once times the mean loss);
- ``loss``: the expert choice's value minus the value of the choice made, counted as 0 when
  the model rates the choice made at least as high (so ``expert`` reviewing its own play
  finds 0, and a choice is never blamed for beating the ★ by the model's own figures).

Only the seat's view is read: the review never uses a tile the seat could not see (the
other hands, the wall order), and changing those in a log changes nothing in it.

Decisions taken for a seat by 托管 (auto-play, also after it escaped) are not its own: they
are counted (``auto_played``) but not rated. Per seat and game: the decisions, their mean and total loss, the ``accuracy`` (the share of
decisions within :data:`ACCURATE_WITHIN` expected points of the expert choice, in %), the
``agreement`` (the share where the choice made is the expert's) and the three to five
costliest decisions (:data:`COSTLIEST`, those losing at least :data:`COSTLY_FROM`), each
with a sentence saying why in Chinese and English.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.game import Event, Match
from laizi.game.actions import Action
from laizi.game.replay import replay, split_logs
from laizi.hints import hints_for
from laizi.tiles import Tile
from laizi.views import seat_view

__all__ = ["ACCURATE_WITHIN", "COSTLIEST", "COSTLY_FROM", "Decision", "GameReview", "SeatReview",
           "pooled", "review_events"]

ACCURATE_WITHIN = 1.0  # expected points: a decision this close to the expert's is accurate
COSTLIEST = 5  # at most this many costliest decisions are marked
COSTLY_FROM = 0.5  # a decision losing less than this is not marked as costly

Progress = Callable[[int, int], None]  # (events done, events in the file)

# The table's words (shared/design/TABLE.md "Words"; the English glossary: src/laizi/web/README.md):
# 胡 not 和, 赖子 not 癞子; a special tile (红中, 发, 皮子) is 杠出 / laid aside, as the calculator
# and 玩法说明 say it.
_KIND_ZH = {"discard": "打", "peng": "碰", "chi": "吃", "kong": "杠", "pass": "过", "ron": "胡",
            "tsumo": "自摸", "ankong": "暗杠", "addkong": "蓄杠", "special_kong": "杠出",
            "laizi_kong": "赖子杠", "draw": "杠后补牌", "nodraw": "杠后不补"}
_KIND_EN = {"discard": "discard", "peng": "pung", "chi": "chow", "kong": "kong", "pass": "pass",
            "ron": "win", "tsumo": "self-draw", "ankong": "concealed kong",
            "addkong": "added kong", "special_kong": "lay aside", "laizi_kong": "laizi kong",
            "draw": "draw the replacement", "nodraw": "no replacement"}


def action_words(a: Action) -> dict[str, str]:
    """An action in words: ``{"zh": "打 五万", "en": "discard 5 Characters"}`` (tile names,
    never codes: the words a player reads)."""
    en = zh = ""
    if a.tile is not None:
        t = Tile(a.tile)
        en = " " + (t.run_english() if a.type == "chi" else t.english)
        # (a chow names its run as the table does: 三四五条)
        zh = " " + ("".join(Tile(k).chinese[0] for k in range(a.tile, a.tile + 3)) + t.chinese[1:]
                    if a.type == "chi" else t.chinese_name)
    return {"zh": _KIND_ZH.get(a.type, a.type) + zh, "en": _KIND_EN.get(a.type, a.type) + en}


@dataclass
class Decision:
    """One decision of one seat, rated."""

    index: int  # the event's position in its log
    v: int | None  # the event's number (``v``)
    hand: int
    seat: int
    phase: str  # turn | claim | rob | haidi
    kind: str  # the hints' kind of the choice made: discard, kong, win, claim, pass
    played: Action
    expert: Action
    options: int  # legal actions
    played_value: float | None
    expert_value: float | None
    loss: float | None  # None: the model gives no figure for one of the two
    could_win: bool
    played_reason: dict[str, str] | None = None
    expert_reason: dict[str, str] | None = None
    why: dict[str, str] | None = None  # set on the costliest

    @property
    def agrees(self) -> bool:
        return self.played == self.expert

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index, "v": self.v, "hand": self.hand, "seat": self.seat,
            "phase": self.phase, "kind": self.kind, "played": self.played.to_json(),
            "played_words": action_words(self.played), "expert": self.expert.to_json(),
            "expert_words": action_words(self.expert), "agrees": self.agrees,
            "options": self.options, "could_win": self.could_win,
            "played_value": _r(self.played_value), "expert_value": _r(self.expert_value),
            "loss": _r(self.loss),
        }
        if self.why is not None:
            out["why"] = self.why
        return out


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


@dataclass
class SeatReview:
    """One seat's decisions in one game, and their summary."""

    seat: int
    decisions: list[Decision] = field(default_factory=list)
    auto_played: int = 0  # decisions made for the seat by 托管 (or after it escaped): not rated

    @property
    def rated(self) -> list[Decision]:
        return [d for d in self.decisions if d.loss is not None]

    @property
    def total_loss(self) -> float:
        return sum(d.loss or 0.0 for d in self.rated)

    @property
    def mean_loss(self) -> float:
        rated = self.rated
        return self.total_loss / len(rated) if rated else 0.0

    @property
    def accuracy(self) -> float:
        """% of rated decisions within :data:`ACCURATE_WITHIN` of the expert choice."""
        rated = self.rated
        if not rated:
            return 100.0
        good = sum(1 for d in rated if (d.loss or 0.0) < ACCURATE_WITHIN)
        return 100.0 * good / len(rated)

    @property
    def agreement(self) -> float:
        if not self.decisions:
            return 100.0
        return 100.0 * sum(1 for d in self.decisions if d.agrees) / len(self.decisions)

    def costliest(self) -> list[Decision]:
        """The costliest decisions (at most :data:`COSTLIEST`, each losing ≥ :data:`COSTLY_FROM`),
        in the order they were played, each with its ``why``."""
        worst = sorted((d for d in self.rated if (d.loss or 0.0) >= COSTLY_FROM),
                       key=lambda d: (-(d.loss or 0.0), d.index))[:COSTLIEST]
        for d in worst:
            if d.why is None:
                d.why = explain(d)
        return sorted(worst, key=lambda d: d.index)

    def to_json(self, *, decisions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat, "decisions": len(self.decisions), "rated": len(self.rated),
            "mean_loss": round(self.mean_loss, 3), "total_loss": round(self.total_loss, 1),
            "accuracy": round(self.accuracy, 1), "agreement": round(self.agreement, 1),
            "auto_played": self.auto_played, "costliest": [d.to_json() for d in self.costliest()],
        }
        if decisions:
            out["all"] = [d.to_json() for d in self.decisions]
        return out


@dataclass
class GameReview:
    """The review of one log (a match, or one stand-alone hand)."""

    kind: str  # match | hand
    hands: int
    seats: dict[int, SeatReview]

    def to_json(self, *, decisions: bool = True) -> dict[str, Any]:
        return {"kind": self.kind, "hands": self.hands,
                "seats": [self.seats[s].to_json(decisions=decisions) for s in sorted(self.seats)]}


def pooled(games: Sequence[GameReview]) -> dict[int, SeatReview]:
    """Each seat's decisions over several games (a file of simulated hands), as one review."""
    out: dict[int, SeatReview] = {}
    for g in games:
        for s, r in g.seats.items():
            p = out.setdefault(s, SeatReview(s))
            p.decisions.extend(r.decisions)
            p.auto_played += r.auto_played
    return out


def _value(entry: dict[str, Any] | None) -> float | None:
    """The hints' expected points of an option, less a discard's expected feeding loss."""
    if entry is None or not isinstance(entry.get("expected_points"), int | float):
        return None
    v = float(entry["expected_points"])
    danger = entry.get("danger")
    if isinstance(danger, dict):
        v -= float(danger.get("expected_loss", 0.0))
    return v


def rate(view: Any, played: Action, *, index: int = 0, v: int | None = None) -> Decision:
    """Rate one decision from the seat's :class:`~laizi.views.SeatView` alone."""
    could_win = any(a.type in ("ron", "tsumo") for a in view.legal)
    entries = hints_for(view, scores=could_win)  # the scorer only matters for a win's figure
    by_action = {Action.from_json(e["action"]): e for e in entries}
    rec = next(e for e in entries if e["recommended"])
    expert = Action.from_json(rec["action"])
    mine = by_action.get(played)
    pv, ev = _value(mine), _value(rec)
    if played == expert:
        loss: float | None = 0.0
    elif pv is None or ev is None:
        loss = None
    else:
        loss = max(0.0, ev - pv)
    kind = str(mine["kind"]) if mine is not None else played.type
    return Decision(
        index=index, v=v, hand=view.hand_no, seat=view.seat, phase=view.phase, kind=kind,
        played=played, expert=expert, options=len(view.legal), played_value=pv, expert_value=ev,
        loss=loss, could_win=could_win,
        played_reason=mine.get("reason") if mine is not None else None,
        expert_reason=rec.get("reason"),
    )


def _bare(a: Action, reason: dict[str, str] | None) -> dict[str, str]:
    """A hint's reason without the ``过：`` / ``pass:`` it starts with (the sentence names the action)."""
    r = dict(reason or {})
    if a.type == "pass":
        for lang, head in (("zh", "过："), ("en", "pass: ")):
            if r.get(lang, "").startswith(head):
                r[lang] = r[lang][len(head):]
    return r


def explain(d: Decision) -> dict[str, str]:
    """Why a decision cost what it did, in Chinese and English."""
    p, x = action_words(d.played), action_words(d.expert)
    loss = round(d.loss or 0.0, 1)
    head_zh = f"第 {d.hand} 局：{p['zh']}，专家会{x['zh']}"
    head_en = f"Hand {d.hand}: {p['en']}; expert would {x['en']}"
    if d.could_win and d.expert.type in ("ron", "tsumo") and d.played.type not in ("ron", "tsumo"):
        pay = round(d.expert_value or 0.0)
        return {"zh": f"{head_zh}。放弃了一次胡牌（可得 {pay:+d} 分），期望少 {loss} 分。",
                "en": f"{head_en}. Passing up a win worth {pay:+d} costs {loss} expected points."}
    pr, xr = _bare(d.played, d.played_reason), _bare(d.expert, d.expert_reason)
    zh = f"{head_zh}。{p['zh']}：{pr.get('zh', '—')}；{x['zh']}：{xr.get('zh', '—')}。期望少 {loss} 分。"
    en = (f"{head_en}. {p['en']}: {pr.get('en', '—')}; {x['en']}: {xr.get('en', '—')}. "
          f"{loss} expected points lost.")
    return {"zh": zh, "en": en}


def review_events(events: Sequence[Event], *, seats: Sequence[int] | None = None,
                  progress: Progress | None = None) -> list[GameReview]:
    """Review every log of ``events`` (:func:`laizi.game.replay.split_logs`) for ``seats``
    (default all four). Raises :class:`~laizi.game.errors.LogError` /
    :class:`~laizi.game.errors.ReplayError` for a log that does not replay."""
    want = tuple(range(4)) if seats is None else tuple(seats)
    for s in want:
        if s not in range(4):
            raise ValueError(f"seat must be 0-3, not {s}")
    out: list[GameReview] = []
    total = len(events)
    done = 0
    for part in split_logs(events):
        per = {s: SeatReview(s) for s in want}

        def before(engine: Any, i: int, seat: int, action: Action, part: Sequence[Event] = part,
                   per: dict[int, SeatReview] = per, base: int = done) -> None:
            if progress is not None and i % 25 == 0:
                progress(base + i, total)
            if seat not in per:
                return
            state = engine.hand if isinstance(engine, Match) else engine
            if state is None:
                return
            view = seat_view(state, seat)
            if len(view.legal) <= 1:
                return
            if isinstance(engine, Match) and engine.auto[seat]:  # 托管 chose, not the player
                per[seat].auto_played += 1
                return
            v = part[i].get("v")
            per[seat].decisions.append(rate(view, action, index=i, v=v if isinstance(v, int) else None))

        game = replay(part, before_action=before)
        done += len(part)
        if progress is not None:
            progress(done, total)
        if isinstance(game, Match):
            out.append(GameReview("match", len(game.history), per))
        else:
            out.append(GameReview("hand", 1, per))
    return out
