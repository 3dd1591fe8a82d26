"""The package's shape, checked from its source (an AST scan of ``src/laizi``).

Layers, lowest first — a module imports only from its own unit or the layers below::

    0 errors     laizi.errors       (the exception base every layer raises)
    1 tiles      laizi.tiles
    2 rules      laizi.rules
    3 façade     laizi              (the package re-exports tiles, rules and errors)
      catalogue  laizi.rulecatalog  (the options in words, the rule card)
    4 analysis   laizi.analysis
    5 scoring    laizi.scoring
    6 game       laizi.game
    7 views      laizi.views
    8 bots       laizi.bots
    9 hints      laizi.hints        (a bots client: it rates moves with the strong bot)
  9.5 review     laizi.review       (复盘: it rates a log's decisions with the hints)
      distrib.   laizi.distributed  (Ray fan-out; imports nothing of laizi)
   10 adapters   laizi.sim, laizi.env, laizi.tui, laizi.server (each its own unit:
                 adapters never import one another)
   11 arena      laizi.arena        (duplicate evaluation, built on the simulator)
   12 cli        laizi.cli          (the command line drives every adapter)
   13 main       laizi.__main__

Every import counts, also one inside a function or under ``TYPE_CHECKING`` (a type-only
dependency is a dependency). There is no import cycle between modules (edges: every
import, at module level, in a function or type-only).

Inside :mod:`laizi.server` the subpackages stand in one order (:data:`SERVER_ORDER`,
lowest first): a module imports from its own subpackage or lower ones only — ``common``
(the protocol, the configuration), ``persistence`` at the ground, ``guard``, the domain
services (``accounts``, ``ledger``, then ``social``), ``tables``, then what opens tables
(``competitions``) and the cluster directory beside it, ``net`` (routes, sockets, the
wiring) on top; nothing imports ``net`` or the package itself (the wiring) but the
command line. Outside :mod:`laizi.game` and
:mod:`laizi.views` no module touches ``HandState``'s private attributes, and only the
drivers that create hands (:mod:`laizi.sim`, :mod:`laizi.env`, the search of
:mod:`laizi.bots.expert`) import ``HandState`` at all:
everyone else gets game state through :mod:`laizi.views`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "laizi"

LAYERS: dict[str, float] = {
    "laizi.errors": 0,
    "laizi.tiles": 1,
    "laizi.rules": 2,
    "laizi.rulecatalog": 3,
    "laizi": 3,
    "laizi.analysis": 4,
    "laizi.scoring": 5,
    "laizi.game": 6,
    "laizi.views": 7,
    "laizi.bots": 8,
    "laizi.hints": 9,
    "laizi.review": 9.5,
    "laizi.sim": 10, "laizi.env": 10, "laizi.tui": 10, "laizi.server": 10,
    "laizi.distributed": 9,
    "laizi.arena": 11,
    "laizi.cli": 12,
    "laizi.__main__": 13,
}
# Modules that may import HandState: its own package, the projection, and the drivers
# (the simulator, the RL env, the bots' world sampler for playouts, and its users: the
# expert, which keeps it under its old name for the training script, and the experimental
# Monte Carlo search, which plays positions out).
HANDSTATE_OWNERS = ("laizi.game", "laizi.views", "laizi.sim", "laizi.env",
                    "laizi.bots.worlds", "laizi.bots.expert", "laizi.bots.experimental.search")


@dataclass(frozen=True)
class Imp:
    target: str  # the imported module (``from m import name``: m.name if a module, else m)
    names: tuple[str, ...]  # the names taken from it (``from m import a, b``)
    line: int
    type_only: bool  # under ``if TYPE_CHECKING:``
    lazy: bool  # inside a function


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(mod: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".")
    if modules()[mod].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def tree(mod: str) -> ast.Module:
    return ast.parse(modules()[mod].read_text(encoding="utf-8"))


@cache
def imports(mod: str) -> tuple[Imp, ...]:
    out: list[Imp] = []

    def visit(node: ast.AST, type_only: bool, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            t, lz = type_only, lazy
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for c in child.body:
                    visit_one(c, True, lz)
                for c in child.orelse:
                    visit_one(c, t, lz)
                continue
            visit_one(child, t, lz)

    def visit_one(child: ast.AST, type_only: bool, lazy: bool) -> None:
        if isinstance(child, ast.Import):
            for a in child.names:
                out.append(Imp(a.name, (), child.lineno, type_only, lazy))
        elif isinstance(child, ast.ImportFrom):
            base = _resolve(mod, child)
            names = tuple(a.name for a in child.names)
            subs = [n for n in names if f"{base}.{n}" in modules()]
            for n in subs:
                out.append(Imp(f"{base}.{n}", (), child.lineno, type_only, lazy))
            rest = tuple(n for n in names if n not in subs)
            if rest or not subs:
                out.append(Imp(base, rest, child.lineno, type_only, lazy))
        else:
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, type_only, inner)

    visit(tree(mod), False, False)
    return tuple(out)


def unit(mod: str) -> str:
    """The layer unit a module belongs to (its longest prefix in :data:`LAYERS`)."""
    parts = mod.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in LAYERS:
            return name
    raise AssertionError(f"{mod} belongs to no layer: add it to LAYERS")


def laizi_imports(mod: str) -> list[Imp]:
    return [i for i in imports(mod) if i.target == "laizi" or i.target.startswith("laizi.")]


# ------------------------------------------------------------------------- the tests
def test_every_module_is_in_a_layer_and_the_scan_sees_imports() -> None:
    mods = modules()
    assert len(mods) > 50 and "laizi.views" in mods and "laizi.server.tables.engine" in mods
    for mod in mods:
        unit(mod)
    # The scanner resolves relative, aliased, lazy and type-only imports.
    found = {i.target for i in laizi_imports("laizi.bots.base")}
    assert "laizi.views.snapshot" in found


def _upward(mod: str) -> list[str]:
    me = unit(mod)
    bad = []
    for i in laizi_imports(mod):
        to = unit(i.target)
        if to == me or LAYERS[to] < LAYERS[me]:
            continue
        bad.append(f"{mod}:{i.line} imports {i.target} ({to}, layer {LAYERS[to]} ≥ {LAYERS[me]})")
    return bad


# Another helper's file that breaks a rule today: xfail(strict=False) with the reason.
KNOWN_LAYER_BREAKS: dict[str, str] = {}


@pytest.mark.parametrize("mod", sorted(modules()))
def test_imports_only_from_lower_layers(mod: str) -> None:
    if mod in KNOWN_LAYER_BREAKS:
        pytest.xfail(KNOWN_LAYER_BREAKS[mod])
    assert _upward(mod) == []


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    # A mock module in the game layer importing the bots: reported.
    fake = "laizi.game._probe"
    modules()[fake] = tmp_path / "probe.py"
    (tmp_path / "probe.py").write_text("def f():\n    from laizi.bots import make_bot\n")
    try:
        assert _upward(fake) and "laizi.bots" in _upward(fake)[0]
    finally:
        del modules()[fake]
        tree.cache_clear()
        imports.cache_clear()


def _graph() -> dict[str, set[str]]:
    """Every import between modules: at module level, in a function, type-only."""
    mods = modules()
    g: dict[str, set[str]] = {m: set() for m in mods}
    for m in mods:
        for i in laizi_imports(m):
            if i.target in mods and i.target != m:
                g[m].add(i.target)
    return g


def _cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []


SERVER_ORDER: dict[str, int] = {
    "common": 0, "persistence": 1, "guard": 2, "accounts": 3, "ledger": 3, "social": 4, "clubs": 4,
    "tables": 5, "cluster": 6, "competitions": 6, "net": 7,
}


def server_group(mod: str) -> str | None:
    """The server subpackage of a module (``laizi.server`` itself: the wiring, "net")."""
    if mod == "laizi.server":
        return "net"
    parts = mod.split(".")
    if parts[:2] != ["laizi", "server"] or len(parts) < 3:
        return None
    return parts[2]


def _server_breaks(mod: str) -> list[str]:
    me = server_group(mod)
    if me is None:
        return []
    bad = []
    for i in laizi_imports(mod):
        to = server_group(i.target)
        if to is None or to == me:
            continue
        if SERVER_ORDER[to] >= SERVER_ORDER[me]:
            bad.append(f"{mod}:{i.line} imports {i.target} ({to} is not below {me})")
    return bad


def test_every_server_module_is_in_a_subpackage() -> None:
    mods = [m for m in modules() if m.startswith("laizi.server.")]
    assert len(mods) > 60
    assert {server_group(m) for m in mods} == set(SERVER_ORDER)
    for pkg in SERVER_ORDER:  # each says what it owns
        doc = ast.get_docstring(tree(f"laizi.server.{pkg}"))
        assert doc and len(doc) > 40, pkg


@pytest.mark.parametrize("mod", sorted(m for m in modules() if server_group(m) is not None))
def test_server_subpackages_depend_one_way(mod: str) -> None:
    assert _server_breaks(mod) == []


def test_only_the_command_line_imports_the_wiring() -> None:
    for mod in modules():
        if server_group(mod) == "net" or mod.startswith("laizi.cli"):
            continue
        wiring = [i.target for i in laizi_imports(mod)
                  if i.target == "laizi.server" or i.target.startswith("laizi.server.net")]
        assert wiring == [], mod


def test_the_server_order_check_catches_an_upward_import(tmp_path: Path) -> None:
    fake = "laizi.server.tables._probe"
    modules()[fake] = tmp_path / "probe.py"
    (tmp_path / "probe.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                                       "    from laizi.server.net.app import create_app\n")
    try:
        assert _server_breaks(fake) and "net is not below tables" in _server_breaks(fake)[0]
    finally:
        del modules()[fake]
        tree.cache_clear()
        imports.cache_clear()


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@cache
def _handstate_private() -> frozenset[str]:
    from laizi.game import HandState

    names = {n for n in dir(HandState) if n.startswith("_") and not n.startswith("__")}
    names |= {n for n in getattr(HandState, "__slots__", ()) if n.startswith("_")}
    return frozenset(names)


def _private_uses(mod: str) -> list[str]:
    private = _handstate_private()
    bad = []
    for node in ast.walk(tree(mod)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            bad.append(f"{mod}:{node.lineno} uses .{node.attr}")
    return bad


def _handstate_imports(mod: str) -> list[str]:
    return [f"{mod}:{i.line} imports HandState from {i.target}" for i in laizi_imports(mod)
            if "HandState" in i.names or i.target == "laizi.game.state"]


OUTSIDE = sorted(m for m in modules() if not m.startswith(("laizi.game", "laizi.views")))
# Another helper's file importing HandState today (they reach the state, not a view).
KNOWN_HANDSTATE_IMPORTS: dict[str, str] = {}


@pytest.mark.parametrize("mod", OUTSIDE)
def test_no_handstate_internals_outside_the_engine_and_views(mod: str) -> None:
    assert _private_uses(mod) == []


@pytest.mark.parametrize("mod", [m for m in OUTSIDE if not m.startswith(HANDSTATE_OWNERS)])
def test_handstate_is_not_imported_outside_its_drivers(mod: str) -> None:
    if mod in KNOWN_HANDSTATE_IMPORTS:
        pytest.xfail(KNOWN_HANDSTATE_IMPORTS[mod])
    assert _handstate_imports(mod) == []


def test_the_internals_check_catches_a_private_read(tmp_path: Path) -> None:
    assert "_tsumo_cache" in _handstate_private() or len(_handstate_private()) > 5
    fake = "laizi.server._probe"
    name = sorted(_handstate_private())[0]
    modules()[fake] = tmp_path / "probe.py"
    (tmp_path / "probe.py").write_text(
        f"from laizi.game import HandState\n\ndef f(st):\n    return st.{name}\n")
    try:
        assert _private_uses(fake) == [f"{fake}:4 uses .{name}"]
        assert _handstate_imports(fake)
    finally:
        del modules()[fake]
        tree.cache_clear()
        imports.cache_clear()


# ---------------------------------------------------------------------- the web client
_JS_IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;'"]*?from\s*["'](\.{1,2}/[^"']+)["']""", re.M)


