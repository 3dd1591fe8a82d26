"""Coins: the ledger (双账 entries, balances, daily and welcome grants), coin tables'
levels and stakes, the coin seats; settles coin tables in the match's own transaction (the
store's progress hook)."""

from __future__ import annotations
