"""Table chat: free text up to 140 characters or a quick phrase, 5 messages per 10 seconds."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable

__all__ = ["MAX_CHARS", "QUICK_PHRASES", "ChatError", "RateLimiter", "clean_text"]

MAX_CHARS = 140
RATE_COUNT = 5
RATE_WINDOW = 10.0
SWEEP_AT = 10_000  # keys held before the expired ones are swept

# id -> (中文, English)
QUICK_PHRASES: dict[str, tuple[str, str]] = {
    "hurry": ("快点吧，等得花儿都谢了", "Hurry up, please!"),
    "nice": ("打得好！", "Nice play!"),
    "luck": ("祝你好运", "Good luck!"),
    "again": ("再来一局", "One more game!"),
    "thanks": ("谢谢", "Thanks!"),
    "sorry": ("不好意思", "Sorry!"),
    "hello": ("大家好", "Hello everyone!"),
    "bye": ("我先走了，下次再玩", "I have to go, see you next time."),
}


class ChatError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def clean_text(raw: object) -> str:
    if not isinstance(raw, str):
        raise ChatError("bad_chat", "chat text must be a string")
    text = "".join(ch for ch in raw if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    text = text.strip()
    if not text:
        raise ChatError("bad_chat", "chat message is empty")
    if len(text) > MAX_CHARS:
        raise ChatError("chat_too_long", f"chat message is longer than {MAX_CHARS} characters")
    return text


class RateLimiter:
    """At most ``count`` events per ``window`` seconds per key (sliding window)."""

    def __init__(self, count: int = RATE_COUNT, window: float = RATE_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._hits.setdefault(key, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        return q

    def allow(self, key: str) -> bool:
        return self.allow_all((key,))

    def allow_all(self, keys: tuple[str, ...]) -> bool:
        """Count one event against every key, if each is under its limit (else none)."""
        now = self.clock()
        if len(self._hits) > SWEEP_AT:
            self.sweep(now)
        qs = [self._recent(k, now) for k in keys]
        if any(len(q) >= self.count for q in qs):
            return False
        for q in qs:
            q.append(now)
        return True

    def forget_last(self, key: str) -> None:
        """Take back the last event counted for ``key``."""
        q = self._hits.get(key)
        if q:
            q.pop()

    def sweep(self, now: float | None = None) -> None:
        """Forget the keys with no event in the window (bounded memory)."""
        now = self.clock() if now is None else now
        for k in [k for k, q in self._hits.items() if not q or now - q[-1] >= self.window]:
            del self._hits[k]

    def retry_after(self, key: str) -> float:
        q = self._hits.get(key)
        if not q or len(q) < self.count:
            return 0.0
        return max(0.0, self.window - (self.clock() - q[0]))