def _js_graph(folder: Path) -> dict[str, set[str]]:
    """The web client's static imports between its own modules (``import … from "./x.js"``)."""
    g: dict[str, set[str]] = {}
    for f in sorted(folder.glob("*.js")):
        deps = set()
        for rel in _JS_IMPORT.findall(f.read_text(encoding="utf-8")):
            target = (f.parent / rel).resolve()
            if target.parent == folder.resolve() and target.suffix == ".js":
                deps.add(target.name)
        g[f.name] = deps
    for deps in list(g.values()):
        for d in deps:
            g.setdefault(d, set())
    return g


def test_the_web_client_has_no_import_cycle() -> None:
    g = _js_graph(SRC / "laizi" / "web" / "js")
    assert len(g) > 20 and g["main.js"], "the scan sees the web client's modules and imports"
    assert _cycles(g) == []


def test_the_js_cycle_check_finds_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n')
    (tmp_path / "b.js").write_text('// b\nimport {\n  a,\n} from "./a.js";\nexport const b = 1;\n')
    (tmp_path / "c.js").write_text('export { b } from "./b.js";\n')
    assert _cycles(_js_graph(tmp_path)) == [["a.js", "b.js"]]


_JS_NAMED_IMPORT = re.compile(r"""^\s*import\s*\{([^}]*)\}\s*from\s*["'](\./[^"']+\.js)["']""", re.M)
_JS_EXPORT_DECL = re.compile(r"^\s*export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)",
                             re.M)
