"""Terminal play: one human (seat 0, 东 at the start) against three bots.

On a terminal, ``laizi play`` opens a full-screen table (:mod:`laizi.tui.app`, textual):
the four seats around the table, a log pane announcing every move, keys and mouse. With
standard input or output not a terminal (a pipe, a file) or ``--plain`` it plays in
line mode (:mod:`laizi.tui.plain`), printing the log and a numbered menu.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from laizi.rules import RuleSet
from laizi.tui.plain import PlainGame, QuitGame
from laizi.tui.render import match_table
from laizi.tui.session import Session
from laizi.tui.words import Lang, W

__all__ = ["PlainGame", "QuitGame", "Session", "play"]


def play(
    *,
    preset: str = "kaikoufan",
    seed: int | str = 0,
    hands: int = 4,
    console: Console | None = None,
    input_fn: Callable[[str], str] | None = None,
    bots: Sequence[str] = ("strong", "strong", "strong"),
    lang: Lang = "zh",
    plain: bool | None = None,
    delay: float = 0.5,
) -> int:
    """Play a match in the terminal; returns an exit status.

    ``plain``: line mode (default: when stdin or stdout is not a terminal, or an
    ``input_fn``/``console`` is given). ``delay``: seconds between bot moves on the
    full-screen table.
    """
    rules = RuleSet.preset(preset)
    session = Session(rules, seed=seed, hands=hands, bots=bots, lang=lang)
    if plain is None:
        plain = (input_fn is not None or console is not None
                 or not (sys.stdin.isatty() and sys.stdout.isatty()))
    if plain:
        game = PlainGame(session, console or Console(highlight=False), input_fn or input)
        return game.run()
    from laizi.tui.app import TableApp

    app = TableApp(session, delay=delay)
    app.run()
    # The alternate screen is gone: leave the result in the terminal's scrollback.
    out = Console(highlight=False)
    if session.records and session.records[-1].end is not None:
        out.print(match_table(session.records, session.names, session.scores(), lang))
    if not session.over:
        out.print(W[lang]["goodbye"])
    return app.return_code or 0
