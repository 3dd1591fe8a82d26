"""Which build is loaded (pure Python or the mypyc-compiled core), and the build rules:
pure by default, no compiled files beside the sources.

``LAIZI_EXPECT_BUILD`` (``pure`` or ``compiled``; set by ``scripts/test.sh`` for each of
its passes) makes :func:`test_expected_build_is_loaded` check that the suite runs
against that build.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import laizi
from laizi import compiled
from laizi.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _extension_files(top: Path) -> list[Path]:
    return [p for p in top.rglob("*") if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES)]


def test_expected_build_is_loaded() -> None:
    expected = os.environ.get("LAIZI_EXPECT_BUILD")
    if expected is None:
        pytest.skip("LAIZI_EXPECT_BUILD not set (scripts/test.sh sets it)")
    assert expected == compiled.BUILD
    if expected == "compiled":
        # every hot module is loaded compiled, from an installed package (not src/)
        assert compiled.compiled_modules() == compiled.HOT_MODULES
        assert "site-packages" in (laizi.__file__ or "")
    else:
        assert compiled.compiled_modules() == ()


def test_build_flag_matches_the_loaded_modules() -> None:
    loaded = compiled.compiled_modules()
    assert loaded == compiled.installed_compiled()
    assert bool(loaded) == compiled.COMPILED
    assert ("compiled" if loaded else "pure") == compiled.BUILD
    for name in compiled.HOT_MODULES:
        mod = importlib.import_module(name)
        is_ext = any((mod.__file__ or "").endswith(s) for s in EXTENSION_SUFFIXES)
        assert is_ext == (name in loaded)


def test_hot_modules_are_laizi_modules_in_layer_order() -> None:
    layers = ["analysis", "scoring", "game", "views", "bots", "hints", "sim", "server"]
    seen = [layers.index(name.split(".")[1]) for name in compiled.HOT_MODULES]
    assert seen == sorted(seen)
    assert len(set(compiled.HOT_MODULES)) == len(compiled.HOT_MODULES)
    # the modules that check public input in their constructors stay pure
    assert "laizi.tiles" not in compiled.HOT_MODULES
    assert "laizi.game.actions" not in compiled.HOT_MODULES


def test_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"laizi {laizi.__version__} (")
    assert compiled.describe() in out
    assert ("compiled build (mypyc" in out) == compiled.COMPILED
    assert ("pure Python build" in out) == (not compiled.COMPILED)


def test_no_compiled_files_beside_the_sources() -> None:
    # editable installs are always pure, and the compiled build writes under build/
    assert _extension_files(ROOT / "src") == []


def _pip(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)


@pytest.mark.slow
def test_default_wheel_is_pure_python(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LAIZI_COMPILE"}
    proc = _pip("wheel", "--no-deps", "-q", "-w", str(tmp_path), ".", env=env)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "laizi/compiled.py" in names and "laizi/sim.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]


@pytest.mark.slow
def test_editable_install_ignores_the_compile_request(tmp_path: Path) -> None:
    target = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True)
    env = dict(os.environ, LAIZI_COMPILE="1")
    proc = _pip("--python", str(target / "bin" / "python"), "install", "--no-deps", "-e", ".",
                env=env)
    assert proc.returncode == 0, proc.stderr
    assert _extension_files(ROOT / "src") == []
    # the install points at the sources (without importing laizi: no deps installed)
    probe = subprocess.run(
        [str(target / "bin" / "python"), "-c",
         "import importlib.util as u; print(u.find_spec('laizi').origin)"],
        capture_output=True, text=True, cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert Path(probe.stdout.strip()).resolve() == ROOT / "src" / "laizi" / "__init__.py"


def test_backend_compiles_only_on_request() -> None:
    # the backend reads LAIZI_COMPILE when imported: run it in a fresh interpreter
    code = ("import laizi_build as b, os; "
            "print(b._compile(None), b._compile({'compile': '0'}), b._compile({'compile': 'yes'}), "
            "os.environ['LAIZI_COMPILE'])")
    for env_value, expected in (("1", "True False True 0"), ("", "False False True 0"),
                                ("no", "False False True 0")):
        env = dict(os.environ, LAIZI_COMPILE=env_value, PYTHONPATH=str(ROOT / "_build"))
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, env=env)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == expected.split()


def test_hand_str_is_counts_to_str() -> None:
    # the engine's own copy (compiled with it) writes exactly what tiles writes
    import random

    from laizi.game.table import hand_str
    from laizi.tiles import counts_to_str

    rng = random.Random(13)
    hands = [[0] * 34, [4] * 34] + [[rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(34)]
                                    for _ in range(2000)]
    for counts in hands:
        assert hand_str(counts) == counts_to_str(counts)


def test_states_and_values_pickle_and_copy() -> None:
    # the compiled classes too (frozen dataclasses restore through their constructor)
    import copy
    import pickle

    from laizi.game.state import HandState
    from laizi.rules import RuleSet
    from laizi.scoring.model import Meld
    from laizi.views import seat_view

    st = HandState.new(RuleSet.preset("kaikoufan"), 0, seed=b"c" * 32)
    for _ in range(12):  # into the hand: caches and win checks filled
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[-1])
    for twin in (pickle.loads(pickle.dumps(st)), copy.deepcopy(st), st.clone()):
        assert twin is not st and twin.hash() == st.hash()
        assert twin.legal_actions(twin.to_act()[0]) == st.legal_actions(st.to_act()[0])
    view = seat_view(st, 1)
    assert pickle.loads(pickle.dumps(view)) == view
    meld = Meld("peng", 3, 1)
    assert pickle.loads(pickle.dumps(meld)) == meld and copy.copy(meld) == meld
    assert hash(copy.deepcopy(meld)) == hash(meld)