_JS_EXPORT_LIST = re.compile(r"^\s*export\s*\{([^}]*)\}", re.M)


def _js_exports(text: str) -> set[str]:
    names = set(_JS_EXPORT_DECL.findall(text))
    for group in _JS_EXPORT_LIST.findall(text):
        for item in group.split(","):
            if item.strip():
                names.add(item.split(" as ")[-1].strip())
    return names


def _js_missing_imports(folder: Path) -> list[str]:
    """Named imports (``import { a } from "./x.js"``) of names ``x.js`` does not export: the
    browser refuses the whole module graph (the page does not start)."""
    texts = {f.name: f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.js"))}
    out = []
    for name, text in texts.items():
        for group, rel in _JS_NAMED_IMPORT.findall(text):
            target = rel[2:]
            if target not in texts:
                out.append(f"{name}: {rel} does not exist")
                continue
            have = _js_exports(texts[target])
            for item in group.split(","):
                wanted = item.split(" as ")[0].strip()
                if wanted and wanted not in have:
                    out.append(f"{name}: {wanted} is not exported by {target}")
    return out


def test_every_named_js_import_is_exported() -> None:
    assert _js_missing_imports(SRC / "laizi" / "web" / "js") == []


def test_the_js_import_check_finds_a_missing_name(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { toast, show as s } from "./b.js";\nimport { x } from "./c.js";\n')
    (tmp_path / "b.js").write_text("export function show() {}\nconst toast2 = 1;\nexport { toast2 as other };\n")
    assert _js_missing_imports(tmp_path) == ["a.js: toast is not exported by b.js", "a.js: ./c.js does not exist"]


# The web client's state lives in state.js (the table page: S, PAGE, SOC) or in one owned object
# per module (const ST = {...}): no module-level `let`/`var`, no properties hung on functions.
_JS_LET_ALLOWED: dict[str, set[str]] = {}
_JS_TOP_LET = re.compile(r"^(?:let|var)\s+([^;]+);", re.M)
_JS_TOP_FUNCTION = re.compile(r"^(?:export\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)", re.M)


def _js_loose_state(folder: Path, allowed: dict[str, set[str]]) -> list[str]:
    """Module-level let/var names (beyond ``allowed``) and properties set on a module's own
    functions (``announce.q = …``), per file."""
    out = []
    for f in sorted(folder.glob("*.js")):
        text = f.read_text(encoding="utf-8")
        for decl in _JS_TOP_LET.findall(text):
            for name in re.findall(r"(?:^|,)\s*([A-Za-z_$][\w$]*)", decl):
                if name not in allowed.get(f.name, set()):
                    out.append(f"{f.name}: module-level {name}")
        for fn in _JS_TOP_FUNCTION.findall(text):
            if re.search(rf"(?<![\w$.]){re.escape(fn)}\.[A-Za-z_$][\w$]*\s*(?:=(?!=)|\|\|=|\?\?=)", text):
                out.append(f"{f.name}: a property set on function {fn}")
    return out


def test_the_web_clients_state_has_one_place_per_module() -> None:
    assert _js_loose_state(SRC / "laizi" / "web" / "js", _JS_LET_ALLOWED) == []


def test_the_js_state_check_finds_loose_state(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("let a = 1, b = 2;\nconst ST = { c: 3 };\nfunction f() { let d = 4; }\n"
                                   "function announce(x) {\n  const q = announce.q || (announce.q = []);\n}\n")
    (tmp_path / "b.js").write_text("var e;\nlet ok = 0;\n")
    assert _js_loose_state(tmp_path, {"b.js": {"ok"}}) == [
        "a.js: module-level a", "a.js: module-level b", "a.js: a property set on function announce",
        "b.js: module-level e"]
