"""The bots' tuning numbers, named (values found by bot-vs-bot simulation).

Values are in *relative units*: one unit is roughly what a small hand pays each
loser.  Changing any of them changes the bots' play (and every simulation result).
:class:`~laizi.bots.strong.StrongParams` holds the main knobs of
:class:`~laizi.bots.strong.StrongBot` (defaults below) in a frozen dataclass, so that a
variant is another parameter object.
"""

from __future__ import annotations

from typing import Final

# ----------------------------------------------------------------- greedy
GREEDY_LOOKAHEAD_SHANTEN: Final = 1
"""Tied discards are compared by the tiles that improve the hand only this close to ready."""
GREEDY_LOOKAHEAD_CANDIDATES: Final = 2
"""How many of the tied discards (best connectivity first) get that comparison."""
LAIZI_USEFULNESS: Final = 99.0
"""Connectivity credited to a laizi (never the discard of choice)."""

# ----------------------------------------------------------------- strong: values
Q: Final = 0.4
"""Value kept per step of distance (about the chance to complete one more step)."""
SMALL_PAY: Final = 1.0
"""Value unit of a small hand (scaled by its fan)."""
BIG_MULT: Final = 10.0
"""A big hand's base is 10."""
BIG_BONUS: Final = 1.2
"""Extra weight of a big hand's value (its fan is mostly certain)."""
BELOW_MIN_SELF_DRAW: Final = 0.35
"""Small-hand value kept when only a self-draw (doubled) reaches the minimum 起胡."""
BELOW_MIN_DOUBLE_SELF_DRAW: Final = 0.08
"""... when only a quadrupled score does."""
BELOW_MIN_HOPELESS: Final = 0.01
"""... when even that does not."""

# ready and one-step hands are rated by their live tiles: value × (FLOOR + SPAN × fill)
QUALITY_FLOOR: Final = 0.55
QUALITY_SPAN: Final = 0.45
LIVE_WAITS_FULL: Final = 8.0
"""Live winning tiles that rate a ready hand at full value."""
LIVE_ADVANCES_FULL: Final = 30.0
"""Live tiles advancing a one-step hand that rate it at full value."""
TIE_USEFULNESS: Final = 0.001
"""Tie-break weight of a discard's connectivity (less connected goes first)."""
TIE_ORDER: Final = 0.0001
"""Tie-break weight of honours/terminals first."""
USEFULNESS_CEILING: Final = 10.0
ORDER_CEILING: Final = 5.0
LAIZI_DISCARD_SCORE: Final = -1e9
"""A discarded laizi is a laizi kong without the replacement tile: never chosen."""

# ----------------------------------------------------------------- strong: kongs, laizi
ANKONG_MIN_VALUE: Final = 0.9
"""A concealed kong is declared when it keeps this share of the hand's value."""
ADDKONG_MAX_ROB_RISK: Final = 0.3
"""An added kong is declared only below this chance of being robbed."""
ROB_RISK_PER_READY_SEAT: Final = 0.15
"""Chance of a rob per other seat with three or more openings."""
SPECIAL_KEEP_WALL: Final = 20
"""``special_policy="when_close"``: lay a special tile aside anyway below this wall size."""
BIG_KEEP_LAIZI_DISTANCE: Final = 1
"""Two laizi are kept while a big hand is this close."""
PENGPENG_MIN_PAIRS: Final = 3
"""碰碰胡 is a target with this many pairs or melds (wilds count)."""
QINGYISE_MIN_TILES: Final = 8
"""清一色 is a target with this many tiles of the leading suit (wilds count)."""
FENG_TARGET_MAX_OUTSIDE: Final = 5
"""风一色/将一色 are targets with at most this many tiles outside the category."""

# ----------------------------------------------------------------- strong: claims
UNOPENED_DISCOUNT: Final = 0.75
"""Value of a hand that still has to open (it cannot win yet)."""
KONG_CLAIM_BONUS: Final = 1.05
CLAIM_MIN_GAIN: Final = 1.02
"""A claim is taken when it raises the hand's value by this factor."""

# ----------------------------------------------------------------- strong: defence
DEFENCE_SCALE: Final = 10.0
"""Value of one relative payment unit in the defence costs."""
READY_DEFENCE: Final = 2.0
"""Weight of the "looks ready" penalty (three openings, or two late)."""
READY_DEFENCE_DISTANCE: Final = 2
"""The penalty applies while the own hand is at least this far from ready."""
LATE_WALL: Final = 30
"""Below this wall size two openings already look ready."""
FOLD_WALL: Final = 40
FOLD_WEIGHT: Final = 10.0
THREAT_WALL: Final = 80.0
"""Wall size at which the lateness part of a threat is zero."""
READY_BY_OPENINGS: Final = (0.0, 0.12, 0.3, 0.55, 0.85)
"""Chance that a seat is ready, by its openings (0-4)."""
READY_LATENESS: Final = 0.25
READY_MAX: Final = 0.95
SMALL_FEED_PAY: Final = 0.6
"""Expected payment for feeding a small hand (the discarder's fan +1)."""
BIG_FEED_PAY: Final = 3.0
"""... for feeding a likely big hand (two or more melds of one suit, or no chi)."""
WAIT_CHANCE: Final = 0.12
"""Chance that a ready seat waits on a given suited tile."""
WAIT_CHANCE_RIVER: Final = 0.03
WAIT_CHANCE_HONOR_LAST: Final = 0.06
WAIT_CHANCE_HONOR: Final = 0.09
WAIT_CHANCE_258: Final = 0.16
LIABLE_PAY: Final = 3.0
"""Liability pays for three losers (applied twice: the player's big-hand factor too)."""
LIABLE_IN_RIVER: Final = 0.3
"""A liable tile already in the player's river is less likely its wait."""
QINGYISE_CLAIM_CHI: Final = 0.35
"""Chance that the next seat claims (chi) a 清一色 collector's third opening."""
QINGYISE_CLAIM_PENG: Final = 0.2
QINGYISE_CLAIM_LAST: Final = 0.05
QINGYISE_COMPLETES: Final = 0.35
"""Chance that the 清一色 is then completed."""
NODRAW_DANGER_SHARE: Final = 1.0
"""After a kong (``kong_draw_choice``) a hand far from ready declines the replacement when
the safest discard it would then owe costs more than this share of the hand's value."""
LOOKS_READY_OPENINGS: Final = 3
"""A seat with this many openings looks ready (one fewer late in the hand)."""
