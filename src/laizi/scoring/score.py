"""Placeholder: the scorer is being written (score(ctx) -> ScoreResult)."""

from __future__ import annotations

from laizi.scoring.model import ScoreResult, WinContext


def score(ctx: WinContext) -> ScoreResult:
    raise NotImplementedError
