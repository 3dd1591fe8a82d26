"""What a page shows that is not a word of the UI: tile codes, rule and bot ids, snake_case keys,
English words in the Chinese UI (raw_words)."""

from __future__ import annotations

import re

RAW = re.compile(r"\b[1-9][mpsz]\b|kaikoufan|koukoufan|qipisilai|jiayu|random|greedy|strong|expert"
                 r"|[a-z]+_[a-z_]+")


ENGLISH = re.compile(r"[A-Za-z]{2,}")


ALLOWED = {"English", "JSON"}  # the language button; the calculator's raw-request field


def raw_words(text: str, *user_text: str) -> list[str]:
    for u in user_text:  # room codes and the like: not words of the UI
        text = text.replace(u, "")
    found = RAW.findall(text) + [w for w in ENGLISH.findall(text) if w not in ALLOWED]
    return sorted(set(found))
