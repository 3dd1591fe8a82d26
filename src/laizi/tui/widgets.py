"""Widgets of the terminal table: seats, the own hand, the action bar, the screens.

The own hand and the action bar are one-line texts whose parts can be clicked: each
keeps the cell spans of its items and maps a click's column to an item.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from laizi.game.actions import Action
from laizi.tui.render import TileStyler, match_table, seat_text, settlement_text
from laizi.tui.words import GLOSSARY, HELP_KEYS, Lang, W, action_label

__all__ = ["ActionBar", "HandBar", "HelpScreen", "ResultScreen", "SeatPanel", "SettlementScreen"]


def _cells(text: str) -> int:
    return cell_len(text)


class SpanBar(Static):
    """A line of clickable items; ``on_pick(i)`` is called with the clicked item."""

    can_focus = False

    def __init__(self, on_pick: Callable[[int], None], **kw: Any) -> None:
        super().__init__("", **kw)
        self.on_pick = on_pick
        self.spans: list[tuple[int, int, int, int]] = []  # (row, start, end, item)

    def item_at(self, x: int, y: int) -> int | None:
        for row, a, b, i in self.spans:
            if row == y and a <= x < b:
                return i
        return None

    def on_click(self, event: events.Click) -> None:
        off = event.get_content_offset(self)
        if off is None:
            return
        i = self.item_at(off.x, off.y)
        if i is not None:
            event.stop()
            self.on_pick(i)


class HandBar(SpanBar):
    """The own concealed tiles; the selected one raised, the drawn one set apart.

    Two lines per row of tiles (the raised tile sits on the upper one); the tiles wrap
    into more rows when the terminal is narrow."""

    def show(self, tiles: Sequence[str], drawn: str | None, selected: int | None,
             hv: dict[str, Any], lang: Lang, enabled: bool) -> None:
        st = TileStyler(hv, lang)
        width = max(12, self.content_region.width or 80)
        rows: list[tuple[Text, Text]] = [(Text(), Text())]
        self.spans = []
        col = 0
        for i, t in enumerate(tiles):
            tt = st.tile(t, pad=False)
            label = tt.plain
            w = _cells(label)
            sep = 1 if lang == "zh" else 2
            gap = 3 if (i and drawn is not None and i == len(tiles) - 1) else (sep if i else 0)
            if col + gap + w > width:
                rows.append((Text(), Text()))
                col, gap = 0, 0
            top, line = rows[-1]
            top.append(" " * gap)
            line.append(" " * gap)
            col += gap
            style = str(tt.style)
            r = 2 * (len(rows) - 1)
            if i == selected:
                top.append(label, style=style + " reverse bold")
                line.append(" " * w)
                self.spans.append((r, col, col + w, i))
            else:
                top.append(" " * w)
                line.append(label, style=style if enabled else style + " dim")
            self.spans.append((r + 1, col, col + w, i))
            col += w
        lines: list[Text] = []
        for top, line in rows:
            lines += [top, line]
        self.styles.height = len(lines)
        self.update(Text("\n").join(lines))


class ActionBar(SpanBar):
    """Numbered actions in the table order (吃 碰 杠 胡 过); 胡/自摸 stand out."""

    def show(self, actions: Sequence[Action], selected: int | None, lang: Lang) -> None:
        out = Text()
        self.spans = []
        col = 0
        for i, a in enumerate(actions):
            label = f" {i + 1} {action_label(a, lang)} "
            if a.type in ("ron", "tsumo"):
                style = "bold white on red3"
            elif a.type == "pass":
                style = "black on grey70"
            else:
                style = "bold black on gold1"
            if i == selected:
                style += " underline"
                label = f"▶{label[1:]}"
            w = _cells(label)
            out.append(label, style=style)
            self.spans.append((0, col, col + w, i))
            out.append("  ")
            col += w + 2
        self.update(out)


class SeatPanel(Static):
    """One seat: label, score, hand size, melds, kongs, river (rows of up to six)."""

    can_focus = False

    def __init__(self, seat: int, **kw: Any) -> None:
        super().__init__("", **kw)
        self.seat = seat
        self.data: dict[str, Any] | None = None
        self._lines = -1

    def show(self, **data: Any) -> None:
        self.data = data
        text = self._text()
        lines = text.plain.count("\n")
        self.update(text)
        if lines != self._lines:
            self._lines = lines
            self.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        if self.data is not None:
            self.update(self._text())

    def _text(self) -> Text:
        d = self.data
        assert d is not None
        width = max(10, self.content_region.width or 40)
        per_tile = 5 if d["lang"] == "zh" else 3
        row = max(3, min(6, (width + 1) // per_tile))
        return seat_text(d["hv"], self.seat, d["names"], d["scores"], d["lang"], auto=d["auto"],
                         river_row=row, active=d["active"], last_discard=d["last_discard"],
                         backs=d["backs"], level=d["level"], fan=d.get("fan"))

    def announce(self, word: str) -> None:
        """A large word over the seat (碰！杠！胡！) for a moment."""
        self.border_title = f" {word} "
        self.add_class("announce")
        self.set_timer(1.5, self._clear)

    def _clear(self) -> None:
        self.border_title = None
        self.remove_class("announce")


class SettlementScreen(ModalScreen[bool]):
    """结算: the winner, how, big hands, the hand, every seat's fan and payment."""

    BINDINGS = [
        Binding("enter,space,c", "go", "continue"),
        Binding("q", "quit_game", "quit"),
        Binding("a", "auto", "托管"),
    ]

    def __init__(self, body: RenderableType, lang: Lang, auto_seconds: float | None) -> None:
        super().__init__()
        self.body = body
        self.lang: Lang = lang
        self.auto_seconds = auto_seconds
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        w = W[self.lang]
        with Vertical(id="settle-box"):
            with VerticalScroll(id="settle-scroll"):
                yield Static(self.body, id="settlement")
            note = w["press_continue"]
            if self.auto_seconds is not None:
                note += "  ·  " + w["auto_continue"].format(n=f"{self.auto_seconds:g}")
            yield Static(Text(note, style="dim"), id="settle-note")
            yield SpanBar(lambda i: self.action_go(), id="continue")

    def on_mount(self) -> None:
        bar = self.query_one("#continue", SpanBar)
        label = f"  {W[self.lang]['continue']}  "
        bar.update(Text().append(label, style="bold black on gold1"))
        bar.spans = [(0, 0, _cells(label), 0)]
        self.timer = None
        if self.auto_seconds is not None:
            self.timer = self.set_timer(max(self.auto_seconds, 0.01), self.action_go)

    def action_auto(self) -> None:
        """托管 on/off from the settlement too; off stops the automatic continue."""
        toggle = getattr(self.app, "toggle_auto", None)
        if toggle is None:
            return
        toggle()
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
            self.query_one("#settle-note", Static).update(
                Text(W[self.lang]["press_continue"], style="dim"))

    def action_go(self) -> None:
        if self.is_current:
            self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)


