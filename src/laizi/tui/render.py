"""Rich text for the terminal table: tiles in suit colours, seats, the centre, settlements.

Colours follow the table conventions: 万 red, 筒 blue, 条 green, 中 red, 发 green, 白
framed grey; the laizi (赖子) is gold on every copy (hand, river, melds, kongs) and the
special kong tiles are bold red. Pure functions from the seat's JSON view
(:func:`laizi.views.view`) and events to :class:`rich.text.Text`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from laizi.game.actions import tile_from_str
from laizi.tiles import GREEN_DRAGON, RED_DRAGON, WHITE_DRAGON, Tile
from laizi.tui.words import (
    Lang,
    W,
    big_hand_name,
    localize_line,
    seat_label,
    tile_long,
    tile_short,
    wind_of,
)

__all__ = ["centre_text", "match_table", "seat_text", "settlement_text", "tile_text"]

LAIZI_STYLE = "bold black on gold1"
SPECIAL_STYLE = "bold white on red3"
_SUIT_STYLE = {0: "red1", 1: "deep_sky_blue1", 2: "green3"}
_HONOR_STYLE = {WHITE_DRAGON: "grey70", GREEN_DRAGON: "bold green3", RED_DRAGON: "bold red1"}


def tile_style(k: int, laizi: int | None = None, special: Sequence[int] = ()) -> str:
    if k == laizi:
        return LAIZI_STYLE
    if k in special:
        return SPECIAL_STYLE
    if k < 27:
        return _SUIT_STYLE[k // 9]
    return _HONOR_STYLE.get(k, "bold bright_white")


def _pad(label: str, lang: Lang) -> str:
    width = 4 if lang == "zh" else 2
    return label + " " * max(0, width - cell_len(label))


class TileStyler:
    """Tile → styled text for one hand's laizi and special tiles."""

    def __init__(self, hv: Mapping[str, Any], lang: Lang) -> None:
        self.lang: Lang = lang
        self.laizi = tile_from_str(hv["laizi"])
        self.special = [tile_from_str(t) for t in hv.get("special", [])]

    def style(self, tile: int | str) -> str:
        k = tile if isinstance(tile, int) else tile_from_str(tile)
        return tile_style(k, self.laizi, self.special)

    def tile(self, tile: int | str, *, pad: bool = True) -> Text:
        label = tile_short(tile, self.lang)
        return Text(_pad(label, self.lang) if pad else label, style=self.style(tile))

    def tiles(self, tiles: Sequence[str], per_row: int = 0) -> Text:
        out = Text()
        for i, t in enumerate(tiles):
            if i:
                out.append("\n" if per_row and i % per_row == 0 else " ")
            out.append_text(self.tile(t))
        return out

    def meld(self, m: Mapping[str, Any], owner: int, dealer: int, names: Sequence[str]) -> Text:
        codes = meld_codes(m)
        # a chi's tile taken from 上家 is underlined (the web table turns it sideways)
        took = codes.index(m["claimed"]) if m["type"] == "chi" and m.get("claimed") in codes else -1
        out = Text("[")
        if self.lang == "zh":  # compact, as written in Chinese: 五五五万, 一二三条, 南南南
            labels = [tile_short(c, "zh") for c in codes]
            suit = labels[0][1:] if len(labels[0]) > 1 else ""
            style = self.style(codes[0])
            for i, x in enumerate(labels):
                out.append(x[0], style=f"{style} underline" if i == took else style)
            out.append(suit, style=style)
        else:
            for i, c in enumerate(codes):
                if i:
                    out.append(" ")
                t = self.tile(c, pad=False)
                if i == took:
                    t.stylize("underline")
                out.append_text(t)
        out.append("]")
        kind = {"ankong": ("暗", "c"), "addkong": ("蓄", "+"), "kong": ("明", "k")}.get(m["type"])
        if kind:
            out.append(kind[0] if self.lang == "zh" else kind[1], style="dim")
        if "from" in m:
            out.append("←" + wind_of(int(m["from"]), dealer, self.lang)[:1], style="dim")
        return out


def meld_codes(m: Mapping[str, Any]) -> list[str]:
    """The tiles of a meld view (``tiles`` when given, else from ``type`` and ``tile``)."""
    if "tiles" in m:
        return [m["tiles"][i:i + 2] for i in range(0, len(m["tiles"]), 2)]
    k = tile_from_str(m["tile"])
    if m["type"] == "chi":
        return [str(Tile(k + i)) for i in range(3)]
    return [m["tile"]] * (3 if m["type"] == "peng" else 4)


def tile_text(tile: int | str, hv: Mapping[str, Any], lang: Lang) -> Text:
    return TileStyler(hv, lang).tile(tile, pad=False)


