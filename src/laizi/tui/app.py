"""The full-screen terminal table (textual).

Layout: the human's seat at the bottom (own hand, action bar, status line), the 下家 on the
right, the 对家 at the top, the 上家 on the left (play runs counter-clockwise); the centre
shows the wall count, round and hand, dealer, indicator and laizi, and the tile under
claim. A log pane on the right announces every move of every seat (other seats' draws
hidden), claims and wins also flash over the seat that made them. The table is updated
in place; the bots move one action at a time (``delay`` seconds apart), also the human's
seat while 托管 is on.

Keys: ←/→ choose a tile (or an action in a claim window), Enter discards it (or takes the
action), a number + Enter takes an action of the bar, a tile typed as text (``5m``,
``五万``) + Enter discards it, h hints, a 托管 on/off, q quit. The mouse: click a tile to
raise it, click it again to discard; click an action.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from laizi.game.actions import Action, tile_from_str
from laizi.tui.plain import hint_lines, menu_actions, parse_input
from laizi.tui.render import centre_text, waits_text
from laizi.tui.session import Session
from laizi.tui.widgets import (
    ActionBar,
    HandBar,
    HelpScreen,
    ResultScreen,
    SeatPanel,
    SettlementScreen,
    settlement_body,
)
from laizi.tui.words import W, describe_event, scores_line, seat_label, tile_long

__all__ = ["TableApp"]

_CLAIM_WORDS = {
    "zh": {"chi": "吃！", "peng": "碰！", "kong": "杠！", "ankong": "杠！", "addkong": "杠！",
           "special_kong": "杠！", "laizi_kong": "杠！", "win": "胡！", "self_draw": "自摸！"},
    "en": {"chi": "Chow!", "peng": "Pung!", "kong": "Kong!", "ankong": "Kong!",
           "addkong": "Kong!", "special_kong": "Kong!", "laizi_kong": "Kong!", "win": "Win!",
           "self_draw": "Self-draw!"},
}
_LOG_STYLE = {"chi": "bold yellow", "peng": "bold yellow", "kong": "bold yellow",
              "ankong": "bold yellow", "addkong": "bold yellow", "special_kong": "yellow",
              "laizi_kong": "yellow", "win": "bold green", "ryukyoku": "bold", "scores": "cyan",
              "start_hand": "bold magenta", "auto": "magenta", "end_match": "bold"}
_POS = {0: "bottom", 1: "right", 2: "top", 3: "left"}  # relative to the human


class TableApp(App[int]):
    """One human against three bots on a full-screen table."""

    TITLE = "laizi"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; background: #0f3b24; }
    #main { height: 1fr; }
    #table { width: 1fr; }
    SeatPanel { border: round #2f7a4f; padding: 0 1; height: auto; }
    SeatPanel.active { border: round gold; }
    SeatPanel.announce { border: heavy red; border-title-color: red; border-title-style: bold; }
    #seat-top { min-height: 4; }
    #middle { height: 1fr; }
    #seat-left, #seat-right { width: 1fr; height: 1fr; }
    #centre { width: 26; height: 1fr; border: double gold; content-align: center middle;
              text-align: center; }
    #seat-bottom { min-height: 4; }
    #hand { height: 2; padding: 0 1; }  /* more rows when the tiles wrap */
    #actions { height: 1; padding: 0 1; }
    #status { height: 1; padding: 0 1; background: #0b2a1a; }
    #keys { height: 1; padding: 0 1; background: #081f13; }
    #log { width: 32%; min-width: 26; max-width: 46; border-left: solid #2f7a4f;
           background: #0b2a1a; }
    #settle-box, #result-box, #help-box { width: 90%; height: 90%; border: double gold; padding: 0 1;
                               background: #0b2a1a; }
    #settle-scroll { height: 1fr; }
    #settle-note { height: 1; }
    #continue, #quit { height: 1; width: auto; }
    ModalScreen { align: center middle; }
    """

    def __init__(self, session: Session, *, delay: float = 0.5,
                 settle_seconds: float = 8.0) -> None:
        super().__init__()
        self.session = session
        self.lang = session.lang
        self.w = W[self.lang]
        self.delay = delay
        self.settle_seconds = settle_seconds
        self.awaiting = False
        self.driving = False
        self.cursor = 0
        self.typed = ""
        self.message = ""
        self.quit_armed = False  # q pressed once: a second q quits
        self.log_lines: list[str] = []
        self.actions: list[Action] = []  # the action bar
        self.discards: list[Action] = []  # the legal discards (empty outside the own turn)
        self.hand_tiles: list[str] = []
        self.settlements = 0
        self.status_plain = ""
        self.last_discard: int | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        h = self.session.human
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield SeatPanel((h + 2) % 4, id="seat-top")
                with Horizontal(id="middle"):
                    yield SeatPanel((h + 3) % 4, id="seat-left")
                    yield Static("", id="centre")
                    yield SeatPanel((h + 1) % 4, id="seat-right")
                yield SeatPanel(h, id="seat-bottom")
                yield HandBar(self.pick_tile, id="hand")
                yield ActionBar(self.pick_action, id="actions")
                yield Static("", id="status")
            log = RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=20,
                          max_lines=3000)
            log.can_focus = False
            log.border_title = self.w["log"]
            yield log
        yield Static(Text(self.w["keys"], style="dim"), id="keys")

    def on_mount(self) -> None:
        self.title = self.w["title"]
        self.drive()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.show)

    # ------------------------------------------------------------------ driving
    @work(exclusive=True, group="drive")
    async def drive(self) -> None:
        """Play the bots (and 托管) move by move until the human must decide."""
        self.driving = True
        try:
            while True:
                self.sync()
                s = self.session
                if s.hand_over:
                    self.awaiting = False
                    auto = self.settle_seconds if s.auto else None
                    go_on = await self.push_screen_wait(
                        SettlementScreen(settlement_body(s), self.lang, auto))
                    self.settlements += 1
                    if not go_on:
                        self.exit(0)
                        return
                    if s.over:
                        await self.push_screen_wait(
                            ResultScreen(s.records, s.names, s.scores(), self.lang))
                        self.exit(0)
                        return
                    s.next_hand()
                    continue
                if s.step_bot():
                    # let the player watch each move (a draw shows with its discard)
                    if self.delay > 0 and self.sync() - {"draw", "response"}:
                        await asyncio.sleep(self.delay)
                    continue
                self.awaiting = s.human_to_act()
                self.prepare_choices()
                self.show()
                return
        finally:
            self.driving = False

    def sync(self) -> set[str]:
        """New events → log lines and seat announcements; then redraw the table.
        Returns the types of the new events."""
        s = self.session
        log = self.query_one("#log", RichLog)
        types: set[str] = set()
        for e in s.new_events():
            t = e["type"]
            types.add(t)
            if t == "discard" and "as" not in e:
                self.last_discard = int(e["seat"])
            elif t in ("start_hand", "chi", "peng", "kong", "win"):
                self.last_discard = None
            if t == "scores":
                line: str | None = scores_line(e["deltas"], s.dealer, s.names, self.lang)
            else:
                line = describe_event(e, s.human, s.dealer, s.names, self.lang)
            if not line:
                continue
            self.log_lines.append(line)
            log.write(Text(line, style=_LOG_STYLE.get(t, "cyan" if e.get("seat") == s.human
                                                      else "")))
            word = None
            if t in _CLAIM_WORDS[self.lang] and t != "win":
                word = _CLAIM_WORDS[self.lang][t]
            elif t == "win":
                key = "self_draw" if e.get("by") == "self_draw" else "win"
                word = _CLAIM_WORDS[self.lang][key]
            if word is not None:
                self.seat_panel(int(e["seat"])).announce(word)
        self.show()
        return types

    def seat_panel(self, seat: int) -> SeatPanel:
        rel = (seat - self.session.human) % 4
        return self.query_one(f"#seat-{_POS[rel]}", SeatPanel)

    # ------------------------------------------------------------------ drawing
    def prepare_choices(self) -> None:
        legal = self.session.legal() if self.awaiting else []
        self.discards = [a for a in legal if a.type == "discard"]
        self.actions = [a for a in menu_actions(legal) if a.type != "discard"]
        hv = self.session.hand_view()
        me = hv.get("me") or {}
        tiles = list(me.get("tiles", []))
        drawn = me.get("drawn")
        if drawn in tiles:
            tiles.remove(drawn)
            tiles.append(drawn)
        self.hand_tiles = tiles
        if self.discards:
            self.cursor = len(tiles) - 1  # the drawn tile
        else:  # a claim window: Enter wins when it can, else passes (never claims by accident)
            kinds = [a.type for a in self.actions]
            self.cursor = next((kinds.index(k) for k in ("ron", "tsumo", "pass") if k in kinds), 0)
        self.typed = ""

    def show(self) -> None:
        s = self.session
        v = s.view()
        hv = v["hand_view"]
        m = v["match"]
        turn = int(hv["turn"])
        fans = s.fans() if hv["phase"] != "over" else [None] * 4
        for seat in range(4):
            panel = self.seat_panel(seat)
            active = hv["phase"] != "over" and seat == turn
            panel.set_class(active, "active")
            panel.show(hv=hv, names=s.names, scores=m["scores"], lang=self.lang,
                       auto=bool(m["auto"][seat]) and seat == s.human, active=active,
                       last_discard=self.last_discard, backs=seat != s.human,
                       level=s.levels.get(seat, ""), fan=fans[seat])
        self.query_one("#centre", Static).update(centre_text(v, self.lang))
        me = hv.get("me") or {}
        if not self.awaiting:
            tiles = list(me.get("tiles", []))
            drawn = me.get("drawn")
            if drawn in tiles:
                tiles.remove(drawn)
                tiles.append(drawn)
            self.hand_tiles = tiles
        drawn = me.get("drawn") if hv["phase"] in ("turn", "haidi") else None
        can_discard = self.awaiting and bool(self.discards)
        self.query_one("#hand", HandBar).show(
            self.hand_tiles, drawn, self.cursor if can_discard else None, hv, self.lang,
            can_discard or not self.awaiting)
        in_claim = self.awaiting and not self.discards
        self.query_one("#actions", ActionBar).show(
            self.actions if self.awaiting else [], self.cursor if in_claim else None, self.lang)
        status = self.status_text(hv)
        self.status_plain = status.plain
        self.query_one("#status", Static).update(status)

    def status_text(self, hv: dict[str, Any]) -> Text:
        w = self.w
        s = self.session
        if self.quit_armed:  # asked until the next key
            return Text(w["quit_again"], style="bold red")
        if s.auto:
            return Text(w["auto_on"], style="bold white on magenta")
        if self.message:
            msg, self.message = self.message, ""
            return Text(msg, style="bold red")
        if self.typed:
            return Text(w["typed"].format(text=self.typed), style="bold")
        if not self.awaiting:
            waits = s.waits()  # 听: the own ready hand's waits, scored (as the web table's)
            return waits_text(waits, self.lang) if waits else Text(w["waiting"], style="dim")
        pend = hv.get("pending")
        if pend:
            key = "claim_turn" if pend["kind"] == "discard" else "rob_turn"
            who = seat_label(int(pend["seat"]), int(hv["dealer"]), s.names, self.lang)
            return Text(w[key].format(who=who, tile=tile_long(pend["tile"], self.lang)),
                        style="bold yellow")
        if hv["phase"] == "haidi":
            return Text(w["haidi_turn"], style="bold yellow")
        if hv["phase"] == "replace":
            return Text(w["replace_turn"], style="bold yellow")
        return Text(w["your_turn"], style="bold green")

    # ------------------------------------------------------------------ input
    def act(self, action: Action) -> None:
        if not self.awaiting:
            return
        self.awaiting = False
        self.typed = ""
        self.session.apply(action)
        self.drive()

    def pick_tile(self, i: int) -> None:
        """A click on a hand tile: raise it, or discard it when already raised."""
        if not self.awaiting or not self.discards or i >= len(self.hand_tiles):
            return
        if i == self.cursor:
            self.discard_at(i)
        else:
            self.cursor = i
            self.show()

    def pick_action(self, i: int) -> None:
        if self.awaiting and 0 <= i < len(self.actions):
            self.act(self.actions[i])

    def discard_at(self, i: int) -> None:
        k = tile_from_str(self.hand_tiles[i])
        act = Action("discard", k)
        if act in self.discards:
            self.act(act)
        else:
            self.message = self.w["not_legal"].format(tile=tile_long(self.hand_tiles[i], self.lang))
            self.show()

    def toggle_auto(self) -> None:
        """托管 on (a bot plays this seat, visibly) or off (back to the player)."""
        s = self.session
        if s.over:
            return
        s.set_auto(not s.auto)
        self.message = ""
        self.awaiting = False
        self.sync()
        if not self.driving:
            self.drive()

    def submit_typed(self) -> None:
        text, self.typed = self.typed.strip(), ""
        legal = self.actions if text.isdigit() else self.discards + self.actions
        held = self.session.seat_view().hand
        got = parse_input(text, legal, held, self.lang)
        if isinstance(got, Action):
            self.act(got)
        else:
            self.message = got
            self.show()

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # a settlement or result screen has its own keys
        key = event.key
        ch = event.character or ""
        event.stop()
        if key == "q" and not self.typed:
            if self.quit_armed:  # the second q: quit (the first one only asked)
                self.exit(0)
                return
            self.quit_armed = True
            self.show()
            return
        if self.quit_armed:
            self.quit_armed = False
            self.show()
        if key == "a" and not self.typed:
            self.toggle_auto()
        elif key == "h" and not self.typed:
            self.show_hints()
        elif key in ("question_mark", "f1") and not self.typed:
            self.push_screen(HelpScreen(self.lang))
        elif not self.awaiting:
            return
        elif key in ("left", "right"):
            n = len(self.hand_tiles) if self.discards else len(self.actions)
            if n:
                self.cursor = (self.cursor + (1 if key == "right" else -1)) % n
            self.show()
        elif key in ("enter", "space"):
            if self.typed:
                self.submit_typed()
            elif self.discards:
                self.discard_at(self.cursor)
            elif self.actions:
                self.act(self.actions[self.cursor % len(self.actions)])
        elif key == "backspace":
            self.typed = self.typed[:-1]
            self.show()
        elif key == "escape":
            self.typed = ""
            self.show()
        elif ch.isdigit() and not self.discards and not self.typed and len(self.actions) < 10:
            n = int(ch)
            if 1 <= n <= len(self.actions):
                self.act(self.actions[n - 1])
            else:
                self.message = self.w["no_option"].format(n=n, m=len(self.actions))
                self.show()
        elif ch and (ch.isalnum() or ord(ch) > 0x2E80):
            self.typed += ch
            self.show()

    def show_hints(self) -> None:
        if not self.awaiting:
            return
        log = self.query_one("#log", RichLog)
        log.write(Text(self.w["hints"] + ":", style="bold green"))
        for line in hint_lines(self.session, self.lang):
            self.log_lines.append(line)
            log.write(Text(line, style="green"))
