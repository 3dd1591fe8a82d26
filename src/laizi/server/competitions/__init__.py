"""What opens tables by itself: quick match (coin tables of four, bots filling in) and
tournaments (Swiss rounds, duplicate deals), both through ``Room.seat_and_start``."""

from __future__ import annotations
