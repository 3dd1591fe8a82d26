"""laizi's build backend: setuptools, plus the opt-in mypyc-compiled core.

A thin wrapper of ``setuptools.build_meta`` (declared in ``pyproject.toml`` with
``backend-path``). The default build is pure Python (a ``py3-none-any`` wheel, no
compiler). ``LAIZI_COMPILE=1`` in the environment, or ``-C compile=1`` /
``--config-settings compile=1`` on the pip command line, asks for the compiled
build: mypy (which contains mypyc) is then added to the build requirements, so a
fresh isolated build environment gets it, and ``setup.py`` compiles the hot modules.

Editable installs (``pip install -e .``) are always pure: compiling them would put
extension modules beside the sources, where they would shadow later edits.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403 - the PEP 517 hooks not overridden here

# the build requirements of the compiled build (mypyc ships inside mypy)
# (pydantic too: mypyc type-checks the sources, and rules.py subclasses its BaseModel)
COMPILE_REQUIRES = ["mypy>=1.10", "mypy_extensions>=1.0", "pydantic>=2.6"]

_TRUE = ("1", "true", "yes", "on")

# Read once: the hooks below set LAIZI_COMPILE for setup.py themselves (only
# build_wheel may compile; metadata, sdist and editable builds are pure).
_ENV_COMPILE = os.environ.get("LAIZI_COMPILE", "").strip().lower() in _TRUE
os.environ["LAIZI_COMPILE"] = "0"


def _compile(config_settings: dict[str, Any] | None) -> bool:
    setting = (config_settings or {}).get("compile")
    if setting is not None:
        return str(setting).strip().lower() in _TRUE
    return _ENV_COMPILE


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    reqs = list(_orig.get_requires_for_build_wheel(_strip(config_settings)))
    if _compile(config_settings):
        reqs += COMPILE_REQUIRES
    return reqs


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    os.environ["LAIZI_COMPILE"] = "1" if _compile(config_settings) else "0"
    try:
        return _orig.build_wheel(wheel_directory, _strip(config_settings), metadata_directory)
    finally:
        os.environ["LAIZI_COMPILE"] = "0"


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    if _compile(config_settings):
        print("laizi: editable installs are always pure Python (LAIZI_COMPILE ignored); "
              "build the compiled core with `LAIZI_COMPILE=1 pip install .`")
    return _orig.build_editable(wheel_directory, _strip(config_settings), metadata_directory)


def _strip(config_settings: dict[str, Any] | None) -> dict[str, Any] | None:
    """The settings without ours (setuptools would pass unknown ones on to setup.py)."""
    if not config_settings:
        return config_settings
    return {k: v for k, v in config_settings.items() if k != "compile"} or None