def seat_text(hv: Mapping[str, Any], seat: int, names: Sequence[str], scores: Sequence[float],
              lang: Lang, *, auto: bool = False, river_row: int = 6, active: bool = False,
              last_discard: int | None = None, backs: bool = False, level: str = "",
              fan: Mapping[str, Any] | None = None) -> Text:
    """A seat: label, 庄, score, its public 番 and 阳光/金顶 standing (``fan``: the seat's
    :func:`laizi.views.fan.seat_fan`), hand size, 托管; the concealed tiles as backs
    (``backs``); melds, special kongs; the river in rows, the latest discard (of
    ``last_discard``'s seat, or the tile under claim) highlighted."""
    w = W[lang]
    st = TileStyler(hv, lang)
    dealer = int(hv["dealer"])
    s = hv["seats"][seat]
    out = Text()
    head = seat_label(seat, dealer, names, lang)
    out.append(("▶ " if active else "") + head, style="bold reverse" if active else "bold")
    if seat == dealer:
        out.append(f" [{w['dealer']}]", style="bold yellow")
    out.append(f"  {scores[seat]:+g}", style="bold cyan")
    if fan is not None:
        standing = w["st_sunshine"] if fan["standing"] == "sunshine" else w["st_golden"]
        out.append("  " + w["seat_fan"].format(n=fan["fan"], standing=standing),
                   style="bold dark_orange" if fan["standing"] == "sunshine" else "bold blue")
    out.append("  " + w["concealed"].format(n=s["concealed"]), style="dim")
    if level:
        out.append(f"  {level}", style="dim italic")
    if auto:
        out.append(f"  🤖{w['auto_mark']}", style="bold magenta")
    if backs and s["concealed"]:
        out.append("\n" + "▮" * int(s["concealed"]), style="grey62")
    melds = s["melds"]
    kongs = list(s["special_kongs"]) + list(s["special_discards"])
    if melds or kongs:
        out.append("\n")
        for i, m in enumerate(melds):
            if i:
                out.append(" ")
            out.append_text(st.meld(m, seat, dealer, names))
        if kongs:
            out.append(("  " if melds else "") + w["kongs"] + " ", style="dim")
            out.append_text(st.tiles(kongs))
    out.append("\n")
    river = s["river"]
    if river:
        for i, t in enumerate(river):
            if i and i % river_row == 0:
                out.append("\n")
            elif i:
                out.append(" ")
            pend = hv.get("pending")
            latest = pend["seat"] == seat if pend else last_discard == seat
            last = i == len(river) - 1 and latest
            tt = st.tile(t)
            if last:
                tt.stylize("underline reverse")
            out.append_text(tt)
    else:
        out.append(w["river"] + " —", style="dim")
    return out


def centre_text(v: Mapping[str, Any], lang: Lang) -> Text:
    """Wall count, round and hand, dealer, indicator and laizi (gold), the claimed tile."""
    w = W[lang]
    hv = v["hand_view"]
    m = v["match"]
    st = TileStyler(hv, lang)
    out = Text(justify="center")
    out.append(w["wall"].format(n=hv["wall_remaining"]) + "\n", style="bold")
    out.append(f"{w['round'].format(r=m['round'])} · {w['hand_no'].format(n=hv['hand'])}\n")
    out.append(f"{w['dealer']} {wind_of(int(hv['dealer']), int(hv['dealer']), lang)}\n")
    out.append(f"{w['indicator']} ")
    out.append_text(st.tile(hv["indicator"], pad=False))
    out.append(f"\n{w['laizi']} ")
    out.append(f" {tile_short(hv['laizi'], lang)} ", style=LAIZI_STYLE)
    out.append("赖" if lang == "zh" else "*", style="bold gold1")
    if hv.get("special"):
        out.append(f"\n{w['special']} ")
        out.append_text(st.tiles(hv["special"]))
    pend = hv.get("pending")
    if pend:
        out.append("\n\n")
        out.append(f" {tile_long(pend['tile'], lang)} ", style=st.style(pend["tile"]) + " reverse")
    return out


def _how(win: Mapping[str, Any], dealer: int, names: Sequence[str], lang: Lang) -> str:
    w = W[lang]
    by = win.get("by")
    if by == "self_draw":
        how = w["self_draw"]
        if win.get("after_kong"):
            how += " · " + w["after_kong"]
        if win.get("haidi"):
            how += " · " + w["haidi"]
        return how
    frm = seat_label(int(win["from"]), dealer, names, lang)
    return w["robbed"].format(who=frm) if by == "rob_kong" else w["deal_in"].format(who=frm)


