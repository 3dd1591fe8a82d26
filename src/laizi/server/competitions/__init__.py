"""What opens tables by itself: quick match (coin tables of four, bots filling in) and
tournaments (Swiss rounds, duplicate deals), both through ``Hub.open_table``: each says only
who sits and with what settings (``tables.seating.Seating``)."""

from __future__ import annotations
