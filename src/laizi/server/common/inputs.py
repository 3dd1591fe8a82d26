"""Input limits of the server (HTTP bodies, JSON) and a strict JSON reader shared by every
entry point (rate limits: :mod:`laizi.server.guard.limits`).

Every value a client (or a file given to ``laizi score``) sends goes through
:func:`loads_strict` before anything else looks at it:

- nesting deeper than :data:`MAX_JSON_DEPTH` is refused *before* parsing (no
  ``RecursionError``, no stack walk of a hostile 4,000-level frame);
- ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's ``json`` accepts, JSON does not)
  are refused, and so are numbers that overflow a float (``1e999``);
- integers longer than :data:`MAX_INT_DIGITS` digits are refused.

The constants here are the HTTP-side limits; docs/security.md lists them with the
WebSocket, room and database limits.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

try:  # the server's extra: a fast first reading (a careful one below says why it refuses)
    import orjson
except ImportError:  # pragma: no cover - `laizi score` without the server extra
    orjson = None  # type: ignore[assignment]

__all__ = [
    "MAX_BODY_BYTES", "MAX_INT_DIGITS", "MAX_JSON_DEPTH", "JSONInputError", "careful_loads", "json_depth",
    "loads_strict",
]

MAX_BODY_BYTES = 64 * 1024   # a POST body (/api/score, /api/guest, /api/token/rotate)
MAX_JSON_DEPTH = 32          # nested arrays/objects in any JSON input
MAX_INT_DIGITS = 30          # digits of a JSON integer (anything longer is not a count or a seat)


class JSONInputError(ValueError):
    """Input that is not acceptable JSON; the message is meant for the client."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_LONG_DIGITS = re.compile(r"\d{19}")  # (orjson reads an integer past 64 bits as a float)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in ``text`` (strings ignored), without parsing."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) <= 1:
        return len(brackets)
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def _bad_constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number (numbers must be finite)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"number {text[:24]} is out of range (numbers must be finite)")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JSONInputError(f"integer with {len(text)} digits is out of range")
    return int(text)


def loads_strict(data: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text, refusing deep nesting and non-finite or huge numbers.

    Raises :class:`JSONInputError` (a ``ValueError``) with a one-line message.
    """
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError("not UTF-8 text") from None
    if (orjson is not None and data.count("[") + data.count("{") <= max_depth
            and _LONG_DIGITS.search(data) is None):
        # Too few brackets to nest deeper than allowed, no integer orjson would read
        # otherwise: orjson reads exactly what the careful reader below accepts (it too
        # refuses NaN, Infinity and numbers beyond a float); what it refuses, the careful
        # reader refuses with its own message (or, a lone surrogate, reads as json does).
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return careful_loads(data, max_depth)


def careful_loads(data: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """:func:`loads_strict`'s reader for every text its fast first reading leaves (what it
    reads, read the same; a message for what it refuses)."""
    depth = json_depth(data)
    if depth > max_depth:
        raise JSONInputError(f"JSON nested {depth} levels deep (at most {max_depth})")
    try:
        return json.loads(data, parse_constant=_bad_constant, parse_float=_float, parse_int=_int)
    except JSONInputError:
        raise
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JSONInputError(f"JSON nested too deeply (at most {max_depth})") from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"bad JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise JSONInputError(f"bad JSON: {str(exc)[:120]}") from None
