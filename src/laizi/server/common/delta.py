"""The table's wire deltas: a small generic JSON diff and its inverse (pure, no I/O).

A client keeps the view of its last frame; an ``update`` frame carries a ``patch`` that
turns it into the new one. A patch is a list of operations, each on a ``path`` (a list of
dict keys and list indices from the root; ``[]`` is the whole view)::

    ["s", path, value]   set (a dict key, a list index, or the whole view)
    ["d", path]          delete a dict key
    ["a", path, items]   append items to the list at path (a list that only grew: a river)

:func:`diff` makes one, :func:`patch` applies one without touching its input (the
containers on a changed path are copied, the rest shared), :class:`Mirror` follows a
frame stream (``snapshot``, then ``update`` frames whose ``from`` must be the version it
holds). The web client's twin is ``src/laizi/web/js/delta.js``.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["Diverged", "Gap", "Mirror", "canonical", "diff", "diff_keys", "patch"]

Path = list[str | int]


def _same(a: Any, b: Any) -> bool:
    # (containers compare with Python's ==, where true == 1: a view holds one type per place)
    return a is b or (type(a) is type(b) and a == b)


def _diff(a: Any, b: Any, path: Path, out: list[list[Any]]) -> None:
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        for k, bv in b.items():
            if k not in a:
                out.append(["s", [*path, k], bv])
            elif not _same(a[k], bv):
                _diff(a[k], bv, [*path, k], out)
        for k in a:
            if k not in b:
                out.append(["d", [*path, k]])
        return
    if ta is list and tb is list:
        n = len(a)
        if len(b) > n and b[:n] == a:
            out.append(["a", path, b[n:]])
            return
        if len(b) == n and any(type(x) in (dict, list) for x in b):
            changed = [i for i in range(n) if not _same(a[i], b[i])]
            if 2 * len(changed) <= n:  # a list of records, few changed (the players): per record
                for i in changed:
                    _diff(a[i], b[i], [*path, i], out)
                return
    out.append(["s", path, b])


def diff(old: Any, new: Any) -> list[list[Any]]:
    """The patch that turns ``old`` into ``new`` (JSON values; ``[]`` when equal)."""
    out: list[list[Any]] = []
    if not _same(old, new):
        _diff(old, new, [], out)
    return out


def diff_keys(old: dict[str, Any], new: dict[str, Any]) -> list[list[Any]]:
    """:func:`diff` of two dicts by their keys only: a changed value is set whole (a seat's
    private part: its hand, legal actions and waits change whole)."""
    out: list[list[Any]] = [["s", [k], v] for k, v in new.items()
                            if k not in old or not _same(old[k], v)]
    out.extend(["d", [k]] for k in old if k not in new)
    return out


def _own(c: Any, fresh: set[int]) -> Any:
    """``c`` itself if this patch made it, else a shallow copy (then made here)."""
    if id(c) in fresh:
        return c
    if type(c) is dict:
        c = dict(c)
    elif type(c) is list:
        c = list(c)
    else:
        raise TypeError(f"not a container: {type(c).__name__}")
    fresh.add(id(c))
    return c


def patch(doc: Any, ops: Any) -> Any:
    """``doc`` with the patch ``ops`` applied (a new value; ``doc`` is not changed).
    Raises ValueError on a patch that does not fit the document."""
    if not isinstance(ops, list):
        raise ValueError("a patch is a list of operations")
    fresh: set[int] = set()
    root: list[Any] = [doc]
    try:
        for op in ops:
            kind, path = op[0], op[1]
            if not isinstance(path, list):
                raise TypeError("path")
            cont: Any = root
            key: Any = 0
            for step in path:
                child = _own(cont[key], fresh)
                cont[key] = child
                cont, key = child, step
            if kind == "s":
                cont[key] = op[2]
            elif kind == "d":
                if type(cont) is not dict:
                    raise TypeError("delete from a list")
                del cont[key]
            elif kind == "a":
                target = _own(cont[key], fresh)
                if type(target) is not list or not isinstance(op[2], list):
                    raise TypeError("append to a non-list")
                target.extend(op[2])
                cont[key] = target
            else:
                raise TypeError(f"unknown operation {kind!r}")
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"the patch does not fit the view: {exc!r}") from None
    return root[0]


def canonical(doc: Any) -> str:
    """JSON text with sorted keys (equal texts: equal values, types included)."""
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


class Diverged(ValueError):
    """A patched view that is not the snapshot of the same version."""


class Gap(ValueError):
    """An ``update`` frame that does not follow the version held (a frame was lost)."""


class Mirror:
    """A client's copy of its table view, kept by the frames it receives (tests, benchmarks).

    :meth:`take` returns the frame with its full ``view`` (a snapshot's own; an update's
    patched onto the previous one) and raises :class:`Gap` when an update's ``from`` is
    not the version held. ``check``: a snapshot of the version held must equal the view
    the patches built (else :class:`Diverged`); ``checked`` counts those comparisons."""

    def __init__(self, check: bool = False) -> None:
        self.v: int | None = None
        self.view: dict[str, Any] | None = None
        self.check = check
        self.checked = 0

    def take(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg.get("type")
        if kind == "snapshot":
            if self.check and self.view is not None and msg["v"] == self.v:
                if canonical(self.view) != canonical(msg["view"]):
                    raise Diverged(f"version {self.v}: the patched view differs from the snapshot")
                self.checked += 1
            self.view, self.v = msg["view"], msg["v"]
        elif kind == "update":
            if self.view is None or msg.get("from") != self.v:
                raise Gap(f"update from {msg.get('from')} but version {self.v} held")
            self.view = patch(self.view, msg["patch"])
            self.v = msg["v"]
            msg["view"] = self.view
        return msg

    def reset(self) -> None:
        self.v = self.view = None