def settlement_text(rec: Any, names: Sequence[str], totals: Sequence[float], laizi: str,
                    special: Sequence[str], lang: Lang) -> Table:
    """The settlement of one hand (a :class:`~laizi.tui.session.HandRecord`)."""
    w = W[lang]
    dealer = rec.dealer
    hv = {"laizi": laizi, "special": list(special)}
    st = TileStyler(hv, lang)
    grid = Table.grid(padding=(0, 1))
    grid.add_column()
    grid.add_row(Text(w["settlement"].format(n=rec.hand), style="bold underline"))
    win = rec.win
    if win is None:
        grid.add_row(Text(w["drawn_hand"], style="bold yellow"))
    else:
        sc = win["score"]
        winner = int(win["seat"])
        head = Text(w["wins"].format(who=seat_label(winner, dealer, names, lang),
                                     tile=tile_long(win["tile"], lang)), style="bold green")
        head.append(f"  ({_how(win, dealer, names, lang)})", style="bold")
        grid.add_row(head)
        kinds = [big_hand_name(b, lang) for b in sc["big_hands"]]
        desc = " + ".join(kinds) if kinds else w["small"]
        desc += f" · {w['big'] if kinds else w['small']}" if kinds else ""
        desc += f" · {w['hard'] if sc['hard'] else w['soft']} · {w['base'].format(n=sc['base'])}"
        desc += f" · {w['winner_fan'].format(n=sc['winner_fan'])}"
        grid.add_row(Text(desc))
        hand_line = Text(w["winning_hand"] + ": ")
        codes: list[str] = (list(win["hand"]) if isinstance(win["hand"], list)
                            else _expand(str(win["hand"])))
        hand_line.append_text(st.tiles(codes))
        for m in win.get("melds", []):
            hand_line.append("  ")
            hand_line.append_text(st.meld(m, winner, dealer, names))
        grid.add_row(hand_line)
        notes = []
        if sc.get("topped_out"):
            notes.append(w["topped"])
        if sc.get("liable") is not None:
            notes.append(w["liable"].format(who=seat_label(int(sc["liable"]), dealer, names, lang)))
        if notes:
            grid.add_row(Text(" · ".join(notes), style="bold red"))
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for col in (w["seat"], w["fan"], w["amount"], w["payment"], w["total"]):
        table.add_column(col, justify="right" if col != w["seat"] else "left")
    sc = win["score"] if win else None
    for s in range(4):
        fan = "" if sc is None else (str(sc["winner_fan"]) if s == int(win["seat"]) else
                                     str(sc["loser_fan"][s]))
        raw = "" if sc is None or s == int(win["seat"]) else f"{sc['raw'][s]:+g}"
        pay = rec.deltas[s]
        table.add_row(seat_label(s, dealer, names, lang), fan, raw,
                      Text(f"{pay:+g}", style="green" if pay > 0 else "red" if pay < 0 else ""),
                      f"{totals[s]:+g}")
    grid.add_row(table)
    if sc is not None and sc.get("breakdown"):
        grid.add_row(Text(w["details"] + ":", style="dim"))
        for line in sc["breakdown"]:
            grid.add_row(Text("  " + localize_line(line, dealer, names, lang), style="dim"))
    return grid


def _expand(text: str) -> list[str]:
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out.extend(d + ch for d in digits)
            digits = ""
    return out


def match_table(records: Sequence[Any], names: Sequence[str], totals: Sequence[float],
                lang: Lang) -> Table:
    """The match: per-hand deltas, totals and ranking."""
    w = W[lang]
    t = Table(title=w["match_table"], show_lines=False)
    t.add_column(w["rank"], justify="right")
    t.add_column(w["seat"])
    for r in records:
        t.add_column(w["hand_no"].format(n=r.hand), justify="right")
    t.add_column(w["total"], justify="right", style="bold")
    order = sorted(range(4), key=lambda s: -totals[s])
    for rank, s in enumerate(order, 1):
        t.add_row(str(rank), f"{names[s]}", *(f"{r.deltas[s]:+g}" for r in records),
                  f"{totals[s]:+g}")
    return t


def waits_text(waits: Sequence[Mapping[str, Any]], lang: Lang) -> Text:
    """The own ready hand's 听 line: each wait with its unseen copies, what a win on it scores
    self-drawn and on a discard (the scorer's, :func:`laizi.hints.ready_waits` with scores) and
    够番 — the same as the web table's."""
    w = W[lang]
    out = Text(w["ting"] + " ", style="bold green")

    def pts(o: Mapping[str, Any]) -> str:
        return w["pts"].format(n=f"{o['total']:g}") if o.get("ok") else w["no_win"]

    for i, x in enumerate(waits):
        if i:
            out.append(" · ")
        enough = w["enough"] if x.get("enough") else w["short"]
        out.append(w["wait_pts"].format(tile=tile_long(x["tile"], lang), unseen=x["unseen"],
                                        sd=pts(x["self_draw"]), dc=pts(x["discard"]), enough=enough),
                   style="bold green" if x.get("enough") else "dim")
    return out