class ResultScreen(ModalScreen[bool]):
    """The match table at the end; any of Enter / q / a click closes the game."""

    BINDINGS = [Binding("enter,space,q", "close", "quit")]

    def __init__(self, records: Sequence[Any], names: Sequence[str], totals: Sequence[float],
                 lang: Lang) -> None:
        super().__init__()
        self.table = match_table(records, names, totals, lang)
        self.lang: Lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="result-box"):
            yield Static(Text(W[self.lang]["match_over"], style="bold underline"))
            yield Static(self.table, id="match-table")
            yield SpanBar(lambda i: self.action_close(), id="quit")

    def on_mount(self) -> None:
        bar = self.query_one("#quit", SpanBar)
        label = f"  {W[self.lang]['quit']}  "
        bar.update(Text().append(label, style="bold black on gold1"))
        bar.spans = [(0, 0, _cells(label), 0)]

    def action_close(self) -> None:
        self.dismiss(True)


class HelpScreen(ModalScreen[None]):
    """Keys, and the glossary with each Chinese term shown once."""

    BINDINGS = [Binding("enter,escape,space,q", "close", "close")]

    def __init__(self, lang: Lang) -> None:
        super().__init__()
        self.lang: Lang = lang

    def compose(self) -> ComposeResult:
        w = W[self.lang]
        body = Text(w["help"] + "\n", style="bold underline")
        for line in HELP_KEYS[self.lang]:
            body.append("  " + line + "\n")
        body.append("\n" + w["glossary"] + "\n", style="bold underline")
        for en, zh in GLOSSARY:
            body.append(f"  {zh} · {en}\n" if self.lang == "zh" else f"  {en} — {zh}\n")
        body.append("\n" + w["close"], style="dim")
        with VerticalScroll(id="help-box"):
            yield Static(body)

    def action_close(self) -> None:
        self.dismiss(None)


def settlement_body(session: Any) -> RenderableType:
    rec = session.records[-1]
    hv = session.hand_view()
    return settlement_text(rec, session.names, session.scores(), hv["laizi"], hv["special"],
                           session.lang)
