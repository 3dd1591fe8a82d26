"""Terminal play: one human (seat 0, 东 at the start) against three bots, with rich.

Each decision shows the table (indicator, laizi, special tiles, every seat's melds,
river and kongs, the wall) and the human's hand, then offers the legal actions as a
numbered menu. Input:

- a number from the menu;
- a tile such as ``5m`` (or ``五万``, ``中``): discard it;
- ``h``: hints (智能提示) for this decision;
- ``a``: 托管 — let a bot play this seat until the end of the hand;
- ``q``: quit.

Bad input re-prompts with the reason; end of input (Ctrl-D, a closed pipe) quits
cleanly. After each hand the score breakdown is printed, and the match table at the
end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from laizi.bots.autoplay import SeatControl
from laizi.bots.base import SeatView
from laizi.game.actions import Action
from laizi.game.match import Match
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.scoring.model import BIG_HAND_NAMES
from laizi.tiles import Tile, parse_tiles

__all__ = ["TerminalGame", "play"]

_WIND = "东南西北"
_ACTION_CN = {
    "discard": "打", "tsumo": "自摸", "ankong": "暗杠", "addkong": "蓄杠",
    "special_kong": "杠(特殊)", "laizi_kong": "癞子杠", "ron": "胡", "kong": "杠",
    "peng": "碰", "chi": "吃", "pass": "过",
}


class QuitGame(Exception):
    """The player quit (``q`` or end of input)."""


def _t(k: int) -> str:
    return str(Tile(k))


class TerminalGame:
    """One human seat against bots, driven by an input function (``input`` by default)."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        seed: int | str = 0,
        hands: int = 4,
        human: int = 0,
        bots: Sequence[str] = ("strong", "strong", "strong"),
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
    ) -> None:
        self.rules = rules
        self.console = console or Console(highlight=False)
        self.input_fn = input_fn
        self.human = human
        match_seed = hashlib.sha256(f"laizi-play:{seed}".encode()).digest()
        self.match = Match(rules, seed=match_seed, max_hands=hands)
        others = [s for s in range(4) if s != human]
        seed_int = int.from_bytes(match_seed[:4], "big")
        self.control = SeatControl({s: b for s, b in zip(others, bots, strict=False)},
                                   seed=seed_int, match=self.match)
        self.names = ["你 you" if s == human else f"bot {self.control.bots[s].name}"
                      for s in range(4)]
        self.auto_hand: int | None = None

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        try:
            while not self.match.over:
                hand = self.match.hand
                assert hand is not None
                if hand.hand_no != self.auto_hand and self.control.is_auto(self.human):
                    self.control.set_auto(self.human, False)
                    self.console.print("托管 ends: you play again.")
                self.control.play_auto(self.match)
                if self.match.over:
                    break
                hand = self.match.hand
                assert hand is not None
                if hand.over:
                    continue
                seats = hand.to_act()
                if self.human in seats:
                    action = self.ask(hand)
                    before = hand.hand_no
                    self.match.apply(self.human, action)
                    self.after_apply(before)
                else:  # pragma: no cover - play_auto handles every bot seat
                    break
            self.show_match_table()
            return 0
        except QuitGame:
            self.console.print("\n再见 — game left.")
            return 0

    def after_apply(self, hand_no: int) -> None:
        """Report the end of a hand when it just ended (bots may end it too)."""
        self.control.play_auto(self.match)

    # ------------------------------------------------------------------ input
    def read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            raise QuitGame from None

    def ask(self, hand: HandState) -> Action:
        legal = hand.legal_actions(self.human)
        self.show_table(hand)
        self.show_menu(hand, legal)
        while True:
            text = self.read("> ").strip()
            if not text:
                self.console.print("type a number from the menu, a tile like 5m, h for hints, "
                                   "a for 托管, q to quit")
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise QuitGame
            if low in ("h", "hint", "hints", "?"):
                self.show_hints(hand)
                continue
            if low in ("a", "auto"):
                self.console.print("托管: a bot plays your seat until the end of this hand.")
                self.control.set_auto(self.human, True, "strong")
                self.auto_hand = hand.hand_no
                return self.control.decide(hand, self.human)
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.console.print(f"no option {n}: choose 1-{len(legal)}")
                continue
            try:
                tiles = parse_tiles(text)
            except ValueError as exc:
                self.console.print(f"not understood: {exc}")
                continue
            if len(tiles) != 1:
                self.console.print("type one tile to discard, e.g. 5m")
                continue
            act = Action("discard", tiles[0].index)
            if act in legal:
                return act
            if hand.phase != "turn":
                self.console.print("you cannot discard now: choose from the menu")
            elif not hand.hands[self.human][tiles[0].index]:
                self.console.print(f"you do not hold {tiles[0]}")
            else:
                self.console.print(f"discarding {tiles[0]} is not legal now")

    # ------------------------------------------------------------------ display
    def _tiles(self, counts: Sequence[int], setup: Any, drawn: int | None = None) -> str:
        parts: list[str] = []
        skip = drawn
        for k in range(34):
            for _ in range(counts[k]):
                if k == skip:
                    skip = None
                    continue
                parts.append(self._tile(k, setup))
        if drawn is not None and counts[drawn]:
            parts.append(" + " + self._tile(drawn, setup))
        return " ".join(parts)

    def _tile(self, k: int, setup: Any) -> str:
        s = _t(k)
        if k == setup.laizi:
            return f"[bold magenta]{s}*[/]"
        if k in setup.special:
            return f"[bold red]{s}![/]"
        return s

    def _seat_name(self, hand: HandState, s: int) -> str:
        wind = _WIND[(s - hand.dealer) % 4]
        dealer = " 庄" if s == hand.dealer else ""
        return f"{s} {wind}{dealer} {self.names[s]}"

    def show_table(self, hand: HandState) -> None:
        c = self.console
        setup = hand.setup
        m = self.match
        c.rule()
        c.print(
            f"hand {hand.hand_no}  round {m.round}  wall {hand.wall_remaining}  "
            f"indicator {_t(hand.indicator)}  laizi [bold magenta]{_t(setup.laizi)}*[/] "
            f"({Tile(setup.laizi).chinese})  special "
            + " ".join(f"[bold red]{_t(k)}![/]" for k in sorted(setup.special)))
        for s in range(4):
            melds = " ".join(escape(f"[{mm}]") for mm in hand.melds[s]) or "-"
            kongs = "".join(_t(k) for k in hand.special_kongs[s] + hand.special_discards[s])
            river = " ".join(_t(k) for k in hand.rivers[s])
            score = self.match.score_values()[s]
            c.print(f"[bold]{self._seat_name(hand, s)}[/] ({score:+})  "
                    f"concealed {hand.concealed_count(s)}  melds {melds}"
                    + (f"  kongs {kongs}" if kongs else ""))
            c.print(f"    river: {river or '-'}")
        me = self.human
        drawn = hand.last_draw if hand.phase in ("turn", "haidi") and hand.turn == me else None
        c.print(f"[bold]your hand:[/] {self._tiles(hand.hands[me], setup, drawn)}")

    def show_menu(self, hand: HandState, legal: list[Action]) -> None:
        c = self.console
        if hand.phase in ("claim", "rob") and hand.pending is not None:
            verb = "discarded" if hand.phase == "claim" else "adds a kong with"
            c.print(f"seat {hand.turn} {verb} [bold]{_t(hand.pending)}[/]")
        for i, a in enumerate(legal, 1):
            c.print(f"  {i}) {a}  {_ACTION_CN.get(a.type, '')}")
        c.print("  (number, a tile like 5m to discard, h hints, a 托管, q quit)")

    def show_hints(self, hand: HandState) -> None:
        from laizi.hints import hints_for

        view = SeatView.from_state(hand, self.human)
        try:
            hints = hints_for(view)
        except Exception as exc:  # a hint failure must never end the game
            self.console.print(f"hints unavailable: {exc}")
            return
        for h in hints[:8]:
            star = "★" if h.get("recommended") else " "
            extra = ""
            if h.get("kind") == "discard":
                extra = f"shanten {h['shanten']}"
                if h.get("waits"):
                    ws = ", ".join(f"{w['tile']}×{w['unseen']}" for w in h["waits"])
                    reach = "reaches" if h.get("reaches_minimum") else "below"
                    extra += f"  waits {ws}  ({reach} the minimum, ~{h['expected_payment']})"
            elif "shanten_after" in h:
                extra = f"shanten {h['shanten_before']} → {h['shanten_after']}"
            self.console.print(f" {star} {h['label']}  {extra}")

    def show_result(self, hand: HandState) -> None:
        c = self.console
        c.rule(f"hand {hand.hand_no} over")
        res = hand.result
        if res is None:
            c.print("荒庄 drawn hand: the wall is exhausted.")
        else:
            sc = res["score"]
            big = ", ".join(f"{BIG_HAND_NAMES.get(b, b)} {b}" for b in sc["big_hands"]) or "屁胡 small hand"
            how = {"self_draw": "自摸 self-drawn", "discard": f"on seat {res['from']}'s discard",
                   "rob_kong": f"robbing seat {res['from']}'s kong"}[res["by"]]
            c.print(f"[bold]seat {res['winner']} ({self.names[res['winner']]}) wins[/] {how} "
                    f"with {res['tile']}: {big}")
            for line in sc["breakdown"]:
                c.print(f"    {line}")
        pays = hand.payments or [0.0] * 4
        c.print("payments: " + "  ".join(f"seat {s} {p:+g}" for s, p in enumerate(pays)))
        c.print("hands: " + "  ".join(
            f"{s}: {self._tiles(hand.hands[s], hand.setup)}" for s in range(4)))

    def show_match_table(self) -> None:
        t = Table(title="match")
        t.add_column("seat")
        t.add_column("player")
        t.add_column("score", justify="right")
        for s, v in enumerate(self.match.score_values()):
            t.add_row(str(s), self.names[s], f"{v:+g}")
        self.console.print(t)


class _ReportingMatch(TerminalGame):
    """Shows each hand's result as soon as it ends (the match deals the next one)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown = 0
        self._orig_apply = self.match.apply
        self.match.apply = self._apply  # type: ignore[method-assign]
        self._last_hand: HandState | None = self.match.hand

    def _apply(self, seat: int, action: Action) -> None:
        hand = self.match.hand
        self._orig_apply(seat, action)
        if hand is not None and hand.over and hand.hand_no > self._shown:
            self._shown = hand.hand_no
            self.show_result(hand)


def play(
    *,
    preset: str = "kaikoufan",
    seed: int | str = 0,
    hands: int = 4,
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
    bots: Sequence[str] = ("strong", "strong", "strong"),
) -> int:
    """Play a match in the terminal; returns an exit status."""
    rules = RuleSet.preset(preset)
    game = _ReportingMatch(rules, seed=seed, hands=hands, console=console, input_fn=input_fn,
                           bots=bots)
    return game.run()
