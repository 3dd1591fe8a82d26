"""Line-mode play for a piped or redirected terminal (no full-screen table).

Every event of the human's stream is printed as a log line (other seats' draws
hidden), each decision shows the table and a numbered menu. Input, one line each:

- a number from the menu;
- a tile such as ``5m`` (or ``五万``, ``中``): discard it;
- ``h``: hints (智能提示) for this decision;
- ``a``: 托管 on (a bot plays this seat, its moves still printed) — ``a`` again at the
  next decision ends it; 托管 also ends at the start of each hand in line mode, so a
  piped game never runs away;
- ``q``: quit.

Bad input re-prompts with the reason; end of input (Ctrl-D, a closed pipe) quits.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.text import Text

from laizi.game.actions import Action
from laizi.tiles import parse_tiles
from laizi.tui.render import TileStyler, match_table, seat_text, settlement_text, waits_text
from laizi.tui.session import Session
from laizi.tui.words import (
    ACTION_ORDER,
    Lang,
    W,
    action_label,
    describe_event,
    scores_line,
    seat_label,
    tile_long,
)

__all__ = ["PlainGame", "QuitGame", "parse_input", "hint_lines"]


class QuitGame(Exception):
    """The player quit (``q`` or end of input)."""


def hint_lines(session: Session, lang: Lang) -> list[str]:
    """Hints for the human's decision, in the session's language."""
    from laizi.hints import hints_for

    w = W[lang]
    try:
        hints = hints_for(session.seat_view())
    except Exception as exc:  # a hint failure must never end the game
        return [w["hint_unavailable"].format(err=exc)]
    out = []
    for h in hints[:8]:
        star = "★" if h.get("recommended") else " "
        parts = [action_label(Action.from_json(h["action"]), lang)]
        if h.get("kind") == "discard":
            parts.append(w["shanten"].format(n=h["shanten"]))
            if h.get("waits"):
                ws = ", ".join(f"{tile_long(x['tile'], lang)}×{x['unseen']}" for x in h["waits"])
                parts.append(w["waits"].format(tiles=ws))
                parts.append(w["reach_min"] if h.get("reaches_minimum") else w["below_min"])
        elif "shanten_after" in h:
            parts.append(w["shanten"].format(n=f"{h['shanten_before']} → {h['shanten_after']}"))
        out.append(f" {star} " + "  ".join(parts))
    return out


def parse_input(text: str, legal: list[Action], held: list[int], lang: Lang) -> Action | str:
    """A menu number or a tile to discard → the action, or a message saying why not."""
    w = W[lang]
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return w["no_option"].format(n=n, m=len(legal))
    try:
        tiles = parse_tiles(_english_suits(text))
    except ValueError:
        return w["not_understood"].format(text=text)
    if len(tiles) != 1:
        return w["one_tile"]
    k = tiles[0].index
    act = Action("discard", k)
    if act in legal:
        return act
    if not any(a.type == "discard" for a in legal):
        return w["cannot_discard"]
    if not held[k]:
        return w["not_held"].format(tile=tile_long(k, lang))
    return w["not_legal"].format(tile=tile_long(k, lang))


_EN_HONORS = {"e": "1z", "s": "2z", "w": "3z", "n": "4z", "wh": "5z", "g": "6z", "r": "7z",
              "east": "1z", "south": "2z", "west": "3z", "north": "4z", "white": "5z",
              "green": "6z", "red": "7z"}


def _english_suits(text: str) -> str:
    """The English labels as tiles: ``5C``/``5D``/``5B`` (characters, dots, bamboo) →
    ``5m``/``5p``/``5s``; ``E S W N Wh G R`` (or the words) → ``1z``…``7z``."""
    t = text.strip()
    low = t.lower()
    if low in _EN_HONORS:
        return _EN_HONORS[low]
    if len(t) == 2 and t[0].isdigit() and low[1] in "cdb":
        return t[0] + {"c": "m", "d": "p", "b": "s"}[low[1]]
    return t


def menu_actions(legal: list[Action]) -> list[Action]:
    """Legal actions in the table order: 吃 碰 杠 胡 过, then the discards."""
    return sorted(legal, key=lambda a: (ACTION_ORDER.get(a.type, 9), a.tile or 0))


class PlainGame:
    """The line-mode game loop."""

    def __init__(self, session: Session, console: Console, input_fn: Callable[[str], str]) -> None:
        self.s = session
        self.c = console
        self.input_fn = input_fn
        self.lang: Lang = session.lang
        self.w = W[session.lang]

    def say(self, text: RenderableType) -> None:
        self.c.print(text)

    def flush(self) -> None:
        for e in self.s.new_events():
            if e["type"] == "scores":
                self.say(scores_line(e["deltas"], self.s.dealer, self.s.names, self.lang))
                continue
            line = describe_event(e, self.s.human, self.s.dealer, self.s.names, self.lang)
            if line:
                self.say(line)

    def run(self) -> int:
        try:
            while True:
                self.flush()
                if self.s.hand_over:
                    self.show_result()
                    if self.s.over:
                        break
                    if self.s.auto:
                        self.s.set_auto(False)
                        self.say(self.w["auto_ended"])
                    self.s.next_hand()
                    continue
                if self.s.step_bot():
                    continue
                self.s.apply(self.ask())
            self.flush()
            self.say(match_table(self.s.records, self.s.names, self.s.scores(), self.lang))
            return 0
        except QuitGame:
            self.say("\n" + self.w["goodbye"])
            return 0

    def read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            raise QuitGame from None

    def ask(self) -> Action:
        legal = menu_actions(self.s.legal())
        self.show_table()
        for i, a in enumerate(legal, 1):
            self.say(f"  {i}) {action_label(a, self.lang)}")
        self.say("  " + self.w["menu_help"])
        held = self.s.seat_view().hand
        while True:
            text = self.read("> ").strip()
            if not text:
                self.say(self.w["menu_help"])
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise QuitGame
            if low in ("h", "hint", "hints", "?"):
                for line in hint_lines(self.s, self.lang):
                    self.say(line)
                continue
            if low in ("a", "auto"):
                self.say(self.w["auto_started"])
                self.s.set_auto(True)
                return self.s.bot_choice()
            got = parse_input(text, legal, held, self.lang)
            if isinstance(got, Action):
                return got
            self.say(got)

    def show_table(self) -> None:
        v = self.s.view()
        hv = v["hand_view"]
        st = TileStyler(hv, self.lang)
        scores = v["match"]["scores"]
        self.c.rule()
        from laizi.tui.render import centre_text

        self.say(centre_text(v, self.lang))
        fans = self.s.fans() if hv["phase"] != "over" else [None] * 4
        for seat in range(4):
            self.say(seat_text(hv, seat, self.s.names, scores, self.lang, river_row=18,
                               auto=v["match"]["auto"][seat] and seat == self.s.human,
                               fan=fans[seat]))
        me = hv["me"]
        tiles = list(me["tiles"])
        drawn = me.get("drawn")
        line = Text(self.w["your_hand"] + ": ", style="bold")
        if drawn and drawn in tiles:
            tiles.remove(drawn)
        line.append_text(st.tiles(tiles))
        if drawn:
            line.append("  + ")
            line.append_text(st.tile(drawn))
        self.say(line)
        waits = self.s.waits()
        if waits:  # 听: each wait with its points and 够番 (the scorer's)
            self.say(waits_text(waits, self.lang))
        pend = hv.get("pending")
        if pend:
            key = "pending" if pend["kind"] == "discard" else "pending_rob"
            who = seat_label(int(pend["seat"]), int(hv["dealer"]), self.s.names, self.lang)
            self.say(self.w[key].format(who=who, tile=tile_long(pend["tile"], self.lang)))

    def show_result(self) -> None:
        rec = self.s.records[-1]
        hv = self.s.hand_view()
        self.c.rule(self.w["hand_over"].format(n=rec.hand))
        self.say(settlement_text(rec, self.s.names, self.s.scores(), hv["laizi"], hv["special"],
                                 self.lang))
