"""Bots: one interface (a seat's view in, an action out), three levels.

>>> from laizi.bots import make_bot, SeatView
>>> bot = make_bot("strong", seed=1)
>>> action = bot.act(SeatView.from_state(state, seat))   # doctest: +SKIP
"""

from laizi.bots.base import Bot, SeatView
from laizi.bots.registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "SeatView", "make_bot"]
