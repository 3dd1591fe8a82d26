"""``laizi replay LOG``: a readable hand-by-hand account of a game log."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from laizi.cli.paths import read_log
from laizi.game.errors import GameError
from laizi.game.events import Event, project
from laizi.game.match import Match
from laizi.game.replay import replay_all
from laizi.tiles import parse_tiles, tiles_to_str

NAME = "replay"
HELP = "print a readable hand-by-hand account of a game log (tiles in mpsz notation)"

_VERB = {"ankong": "declares a concealed kong", "addkong": "declares an added kong (蓄杠)",
         "special_kong": "lays aside a special tile", "laizi_kong": "lays aside a laizi"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a game log (JSON lines)")
    parser.add_argument("--seat", type=int, choices=range(4), default=None,
                        help="show only what this seat saw")
    parser.add_argument("--check", action="store_true",
                        help="replay through the engine first and print each final state hash")
    parser.add_argument("--no-draws", action="store_true", help="leave out draw lines")


def _sorted(tiles: str) -> str:
    return tiles_to_str(parse_tiles(tiles)) if tiles else "-"


def _fmt(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def describe(events: Iterable[Event], *, seat: int | None = None, draws: bool = True) -> list[str]:
    """The account of a log, one line per event worth telling."""
    lines: list[str] = []
    for raw in events:
        e = project(raw, seat) if seat is not None else raw
        if e is None:
            continue
        t = e["type"]
        s = e.get("seat")
        if t == "start_match":
            r = e.get("rules", {})
            lines.append(f"##### match · preset {r.get('preset_name')} · {r.get('rounds')} round(s) "
                         f"· first dealer {e.get('first_dealer')}")
        elif t == "start_hand":
            extra = f" · round {e['round']}" if "round" in e else ""
            scores = f" · scores {' '.join(_fmt(x) for x in e['scores'])}" if "scores" in e else ""
            lines.append("")
            lines.append(f"=== hand {e.get('hand')}{extra} · dealer {e.get('dealer')} · indicator "
                         f"{e.get('indicator')} → laizi {e.get('laizi')} · special "
                         f"{''.join(e.get('special', []))}{scores}")
            lines.append(f"    commitment {e.get('commitment')}")
        elif t == "deal":
            tiles = e.get("tiles")
            shown = _sorted(tiles) if tiles else f"{e.get('count')} tiles"
            lines.append(f"  deal seat {s}: {shown}")
        elif t == "draw":
            if draws:
                src = {"back": " (replacement, from the back)", "haidi": " (haidi)"}.get(e.get("src", ""), "")
                lines.append(f"  seat {s} draws {e.get('tile', '??')}{src}")
        elif t == "discard":
            how = {"special": " — counts as a special kong", "laizi": " — counts as a laizi kong"}
            lines.append(f"  seat {s} discards {e['tile']}{how.get(e.get('as', ''), '')}")
        elif t in _VERB:
            lines.append(f"  seat {s} {_VERB[t]} {e['tile']}")
        elif t == "tsumo":
            lines.append(f"  seat {s} declares a self-drawn win")
        elif t == "replace":
            choice = "补: takes the replacement" if e.get("draw") else "不补: no replacement, no discard"
            lines.append(f"  seat {s} chooses {choice}")
        elif t == "response":
            a = e.get("action", {})
            lines.append(f"  seat {s} answers {a.get('type')} {a.get('tile', '')}".rstrip())
        elif t in ("chi", "peng", "kong"):
            run = ""
            if t == "chi":
                base = parse_tiles(e["run"])[0]
                run = f" ({base.number}{base.number + 1}{base.number + 2}{base.suit})"
            lines.append(f"  seat {s} {t}s {e['tile']}{run} from seat {e.get('from')}")
        elif t == "win":
            sc = e.get("score", {})
            by = {"discard": f"on seat {e.get('from')}'s discard", "self_draw": "by self-draw",
                  "rob_kong": f"robbing seat {e.get('from')}'s kong"}.get(e.get("by", ""), "")
            flags = " ".join(x for x, on in (("杠上开花", e.get("after_kong")), ("海底捞", e.get("haidi"))) if on)
            melds = " ".join(f"[{m['type']} {m['tile']}]" for m in e.get("melds", []))
            lines.append(f"  ** seat {s} wins {by} with {e.get('tile')} {flags}".rstrip())
            lines.append(f"     hand {e.get('hand')} {melds}".rstrip())
            kind = ", ".join(sc.get("big_hands", [])) or "small hand"
            lines.append(f"     {kind} · {'hard' if sc.get('hard') else 'soft'} · base {sc.get('base')} "
                         f"· winner fan {sc.get('winner_fan')} · loser fan {sc.get('loser_fan')}")
            for b in sc.get("breakdown", []):
                lines.append(f"       {b}")
            lines.append(f"     payments {' '.join(_fmt(p) for p in sc.get('payments', []))}")
        elif t == "ryukyoku":
            lines.append("  -- drawn hand (荒庄): nobody pays")
        elif t == "end_hand":
            hands = " | ".join(f"{i}: {h or '-'}" for i, h in enumerate(e.get("hands", [])))
            lines.append(f"  end of hand {e.get('hand')} · hands {hands}")
            lines.append(f"    seed {e.get('seed')}")
        elif t == "scores":
            lines.append(f"  scores {' '.join(_fmt(x) for x in e.get('scores', []))} · next dealer "
                         f"{e.get('next_dealer')}")
        elif t == "escape":
            lines.append(f"  !! seat {s} escapes: pays {e.get('penalty')} "
                         f"(deltas {' '.join(_fmt(x) for x in e.get('deltas', []))})")
        elif t == "auto":
            lines.append(f"  seat {s} is now {'auto-played' if e.get('on') else 'played by its player'}")
        elif t == "end_match":
            lines.append("")
            lines.append(f"##### end of match ({e.get('reason')}) after {e.get('hands')} hands · final scores "
                         f"{' '.join(_fmt(x) for x in e.get('scores', []))}")
    return lines


def run(args: argparse.Namespace) -> int:
    events = read_log(args.log)
    if args.check:
        try:
            games = replay_all(events)
        except GameError as exc:
            print(f"replay check FAILED: {exc}")
            return 1
        for i, g in enumerate(games, 1):
            kind = "match" if isinstance(g, Match) else "hand"
            print(f"# game {i} ({kind}) replays identically · state hash {g.hash()}")
    for line in describe(events, seat=args.seat, draws=not args.no_draws):
        print(line)
    return 0
