"""The server package's modules depend on each other one way (handlers → hub → room →
store, connection), with no cycle; a connection knows no room or hub, a room no hub."""

from __future__ import annotations

import ast
from pathlib import Path

import laizi.server

PKG = Path(laizi.server.__file__).parent
# Cohesion over line caps: ~500 lines is a smell to look at, a cohesive module (the room
# actor) may be longer, none over this.
MAX_LINES = 700


def _stem(dotted: str) -> str:
    """A server module's own name (``laizi.server.tables.room`` → ``room``)."""
    return dotted.split(".")[-1]


def server_imports() -> dict[str, set[str]]:
    """Each server module's imports of other server modules, by module name (every
    import: module level, in a function, type-only)."""
    out: dict[str, set[str]] = {}
    for f in PKG.rglob("*.py"):
        if f.stem == "__init__" or "migrations" in f.parts:
            continue
        deps: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("laizi.server."):
                    sub = node.module[len("laizi.server."):]
                    if (PKG / sub.replace(".", "/")).is_dir():  # from a subpackage: its modules
                        deps.update(a.name for a in node.names)
                    else:
                        deps.add(_stem(node.module))
            elif isinstance(node, ast.Import):
                deps.update(_stem(a.name) for a in node.names if a.name.startswith("laizi.server."))
        out[f.stem] = deps - {f.stem}
    return out


def test_no_import_cycle_in_the_server() -> None:
    graph = server_imports()
    done: set[str] = set()

    def visit(mod: str, path: tuple[str, ...]) -> None:
        assert mod not in path, " -> ".join((*path, mod))
        if mod in done:
            return
        for dep in graph.get(mod, ()):
            visit(dep, (*path, mod))
        done.add(mod)

    for mod in graph:
        visit(mod, ())


def test_dependencies_run_one_way() -> None:
    g = server_imports()
    assert not g["connection"] & {"hub", "room", "handlers", "store"}
    assert not g["room"] & {"hub", "handlers"}
    assert not g["store"] & {"hub", "room", "handlers", "connection", "engine"}
    assert not g["hub"] & {"handlers"}
    assert {"hub", "room"} <= g["handlers"] and "room" in g["hub"] and "store" in g["room"]


def test_modules_stay_small() -> None:
    sizes = {str(f.relative_to(PKG)): len(f.read_text().splitlines()) for f in PKG.rglob("*.py")}
    assert len(sizes) > 40
    assert not {name: n for name, n in sizes.items() if n > MAX_LINES}


_MUTATORS = {"act", "next_hand", "set_auto", "escape", "dissolve"}  # GameSession's journal writers


def stray_changes(source: str) -> list[str]:
    """Where the room changes its match other than through ``Room._change``: a journal note
    outside ``_change``, or a match mutator called on ``g`` outside a lambda (the lambdas are
    what ``_change`` and ``_step`` apply) or on ``….game`` anywhere."""
    tree = ast.parse(source)
    out: list[str] = []

    def walk(node: ast.AST, func: str, in_lambda: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            func = node.name
        in_lambda = in_lambda or isinstance(node, ast.Lambda)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, recv = node.func.attr, node.func.value
            if name == "_note_op" and func != "_change":
                out.append(f"{func}: _note_op")
            if name in _MUTATORS:
                on_g = isinstance(recv, ast.Name) and recv.id == "g"
                on_game = isinstance(recv, ast.Attribute) and recv.attr == "game"
                if on_game or (on_g and not in_lambda):
                    out.append(f"{func}: {name}")
        for child in ast.iter_child_nodes(node):
            walk(child, func, in_lambda)

    walk(tree, "", False)
    return out


def test_the_match_changes_through_one_path() -> None:
    """Every change of a room's match — a move, 托管 on or off (asked, after a disconnect, after
    lapses), the next hand, an escape, 解散 — goes through ``Room._change``, which notes the
    journal entry's origin; no other server module changes a room's match."""
    tables = PKG / "tables"
    found = {f.name: stray_changes(f.read_text()) for f in PKG.rglob("*.py")
             if f != tables / "engine.py" and "migrations" not in f.parts}
    assert not {k: v for k, v in found.items() if v}
    # (the check sees the old ways: 托管 after a disconnect noted by hand, a dealt hand)
    old = '''
class Room:
    async def _tick(self):
        g.set_auto(s, True)
        self._note_op({"source": "disconnect"})
    def _deal_next(self):
        self.game.next_hand()
'''
    assert stray_changes(old) == ["_tick: set_auto", "_tick: _note_op", "_deal_next: next_hand"]
