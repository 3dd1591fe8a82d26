"""Table chat: free text up to 140 characters, a quick phrase (some in the Wuhan way of
talking) or an emote (drawn by the project: ``web/emotes/{id}.svg``), 5 messages per 10
seconds (the budget: :data:`laizi.server.guard.limits.CHAT`, shared by a cluster)."""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = ["EMOTES", "MAX_CHARS", "PHRASES_ID", "QUICK_PHRASES", "ChatError", "RateLimiter", "clean_text"]

MAX_CHARS = 140
RATE_COUNT = 5
RATE_WINDOW = 10.0

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
    # Wuhan-flavoured (武汉话): 搞么斯 what are you doing, 撒 come on, 蛮狠 very good,
    # 过早 breakfast, 莫 don't, 稳到起 steady, 冇得 not have, 好扎实 really hard
    "gaomesi": ("搞么斯咯，快点出牌撒", "What are you up to? Play a tile, come on!"),
    "manhen": ("你蛮狠咧！", "You are really good!"),
    "guozao": ("过早了冇？热干面吃了再来", "Had breakfast? Hot dry noodles first!"),
    "wendaoqi": ("莫慌，稳到起", "No panic, hold steady."),
    "laizi": ("赖子在手，天下我有", "A laizi in hand, the world is mine!"),
    "zhashi": ("这把打得好扎实", "That was a hard-fought hand."),
}

# The phrases' id: a client that holds them (hello ``have``) is not sent them again in the welcome.
PHRASES_ID = hashlib.sha256(json.dumps(QUICK_PHRASES, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:12]

# id -> (中文, English): the emotes drawn by the project (web/emotes/{id}.svg)
EMOTES: dict[str, tuple[str, str]] = {
    "zan": ("赞", "Thumbs up"),
    "haha": ("哈哈", "Ha ha"),
    "qi": ("气死了", "Fuming"),
    "ku": ("哭", "Crying"),
    "cha": ("喝口茶", "Tea break"),
    "huo": ("手气好", "On fire"),
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
    """At most ``count`` events per ``window`` seconds per key (moving window, the ``limits``
    library's memory storage): a budget of this process alone, for what costs this node's
    own CPU (replay builds). Budgets shared by a cluster: :class:`laizi.server.guard.limits.Limits`."""

    def __init__(self, count: int = RATE_COUNT, window: float = RATE_WINDOW) -> None:
        self.count = count
        self.window = window
        self.item = RateLimitItemPerSecond(count, max(1, round(window)))
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def allow(self, key: str) -> bool:
        return self.allow_all((key,))

    def allow_all(self, keys: tuple[str, ...]) -> bool:
        """Count one event against every key, if each is under its limit (else none)."""
        if not all(self._limiter.test(self.item, k) for k in keys):
            return False
        for k in keys:
            self._limiter.hit(self.item, k)
        return True

    def retry_after(self, key: str) -> float:
        stats = self._limiter.get_window_stats(self.item, key)
        if stats.remaining > 0:
            return 0.0
        return max(0.0, stats.reset_time - time.time())
