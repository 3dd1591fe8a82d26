"""What keeps one server (or a cluster) within its means: rate limits, connection caps,
metrics, the /healthz and /metrics figures (``ops``), Redis connection settings."""

from __future__ import annotations
